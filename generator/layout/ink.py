"""Ink coverage from the ops: the share of a page inked, estimated on a 1 mm grid without rasterising.

Every filled shape (rectangles, circles, polygons, paths, pictures) and every stroke and line of text paints
the grid cells whose centres its box covers, inside the clips of the places around it; white fills paint
nothing and hide the ink below them. Boxes overestimate round and slanted shapes a little, and a line of
text counts as its box, as a printer's coverage estimate does at this resolution. The build summary reports
it per kit and language; the tests compare it with the rastered kit PDF."""

from __future__ import annotations

import math
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from typing import Final

from generator.layout.ops import INKS, Circle, Image, Line, Op, Page, Path, Place, Polygon, Rect, Text, Vector
from generator.units import mm

CELL: Final = mm(1)
"""Side of one grid cell."""
_WHITE: Final = {"#ffffff", "#fff", "white", "paper", "none"}

Box = tuple[float, float, float, float]
Matrix = tuple[float, float, float, float, float, float]  # a, b, c, d, e, f as in PDF
Span = tuple[int, int, int, int]  # cells c0, r0, c1, r1 (c1, r1 past the end)


_INKED: dict[str, bool] = {}
"""_inked's answers by colour (a page asks the same few colours thousands of times)."""


def _inked(colour: str | None) -> bool:
    if colour is None:
        return False
    inked = _INKED.get(colour)
    if inked is None:
        inked = colour.lower() not in _WHITE and INKS.get(colour, "").lower() != "#ffffff"
        _INKED[colour] = inked
    return inked


def _white_fill(op: Op) -> Box | None:
    """The local box an opaque white fill covers (None for anything else); a disc counts its inner square."""
    if isinstance(op, Rect) and op.fill is not None and not _inked(op.fill):
        inset = op.radius * 0.3  # rounded corners leave the colour below showing
        return op.x + inset, op.y + inset, op.x + op.w - inset, op.y + op.h - inset
    if isinstance(op, Circle) and op.fill is not None and not _inked(op.fill):
        half = op.r / math.sqrt(2)
        return op.cx - half, op.cy - half, op.cx + half, op.cy + half
    return None


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
    """The page box around the corners of the local box (x0, y0, x1, y1) under `m`."""
    a, b, c, d, e, f = m
    # a quarter turn or none (nearly every place): the same sums, less their zero terms (a zero's sign
    # cannot move a cell)
    if b == 0.0 and c == 0.0:
        u0, u1, v0, v1 = a * x0 + e, a * x1 + e, d * y0 + f, d * y1 + f
    elif a == 0.0 and d == 0.0:
        u0, u1, v0, v1 = c * y0 + e, c * y1 + e, b * x0 + f, b * x1 + f
    else:
        us = (a * x0 + c * y0 + e, a * x1 + c * y0 + e, a * x0 + c * y1 + e, a * x1 + c * y1 + e)
        vs = (b * x0 + d * y0 + f, b * x1 + d * y0 + f, b * x0 + d * y1 + f, b * x1 + d * y1 + f)
        return min(us), min(vs), max(us), max(vs)
    if u0 <= u1 and v0 <= v1:
        return u0, v0, u1, v1
    return min(u0, u1), min(v0, v1), max(u0, u1), max(v0, v1)


def _clip(a: Box, b: Box | None) -> Box:
    if b is None:
        return a
    return max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])


class _Grid:
    """The page's cells, row by row, 1 where inked."""

    def __init__(self, width: float, height: float) -> None:
        self.cols = max(1, math.ceil(width / CELL))
        self.rows = max(1, math.ceil(height / CELL))
        self.cells = bytearray(self.cols * self.rows)
        self.whole: Span = (0, 0, self.cols, self.rows)

    def span(self, box: Box) -> Span:
        """The cells (c0, r0, c1, r1) whose centres `box` covers; none when c1 <= c0 or r1 <= r0."""
        return (
            max(0, math.ceil(box[0] / CELL - 0.5)),
            max(0, math.ceil(box[1] / CELL - 0.5)),
            min(self.cols, math.floor(box[2] / CELL - 0.5) + 1),
            min(self.rows, math.floor(box[3] / CELL - 0.5) + 1),
        )

    def paint(self, box: Box, limit: Span, value: int = 1) -> None:
        """Set the cells `box` covers inside `limit` (a clip's span: a cell's span moves with its box's
        edges, so the span of a clipped box is the spans' intersection) to `value`."""
        c0 = math.ceil(box[0] / CELL - 0.5)
        r0 = math.ceil(box[1] / CELL - 0.5)
        c1 = math.floor(box[2] / CELL - 0.5) + 1
        r1 = math.floor(box[3] / CELL - 0.5) + 1
        c0, r0 = (c0 if c0 > limit[0] else limit[0]), (r0 if r0 > limit[1] else limit[1])
        c1, r1 = (c1 if c1 < limit[2] else limit[2]), (r1 if r1 < limit[3] else limit[3])
        if c1 <= c0 or r1 <= r0:
            return
        cols, cells = self.cols, self.cells
        if c1 - c0 < r1 - r0:  # taller than wide: a column at a time, every cols-th byte
            column = bytes([value]) * (r1 - r0)
            for c in range(c0, c1):
                cells[r0 * cols + c : r1 * cols + c : cols] = column
            return
        row = bytes([value]) * (c1 - c0)
        for r in range(r0 * cols, r1 * cols, cols):
            cells[r + c0 : r + c1] = row

    def area(self, inside: Box) -> float:
        """Inked area (square points) of the cells whose centres lie inside `inside`."""
        c0, r0, c1, r1 = self.span(inside)
        if c1 <= c0 or r1 <= r0:
            return 0.0
        cols, cells = self.cols, self.cells
        if c0 == 0 and c1 == cols:  # whole rows: one run of bytes
            n = cells.count(1, r0 * cols, r1 * cols)
        else:
            n = sum(cells.count(1, r * cols + c0, r * cols + c1) for r in range(r0, r1))
        return n * CELL * CELL


def _outline(grid: _Grid, op: Rect, m: Matrix, limit: Span) -> None:
    """Paint the four sides of an unfilled rectangle's stroke."""
    w = max(op.width, 0.1) / 2
    for x0, y0, x1, y1 in (
        (op.x - w, op.y - w, op.x + op.w + w, op.y + w),
        (op.x - w, op.y + op.h - w, op.x + op.w + w, op.y + op.h + w),
        (op.x - w, op.y - w, op.x + w, op.y + op.h + w),
        (op.x + op.w - w, op.y - w, op.x + op.w + w, op.y + op.h + w),
    ):
        grid.paint(_box(m, x0, y0, x1, y1), limit)


def _leaf(grid: _Grid, op: Op, m: Matrix, limit: Span) -> None:
    """Paint one op that is not a place: white fills clear, inked shapes paint their boxes."""
    box: Box | None = None
    if isinstance(op, Line):  # the commonest (marks, rules, hatching) first
        if _inked(op.stroke):
            w = max(op.width, 0.1) / 2
            box = _box(
                m, min(op.x1, op.x2) - w, min(op.y1, op.y2) - w, max(op.x1, op.x2) + w, max(op.y1, op.y2) + w
            )
            grid.paint(box, limit)
        return
    kind = type(op)
    if kind is Rect or kind is Circle:
        white = _white_fill(op)
        if white is not None:  # paper-white drawn over ink hides it (a card's white panel on its frame)
            grid.paint(_box(m, *white), limit, 0)
    if isinstance(op, Rect):
        if _inked(op.fill):
            box = _box(m, op.x, op.y, op.x + op.w, op.y + op.h)
        elif _inked(op.stroke):
            _outline(grid, op, m, limit)
    elif isinstance(op, Text):
        if _inked(op.fill) and op.text.strip():
            width = 0.5 * op.size * len(op.text)
            x0 = op.x - (width / 2 if op.anchor == "middle" else width if op.anchor == "end" else 0.0)
            box = _box(m, x0, op.y, x0 + width, op.y + 0.7 * op.size)
    elif isinstance(op, Circle):
        if _inked(op.fill):
            half = op.r * math.sqrt(math.pi) / 2  # the square of the disc's area
            box = _box(m, op.cx - half, op.cy - half, op.cx + half, op.cy + half)
        elif _inked(op.stroke):
            ring = _box(m, op.cx - op.r, op.cy - op.r, op.cx + op.r, op.cy + op.r)
            grid.paint((ring[0], ring[1], ring[2], ring[1] + CELL), limit)
            grid.paint((ring[0], ring[3] - CELL, ring[2], ring[3]), limit)
    elif isinstance(op, Polygon):
        if _inked(op.fill) and op.points:
            xs, ys = [p[0] for p in op.points], [p[1] for p in op.points]
            box = _box(m, min(xs), min(ys), max(xs), max(ys))
    elif isinstance(op, Path):
        if _inked(op.fill):
            nums = [float(v) for cmd in op.commands for v in cmd[1:] if isinstance(v, (int, float))]
            if len(nums) >= 2:
                xs, ys = nums[0::2], nums[1::2]
                box = _box(m, min(xs), min(ys), max(xs), max(ys))
    elif isinstance(op, (Image, Vector)):
        box = _box(m, op.x, op.y, op.x + op.w, op.y + op.h)
    if box is not None:
        grid.paint(box, limit)


def _walk(grid: _Grid, ops: Sequence[Op], m: Matrix, clip: Box | None, limit: Span) -> None:
    """Paint `ops` drawn through `m`, inside `clip` (page box; None: the page) whose cells are `limit`."""
    for op in ops:
        if not isinstance(op, Place):
            _leaf(grid, op, m, limit)
            continue
        if op.rotate:
            t = math.radians(op.rotate)
            cos, sin = round(math.cos(t), 12), round(math.sin(t), 12)
        else:  # what the rounding gives for no turn, without the trigonometry
            cos, sin = 1.0, 0.0
        s = op.scale
        inner = _then(m, (s * cos, s * sin, -s * sin, s * cos, op.x, op.y))
        here, inside = clip, limit
        if op.clip is not None:
            cx, cy, cw, ch = op.clip
            here = _clip(_box(inner, cx, cy, cx + cw, cy + ch), clip)
            if here[2] <= here[0] or here[3] <= here[1]:
                continue
            inside = grid.span(here)
        _walk(grid, op.ops, inner, here, inside)


_MEMO: dict[int, tuple[float, float, tuple[Op, ...], dict[float, float]]] = {}
"""ink_area's answers by id(page): the page's size and ops when asked (the ops held, so their ids stay
theirs) and the area by margin. A page is asked several times per build (each use of its part's page sides);
an entry answers only while the page has the same size and the very same ops (ops are frozen), and goes with
the page."""
_SAME: OrderedDict[tuple[float, float, tuple[Op, ...]], dict[float, float]] = OrderedDict()
"""The areas by margin of the last _SAME_SIZE page contents (size and ops, compared by value): a kit's
languages draw many of the same pages (backs, art, boards) as pages of their own."""
_SAME_SIZE: Final = 256


def _areas(page: Page) -> dict[float, float]:
    """The areas by margin known for `page` (filled in as asked): its own, shared with equal pages."""
    key = id(page)
    memo = _MEMO.get(key)
    ops = page.ops
    if (
        memo is not None
        and memo[0] == page.width
        and memo[1] == page.height
        and len(memo[2]) == len(ops)
        and all(a is b for a, b in zip(memo[2], ops, strict=True))
    ):
        return memo[3]
    if memo is None:
        weakref.finalize(page, _MEMO.pop, key, None)
    content = (page.width, page.height, tuple(ops))
    try:
        areas = _SAME.get(content)
    except TypeError:  # an unhashable op (a list where a tuple belongs): measured, not shared
        areas = {}
    else:
        if areas is None:
            areas = _SAME[content] = {}
            if len(_SAME) > _SAME_SIZE:
                _SAME.popitem(last=False)
        else:
            _SAME.move_to_end(content)
    _MEMO[key] = (page.width, page.height, tuple(ops), areas)
    return areas


def ink_area(page: Page, margin: float = 0.0) -> float:
    """Inked area of `page` inside `margin` (square points), estimated from its ops on a 1 mm grid."""
    areas = _areas(page)
    area = areas.get(margin)
    if area is None:
        grid = _Grid(page.width, page.height)
        _walk(grid, page.ops, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), None, grid.whole)
        area = areas[margin] = grid.area((margin, margin, page.width - margin, page.height - margin))
    return area


__all__ = ["CELL", "ink_area"]
