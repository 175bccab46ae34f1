"""Crop marks on all four sides of every sheet of pieces: for every front page of every card, tile and token
component of every shipped kit (layouts/ and docs/examples/), on A4 and Letter, each edge of each piece's trim
lies on a cut line that has a crop mark, at least 2 mm long, beyond the pieces at both ends (above and below
for a vertical cut, left and right for a horizontal one). Read from the drawing ops."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.layout.marks import MARK_WIDTH
from generator.layout.ops import Line, Page, Place
from generator.pipeline import shipped_kits
from generator.units import mm
from tests.composed import SHARED_PLANS, loaded_kits, planned

ROOT = Path(__file__).resolve().parents[2]
pytestmark = SHARED_PLANS
EXAMPLES = sorted(p for p in (ROOT / "docs" / "examples").iterdir() if (p / "kit.yaml").is_file())
KITS = loaded_kits([*shipped_kits(), *EXAMPLES])
Box = tuple[float, float, float, float]


def trim_on_page(place: Place) -> Box:
    """The page box of a placed face's trim (a face turned 90 degrees counter-clockwise about its origin)."""
    assert place.trim is not None
    tx, ty, tw, th = place.trim
    if place.rotate == 90:
        return place.x - ty - th, place.y + tx, place.x - ty, place.y + tx + tw
    assert place.rotate == 0, place.rotate
    return place.x + tx, place.y + ty, place.x + tx + tw, place.y + ty + th


def unmarked_edges(page: Page) -> list[str]:
    """Every trim edge of every piece on `page` that lacks a crop mark at either end of its cut line."""
    pieces = [(op.name, trim_on_page(op)) for op in page.ops if isinstance(op, Place) and op.trim is not None]
    if not pieces:
        return []
    low_x = min(b[0] for _, b in pieces)
    low_y = min(b[1] for _, b in pieces)
    high_x = max(b[2] for _, b in pieces)
    high_y = max(b[3] for _, b in pieces)
    marks = [
        op
        for op in page.ops
        if isinstance(op, Line)
        and op.stroke == "cut"
        and op.width == MARK_WIDTH
        and abs(op.x2 - op.x1) + abs(op.y2 - op.y1) >= mm(2) - 1e-6
    ]

    def marked(at: float, vertical: bool) -> tuple[bool, bool]:
        on = [
            m
            for m in marks
            if (vertical and abs(m.x1 - at) < 0.01 and abs(m.x2 - at) < 0.01)
            or (not vertical and abs(m.y1 - at) < 0.01 and abs(m.y2 - at) < 0.01)
        ]
        if vertical:
            return any(max(m.y1, m.y2) <= low_y for m in on), any(min(m.y1, m.y2) >= high_y for m in on)
        return any(max(m.x1, m.x2) <= low_x for m in on), any(min(m.x1, m.x2) >= high_x for m in on)

    problems = []
    for name, (x0, y0, x1, y1) in pieces:
        for side, at, vertical in (
            ("left", x0, True),
            ("right", x1, True),
            ("bottom", y0, False),
            ("top", y1, False),
        ):
            before, after = marked(at, vertical)
            if not (before and after):
                where = (
                    ("below" if vertical else "left of")
                    if not before
                    else ("above" if vertical else "right of")
                )
                problems.append(
                    f"{page.label}: {name}: {side} cut at {at:.2f} has no mark {where} the pieces"
                )
    return problems


def _front_pages(paper: str) -> list[tuple[str, list[Page]]]:
    plans = planned(KITS, paper)
    out = []
    for plan in plans:
        for part in plan.parts:
            fronts = [p for p in part.pages or [] if re.search(r" front \d+$", p.label)]
            if fronts and part.cid != "calibration":
                out.append((f"{plan.kit.meta.id}/{part.cid}", fronts))
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_cut_of_every_piece_has_a_crop_mark_at_both_ends(paper: str) -> None:
    found = _front_pages(paper)
    assert {w.split("/")[0] for w, _ in found} >= {"harvest_deck", "raindrops", "rummy_cards", "ripple_rush"}
    for where, pages in found:  # every sheet of pieces says where its pieces' trims are
        assert all(any(isinstance(op, Place) and op.trim for op in page.ops) for page in pages), where
    problems = [p for _, pages in found for page in pages for p in unmarked_edges(page)]
    assert problems == [], "\n".join(problems[:20])


def test_a_missing_mark_is_found() -> None:
    piece = Place(100, 100, (), name="card", trim=(0, 0, 50, 80))
    marks = [
        Line(100, 90, 100, 80, stroke="cut", width=MARK_WIDTH),
        Line(100, 190, 100, 200, stroke="cut", width=MARK_WIDTH),
        Line(150, 90, 150, 80, stroke="cut", width=MARK_WIDTH),  # none above the right cut
        Line(90, 100, 80, 100, stroke="cut", width=MARK_WIDTH),
        Line(160, 100, 170, 100, stroke="cut", width=MARK_WIDTH),
        Line(90, 180, 80, 180, stroke="cut", width=MARK_WIDTH),
        Line(160, 180, 170, 180, stroke="cut", width=MARK_WIDTH),
    ]
    assert unmarked_edges(Page(300, 300, [piece, *marks], label="deck front 1")) == [
        "deck front 1: card: right cut at 150.00 has no mark above the pieces"
    ]
