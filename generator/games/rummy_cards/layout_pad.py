"""Rummy Cards' score pad: per player a name box over a + and a − column, a row per round, a check
column per row, the Sum and Total rows and the scoring note."""

from __future__ import annotations

from dataclasses import dataclass

from generator.errors import LayoutError
from generator.games.rummy_cards.layout_style import TABLE
from generator.layout.art import Slot, slot_art
from generator.layout.compose import Component, Context
from generator.layout.imposition import impose_sheets, sheet_slot
from generator.layout.ops import Face, Line, Op, Rect, Text
from generator.layout.shapes import lighten
from generator.layout.text import block_ops, fit_block, fit_line, vertical_label
from generator.units import mm, to_mm

PAD_LOGO = Slot("logo", "sheet", (0.034, 0.94, 0.47, 0.036), (), "the kit's title in the header")


# ---------------------------------------------------------------- score pad

PLUS_TINT = "#e6f4ea"
MINUS_TINT = "#fbe9e9"


@dataclass(frozen=True)
class _PadGrid:
    """Where a score pad sheet's table lies, shared by its drawing steps (lengths in points)."""

    pad: float
    """The sheet's inner margin."""
    players: int
    """Players, each with a + and a − column."""
    rounds: int
    """Rounds, one row each."""
    rows: int
    """Rows under the header: the rounds, Sum and Total."""
    x0: float
    """Left edge of the table (the round column)."""
    xp: tuple[float, ...]
    """Left edges of the players' columns (two per player), then the check column's."""
    xc: float
    """Left edge of the check column."""
    round_w: float
    """Width of the round column."""
    check_w: float
    """Width of the check column."""
    cw: float
    """Width of a + or − column."""
    rh: float
    """Height of a row."""
    name_h: float
    """Height of the name boxes."""
    sub_h: float
    """Height of the + / − header cells."""
    top: float
    """Top edge of the table."""
    y_name: float
    """Bottom edge of the name boxes."""
    y_sub: float
    """Bottom edge of the + / − header cells (the top of the first row)."""
    bottom: float
    """Top edge of the footer."""
    foot_h: float
    """Height kept for the footer."""
    cell_pad: float
    """Room between a label and its cell's border."""
    sum_label: str
    """The Sum row's label."""
    total_label: str
    """The Total row's label."""


def pad_face(ctx: Context, w: float, h: float) -> Face:
    """One score pad sheet: per player a name box over a + and a − column, a row per round, a check column
    (Σ+ = Σ−) per row, a Sum row and a Total row at the bottom, the scoring note as a footer."""
    pad = mm(5)
    ops: list[Op] = [Rect(0, 0, w, h, fill="#ffffff", stroke="muted", width=0.4)]
    header, ts = _pad_header(ctx, w, h, pad)
    ops += header
    g = _pad_grid(ctx, w, h, pad, ts)
    ops += _pad_head_row(ctx, g)
    for r in range(g.rows):
        ops += _pad_row(ctx, g, r)
    ops += _pad_rules(g)
    ops += _pad_footer(ctx, g, w)
    return Face("pad", w, h, tuple(ops), 0.0)


def _pad_header(ctx: Context, w: float, h: float, pad: float) -> tuple[list[Op], float]:
    """The kit's title (or the logo art) and the component's name; returns the ops and the title's size."""
    t = ctx.texts
    ops: list[Op] = []
    title = t(ctx.kit.meta.title)
    ts = fit_line(
        title, "bold", w * 0.5, ctx.measure, size=mm(6), min_size=9, where=f"pad title ({ctx.lang})"
    )
    head = h - pad - ts - mm(3)  # the table's top: the logo stays in the header above it
    logo = slot_art(ctx, "score_pad", PAD_LOGO, w, h, box=(pad, head + mm(1.5), w * 0.5 - pad, ts + mm(1.5)))
    ops.append(
        logo
        if logo is not None
        else Text(pad, h - pad - ts * 0.8, title, ts, font="bold", fill=TABLE, text_id=ctx.kit.meta.title)
    )
    sub = t("component.score_pad")
    ops.append(
        Text(
            w - pad,
            h - pad - ts * 0.8,
            sub,
            mm(3.2),
            fill="muted",
            anchor="end",
            text_id="component.score_pad",
        )
    )
    return ops, ts


def _pad_grid(ctx: Context, w: float, h: float, pad: float, ts: float) -> _PadGrid:
    """The table's columns and rows, as large as the sheet allows (a LayoutError when too small)."""
    t = ctx.texts
    players = ctx.kit.game.score_pad.players
    rounds = ctx.kit.game.score_pad.rounds
    foot_h = mm(17)
    top = h - pad - ts - mm(3)
    bottom = pad + foot_h
    cell_pad = mm(1.5)  # room between a label and its cell's border
    sum_l, tot_l = t("pad.sum"), t("pad.total")
    round_w = max(mm(9), max(ctx.measure(lab, "bold", mm(3.2)) for lab in (sum_l, tot_l)) + 2 * cell_pad)
    check_w = mm(24)
    cw = (w - 2 * pad - round_w - check_w) / (2 * players)
    name_h, sub_h = mm(9), mm(6)
    rows = rounds + 2  # rounds, Sum, Total
    rh = (top - bottom - name_h - sub_h) / rows
    if rh < mm(6) or cw < mm(9):
        raise LayoutError(
            f"score pad ({ctx.lang}): {players} players x {rounds} rounds leave {to_mm(cw):.1f} mm columns "
            f"and {to_mm(rh):.1f} mm rows; use fewer rounds or one sheet per page"
        )
    x0 = pad
    xp = tuple(x0 + round_w + i * cw for i in range(2 * players + 1))
    y_name = top - name_h
    return _PadGrid(
        pad=pad,
        players=players,
        rounds=rounds,
        rows=rows,
        x0=x0,
        xp=xp,
        xc=xp[-1],
        round_w=round_w,
        check_w=check_w,
        cw=cw,
        rh=rh,
        name_h=name_h,
        sub_h=sub_h,
        top=top,
        y_name=y_name,
        y_sub=y_name - sub_h,
        bottom=bottom,
        foot_h=foot_h,
        cell_pad=cell_pad,
        sum_label=sum_l,
        total_label=tot_l,
    )


def _pad_head_row(ctx: Context, g: _PadGrid) -> list[Op]:
    """The table's header: the round label, every player's name box over + and −, the check column's head."""
    t = ctx.texts
    x0, round_w, name_h, sub_h, y_name, y_sub, cw = (
        g.x0,
        g.round_w,
        g.name_h,
        g.sub_h,
        g.y_name,
        g.y_sub,
        g.cw,
    )
    ops: list[Op] = []
    rl = t("pad.round")
    ops.append(Rect(x0, y_sub, round_w, name_h + sub_h, fill="#eef4f5", stroke="ink", width=0.6))
    ops += vertical_label(
        rl,
        x0 + round_w / 2,
        y_sub + (name_h + sub_h) / 2,
        mm(2.6),
        name_h + sub_h - mm(2),
        ctx.measure,
        font="bold",
        text_id="pad.round",
        where=f"pad.round ({ctx.lang})",
    )
    nl = t("pad.name")
    for p in range(g.players):
        x = g.xp[2 * p]
        ops.append(Rect(x, y_name, 2 * cw, name_h, fill="#ffffff", stroke="ink", width=1.0))
        ops.append(
            Text(
                x + mm(1),
                y_name + name_h - mm(2.6),
                f"{nl} {p + 1}",
                mm(2.2),
                fill="muted",
                text_id="pad.name",
                role="fine",
            )
        )
        for s, (mark, tint) in enumerate((("+", PLUS_TINT), ("−", MINUS_TINT))):
            xx = x + s * cw
            ops.append(Rect(xx, y_sub, cw, sub_h, fill=tint, stroke="ink", width=0.6))
            ops.append(
                Text(xx + cw / 2, y_sub + sub_h * 0.22, mark, sub_h * 0.75, font="bold", anchor="middle")
            )
    xc, check_w = g.xc, g.check_w
    cl = t("pad.check")
    cs = fit_line(
        cl, "bold", check_w - mm(2), ctx.measure, size=mm(3), min_size=4.5, where=f"pad.check ({ctx.lang})"
    )
    ops.append(Rect(xc, y_name, check_w, name_h, fill="#eef4f5", stroke="ink", width=0.6))
    ops.append(
        Text(
            xc + check_w / 2,
            y_name + name_h / 2 - cs * 0.35,
            cl,
            cs,
            font="bold",
            anchor="middle",
            text_id="pad.check",
        )
    )
    ops.append(Rect(xc, y_sub, check_w, sub_h, fill="#eef4f5", stroke="ink", width=0.6))
    ops.append(
        Text(xc + check_w / 2, y_sub + sub_h * 0.28, "Σ+ = Σ−", sub_h * 0.55, font="bold", anchor="middle")
    )
    return ops


def _pad_row(ctx: Context, g: _PadGrid, r: int) -> list[Op]:
    """Row r: a round (its number), the Sum row or the Total row (one box per player), with its check cell."""
    x0, round_w, rh, rounds = g.x0, g.round_w, g.rh, g.rounds
    y = g.y_sub - (r + 1) * rh
    last = r >= rounds
    label = str(r + 1) if not last else (g.sum_label if r == rounds else g.total_label)
    lid = "" if not last else ("pad.sum" if r == rounds else "pad.total")
    ls = fit_line(
        label,
        "bold" if last else "regular",
        round_w - 2 * g.cell_pad,
        ctx.measure,
        size=min(rh * 0.45, mm(3.2)),
        min_size=3.5,
        where=f"{lid or 'round'} ({ctx.lang})",
    )
    ops: list[Op] = [Rect(x0, y, round_w, rh, fill="#eef4f5", stroke="ink", width=0.6)]
    ops.append(
        Text(
            x0 + round_w / 2,
            y + rh / 2 - ls * 0.35,
            label,
            ls,
            font="bold" if last else "regular",
            fill="ink" if last else "muted",
            anchor="middle",
            text_id=lid,
        )
    )
    for p in range(g.players):
        if r == rounds + 1:  # Total: one box per player (+ minus −)
            ops.append(Rect(g.xp[2 * p], y, 2 * g.cw, rh, fill="#ffffff", stroke="ink", width=1.6))
            continue
        for s, tint in enumerate((PLUS_TINT, MINUS_TINT)):
            ops.append(
                Rect(
                    g.xp[2 * p + s],
                    y,
                    g.cw,
                    rh,
                    fill=tint if last else lighten(tint, 0.55),
                    stroke="ink",
                    width=1.0 if last else 0.5,
                )
            )
    return ops + _check_cell(g, y, last, r == rounds + 1)


def _check_cell(g: _PadGrid, y: float, last: bool, total: bool) -> list[Op]:
    """A row's check cell: two lines to write Σ+ and Σ− on with '=' between (plain on the Total row)."""
    xc, check_w, rh = g.xc, g.check_w, g.rh
    if total:
        return [Rect(xc, y, check_w, rh, fill="#eef4f5", stroke="ink", width=0.6)]
    ops: list[Op] = [Rect(xc, y, check_w, rh, fill="#ffffff", stroke="ink", width=1.0 if last else 0.5)]
    bw = (check_w - mm(5)) / 2
    ops.append(Line(xc + mm(1), y + rh * 0.22, xc + mm(1) + bw, y + rh * 0.22, stroke="muted", width=0.4))
    ops.append(
        Line(
            xc + check_w - mm(1) - bw,
            y + rh * 0.22,
            xc + check_w - mm(1),
            y + rh * 0.22,
            stroke="muted",
            width=0.4,
        )
    )
    ops.append(Text(xc + check_w / 2, y + rh * 0.3, "=", rh * 0.45, fill="muted", anchor="middle"))
    return ops


def _pad_rules(g: _PadGrid) -> list[Op]:
    """Heavier lines between players and above the sums, and the table's frame."""
    x0, xc, check_w, rh, y_sub = g.x0, g.xc, g.check_w, g.rh, g.y_sub
    ops: list[Op] = []
    for p in range(g.players + 1):
        ops.append(Line(g.xp[2 * p], y_sub - g.rows * rh, g.xp[2 * p], g.top, stroke="ink", width=1.4))
    ops.append(Line(x0, y_sub - g.rounds * rh, xc + check_w, y_sub - g.rounds * rh, stroke="ink", width=1.6))
    ops.append(
        Rect(
            x0,
            y_sub - g.rows * rh,
            xc + check_w - x0,
            g.rows * rh + g.sub_h + g.name_h,
            fill=None,
            stroke="ink",
            width=1.4,
        )
    )
    return ops


def _pad_footer(ctx: Context, g: _PadGrid, w: float) -> list[Op]:
    """The scoring note under the table."""
    foot = ctx.texts("pad.footer")
    fitted = fit_block(
        foot,
        "regular",
        w - 2 * g.pad,
        g.foot_h - mm(4),
        ctx.measure,
        size=mm(2.6),
        min_size=ctx.kit.style.min_size.fine,
        where=f"pad.footer ({ctx.lang})",
    )
    ops: list[Op] = []
    ops += block_ops(fitted, g.pad, g.bottom - mm(3), fill="ink", text_id="pad.footer", role="fine")
    return ops


def compose_score_pad(ctx: Context, cid: str) -> Component:
    """The score pad: per_page sheets per page (default 2 on A4 landscape), `copies` pages."""
    comp = ctx.kit.components[cid]
    per_page = comp.per_page or 2
    landscape = True if comp.landscape is None else comp.landscape
    w, h = sheet_slot(ctx.paper, per_page, landscape, ctx.print)
    face = pad_face(ctx, w, h)
    title = ctx.texts(comp.title)
    return Component(
        cid,
        title,
        impose_sheets(
            cid,
            [face] * (per_page * comp.copies),
            ctx.print,
            ctx.paper,
            per_page=per_page,
            landscape=landscape,
            bookmark=title,
        ),
    )
