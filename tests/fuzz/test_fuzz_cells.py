"""Hostile geometry for the framed-cell check (`collide.crowded_cells`): cells of any size (zero, negative,
huge, infinite, not a number), lines of any width and strings anywhere. The check never raises; a string is
flagged exactly when its ink comes nearer to its cell's line than the rule allows, measured here again."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.layout.collide import crowded_cells
from generator.layout.ops import Rect, Text
from generator.layout.textfit import text_box
from generator.render.fonts import ink_extent, text_width
from generator.units import mm

FACE = (0.0, 0.0, mm(200), mm(200))
odd = st.sampled_from([0.0, -5.0, math.inf, -math.inf, math.nan, 1e300])
length = st.one_of(st.floats(0.5, mm(150)), odd)
stroke = st.one_of(st.floats(0.05, 12.0), odd)


@settings(max_examples=300, deadline=None)
@given(
    x=st.floats(0, mm(50)),
    y=st.floats(0, mm(50)),
    w=length,
    h=length,
    line=stroke,
    dx=st.floats(-mm(2), mm(20)),  # where the string stands from the cell's corner: near its line often
    dy=st.floats(-mm(2), mm(20)),
    size=st.floats(4, 30),
    text=st.sampled_from(["7", "−10", "Jugador 2", "プレイヤー1", "+3", " "]),
    anchor=st.sampled_from(["start", "middle", "end"]),
)
def test_the_cell_check_flags_exactly_the_strings_on_their_line(
    x: float,
    y: float,
    w: float,
    h: float,
    line: float,
    dx: float,
    dy: float,
    size: float,
    text: str,
    anchor: str,
) -> None:
    cell = Rect(x, y, w, h, fill=None, stroke="ink", width=line)
    string = Text(x + dx, y + dy, text, size, anchor=anchor)  # type: ignore[arg-type]
    found = crowded_cells((cell, string), FACE, text_width, ink_extent)
    assert all(why.startswith("the line of its cell (") and why.endswith(" mm") for _, why in found)
    if not all(math.isfinite(v) for v in (w, h, line)) or w <= 0 or h <= 0 or line <= 0 or not text.strip():
        return  # degenerate: anything but a traceback will do
    x0, y0, x1, y1 = text_box(string, text_width, ink_extent, lean=False)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    half = line / 2
    inside = x - half <= cx <= x + w + half and y - half <= cy <= y + h + half
    is_cell = w + line < 0.9 * FACE[2] or h + line < 0.9 * FACE[3]
    room = min(x0 - x, y0 - y, x + w - x1, y + h - y1)
    expected = inside and is_cell and room < max(mm(0.5), half + mm(0.3)) - 0.3
    assert bool(found) == expected, (found, room / mm(1))
