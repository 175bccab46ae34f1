"""The collision check: on every face, no string overlaps another string, or a shape it is not printed on.

Each face's ops get their drawn geometry: a string's box from the font metrics as drawn (advance width, the
ink extent of its glyphs), a shape's outline from its geometry (half the stroke on either side). A string may
sit on a filled shape drawn before it that holds its centre (its background: a cell, a badge, a card's field);
it must stay inside the stroke of a background that has one (a number in a ring). Every other meeting is a
collision: another string's glyphs, a shape drawn over the string, a shape or line the string runs into, an
outline it crosses. A string whose glyphs leave its face's safe area (the trim inset by `style.safe_margin`,
less on a small face: see `safe_inset`) fails too, and so does a string that comes too near the line of
the framed cell it is written in (`crowded_cells`). The text-fit check (textfit.py) judges how far a string
runs past its rectangle and trim.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from generator.errors import LocatedLayoutError
from generator.layout.art import BACKGROUND_SLOTS
from generator.layout.compose import Component
from generator.layout.geometry import Drawn, drawn, point_in_polygon
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
    is_inline_icon,
    is_italic,
)
from generator.layout.text import Measure
from generator.layout.textfit import Box, Extent, Matrix, _apply_box, text_box
from generator.spec.catalogs import Catalog
from generator.units import mm_text

TOLERANCE = 0.3
"""Points two things may touch (anti-aliasing, rounding of glyph outlines)."""

Point = tuple[float, float]


@dataclass(frozen=True)
class Collision:
    """One string that meets another element of its face."""

    component: str
    face: str
    page: int
    text_id: str
    text: str
    other: str
    """What it meets: "text 'goal.title' 'Goal'", 'a circle (#ffd23f) drawn over it', ..."""
    art: str = ""
    """The art slot that meets `other` ('' for a string's collision)."""
    file: str = ""
    """The art's file, as the kit names it."""

    def message(self, lang: str) -> str:
        """One line for the error."""
        if self.art:
            return (
                f"{self.component} ({lang}): face {self.face or '?'} (page {self.page}): the art of slot "
                f"{self.art} ({self.file}) meets {self.other}; move it clear, or fill a background slot"
            )
        return (
            f"{self.component} ({lang}): face {self.face or '?'} (page {self.page}): "
            f"text {self.text_id or '(no id)'} {self.text[:50]!r} collides with {self.other}"
        )


def _apply(m: Matrix, p: Point) -> Point:
    a, b, c, d, e, f = m
    return a * p[0] + c * p[1] + e, b * p[0] + d * p[1] + f


def _scale(m: Matrix) -> float:
    return math.hypot(m[0], m[1])


def _shrink(box: Box, by: float) -> Box:
    return box[0] + by, box[1] + by, box[2] - by, box[3] - by


def _boxes_meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _box_in(inner: Box, outer: Box) -> bool:
    return inner[0] >= outer[0] and inner[1] >= outer[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def _seg_meets_box(p: Point, q: Point, box: Box) -> bool:
    """Liang-Barsky: whether the segment p-q passes through the box."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for pk, qk in ((-dx, p[0] - box[0]), (dx, box[2] - p[0]), (-dy, p[1] - box[1]), (dy, box[3] - p[1])):
        if pk == 0:
            if qk < 0:
                return False
            continue
        t = qk / pk
        if pk < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def _poly_meets_box(points: Sequence[Point], box: Box, closed: bool = True) -> bool:
    corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
    if closed and any(point_in_polygon(x, y, points) for x, y in corners):
        return True
    if any(box[0] <= x <= box[2] and box[1] <= y <= box[3] for x, y in points):
        return True
    n = len(points)
    edges = range(n if closed else n - 1)
    return any(_seg_meets_box(points[i], points[(i + 1) % n], box) for i in edges)


def _hull(points: Sequence[Point]) -> list[Point]:
    """The convex hull (a Bezier curve lies inside the hull of its control points)."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return list(pts)

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


@dataclass(frozen=True)
class _Shape:
    kind: str
    filled: bool
    stroke: float
    """stroke width (0 without a stroke)"""
    colour: str
    order: int
    box: Box
    circle: tuple[float, float, float] | None = None
    points: tuple[Point, ...] = ()
    closed: bool = True
    background: bool = False
    """Art of a slot declared a face's background (`BACKGROUND_SLOTS`): text and shapes may sit on it."""

    def meets(self, b: Box) -> bool:
        """Whether the box touches the shape (its stroke included)."""
        half = self.stroke / 2
        if not _boxes_meet(b, self.box):
            return False
        if self.kind in ("rect", "icon", "art"):
            return True
        if self.circle is not None:
            cx, cy, r = self.circle
            nx, ny = min(max(cx, b[0]), b[2]), min(max(cy, b[1]), b[3])
            return math.hypot(nx - cx, ny - cy) < r + half
        grown = (b[0] - half, b[1] - half, b[2] + half, b[3] + half)
        return _poly_meets_box(self.points, grown, self.closed)

    def holds_point(self, x: float, y: float) -> bool:
        if self.kind in ("rect", "icon", "art"):
            return self.box[0] <= x <= self.box[2] and self.box[1] <= y <= self.box[3]
        if self.circle is not None:
            return math.hypot(x - self.circle[0], y - self.circle[1]) <= self.circle[2]
        return point_in_polygon(x, y, self.points)

    def holds_box(self, b: Box) -> bool:
        """Whether the box lies inside the shape's stroke (inside its fill when it has none)."""
        half = self.stroke / 2
        if self.kind in ("rect", "icon", "art"):
            return _box_in(b, _shrink(self.box, self.stroke))
        corners = [(b[0], b[1]), (b[2], b[1]), (b[2], b[3]), (b[0], b[3])]
        if self.circle is not None:
            cx, cy, r = self.circle
            return all(math.hypot(x - cx, y - cy) <= r - half for x, y in corners)
        if not all(point_in_polygon(x, y, self.points) for x, y in corners):
            return False
        return not _poly_meets_box(self.points, _shrink(b, -half), True) or half == 0

    def describe(self, over: bool) -> str:
        if self.kind == "art":
            return f"the art of slot {self.colour}{' drawn over it' if over else ''}"
        what = {
            "rect": "a rectangle",
            "circle": "a circle",
            "poly": "a shape",
            "path": "a symbol",
            "line": "a line",
            "icon": "an inline icon",
        }[self.kind]
        return f"{what} ({self.colour}){' drawn over it' if over else ''}"


def _shape(d: Drawn) -> _Shape | None:
    op, m = d.op, d.matrix
    if isinstance(op, Text):
        return None
    fill = getattr(op, "fill", None)
    stroke_colour = getattr(op, "stroke", None)
    width = (getattr(op, "width", 0.0) if stroke_colour else 0.0) * _scale(m)
    colour = str(fill or stroke_colour or "")
    if isinstance(op, Rect):
        return _Shape("rect", fill is not None, width, colour, d.order, d.box)
    if isinstance(op, Circle):
        cx, cy = _apply(m, (op.cx, op.cy))
        return _Shape(
            "circle", fill is not None, width, colour, d.order, d.box, circle=(cx, cy, op.r * _scale(m))
        )
    if isinstance(op, Line):
        ends: tuple[Point, ...] = (_apply(m, (op.x1, op.y1)), _apply(m, (op.x2, op.y2)))
        return _Shape(
            "line", False, op.width * _scale(m), op.stroke, d.order, d.box, points=ends, closed=False
        )
    if isinstance(op, Polygon):
        corners: tuple[Point, ...] = tuple(_apply(m, p) for p in op.points)
        return _Shape(
            "poly",
            fill is not None and op.closed,
            width,
            colour,
            d.order,
            d.box,
            points=corners,
            closed=op.closed,
        )
    if isinstance(op, Path):
        raw = [(float(c[i]), float(c[i + 1])) for c in op.commands for i in range(1, len(c) - 1, 2)]  # type: ignore[arg-type]
        pts = tuple(_hull([_apply(m, p) for p in raw]))
        return (
            _Shape("path", fill is not None, width, colour, d.order, d.box, points=pts)
            if len(pts) >= 3
            else None
        )
    if is_inline_icon(op):  # its box, never a string's background
        return _Shape("icon", False, 0.0, getattr(op, "slot", "")[len("icon:") :], d.order, d.box)
    if isinstance(op, (Image, Vector)):
        label = f"{op.slot} ({op.asset.shown})"
        return _Shape("art", True, 0.0, label, d.order, d.box, background=op.slot in BACKGROUND_SLOTS)
    return None


def _same_line(a: Drawn, b: Drawn) -> bool:
    """Whether two texts stand on one baseline (same placement, y and rotation): runs of one line."""
    assert isinstance(a.op, Text) and isinstance(b.op, Text)
    return a.matrix == b.matrix and a.op.y == b.op.y and a.op.rotate == b.op.rotate


def face_collisions(
    ops: Sequence[Op], measure: Measure, extent: Extent | None = None
) -> list[tuple[Text, str]]:
    """Every (string, what it meets) on one face (ops in the face's own coordinates)."""
    items = drawn(ops, measure, art=True)
    texts: list[tuple[Drawn, Box, Box]] = []
    shapes: list[_Shape] = []
    for d in items:
        if isinstance(d.op, Text):
            if d.op.text.strip():
                box = _apply_box(d.matrix, text_box(d.op, measure, extent))
                # only an italic run leans: an upright one's plain box is the same one
                plain = (
                    _apply_box(d.matrix, text_box(d.op, measure, extent, lean=False))
                    if is_italic(d.op.font)
                    else box
                )
                texts.append((d, box, plain))
        elif not d.backdrop:
            s = _shape(d)
            if s is not None:
                shapes.append(s)
    out: list[tuple[Text, str]] = []
    for i, (d, box, plain) in enumerate(texts):
        assert isinstance(d.op, Text)
        core = _shrink(box, TOLERANCE)
        if core[0] >= core[2] or core[1] >= core[3]:
            continue
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        # the last filled shape before the string that holds all of it hides whatever was drawn before
        # it there (shapes are in drawing order: the first such one from the end)
        under = next(
            (
                s.order
                for s in reversed(shapes)
                if s.filled and s.order < d.order and s.kind != "line" and s.holds_box(core)
            ),
            -1,
        )
        for d2, box2, plain2 in texts[i + 1 :]:
            assert isinstance(d2.op, Text)
            if _same_line(
                d, d2
            ):  # runs set side by side on one baseline: an italic's lean reaches into the next
                box2, core2 = plain2, _shrink(plain, TOLERANCE)
            else:
                core2 = core
            if _boxes_meet(core2, _shrink(box2, TOLERANCE)):
                out.append((d.op, f"text {d2.op.text_id or '(no id)'} {d2.op.text[:30]!r}"))
        for s in shapes:
            if s.order < under or not s.meets(core):
                continue
            over = s.order > d.order
            if (
                not over
                and s.filled
                and (s.kind != "art" or s.background)
                and s.holds_point(cx, cy)
                and (s.stroke == 0 or s.kind == "rect" or s.holds_box(core))
            ):
                continue  # its background
            if not s.filled and s.kind != "line" and s.holds_box(core):
                continue  # inside an outline
            out.append((d.op, s.describe(over)))
    return out


def art_collisions(ops: Sequence[Op], measure: Measure) -> list[tuple[Image | Vector, str]]:
    """Every (art, what it meets) on one face: a shape drawn over art that is not a declared background and
    reaching past the art's box (a table over a logo; a mark set inside the art is its own), or such art
    drawn over a shape that is not its own background (the filled shape drawn before it that holds it: a band,
    a cell) nor an outline around it. Strings meeting art are `face_collisions`'."""
    items = [(d, _shape(d)) for d in drawn(ops, measure, art=True) if not d.backdrop]
    shapes = [s for _, s in items if s is not None]
    arts = [
        (d, s)
        for d, s in items
        if s is not None and s.kind == "art" and not s.background and isinstance(d.op, (Image, Vector))
    ]
    out: list[tuple[Image | Vector, str]] = []
    for d, art in arts:
        assert isinstance(d.op, (Image, Vector))
        core = _shrink(art.box, TOLERANCE)
        if core[0] >= core[2] or core[1] >= core[3]:
            continue
        under = max(
            (
                s.order
                for s in shapes
                if s.filled and s.order < art.order and s.kind != "line" and s.holds_box(core)
            ),
            default=-1,
        )
        for s in shapes:
            if s.order == art.order or s.order < under or s.kind == "icon" or not s.meets(core):
                continue
            if s.order < art.order and s.kind != "line" and s.holds_box(core):
                continue  # on its background, or inside an outline
            if s.order > art.order:
                if _box_in(s.box, _shrink(art.box, -TOLERANCE)):
                    continue  # a mark set on the art (a cross on a symbol): the contrast check judges it
                out.append((d.op, f"{s.describe(False)} drawn over it"))
            else:
                out.append((d.op, f"{s.describe(False)} it is drawn over"))
    return out


SMALL_FACE_SHARE = 12
"""A face whose shorter side is under this many safe margins keeps 1/SMALL_FACE_SHARE of that side instead (a
20 mm token cannot spare 3 mm on each side; style.safe_margin's description says so)."""


def safe_inset(w: float, h: float, margin: float) -> float:
    """How far inside a w x h face its safe area begins."""
    return min(margin, min(w, h) / SMALL_FACE_SHARE)


def outside_safe_area(
    ops: Sequence[Op],
    clip: tuple[float, float, float, float],
    margin: float,
    measure: Measure,
    extent: Extent | None = None,
) -> list[tuple[Text, str]]:
    """Every (string, how far it leaves the safe area) of one face whose trim is `clip` (x, y, w, h)."""
    x, y, w, h = clip
    inset = safe_inset(w, h, margin)
    area = (x + inset, y + inset, x + w - inset, y + h - inset)
    out: list[tuple[Text, str]] = []
    for d in drawn(ops, measure):
        if not isinstance(d.op, Text) or not d.op.text.strip():
            continue
        box = _apply_box(d.matrix, text_box(d.op, measure, extent))
        past = max(area[0] - box[0], area[1] - box[1], box[2] - area[2], box[3] - area[3])
        if past > TOLERANCE:
            out.append(
                (
                    d.op,
                    f"the face's safe area ({mm_text(inset)} inside the trim): "
                    f"it reaches {mm_text(past)} past it",
                )
            )
    return out


BADGE_PAD_SHARE = 0.2
"""A string on a badge (a filled circle holding it) keeps this share of the badge's radius from its ring."""
MIN_PAD = 0.5 * 72 / 25.4
"""The least room a string keeps inside the ring of the badge it is printed on (0.5 mm)."""


def crowded_badges(
    ops: Sequence[Op],
    trim: tuple[float, float, float, float],
    margin: float,
    measure: Measure,
    extent: Extent | None = None,
) -> list[tuple[Text, str]]:
    """Every (string, why) of one piece whose badge crowds it: a badge (a filled circle holding the string,
    the last one drawn before it) that leaves the piece's safe area, or that the string comes nearer to than
    BADGE_PAD_SHARE of its radius (at least MIN_PAD) -- digits filling a disc edge to edge."""
    x, y, w, h = trim
    inset = safe_inset(w, h, margin)
    area = (x + inset, y + inset, x + w - inset, y + h - inset)
    items = drawn(ops, measure)
    shapes = [s for s in (_shape(d) for d in items if not d.backdrop and not isinstance(d.op, Text)) if s]
    out: list[tuple[Text, str]] = []
    for d in items:
        if not isinstance(d.op, Text) or not d.op.text.strip():
            continue
        box = _apply_box(d.matrix, text_box(d.op, measure, extent, lean=False))
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        under = [s for s in shapes if s.filled and s.order < d.order and s.holds_point(cx, cy)]
        s = max(under, key=lambda s: s.order) if under else None
        if s is None or s.circle is None:
            continue
        past = max(area[0] - s.box[0], area[1] - s.box[1], s.box[2] - area[2], s.box[3] - area[3])
        if past > TOLERANCE:
            out.append(
                (
                    d.op,
                    f"the face's safe area ({mm_text(inset)} inside the trim): "
                    f"its badge reaches {mm_text(past)} past it",
                )
            )
        bx, by, r = s.circle
        corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
        room = r - s.stroke / 2 - max(math.hypot(px - bx, py - by) for px, py in corners)
        need = max(MIN_PAD, BADGE_PAD_SHARE * r)
        if room < need - TOLERANCE:
            out.append((d.op, f"its badge's ring: {mm_text(max(room, 0.0))} away, keep {mm_text(need)}"))
    return out


CELL_PAD = 0.5 * 72 / 25.4
"""The least room a string keeps from the line of the framed cell it is written in (0.5 mm)."""
CELL_CLEAR = 0.3 * 72 / 25.4
"""...and the least clear paper between its ink and the inside of that line (0.3 mm; a heavy frame)."""
FACE_SHARE = 0.9
"""A stroked rectangle this close to the face's size on both sides is the face's own frame, not a cell."""


def crowded_cells(
    ops: Sequence[Op],
    face: tuple[float, float, float, float],
    measure: Measure,
    extent: Extent | None = None,
) -> list[tuple[Text, str]]:
    """Every (string, why) of one face (x, y, w, h) written in a framed cell that it comes too near: the
    smallest stroked rectangle holding the string's centre (a score-sheet cell, a table cell, a framed box;
    not the face's own frame) must leave max(CELL_PAD, half its stroke + CELL_CLEAR) between its line's
    centre and the string's ink on every side (from the arc in a rounded corner), so the string reads as
    inside the cell, not on its line."""
    _, _, fw, fh = face
    items = drawn(ops, measure)
    cells = [
        (d.box, d.op.width * _scale(d.matrix), d.op.radius * _scale(d.matrix))
        for d in items
        if isinstance(d.op, Rect) and d.op.stroke and d.op.width > 0 and not d.backdrop
    ]
    cells = [c for c in cells if c[0][2] - c[0][0] < FACE_SHARE * fw or c[0][3] - c[0][1] < FACE_SHARE * fh]
    out: list[tuple[Text, str]] = []
    if not cells:
        return out
    for d in items:
        if not isinstance(d.op, Text) or not d.op.text.strip():
            continue
        box = _apply_box(d.matrix, text_box(d.op, measure, extent, lean=False))
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        holding = [c for c in cells if c[0][0] <= cx <= c[0][2] and c[0][1] <= cy <= c[0][3]]
        if not holding:
            continue
        (x0, y0, x1, y1), stroke, radius = min(
            holding, key=lambda c: (c[0][2] - c[0][0]) * (c[0][3] - c[0][1])
        )
        half = stroke / 2  # the box holds half the stroke: the line's centre is half a stroke inside
        lx0, ly0, lx1, ly1 = x0 + half, y0 + half, x1 - half, y1 - half
        room = min(box[0] - lx0, box[1] - ly0, lx1 - box[2], ly1 - box[3])
        r = min(radius, (lx1 - lx0) / 2, (ly1 - ly0) / 2)
        if r > 0:  # a rounded corner: the ink's corner in it keeps its room from the arc
            for px, ox, sx in ((box[0], lx0 + r, -1), (box[2], lx1 - r, 1)):
                for py, oy, sy in ((box[1], ly0 + r, -1), (box[3], ly1 - r, 1)):
                    if (px - ox) * sx > 0 and (py - oy) * sy > 0:
                        room = min(room, r - math.hypot(px - ox, py - oy))
        need = max(CELL_PAD, half + CELL_CLEAR)
        if room < need - TOLERANCE:
            out.append(
                (
                    d.op,
                    f"the line of its cell ({mm_text(x1 - x0 - stroke)} x {mm_text(y1 - y0 - stroke)}): "
                    f"{mm_text(max(room, 0.0))} away, keep {mm_text(need)}",
                )
            )
    return out


def _faces(ops: Sequence[Op], out: list[tuple[str, Place]]) -> None:
    for op in ops:
        if isinstance(op, Place):
            if op.clip is not None and not op.window:
                out.append((op.name, op))
            else:
                _faces(op.ops, out)


def collisions(
    components: Sequence[Component],
    measure: Measure,
    extent: Extent | None = None,
    safe_margin: float | None = None,
) -> list[Collision]:
    """Every distinct collision on the faces of `components` (a face drawn many times is judged once), and
    with `safe_margin` every string that leaves its face's safe area."""
    seen: dict[tuple[str, str, str, str, str], Collision] = {}
    judged: set[int] = set()
    for comp in components:
        for number, page in enumerate(comp.pages, 1):
            faces: list[tuple[str, Place]] = []
            _faces(page.ops, faces)
            for name, place in faces:
                if id(place.ops) in judged:
                    continue
                judged.add(id(place.ops))
                found = face_collisions(place.ops, measure, extent)
                if safe_margin is not None and place.clip is not None:
                    trim = place.trim or place.clip  # a clip with bleed is not the trim
                    found += outside_safe_area(place.ops, trim, safe_margin, measure, extent)
                    if place.trim is not None:  # a piece: its badges keep clear of the cut and its text
                        found += crowded_badges(place.ops, trim, safe_margin, measure, extent)
                    found += crowded_cells(place.ops, trim, measure, extent)
                for text, other in found:
                    key = (comp.id, name, text.text_id, text.text, other)
                    seen.setdefault(key, Collision(comp.id, name, number, text.text_id, text.text, other))
                for art, other in art_collisions(place.ops, measure):
                    key = (comp.id, name, art.slot, art.asset.shown, other)
                    seen.setdefault(
                        key, Collision(comp.id, name, number, "", "", other, art.slot, art.asset.shown)
                    )
    return list(seen.values())


def check_collisions(
    components: Sequence[Component],
    measure: Measure,
    where: str,
    catalog: Catalog | None,
    lang: str,
    extent: Extent | None = None,
    safe_margin: float | None = None,
    locate: Callable[[str, str], str] | None = None,
) -> None:
    """Raise one LocatedLayoutError naming every collision (component, face, language, string id, the other
    element or the safe area it leaves), each located at its string's catalog line when it has one; a
    collision of art at its `components.<id>.art.<slot>` key through `locate` (key, message -> the line)."""
    problems = []
    for c in collisions(components, measure, extent, safe_margin):
        if c.art:
            key = f"components.{c.component}.art.{c.art}"
            problems.append(locate(key, c.message(lang)) if locate else f"{where}: {key}: {c.message(lang)}")
            continue
        line = catalog.lines.get(c.text_id) if catalog is not None and c.text_id else None
        source = f"{catalog.path}:{line}: {c.text_id}" if catalog is not None and line is not None else where
        problems.append(f"{source}: {c.message(lang)}")
    if problems:
        raise LocatedLayoutError("\n".join(problems))
