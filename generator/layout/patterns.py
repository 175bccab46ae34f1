"""Fill patterns that tell colours apart in black-and-white print (stripes, dots, cross, waves, solid), as
drawing ops clipped by geometry to a rectangle or a circle: stripes become chords, dots are kept whole inside
the shape, waves are cut where they leave it. No clipping path is needed, so the ops can go anywhere."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from generator.layout.ops import Circle, Line, Op, Polygon

PATTERNS = ("stripes", "dots", "cross", "waves", "solid")

Point = tuple[float, float]
Clipper = Callable[[float, float, float, float], tuple[float, float, float, float] | None]
Inside = Callable[[float, float, float], bool]


def luminance(colour: str) -> float:
    """Relative luminance (0 black .. 1 white) of "#rrggbb"."""

    def chan(h: str) -> float:
        c = int(h, 16) / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * chan(colour[1:3]) + 0.7152 * chan(colour[3:5]) + 0.0722 * chan(colour[5:7])


def pattern_ink(background: str) -> str:
    """The pattern's colour on `background`: white on dark colours, a dark tone on light ones (so the pattern
    still shows when the page is printed in grey)."""
    if luminance(background) > 0.35:
        r, g, b = (int(background[i : i + 2], 16) for i in (1, 3, 5))
        return f"#{int(r * 0.45):02x}{int(g * 0.45):02x}{int(b * 0.45):02x}"
    return "#ffffff"


def _rect_clipper(x: float, y: float, w: float, h: float) -> Clipper:
    """Liang-Barsky: the part of a segment inside the rectangle."""

    def clip(x1: float, y1: float, x2: float, y2: float) -> tuple[float, float, float, float] | None:
        dx, dy = x2 - x1, y2 - y1
        t0, t1 = 0.0, 1.0
        for p, q in ((-dx, x1 - x), (dx, x + w - x1), (-dy, y1 - y), (dy, y + h - y1)):
            if abs(p) < 1e-12:
                if q < 0:
                    return None
                continue
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return None
        return x1 + t0 * dx, y1 + t0 * dy, x1 + t1 * dx, y1 + t1 * dy

    return clip


def _circle_clipper(cx: float, cy: float, r: float) -> Clipper:
    """The part of a segment inside the circle (a chord when the segment crosses it)."""

    def clip(x1: float, y1: float, x2: float, y2: float) -> tuple[float, float, float, float] | None:
        dx, dy = x2 - x1, y2 - y1
        fx, fy = x1 - cx, y1 - cy
        a = dx * dx + dy * dy
        if a < 1e-12:
            return None
        b = 2 * (fx * dx + fy * dy)
        c = fx * fx + fy * fy - r * r
        disc = b * b - 4 * a * c
        if disc <= 0:
            return None
        s = math.sqrt(disc)
        t0, t1 = max(0.0, (-b - s) / (2 * a)), min(1.0, (-b + s) / (2 * a))
        if t0 >= t1:
            return None
        return x1 + t0 * dx, y1 + t0 * dy, x1 + t1 * dx, y1 + t1 * dy

    return clip


def _diagonals(
    box: tuple[float, float, float, float], spacing: float, slope: int, clip: Clipper, ink: str, width: float
) -> list[Op]:
    """Lines at +-45 degrees every `spacing` (measured across the lines), clipped."""
    x, y, w, h = box
    step = spacing * math.sqrt(2)
    ops: list[Op] = []
    # lines y = slope * (x - x0) + y  for x0 spanning the box extended by its height
    start = x - h if slope > 0 else x
    end = x + w if slope > 0 else x + w + h
    k = 0
    while start + k * step <= end + 1e-9:
        x0 = start + k * step
        seg = clip(x0, y, x0 + slope * h, y + h)
        if seg is not None and math.hypot(seg[2] - seg[0], seg[3] - seg[1]) > width:
            ops.append(Line(seg[0], seg[1], seg[2], seg[3], stroke=ink, width=width))
        k += 1
    return ops


def _waves(
    box: tuple[float, float, float, float], spacing: float, clip: Clipper, ink: str, width: float
) -> list[Op]:
    """Horizontal sine waves every `spacing`, cut where they leave the shape."""
    x, y, w, h = box
    amp, period = spacing * 0.25, spacing * 1.6
    n = max(8, int(w / (spacing * 0.12)))
    ops: list[Op] = []
    row = 0
    while y + spacing * (row + 0.5) < y + h:
        yy = y + spacing * (row + 0.5)
        pts = [(x + w * i / n, yy + amp * math.sin(2 * math.pi * (w * i / n) / period)) for i in range(n + 1)]
        run: list[Point] = []
        for (ax, ay), (bx, by) in zip(pts, pts[1:]):
            seg = clip(ax, ay, bx, by)
            if seg is None:
                if len(run) > 1:
                    ops.append(Polygon(tuple(run), fill=None, stroke=ink, width=width, closed=False))
                run = []
                continue
            if not run or math.hypot(run[-1][0] - seg[0], run[-1][1] - seg[1]) > 1e-6:
                if len(run) > 1:
                    ops.append(Polygon(tuple(run), fill=None, stroke=ink, width=width, closed=False))
                run = [(seg[0], seg[1])]
            run.append((seg[2], seg[3]))
        if len(run) > 1:
            ops.append(Polygon(tuple(run), fill=None, stroke=ink, width=width, closed=False))
        row += 1
    return ops


def _dots(box: tuple[float, float, float, float], spacing: float, inside: Inside, ink: str) -> list[Op]:
    """A staggered grid of dots kept whole inside the shape."""
    x, y, w, h = box
    r = spacing * 0.2
    ops: list[Op] = []
    row = 0
    yy = y + spacing / 2
    while yy < y + h:
        xx = x + spacing / 2 + (spacing / 2 if row % 2 else 0.0)
        while xx < x + w:
            if inside(xx, yy, r):
                ops.append(Circle(xx, yy, r, fill=ink, stroke=None))
            xx += spacing
        yy += spacing * 0.866
        row += 1
    return ops


def _pattern(
    kind: str,
    box: tuple[float, float, float, float],
    clip: Clipper,
    inside: Inside,
    *,
    ink: str,
    spacing: float,
    width: float,
) -> list[Op]:
    if kind == "stripes":
        return _diagonals(box, spacing, 1, clip, ink, width)
    if kind == "cross":
        return _diagonals(box, spacing, 1, clip, ink, width) + _diagonals(box, spacing, -1, clip, ink, width)
    if kind == "dots":
        return _dots(box, spacing, inside, ink)
    if kind == "waves":
        return _waves(box, spacing, clip, ink, width)
    if kind == "solid":
        return []
    raise ValueError(f"unknown pattern {kind!r}; expected one of {', '.join(PATTERNS)}")


def pattern_in_rect(
    kind: str, x: float, y: float, w: float, h: float, *, ink: str, spacing: float, width: float = 0.6
) -> list[Op]:
    """Pattern `kind` filling the rectangle (x, y, w, h), every op inside it."""

    def inside(px: float, py: float, r: float) -> bool:
        return x + r <= px <= x + w - r and y + r <= py <= y + h - r

    return _pattern(
        kind, (x, y, w, h), _rect_clipper(x, y, w, h), inside, ink=ink, spacing=spacing, width=width
    )


def pattern_in_circle(
    kind: str, cx: float, cy: float, r: float, *, ink: str, spacing: float, width: float = 0.6
) -> list[Op]:
    """Pattern `kind` filling the circle: stripes as chords, whole dots, waves cut at the rim."""

    def inside(px: float, py: float, pr: float) -> bool:
        return math.hypot(px - cx, py - cy) + pr <= r

    return _pattern(
        kind,
        (cx - r, cy - r, 2 * r, 2 * r),
        _circle_clipper(cx, cy, r),
        inside,
        ink=ink,
        spacing=spacing,
        width=width,
    )


def ops_bounds(ops: Sequence[Op]) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of lines, circles and polylines (for tests: patterns stay inside their shape)."""
    xs: list[float] = []
    ys: list[float] = []
    for op in ops:
        if isinstance(op, Line):
            xs += [op.x1, op.x2]
            ys += [op.y1, op.y2]
        elif isinstance(op, Circle):
            xs += [op.cx - op.r, op.cx + op.r]
            ys += [op.cy - op.r, op.cy + op.r]
        elif isinstance(op, Polygon):
            xs += [p[0] for p in op.points]
            ys += [p[1] for p in op.points]
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return min(xs), min(ys), max(xs), max(ys)


__all__ = ["PATTERNS", "pattern_in_rect", "pattern_in_circle", "pattern_ink", "luminance", "ops_bounds"]
