"""docs/deck-kind.md stays true: its complete small kit is written out from the page and validated, built
(with the documented fallback warning) and checked; every element and option of the models is documented."""

from __future__ import annotations

import re

import pytest

from generator.games.deck import algebra
from generator.games.deck import spec as deck_spec
from generator.spec import template as tpl
from tests.games.deck.helpers import ROOT
from tests.games.deck.test_data import pnpkit

DOC = ROOT / "docs" / "deck-kind.md"
BLOCK = re.compile(r"<!-- example: (?P<path>[\w./]+) -->\n```\w*\n(?P<body>.*?)\n```", re.S)


def _example(tmp_path):
    kit = tmp_path / "tiny_deck"
    blocks = {m["path"]: m["body"] + "\n" for m in BLOCK.finditer(DOC.read_text(encoding="utf-8"))}
    assert sorted(blocks) == ["data/cards.csv", "kit.yaml", "locales/en.po", "locales/ja.po"]
    for rel, body in blocks.items():
        (kit / rel).parent.mkdir(parents=True, exist_ok=True)
        (kit / rel).write_text(body, encoding="utf-8")
    return kit


def test_the_documented_kit_builds_and_checks(tmp_path):
    kit = _example(tmp_path)
    r = pnpkit("build", str(kit), "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    assert "data/cards.csv:3: column name@ja: no ja translation; using English" in r.stderr
    r = pnpkit("check", str(kit), "--games", "500")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("HOLDS") == 4


TEMPLATES = re.compile(r"<!-- templates example: extends -->\n```yaml\n(?P<body>.*?)\n```", re.S)


def test_the_documented_templates_extend_rotate_fade_and_fill_with_gradients(tmp_path):
    """The Templates section's example, put into the small kit, builds: its gradients are PDF shadings, its
    opacity a graphics state, its rounded card a clip, and every row's back prints the row's own rule."""
    import pdfplumber
    import pikepdf

    body = TEMPLATES.search(DOC.read_text(encoding="utf-8"))["body"]
    for key in ("extends:", "remove:", "radius:", "gradient:", "rotate:", "opacity:", "padding:", "align:"):
        assert key in body, key
    kit = _example(tmp_path)
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    head, rest = text.split("  templates:\n", 1)
    tail = rest[rest.index("\n  rules:\n") :]
    indented = "\n".join("    " + line for line in body.splitlines())
    (kit / "kit.yaml").write_text(head + "  templates:\n" + indented + tail, encoding="utf-8")
    r = pnpkit("build", str(kit), "--out", str(tmp_path / "out"), "--lang", "en")
    assert r.returncode == 0, r.stderr
    (pdf,) = list((tmp_path / "out").rglob("en/kit-a4.pdf"))
    with pikepdf.open(pdf) as doc:
        raw = b"".join(bytes(str(dict(page.Resources.get("/ExtGState", {}))), "utf-8") for page in doc.pages)
        shadings = sum(1 for page in doc.pages if "/Shading" in page.Resources)
    assert shadings >= 1 and b"/ca\": Decimal('.8')" in raw
    with pdfplumber.open(pdf) as doc:
        # cards may be turned on the sheet (read bottom to top), their lines one word each: words joined
        words = " ".join(
            " ".join(page.extract_text(char_dir_rotated="btt") or "" for page in doc.pages).split()
        )
    assert "Burn one card." in words and "Freeze one card." in words  # per-row backs
    # the kit deals its cards from one shuffled pile: the per-row backs are warned about as documented
    documented = WARNING.search(DOC.read_text(encoding="utf-8"))["line"].removeprefix("warning: ")
    heard = [line for line in r.stderr.splitlines() if "shuffled pile" in line]
    assert len(heard) == 1 and heard[0].endswith(documented), (heard, documented)
    # ... and not once the deck says its cards lie apart
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    old = "      template: {by: type, cases: {fire: hot, ice: cold}}\n"
    assert text.count(old) == 1
    (kit / "kit.yaml").write_text(text.replace(old, old + "      backs: per_row\n"), encoding="utf-8")
    r = pnpkit("validate", str(kit), "--lang", "en")
    assert r.returncode == 0, r.stderr
    assert "shuffled pile" not in r.stderr


WARNING = re.compile(r"```text\n(?P<line>warning: tiny_deck/kit\.yaml:[^\n]*shuffled pile[^\n]*)\n```")
BACK_NULL = re.compile(r"<!-- templates example: back null -->\n```yaml\n(?P<body>.*?)\n```", re.S)


def test_the_documented_back_null_drops_the_inherited_back():
    import yaml

    from tests.games.deck.helpers import deck

    templates = yaml.safe_load(BACK_NULL.search(DOC.read_text(encoding="utf-8"))["body"])
    assert templates["sticker"] == {"extends": "card", "back": None}
    game = deck(
        [{"id": "a", "count": 1}],
        templates=templates,
        decks={"cards": {"data": [{"id": "a", "count": 1, "name": "A"}], "template": "sticker"}},
    ).spec
    assert game.templates["card"].back is not None
    assert game.templates["sticker"].back is None
    assert game.templates["sticker"].front == game.templates["card"].front


DRAWS = re.compile(r"<!-- draws example: poker_hands -->\n```yaml\n(?P<body>.*?)\n```", re.S)


def test_the_documented_conditions_hold_on_the_poker_deck(tmp_path):
    """Every condition of the Conditions section, put into a copy of docs/examples/poker_hands, HOLDS (the
    bounds written there are the exact values, computed independently with math.comb)."""
    import shutil

    body = DRAWS.search(DOC.read_text(encoding="utf-8"))["body"]
    for key in (
        "where:",
        "same:",
        "distinct:",
        "run:",
        "sum:",
        "all_of:",
        "any_of:",
        "none_of:",
        "at_least:",
        "at_most:",
        "exactly:",
        "between:",
        "values:",
        "order:",
        "turns:",
        "mulligan:",
    ):
        assert key in body, key
    kit = tmp_path / "poker_hands"
    shutil.copytree(ROOT / "docs" / "examples" / "poker_hands", kit)
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    head, tail = text.split("  balance:\n", 1)
    text = (
        head
        + "  balance:\n"
        + "\n".join("    " + line for line in body.splitlines())
        + "\n\ncomponents:"
        + tail.split("\ncomponents:", 1)[1]
    )
    (kit / "kit.yaml").write_text(text, encoding="utf-8")
    r = pnpkit("check", str(kit))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("HOLDS") == body.count("name:") == 15
    assert "measured 120 / 1,326 (9.05 %)" in r.stdout  # two ten-valued cards: C(16, 2) of C(52, 2)


ELEMENTS = [
    tpl.TextElement,
    tpl.RectElement,
    tpl.EllipseElement,
    tpl.LineElement,
    tpl.PolygonElement,
    tpl.IconElement,
    tpl.ImageElement,
    tpl.RepeatElement,
    tpl.GridElement,
]
MODELS = [
    deck_spec.DeckGame,
    deck_spec.DeckComponent,
    deck_spec.ComponentRules,
    deck_spec.DrawCheck,
    deck_spec.DeckBalance,
    deck_spec.Deal,
    tpl.FaceTemplate,
    tpl.TemplateChoice,
    tpl.Gradient,
    algebra.HandCondition,
    algebra.Turns,
    algebra.Mulligan,
    algebra.ExactBound,
]


@pytest.mark.parametrize("model", ELEMENTS + MODELS, ids=lambda m: m.__name__)
def test_every_element_and_option_is_documented(model):
    text = DOC.read_text(encoding="utf-8")
    if model in ELEMENTS:
        kind = model.model_fields["type"].annotation.__args__[0]
        assert f"### `{kind}`" in text
    missing = [f for f in model.model_fields if f"`{f}`" not in text]
    assert missing == []


def test_every_element_kind_is_in_the_union():
    kinds = {m.model_fields["type"].annotation.__args__[0] for m in ELEMENTS}
    union = tpl.AnyElement.__origin__.__args__  # type: ignore[attr-defined]
    assert {m.model_fields["type"].annotation.__args__[0] for m in union} == kinds
