"""Symbols that carry meaning without colour (colour-blind and black-and-white safe), as drawing ops."""

from __future__ import annotations

import math

from generator.layout.ops import Circle, Op, Path, Polygon

SYMBOLS = (
    "circle",
    "square",
    "hexagon",
    "triangle",
    "diamond",
    "star",
    "sun",
    "moon",
    "heart",
    "drop",
    "leaf",
    "club",
    "round",
    "cross",
)


def regular_polygon(
    cx: float, cy: float, r: float, n: int, rotate_deg: float = 90.0
) -> tuple[tuple[float, float], ...]:
    """Vertices of a regular n-gon of circumradius r (first vertex at `rotate_deg`)."""
    return tuple(
        (
            cx + r * math.cos(math.radians(rotate_deg + 360 * i / n)),
            cy + r * math.sin(math.radians(rotate_deg + 360 * i / n)),
        )
        for i in range(n)
    )


def star_points(
    cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45
) -> tuple[tuple[float, float], ...]:
    """Vertices of a star."""
    out = []
    for i in range(points * 2):
        rr = r if i % 2 == 0 else r * inner
        a = math.radians(90 + 180 * i / points)
        out.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return tuple(out)


def _drop_path(cx: float, cy: float, r: float) -> tuple[tuple[object, ...], ...]:
    # a raindrop: round bottom, point at the top
    k = 0.5523 * r * 0.8
    by = cy - r * 0.35
    br = r * 0.65
    return (
        ("M", cx, cy + r),
        ("C", cx + br * 0.2, cy + r * 0.55, cx + br, by + br * 0.55, cx + br, by),
        ("C", cx + br, by - k, cx + k, by - br, cx, by - br),
        ("C", cx - k, by - br, cx - br, by - k, cx - br, by),
        ("C", cx - br, by + br * 0.55, cx - br * 0.2, cy + r * 0.55, cx, cy + r),
        ("Z",),
    )


def _heart_path(cx: float, cy: float, r: float) -> tuple[tuple[object, ...], ...]:
    return (
        ("M", cx, cy - r * 0.85),
        ("C", cx - r * 1.2, cy - r * 0.05, cx - r * 0.7, cy + r * 0.95, cx, cy + r * 0.4),
        ("C", cx + r * 0.7, cy + r * 0.95, cx + r * 1.2, cy - r * 0.05, cx, cy - r * 0.85),
        ("Z",),
    )


def _leaf_path(cx: float, cy: float, r: float) -> tuple[tuple[object, ...], ...]:
    return (
        ("M", cx - r * 0.7, cy - r * 0.7),
        ("C", cx - r * 0.9, cy + r * 0.6, cx + r * 0.2, cy + r * 0.95, cx + r * 0.8, cy + r * 0.8),
        ("C", cx + r * 0.95, cy + r * 0.2, cx + r * 0.6, cy - r * 0.9, cx - r * 0.7, cy - r * 0.7),
        ("Z",),
    )


def _moon_path(cx: float, cy: float, r: float) -> tuple[tuple[object, ...], ...]:
    k = 0.5523
    return (
        ("M", cx, cy + r),
        ("C", cx - k * r, cy + r, cx - r, cy + k * r, cx - r, cy),
        ("C", cx - r, cy - k * r, cx - k * r, cy - r, cx, cy - r),
        ("C", cx + r * 0.45, cy - r, cx + r * 0.8, cy - r * 0.75, cx + r * 0.95, cy - r * 0.45),
        ("C", cx + r * 0.2, cy - r * 0.65, cx - r * 0.35, cy - r * 0.2, cx - r * 0.35, cy),
        ("C", cx - r * 0.35, cy + r * 0.2, cx + r * 0.2, cy + r * 0.65, cx + r * 0.95, cy + r * 0.45),
        ("C", cx + r * 0.8, cy + r * 0.75, cx + r * 0.45, cy + r, cx, cy + r),
        ("Z",),
    )


def symbol(
    kind: str,
    cx: float,
    cy: float,
    r: float,
    *,
    fill: str | None,
    stroke: str | None = "ink",
    width: float = 0.8,
) -> list[Op]:
    """Draw symbol `kind` centred at (cx, cy), fitting a circle of radius r."""
    if kind in ("circle", "round"):
        return [Circle(cx, cy, r * 0.92, fill=fill, stroke=stroke, width=width)]
    if kind == "sun":
        ops: list[Op] = [Polygon(star_points(cx, cy, r, 12, 0.72), fill=fill, stroke=stroke, width=width)]
        ops.append(Circle(cx, cy, r * 0.45, fill="#ffffff", stroke=stroke, width=width))
        return ops
    if kind == "club":
        rr = r * 0.36
        return [
            Circle(cx, cy + r * 0.42, rr, fill=fill, stroke=stroke, width=width),
            Circle(cx - r * 0.42, cy - r * 0.08, rr, fill=fill, stroke=stroke, width=width),
            Circle(cx + r * 0.42, cy - r * 0.08, rr, fill=fill, stroke=stroke, width=width),
            Polygon(
                ((cx, cy), (cx + r * 0.22, cy - r * 0.95), (cx - r * 0.22, cy - r * 0.95)),
                fill=fill,
                stroke=stroke,
                width=width,
            ),
        ]
    path = _symbol_path(kind, cx, cy, r)
    if path is not None:
        return [Path(path, fill=fill, stroke=stroke, width=width)]
    points = _symbol_polygon(kind, cx, cy, r)
    if points is not None:
        return [Polygon(points, fill=fill, stroke=stroke, width=width)]
    raise ValueError(f"unknown symbol {kind!r}; expected one of {', '.join(SYMBOLS)}")


def _symbol_path(kind: str, cx: float, cy: float, r: float) -> tuple[tuple[object, ...], ...] | None:
    """The outline of a curved symbol (moon, heart, drop, leaf) as path commands; None for another kind."""
    if kind == "moon":
        return _moon_path(cx, cy, r * 0.95)
    if kind == "heart":
        return _heart_path(cx, cy, r)
    if kind == "drop":
        return _drop_path(cx, cy, r)
    if kind == "leaf":
        return _leaf_path(cx, cy, r)
    return None


def _symbol_polygon(kind: str, cx: float, cy: float, r: float) -> tuple[tuple[float, float], ...] | None:
    """The corners of a straight-edged symbol (square, hexagon, triangle, diamond, star, cross); None for
    another kind."""
    if kind == "square":
        s = r * 0.8
        return ((cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s))
    if kind == "hexagon":
        return regular_polygon(cx, cy, r * 0.98, 6, 0)
    if kind == "triangle":
        return regular_polygon(cx, cy - r * 0.12, r * 1.05, 3, 90)
    if kind == "diamond":
        return ((cx, cy + r), (cx + r * 0.72, cy), (cx, cy - r), (cx - r * 0.72, cy))
    if kind == "star":
        return star_points(cx, cy - r * 0.05, r * 1.05)
    if kind == "cross":
        t = r * 0.3
        return (
            (cx - t, cy + r),
            (cx + t, cy + r),
            (cx + t, cy + t),
            (cx + r, cy + t),
            (cx + r, cy - t),
            (cx + t, cy - t),
            (cx + t, cy - r),
            (cx - t, cy - r),
            (cx - t, cy - t),
            (cx - r, cy - t),
            (cx - r, cy + t),
            (cx - t, cy + t),
        )
    return None


# (dx, dy, radius) of the largest circle inside each symbol, as fractions of r (from the drawings above)
_INNER = {
    "circle": (0.0, 0.0, 0.92),
    "round": (0.0, 0.0, 0.92),
    "square": (0.0, 0.0, 0.8),
    "hexagon": (0.0, 0.0, 0.84),
    "triangle": (0.0, -0.12, 0.52),
    "diamond": (0.0, 0.0, 0.58),
    "star": (0.0, -0.05, 0.38),
    "sun": (0.0, 0.0, 0.45),
    "moon": (-0.55, 0.0, 0.35),
    "heart": (0.0, 0.05, 0.45),
    "drop": (0.0, -0.35, 0.55),
    "leaf": (0.0, 0.0, 0.4),
    "club": (0.0, 0.1, 0.36),
    "cross": (0.0, 0.0, 0.3),
}


def inner_circle(kind: str, cx: float, cy: float, r: float) -> tuple[float, float, float]:
    """Centre and radius of a circle that lies inside symbol `kind` drawn at (cx, cy) with size r: where a
    mark drawn on the symbol (a cross, a digit) stays inside its outline."""
    dx, dy, k = _INNER[kind]
    return cx + dx * r, cy + dy * r, k * r


def lighten(hex_colour: str, amount: float) -> str:
    """Mix a "#rrggbb" colour with white (amount 0 = unchanged, 1 = white)."""
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#{:02x}{:02x}{:02x}".format(*mix)


def darken(hex_colour: str, amount: float) -> str:
    """Mix a "#rrggbb" colour with black."""
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    mix = [round(c * (1 - amount)) for c in (r, g, b)]
    return "#{:02x}{:02x}{:02x}".format(*mix)
