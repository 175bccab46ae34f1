"""The sheet map: how a kit's pages land on sheets of paper when the kit PDF is printed, as data.

Every section (checklist, calibration, each component) starts on the front of a new sheet. In a duplex kit a
front page is followed on the same sheet by the back page drawn for it (same component, same item slots); any
other page (a one-sided piece: a score sheet, a board, a rules page) gets a blank back, never the next page. A
kit printed single-sided (`duplex: none`) has one page per sheet. The kit PDF is assembled from this map, the
build record keeps it and the print checklist counts its sheets.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from generator.layout.ops import Page, Place

Side = Literal["front", "back"]
Kind = Literal["front", "back", "single"]

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

    def to_json(self) -> dict[str, object]:
        """The row as plain JSON for the build record."""
        return {
            "sheet": self.sheet,
            "side": self.side,
            "component": self.component,
            "page": self.page,
            "slots": list(self.slots),
        }


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
        if m and m["side"] == "back":
            n = int(m["n"])
            front_slots = fronts.get(n, ())
            # a back holding as many faces as its front backs those items; anything else backs none of them
            slots = front_slots if len(front_slots) == placed else tuple(range(-placed, 0))
            out.append(PageSides("back", n, slots))
            continue
        if _FOLD.match(page.label):
            placed //= 2  # a card prints two faces there, its front and its back beside it
        slots = tuple(range(next_slot, next_slot + placed))
        next_slot += placed
        if m:
            n = int(m["n"])
            fronts[n] = slots
            out.append(PageSides("front", n, slots))
        else:
            single += 1
            out.append(PageSides("single", single, slots))
    return out


def sides_to_json(sides: Sequence[PageSides]) -> list[list[object]]:
    """Page sides as plain JSON (kept in the build record so an unchanged part need not be composed)."""
    return [[s.kind, s.sheet, list(s.slots)] for s in sides]


def sides_from_json(data: object) -> list[PageSides] | None:
    """Page sides read back from the build record (None when missing or malformed)."""
    if not isinstance(data, list):
        return None
    out: list[PageSides] = []
    for row in data:
        if (
            not isinstance(row, list)
            or len(row) != 3
            or row[0] not in ("front", "back", "single")
            or not isinstance(row[1], int)
            or not isinstance(row[2], list)
            or not all(isinstance(s, int) for s in row[2])
        ):
            return None
        out.append(PageSides(row[0], row[1], tuple(row[2])))
    return out


def sheet_map(parts: Sequence[tuple[str, Sequence[PageSides]]], *, duplex: bool) -> list[SheetSide]:
    """The sides of every sheet, in print order, for the parts in kit-PDF order. Duplex: a 'front' page
    followed by the 'back' of the same sheet share a sheet; every other page is a front with a blank back.
    Not duplex: one page per sheet (backs there would be a composer error, they are printed as fronts)."""
    out: list[SheetSide] = []
    sheet = 0
    for component, sides in parts:
        i = 0
        while i < len(sides):
            here = sides[i]
            sheet += 1
            out.append(SheetSide(sheet, "front", component, i, here.slots))
            if not duplex:
                i += 1
                continue
            after = sides[i + 1] if i + 1 < len(sides) else None
            if (
                here.kind == "front"
                and after is not None
                and after.kind == "back"
                and after.sheet == here.sheet
            ):
                out.append(SheetSide(sheet, "back", component, i + 1, after.slots))
                i += 2
            else:
                out.append(SheetSide(sheet, "back", "", None, ()))
                i += 1
    return out


def sheet_count(sides: Sequence[SheetSide]) -> int:
    """Sheets of paper the map prints on."""
    return max((s.sheet for s in sides), default=0)


__all__ = [
    "PageSides",
    "SheetSide",
    "page_sides",
    "sheet_count",
    "sheet_map",
    "sides_from_json",
    "sides_to_json",
]
