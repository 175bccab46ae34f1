"""Printer's marks as drawing ops: crop marks at trim corners, cut lines, the '100%?' check ruler."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from generator.layout.ops import Line, Op, Place, Rect, Text
from generator.units import mm

MARK_WIDTH: Final = 0.25
"""Stroke width of crop marks and cut lines."""
MARK_LENGTH: Final = mm(5)
"""Longest crop mark."""
MARK_GAP: Final = mm(0.5)
"""Space between the art (trim or bleed edge) and the start of a crop mark."""
RULER_LENGTH: Final = mm(50)
"""Length of the check ruler's bar."""
RULER_THICKNESS: Final = mm(3.2)
"""How much room across the ruler needs (bar, ticks and label side by side)."""
RULER_SPAN: Final = mm(62)
"""How much room along the ruler needs (bar plus its label)."""
_RULER_BAR: Final = mm(1.2)
_RULER_LABEL_SIZE: Final = 6.0


def ruler(x: float, y: float, *, vertical: bool = False, label: str = "50 mm") -> list[Op]:
    """A 50 mm check bar with mm ticks and `label`, its bottom-left corner at (x, y).

    Horizontal: the bar runs right from (x, y + ...); vertical: the same drawing turned 90 degrees
    counter-clockwise, occupying (x - RULER_THICKNESS .. x, y .. y + RULER_SPAN) shifted so that the
    occupied box starts at (x, y)."""
    ops = _ruler_ops(label)
    if vertical:
        return [Place(x + RULER_THICKNESS, y, ops, rotate=90)]
    return [Place(x, y, ops)]


@cache
def _ruler_ops(label: str) -> tuple[Op, ...]:
    """The drawing of a check bar at the origin: one tuple per label, shared by every sheet that prints one
    (ops are frozen; a shared tuple is measured once by the ink and box caches, which key on it)."""
    ops: list[Op] = [Rect(0, 0, RULER_LENGTH, _RULER_BAR, fill="cut", stroke=None)]
    for i in range(51):
        tick = mm(2.0) if i % 10 == 0 else mm(1.5) if i % 5 == 0 else mm(1.0)
        tx = mm(i)
        ops.append(Line(tx, _RULER_BAR, tx, _RULER_BAR + tick, stroke="cut", width=0.2))
    ops.append(Text(RULER_LENGTH + mm(1.5), mm(0.2), label, _RULER_LABEL_SIZE, fill="cut", role="fine"))
    return tuple(ops)


def crop_marks(
    xs: Sequence[float],
    ys: Sequence[float],
    box: tuple[float, float, float, float],
    limits: tuple[float, float, float, float],
) -> list[Op]:
    """Marks extending every cut line `xs` (vertical cuts) and `ys` (horizontal cuts) outward from `box`
    (x0, y0, x1, y1, the art area including any bleed) towards `limits` (x0, y0, x1, y1, the printable area).

    Each mark starts MARK_GAP outside the box and is at most MARK_LENGTH long; a side with less than
    0.5 mm of room gets no marks."""
    bx0, by0, bx1, by1 = box
    lx0, ly0, lx1, ly1 = limits
    ops: list[Op] = []

    def span(start: float, room: float, sign: float) -> tuple[float, float] | None:
        length = min(MARK_LENGTH, room - MARK_GAP)
        if length < mm(0.5):
            return None
        a = start + sign * MARK_GAP
        return a, a + sign * length

    below = span(by0, by0 - ly0, -1)
    above = span(by1, ly1 - by1, 1)
    left = span(bx0, bx0 - lx0, -1)
    right = span(bx1, lx1 - bx1, 1)
    for x in xs:
        for s in (below, above):
            if s:
                ops.append(Line(x, s[0], x, s[1], stroke="cut", width=MARK_WIDTH))
    for y in ys:
        for s in (left, right):
            if s:
                ops.append(Line(s[0], y, s[1], y, stroke="cut", width=MARK_WIDTH))
    return ops


def cut_lines(xs: Sequence[float], ys: Sequence[float], box: tuple[float, float, float, float]) -> list[Op]:
    """Thin dashed lines along every cut across `box` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    ops: list[Op] = [Line(x, y0, x, y1, stroke="muted", width=MARK_WIDTH, dash=(2, 2)) for x in xs]
    ops += [Line(x0, y, x1, y, stroke="muted", width=MARK_WIDTH, dash=(2, 2)) for y in ys]
    return ops
