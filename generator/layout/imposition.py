"""Imposition as data: N-up card grids, duplex backs, print-shop pages, sheets and the duplex calibration
page.

Conventions: lengths in points, page origin bottom-left. Grid rows count from the TOP (row 0 is the top row,
as a reader names them); columns from the left. Backs keep the rotation of their fronts; only their positions
are mirrored across the axis the sheet is turned over (long edge: the vertical axis of a portrait page, the
horizontal axis of a landscape page; short edge: the other one), then shifted by minus the printer's
`back_offset` (the amount that printer shifts the back side).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from generator.errors import LayoutError
from generator.layout.edges import Side, can_share_cut, face_edges
from generator.layout.marks import (
    MARK_GAP,
    RULER_SPAN,
    RULER_THICKNESS,
    crop_marks,
    cut_lines,
    ruler,
)
from generator.layout.ops import Circle, Face, Line, Op, Page, Place, Text
from generator.spec.print import PrintSpec
from generator.units import PAPER, mm, paper_size, to_mm

_EPS: Final = 1e-6
SHEET_GAP: Final = mm(6)
"""Space between two sheets on one page (room for both sets of cut marks)."""
SHEET_MARK_ROOM: Final = MARK_GAP + mm(3)
"""Room kept between sheets and the printer's margin for their cut marks."""

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Grid:
    """Where cards go on one N-up page."""

    cols: int
    """cards across"""
    rows: int
    """cards down"""
    card_w: float
    """width of one card's trim ON THE PAGE (the face's height when rotated)"""
    card_h: float
    """height of one card's trim on the page"""
    rotated: bool
    """faces are turned 90 degrees counter-clockwise"""
    landscape: bool
    """the paper is used in landscape"""
    x0: float
    """left edge of the trim of the cards in column 0"""
    y0: float
    """bottom edge of the trim of the cards in the BOTTOM row"""
    pitch_x: float
    """distance between the left trim edges of neighbouring columns (card_w + gutter)"""
    pitch_y: float
    """distance between the bottom trim edges of neighbouring rows (card_h + gutter)"""
    bleed: float = 0.0
    """art kept beyond each trim edge facing a neighbour (0 for abutting cards, else min(bleed, gutter /
    2))"""
    outer_bleed: float = 0.0
    """art kept beyond the trim edges with no neighbour (the grid's outside, a short page's last row): the
    print bleed, so a cut outside the outer line still meets art, not white"""
    page_w: float = 0.0
    """page width"""
    page_h: float = 0.0
    """page height"""

    @property
    def per_page(self) -> int:
        """Cards on one page."""
        return self.cols * self.rows

    def cell(self, row: int, col: int) -> tuple[float, float]:
        """Bottom-left trim corner on the page of the card at (row, col), row 0 at the top."""
        return self.x0 + col * self.pitch_x, self.y0 + (self.rows - 1 - row) * self.pitch_y

    def _used(self, count: int | None) -> tuple[int, int]:
        """Columns and rows (from the top) the first `count` cards of a page fill (all when None)."""
        if count is None or count >= self.per_page:
            return self.cols, self.rows
        return min(count, self.cols), -(-count // self.cols)

    def art_box(self, count: int | None = None) -> Box:
        """(x0, y0, x1, y1) of everything the cards print, bleed included: all cells, or the cells the first
        `count` cards fill (rows from the top)."""
        cols, rows = self._used(count)
        x1 = self.x0 + (cols - 1) * self.pitch_x + self.card_w
        y0 = self.y0 + (self.rows - rows) * self.pitch_y
        y1 = self.y0 + (self.rows - 1) * self.pitch_y + self.card_h
        b = max(self.bleed, self.outer_bleed)
        return self.x0 - b, y0 - b, x1 + b, y1 + b

    def card_bleeds(self, row: int, col: int, count: int) -> tuple[float, float, float, float]:
        """Bleed on the page's left, bottom, right and top of the card at (row, col) of a page holding the
        first `count` cards: the outer bleed where no card of the page is next to it, else the shared one."""

        def taken(r: int, c: int) -> bool:
            return 0 <= r < self.rows and 0 <= c < self.cols and r * self.cols + c < count

        def side(r: int, c: int) -> float:
            return self.bleed if taken(r, c) else max(self.bleed, self.outer_bleed)

        return side(row, col - 1), side(row + 1, col), side(row, col + 1), side(row - 1, col)

    def cuts(self, count: int | None = None) -> tuple[list[float], list[float]]:
        """x of every vertical cut and y of every horizontal cut (shared cuts once), of all cells or of the
        cells the first `count` cards fill."""
        cols, rows = self._used(count)
        xs: set[float] = set()
        ys: set[float] = set()
        for c in range(cols):
            x = self.x0 + c * self.pitch_x
            xs.update((round(x, 6), round(x + self.card_w, 6)))
        for r in range(self.rows - rows, self.rows):
            y = self.y0 + r * self.pitch_y
            ys.update((round(y, 6), round(y + self.card_h, 6)))
        return sorted(xs), sorted(ys)


MARK_ROOM: Final = MARK_GAP + mm(3)
"""Room a grid keeps between its outer bleed and the printer's margin on every side, for its crop marks."""
MIN_MARK_ROOM: Final = MARK_GAP + mm(2)
"""The least room for crop marks a grid takes instead of fitting one card fewer a page."""
BLEED_REACH: Final = mm(10)
"""How far a face's ground (its background fill) should run past its trim: the largest `print.bleed`, so the
bleed of any grid, gutter or print-shop page meets art (what lies beyond the bleed is clipped)."""
MIN_OUTER_BLEED: Final = mm(1.5)
"""The least outer bleed a grid takes instead of fitting one card fewer a page (a 1 mm miscut still meets
art)."""


def piece_bleed(settings: PrintSpec) -> float:
    """How far beyond its trim a piece's art is printed, at most, on a home grid (gutters included) or a
    print-shop page: the print bleed, at least MIN_OUTER_BLEED. Art placed in a slot covers this much."""
    return max(settings.bleed, MIN_OUTER_BLEED)


def _fit(room: float, size: float, gutter: float, bleed: float) -> int:
    return max(0, math.floor((room - 2 * bleed + gutter + _EPS) / (size + gutter)))


def card_grid(
    paper: str,
    card_w: float,
    card_h: float,
    settings: PrintSpec,
    landscape: bool | None = None,
    *,
    allow_rotate: bool = True,
) -> Grid:
    """The grid holding the most cards of card_w x card_h on `paper` inside the printer's margin.

    landscape None tries both paper orientations; allow_rotate tries the card turned 90 degrees. Ties go to
    portrait paper, then to unrotated cards. The grid is centred inside the margin and keeps the print bleed
    beyond its outer cuts and room for crop marks on every side (MARK_ROOM); only where no card would fit
    with that room does it go without (a card nearly as big as the paper)."""
    if paper not in PAPER:
        raise LayoutError(f"unknown paper {paper!r}; expected one of {', '.join(sorted(PAPER))}")
    gutter = settings.gutter
    bleed = min(settings.bleed, gutter / 2) if gutter > 0 else 0.0
    outer = max(bleed, settings.bleed) if settings.mode == "home" else bleed
    tight = max(bleed, min(outer, MIN_OUTER_BLEED))
    best: Grid | None = None
    # the most cards a page; of equals, the most room for bleed and marks; without room for marks only a
    # card that fits no other way (nearly the paper's size)
    for keep in ((outer, MARK_ROOM), (tight, MIN_MARK_ROOM)):
        try:
            grid = _best_grid(paper, card_w, card_h, settings, landscape, allow_rotate, bleed, *keep)
        except LayoutError:
            continue
        if best is None or grid.per_page > best.per_page:
            best = grid
    return best or _best_grid(paper, card_w, card_h, settings, landscape, allow_rotate, bleed, bleed, 0.0)


def _best_grid(
    paper: str,
    card_w: float,
    card_h: float,
    settings: PrintSpec,
    landscape: bool | None,
    allow_rotate: bool,
    bleed: float,
    outer: float,
    mark_room: float,
) -> Grid:
    """card_grid for one choice of outer bleed and room for marks."""
    gutter = settings.gutter
    margin = settings.margin + mark_room
    best: tuple[int, bool, bool, int, int] | None = None
    for land in [False, True] if landscape is None else [landscape]:
        page_w, page_h = paper_size(paper, land)
        for rot in [False, True] if allow_rotate and abs(card_w - card_h) > _EPS else [False]:
            w, h = (card_h, card_w) if rot else (card_w, card_h)
            cols = _fit(page_w - 2 * margin, w, gutter, max(bleed, outer))
            rows = _fit(page_h - 2 * margin, h, gutter, max(bleed, outer))
            if cols * rows > 0 and (best is None or cols * rows > best[3] * best[4]):
                best = (0, land, rot, cols, rows)
    if best is None:
        raise LayoutError(
            f"a {to_mm(card_w):.1f} x {to_mm(card_h):.1f} mm card does not fit on {paper} inside a "
            f"{to_mm(margin):.1f} mm margin with {to_mm(bleed):.1f} mm bleed"
        )
    _, land, rot, cols, rows = best
    page_w, page_h = paper_size(paper, land)
    w, h = (card_h, card_w) if rot else (card_w, card_h)
    total_w = cols * w + (cols - 1) * gutter
    total_h = rows * h + (rows - 1) * gutter
    return Grid(
        cols=cols,
        rows=rows,
        card_w=w,
        card_h=h,
        rotated=rot,
        landscape=land,
        x0=(page_w - total_w) / 2,
        y0=(page_h - total_h) / 2,
        pitch_x=w + gutter,
        pitch_y=h + gutter,
        bleed=bleed,
        outer_bleed=outer,
        page_w=page_w,
        page_h=page_h,
    )


RULER_WITH_MARKS: Final = RULER_THICKNESS + MIN_MARK_ROOM + MARK_GAP
"""Room across a strip that holds the check ruler and, between it and the art, crop marks 2 mm long."""


def _ruler_room(grid: Grid, margin: float) -> bool:
    """Whether some strip around a full page of `grid` holds the check ruler beside the crop marks."""
    ax0, ay0, ax1, ay1 = grid.art_box()
    rooms = (ax0 - margin, ay0 - margin, grid.page_w - margin - ax1, grid.page_h - margin - ay1)
    return max(rooms) >= RULER_WITH_MARKS - _EPS


def _ruler_spot(page_w: float, page_h: float, margin: float, art: Box) -> tuple[Box, str]:
    """Where the check ruler goes: the roomiest free strip between the art and the margin.

    Returns the ruler's box (x0, y0, x1, y1) and the side ('bottom', 'top', 'left', 'right')."""
    ax0, ay0, ax1, ay1 = art
    strips = [  # (room across, room along, side)
        (ay0 - margin, page_w - 2 * margin, "bottom"),
        (page_w - margin - ax1, page_h - 2 * margin, "right"),
        (page_h - margin - ay1, page_w - 2 * margin, "top"),
        (ax0 - margin, page_h - 2 * margin, "left"),
    ]
    usable = [s for s in strips if s[1] >= RULER_SPAN] or strips
    # a strip with room for the ruler and the crop marks beside it, if there is one
    usable = [s for s in usable if s[0] >= RULER_WITH_MARKS] or usable
    room, _, side = max(usable, key=lambda s: s[0])  # first of equals wins: bottom, right, top, left
    t, span = RULER_THICKNESS, RULER_SPAN
    # When no strip is thick enough the ruler sits inside the strip's inner edge, overlapping the margin.
    if side == "bottom":
        y = max(margin, ay0 - MARK_GAP - t) if room < t + MARK_GAP else margin
        x = (page_w - span) / 2
        return (x, y, x + span, y + t), side
    if side == "top":
        y = min(page_h - margin - t, ay1 + MARK_GAP) if room < t + MARK_GAP else page_h - margin - t
        x = (page_w - span) / 2
        return (x, y, x + span, y + t), side
    if side == "right":
        x = min(page_w - margin - t, ax1 + MARK_GAP) if room < t + MARK_GAP else page_w - margin - t
        y = (page_h - span) / 2
        return (x, y, x + t, y + span), side
    x = max(margin, ax0 - MARK_GAP - t) if room < t + MARK_GAP else margin
    y = (page_h - span) / 2
    return (x, y, x + t, y + span), side


def _ruler_ops(box: Box, side: str) -> list[Op]:
    return ruler(box[0], box[1], vertical=side in ("left", "right"))


def _mirror_box(box: Box, page_w: float, page_h: float, mirror_x: bool) -> Box:
    x0, y0, x1, y1 = box
    if mirror_x:
        return page_w - x1, y0, page_w - x0, y1
    return x0, page_h - y1, x1, page_h - y0


def _mirrors_x(settings: PrintSpec, landscape: bool) -> bool:
    """True when turning the sheet over mirrors x (the flip axis is vertical on the page)."""
    long_edge_vertical = not landscape
    return long_edge_vertical if settings.duplex == "long" else not long_edge_vertical


def _backs_for(
    fronts: Sequence[Face], backs: Sequence[Face] | Face | None, settings: PrintSpec, component: str
) -> list[Face] | None:
    if backs is None or settings.duplex == "none":
        return None
    back_list = [backs] * len(fronts) if isinstance(backs, Face) else list(backs)
    if len(back_list) != len(fronts):
        raise LayoutError(
            f"{component}: {len(fronts)} fronts but {len(back_list)} backs "
            f"(give one back for all, or one per front)"
        )
    return back_list


def _check_sizes(faces: Sequence[Face], w: float, h: float, component: str, what: str) -> None:
    for f in faces:
        if abs(f.width - w) > 0.01 or abs(f.height - h) > 0.01:
            raise LayoutError(
                f"{component}: {what} {f.name!r} is {to_mm(f.width):.1f} x {to_mm(f.height):.1f} mm; "
                f"expected {to_mm(w):.1f} x {to_mm(h):.1f} mm like the first front"
            )


def _place(
    face: Face, x: float, y: float, grid: Grid, bleeds: tuple[float, float, float, float] | None = None
) -> Place:
    """The face with its trim's bottom-left page corner at (x, y) (on the page, after rotation), its art
    kept `bleeds` (page left, bottom, right, top; default the grid's shared bleed) beyond its trim."""
    b = grid.bleed
    left, bottom, right, top = bleeds if bleeds is not None else (b, b, b, b)
    if (
        grid.rotated
    ):  # turned counter-clockwise: the face's left is the page's bottom, its bottom the page's right
        left, bottom, right, top = bottom, right, top, left
    clip = (
        -left or 0.0,
        -bottom or 0.0,
        face.width + left + right,
        face.height + bottom + top,
    )  # no '-0.00' in dumps
    trim = (0.0, 0.0, face.width, face.height)
    if grid.rotated:
        return Place(x + grid.card_w, y, face.ops, clip=clip, rotate=90, name=face.name, trim=trim)
    return Place(x, y, face.ops, clip=clip, name=face.name, trim=trim)


def impose_cards(
    component: str,
    fronts: Sequence[Face],
    backs: Sequence[Face] | Face | None,
    settings: PrintSpec,
    paper: str,
    *,
    bookmark: str | None = None,
) -> list[Page]:
    """Pages for a deck: N-up home sheets (fronts, then a mirrored back page after each) or, in shop mode,
    one card per page at trim + bleed with TrimBox/BleedBox, fronts and backs interleaved.

    The first page carries the bookmark (`bookmark`, or the component name when None)."""
    if not fronts:
        return []
    fw, fh = fronts[0].width, fronts[0].height
    _check_sizes(fronts, fw, fh, component, "front")
    back_list = _backs_for(fronts, backs, settings, component)
    if back_list is not None:
        _check_sizes(back_list, fw, fh, component, "back")
    title = component if bookmark is None else bookmark
    if settings.duplex == "fold" and settings.mode == "home" and back_list is not None:
        from generator.layout.fold import fold_pages

        pages = fold_pages(component, fronts, back_list, settings, paper)
        pages[0].bookmark = title
        return pages
    pages = (_shop_pages if settings.mode == "shop" else _home_pages)(
        component, fronts, back_list, settings, paper
    )
    pages[0].bookmark = title
    return pages


def _page_edges(face: Face, rotated: bool) -> dict[Side, str | None]:
    """face_edges by the side of the PAGE each edge faces (a rotated face turns counter-clockwise)."""
    edges = face_edges(face)
    if not rotated:
        return edges
    return {"left": edges["top"], "bottom": edges["left"], "right": edges["bottom"], "top": edges["right"]}


def _edges_agree(grid: Grid, fronts: Sequence[Face], backs: Sequence[Face] | None, mirror_x: bool) -> bool:
    """Whether every two neighbours of `grid` (fronts, and backs as they sit mirrored) print the same one
    colour along the cut they share."""
    memo: dict[int, dict[Side, str | None]] = {}

    def edges(face: Face) -> dict[Side, str | None]:
        if id(face) not in memo:
            memo[id(face)] = _page_edges(face, grid.rotated)
        return memo[id(face)]

    n = grid.per_page
    for start in range(0, len(fronts), n):
        count = min(n, len(fronts) - start)
        for k in range(count):
            col = k % grid.cols
            for j, across in ((k + 1, col + 1 < grid.cols), (k + grid.cols, True)):
                if not across or j >= count:
                    continue
                beside = j == k + 1  # else below
                side: Side = "right" if beside else "bottom"
                pairs = [(fronts[start + k], fronts[start + j])]
                if backs is not None:
                    # the flip mirrors columns (mirror_x) or rows: the two backs swap places along that axis
                    swapped = mirror_x == beside
                    pair = (backs[start + k], backs[start + j])
                    pairs.append(pair[::-1] if swapped else pair)
                other: Side = "left" if beside else "top"
                for first, second in pairs:
                    if not can_share_cut(edges(first)[side], edges(second)[other]):
                        return False
    return True


AUTO_GUTTER_MIN: Final = mm(2.4)
"""The least gutter pnpkit puts between neighbours that print different colours at their shared edge: each
keeps 1.2 mm of its own art beyond its cut, so a cut 1 mm off the line still meets it."""


def home_grid(fronts: Sequence[Face], backs: Sequence[Face] | None, settings: PrintSpec, paper: str) -> Grid:
    """The home-mode grid for a deck: abutting cards (shared cuts) only where every two neighbours print the
    same one colour along their shared edge (fronts and backs); otherwise a gutter in which each card keeps
    its own bleed -- twice the print bleed, or 3 mm, or AUTO_GUTTER_MIN, the widest that fits the most cards
    a page. A kit's own `print.gutter` (above 0) is used as it is."""
    w, h = fronts[0].width, fronts[0].height
    grid = card_grid(paper, w, h, settings)
    if settings.gutter > 0 or _edges_agree(grid, fronts, backs, _mirrors_x(settings, grid.landscape)):
        return grid
    candidates = [
        card_grid(paper, w, h, settings.model_copy(update={"gutter": g, "bleed": max(settings.bleed, g / 2)}))
        for g in sorted(
            {2 * max(settings.bleed, MIN_OUTER_BLEED), 2 * MIN_OUTER_BLEED, AUTO_GUTTER_MIN}, reverse=True
        )
    ]
    # the most cards a page; of equals, one that leaves a strip for the ruler beside the marks; then the
    # wider gutter (the first)
    return max(candidates, key=lambda g: (g.per_page, not settings.ruler or _ruler_room(g, settings.margin)))


def _shop_pages(
    component: str, fronts: Sequence[Face], backs: list[Face] | None, settings: PrintSpec, paper: str
) -> list[Page]:
    b = settings.bleed
    pages: list[Page] = []
    for i, front in enumerate(fronts):
        sides = [("front", front)] + ([("back", backs[i])] if backs is not None else [])
        for side, face in sides:
            w, h = face.width + 2 * b, face.height + 2 * b
            pages.append(
                Page(
                    w,
                    h,
                    [
                        Place(
                            b,
                            b,
                            face.ops,
                            clip=(-b, -b, face.width + 2 * b, face.height + 2 * b),
                            name=face.name,
                            trim=(0.0, 0.0, face.width, face.height),
                        )
                    ],
                    trim_box=(b, b, b + face.width, b + face.height),
                    bleed_box=(0.0, 0.0, w, h),
                    label=f"{component} {side} {i + 1}",
                    face=face.name,
                )
            )
    return pages


def _home_pages(
    component: str, fronts: Sequence[Face], backs: list[Face] | None, settings: PrintSpec, paper: str
) -> list[Page]:
    grid = home_grid(fronts, backs, settings, paper)
    page_w, page_h, margin = grid.page_w, grid.page_h, settings.margin
    printable: Box = (margin, margin, page_w - margin, page_h - margin)
    mirror_x = _mirrors_x(settings, grid.landscape)
    off_x, off_y = settings.back_offset.x, settings.back_offset.y
    pages: list[Page] = []
    n = grid.per_page
    for start in range(0, len(fronts), n):
        sheet = start // n + 1
        # marks and the ruler go around the cards this page holds (a short last page has empty rows)
        art = grid.art_box(len(fronts[start : start + n]))
        ruler_box, side = _ruler_spot(page_w, page_h, margin, art) if settings.ruler else (None, "")
        limits = list(printable)
        if ruler_box is not None:  # keep marks clear of the ruler
            idx = {"left": 0, "bottom": 1, "right": 2, "top": 3}[side]
            limits[idx] = ruler_box[idx + 2 if idx < 2 else idx - 2]
        xs, ys = grid.cuts(len(fronts[start : start + n]))
        marks: list[Op] = []
        if settings.crop_marks:
            marks += crop_marks(xs, ys, art, (limits[0], limits[1], limits[2], limits[3]))
        if settings.cut_lines:
            marks += cut_lines(xs, ys, art)
        front_ops: list[Op] = []
        back_ops: list[Op] = []
        count = len(fronts[start : start + n])
        for k, front in enumerate(fronts[start : start + n]):
            x, y = grid.cell(k // grid.cols, k % grid.cols)
            bleeds = grid.card_bleeds(k // grid.cols, k % grid.cols, count)
            front_ops.append(_place(front, x, y, grid, bleeds))
            if backs is not None:
                bx, by = (page_w - x - grid.card_w, y) if mirror_x else (x, page_h - y - grid.card_h)
                left, bottom, right, top = bleeds  # the back's neighbours are the front's, mirrored
                mirrored = (right, bottom, left, top) if mirror_x else (left, top, right, bottom)
                back_ops.append(_place(backs[start + k], bx - off_x, by - off_y, grid, mirrored))
        front_ops += marks
        if ruler_box is not None:
            front_ops += _ruler_ops(ruler_box, side)
        pages.append(Page(page_w, page_h, front_ops, label=f"{component} front {sheet}"))
        if backs is not None:
            if ruler_box is not None:
                back_ops += _ruler_ops(_mirror_box(ruler_box, page_w, page_h, mirror_x), side)
            pages.append(Page(page_w, page_h, back_ops, label=f"{component} back {sheet}"))
    return pages


def _sheet_layout(
    paper: str, per_page: int, landscape: bool, settings: PrintSpec
) -> tuple[float, float, int, int, float, float, Box]:
    if per_page < 1:
        raise LayoutError(f"per_page must be at least 1, got {per_page}")
    page_w, page_h = paper_size(paper, landscape)
    inset = settings.margin + SHEET_MARK_ROOM
    x0, y0, x1, y1 = inset, inset, page_w - inset, page_h - inset
    if settings.ruler:
        y0 += RULER_THICKNESS + MARK_GAP
    best: tuple[float, int, int, float, float] | None = None
    for cols in range(1, per_page + 1):
        if per_page % cols:
            continue
        rows = per_page // cols
        sw = (x1 - x0 - (cols - 1) * SHEET_GAP) / cols
        sh = (y1 - y0 - (rows - 1) * SHEET_GAP) / rows
        if sw > 0 and sh > 0 and (best is None or min(sw, sh) > best[0] + _EPS):
            best = (min(sw, sh), cols, rows, sw, sh)
    if best is None:
        raise LayoutError(f"{per_page} sheets per page do not fit on {paper}")
    _, cols, rows, sw, sh = best
    return page_w, page_h, cols, rows, sw, sh, (x0, y0, x1, y1)


def sheet_slot(paper: str, per_page: int, landscape: bool, settings: PrintSpec) -> tuple[float, float]:
    """Width and height of one slot when `per_page` sheets share a page (faces must fit inside it)."""
    _, _, _, _, sw, sh, _ = _sheet_layout(paper, per_page, landscape, settings)
    return sw, sh


def impose_sheets(
    component: str,
    faces: Sequence[Face],
    settings: PrintSpec,
    paper: str,
    *,
    per_page: int,
    landscape: bool,
    bookmark: str | None = None,
) -> list[Page]:
    """Pages holding `per_page` large faces each (score sheets, boards), centred in equal slots with cut
    marks at each face's corners and the check ruler along the bottom."""
    page_w, page_h, cols, rows, sw, sh, area = _sheet_layout(paper, per_page, landscape, settings)
    for f in faces:
        if f.width > sw + 0.01 or f.height > sh + 0.01:
            raise LayoutError(
                f"{component}: sheet {f.name!r} is {to_mm(f.width):.1f} x {to_mm(f.height):.1f} mm; "
                f"a slot for {per_page} per page on {paper} is {to_mm(sw):.1f} x {to_mm(sh):.1f} mm"
            )
    pages: list[Page] = []
    half_gap = SHEET_GAP / 2
    for start in range(0, len(faces), per_page):
        ops: list[Op] = []
        for k, face in enumerate(faces[start : start + per_page]):
            r, c = divmod(k, cols)
            slot_x = area[0] + c * (sw + SHEET_GAP)
            slot_y = area[3] - (r + 1) * sh - r * SHEET_GAP
            fx, fy = slot_x + (sw - face.width) / 2, slot_y + (sh - face.height) / 2
            ops.append(Place(fx, fy, face.ops, clip=(0.0, 0.0, face.width, face.height), name=face.name))
            if settings.crop_marks:
                limits = (
                    slot_x - (half_gap if c else SHEET_MARK_ROOM),
                    slot_y - (half_gap if r < rows - 1 else SHEET_MARK_ROOM),
                    slot_x + sw + (half_gap if c < cols - 1 else SHEET_MARK_ROOM),
                    slot_y + sh + (half_gap if r else SHEET_MARK_ROOM),
                )
                box = (fx, fy, fx + face.width, fy + face.height)
                ops += crop_marks([box[0], box[2]], [box[1], box[3]], box, limits)
        if settings.ruler:
            ops += ruler(area[0], settings.margin)
        pages.append(Page(page_w, page_h, ops, label=f"{component} {start // per_page + 1}"))
    if pages:
        pages[0].bookmark = component if bookmark is None else bookmark
    return pages


SCALE_LABEL_SIZE: Final = 6.0
"""Size of the calibration scale's numbers (the legible floor for fine print)."""
SCALE_REACH_MM: Final = 10
"""The calibration scales run from -10 to +10 mm: the whole range print.back_offset accepts."""


def _scale_ops(cx: float, cy: float, vertical: bool, caption: str) -> list[Op]:
    """A +-SCALE_REACH_MM scale (the whole print.back_offset range) in 0.5 mm steps centred on (cx, cy); a
    label gives the back offset that a front line seen there means (minus its position, see module
    docstring). Every 2 mm is labelled, the labels
    alternating sides (4 mm apart on each), starting 1 mm past the longest tick (the 0 tick included)."""
    ops: list[Op] = []
    size = SCALE_LABEL_SIZE
    reach = mm(3.0) + mm(1.0)
    steps = int(SCALE_REACH_MM * 2)
    for i in range(-steps, steps + 1):
        t = mm(i * 0.5)
        length = mm(3.0) if i == 0 else mm(2.0) if i % 2 == 0 else mm(1.2)
        if vertical:
            ops.append(Line(cx - length, cy + t, cx + length, cy + t, stroke="cut", width=0.2))
        else:
            ops.append(Line(cx + t, cy - length, cx + t, cy + length, stroke="cut", width=0.2))
        if i % 4 == 0:  # every 2 mm, sides alternating: labels on one side 4 mm apart
            value = -i // 2
            label = f"{value:+d}" if value else "0"
            side = 1 if (i // 4) % 2 == 0 else -1
            if vertical:
                ops.append(
                    Text(
                        cx + side * reach,
                        cy + t - size * 0.36,
                        label,
                        size,
                        fill="cut",
                        anchor="start" if side > 0 else "end",
                    )
                )
            else:
                # turned 90 degrees so neighbouring labels 1 mm apart do not collide
                ops.append(
                    Text(
                        cx + t + size * 0.36,
                        cy + side * reach,
                        label,
                        size,
                        fill="cut",
                        anchor="start" if side > 0 else "end",
                        rotate=90,
                    )
                )
    if vertical:
        ops.append(
            Text(cx, cy + mm(SCALE_REACH_MM + 3), caption, 8, font="bold", fill="cut", anchor="middle")
        )
    else:
        ops.append(
            Text(cx - mm(SCALE_REACH_MM + 2), cy - 3, caption, 8, font="bold", fill="cut", anchor="end")
        )
    return ops


def calibration_pages(
    settings: PrintSpec, paper: str, *, title: str, instructions: Sequence[str]
) -> list[Page]:
    """A duplex calibration sheet: a front with a centred cross-hair, and a back (placed for the same flip,
    with NO back offset) with an x and a y scale in 0.5 mm steps. The number under the front's line that shows
    through is the back offset to enter (x on the horizontal scale, y on the vertical one), in mm."""
    page_w, page_h = paper_size(paper, False)
    cx, cy = page_w / 2, page_h / 2
    top = page_h - settings.margin - mm(8)
    left = settings.margin + mm(5)
    front: list[Op] = [Text(left, top, title, 14, font="bold", text_id="calibration.title")]
    for i, line in enumerate(instructions):
        front.append(Text(left, top - 20 - 12 * i, line, 9, text_id=f"calibration.instructions[{i}]"))
    arm = mm(60)
    front += [
        Line(cx - arm, cy, cx + arm, cy, stroke="cut", width=0.3),
        Line(cx, cy - arm, cx, cy + arm, stroke="cut", width=0.3),
        Circle(cx, cy, mm(10), stroke="cut", width=0.3),
        Circle(cx, cy, mm(20), stroke="muted", width=0.3),
    ]
    pages = [Page(page_w, page_h, front, bookmark=title, label="calibration front 1")]
    if settings.ruler:
        pages[0].ops.extend(ruler((page_w - RULER_SPAN) / 2, settings.margin))
    # Back: scales where the front's lines pass whatever the flip (the centre maps to the centre).
    back: list[Op] = [Text(left, top, title, 14, font="bold", text_id="calibration.title")]
    back += _scale_ops(cx, cy + mm(40), False, "x")
    back += _scale_ops(cx + mm(40), cy, True, "y")
    back += _scale_ops(cx, cy - mm(40), False, "x")
    back += _scale_ops(cx - mm(40), cy, True, "y")
    back.append(Circle(cx, cy, mm(2), stroke="muted", width=0.3))
    if settings.duplex != "none":
        pages.append(Page(page_w, page_h, back, label="calibration back 1"))
    return pages
