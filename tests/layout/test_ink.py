"""Ink coverage estimated from the ops (generator.layout.ink) and the build summary line that reports it with
the sheet count, held against an independent reader: the kit PDF rastered (tests/inkcheck.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.layout.ink import CELL, ink_area
from generator.layout.ops import Circle, Page, Place, Polygon, Rect, Text
from generator.render.pdf import write_pdf
from generator.units import mm
from tests.inkcheck import ink_coverage

A4 = (595.2756, 841.8898)
MARGIN = mm(5)
ROOT = Path(__file__).resolve().parents[2]


def test_filled_shapes_ink_their_area_white_and_clipped_art_does_not() -> None:
    w, h = A4
    rect = Page(w, h, [Rect(mm(20), mm(20), mm(100), mm(50), fill="#336699", stroke=None)])
    assert ink_area(rect) == pytest.approx(mm(100) * mm(50), rel=0.03)
    white = Page(w, h, [Rect(mm(20), mm(20), mm(100), mm(50), fill="#ffffff", stroke=None)])
    assert ink_area(white) == 0
    disc = Page(w, h, [Circle(mm(60), mm(60), mm(20), fill="#000000", stroke=None)])
    assert ink_area(disc) == pytest.approx(3.1416 * mm(20) ** 2, rel=0.05)
    # a place clips: a 100 mm square drawn through a 10 x 10 mm window, turned and moved
    big = Rect(0, 0, mm(100), mm(100), fill="#000000", stroke=None)
    clipped = Page(w, h, [Place(mm(50), mm(50), (big,), clip=(0, 0, mm(10), mm(10)), rotate=90)])
    assert ink_area(clipped) == pytest.approx(mm(10) * mm(10), abs=2 * CELL * mm(10))
    # ink in the margin does not count
    edge = Page(w, h, [Rect(0, 0, w, MARGIN * 0.8, fill="#000000", stroke=None)])
    assert ink_area(edge, MARGIN) == 0
    assert ink_area(Page(w, h, [Text(mm(20), mm(20), "Hello", 10)])) > 0


def test_the_estimate_agrees_with_the_rastered_pdf(tmp_path: Path) -> None:
    w, h = A4
    pages = [
        Page(w, h, [Rect(MARGIN, MARGIN, w - 2 * MARGIN, (h - 2 * MARGIN) / 2, fill="#336699", stroke=None)]),
        Page(w, h, []),
        Page(w, h, [Circle(w / 2, h / 2, mm(60), fill="#cc3300", stroke=None)]),
    ]
    pdf = tmp_path / "ink.pdf"
    write_pdf(pages, pdf, title="ink")
    printable = (w - 2 * MARGIN) * (h - 2 * MARGIN)
    estimate = (ink_area(pages[0], MARGIN) + ink_area(pages[2], MARGIN)) / (2 * printable)
    assert ink_coverage(pdf, MARGIN) == pytest.approx(estimate, abs=0.02)


def test_the_build_summary_reports_sheets_of_paper_and_ink(tmp_path: Path) -> None:
    """Raindrops, English, A4: the summary line's sheet count is the record's sheet map, its ink within 10
    points of the rastered kit PDF's (text and thin lines count as boxes in the estimate)."""
    from generator.pipeline import build
    from tests.sheetcheck import recorded_sheets

    result = build([ROOT / "layouts" / "raindrops"], out=tmp_path, langs=["en"])
    lines = [line for line in result.checklists if "sheets of paper" in line]
    assert len(lines) == 1, result.checklists
    m = re.fullmatch(r"raindrops/en: (\d+) sheets of paper, ink on (\d+)% of the printable area", lines[0])
    assert m, lines[0]
    folder = tmp_path / "raindrops" / "en"
    assert int(m[1]) == max(int(str(r["sheet"])) for r in recorded_sheets(folder, "kit-a4.pdf"))
    measured = ink_coverage(folder / "kit-a4.pdf", mm(5))
    assert int(m[2]) / 100 == pytest.approx(measured, abs=0.10), measured


def test_a_page_asked_again_is_answered_again_after_any_change() -> None:
    """ink_area remembers a page's answer (and shares it with pages equal to it): a second question about the
    same page gives the same area, and a page whose ops, size or margin changed since is measured again
    (never the remembered answer)."""
    w, h = A4
    square = Rect(mm(20), mm(20), mm(50), mm(50), fill="#000000", stroke=None)
    page = Page(w, h, [square])
    first = ink_area(page)
    assert ink_area(page) == first == ink_area(Page(w, h, [square]))
    page.ops.append(Rect(mm(100), mm(100), mm(50), mm(50), fill="#000000", stroke=None))
    assert ink_area(page) == pytest.approx(2 * first)
    page.ops[1] = Rect(mm(100), mm(100), mm(50), mm(50), fill="#ffffff", stroke=None)  # same count, new op
    assert ink_area(page) == first
    page.ops[0] = Place(0, 0, (square,), clip=(0, 0, mm(45), mm(70)))  # half of the square cut away
    assert ink_area(page) == pytest.approx(first / 2, rel=0.05)
    page.width = mm(40)  # the page now ends halfway across the square (the place clips to x < 45 mm)
    assert ink_area(page) == pytest.approx(first * 2 / 5, rel=0.05)
    assert ink_area(page, mm(30)) == pytest.approx(0)
    # equal pages share their answer; a page with an op that cannot be compared by value is measured alone
    twin = Page(w, h, [Rect(mm(20), mm(20), mm(50), mm(50), fill="#000000", stroke=None)])
    assert ink_area(twin) == first
    loose = Polygon([(0, 0), (mm(30), 0), (mm(30), mm(30)), (0, mm(30))], fill="#000000")  # type: ignore[arg-type]
    assert ink_area(Page(w, h, [loose])) == pytest.approx(mm(30) ** 2, rel=0.05)
