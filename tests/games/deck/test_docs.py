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
