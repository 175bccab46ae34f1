"""Small text keeps a WCAG contrast ratio (`style.min_contrast`, default 4.5:1) against what is under it: the
score-sheet footers (6.4 pt) and miss-box labels (6.9 pt) printed in a mid grey of 3.45:1 before."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from generator.contract.compose import compose_kit, template_context
from generator.errors import LayoutError
from generator.i18n.texts import Texts
from generator.layout.compose import Component, Context
from generator.layout.legibility import check_contrast, contrast_ratio, low_contrast
from generator.layout.ops import Circle, Image, Page, Place, Polygon, Rect, Text
from generator.pipeline import load_kits, print_data, with_tool_catalogs
from generator.render.fonts import text_width
from generator.spec.assets import Asset

ROOT = Path(__file__).resolve().parents[2]
KITS = [
    "layouts/harvest_deck",
    "layouts/peak_dice",
    "layouts/raindrops",
    "layouts/ripple_rush",
    "layouts/rummy_cards",
    "layouts/sprout_sheet",
    "docs/examples/land_count",
    "docs/examples/make_it_yours",
    "docs/examples/poker_hands",
]


def test_the_ratio_is_wcag_2():
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)
    assert contrast_ratio("#8a8a8a", "paper") == pytest.approx(3.45, abs=0.01)  # the old mid grey
    assert contrast_ratio("muted", "paper") >= 4.5  # the muted ink now
    assert contrast_ratio("#fff", "#ffffff") is None


def _comp(*ops) -> Component:
    return Component("score_sheet", "Score sheet", [Page(300, 300, list(ops))])


def test_small_grey_text_on_paper_is_an_error_naming_the_string_and_both_colours():
    comp = _comp(
        Text(10, 10, "Write each row", 6.4, fill="#8a8a8a", text_id="sheet.footer", role="fine"),
        Text(10, 30, "and more", 6.4, fill="#8a8a8a", text_id="sheet.footer", role="fine"),
        Text(10, 60, "Big enough", 9.0, fill="#8a8a8a"),
        Text(10, 90, "dark", 6.4, fill="ink"),
    )
    (found,) = low_contrast([comp], text_width, 4.5)
    assert (found.text, found.more, round(found.ratio, 2)) == ("Write each row", 1, 3.45)
    with pytest.raises(LayoutError) as e:
        check_contrast([comp], text_width, 4.5, "layouts/x/kit.yaml", None, "de")
    assert str(e.value) == (
        "layouts/x/kit.yaml: score_sheet (de): sheet.footer 'Write each row' (and 1 more strings like it) is "
        "printed at 6.40 pt in #8a8a8a on #ffffff: contrast 3.45:1, under 4.5:1 for text under 9 pt "
        "(style.min_contrast); darken the text or lighten what is under it"
    )
    assert low_contrast([comp], text_width, 3.4) == []  # a designer may lower the floor


def test_the_colour_under_is_the_last_shape_drawn_below_the_text():
    on_dark = _comp(Rect(0, 0, 100, 100, fill="#222222", stroke=None), Text(10, 10, "Tier 3", 7, fill="ink"))
    assert [f.under for f in low_contrast([on_dark], text_width, 4.5)] == ["#222222"]
    white_on_dark = _comp(Rect(0, 0, 100, 100, fill="#222222"), Text(10, 10, "Tier 3", 7, fill="#ffffff"))
    assert low_contrast([white_on_dark], text_width, 4.5) == []
    drawn_after = _comp(Text(10, 10, "Tier 3", 7, fill="#ffffff"), Rect(0, 0, 5, 5, fill="#ffffff"))
    assert [f.under for f in low_contrast([drawn_after], text_width, 4.5)] == ["#ffffff"]
    placed = _comp(Place(50, 50, (Rect(0, 0, 100, 100, fill="#222222"), Text(5, 5, "x y", 3, fill="ink"))))
    assert [f.under for f in low_contrast([placed], text_width, 4.5)] == ["#222222"]


def test_a_polygon_or_circle_counts_only_where_it_covers_the_text():
    tilted = Polygon(
        ((0, 0), (200, 0), (200, 5)), fill="#222222", stroke=None
    )  # a sliver under the box's left
    assert low_contrast([_comp(tilted, Text(10, 40, "label", 7, fill="ink"))], text_width, 4.5) == []
    ring = Circle(0, 0, 20, fill="#222222", stroke=None)
    assert low_contrast([_comp(ring, Text(16, 16, "ab", 4, fill="ink"))], text_width, 4.5) == []
    assert low_contrast([_comp(ring, Text(-3, -1, "ab", 4, fill="ink"))], text_width, 4.5) != []


def test_text_over_art_is_left_to_the_art_checks():
    art = Image(Asset("a.png", "raster", "0" * 64, 10, 10, b""), 0, 0, 100, 100)
    assert low_contrast([_comp(art, Text(10, 10, "over art", 6, fill="#8a8a8a"))], text_width, 4.5) == []


def _compose(path: str, lang: str) -> list[Component]:
    (kit,) = load_kits([ROOT / path])
    extras = print_data(kit, kit.meta.seed)
    texts = Texts(lang, with_tool_catalogs(kit), template_context(kit, extras), warn=lambda _: None)
    return compose_kit(
        Context(kit, lang, texts, text_width, kit.print.paper, kit.meta.seed, kit.print, extras)
    )


@pytest.mark.parametrize("path", KITS)
def test_every_shipped_small_string_keeps_4_5_to_1(path):
    # before: the footers, miss-box labels, name lines, holder labels and card type labels in #8a8a8a (3.45:1)
    (kit,) = load_kits([ROOT / path])
    for lang in ("en", "de", "ja"):
        if lang in kit.meta.languages:
            assert [f.message(lang) for f in low_contrast(_compose(path, lang), text_width, 4.5)] == []


def _hex(colour) -> str:
    if colour is None or len(colour) == 1:
        grey = colour[0] if colour else 0.0
        colour = (grey, grey, grey)
    return "#" + "".join(f"{round(c * 255):02x}" for c in colour[:3])


@pytest.mark.parametrize("kit, lang", [("peak_dice", "de"), ("ripple_rush", "en")])
def test_the_score_sheet_footers_print_dark_enough_in_the_pdf(built, kit, lang):
    # read back with pdfplumber: every character under 9 pt on the paper (no filled box under it)
    pdf = built(kit, langs=(lang,)) / lang / "score_sheet-a4.pdf"
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        filled = [r for r in page.rects if r.get("fill") and _hex(r["non_stroking_color"]) != "#ffffff"]
        small = [
            c
            for c in page.chars
            if c["size"] < 9
            and c["text"].strip()
            and not any(
                r["x0"] <= c["x0"]
                and c["x1"] <= r["x1"]
                and r["top"] <= c["top"]
                and c["bottom"] <= r["bottom"]
                for r in filled
            )
        ]
        assert len(small) > 100
        low = {
            (c["text"], _hex(c["non_stroking_color"]))
            for c in small
            if contrast_ratio(_hex(c["non_stroking_color"]), "#ffffff") < 4.5
        }
    assert low == set()
