"""Synthetic faces for imposition and render tests: a bleed fill, a border 2 mm inside the trim, a number, a
marker."""

from __future__ import annotations

from generator.layout.ops import Face, Rect, Text
from generator.units import mm

MARKER = 10.0
"""Side of the colour-coded square centred on every test face."""


def marker_colour(side: int, n: int) -> str:
    """Colour coding side (1 front, 2 back) and card number n (< 256)."""
    return f"#{side:02x}{n:02x}40"


def card(
    n: int,
    width: float,
    height: float,
    *,
    side: int = 1,
    bleed: float = mm(3),
    fill: str | None = None,
    inset: float = mm(2),
) -> Face:
    """A test face: bleed fill (`fill`, else one colour for fronts and one for backs), a border `inset` inside
    the trim (2 mm: neighbours of one fill may share a cut; 0: at the trim, which takes a gutter), a centred
    colour-coded marker and its number."""
    label = ("F" if side == 1 else "B") + str(n)
    return Face(
        f"{label}",
        width,
        height,
        (
            Rect(
                -bleed,
                -bleed,
                width + 2 * bleed,
                height + 2 * bleed,
                fill=fill or ("#e8eefc" if side == 1 else "#fce8e0"),
                stroke=None,
            ),
            Rect(inset, inset, width - 2 * inset, height - 2 * inset, stroke="ink", width=0.5),
            Rect(
                width / 2 - MARKER / 2,
                height / 2 - MARKER / 2,
                MARKER,
                MARKER,
                fill=marker_colour(side, n),
                stroke=None,
            ),
            Text(width / 2, height / 2 + 20, label, 14, font="bold", anchor="middle", text_id=f"card.{n}"),
        ),
        bleed=bleed,
    )
