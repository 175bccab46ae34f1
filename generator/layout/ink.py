"""Ink coverage from the ops: the share of a page inked, estimated on a 1 mm grid without rasterising.

Every filled shape (rectangles, circles, polygons, paths, pictures) and every stroke and line of text paints
the grid cells whose centres its box covers, inside the clips of the places around it; white fills paint
nothing and hide the ink below them. Boxes overestimate round and slanted shapes a little, and a line of
text counts as its box, as a printer's coverage estimate does at this resolution. The build summary reports
it per kit and language; the tests compare it with the rastered kit PDF."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from generator.layout.ops import INKS, Circle, Image, Line, Op, Page, Path, Place, Polygon, Rect, Text, Vector
from generator.units import mm

CELL: Final = mm(1)
"""Side of one grid cell."""
_WHITE: Final = {"#ffffff", "#fff", "white", "paper", "none"}

Box = tuple[float, float, float, float]
Matrix = tuple[float, float, float, float, float, float]  # a, b, c, d, e, f as in PDF


def _inked(colour: str | None) -> bool:
    return colour is not None and colour.lower() not in _WHITE and INKS.get(colour, "").lower() != "#ffffff"


def _white_fill(op: Op) -> Box | None:
    """The local box an opaque white fill covers (None for anything else); a disc counts its inner square."""
    if isinstance(op, Rect) and op.fill is not None and not _inked(op.fill):
        inset = op.radius * 0.3  # rounded corners leave the colour below showing
        return op.x + inset, op.y + inset, op.x + op.w - inset, op.y + op.h - inset
    if isinstance(op, Circle) and op.fill is not None and not _inked(op.fill):
        half = op.r / math.sqrt(2)
        return op.cx - half, op.cy - half, op.cx + half, op.cy + half
    return None


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _then(m: Matrix, n: Matrix) -> Matrix:
    """`n` applied inside `m` (n's coordinates are local to m)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + c * b2,
        b * a2 + d * b2,
        a * c2 + c * d2,
        b * c2 + d * d2,
        a * e2 + c * f2 + e,
        b * e2 + d * f2 + f,
    )


def _box(m: Matrix, x0: float, y0: float, x1: float, y1: float) -> Box:
    pts = [_apply(m, x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    return min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts)


def _clip(a: Box, b: Box | None) -> Box:
    if b is None:
        return a
    return max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])


class _Grid:
    def __init__(self, width: float, height: float) -> None:
        self.cols = max(1, math.ceil(width / CELL))
        self.rows = max(1, math.ceil(height / CELL))
        self.cells = bytearray(self.cols * self.rows)

    def paint(self, box: Box, value: int = 1) -> None:
        c0 = max(0, math.ceil(box[0] / CELL - 0.5))
        c1 = min(self.cols, math.floor(box[2] / CELL - 0.5) + 1)
        r0 = max(0, math.ceil(box[1] / CELL - 0.5))
        r1 = min(self.rows, math.floor(box[3] / CELL - 0.5) + 1)
        if c1 <= c0:
            return
        row = bytes([value]) * (c1 - c0)
        for r in range(r0, r1):
            self.cells[r * self.cols + c0 : r * self.cols + c1] = row

    def area(self, inside: Box) -> float:
        """Inked area (square points) of the cells whose centres lie inside `inside`."""
        c0, c1 = (
            max(0, math.ceil(inside[0] / CELL - 0.5)),
            min(self.cols, math.floor(inside[2] / CELL - 0.5) + 1),
        )
        r0, r1 = (
            max(0, math.ceil(inside[1] / CELL - 0.5)),
            min(self.rows, math.floor(inside[3] / CELL - 0.5) + 1),
        )
        n = sum(self.cells[r * self.cols + c0 : r * self.cols + c1].count(1) for r in range(r0, r1))
        return n * CELL * CELL


def _walk(grid: _Grid, ops: Sequence[Op], m: Matrix, clip: Box | None) -> None:
    for op in ops:
        if isinstance(op, Place):
            t = math.radians(op.rotate)
            cos, sin = round(math.cos(t), 12), round(math.sin(t), 12)
            s = op.scale
            inner = _then(m, (s * cos, s * sin, -s * sin, s * cos, op.x, op.y))
            here = clip
            if op.clip is not None:
                cx, cy, cw, ch = op.clip
                here = _clip(_box(inner, cx, cy, cx + cw, cy + ch), clip)
                if here[2] <= here[0] or here[3] <= here[1]:
                    continue
            _walk(grid, op.ops, inner, here)
            continue
        box: Box | None = None
        white = _white_fill(op)
        if white is not None:  # paper-white drawn over ink hides it (a card's white panel on its frame)
            grid.paint(_clip(_box(m, *white), clip), 0)
        if isinstance(op, Rect) and (_inked(op.fill) or _inked(op.stroke)):
            if _inked(op.fill):
                box = _box(m, op.x, op.y, op.x + op.w, op.y + op.h)
            else:  # an outline: its four sides
                w = max(op.width, 0.1) / 2
                for x0, y0, x1, y1 in (
                    (op.x - w, op.y - w, op.x + op.w + w, op.y + w),
                    (op.x - w, op.y + op.h - w, op.x + op.w + w, op.y + op.h + w),
                    (op.x - w, op.y - w, op.x + w, op.y + op.h + w),
                    (op.x + op.w - w, op.y - w, op.x + op.w + w, op.y + op.h + w),
                ):
                    grid.paint(_clip(_box(m, x0, y0, x1, y1), clip))
        elif isinstance(op, Circle) and _inked(op.fill):
            half = op.r * math.sqrt(math.pi) / 2  # the square of the disc's area
            box = _box(m, op.cx - half, op.cy - half, op.cx + half, op.cy + half)
        elif isinstance(op, Circle) and _inked(op.stroke):
            box = _box(m, op.cx - op.r, op.cy - op.r, op.cx + op.r, op.cy + op.r)
            grid.paint(_clip((box[0], box[1], box[2], box[1] + CELL), clip))
            grid.paint(_clip((box[0], box[3] - CELL, box[2], box[3]), clip))
            box = None
        elif isinstance(op, Polygon) and _inked(op.fill) and op.points:
            xs, ys = [p[0] for p in op.points], [p[1] for p in op.points]
            box = _box(m, min(xs), min(ys), max(xs), max(ys))
        elif isinstance(op, Path) and _inked(op.fill):
            nums = [float(v) for cmd in op.commands for v in cmd[1:] if isinstance(v, (int, float))]
            if len(nums) >= 2:
                xs, ys = nums[0::2], nums[1::2]
                box = _box(m, min(xs), min(ys), max(xs), max(ys))
        elif isinstance(op, (Image, Vector)):
            box = _box(m, op.x, op.y, op.x + op.w, op.y + op.h)
        elif isinstance(op, Line) and _inked(op.stroke):
            w = max(op.width, 0.1) / 2
            box = _box(
                m, min(op.x1, op.x2) - w, min(op.y1, op.y2) - w, max(op.x1, op.x2) + w, max(op.y1, op.y2) + w
            )
        elif isinstance(op, Text) and _inked(op.fill) and op.text.strip():
            width = 0.5 * op.size * len(op.text)
            x0 = op.x - (width / 2 if op.anchor == "middle" else width if op.anchor == "end" else 0.0)
            box = _box(m, x0, op.y, x0 + width, op.y + 0.7 * op.size)
        if box is not None:
            grid.paint(_clip(box, clip))


def ink_area(page: Page, margin: float = 0.0) -> float:
    """Inked area of `page` inside `margin` (square points), estimated from its ops on a 1 mm grid."""
    grid = _Grid(page.width, page.height)
    _walk(grid, page.ops, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), None)
    return grid.area((margin, margin, page.width - margin, page.height - margin))


__all__ = ["CELL", "ink_area"]
