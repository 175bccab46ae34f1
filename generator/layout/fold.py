"""`print.duplex: fold`: fold-and-glue sheets for single-sided printers (the print-and-play "gutterfold").

Each card's front and back print side by side on one side of the paper: the front on the left, its back on
the right, mirrored across the fold line between them, so that folding the pair along the line puts the back
exactly behind its front. The player folds, glues the two halves together, then cuts along the crop marks.

Geometry (points, origin bottom-left): a pair is `front | gap | back`, the gap twice the print bleed with the
fold line in its middle, so each half keeps its own bleed up to the fold. Pairs are laid in a grid with a gap
of twice the bleed between them (every card its own bleed and crop marks). A back is drawn like its front
at the front's position reflected across the fold line, so that the folded card turned over sideways shows its
back upright with the front's top-right corner behind the back's top-left, as a duplex long-edge back does.
Where the faces are turned 90 degrees to fit more pairs a page, the front turns counter-clockwise and its back
clockwise to keep that.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from generator.layout.imposition import Box, Grid, _ruler_ops, _ruler_spot, card_grid
from generator.layout.marks import MARK_GAP, MARK_LENGTH, MARK_WIDTH, crop_marks, cut_lines
from generator.layout.ops import Face, Line, Op, Page, Place
from generator.spec.print import PrintSpec

FOLD_LABEL: Final = re.compile(r"^(?P<name>.*) fold (?P<n>\d+)$")
"""The label of a fold-and-glue page: '<component> fold N' (each card's front and back on one side)."""
FOLD_DASH: Final = (3.0, 2.0)
"""Dash pattern of the fold line (crop marks and cut lines are solid)."""


@dataclass(frozen=True)
class FoldPair:
    """Where one card's two halves sit on a fold page."""

    front: Box
    """the front's trim (x0, y0, x1, y1) on the page"""
    back: Box
    """the back's trim: the front's reflected across the fold line"""
    fold_x: float
    """x of the fold line"""


def _pair_grid(fw: float, fh: float, settings: PrintSpec, paper: str) -> tuple[Grid, bool, float]:
    """The grid of pairs (one cell a pair), whether the faces are turned 90 degrees (when more pairs fit a
    page that way; ties stay upright) and the pair's gap (twice the bleed)."""
    gap = 2 * settings.bleed
    spaced = settings.model_copy(update={"gutter": max(settings.gutter, gap)})
    upright = card_grid(paper, 2 * fw + gap, fh, spaced, allow_rotate=False)
    turned = card_grid(paper, 2 * fh + gap, fw, spaced, allow_rotate=False)
    if turned.per_page > upright.per_page:
        return turned, True, gap
    return upright, False, gap


def fold_pairs(fw: float, fh: float, count: int, settings: PrintSpec, paper: str) -> list[list[FoldPair]]:
    """The pairs of `count` cards of fw x fh, page by page (the layout `fold_pages` draws)."""
    grid, rotated, gap = _pair_grid(fw, fh, settings, paper)
    w, h = (fh, fw) if rotated else (fw, fh)
    pages: list[list[FoldPair]] = []
    for start in range(0, count, grid.per_page):
        here: list[FoldPair] = []
        for k in range(min(grid.per_page, count - start)):
            x, y = grid.cell(k // grid.cols, k % grid.cols)
            fold_x = x + w + gap / 2
            here.append(FoldPair((x, y, x + w, y + h), (x + w + gap, y, x + 2 * w + gap, y + h), fold_x))
        pages.append(here)
    return pages


def _half(face: Face, box: Box, bleed: float, turn: int) -> Place:
    """The face drawn with its trim on `box`, turned `turn` degrees (0, 90 counter-clockwise or -90
    clockwise), its art kept `bleed` beyond every trim edge."""
    clip = (-bleed or 0.0, -bleed or 0.0, face.width + 2 * bleed, face.height + 2 * bleed)
    if turn == 90:
        return Place(box[2], box[1], face.ops, clip=clip, rotate=90, name=face.name)
    if turn == -90:
        return Place(box[0], box[3], face.ops, clip=clip, rotate=-90, name=face.name)
    return Place(box[0], box[1], face.ops, clip=clip, name=face.name)


def fold_pages(
    component: str, fronts: Sequence[Face], backs: Sequence[Face], settings: PrintSpec, paper: str
) -> list[Page]:
    """One-sided pages of fold pairs: each front with its back mirrored across a dashed fold line, crop marks
    at every cut outside the pairs, the check ruler in the roomiest free strip. `backs` has one per front."""
    fw, fh = fronts[0].width, fronts[0].height
    grid, rotated, gap = _pair_grid(fw, fh, settings, paper)
    page_w, page_h = grid.page_w, grid.page_h
    bleed = gap / 2
    margin = settings.margin
    out: list[Page] = []
    done = 0
    for n, pairs in enumerate(fold_pairs(fw, fh, len(fronts), settings, paper), start=1):
        ops: list[Op] = []
        for k, pair in enumerate(pairs):
            # turned faces: the front counter-clockwise, its back clockwise, so that a player turning the
            # folded card over sideways (as a duplex back is read) finds the back upright
            ops.append(_half(fronts[done + k], pair.front, bleed, 90 if rotated else 0))
            ops.append(_half(backs[done + k], pair.back, bleed, -90 if rotated else 0))
        done += len(pairs)
        art: Box = (
            min(p.front[0] for p in pairs) - bleed,
            min(p.front[1] for p in pairs) - bleed,
            max(p.back[2] for p in pairs) + bleed,
            max(p.front[3] for p in pairs) + bleed,
        )
        limits = [margin, margin, page_w - margin, page_h - margin]
        ruler_box, side = _ruler_spot(page_w, page_h, margin, art) if settings.ruler else (None, "")
        if ruler_box is not None:  # keep marks clear of the ruler
            idx = {"left": 0, "bottom": 1, "right": 2, "top": 3}[side]
            limits[idx] = ruler_box[idx + 2 if idx < 2 else idx - 2]
        xs = sorted({round(v, 6) for p in pairs for v in (p.front[0], p.front[2], p.back[0], p.back[2])})
        ys = sorted({round(v, 6) for p in pairs for v in (p.front[1], p.front[3])})
        if settings.crop_marks:
            ops += crop_marks(xs, ys, art, (limits[0], limits[1], limits[2], limits[3]))
        if settings.cut_lines:
            ops += cut_lines(xs, ys, art)
        ops += _fold_lines(pairs, bleed, art, (limits[1], limits[3]))
        if ruler_box is not None:
            ops += _ruler_ops(ruler_box, side)
        out.append(Page(page_w, page_h, ops, label=f"{component} fold {n}"))
    return out


def _fold_lines(pairs: Sequence[FoldPair], bleed: float, art: Box, limits: tuple[float, float]) -> list[Op]:
    """A dashed fold line over each pair's gap and dashed marks extending it outside the pairs."""
    ops: list[Op] = []
    for p in pairs:
        ops.append(
            Line(p.fold_x, p.front[1] - bleed, p.fold_x, p.front[3] + bleed, "cut", MARK_WIDTH, FOLD_DASH)
        )
    below = min(MARK_LENGTH, art[1] - limits[0] - MARK_GAP)
    above = min(MARK_LENGTH, limits[1] - art[3] - MARK_GAP)
    for x in sorted({round(p.fold_x, 6) for p in pairs}):
        if below >= MARK_GAP:
            ops.append(Line(x, art[1] - MARK_GAP, x, art[1] - MARK_GAP - below, "cut", MARK_WIDTH, FOLD_DASH))
        if above >= MARK_GAP:
            ops.append(Line(x, art[3] + MARK_GAP, x, art[3] + MARK_GAP + above, "cut", MARK_WIDTH, FOLD_DASH))
    return ops


__all__ = ["FOLD_LABEL", "FoldPair", "fold_pages", "fold_pairs"]
