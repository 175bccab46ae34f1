"""Raindrops pictures drawn as ops (the font has no emoji): cloud symbols (umbrella, boots, frog, snail), the
cat, the cloud and thunder shapes, arrows, special-action icons and split (wild) drops."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from generator.layout.ops import Circle, Line, Op, Path, Place, Polygon, Rect
from generator.layout.shapes import symbol

K = 0.5523  # cubic Bezier handle for a quarter circle
INK = "ink"


def ellipse(
    cx: float,
    cy: float,
    rx: float,
    ry: float,
    *,
    fill: str | None,
    stroke: str | None = INK,
    width: float = 0.6,
) -> Path:
    """An ellipse as four Bezier quarters."""
    return Path(
        (
            ("M", cx + rx, cy),
            ("C", cx + rx, cy + K * ry, cx + K * rx, cy + ry, cx, cy + ry),
            ("C", cx - K * rx, cy + ry, cx - rx, cy + K * ry, cx - rx, cy),
            ("C", cx - rx, cy - K * ry, cx - K * rx, cy - ry, cx, cy - ry),
            ("C", cx + K * rx, cy - ry, cx + rx, cy - K * ry, cx + rx, cy),
            ("Z",),
        ),
        fill=fill,
        stroke=stroke,
        width=width,
    )


def umbrella(cx: float, cy: float, r: float, fill: str = "#e03131") -> list[Op]:
    """An open umbrella: scalloped canopy, shaft and hook."""
    R, y = r * 0.95, cy - r * 0.05
    canopy = Path(
        (
            ("M", cx - R, y),
            ("C", cx - R, y + K * R * 0.9, cx - K * R, y + R * 0.9, cx, y + R * 0.9),
            ("C", cx + K * R, y + R * 0.9, cx + R, y + K * R * 0.9, cx + R, y),
            ("C", cx + R * 0.8, y + R * 0.22, cx + R * 0.53, y + R * 0.22, cx + R / 3, y),
            ("C", cx + R * 0.2, y + R * 0.22, cx - R * 0.2, y + R * 0.22, cx - R / 3, y),
            ("C", cx - R * 0.53, y + R * 0.22, cx - R * 0.8, y + R * 0.22, cx - R, y),
            ("Z",),
        ),
        fill=fill,
        stroke=INK,
        width=max(0.5, r * 0.06),
    )
    w = max(0.7, r * 0.12)
    hook = Path(
        (
            ("M", cx, y - R * 0.72),
            ("C", cx, y - R * 0.98, cx - R * 0.36, y - R * 0.98, cx - R * 0.36, y - R * 0.72),
        ),
        fill=None,
        stroke=INK,
        width=w,
    )
    return [
        Line(cx, y + R * 0.9, cx, y - R * 0.72, stroke=INK, width=w),
        canopy,
        hook,
        Line(cx, y + R * 0.9, cx, y + R * 1.02, stroke=INK, width=w),
    ]


def boots(cx: float, cy: float, r: float, fill: str = "#f2c300") -> list[Op]:
    """A rain boot seen from the side: shaft, toe, dark sole and cuff."""
    pts = (
        (cx - r * 0.5, cy + r * 0.85),
        (cx + r * 0.12, cy + r * 0.85),
        (cx + r * 0.12, cy - r * 0.2),
        (cx + r * 0.72, cy - r * 0.38),
        (cx + r * 0.85, cy - r * 0.6),
        (cx + r * 0.85, cy - r * 0.72),
        (cx - r * 0.5, cy - r * 0.72),
    )
    w = max(0.5, r * 0.06)
    return [
        Polygon(pts, fill=fill, stroke=INK, width=w),
        Rect(cx - r * 0.5, cy - r * 0.88, r * 1.35, r * 0.16, fill=INK, stroke=INK, width=w),
        Rect(cx - r * 0.56, cy + r * 0.66, r * 0.74, r * 0.2, fill="#ffffff", stroke=INK, width=w),
    ]


def frog(cx: float, cy: float, r: float, fill: str = "#51cf66") -> list[Op]:
    """A frog's face: wide head, two eyes on top, a smile."""
    w = max(0.5, r * 0.06)
    ops: list[Op] = []
    for s in (-1, 1):
        ops.append(Circle(cx + s * r * 0.42, cy + r * 0.38, r * 0.3, fill=fill, stroke=INK, width=w))
    ops.append(ellipse(cx, cy - r * 0.12, r * 0.9, r * 0.6, fill=fill, width=w))
    for s in (-1, 1):
        ops.append(
            Circle(cx + s * r * 0.42, cy + r * 0.4, r * 0.19, fill="#ffffff", stroke=INK, width=w * 0.8)
        )
        ops.append(Circle(cx + s * r * 0.42, cy + r * 0.38, r * 0.09, fill=INK, stroke=None))
    ops.append(
        Path(
            (
                ("M", cx - r * 0.45, cy - r * 0.2),
                ("C", cx - r * 0.2, cy - r * 0.45, cx + r * 0.2, cy - r * 0.45, cx + r * 0.45, cy - r * 0.2),
            ),
            fill=None,
            stroke=INK,
            width=w * 1.3,
        )
    )
    return ops


def snail(cx: float, cy: float, r: float, fill: str = "#c08552") -> list[Op]:
    """A snail: long foot, head with antennae, spiral shell."""
    w = max(0.5, r * 0.06)
    ops: list[Op] = [
        Line(cx - r * 0.62, cy + r * 0.05, cx - r * 0.8, cy + r * 0.55, stroke=INK, width=w),
        Line(cx - r * 0.52, cy + r * 0.05, cx - r * 0.45, cy + r * 0.58, stroke=INK, width=w),
        Circle(cx - r * 0.8, cy + r * 0.58, r * 0.07, fill=INK, stroke=None),
        Circle(cx - r * 0.45, cy + r * 0.62, r * 0.07, fill=INK, stroke=None),
        Rect(
            cx - r * 0.95,
            cy - r * 0.7,
            r * 1.85,
            r * 0.3,
            fill="#d8c3a5",
            stroke=INK,
            width=w,
            radius=r * 0.15,
        ),
        Rect(
            cx - r * 0.75,
            cy - r * 0.6,
            r * 0.36,
            r * 0.75,
            fill="#d8c3a5",
            stroke=INK,
            width=w,
            radius=r * 0.16,
        ),
        Circle(cx + r * 0.22, cy - r * 0.02, r * 0.6, fill=fill, stroke=INK, width=w),
    ]
    # spiral: half circles of shrinking radius, alternating sides
    x, y, rr = cx + r * 0.22, cy - r * 0.02, r * 0.45
    cmds: list[tuple[object, ...]] = [("M", x + rr, y)]
    side = 1
    for _ in range(4):
        cmds.append(
            (
                "C",
                x + side * rr,
                y + side * rr * 1.33,
                x - side * rr * 0.8,
                y + side * rr * 1.33,
                x - side * rr * 0.8,
                y,
            )
        )
        x -= side * rr * 0.9 - side * rr * 0.9 * 0.5
        rr *= 0.55
        side = -side
    ops.append(Path(tuple(cmds), fill=None, stroke=INK, width=w))
    return ops


def cat(cx: float, cy: float, r: float, fill: str = "#5c5f66") -> list[Op]:
    """A cat's head: ears, eyes, nose and whiskers."""
    w = max(0.5, r * 0.06)
    ops: list[Op] = [
        Polygon(
            ((cx - r * 0.78, cy + r * 0.15), (cx - r * 0.7, cy + r * 0.92), (cx - r * 0.2, cy + r * 0.55)),
            fill=fill,
            stroke=INK,
            width=w,
        ),
        Polygon(
            ((cx + r * 0.78, cy + r * 0.15), (cx + r * 0.7, cy + r * 0.92), (cx + r * 0.2, cy + r * 0.55)),
            fill=fill,
            stroke=INK,
            width=w,
        ),
        ellipse(cx, cy - r * 0.05, r * 0.82, r * 0.68, fill=fill, width=w),
    ]
    for s in (-1, 1):
        ops.append(ellipse(cx + s * r * 0.32, cy + r * 0.08, r * 0.15, r * 0.2, fill="#ffe066", stroke=None))
        ops.append(ellipse(cx + s * r * 0.32, cy + r * 0.08, r * 0.05, r * 0.17, fill=INK, stroke=None))
        for k in (-1, 1):
            ops.append(
                Line(
                    cx + s * r * 0.3,
                    cy - r * 0.22 + k * r * 0.06,
                    cx + s * r * 0.98,
                    cy - r * 0.22 + k * r * 0.16,
                    stroke="#ffffff",
                    width=w * 0.7,
                )
            )
    ops.append(
        Polygon(
            ((cx - r * 0.1, cy - r * 0.12), (cx + r * 0.1, cy - r * 0.12), (cx, cy - r * 0.24)),
            fill="#ff8fab",
            stroke=None,
        )
    )
    return ops


CLOUD_ART: dict[str, Callable[..., list[Op]]] = {
    "umbrella": umbrella,
    "boots": boots,
    "frog": frog,
    "snail": snail,
}


def cloud_symbol(kind: str | None, cx: float, cy: float, r: float) -> list[Op]:
    """The symbol of a cloud type (None = the cat); unknown types get a plain cloud."""
    if kind is None:
        return cat(cx, cy, r)
    fn = CLOUD_ART.get(kind)
    return fn(cx, cy, r) if fn else cloud_shape(cx, cy, r, fill="#ffffff")


def cloud_shape(
    cx: float, cy: float, r: float, *, fill: str, stroke: str = INK, width: float = 0.8
) -> list[Op]:
    """A cloud (flat bottom, three puffs) with one outline: stroked disks under filled disks."""
    puffs = (
        (cx - r * 0.5, cy - r * 0.1, r * 0.38),
        (cx, cy + r * 0.15, r * 0.52),
        (cx + r * 0.5, cy - r * 0.05, r * 0.4),
    )
    base = (cx - r * 0.55, cy - r * 0.48, r * 1.1, r * 0.45)
    ops: list[Op] = [Circle(x, y, rr + width / 2, fill=stroke, stroke=None) for x, y, rr in puffs]
    ops.append(
        Rect(
            base[0] - width / 2,
            base[1] - width / 2,
            base[2] + width,
            base[3],
            fill=stroke,
            stroke=None,
            radius=r * 0.2,
        )
    )
    ops += [Circle(x, y, rr - width / 2, fill=fill, stroke=None) for x, y, rr in puffs]
    ops.append(
        Rect(
            base[0] + width / 2,
            base[1] + width / 2,
            base[2] - width,
            base[3],
            fill=fill,
            stroke=None,
            radius=r * 0.18,
        )
    )
    return ops


def bolt(
    cx: float, cy: float, r: float, *, fill: str = "#ffd43b", stroke: str | None = INK, width: float = 0.6
) -> list[Op]:
    """A lightning bolt."""
    pts = (
        (cx + r * 0.15, cy + r),
        (cx - r * 0.5, cy - r * 0.1),
        (cx - r * 0.02, cy - r * 0.1),
        (cx - r * 0.2, cy - r),
        (cx + r * 0.5, cy + r * 0.15),
        (cx + r * 0.02, cy + r * 0.15),
        (cx + r * 0.3, cy + r),
    )
    return [Polygon(pts, fill=fill, stroke=stroke, width=width)]


def arrow(
    x1: float,
    y1: float,
    x2: float,
    y2: float,
    *,
    stroke: str = INK,
    width: float = 1.2,
    head: float | None = None,
) -> list[Op]:
    """A straight arrow from (x1, y1) to (x2, y2)."""
    import math

    h = head if head is not None else width * 3.5
    a = math.atan2(y2 - y1, x2 - x1)
    bx, by = x2 - h * math.cos(a), y2 - h * math.sin(a)
    px, py = -math.sin(a) * h * 0.55, math.cos(a) * h * 0.55
    return [
        Line(x1, y1, bx, by, stroke=stroke, width=width),
        Polygon(((x2, y2), (bx + px, by + py), (bx - px, by - py)), fill=stroke, stroke=None),
    ]


def split_disc(cx: float, cy: float, r: float, colours: Sequence[str], shapes: Sequence[str]) -> list[Op]:
    """A round drop split into equal wedges, one per colour, each with its colour's shape as a white mark."""
    import math

    n = len(colours)
    ops: list[Op] = []
    for i, (c, s) in enumerate(zip(colours, shapes)):
        a0 = math.pi / 2 + 2 * math.pi * i / n
        a1 = a0 + 2 * math.pi / n
        pts = [(cx, cy)] + [
            (cx + r * math.cos(a0 + (a1 - a0) * k / 12), cy + r * math.sin(a0 + (a1 - a0) * k / 12))
            for k in range(13)
        ]
        ops.append(Polygon(tuple(pts), fill=c, stroke=None))
        am = (a0 + a1) / 2
        ops += symbol(
            s,
            cx + r * 0.55 * math.cos(am),
            cy + r * 0.55 * math.sin(am),
            r * 0.26,
            fill="#ffffff",
            stroke=INK,
            width=0.35,
        )
    ops.append(Circle(cx, cy, r, fill=None, stroke=INK, width=0.8))
    return ops


def wild_drop(cx: float, cy: float, r: float, colours: tuple[str, str], shapes: tuple[str, str]) -> list[Op]:
    """A drop split down the middle between two colours, each half carrying its colour's shape as a white
    mark."""
    left = tuple(symbol("drop", cx, cy, r, fill=colours[0], stroke=None))
    right = tuple(symbol("drop", cx, cy, r, fill=colours[1], stroke=None))
    ops: list[Op] = [
        Place(0.0, 0.0, left, clip=(cx - r * 1.2, cy - r * 1.2, r * 1.2, r * 2.4)),
        Place(0.0, 0.0, right, clip=(cx, cy - r * 1.2, r * 1.2, r * 2.4)),
    ]
    ops += symbol("drop", cx, cy, r, fill=None, stroke=INK, width=0.8)
    ops.append(Line(cx, cy + r * 0.95, cx, cy - r * 0.98, stroke="#ffffff", width=0.6))
    for s, shape in ((-1, shapes[0]), (1, shapes[1])):
        ops += symbol(shape, cx + s * r * 0.3, cy - r * 0.3, r * 0.2, fill="#ffffff", stroke=INK, width=0.35)
    return ops


def flip_icon(cx: float, cy: float, r: float) -> list[Op]:
    """Special action FLIP: a tile with a half-turn arrow around it."""
    tw, th = r * 0.5, r * 1.0
    ops: list[Op] = [
        Rect(cx - tw / 2, cy - th / 2, tw, th / 2, fill="#a5d8ff", stroke=INK, width=0.6),
        Rect(cx - tw / 2, cy, tw, th / 2, fill="#ffc078", stroke=INK, width=0.6),
    ]
    R = r * 0.85
    ops.append(
        Path(
            (
                ("M", cx - R * 0.2, cy + R),
                ("C", cx + R * 0.6, cy + R, cx + R, cy + R * 0.5, cx + R, cy),
                ("C", cx + R, cy - R * 0.5, cx + R * 0.6, cy - R * 0.95, cx + R * 0.05, cy - R * 0.95),
            ),
            fill=None,
            stroke=INK,
            width=r * 0.09,
        )
    )
    ops += arrow(cx + R * 0.25, cy - R * 0.95, cx - R * 0.3, cy - R * 0.95, width=r * 0.09, head=r * 0.3)
    return ops


def swap_icon(cx: float, cy: float, r: float) -> list[Op]:
    """Special action SWAP: two tiles side by side with a two-way arrow."""
    tw, th = r * 0.5, r * 1.0
    ops: list[Op] = []
    for s, (c1, c2) in ((-1, ("#a5d8ff", "#b2f2bb")), (1, ("#ffc078", "#d0bfff"))):
        x = cx + s * r * 0.32 - tw / 2
        ops += [
            Rect(x, cy - th * 0.7, tw, th / 2, fill=c2, stroke=INK, width=0.6),
            Rect(x, cy - th * 0.2, tw, th / 2, fill=c1, stroke=INK, width=0.6),
        ]
    y = cy + r * 0.6
    ops += arrow(cx - r * 0.1, y, cx + r * 0.8, y, width=r * 0.09, head=r * 0.28)
    ops += arrow(cx + r * 0.1, y, cx - r * 0.8, y, width=r * 0.09, head=r * 0.28)
    return ops


def top_icon(cx: float, cy: float, r: float) -> list[Op]:
    """Special action TOP: a column of tiles, one lifted from below to the top."""
    s = r * 0.42
    ops: list[Op] = []
    for i, c in enumerate(("#b2f2bb", "#d0bfff", "#a5d8ff")):
        ops.append(Rect(cx - r * 0.55, cy - r * 0.95 + i * s * 1.05, s, s, fill=c, stroke=INK, width=0.6))
    ops.append(
        Rect(
            cx - r * 0.55,
            cy - r * 0.95 + 3 * s * 1.05,
            s,
            s,
            fill="#ffc078",
            stroke=INK,
            width=0.6,
            dash=(1.5, 1),
        )
    )
    ops.append(
        Path(
            (
                ("M", cx - r * 0.1, cy - r * 0.95 + s * 1.55),
                ("C", cx + r * 0.65, cy - r * 0.6, cx + r * 0.65, cy + r * 0.7, cx + r * 0.05, cy + r * 0.85),
            ),
            fill=None,
            stroke=INK,
            width=r * 0.09,
        )
    )
    ops += arrow(cx + r * 0.3, cy + r * 0.86, cx - r * 0.05, cy + r * 0.84, width=r * 0.09, head=r * 0.28)
    return ops


ACTION_ICONS: dict[str, Callable[[float, float, float], list[Op]]] = {
    "flip": flip_icon,
    "swap": swap_icon,
    "top": top_icon,
}

__all__ = [
    "ellipse",
    "umbrella",
    "boots",
    "frog",
    "snail",
    "cat",
    "cloud_symbol",
    "cloud_shape",
    "bolt",
    "arrow",
    "split_disc",
    "wild_drop",
    "flip_icon",
    "swap_icon",
    "top_icon",
    "ACTION_ICONS",
    "CLOUD_ART",
]
