"""Peak Dice's score sheet: patterned colour bands, rows of circles with the peak line, the column
score boxes, the miss track and the total area (every figure from the print data)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.games.peak_dice.layout_colours import (
    INK_DARK,
    colour_name,
    ink_of,
    row_symbol,
)
from generator.layout.art import Slot, art_or, slot_art
from generator.layout.compose import Component, Context, figures_of
from generator.layout.imposition import impose_sheets, sheet_slot
from generator.layout.ops import Circle, Face, Line, Op, Polygon, Rect, Text
from generator.layout.patterns import pattern_in_rect, pattern_ink
from generator.layout.shapes import lighten
from generator.layout.text import block_ops, fit_block, fit_line
from generator.units import mm

_figures = figures_of("peak_dice")

SHEET_ICON = Slot(
    "icon",
    "sheet",
    (0.02, 0.7, 0.03, 0.03),
    ("colour",),
    "every row's colour symbol on the score sheet (on its white disc)",
)
SHEET_LOGO = Slot("logo", "sheet", (0.035, 0.925, 0.4, 0.05), (), "the kit's title in the header")


# ---------------------------------------------------------------- score sheet


def _band(ctx: Context, c: Any, x: float, y: float, w: float, h: float) -> list[Op]:
    """The row header: the colour with its pattern, the symbol on a white disc and the colour's name."""
    ops: list[Op] = [Rect(x, y, w, h, fill=c.colour, stroke=None)]
    ops += pattern_in_rect(c.pattern, x, y, w, h, ink=pattern_ink(c.colour), spacing=mm(2.2), width=0.9)
    r = min(h * 0.32, mm(4))
    cx, cy = x + mm(1.5) + r, y + h / 2
    ops.append(Circle(cx, cy, r, fill="#ffffff", stroke="ink", width=0.6))
    ops += art_or(
        ctx,
        "score_sheet",
        SHEET_ICON,
        cx,
        cy,
        r * 0.62,
        row_symbol(ctx, c.symbol, cx, cy, r * 0.62, ink_of(c.colour)),
        values={"colour": c.id},
        colour=ink_of(c.colour),
    )
    name = colour_name(ctx, c.id)
    px = cx + r + mm(1.2)
    pw = x + w - mm(1.2) - px
    size = fit_line(
        name, "bold", pw - mm(1.6), ctx.measure, size=mm(3.2), min_size=5, where=f"colour.{c.id} ({ctx.lang})"
    )
    ph = size * 1.5
    ops.append(Rect(px, cy - ph / 2, pw, ph, fill="#ffffff", stroke="ink", width=0.5, radius=ph / 2 * 0.6))
    ops.append(
        Text(
            px + pw / 2,
            cy - size * 0.36,
            name,
            size,
            font="bold",
            fill=ink_of(c.colour),
            anchor="middle",
            text_id=f"colour.{c.id}",
        )
    )
    ops.append(Rect(x, y, w, h, fill=None, stroke="ink", width=0.8))
    return ops


def _chevron(x: float, y: float, s: float, rising: bool, colour: str) -> Op:
    """'<' (rising: the next number is larger) or '>' between two circles."""
    if rising:
        pts = ((x + s / 2, y + s), (x - s / 2, y), (x + s / 2, y - s))
    else:
        pts = ((x - s / 2, y + s), (x + s / 2, y), (x - s / 2, y - s))
    return Polygon(pts, fill=None, stroke=colour, width=0.8, closed=False)


@dataclass(frozen=True)
class _SheetGrid:
    """Where a score sheet's parts lie, shared by its drawing steps (all lengths in points)."""

    pad: float
    """The sheet's inner margin."""
    band_w: float
    """Width of the colour bands left of the rows."""
    miss_w: float
    """Width of the miss track right of the rows (0 when the kit has no miss boxes)."""
    gx0: float
    """Left edge of the circle grid."""
    n: int
    """Circles per row."""
    rows: int
    """Number of rows (one per colour)."""
    cw: float
    """Width of a circle's column."""
    rh: float
    """Height of a row."""
    d: float
    """Diameter of a circle."""
    grid_top: float
    """Top edge of the first row."""
    sq: float
    """Side of a column's score box."""
    foot_h: float
    """Height kept for the footer text."""


def sheet_face(ctx: Context, w: float, h: float, variant: Any | None, index: int) -> Face:
    """One score sheet: patterned colour bands, rows of circles with the thick peak line, column numbers,
    a square score box under each column, the miss track (-1, -2, ...) and the total area."""
    fig = _figures(ctx.extras)
    peaks = tuple(variant.peaks) if variant is not None else tuple(fig["peaks"])
    box_values = fig["miss_box_values"]
    pad = mm(5)
    ops: list[Op] = [Rect(0, 0, w, h, fill="#ffffff", stroke="muted", width=0.4)]
    header, base, ts = _sheet_header(ctx, w, h, variant, pad)
    ops += header
    g = _sheet_grid(w, pad, base, ts, fig["row_length"], len(ctx.kit.game.colours), bool(box_values))
    ops += _circle_rows(ctx, g, peaks)
    ops += _column_score_boxes(ctx, g)
    if box_values:
        ops += _miss_track(ctx, g, w, box_values)
    totals, xs = _total_area(ctx, w, pad)
    ops += totals
    ops += _sheet_footer(ctx, g, xs - pad - mm(4))
    if variant is not None:  # the sorting code in the bottom-left corner, inside the 3 mm safe area
        ops.append(Text(pad, mm(3.15), variant.code, mm(2.12), fill="muted", role="fine"))
    return Face(f"sheet-{index}", w, h, tuple(ops), 0.0)


def _sheet_header(
    ctx: Context, w: float, h: float, variant: Any | None, pad: float
) -> tuple[list[Op], float, float]:
    """The header: title (or the logo art), variant code, name line; returns the ops, the baseline and the
    title's size."""
    t = ctx.texts
    ops: list[Op] = []
    title = t(ctx.kit.meta.title)
    ts = fit_line(
        title, "bold", w * 0.4, ctx.measure, size=mm(6.5), min_size=9, where=f"sheet title ({ctx.lang})"
    )
    base = h - pad - ts * 0.8
    logo = slot_art(ctx, "score_sheet", SHEET_LOGO, w, h)
    ops.append(
        logo
        if logo is not None
        else Text(pad, base, title, ts, font="bold", fill=INK_DARK, text_id=ctx.kit.meta.title)
    )
    tx = pad + ctx.measure(title, "bold", ts) + mm(4)
    if variant is not None:
        label = t("sheet.variant", code=variant.code)
        ops.append(Text(tx, base, label, mm(3.2), font="bold", fill="muted", text_id="sheet.variant"))
    name = t("sheet.name")
    ns = mm(3.4)
    nx = w * 0.58
    ops.append(Text(nx, base, name, ns, text_id="sheet.name"))
    ops.append(Line(nx + ctx.measure(name, "regular", ns) + mm(2), base - 1, w - pad, base - 1, width=0.6))
    return ops, base, ts


def _sheet_grid(w: float, pad: float, base: float, ts: float, n: int, rows: int, misses: bool) -> _SheetGrid:
    """The sheet's geometry: band | circles | miss track, the rows as tall as the page allows."""
    band_w = min(mm(30), w * 0.16)
    miss_w = mm(16) if misses else 0.0
    gx0 = pad + band_w + mm(2)
    gx1 = w - pad - miss_w - (mm(4) if miss_w else 0.0)
    cw = (gx1 - gx0) / n
    num_h = mm(5)
    foot_h = mm(17)
    top = base - ts * 0.5 - mm(3)
    avail = top - num_h - pad - foot_h
    rh = min(cw * 1.45, avail / (rows + 1.25))
    d = min(cw * 0.72, rh * 0.8)  # 0.28 cw between circles: room for a '<' with air on both sides
    grid_top = top - num_h
    sq = min(d * 1.02, mm(12))
    return _SheetGrid(pad, band_w, miss_w, gx0, n, rows, cw, rh, d, grid_top, sq, foot_h)


def _circle_rows(ctx: Context, g: _SheetGrid, peaks: tuple[int, ...]) -> list[Op]:
    """The column numbers, then every colour's row (band, circles, chevrons, peak line), then the frame."""
    ops: list[Op] = []
    for k in range(g.n):
        ops.append(
            Text(
                g.gx0 + (k + 0.5) * g.cw,
                g.grid_top + mm(1.3),
                str(k + 1),
                mm(3),
                font="bold",
                fill="muted",
                anchor="middle",
            )
        )
    for r, c in enumerate(ctx.kit.game.colours):
        ops += _circle_row(ctx, g, peaks, r, c)
    ops.append(
        Rect(g.gx0, g.grid_top - g.rows * g.rh, g.n * g.cw, g.rows * g.rh, fill=None, stroke="ink", width=1.0)
    )
    return ops


def _circle_row(ctx: Context, g: _SheetGrid, peaks: tuple[int, ...], r: int, c: Any) -> list[Op]:
    """Row r: its tint, its band, its circles with '<' / '>' between them and the thick peak line."""
    n, cw, rh, d, gx0 = g.n, g.cw, g.rh, g.d, g.gx0
    y = g.grid_top - (r + 1) * rh
    ops: list[Op] = [Rect(gx0, y, n * cw, rh, fill=lighten(c.colour, 0.82), stroke=None)]
    ops += _band(ctx, c, g.pad, y + rh * 0.06, g.band_w, rh * 0.88)
    cy = y + rh / 2
    for k in range(n):
        cx = gx0 + (k + 0.5) * cw
        ops.append(Circle(cx, cy, d / 2, fill="#ffffff", stroke=ink_of(c.colour), width=1.6))
        if k < n - 1 and k + 1 != peaks[r]:
            ops.append(
                _chevron(
                    gx0 + (k + 1) * cw,
                    cy,
                    min(mm(1.1), (cw - d) * 0.25),
                    k + 1 < peaks[r],
                    ink_of(c.colour),
                )
            )
    if peaks[r] < n:  # the thick peak line after circle peaks[r], with a small summit on top
        px = gx0 + peaks[r] * cw
        summit = r == 0 or peaks[r - 1] != peaks[r]  # a small summit where the line starts, inside its row
        head = mm(1.6) if summit else 0.0
        ops.append(Rect(px - mm(0.7), y + rh * 0.04, mm(1.4), rh * 0.92 - head, fill=INK_DARK, stroke=None))
        if summit:
            apex = y + rh * 0.96
            ops.append(
                Polygon(
                    ((px - mm(1.6), apex - head), (px + mm(1.6), apex - head), (px, apex)),
                    fill=INK_DARK,
                    stroke=None,
                )
            )
    return ops


def _column_score_boxes(ctx: Context, g: _SheetGrid) -> list[Op]:
    """A square score box under every column, labelled at the left."""
    sq = g.sq
    by = g.grid_top - g.rows * g.rh - mm(2) - sq
    ops: list[Op] = []
    for k in range(g.n):
        ops.append(
            Rect(g.gx0 + (k + 0.5) * g.cw - sq / 2, by, sq, sq, fill="#ffffff", stroke="ink", width=1.5)
        )
    lbl = ctx.texts("sheet.column_score")
    fitted = fit_block(
        lbl,
        "bold",
        g.band_w,
        sq,
        ctx.measure,
        size=mm(2.8),
        min_size=5,
        where=f"sheet.column_score ({ctx.lang})",
    )
    ops += block_ops(
        fitted,
        g.pad + g.band_w,
        by + sq / 2 + fitted.height / 2 + fitted.size * 0.1,
        font="bold",
        anchor="end",
        text_id="sheet.column_score",
    )
    return ops


def _miss_track(ctx: Context, g: _SheetGrid, w: float, box_values: Any) -> list[Op]:
    """The miss track, top to bottom at the right of the rows, in as many columns as a crossable box needs."""
    miss_w = g.miss_w
    mx0 = w - g.pad - miss_w
    ml = ctx.texts("sheet.misses")
    ms = fit_line(ml, "bold", miss_w, ctx.measure, size=mm(3), min_size=5, where=f"sheet.misses ({ctx.lang})")
    ops: list[Op] = [
        Text(
            mx0 + miss_w / 2,
            g.grid_top + mm(1.3),
            ml,
            ms,
            font="bold",
            anchor="middle",
            text_id="sheet.misses",
        )
    ]
    room = g.rows * g.rh + g.sq + mm(1.5)
    per_col = len(box_values)
    cols = 1
    while per_col * mm(7) > room and cols < 4:  # a box big enough to cross out
        cols += 1
        per_col = -(-len(box_values) // cols)
    pitch = room / per_col
    bs = min(pitch * 0.82, (miss_w - (cols - 1) * mm(1)) / cols, mm(9))
    # the labels keep 0.6 mm from the box's line: "−10" at 0.4 of a 6 mm box ran to 0.3 mm of it
    size = bs * 0.4
    widest = max((ctx.measure(f"−{value}", "regular", size) for value in box_values), default=0.0)
    if widest > bs - mm(1.2):  # not under the kit's floor: the layout check judges what that leaves
        size = max(size * (bs - mm(1.2)) / widest, min(size, ctx.kit.style.min_size.floor("fine")))
    for i, value in enumerate(box_values):
        col, k = divmod(i, per_col)
        bx = mx0 + (miss_w - cols * bs - (cols - 1) * mm(1)) / 2 + col * (bs + mm(1))
        byy = g.grid_top - (k + 1) * pitch + (pitch - bs) / 2
        ops.append(Rect(bx, byy, bs, bs, fill="#ffffff", stroke="ink", width=1.0, radius=mm(0.8)))
        ops.append(
            Text(
                bx + bs / 2,
                byy + bs / 2 - size * 0.35,
                f"−{value}",
                size,
                fill="muted",
                anchor="middle",
                role="fine",
            )
        )
    return ops


def _total_area(ctx: Context, w: float, pad: float) -> tuple[list[Op], float]:
    """Columns - misses = total, at the bottom right; returns the ops and the area's left edge."""
    fy = pad
    box_h = mm(9)
    parts = [("sheet.columns", 1.2), ("sheet.misses", 1.2), ("sheet.total", 2.2)]
    box_w = mm(20)
    xs = w - pad
    items: list[Op] = []
    for i, (tid, width) in enumerate(reversed(parts)):
        xs -= box_w
        items.append(Rect(xs, fy, box_w, box_h, fill="#ffffff", stroke="ink", width=width, radius=mm(1.2)))
        lab = ctx.texts(tid)
        ls = fit_line(
            lab, "bold", box_w + mm(2), ctx.measure, size=mm(2.8), min_size=5, where=f"{tid} ({ctx.lang})"
        )
        items.append(
            Text(xs + box_w / 2, fy + box_h + mm(1.2), lab, ls, font="bold", anchor="middle", text_id=tid)
        )
        if i < len(parts) - 1:
            sign = "=" if i == 0 else "−"
            items.append(
                Text(xs - mm(3), fy + box_h / 2 - mm(1.6), sign, mm(4.5), font="bold", anchor="middle")
            )
            xs -= mm(6)
    return items, xs


def _sheet_footer(ctx: Context, g: _SheetGrid, foot_w: float) -> list[Op]:
    """The footer states the column score and full-track readings the kit's house rules choose."""
    t = ctx.texts
    rules = ctx.kit.game.rules
    foot_ids = (f"sheet.footer.{rules.column_score}", f"sheet.footer.miss.{rules.miss_track_full}")
    foot = " ".join(t(i) for i in foot_ids)
    fitted = fit_block(
        foot,
        "regular",
        foot_w,
        g.foot_h - mm(2),
        ctx.measure,
        size=mm(2.6),
        min_size=ctx.kit.style.min_size.fine,
        where=f"sheet.footer ({ctx.lang})",
    )
    fy, box_h = g.pad, mm(9)  # the total area's boxes, under the footer
    ops: list[Op] = []
    ops += block_ops(
        fitted, g.pad, fy + box_h + mm(4.5), fill="muted", text_id="+".join(foot_ids), role="fine"
    )
    return ops


def compose_sheet(ctx: Context, cid: str) -> Component:
    """The score pad: per_page sheets per page; then every accepted generated variant with its code."""
    comp = ctx.kit.components[cid]
    per_page = comp.per_page or 2
    landscape = False if comp.landscape is None else comp.landscape
    w, h = sheet_slot(ctx.paper, per_page, landscape, ctx.print)
    one = sheet_face(ctx, w, h, None, 0)
    faces: list[Face] = [one] * (per_page * comp.copies)
    variants = [v for v in ctx.extras.get("variants", []) if getattr(v, "accepted", True)]
    faces += [sheet_face(ctx, w, h, v, i + 1) for i, v in enumerate(variants)]
    title = ctx.texts(comp.title)
    return Component(
        cid,
        title,
        impose_sheets(
            cid, faces, ctx.print, ctx.paper, per_page=per_page, landscape=landscape, bookmark=title
        ),
    )
