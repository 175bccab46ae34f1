"""The sheet map: how a kit's pages land on sheets of paper when the kit PDF is printed, as data.

Every section (checklist, calibration, each component) starts on the front of a new sheet. In a duplex kit a
front page is followed on the same sheet by the back page drawn for it (same component, same item slots); any
other page (a one-sided piece: a score sheet, a board, a rules page) gets a blank back, never the next page. A
kit printed single-sided (`duplex: none`) has one page per sheet. The kit PDF is assembled from this map, the
build record keeps it and the print checklist counts its sheets.

Gang-up (`print.gang_up`, on by default): a sheet of pieces whose pieces leave the lower part of the page
empty takes the pieces of a later sheet of another component with the same sidedness (both with backs, or both
without) below them, shifted down as a block with its crop marks: the guest's back page is shifted the same
way (mirrored when the sheet turns over its short side), so each back still lands behind its own front. First
fit, in kit order: the same spec gives the same map.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from generator.layout.ink import ink_area
from generator.layout.marks import RULER_SPAN, RULER_THICKNESS
from generator.layout.ops import Line, Page, Place
from generator.units import mm

Side = Literal["front", "back"]
Kind = Literal["front", "back", "single"]
Box = tuple[float, float, float, float]

GANG_GAP: Final = mm(4)
"""Space kept between the pieces and marks of two components sharing a sheet (where it is cut apart first)."""

_LABEL: Final = re.compile(r"^(?P<name>.*) (?P<side>front|back) (?P<n>\d+)$")
_FOLD: Final = re.compile(r"^.* fold \d+$")
"""A fold-and-glue page (generator.layout.fold): each card's front and back side by side, one slot a card."""


@dataclass(frozen=True)
class PageSides:
    """What one composed page of a part is: a front with a back to follow, that back, or a one-sided page."""

    kind: Kind
    """'front' (a back page follows), 'back' (the back of the page before) or 'single' (nothing on its
    back)"""
    sheet: int
    """the component's own sheet number the page belongs to (1-based; pages that pair share it)"""
    slots: tuple[int, ...]
    """the items (cards, tiles, faces) the page holds, numbered across the component from 0"""
    size: tuple[float, float] = (0.0, 0.0)
    """the page's width and height (a page of pieces; (0, 0) for other pages)"""
    art: Box | None = None
    """(x0, y0, x1, y1) around the pieces of a page of pieces, bleed and crop marks included; None
    elsewhere"""
    ruler: Box | None = None
    """(x0, y0, x1, y1) of the check ruler of a page of pieces, None without one"""
    ink: float = 0.0
    """inked area of the page in square points (generator.layout.ink, from the ops)"""


@dataclass(frozen=True)
class Guest:
    """A page of another component drawn on a sheet side, shifted vertically, clipped to its pieces."""

    component: str
    """the part the page belongs to"""
    page: int
    """the page of that part's own PDF (0-based)"""
    slots: tuple[int, ...]
    """the item slots printed there"""
    dy: float
    """vertical shift of the page on the sheet (points; the back's is mirrored on a short-edge flip)"""
    clip: Box
    """what of the page is drawn, in the page's own coordinates: its pieces and marks, not its ruler"""

    def to_json(self) -> dict[str, object]:
        """The guest as plain JSON for the build record."""
        return {
            "component": self.component,
            "page": self.page,
            "slots": list(self.slots),
            "dy": round(self.dy, 3),
            "clip": [round(v, 3) for v in self.clip],
        }


@dataclass(frozen=True)
class SheetSide:
    """One side of one printed sheet of the kit PDF."""

    sheet: int
    """sheet of paper, from 1"""
    side: Side
    """'front' or 'back' (in a single-sided kit every sheet has only a front)"""
    component: str
    """the part printed there ('' for a blank back)"""
    page: int | None
    """the page of that part's own PDF (0-based), None for a blank back"""
    slots: tuple[int, ...]
    """the item slots printed there (see PageSides.slots)"""
    guests: tuple[Guest, ...] = ()
    """pages of other components ganged onto this side (gang-up), below the component's own pieces"""

    def components(self) -> tuple[str, ...]:
        """Every part printed on this side: its own, then its guests'."""
        return tuple(c for c in (self.component, *(g.component for g in self.guests)) if c)

    def to_json(self) -> dict[str, object]:
        """The row as plain JSON for the build record."""
        row: dict[str, object] = {
            "sheet": self.sheet,
            "side": self.side,
            "component": self.component,
            "page": self.page,
            "slots": list(self.slots),
        }
        if self.guests:
            row["guests"] = [g.to_json() for g in self.guests]
        return row


def _place_box(op: Place) -> Box | None:
    """Where a placed face's clip lies on the page (None without a clip)."""
    if op.clip is None:
        return None
    cx, cy, cw, ch = op.clip
    if op.rotate == 90:  # (u, v) -> (x - v, y + u)
        return op.x - cy - ch, op.y + cx, op.x - cy, op.y + cx + cw
    if op.rotate == -90:  # (u, v) -> (x + v, y - u)
        return op.x + cy, op.y - cx - cw, op.x + cy + ch, op.y - cx
    if op.rotate:
        return None
    return op.x + cx, op.y + cy, op.x + cx + cw, op.y + cy + ch


def _union(boxes: Sequence[Box]) -> Box | None:
    if not boxes:
        return None
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def page_frame(page: Page) -> tuple[Box | None, Box | None]:
    """The box around a page's pieces (named faces) and marks (its top-level lines), and its check ruler's box
    (the unnamed, unclipped place), from the ops; (None, None) for a page without pieces."""
    art: list[Box] = []
    ruler: Box | None = None
    for op in page.ops:
        if isinstance(op, Place) and op.name:
            box = _place_box(op)
            if box is None:
                return None, None  # a face turned some other way: not a page to gang
            art.append(box)
        elif isinstance(op, Line):
            art.append((min(op.x1, op.x2), min(op.y1, op.y2), max(op.x1, op.x2), max(op.y1, op.y2)))
        elif isinstance(op, Place) and op.clip is None:
            if op.rotate == 90:  # a vertical ruler (generator.layout.marks.ruler)
                ruler = (op.x - RULER_THICKNESS, op.y, op.x, op.y + RULER_SPAN)
            else:
                ruler = (op.x, op.y, op.x + RULER_SPAN, op.y + RULER_THICKNESS)
    if not any(isinstance(op, Place) and op.name for op in page.ops):
        return None, None  # no pieces (the calibration sheet): nothing to gang
    return _union(art), ruler


def _rounded(box: Box | None) -> Box | None:
    return None if box is None else (round(box[0], 4), round(box[1], 4), round(box[2], 4), round(box[3], 4))


def page_sides(pages: Sequence[Page]) -> list[PageSides]:
    """Classify a part's composed pages by their imposition labels ('<name> front N' / '<name> back N' are
    the two sides of sheet N; any other page is one-sided). Item slots count the named faces placed on each
    page, a back's slots being those of the front it backs (its own face count must match); a fold page's
    slots count its cards (two faces each)."""
    out: list[PageSides] = []
    next_slot = 0
    single = 0
    fronts: dict[int, tuple[int, ...]] = {}
    for page in pages:
        placed = sum(1 for op in page.ops if isinstance(op, Place) and op.name)  # faces, not rulers or marks
        m = _LABEL.match(page.label)
        art, ruler = (_rounded(b) for b in page_frame(page)) if m else (None, None)
        ink = round(ink_area(page), 1)
        # rounded as the build record keeps them: a kept part gangs as a freshly composed one
        size = (round(page.width, 4), round(page.height, 4)) if art is not None else (0.0, 0.0)
        if m and m["side"] == "back":
            n = int(m["n"])
            front_slots = fronts.get(n, ())
            # a back holding as many faces as its front backs those items; anything else backs none of them
            slots = front_slots if len(front_slots) == placed else tuple(range(-placed, 0))
            out.append(PageSides("back", n, slots, size, art, ruler, ink))
            continue
        if _FOLD.match(page.label):
            placed //= 2  # a card prints two faces there, its front and its back beside it
        slots = tuple(range(next_slot, next_slot + placed))
        next_slot += placed
        if m:
            n = int(m["n"])
            fronts[n] = slots
            out.append(PageSides("front", n, slots, size, art, ruler, ink))
        else:
            single += 1
            out.append(PageSides("single", single, slots, ink=ink))
    return out


def sides_to_json(sides: Sequence[PageSides]) -> list[list[object]]:
    """Page sides as plain JSON (kept in the build record so an unchanged part need not be composed)."""

    def box(b: Box | None) -> list[float] | None:
        return None if b is None else [round(v, 4) for v in b]

    return [
        [s.kind, s.sheet, list(s.slots), [round(v, 4) for v in s.size], box(s.art), box(s.ruler), s.ink]
        for s in sides
    ]


def _box_from_json(data: object) -> Box | None | bool:
    """A box read back (None for null; False when malformed)."""
    if data is None:
        return None
    if isinstance(data, list) and len(data) == 4 and all(isinstance(v, (int, float)) for v in data):
        return float(data[0]), float(data[1]), float(data[2]), float(data[3])
    return False


def sides_from_json(data: object) -> list[PageSides] | None:
    """Page sides read back from the build record (None when missing or malformed)."""
    if not isinstance(data, list):
        return None
    out: list[PageSides] = []
    for row in data:
        if (
            not isinstance(row, list)
            or len(row) != 7
            or row[0] not in ("front", "back", "single")
            or not isinstance(row[1], int)
            or not isinstance(row[2], list)
            or not all(isinstance(s, int) for s in row[2])
            or not isinstance(row[3], list)
            or len(row[3]) != 2
            or not all(isinstance(v, (int, float)) for v in row[3])
            or not isinstance(row[6], (int, float))
            or isinstance(row[6], bool)
            or not 0 <= row[6] < 1e9
        ):
            return None
        art, ruler = _box_from_json(row[4]), _box_from_json(row[5])
        if art is False or ruler is False:
            return None
        out.append(
            PageSides(
                row[0],
                row[1],
                tuple(row[2]),
                (float(row[3][0]), float(row[3][1])),
                art if isinstance(art, tuple) else None,
                ruler if isinstance(ruler, tuple) else None,
                float(row[6]),
            )
        )
    return out


@dataclass
class _Unit:
    """One sheet before numbering: a component's front page and the back page that follows it (if any)."""

    component: str
    front: int
    back: int | None
    sides: Sequence[PageSides]
    guests: list[tuple[_Unit, float]]
    """later units ganged onto this one, each with its vertical shift"""
    taken: bool = False
    """ganged onto an earlier unit (it prints on that one's sheet)"""

    @property
    def head(self) -> PageSides:
        return self.sides[self.front]


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _gang(units: Sequence[_Unit], margin: float) -> None:
    """First fit, in kit order: each sheet of pieces goes below the pieces of the first earlier sheet of
    another component, same page size and sidedness, with room for it (inside the margin, clear of that
    sheet's check ruler)."""

    def can_gang(u: _Unit) -> bool:
        return u.head.kind == "front" and u.head.art is not None and u.head.size != (0.0, 0.0)

    for k, unit in enumerate(units):
        if not can_gang(unit):
            continue
        art = unit.head.art
        assert art is not None
        for host in units[:k]:
            if (
                host.taken
                or not can_gang(host)
                or host.component == unit.component
                or host.head.size != unit.head.size
                or (host.back is None) != (unit.back is None)
            ):
                continue
            host_art = host.head.art
            assert host_art is not None
            floor = min([host_art[1]] + [g.head.art[1] + dy for g, dy in host.guests if g.head.art])
            dy = floor - GANG_GAP - art[3]
            placed = (art[0], art[1] + dy, art[2], art[3] + dy)
            ruler = host.head.ruler
            if placed[1] < margin - 1e-6 or (ruler is not None and _overlaps(placed, ruler)):
                continue
            host.guests.append((unit, dy))
            unit.taken = True
            break


def sheet_map(
    parts: Sequence[tuple[str, Sequence[PageSides]]],
    *,
    duplex: bool,
    gang_margin: float | None = None,
    short_edge: bool = False,
) -> list[SheetSide]:
    """The sides of every sheet, in print order, for the parts in kit-PDF order. Duplex: a 'front' page
    followed by the 'back' of the same sheet share a sheet; every other page is a front with a blank back.
    Not duplex: one page per sheet (backs there would be a composer error, they are printed as fronts).
    `gang_margin` (the printer's margin): gang sheets of pieces up (see the module's doc); `short_edge`: the
    sheet turns over its short edge (a portrait page's back is then mirrored top to bottom)."""
    units: list[_Unit] = []
    for component, sides in parts:
        i = 0
        while i < len(sides):
            here = sides[i]
            after = sides[i + 1] if duplex and i + 1 < len(sides) else None
            if (
                here.kind == "front"
                and after is not None
                and after.kind == "back"
                and after.sheet == here.sheet
            ):
                units.append(_Unit(component, i, i + 1, sides, []))
                i += 2
            else:
                units.append(_Unit(component, i, None, sides, []))
                i += 1
    if gang_margin is not None:
        _gang(units, gang_margin)
    out: list[SheetSide] = []
    sheet = 0
    for unit in units:
        if unit.taken:
            continue
        sheet += 1
        width, height = unit.head.size
        # turning the sheet over mirrors x (long edge of a portrait page), else y: a guest's back shifts as
        # its front does, or the other way
        mirror_y = short_edge == (height >= width)
        fronts = tuple(
            Guest(g.component, g.front, g.head.slots, dy, g.head.art or (0.0, 0.0, 0.0, 0.0))
            for g, dy in unit.guests
        )
        out.append(SheetSide(sheet, "front", unit.component, unit.front, unit.head.slots, fronts))
        if not duplex:
            continue
        if unit.back is None:
            out.append(SheetSide(sheet, "back", "", None, ()))
            continue
        backs: list[Guest] = []
        for g, dy in unit.guests:
            assert g.back is not None  # guests share their host's sidedness
            page = g.sides[g.back]
            backs.append(
                Guest(
                    g.component, g.back, page.slots, -dy if mirror_y else dy, page.art or (0.0, 0.0, 0.0, 0.0)
                )
            )
        out.append(
            SheetSide(sheet, "back", unit.component, unit.back, unit.sides[unit.back].slots, tuple(backs))
        )
    return out


def ganged_page(host: Page, guests: Sequence[tuple[Page, Guest]]) -> Page:
    """The host page with each guest page drawn shifted by its `dy`, clipped to its pieces and marks (the
    kit PDF's page for a sheet side with guests)."""
    ops = list(host.ops)
    for page, guest in guests:
        x0, y0, x1, y1 = guest.clip
        ops.append(Place(0.0, guest.dy, tuple(page.ops), clip=(x0, y0, x1 - x0, y1 - y0)))
    return Page(host.width, host.height, ops, bookmark=host.bookmark, label=host.label)


def ink_share(
    parts: Sequence[tuple[str, Sequence[PageSides]]], sides: Sequence[SheetSide], printable: float
) -> float:
    """Share (0..1) of the printable area (`printable` square points a page) the printed sides of the sheet
    map `sides` ink, guests included; blank backs are not printed sides."""
    by_id = {cid: s for cid, s in parts}
    printed = [s for s in sides if s.page is not None]
    inked = sum(
        by_id[s.component][s.page].ink + sum(by_id[g.component][g.page].ink for g in s.guests)
        for s in printed
        if s.page is not None
    )
    return inked / (printable * len(printed)) if printed and printable > 0 else 0.0


def sheet_count(sides: Sequence[SheetSide]) -> int:
    """Sheets of paper the map prints on."""
    return max((s.sheet for s in sides), default=0)


__all__ = [
    "GANG_GAP",
    "Guest",
    "PageSides",
    "SheetSide",
    "ganged_page",
    "ink_share",
    "page_frame",
    "page_sides",
    "sheet_count",
    "sheet_map",
    "sides_from_json",
    "sides_to_json",
]
