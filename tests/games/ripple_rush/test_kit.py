"""The printed Ripple Rush kit, read back with independent PDF readers."""

import hashlib
import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pikepdf
import pypdf
import pytest

from generator.contract.load import load_kit
from generator.pipeline import build
from generator.units import PAPER
from tests.sheetcheck import recorded_sheets

ROOT = Path(__file__).resolve().parents[3]
KIT = ROOT / "layouts" / "ripple_rush"
LANGS = ("en", "ja", "es")
"""The languages of the built kit the tests read (each of the five shipped is the same build path)."""


def page_texts(pdf: Path) -> list[str]:
    return [p.extract_text() or "" for p in pypdf.PdfReader(str(pdf)).pages]


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_one_pdf_per_component_and_a_kit_pdf(built, lang):
    folder = built("ripple_rush", langs=LANGS) / lang
    names = sorted(p.name for p in folder.glob("*.pdf"))
    assert names == sorted(
        [
            "score_sheet-a4.pdf",
            "number_cards-a4.pdf",
            "goal_cards-a4.pdf",
            "rules-a4.pdf",
            "kit-a4.pdf",
            "calibration-a4.pdf",
        ]
    )
    kit_pages = len(pypdf.PdfReader(str(folder / "kit-a4.pdf")).pages)
    parts = sum(len(pypdf.PdfReader(str(folder / n)).pages) for n in names if n != "kit-a4.pdf")
    sheets = recorded_sheets(folder, "kit-a4.pdf")
    assert kit_pages == len(sheets) == 2 * sheets[-1]["sheet"]  # duplex: every sheet has a back
    assert kit_pages == parts + 1 + sum(row["page"] is None for row in sheets)  # + checklist + blank backs


def _big_numbers(page) -> list[str]:
    """The big centre numbers of a page of cards, read from their glyphs (over 40 pt) whichever way the cards
    are turned: glyphs whose boxes touch make one number, joined in reading order (upwards for a
    card turned 90 degrees counter-clockwise)."""

    def gap(a: dict, b: dict) -> float:
        across = max(a["x0"], b["x0"]) - min(a["x1"], b["x1"])
        down = max(a["top"], b["top"]) - min(a["bottom"], b["bottom"])
        return max(across, down)

    numbers: list[list[dict]] = []
    for c in (c for c in page.chars if c["size"] > 40):
        home = next((n for n in numbers if any(gap(c, o) < 0.25 * c["size"] for o in n)), None)
        if home is None:
            numbers.append([c])
        else:
            home.append(c)

    def order(n: list[dict]) -> list[dict]:
        return sorted(n, key=lambda ch: ch["x0"]) if n[0]["upright"] else sorted(n, key=lambda ch: -ch["top"])

    return ["".join(ch["text"] for ch in order(n)) for n in numbers]


def test_hundred_distinct_number_cards(built):
    pdf = built("ripple_rush", langs=LANGS) / "en" / "number_cards-a4.pdf"
    faces = Counter()
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages[::2]:  # fronts; every other page is the backs
            faces.update(_big_numbers(page))
    assert sorted(int(k) for k in faces) == list(range(1, 26))
    assert set(faces.values()) == {4}  # each number once per suit: 4 suits x 25 = 100 cards


def test_number_card_pages_hold_eight_poker_cards_and_alternate_with_backs(built):
    pdf = built("ripple_rush", langs=LANGS) / "en" / "number_cards-a4.pdf"
    r = pypdf.PdfReader(str(pdf))
    # neighbours of different suits take a gutter: 8 a page, ceil(100 / 8) = 13 front pages, each followed by
    # its back page
    assert len(r.pages) == 2 * 13
    for p in r.pages:
        assert float(p.mediabox.width) == pytest.approx(PAPER["a4"][0], abs=0.1)
        assert float(p.mediabox.height) == pytest.approx(PAPER["a4"][1], abs=0.1)


@pytest.mark.parametrize("lang", ["ja", "es"])
def test_extracted_text_equals_catalog_strings(built, lang):
    kit = load_kit(KIT)
    cat = kit.catalogs[lang].messages
    folder = built("ripple_rush", langs=LANGS) / lang
    # spaces ignored: a label may wrap ('Cadena más / larga' stays at the body floor, issue 26)
    sheet = "".join(page_texts(folder / "score_sheet-a4.pdf")).replace("\n", "").replace(" ", "")
    for tid in ("kit.title", "sheet.name", "sheet.run", "sheet.goals", "sheet.total", "sheet.ascending"):
        assert cat[tid].replace(" ", "") in sheet, tid
    rules = "".join(page_texts(folder / "rules-a4.pdf")).replace("\n", "").replace(" ", "")
    for tid in ("rules.setup.title", "rules.write.title", "rules.bonus.title", "rules.end.title"):
        assert cat[tid].replace(" ", "") in rules, tid


def test_rules_numbers_follow_the_spec(built):
    rules = " ".join(page_texts(built("ripple_rush", langs=LANGS) / "en" / "rules-a4.pdf")).replace("\n", " ")
    assert "reveal 2" in rules and "+3 for each revealed goal" in rules and "up to +6" in rules
    assert "deck of 20 cards per player" in rules


def test_every_font_embedded_and_subset_no_helvetica(built):
    pdf = built("ripple_rush", langs=LANGS) / "ja" / "kit-a4.pdf"
    with pikepdf.open(pdf) as doc:
        names = set()
        for page in doc.pages:
            fonts = page.Resources.get("/Font", {})
            for _, f in fonts.items():
                names.add(str(f.BaseFont))
                desc = (
                    f.DescendantFonts[0].FontDescriptor
                    if "/DescendantFonts" in f
                    else f.get("/FontDescriptor")
                )
                assert desc is not None and any(
                    k in desc for k in ("/FontFile2", "/FontFile3", "/FontFile")
                ), f.BaseFont
    assert names and all(re.fullmatch(r"/[A-Z]{6}\+BIZUDPGothic-(Regular|Bold)", n) for n in names), names


def test_rebuild_is_byte_identical(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    build([KIT], out=a, langs=["ja"])
    build([KIT], out=b, langs=["ja"])
    files_a = sorted(p.relative_to(a) for p in a.rglob("*.pdf"))
    assert files_a == sorted(p.relative_to(b) for p in b.rglob("*.pdf"))
    for rel in files_a:
        assert (
            hashlib.sha256((a / rel).read_bytes()).digest() == hashlib.sha256((b / rel).read_bytes()).digest()
        ), rel


def test_letter_paper(built):
    r = pypdf.PdfReader(str(built("ripple_rush", "letter", langs=("en",)) / "en" / "number_cards-letter.pdf"))
    assert float(r.pages[0].mediabox.width) == pytest.approx(612, abs=0.1)
    assert (
        len(r.pages) == 26
    )  # 8 poker cards per Letter page (turned, to leave the crop marks room): 13 sheets


def test_outline_has_one_entry_per_component(built):
    r = pypdf.PdfReader(str(built("ripple_rush", langs=LANGS) / "es" / "kit-a4.pdf"))
    titles = [o.title for o in r.outline if not isinstance(o, list)]
    cat = load_kit(KIT).catalogs["es"].messages
    for cid in ("score_sheet", "number_cards", "goal_cards", "rules"):
        assert cat[f"component.{cid}"] in titles


# ------------------------------------------------------------------ house-rule switches (issue 11)

# (switch, setting): the sentence each language prints on the rules card for that setting only
SWITCH_TEXT = {
    ("announced_order", "any"): {
        "en": "write the announced cards, in any order they like",
        "ja": "宣言されたカードを好きな順に書いてよい",
        "es": "las cartas anunciadas, en el orden que prefiera",
    },
    ("announced_order", "seat"): {
        "en": "one at a time in the seat order of the players who announced them",
        "ja": "宣言した人の席順に1枚ずつ書いてよい",
        "es": "una a una en el orden de asiento de quienes las anunciaron",
    },
    ("x_bonus_numbers", "card_range"): {
        "en": "write any number from 1 to 25 in that colour's column",
        "ja": "1～25の好きな数字を書けます",
        "es": "cualquier número del 1 al 25 en la columna de ese color",
    },
    ("x_bonus_numbers", "any_integer"): {
        "en": "any whole number in that colour's column, even one below 1 or above 25",
        "ja": "好きな整数を書けます（1より小さい数や25より大きい数も可）",
        "es": "cualquier número entero en la columna de ese color, incluso menor que 1 o mayor que 25",
    },
}


@pytest.mark.parametrize("switch,setting", sorted(SWITCH_TEXT), ids=lambda v: str(v))
def test_each_house_rule_setting_prints_its_reading_in_every_language(switch, setting, tmp_path):
    from dataclasses import replace

    kit = load_kit(KIT)
    game = kit.game.model_copy(update={"rules": kit.game.rules.model_copy(update={switch: setting})})
    kit = replace(kit, game=game)
    others = [s for (sw, s) in SWITCH_TEXT if sw == switch and s != setting]
    for lang in ("en", "ja", "es"):
        text = _rules_card_text(kit, lang, tmp_path)  # the kit with its print data, as the build composes it
        assert re.sub(r"\s+", "", SWITCH_TEXT[(switch, setting)][lang]) in text, (lang, text)
        for other in others:
            assert re.sub(r"\s+", "", SWITCH_TEXT[(switch, other)][lang]) not in text, (lang, other)


# ---------------------------------------------------------------- rule figures come from the rules (issue 13)


_RULES_CARD_TEXT: dict[tuple[str, str], str] = {}
"""`_rules_card_text` of the shipped kit with some game section and its own figures, by (game section as
JSON, language): a setting of SWITCH_TEXT that is the shipped one, and the shipped card the figure tests
compare with, is the same card, composed and read once per test process."""


def _rules_card_text(kit, lang, tmp_path, figures=None):
    """The printed rules card of `kit` (the shipped kit, its game section perhaps replaced) in `lang`,
    composed with what the build passes (rule figures replaced by `figures` where given), as PDF text."""
    key = (kit.game.model_dump_json(), lang)
    if figures is None and key in _RULES_CARD_TEXT:
        return _RULES_CARD_TEXT[key]
    text = _read_rules_card(kit, lang, tmp_path, figures)
    if figures is None:
        _RULES_CARD_TEXT[key] = text
    return text


def _read_rules_card(kit, lang, tmp_path, figures):
    from generator.pipeline import print_data
    from generator.render.pdf import write_pdf
    from tests.composed import composed_one

    extras = print_data(kit, kit.meta.seed)
    extras["figures"] = {**extras["figures"], **(figures or {})}
    rules = composed_one(
        kit, lang, "rules", extras
    )  # the rules card alone, composed and checked as the kit's
    pdf = tmp_path / f"rules-{lang}.pdf"
    write_pdf(rules.pages[:1], pdf, title="rules", lang=lang)
    with pdfplumber.open(pdf) as doc:  # the left one of the two rules faces on the page
        page = doc.pages[0]
        return re.sub(r"\s+", "", page.crop((0, 0, page.width / 2, page.height)).extract_text() or "")


GOAL_FIGURES = {  # (goals.points, most goal points) -> the sentence each language prints
    "en": "+{p}foreachrevealedgoalwhoserowisfull(upto+{m})",
    "ja": "1枚につき+{p}点（最大+{m}点）",
    "es": "+{p}porcadaobjetivoreveladocuyafilaestécompleta(hasta+{m})",
}


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_a_changed_goal_figure_is_printed_on_the_rules_card(lang, tmp_path):
    """goals.points 4 (shipped: 3) prints +4 and the rules' most goal points 4 x 2 = 8, with no catalog edit;
    the deck table prints the cards the rules deal (cards_per_player 12: 12, 24, ... 60)."""
    from dataclasses import replace

    from tests.games.shipped import game_spec

    kit = load_kit(KIT)
    shipped = _rules_card_text(kit, lang, tmp_path)
    assert GOAL_FIGURES[lang].format(p=3, m=6) in shipped, shipped
    changed = replace(kit, game=game_spec("ripple_rush", {"goals.points": 4, "cards_per_player": 12}))
    text = _rules_card_text(changed, lang, tmp_path)
    assert GOAL_FIGURES[lang].format(p=4, m=8) in text, text
    assert GOAL_FIGURES[lang].format(p=3, m=6) not in text
    assert "12243648" + "60" in text and "20406080100" not in text, text  # the deck table's cards row


def test_the_rules_card_prints_the_figures_it_is_given_not_its_own_arithmetic(tmp_path):
    """Figures the composer is handed (here deliberately not the spec's arithmetic) are what it prints: it
    computes none of them itself."""
    kit = load_kit(KIT)
    text = _rules_card_text(
        kit,
        "en",
        tmp_path,
        {
            "deck_total": 99,
            "goal_max": 77,
            "goal_cards": 13,
            "deck_sizes": [[1, 21], [2, 42], [3, 63], [4, 84], [5, 105]],
        },
    )
    assert "Shufflethe99numbercards" in text and "(upto+77)" in text and "the13goal" in text, text
    assert "2142638410" + "5" in text and "20406080100" not in text, text


def test_rule_figures_are_the_reference_rules_numbers():
    from generator.games.ripple_rush.figures import rule_figures
    from generator.games.ripple_rush.rules import Game
    from tests.games.shipped import game_spec

    spec = game_spec("ripple_rush", {"goals.revealed": 3, "numbers.max": 20, "players.max": 4})
    fig = rule_figures(spec)
    assert fig["deck_total"] == 4 * 20 == len(Game.from_spec(spec, 1).full_deck())
    assert fig["deck"][:2] == [[0, 1], [0, 2]] and fig["deck"][-1] == [3, 20]
    assert (
        fig["deck_sizes"]
        == [[p, Game.from_spec(spec, p).deck_size] for p in (1, 2, 3, 4)]
        == [[1, 20], [2, 40], [3, 60], [4, 80]]
    )
    assert fig["goal_max"] == 3 * 3 and fig["goal_cards"] == 8 and fig["rounds"] == 20
    # the most goal points is what the rules score for a full sheet with every revealed goal row complete
    game = Game.from_spec(spec, 1)
    full = tuple(tuple(range(8, 0, -1)) for _ in game.suits)
    assert game.score_sheet(full, (1, 4, 8)).total - 4 * 8 == fig["goal_max"]


def test_the_composer_refuses_to_guess_missing_rule_figures():
    from generator.errors import LayoutError
    from generator.games.ripple_rush.layout import template_context

    with pytest.raises(LayoutError, match="rules figures are missing"):
        template_context(load_kit(KIT).game, {})


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_score_sheet_grid_starts_below_the_logo(paper):
    """docs/examples/make_it_yours fills the score sheet's logo slot: the suit headers start at least 1 mm
    below the logo's box on either paper (on Letter they reached into it, and the kit did not build)."""
    from generator.layout.ops import Place, Rect, Vector
    from generator.units import mm
    from tests.composed import loaded_kits, planned

    (plan,) = planned(loaded_kits([ROOT / "docs" / "examples" / "make_it_yours"]), paper)
    (part,) = [p for p in plan.parts if p.cid == "score_sheet"]
    faces = [op for page in part.pages or [] for op in page.ops if isinstance(op, Place) and op.name]
    assert faces
    for face in faces:
        (logo,) = [op for op in face.ops if isinstance(op, Vector) and op.slot == "logo"]
        headers = [op for op in face.ops if isinstance(op, Rect) and op.fill and abs(op.h - mm(11)) < 1e-6]
        assert len(headers) == 4
        assert logo.y >= max(r.y + r.h for r in headers) + mm(1) - 1e-6, (face.name, logo.y)
