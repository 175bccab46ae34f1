"""Gutters where neighbours differ: a face's edge colour read from its ops, and the home grid that lets two
cards share a cut only where both print the same one colour there."""

from __future__ import annotations

import pytest

from generator.layout.edges import edge_colour, face_edges
from generator.layout.imposition import AUTO_GUTTER_MIN, home_grid, impose_cards
from generator.layout.ops import Circle, Face, Place, Rect, Text
from generator.spec.print import PrintSpec
from generator.units import CARD_PRESETS, mm
from tests.layout.faces import card

W, H = CARD_PRESETS["poker"]


def test_a_bleed_fill_with_an_inner_frame_prints_its_fill_on_every_edge() -> None:
    face = Face(
        "f", W, H, (Rect(-9, -9, W + 18, H + 18, fill="#C9A227", stroke=None), Rect(8, 8, W - 16, H - 16))
    )
    assert face_edges(face) == dict.fromkeys(("left", "bottom", "right", "top"), "#c9a227")


@pytest.mark.parametrize(
    "over",
    [
        Rect(0, 0, W, H, fill=None, stroke="ink", width=0.6),  # an outline on the cut
        Circle(W - mm(0.5), H / 2, mm(3), fill="#ffffff"),  # a badge reaching the edge
        Text(mm(0.2), H / 2, "7", 12),  # a number against the edge
        Rect(0, 0, W, H, fill="#ff0000", stroke=None, radius=mm(2)),  # rounded: paper shows in the corners
    ],
)
def test_anything_else_near_an_edge_leaves_its_colour_unknown(over: object) -> None:
    face = Face("f", W, H, (Rect(-9, -9, W + 18, H + 18, fill="#123456", stroke=None), over))  # type: ignore[arg-type]
    assert None in face_edges(face).values()


def test_a_later_fill_over_the_whole_band_decides_the_colour() -> None:
    face = Face(
        "f",
        W,
        H,
        (Text(1, 1, "x", 8), Rect(-9, -9, W / 2 + 9, H + 18, fill="#00ff00", stroke=None)),
    )
    assert edge_colour(face, "left") == "#00ff00"
    assert edge_colour(face, "right") == "#ffffff"  # unprinted paper


def _per_page(fronts: list[Face], backs: list[Face] | None, settings: PrintSpec) -> tuple[int, float, float]:
    grid = home_grid(fronts, backs, settings, "a4")
    return grid.per_page, grid.pitch_x - grid.card_w, grid.pitch_y - grid.card_h


def test_cards_of_one_edge_colour_share_their_cuts() -> None:
    fronts = [card(i, W, H) for i in range(12)]
    backs = [card(i, W, H, side=2) for i in range(12)]
    assert _per_page(fronts, backs, PrintSpec()) == (9, 0.0, 0.0)


def test_neighbours_of_different_colours_get_a_gutter_and_each_its_own_bleed() -> None:
    fronts = [card(i, W, H, fill="#c9a227" if i % 2 else "#7fb3d5") for i in range(12)]
    n, gx, gy = _per_page(fronts, None, PrintSpec())
    assert gx >= AUTO_GUTTER_MIN - 1e-6 and gy >= AUTO_GUTTER_MIN - 1e-6
    pages = impose_cards("deck", fronts, None, PrintSpec(), "a4")
    places = [op for op in pages[0].ops if isinstance(op, Place) and op.name]
    assert len(places) == n
    for p in places:  # every side of every card keeps art beyond its cut
        assert p.clip is not None and p.trim is not None
        cx, cy, cw, ch = p.clip
        own = AUTO_GUTTER_MIN / 2  # at least 1.2 mm: a cut 1 mm off the line still meets the card's own art
        assert -cx >= own - 1e-6 and -cy >= own - 1e-6
        assert cw - p.trim[2] + cx >= own - 1e-6 and ch - p.trim[3] + cy >= own - 1e-6


def test_backs_that_differ_take_a_gutter_too() -> None:
    fronts = [card(i, W, H) for i in range(9)]
    backs = [card(i, W, H, side=2, fill="#c9a227" if i % 2 else "#7fb3d5") for i in range(9)]
    assert _per_page(fronts, backs, PrintSpec())[1] > 0


def test_a_kits_own_gutter_is_kept() -> None:
    fronts = [card(i, W, H, inset=0) for i in range(9)]
    assert _per_page(fronts, None, PrintSpec(gutter="4mm"))[1:] == pytest.approx((mm(4), mm(4)))
