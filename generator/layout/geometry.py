"""Where drawn ops land: every leaf op of a face (nested Places followed) with its transform and its bounding
box, strokes included; text boxes from the font metrics as drawn (advance width, ASCENT/DESCENT of the size).
Used by the collision check and by tests that measure the room between two drawn things."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from generator.layout.ops import (
    Circle,
    Image,
    Line,
    Op,
    Path,
    Place,
    Polygon,
    Rect,
    Text,
    Vector,
    fitted,
    is_inline_icon,
)
from generator.layout.text import Measure
from generator.layout.textfit import _IDENTITY, Box, Matrix, _apply_box, _mul, _place_matrix, text_box


@dataclass(frozen=True)
class Drawn:
    """One leaf op as drawn: its transform, its box (x0, y0, x1, y1) in the outer coordinates and its
    order."""

    op: Op
    matrix: Matrix
    box: Box
    order: int
    backdrop: bool = False
    """Drawn inside a Place declared a backdrop (strings may sit across it)."""
    clip: Box | None = None
    """What the enclosing Places' clips let through (x0, y0, x1, y1, outer coordinates): a shape's box may
    run past it (a background drawn into the bleed), but nothing beyond it prints. None: no clip."""


def _points_box(points: Sequence[tuple[float, float]], pad: float) -> Box:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


def art_box(op: Image | Vector) -> Box:
    """Where art lands (x0, y0, x1, y1): its fitted picture, clipped to its box (cover overflows it)."""
    x, y, w, h = fitted(op)
    return max(x, op.x), max(y, op.y), min(x + w, op.x + op.w), min(y + h, op.y + op.h)


def own_box(op: Op, measure: Measure, *, art: bool = False) -> Box | None:
    """The box of a leaf op in its own coordinates (half the stroke width included); None for a Place, and
    for art other than an inline icon unless `art`."""
    if isinstance(op, Line):  # the commonest leaf; min and max of its two ends as _points_box takes them
        pad = op.width / 2
        return (
            min(op.x1, op.x2) - pad,
            min(op.y1, op.y2) - pad,
            max(op.x1, op.x2) + pad,
            max(op.y1, op.y2) + pad,
        )
    if isinstance(op, Rect):
        pad = op.width / 2 if op.stroke else 0.0
        return op.x - pad, op.y - pad, op.x + op.w + pad, op.y + op.h + pad
    if isinstance(op, Circle):
        pad = op.width / 2 if op.stroke else 0.0
        return op.cx - op.r - pad, op.cy - op.r - pad, op.cx + op.r + pad, op.cy + op.r + pad
    if isinstance(op, Polygon):
        return _points_box(op.points, op.width / 2 if op.stroke else 0.0)
    if isinstance(op, Path):
        pts = [(float(c[i]), float(c[i + 1])) for c in op.commands for i in range(1, len(c) - 1, 2)]  # type: ignore[arg-type]
        return _points_box(pts, op.width / 2 if op.stroke else 0.0) if pts else None
    if isinstance(op, Text):
        return text_box(op, measure)
    if is_inline_icon(op):  # a kit icon in a line of text: where its art lands (other art is not measured)
        x, y, w, h = fitted(op)  # type: ignore[arg-type]
        return x, y, x + w, y + h
    if art and isinstance(op, (Image, Vector)):
        return art_box(op)
    return None


_RECENT: dict[tuple[int, int, bool], tuple[tuple[Op, ...], Measure, tuple[Drawn, ...]]] = {}
"""drawn's last few answers for a tuple of ops (frozen all the way down) in their own coordinates: the checks
of one face ask for the same face several times in a row (collisions, safe area, badges, cells, art). Keyed
by the ops' and the measure's ids, held so the ids stay theirs; an entry answers only for the very same ops
and measure."""
_RECENT_SIZE = 8


def drawn(
    ops: Sequence[Op], measure: Measure, matrix: Matrix = _IDENTITY, *, art: bool = False
) -> list[Drawn]:
    """Every leaf op of `ops` in drawing order with its box in the coordinates of `ops` (Places followed);
    with `art`, the kit's art too (where its picture lands)."""
    if type(ops) is not tuple or matrix is not _IDENTITY:  # a list may change between two questions
        return _drawn(ops, measure, matrix, art)
    key = (id(ops), id(measure), art)
    known = _RECENT.get(key)
    if known is not None and known[0] is ops and known[1] is measure:
        return list(known[2])
    found = _drawn(ops, measure, matrix, art)
    if len(_RECENT) >= _RECENT_SIZE:
        del _RECENT[next(iter(_RECENT))]
    _RECENT[key] = (ops, measure, tuple(found))
    return found


def _drawn(ops: Sequence[Op], measure: Measure, matrix: Matrix, art: bool) -> list[Drawn]:
    out: list[Drawn] = []

    def walk(items: Sequence[Op], m: Matrix, backdrop: bool, clip: Box | None) -> None:
        for op in items:
            if isinstance(op, Place):
                inner = _mul(m, _place_matrix(op))
                within = clip
                if op.clip is not None:
                    cx, cy, cw, ch = op.clip
                    within = _meet(clip, _apply_box(inner, (cx, cy, cx + cw, cy + ch)))
                walk(op.ops, inner, backdrop or op.backdrop, within)
                continue
            box = own_box(op, measure, art=art)
            if box is not None:
                out.append(Drawn(op, m, _apply_box(m, box), len(out), backdrop, clip))

    walk(ops, matrix, False, None)
    return out


def _meet(a: Box | None, b: Box) -> Box:
    """Where two clip boxes overlap (`b` when there is no outer clip); an empty box when they do not."""
    if a is None:
        return b
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    return x0, y0, max(x0, min(a[2], b[2])), max(y0, min(a[3], b[3]))


def gap(a: Box, b: Box) -> float:
    """The room between two boxes: positive when apart (the larger of the x and y gaps), negative when they
    overlap (minus the smaller overlap)."""
    dx = max(b[0] - a[2], a[0] - b[2])
    dy = max(b[1] - a[3], a[1] - b[3])
    return max(dx, dy)


def overlap(a: Box, b: Box) -> float:
    """The area two boxes share (0 when apart)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def inside_circle(box: Box, cx: float, cy: float, r: float) -> float:
    """How far the farthest corner of `box` stays inside the circle (negative: a corner is outside)."""
    far = max(math.hypot(x - cx, y - cy) for x in (box[0], box[2]) for y in (box[1], box[3]))
    return r - far


def point_in_polygon(x: float, y: float, points: Sequence[tuple[float, float]]) -> bool:
    """Ray casting: whether (x, y) lies inside the polygon."""
    inside = False
    n = len(points)
    for i in range(n):
        x1, y1 = points[i]
        x2, y2 = points[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def distance_to_polygon_edge(x: float, y: float, points: Sequence[tuple[float, float]]) -> float:
    """The distance from (x, y) to the nearest edge of the polygon."""
    best = math.inf
    n = len(points)
    for i in range(n):
        x1, y1 = points[i]
        x2, y2 = points[(i + 1) % n]
        dx, dy = x2 - x1, y2 - y1
        t = max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy or 1.0)))
        best = min(best, math.hypot(x - x1 - t * dx, y - y1 - t * dy))
    return best
