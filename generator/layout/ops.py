"""Backend-neutral drawing ops. Lengths in points, origin at the bottom-left (as in PDF).

A component is drawn as `Face`s (one card, tile, sheet...) in the face's own coordinates: (0, 0) is the
bottom-left corner of the TRIM; art may extend into the bleed (negative coordinates, or beyond width/height).
Imposition places faces on `Page`s with `Place`, which clips to the trim (abutting cards) or the bleed box.
Colours are "#rrggbb" or one of the named inks in INKS. `dump()` gives the text form used by goldens.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from generator.spec.assets import Asset, Fit

Anchor = Literal["start", "middle", "end"]
FontKey = Literal["regular", "bold", "italic", "bold_italic"]
"""A text's weight and slope: the italic keys come from rich text's `*italic*` (a kit's italic face, else a
synthetic oblique of the upright one)."""
ITALIC_SLANT = math.tan(math.radians(12))
"""How far a synthetic oblique leans: x moves by this much per unit of height (12 degrees, as word processors
slant a face with no italic); a Text of an italic key has its box widened by it (geometry's text_box)."""
Role = Literal["body", "fine", "heading", "number"]

INKS = {
    "cut": "#000000",  # crop marks and cut lines
    "ink": "#1a1a1a",  # body text and outlines
    "muted": "#6b6b6b",  # helper lines, captions: 5.3:1 on white (WCAG AA for small text needs 4.5:1)
    "paper": "#ffffff",
}


def is_italic(font: str) -> bool:
    """Whether a font key is one of the italic ones."""
    return font in ("italic", "bold_italic")


def upright(font: str) -> str:
    """The upright key of a font key ('bold_italic' -> 'bold'): the face a synthetic oblique slants."""
    return {"italic": "regular", "bold_italic": "bold"}.get(font, font)


@dataclass(frozen=True)
class Rect:
    """A rectangle (optionally rounded)."""

    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = "ink"
    width: float = 0.5
    radius: float = 0.0
    dash: tuple[float, ...] | None = None
    gradient: tuple[str, str, float] | None = None
    """A linear gradient filling the rect instead of `fill`: (start colour, end colour, angle in degrees, 0
    left
    to right, 90 bottom to top); `fill` stays the start colour for checks that read one colour."""


@dataclass(frozen=True)
class Line:
    """A straight line."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "ink"
    width: float = 0.5
    dash: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Circle:
    """A circle."""

    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = "ink"
    width: float = 0.5


@dataclass(frozen=True)
class Polygon:
    """A closed polygon (or an open polyline when closed=False)."""

    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = "ink"
    width: float = 0.5
    closed: bool = True
    dash: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Path:
    """A path of commands: ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",)."""

    commands: tuple[tuple[object, ...], ...]
    fill: str | None = None
    stroke: str | None = "ink"
    width: float = 0.5


@dataclass(frozen=True)
class Text:
    """One line of text; `text_id` names the catalog id it came from ('' for numbers and marks)."""

    x: float
    y: float
    text: str
    size: float
    font: FontKey = "regular"
    fill: str = "ink"
    anchor: Anchor = "start"
    text_id: str = ""
    rotate: float = 0.0
    role: Role = "body"
    """Which `style.min_size` floor the size is held to: body, fine (footers, captions), heading, number."""


@dataclass(frozen=True)
class Place:
    """Draw `ops` translated by (x, y), rotated by `rotate` degrees about that point, clipped to `clip`
    (x, y, w, h in the placed ops' own coordinates) when given."""

    x: float
    y: float
    ops: tuple[Op, ...]
    clip: tuple[float, float, float, float] | None = None
    rotate: float = 0.0
    scale: float = 1.0
    window: bool = False
    """The clip is a window onto part of a larger face (a tiled strip), not its trim: strings may cross it."""
    name: str = ""
    """The name of the face this place draws (imposition sets it), for messages about that face."""
    backdrop: bool = False
    """The ops are a declared background (a faded symbol behind a card's number): strings may sit across
    them."""
    opacity: float = 1.0
    """The ops drawn with this alpha (a template element's `opacity`)."""
    mask: tuple[float, float, float, float, float] | None = None
    """A rounded-rectangle clip (x, y, w, h, radius) that is part of the art (a card's rounded corners), not a
    face's trim: the checks do not take it for a face."""
    trim: tuple[float, float, float, float] | None = None
    """The face's trim (x, y, w, h, own coordinates) where `clip` keeps its bleed too: the box the text-fit
    and safe-area checks measure against (the clip when None)."""


@dataclass(frozen=True)
class Image:
    """Raster art from the kit folder (a checked `Asset`), fitted into the box x, y, w, h (see `fitted`)."""

    asset: Asset
    x: float
    y: float
    w: float
    h: float
    fit: Fit = "cover"
    opacity: float = 1.0
    slot: str = ""
    """The art slot it fills (for messages and dumps)."""
    bleed: bool = False
    """The art must cover its whole box (it runs into the bleed): checked by `art_problems`."""
    band: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    """How far the box runs past the trim on the left, bottom, right and top (points): the bleed band, where
    a transparent pixel would print as a white gutter (`art_problems`)."""


@dataclass(frozen=True)
class Vector:
    """SVG art from the kit folder drawn as vector paths into the box x, y, w, h; `tint` paints every shape in
    one colour."""

    asset: Asset
    x: float
    y: float
    w: float
    h: float
    fit: Fit = "contain"
    opacity: float = 1.0
    slot: str = ""
    bleed: bool = False
    tint: str | None = None
    band: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


Op = Rect | Line | Circle | Polygon | Path | Text | Place | Image | Vector


INLINE_ICON = "icon:"
"""The `slot` prefix of a kit icon drawn inside a line of rich text (`icon:coin`): the collision check and the
rules flow measure it like a shape of the line."""


def is_inline_icon(op: Op) -> bool:
    """Whether `op` is a kit icon set inside a line of rich text."""
    return isinstance(op, (Image, Vector)) and op.slot.startswith(INLINE_ICON)


def art_op(
    asset: Asset,
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    fit: Fit = "contain",
    opacity: float = 1.0,
    tint: str | None = None,
    slot: str = "",
    bleed: bool = False,
    band: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0),
) -> Image | Vector:
    """The op that draws `asset` into the box x, y, w, h: a `Vector` for an SVG, an `Image` for a raster (a
    raster is never tinted). Composers and template interpreters emit art only through this."""
    if asset.is_vector:
        return Vector(asset, x, y, w, h, fit, opacity, slot, bleed, tint, band)
    return Image(asset, x, y, w, h, fit, opacity, slot, bleed, band)


def fitted(op: Image | Vector) -> tuple[float, float, float, float]:
    """Where the art itself lands (x, y, w, h): the box (stretch), the largest centred box of the art's aspect
    inside it (contain) or the smallest one around it (cover; the renderer clips it to the box)."""
    if op.fit == "stretch" or op.asset.width <= 0 or op.asset.height <= 0:
        return op.x, op.y, op.w, op.h
    sx, sy = op.w / op.asset.width, op.h / op.asset.height
    k = max(sx, sy) if op.fit == "cover" else min(sx, sy)
    w, h = op.asset.width * k, op.asset.height * k
    return op.x + (op.w - w) / 2, op.y + (op.h - h) / 2, w, h


@dataclass(frozen=True)
class Face:
    """One printed piece (card face, card back, sheet, tile) in its own coordinates."""

    name: str
    width: float
    height: float
    ops: tuple[Op, ...]
    bleed: float = 0.0
    """How far the art extends past the trim on every side."""


@dataclass
class Page:
    """One PDF page: its size, ops, and optional boxes and bookmark."""

    width: float
    height: float
    ops: list[Op] = field(default_factory=list)
    trim_box: tuple[float, float, float, float] | None = None
    """(x0, y0, x1, y1) in page coordinates, for print-shop pages."""
    bleed_box: tuple[float, float, float, float] | None = None
    bookmark: str | None = None
    """Outline entry starting at this page (component name)."""
    bookmark_level: int = 0
    label: str = ""
    face: str = ""
    """Name of the one face a print-shop page holds ('' for N-up and sheet pages): exports name card files by
    it."""


def _f(v: float) -> str:
    return f"{v:.2f}"


def _colour(c: str | None) -> str:
    return "none" if c is None else c


def dump_ops(ops: tuple[Op, ...] | list[Op], indent: str = "  ") -> list[str]:
    """One readable line per op (nested places indented)."""
    out: list[str] = []
    for op in ops:
        if isinstance(op, Rect):
            extra = f" r={_f(op.radius)}" if op.radius else ""
            if op.gradient:
                extra += f" gradient={op.gradient[0]}>{op.gradient[1]}@{op.gradient[2]:g}"
            out.append(
                f"{indent}rect {_f(op.x)} {_f(op.y)} {_f(op.w)} {_f(op.h)} fill={_colour(op.fill)} "
                f"stroke={_colour(op.stroke)}{extra}"
            )
        elif isinstance(op, Line):
            out.append(
                f"{indent}line {_f(op.x1)} {_f(op.y1)} {_f(op.x2)} {_f(op.y2)} stroke={op.stroke} "
                f"w={_f(op.width)}"
            )
        elif isinstance(op, Circle):
            out.append(
                f"{indent}circle {_f(op.cx)} {_f(op.cy)} {_f(op.r)} fill={_colour(op.fill)} "
                f"stroke={_colour(op.stroke)}"
            )
        elif isinstance(op, Polygon):
            pts = " ".join(f"{_f(x)},{_f(y)}" for x, y in op.points)
            out.append(f"{indent}poly {pts} fill={_colour(op.fill)} stroke={_colour(op.stroke)}")
        elif isinstance(op, Path):
            cmds = " ".join(
                str(c[0]) + ",".join(_f(float(v)) for v in c[1:])  # type: ignore[arg-type]
                for c in op.commands
            )
            out.append(f"{indent}path {cmds} fill={_colour(op.fill)} stroke={_colour(op.stroke)}")
        elif isinstance(op, Text):
            tid = f" {op.text_id}" if op.text_id else ""
            out.append(
                f"{indent}text {_f(op.x)} {_f(op.y)} {op.font}@{op.size:g} {op.anchor}{tid} {op.text!r}"
            )
        elif isinstance(op, (Image, Vector)):
            kind = "vector" if isinstance(op, Vector) else "image"
            extra = f" opacity={op.opacity:g}" if op.opacity != 1 else ""
            extra += f" tint={op.tint}" if isinstance(op, Vector) and op.tint else ""
            extra += " bleed" if op.bleed else ""
            out.append(
                f"{indent}{kind} {_f(op.x)} {_f(op.y)} {_f(op.w)} {_f(op.h)} {op.fit} "
                f"{op.slot}={op.asset.shown} "
                f"sha={op.asset.sha256[:12]}{extra}"
            )
        elif isinstance(op, Place):
            clip = f" clip={','.join(_f(v) for v in op.clip)}" if op.clip else ""
            rot = f" rot={op.rotate:g}" if op.rotate else ""
            rot += f" opacity={op.opacity:g}" if op.opacity != 1 else ""
            rot += f" mask={','.join(_f(v) for v in op.mask)}" if op.mask else ""
            out.append(f"{indent}place {_f(op.x)} {_f(op.y)}{rot}{clip}")
            out.extend(dump_ops(op.ops, indent + "  "))
    return out


def dump(pages: list[Page]) -> str:
    """The text form of pages, for golden files a reviewer can read in a diff."""
    lines: list[str] = []
    for i, p in enumerate(pages, 1):
        trim = f" trim={','.join(_f(v) for v in p.trim_box)}" if p.trim_box else ""
        mark = f" bookmark={p.bookmark!r}" if p.bookmark else ""
        lines.append(f"page {i} {_f(p.width)}x{_f(p.height)}{trim}{mark}")
        lines.extend(dump_ops(p.ops))
    return "\n".join(lines) + "\n"


def iter_art(ops: tuple[Op, ...] | list[Op], scale: float = 1.0) -> list[tuple[Image | Vector, float]]:
    """Every Image and Vector op with the scale it is placed at, nested places included (for print checks)."""
    out: list[tuple[Image | Vector, float]] = []
    for op in ops:
        if isinstance(op, (Image, Vector)):
            out.append((op, scale))
        elif isinstance(op, Place):
            out.extend(iter_art(op.ops, scale * op.scale))
    return out


def iter_texts(ops: tuple[Op, ...] | list[Op]) -> list[Text]:
    """Every Text op, nested places included (for glyph and fit checks)."""
    out: list[Text] = []
    for op in ops:
        if isinstance(op, Text):
            out.append(op)
        elif isinstance(op, Place):
            out.extend(iter_texts(op.ops))
    return out
