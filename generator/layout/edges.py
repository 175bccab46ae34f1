"""What a face prints along each edge of its trim, read from its drawing ops: one solid colour, or nothing
anyone can promise (art, lines, text near the cut). Imposition lets two neighbours share a cut only where
both print the same solid colour there, so a cut a little off the line shows more of that colour rather
than a strip of the neighbour's."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from typing import Final, Literal

from generator.layout.ops import INKS, Face, Image, Op, Place, Rect, Text, Vector
from generator.units import mm

Box = tuple[float, float, float, float]
Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: Final[Matrix] = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

Side = Literal["left", "bottom", "right", "top"]
SIDES: Final[tuple[Side, ...]] = ("left", "bottom", "right", "top")
MISCUT: Final = mm(1)
"""How far off its line a cut at home may land: the band along each edge that must be one colour for two
faces to share the cut."""
_EPS: Final = 1e-6


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """m applied after n (as textfit's, which this module cannot import: textfit needs imposition)."""
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


def _place_matrix(op: Place) -> Matrix:
    r = math.radians(op.rotate)
    cos, sin = round(math.cos(r), 12), round(math.sin(r), 12)
    return (cos * op.scale, sin * op.scale, -sin * op.scale, cos * op.scale, op.x, op.y)


def _apply_box(m: Matrix, box: Box) -> Box:
    a, b, c, d, e, f = m
    corners = ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3]))
    xs = [a * x + c * y + e for x, y in corners]
    ys = [b * x + d * y + f for x, y in corners]
    return min(xs), min(ys), max(xs), max(ys)


def _text_box(op: Text) -> Box:
    """A generous box for a text (no font metrics here: 0.62 em a character, 1 em a wide East Asian one,
    turned texts as a square)."""
    width = sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.62 for c in op.text) * op.size
    if op.rotate:
        r = max(width, op.size)
        return op.x - r, op.y - r, op.x + r, op.y + r
    x0 = {"start": op.x, "middle": op.x - width / 2, "end": op.x - width}[op.anchor]
    return x0, op.y - op.size * 0.3, x0 + width, op.y + op.size


def _leaves(ops: Sequence[Op]) -> list[tuple[Op, Matrix, Box]]:
    """Every leaf op with its transform and its box on the face (Places followed), in drawing order."""
    from generator.layout.geometry import own_box

    out: list[tuple[Op, Matrix, Box]] = []

    def walk(items: Sequence[Op], m: Matrix) -> None:
        for op in items:
            if isinstance(op, Place):
                walk(op.ops, _mul(m, _place_matrix(op)))
                continue
            box: Box | None
            if isinstance(op, Image | Vector):
                box = (op.x, op.y, op.x + op.w, op.y + op.h)
            elif isinstance(op, Text):
                box = _text_box(op)
            else:
                box = own_box(op, lambda _t, _f, _s: 0.0)
            if box is not None:
                out.append((op, m, _apply_box(m, box)))

    walk(ops, _IDENTITY)
    return out


def _band(face: Face, side: Side, depth: float) -> Box:
    w, h = face.width, face.height
    return {
        "left": (0.0, 0.0, depth, h),
        "bottom": (0.0, 0.0, w, depth),
        "right": (w - depth, 0.0, w, h),
        "top": (0.0, h - depth, w, h),
    }[side]


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] - _EPS and b[0] < a[2] - _EPS and a[1] < b[3] - _EPS and b[1] < a[3] - _EPS


def _covers(op: Op, m: Matrix, band: Box) -> str | None:
    """The fill of `op` when it is a plain rectangle painting the whole band in one colour, else None."""
    if not isinstance(op, Rect) or not op.fill or op.fill == "none" or m[1] or m[2]:
        return None
    x0, y0, x1, y1 = _apply_box(m, (op.x, op.y, op.x + op.w, op.y + op.h))
    inset = op.radius + (op.width / 2 if op.stroke and op.stroke != "none" else 0.0)
    ok = (
        x0 + inset <= band[0] + _EPS
        and y0 + inset <= band[1] + _EPS
        and x1 - inset >= band[2] - _EPS
        and y1 - inset >= band[3] - _EPS
    )
    return INKS.get(op.fill, op.fill).lower() if ok else None


def edge_colour(face: Face, side: Side, depth: float = MISCUT) -> str | None:
    """The one colour `face` prints in the band `depth` deep inside the `side` edge of its trim ('#rrggbb';
    unprinted paper is white), or None where anything else (art, a line, text, a second colour) reaches
    into the band."""
    band = _band(face, side, depth)
    colour: str | None = INKS["paper"]
    for op, m, box in _leaves(face.ops):
        if not _meets(box, band):
            continue
        colour = _covers(op, m, band)
    return colour


def face_edges(face: Face) -> dict[Side, str | None]:
    """edge_colour of every side of `face`."""
    return {side: edge_colour(face, side) for side in SIDES}


def can_share_cut(a: str | None, b: str | None) -> bool:
    """Whether two edges printing `a` and `b` may abut on one cut (both one known colour, the same)."""
    return a is not None and a == b


__all__ = ["MISCUT", "SIDES", "Side", "can_share_cut", "edge_colour", "face_edges"]
