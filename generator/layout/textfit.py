"""The text-fit check over drawn pages: every string of every face, front or back, stays inside the box it is
printed on and inside the trim it is clipped to.

Composers fit a string to a width they choose (`fit_line`, `fit_block`); nothing proved that width was the
width of the box drawn behind it. This check looks at what is actually drawn: for each Text op, the box it
sits on is the last filled rectangle painted before it that holds the text's centre; the text's extent
(advance width from the render room's metrics, ascent/descent as fractions of the size) must lie inside that
rectangle and inside every clip of the Places around it. Rotated and scaled Places are followed, so card
backs, rotated N-up cards and shop pages are all covered.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from generator.errors import LocatedLayoutError
from generator.layout.compose import Component
from generator.layout.ops import ITALIC_SLANT, Op, Page, Place, Rect, Text, is_italic, iter_texts
from generator.layout.text import Measure, UnprintableTextError, check_printable
from generator.spec.catalogs import Catalog
from generator.units import pt_text

ASCENT = 0.80
"""Height of the tallest drawn glyphs above the baseline, as a fraction of the size (BIZ UDPGothic caps and
kana reach about 0.78)."""
DESCENT = 0.12
"""Depth below the baseline, as a fraction of the size."""
TOLERANCE = 0.25
"""Points a text may touch past its box (anti-aliasing, rounding)."""

Box = tuple[float, float, float, float]
Matrix = tuple[float, float, float, float, float, float]
"""(a, b, c, d, e, f): x' = a x + c y + e, y' = b x + d y + f, as in PDF."""

_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """m applied after n (n is the inner transform)."""
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
    s = op.scale
    return (cos * s, sin * s, -sin * s, cos * s, op.x, op.y)


def _apply_box(m: Matrix, box: Box) -> Box:
    """The axis-aligned bounding box of `box` (x0, y0, x1, y1) after `m`."""
    a, b, c, d, e, f = m
    x0, y0, x1, y1 = box
    # the corners in the order min() and max() met them in a list (the first of equal values wins), unrolled
    u0, u1, u2, u3 = a * x0 + c * y0 + e, a * x1 + c * y0 + e, a * x0 + c * y1 + e, a * x1 + c * y1 + e
    v0, v1, v2, v3 = b * x0 + d * y0 + f, b * x1 + d * y0 + f, b * x0 + d * y1 + f, b * x1 + d * y1 + f
    lo_u = hi_u = u0
    lo_v = hi_v = v0
    for u in (u1, u2, u3):
        if u < lo_u:
            lo_u = u
        if u > hi_u:
            hi_u = u
    for v in (v1, v2, v3):
        if v < lo_v:
            lo_v = v
        if v > hi_v:
            hi_v = v
    return lo_u, lo_v, hi_u, hi_v


def _inside(inner: Box, outer: Box) -> bool:
    return (
        inner[0] >= outer[0] - TOLERANCE
        and inner[1] >= outer[1] - TOLERANCE
        and inner[2] <= outer[2] + TOLERANCE
        and inner[3] <= outer[3] + TOLERANCE
    )


def _holds(box: Box, x: float, y: float) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


@dataclass(frozen=True)
class Overflow:
    """One string that runs past its box: where, what, and by how much on each side (points)."""

    page: int
    label: str
    text_id: str
    text: str
    what: str
    """'its box' (the filled rectangle it is printed on) or 'the trim' (the clip of its face)"""
    left: float
    right: float
    bottom: float
    top: float

    def message(self) -> str:
        """One line for a LayoutError."""
        sides = [
            f"{name} {pt_text(v)}"
            for name, v in (
                ("left", self.left),
                ("right", self.right),
                ("bottom", self.bottom),
                ("top", self.top),
            )
            if v > TOLERANCE
        ]
        where = f"page {self.page}" + (f" ({self.label})" if self.label else "")
        return (
            f"{where}: text {self.text_id or '(no id)'} {self.text!r} runs past {self.what}: "
            f"{', '.join(sides)}"
        )


def _overflow(page: int, label: str, op: Text, box: Box, outer: Box, what: str) -> Overflow:
    return Overflow(
        page,
        label,
        op.text_id,
        op.text,
        what,
        outer[0] - box[0],
        box[2] - outer[2],
        outer[1] - box[1],
        box[3] - outer[3],
    )


def _walk(
    ops: Sequence[Op],
    m: Matrix,
    clips: tuple[Box, ...],
    backdrops: list[Box],
    measure: Measure,
    page: int,
    label: str,
    out: list[Overflow],
) -> None:
    for op in ops:
        if isinstance(op, Rect):
            if op.fill is not None:
                painted = _apply_box(m, (op.x, op.y, op.x + op.w, op.y + op.h))
                for (
                    clip
                ) in clips:  # only what shows is a backdrop (a card's bleed under its neighbour is not)
                    painted = (
                        max(painted[0], clip[0]),
                        max(painted[1], clip[1]),
                        min(painted[2], clip[2]),
                        min(painted[3], clip[3]),
                    )
                if painted[0] < painted[2] and painted[1] < painted[3]:
                    backdrops.append(painted)
        elif isinstance(op, Place):
            inner = _mul(m, _place_matrix(op))
            inner_clips = clips
            if op.clip is not None and not op.window:
                cx, cy, cw, ch = op.trim or op.clip
                inner_clips = clips + (_apply_box(inner, (cx, cy, cx + cw, cy + ch)),)
            # what a place paints stays behind later ops of its parent too (a face's own fills)
            _walk(op.ops, inner, inner_clips, backdrops, measure, page, label, out)
        elif isinstance(op, Text):
            if not op.text.strip():
                continue
            box = _apply_box(m, text_box(op, measure))
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            for clip in clips:
                if not _inside(box, clip):
                    out.append(_overflow(page, label, op, box, clip, "the trim"))
                    break
            else:
                under = next((b for b in reversed(backdrops) if _holds(b, cx, cy)), None)
                if under is not None and not _inside(box, under):
                    out.append(_overflow(page, label, op, box, under, "its box"))


def text_overflows(pages: Sequence[Page], measure: Measure) -> list[Overflow]:
    """Every drawn string (faces and backs, nested places included) that runs past the filled rectangle it is
    printed on or past the trim its face is clipped to, in page order."""
    out: list[Overflow] = []
    for number, page in enumerate(pages, 1):
        _walk(page.ops, _IDENTITY, (), [], measure, number, page.label, out)
    return out


def text_fit_problems(
    pages: Sequence[Page],
    measure: Measure,
    where: str,
    locate: Callable[[str], str | None] | None = None,
    origin: str = "",
) -> list[str]:
    """One message per distinct string of `pages` that runs past its box or trim (with the number of other
    places the same string is drawn): 'SOURCE: TEXT_ID: WHERE: page N (label): text ... runs past ...', SOURCE
    being the catalog line `locate(text_id)` gives (e.g. 'layouts/k/locales/en.po:23') or else `origin`."""
    seen: dict[tuple[str, str, str], tuple[Overflow, int]] = {}
    for o in text_overflows(pages, measure):
        key = (o.text_id, o.text, o.what)
        first, n = seen.get(key, (o, 0))
        seen[key] = (first, n + 1)
    out = []
    for o, n in seen.values():
        source = locate(o.text_id) if locate is not None and o.text_id else None
        prefix = f"{source}: {o.text_id}: " if source else (f"{origin}: " if origin else "")
        out.append(f"{prefix}{where}: {o.message()}" + (f" (and {n - 1} more places)" if n > 1 else ""))
    return out


class RoleMeasure:
    """A Measure that knows a kit's fonts by role: called as a Measure it measures body text (or bold display
    text at the kit's heading size); `by_role` measures a string as an op of `role` is drawn (a heading in the
    heading fonts at any size). The checks measure drawn ops through it (`text_box`)."""

    def __call__(self, text: str, font: str, size: float) -> float:
        return self.by_role(text, font, size, "body")

    def by_role(self, text: str, font: str, size: float, role: str) -> float:
        """The advance width of `text` set in `font` at `size` as an op of `role`."""
        raise NotImplementedError


Extent = Callable[[str, str, float], tuple[float, float]]
"""(text, font key, size) -> how far its ink reaches below and above the baseline (points)."""


def text_box(op: Text, measure: Measure, extent: Extent | None = None, *, lean: bool = True) -> Box:
    """The extent of a Text op in its own coordinates (rotation about its anchor point included); vertically
    the ink extent when given, else DESCENT..ASCENT of the size; an italic run's widened by the slant (its top
    leans right, its descenders left) unless `lean` is False."""
    w = (
        measure.by_role(op.text, op.font, op.size, op.role)
        if isinstance(measure, RoleMeasure)
        else measure(op.text, op.font, op.size)
    )
    x0 = {"start": 0.0, "middle": -w / 2, "end": -w}[op.anchor]
    bottom, top = (
        extent(op.text, op.font, op.size) if extent is not None else (-DESCENT * op.size, ASCENT * op.size)
    )
    local: Box = (x0, bottom, x0 + w, top)
    if lean and is_italic(op.font):  # leaning glyphs reach right by the slant at the top, left at the bottom
        local = (x0 + min(0.0, bottom) * ITALIC_SLANT, bottom, x0 + w + max(0.0, top) * ITALIC_SLANT, top)
    if op.rotate:
        r = math.radians(op.rotate)
        cos, sin = round(math.cos(r), 12), round(math.sin(r), 12)
        return _apply_box((cos, sin, -sin, cos, op.x, op.y), local)
    return local[0] + op.x, local[1] + op.y, local[2] + op.x, local[3] + op.y


def _boxes(
    ops: Sequence[Op], m: Matrix, measure: Measure, extent: Extent | None, out: list[tuple[Text, Box]]
) -> None:
    for op in ops:
        if isinstance(op, Place):
            _boxes(op.ops, _mul(m, _place_matrix(op)), measure, extent, out)
        elif isinstance(op, Text) and op.text.strip():
            out.append((op, _apply_box(m, text_box(op, measure, extent))))


def texts_outside(page: Page, area: Box, measure: Measure, extent: Extent | None = None) -> list[str]:
    """Strings of a page that reach outside `area` (x0, y0, x1, y1 in page coordinates), e.g. a print shop's
    safe area: one line each with the text id, the text and how far it reaches out."""
    found: list[tuple[Text, Box]] = []
    _boxes(page.ops, _IDENTITY, measure, extent, found)
    out: list[str] = []
    for op, box in found:
        past = max(area[0] - box[0], area[1] - box[1], box[2] - area[2], box[3] - area[3])
        if past > TOLERANCE:
            out.append(f"text {op.text_id or '(no id)'} {op.text!r} reaches {pt_text(past)} outside")
    return out


def check_one_line_texts(
    components: Sequence[Component], where: str, catalog: Catalog | None, lang: str
) -> None:
    """Raise one LocatedLayoutError naming every drawn string (each Text op is one line) that holds a line
    break or a control character, at its catalog line when it has a text id: a composer that draws a string
    without fitting it must not hand either to the shaper or the rasteriser."""
    problems: dict[tuple[str, str], str] = {}
    for comp in components:
        for page in comp.pages:
            for op in iter_texts(page.ops):
                try:
                    check_printable(op.text, op.text_id or "(no id)", one_line=True)
                except UnprintableTextError as e:
                    line = catalog.lines.get(op.text_id) if catalog is not None and op.text_id else None
                    source = (
                        f"{catalog.path}:{line}: "
                        if catalog is not None and line is not None
                        else f"{where}: "
                    )
                    problems.setdefault((op.text_id, op.text), f"{source}{e} ({comp.id}, {lang})")
    if problems:
        raise LocatedLayoutError("\n".join(problems.values()))


def check_text_fit(
    components: Sequence[Component], measure: Measure, where: str, catalog: Catalog | None, lang: str
) -> None:
    """Raise one LocatedLayoutError naming every string of every component (faces and backs) that runs past
    its box or trim, each located at its catalog line when it has a text id."""

    def locate(tid: str) -> str | None:
        line = catalog.lines.get(tid) if catalog is not None else None
        return f"{catalog.path}:{line}" if catalog is not None and line is not None else None

    problems = [
        p
        for comp in components
        for p in text_fit_problems(comp.pages, measure, f"{comp.id} ({lang})", locate, origin=where)
    ]
    if problems:
        raise LocatedLayoutError("\n".join(problems))
