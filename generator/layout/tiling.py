"""A face larger than the paper, cut into overlapping sheets that are taped or glued back together.

Every sheet shows one rectangle ("strip") of the face, with crop marks at its corners. Neighbouring strips
share `overlap` of the face. The sheet to the RIGHT (or BELOW) is cut along its crop marks and laid on top:
the shared band on the sheet underneath is shaded "glue here". Alignment targets (circle + cross) are centred
ON the seam, the edge of the sheet laid on top, at the same face coordinates on both sheets: after assembly
the visible halves (one from each sheet) form whole targets. A small map in the sheet's label band shows where
the sheet goes. When the face fits the printable area (e.g. A3 for the Raindrops window board) it is printed
on one sheet.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from generator.errors import LayoutError
from generator.layout.imposition import SHEET_MARK_ROOM
from generator.layout.marks import MARK_GAP, RULER_THICKNESS, crop_marks, ruler
from generator.layout.ops import Circle, Face, Line, Op, Page, Place, Rect, Text
from generator.spec.print import PrintSpec
from generator.units import mm, paper_size, to_mm

TARGET_RADIUS: Final = mm(3)
"""Radius of an alignment target's circle (its cross arms reach 1.5 x as far)."""
LABEL_BAND: Final = mm(6)
"""Room above the strip for the sheet label and the assembly map."""
GLUE_FILL: Final = "#e9e9e9"
GLUE_HATCH: Final = "#9a9a9a"


@dataclass(frozen=True)
class Tiling:
    """How a face is cut: `cols` x `rows` strips each `strip_w` x `strip_h` of the face; `landscape` paper."""

    cols: int
    rows: int
    strip_w: float
    strip_h: float
    overlap: float
    landscape: bool

    @property
    def sheets(self) -> int:
        """Sheets of paper needed."""
        return self.cols * self.rows

    def strip(self, row: int, col: int, face_h: float) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) in face coordinates of the strip at (row, col); row 0 is the TOP of the face."""
        x0 = col * (self.strip_w - self.overlap)
        y1 = face_h - row * (self.strip_h - self.overlap)
        return x0, y1 - self.strip_h, x0 + self.strip_w, y1


def _area(paper: str, landscape: bool, settings: PrintSpec) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of the page where a strip may go (inside margin, mark room, label band and ruler)."""
    page_w, page_h = paper_size(paper, landscape)
    inset = settings.margin + SHEET_MARK_ROOM
    y0 = inset + (RULER_THICKNESS + MARK_GAP if settings.ruler else 0.0)
    return inset, y0, page_w - inset, page_h - inset - LABEL_BAND


def _count(size: float, room: float, overlap: float) -> int:
    if size <= room + 1e-6:
        return 1
    if room <= overlap:
        return 0
    return math.ceil((size - overlap) / (room - overlap) - 1e-9)


def plan_tiling(face: Face, paper: str, settings: PrintSpec, overlap: float) -> Tiling:
    """The tiling with the fewest sheets (ties: portrait paper), strips of equal size."""
    best: Tiling | None = None
    for landscape in (False, True):
        x0, y0, x1, y1 = _area(paper, landscape, settings)
        cols = _count(face.width, x1 - x0, overlap)
        rows = _count(face.height, y1 - y0, overlap)
        if cols == 0 or rows == 0:
            continue
        sw = face.width if cols == 1 else (face.width + (cols - 1) * overlap) / cols
        sh = face.height if rows == 1 else (face.height + (rows - 1) * overlap) / rows
        t = Tiling(cols, rows, sw, sh, overlap, landscape)
        if best is None or t.sheets < best.sheets:
            best = t
    if best is None:
        raise LayoutError(
            f"{face.name}: a {to_mm(face.width):.0f} x {to_mm(face.height):.0f} mm face cannot be tiled on "
            f"{paper} with {to_mm(overlap):.0f} mm overlap (the printable area is smaller than the overlap)"
        )
    return best


def target_ops(x: float, y: float) -> list[Op]:
    """One alignment target centred at (x, y): circle and cross."""
    arm = TARGET_RADIUS * 1.5
    return [
        Circle(x, y, TARGET_RADIUS, fill=None, stroke="cut", width=0.35),
        Line(x - arm, y, x + arm, y, stroke="cut", width=0.3),
        Line(x, y - arm, x, y + arm, stroke="cut", width=0.3),
    ]


def _glue_ops(x0: float, y0: float, x1: float, y1: float, text: str, vertical: bool) -> list[Op]:
    """A shaded, hatched band (x0..x1, y0..y1) in page coordinates with `text` along it."""
    ops: list[Op] = [
        Rect(x0, y0, x1 - x0, y1 - y0, fill=GLUE_FILL, stroke=GLUE_HATCH, width=0.4, dash=(2, 2))
    ]
    step = mm(4)
    w, h = x1 - x0, y1 - y0
    hatch: list[Op] = []
    k = -h
    while k < w:  # 45-degree hatch, clipped to the band below
        hatch.append(Line(x0 + k, y0, x0 + k + h, y1, stroke=GLUE_HATCH, width=0.3))
        k += step
    ops.append(Place(0.0, 0.0, tuple(hatch), clip=(x0, y0, w, h)))
    if text:
        size = min(mm(3), (w if vertical else h) * 0.45)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        n = max(1, int((h if vertical else w) // mm(60)))
        for i in range(n):
            if vertical:
                ty = y0 + (i + 0.5) * h / n
                ops.append(
                    Rect(cx - size * 0.7, ty - size * 3, size * 1.4, size * 6, fill=GLUE_FILL, stroke=None)
                )
                ops.append(
                    Text(
                        cx + size * 0.35,
                        ty,
                        text,
                        size,
                        font="bold",
                        fill="#555555",
                        anchor="middle",
                        rotate=90,
                    )
                )
            else:
                tx = x0 + (i + 0.5) * w / n
                ops.append(
                    Rect(tx - size * 3, cy - size * 0.7, size * 6, size * 1.4, fill=GLUE_FILL, stroke=None)
                )
                ops.append(
                    Text(tx, cy - size * 0.35, text, size, font="bold", fill="#555555", anchor="middle")
                )
    return ops


def _map_ops(x: float, y: float, t: Tiling, row: int, col: int) -> list[Op]:
    """A small map of the sheets (cols x rows), this sheet filled; (x, y) = its bottom-left."""
    cell = mm(3.2)
    ops: list[Op] = []
    for r in range(t.rows):
        for c in range(t.cols):
            ops.append(
                Rect(
                    x + c * cell,
                    y + (t.rows - 1 - r) * cell,
                    cell,
                    cell,
                    fill="#555555" if (r, c) == (row, col) else "#ffffff",
                    stroke="cut",
                    width=0.3,
                )
            )
    return ops


def tile_face(
    face: Face,
    paper: str,
    settings: PrintSpec,
    overlap: float,
    *,
    glue_text: str = "",
    label: str = "",
    bookmark: str | None = None,
) -> list[Page]:
    """Pages printing `face` at 100 %: one sheet when it fits, else overlapping strips with crop marks,
    "glue here" bands (`glue_text`) and alignment targets on every seam. `label` heads each sheet,
    followed by "n/total" and a map of the sheets."""
    if overlap < 2 * TARGET_RADIUS:
        raise LayoutError(
            f"{face.name}: overlap {to_mm(overlap):.1f} mm is too small for the alignment targets "
            f"(at least {to_mm(2 * TARGET_RADIUS):.0f} mm)"
        )
    t = plan_tiling(face, paper, settings, overlap)
    page_w, page_h = paper_size(paper, t.landscape)
    ax0, ay0, ax1, ay1 = _area(paper, t.landscape, settings)
    inset = settings.margin
    pages: list[Page] = []
    for row in range(t.rows):
        for col in range(t.cols):
            sx0, sy0, sx1, sy1 = t.strip(row, col, face.height)
            sw, sh = sx1 - sx0, sy1 - sy0
            px = ax0 + (ax1 - ax0 - sw) / 2  # page position of the strip's bottom-left corner
            py = ay0 + (ay1 - ay0 - sh) / 2
            dx, dy = px - sx0, py - sy0  # face -> page
            ops: list[Op] = [Place(dx, dy, face.ops, clip=(sx0, sy0, sw, sh), window=True)]
            if col < t.cols - 1:  # the next sheet to the right lies on this band
                seam = t.strip(row, col + 1, face.height)[0]
                ops += _glue_ops(seam + dx, py, px + sw, py + sh, glue_text, vertical=True)
            if row < t.rows - 1:  # the sheet below lies on this band
                seam = t.strip(row + 1, col, face.height)[3]
                ops += _glue_ops(px, py, px + sw, seam + dy, glue_text, vertical=False)
            ops += _targets(t, row, col, face.height, dx, dy)
            if settings.crop_marks:
                limits = (inset, inset, page_w - inset, ay1 + LABEL_BAND)
                ops += crop_marks([px, px + sw], [py, py + sh], (px, py, px + sw, py + sh), limits)
            n = row * t.cols + col + 1
            head = f"{label} {n}/{t.sheets}".strip() if t.sheets > 1 else label
            if head:
                ops.append(Text(ax0, ay1 + mm(1.6), head, mm(3), font="bold", fill="cut"))
            if t.sheets > 1:
                ops += _map_ops(ax1 - t.cols * mm(3.2), ay1 + mm(1.2), t, row, col)
            if settings.ruler:
                ops += ruler(ax0, inset)
            pages.append(Page(page_w, page_h, ops, label=f"{face.name} sheet {n}"))
    pages[0].bookmark = face.name if bookmark is None else bookmark
    return pages


def seam_targets(t: Tiling, face_w: float, face_h: float) -> list[tuple[float, float]]:
    """Face coordinates of every alignment target (each is printed on the two sheets it joins)."""
    out: list[tuple[float, float]] = []
    for row in range(t.rows):
        for col in range(t.cols):
            sx0, sy0, sx1, sy1 = t.strip(row, col, face_h)
            if col < t.cols - 1:
                seam = t.strip(row, col + 1, face_h)[0]
                out += [(seam, sy0 + sh) for sh in _spots(sy0, sy1)]
            if row < t.rows - 1:
                seam = t.strip(row + 1, col, face_h)[3]
                out += [(sx0 + sw, seam) for sw in _spots(sx0, sx1)]
    return out


def _spots(a: float, b: float) -> list[float]:
    """Offsets from `a` of three targets along a seam from a to b (away from the corners)."""
    length = b - a
    return [length * f for f in (0.2, 0.5, 0.8)]


def _targets(t: Tiling, row: int, col: int, face_h: float, dx: float, dy: float) -> list[Op]:
    """Targets on this sheet: on the seams to its right and below (under the next sheet) and on its own left
    and top edges (the seams it covers); all strips of a row share y, all strips of a column share x."""
    sx0, sy0, sx1, sy1 = t.strip(row, col, face_h)
    xs: list[float] = []
    ys: list[float] = []
    if col < t.cols - 1:
        xs.append(t.strip(row, col + 1, face_h)[0])
    if col > 0:
        xs.append(sx0)
    if row < t.rows - 1:
        ys.append(t.strip(row + 1, col, face_h)[3])
    if row > 0:
        ys.append(sy1)
    ops: list[Op] = []
    for x in xs:
        ops += [op for s in _spots(sy0, sy1) for op in target_ops(x + dx, sy0 + s + dy)]
    for y in ys:
        ops += [op for s in _spots(sx0, sx1) for op in target_ops(sx0 + s + dx, y + dy)]
    return ops


__all__ = ["tile_face", "plan_tiling", "Tiling", "seam_targets", "target_ops", "TARGET_RADIUS", "LABEL_BAND"]
