"""Imposition math: cards per page, grids inside the margin, backs, shop pages, sheets, calibration."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.errors import LayoutError
from generator.layout.imposition import (
    MIN_MARK_ROOM,
    MIN_OUTER_BLEED,
    calibration_pages,
    card_grid,
    impose_cards,
    impose_sheets,
    sheet_slot,
)
from generator.layout.marks import RULER_THICKNESS
from generator.layout.ops import Face, Line, Place, Rect, dump, iter_texts
from generator.spec.print import PrintSpec
from generator.units import CARD_PRESETS, PAPER, mm
from tests.layout.faces import card

# Worked by hand: paper minus 2 x 5 mm margin minus, on each side, room for crop marks and outer bleed (3.5 mm
# + 3 mm, or at least 2.5 mm + 1.5 mm), divided by the card (or the card turned), both orientations. E.g. a4
# square: (200 - 8) / 70 = 2 across, (287 - 8) / 70 = 3 down; bridge: 3 x 3 portrait, landscape (287 - 8) /
# 57.2 = 4 x 2; letter poker: 266.7 mm of three rows > 279.4 - 10 - 8, so 2 x 4 turned.
EXPECTED = {
    ("a4", "poker"): 9,
    ("a4", "bridge"): 9,
    ("a4", "mini"): 18,
    ("a4", "tarot"): 4,
    ("a4", "square"): 6,
    ("letter", "poker"): 8,
    ("letter", "bridge"): 8,
    ("letter", "mini"): 16,
    ("letter", "tarot"): 4,
    ("letter", "square"): 6,
}


@pytest.mark.parametrize(("paper", "preset"), sorted(EXPECTED))
def test_cards_per_page(paper: str, preset: str) -> None:
    w, h = CARD_PRESETS[preset]
    grid = card_grid(paper, w, h, PrintSpec())
    assert grid.per_page == EXPECTED[paper, preset]


def test_nine_poker_cards_on_portrait_a4_home_sheets() -> None:
    grid = card_grid("a4", *CARD_PRESETS["poker"], PrintSpec(), landscape=False)
    assert (grid.cols, grid.rows, grid.rotated, grid.landscape) == (3, 3, False, False)
    assert grid.pitch_x == pytest.approx(mm(63.5)) and grid.pitch_y == pytest.approx(mm(88.9))
    assert grid.outer_bleed == pytest.approx(mm(1.5))  # the least outer bleed, to keep the ninth card


def test_poker_cards_turned_on_letter_to_leave_room_for_marks() -> None:
    grid = card_grid("letter", *CARD_PRESETS["poker"], PrintSpec(), landscape=False)
    assert (grid.cols, grid.rows, grid.rotated) == (2, 4, True)
    assert grid.outer_bleed == pytest.approx(mm(3))


def test_custom_size_and_no_rotation() -> None:
    grid = card_grid("a4", mm(44), mm(63), PrintSpec(), allow_rotate=False, landscape=False)
    assert (grid.cols, grid.rows) == (4, 4)


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
@pytest.mark.parametrize("preset", sorted(CARD_PRESETS))
@pytest.mark.parametrize("gutter", ["0mm", "2mm", "8mm"])
def test_grid_inside_margin_and_no_overlap(paper: str, preset: str, gutter: str) -> None:
    settings = PrintSpec(gutter=gutter)
    g = card_grid(paper, *CARD_PRESETS[preset], settings)
    x0, y0, x1, y1 = g.art_box()
    m = settings.margin + MIN_MARK_ROOM  # the crop marks have room on every side
    assert x0 >= m - 1e-6 and y0 >= m - 1e-6 and x1 <= g.page_w - m + 1e-6 and y1 <= g.page_h - m + 1e-6
    # one more column or row would not fit even with the least outer bleed
    tight = 2 * max(g.bleed, MIN_OUTER_BLEED)
    assert (x1 - x0) - 2 * max(g.bleed, g.outer_bleed) + tight + g.pitch_x > g.page_w - 2 * m
    assert (y1 - y0) - 2 * max(g.bleed, g.outer_bleed) + tight + g.pitch_y > g.page_h - 2 * m
    assert g.pitch_x - g.card_w == pytest.approx(settings.gutter)
    assert g.bleed == pytest.approx(min(settings.bleed, settings.gutter / 2))
    assert (
        g.outer_bleed >= min(settings.bleed, MIN_OUTER_BLEED) - 1e-9
    )  # a 1 mm miscut outside still meets art


def test_card_larger_than_paper_is_a_layout_error() -> None:
    with pytest.raises(
        LayoutError, match=r"a 300\.0 x 400\.0 mm card does not fit on a4 inside a 5\.0 mm margin"
    ):
        card_grid("a4", mm(300), mm(400), PrintSpec())


def _cards(n: int, preset: str = "poker", side: int = 1) -> list[Face]:
    w, h = CARD_PRESETS[preset]
    return [card(i, w, h, side=side) for i in range(n)]


def test_home_pages_backs_after_fronts_and_bookmark() -> None:
    pages = impose_cards("deck", _cards(12), _cards(12, side=2), PrintSpec(), "a4", bookmark="Deck")
    assert [p.label for p in pages] == ["deck front 1", "deck back 1", "deck front 2", "deck back 2"]
    assert [p.bookmark for p in pages] == ["Deck", None, None, None]
    assert [sum(isinstance(op, Place) and len(op.ops) == 4 for op in p.ops) for p in pages] == [9, 9, 3, 3]
    assert all((p.width, p.height) == PAPER["a4"] for p in pages)


def test_shared_back_and_no_duplex() -> None:
    assert len(impose_cards("d", _cards(5), card(0, *CARD_PRESETS["poker"], side=2), PrintSpec(), "a4")) == 2
    assert len(impose_cards("d", _cards(5), _cards(5, side=2), PrintSpec(duplex="none"), "a4")) == 1
    assert len(impose_cards("d", _cards(5), None, PrintSpec(), "a4")) == 1


def test_back_count_and_size_mismatch() -> None:
    with pytest.raises(LayoutError, match="deck: 3 fronts but 2 backs"):
        impose_cards("deck", _cards(3), _cards(2, side=2), PrintSpec(), "a4")
    with pytest.raises(LayoutError, match="deck: back 'B0' is 44.0 x 63.0 mm; expected 63.5 x 88.9 mm"):
        impose_cards("deck", _cards(1), _cards(1, "mini", side=2), PrintSpec(), "a4")


def test_every_home_page_has_the_check_ruler_clear_of_the_cards() -> None:
    for preset in CARD_PRESETS:
        for paper in ("a4", "letter"):
            pages = impose_cards("d", _cards(3, preset), _cards(3, preset, 2), PrintSpec(), paper)
            for p in pages:
                assert [t.text for t in iter_texts(p.ops)].count("50 mm") == 1, (preset, paper)


def test_crop_marks_extend_cuts_outside_the_cards() -> None:
    settings = PrintSpec()
    pages = impose_cards("d", _cards(9), None, settings, "a4")
    grid = card_grid("a4", *CARD_PRESETS["poker"], settings)
    x0, y0, x1, y1 = grid.art_box()
    marks = [op for op in pages[0].ops if isinstance(op, Line)]
    xs, ys = grid.cuts()
    assert len(xs) == 4 and len(ys) == 4
    for m in marks:
        vertical = m.x1 == m.x2
        if vertical:
            assert any(abs(m.x1 - x) < 1e-6 for x in xs)
            assert max(m.y1, m.y2) <= y0 or min(m.y1, m.y2) >= y1
        else:
            assert any(abs(m.y1 - y) < 1e-6 for y in ys)
            assert max(m.x1, m.x2) <= x0 or min(m.x1, m.x2) >= x1
        for v in (m.x1, m.x2):
            assert settings.margin - 1e-6 <= v <= grid.page_w - settings.margin + 1e-6
        for v in (m.y1, m.y2):
            assert settings.margin - 1e-6 <= v <= grid.page_h - settings.margin + 1e-6
    assert len(marks) == 2 * 4 + 2 * 4  # both ends of every cut


def test_shop_pages() -> None:
    settings = PrintSpec(mode="shop")
    w, h = CARD_PRESETS["poker"]
    pages = impose_cards("deck", _cards(2), card(9, w, h, side=2), settings, "a4")
    b = settings.bleed
    assert [p.label for p in pages] == ["deck front 1", "deck back 1", "deck front 2", "deck back 2"]
    for p in pages:
        assert (p.width, p.height) == pytest.approx((w + 2 * b, h + 2 * b))
        assert p.trim_box == pytest.approx((b, b, b + w, b + h))
        assert p.bleed_box == pytest.approx((0, 0, w + 2 * b, h + 2 * b))


def test_sheets_fill_slots_and_report_too_large() -> None:
    settings = PrintSpec()
    sw, sh = sheet_slot("a4", 2, False, settings)
    pw, ph = PAPER["a4"]
    assert sw == pytest.approx(pw - 2 * settings.margin - 2 * mm(3.5))
    assert 2 * sh + mm(6) == pytest.approx(ph - 2 * settings.margin - 2 * mm(3.5) - RULER_THICKNESS - mm(0.5))
    faces = [Face(f"s{i}", sw, sh, (Rect(0, 0, sw, sh),)) for i in range(3)]
    pages = impose_sheets("score", faces, settings, "a4", per_page=2, landscape=False, bookmark="Score")
    assert len(pages) == 2 and pages[0].bookmark == "Score"
    places = [op for op in pages[0].ops if isinstance(op, Place)]
    assert len(places) >= 2
    assert places[0].y > places[1].y  # first sheet on top
    with pytest.raises(LayoutError, match="score: sheet 'big' is"):
        impose_sheets("score", [Face("big", sw + 5, sh, ())], settings, "a4", per_page=2, landscape=False)
    lw, lh = sheet_slot("a4", 2, True, settings)
    assert lw < lh  # side by side on landscape


def test_calibration_pages() -> None:
    pages = calibration_pages(PrintSpec(), "a4", title="Calibrate", instructions=["one", "two"])
    assert len(pages) == 2 and pages[0].bookmark == "Calibrate"
    texts = [t.text for t in iter_texts(pages[0].ops)]
    assert texts[:3] == ["Calibrate", "one", "two"]
    back_labels = {t.text for t in iter_texts(pages[1].ops)}
    assert {"+10", "-10", "+6", "-6", "0", "+2", "-2"} <= back_labels  # the whole print.back_offset range
    assert len(calibration_pages(PrintSpec(duplex="none"), "a4", title="t", instructions=[])) == 1


def test_calibration_scale_labels_are_legible_and_apart() -> None:
    from generator.render.fonts import text_width

    back = calibration_pages(PrintSpec(), "a4", title="Calibrate", instructions=[])[1]
    labels = [t for t in iter_texts(back.ops) if re.fullmatch(r"[+-]?\d+", t.text)]
    assert len(labels) == 4 * 11  # four scales, -10..+10 every 2 mm
    boxes = []
    for t in labels:
        assert t.size >= 6
        w = text_width(t.text, t.font, t.size)
        lo, hi = -0.05 * t.size, 0.75 * t.size  # descent and cap height across the baseline
        a0, a1 = (0.0, w) if t.anchor == "start" else (-w, 0.0)
        if t.rotate == 90:  # reads upwards: along +y, its top towards -x
            boxes.append((t.x - hi, t.y + a0, t.x - lo, t.y + a1))
        else:
            boxes.append((t.x + a0, t.y + lo, t.x + a1, t.y + hi))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (a, b)


def test_dump_golden(golden: object) -> None:
    w, h = CARD_PRESETS["mini"]
    pages = impose_cards(
        "deck",
        [card(i, w, h) for i in range(2)],
        card(0, w, h, side=2),
        PrintSpec(back_offset={"x": "0.5mm", "y": "-1mm"}),
        "letter",
    )
    golden.check(Path(__file__).parent / "goldens" / "deck_mini_letter.txt", dump(pages))  # type: ignore[attr-defined]


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
@pytest.mark.parametrize("gutter", ["0mm", "2mm", "6mm"])
def test_ruler_inside_margin_and_clear_of_cards(paper: str, gutter: str) -> None:
    from generator.layout.imposition import _ruler_spot

    settings = PrintSpec(gutter=gutter)
    for preset in CARD_PRESETS:
        g = card_grid(paper, *CARD_PRESETS[preset], settings)
        (x0, y0, x1, y1), _ = _ruler_spot(g.page_w, g.page_h, settings.margin, g.art_box())
        ax0, ay0, ax1, ay1 = g.art_box()
        m = settings.margin
        assert x0 >= m - 1e-6 and y0 >= m - 1e-6 and x1 <= g.page_w - m + 1e-6 and y1 <= g.page_h - m + 1e-6
        assert x1 <= ax0 or x0 >= ax1 or y1 <= ay0 or y0 >= ay1, preset
