"""Raindrops' boards: the window board (tiled onto strips on small paper) and the player boards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.games.raindrops import layout_art as art
from generator.games.raindrops.layout_style import (
    CELL,
    FRAME,
    GLASS,
    GOLD,
    SKY,
    STORM,
    TOP_GREEN,
    component_title,
    drop,
)
from generator.layout.art import Slot, slot_art
from generator.layout.compose import Component, Context, figures_of, sheet_component
from generator.layout.ops import Anchor, Circle, Face, Line, Op, Rect, Text
from generator.layout.shapes import symbol
from generator.layout.text import block_ops, fit_block, fit_line
from generator.layout.tiling import tile_face
from generator.units import mm

OVERLAP = mm(15)


_figures = figures_of("raindrops")


BOARD_LOGO = Slot("logo", "sheet", (0.035, 0.9, 0.45, 0.075), (), "the kit's title in the header")


# ---------------------------------------------------------------- boards


def _text_box(
    ctx: Context, tid: str, x: float, top: float, width: float, height: float, size: float, **kw: Any
) -> tuple[list[Op], float]:
    fitted = fit_block(
        ctx.texts(tid),
        kw.pop("font", "regular"),
        width,
        height,
        ctx.measure,
        size=size,
        min_size=min(size, 5.0),
        where=f"{tid} ({ctx.lang})",
    )
    ops: list[Op] = list(block_ops(fitted, x, top, text_id=tid, **kw))
    return ops, fitted.height


def _heading(
    ctx: Context,
    tid: str,
    x: float,
    y: float,
    width: float,
    size: float,
    fill: str = SKY,
    anchor: Anchor = "start",
) -> list[Op]:
    s = fit_line(
        ctx.texts(tid), "bold", width, ctx.measure, size=size, min_size=5, where=f"{tid} ({ctx.lang})"
    )
    return [Text(x, y, ctx.texts(tid), s, font="bold", fill=fill, anchor=anchor, text_id=tid)]


@dataclass(frozen=True)
class _Window:
    """Where the window board's parts lie, shared by its drawing steps (lengths in points)."""

    w: float
    """The board's width."""
    h: float
    """The board's height."""
    ncol: int
    """Columns of tile slots."""
    ntiles: int
    """Tile slots per column."""
    pitch: float
    """Width of a column."""
    slot_h: float
    """Height of a tile slot."""
    frame: float
    """Width of the window's frame."""
    panel: float
    """Least width of the side panels."""
    wx: float
    """Left edge of the window (its frame)."""
    wy: float
    """Bottom edge of the window (its frame)."""
    win_w: float
    """The window's width, frame included."""
    win_h: float
    """The window's height, frame included."""


def board_face(ctx: Context) -> Face:
    """The window board: columns of tile slots under the top green row, drop and refill reminders on the left,
    the bonus offer, thunder stack and cloud stacks on the right."""
    g = _window_geometry(ctx)
    ops: list[Op] = [Rect(0, 0, g.w, g.h, fill="#eef3f8", stroke="ink", width=1.0)]
    ops += _heading(ctx, ctx.kit.meta.title, mm(10), g.h - mm(17), mm(150), mm(11), fill=SKY)
    ops += _window(ctx, g)
    ops += _bottom_row(ctx, g)
    ops += _drop_panel(ctx, g)
    ops += _supply_panel(ctx, g)
    return Face("window_board", g.w, g.h, tuple(ops), 0.0)


def _window_geometry(ctx: Context) -> _Window:
    """The board's size: the window of columns in the middle, at least a panel's width on either side."""
    fig = _figures(ctx.extras)
    ncol, ntiles = fig["columns"], fig["tiles_per_column"]
    pitch, slot_h, frame = mm(24), 2 * CELL + mm(2), mm(8)
    win_w = ncol * pitch + 2 * frame
    win_h = CELL + ntiles * slot_h + 2 * frame
    panel = mm(100)
    w = max(mm(370), win_w + 2 * panel)
    h = max(mm(240), win_h + mm(36))
    wx = (w - win_w) / 2
    wy = h - mm(28) - win_h
    return _Window(w, h, ncol, ntiles, pitch, slot_h, frame, panel, wx, wy, win_w, win_h)


def _window(ctx: Context, g: _Window) -> list[Op]:
    """The window: its frame, the top green row and the columns of tile slots with their numbers."""
    pitch, slot_h, frame, ncol, ntiles = g.pitch, g.slot_h, g.frame, g.ncol, g.ntiles
    ops: list[Op] = [Rect(g.wx, g.wy, g.win_w, g.win_h, fill=FRAME, stroke="ink", width=1.2, radius=mm(3))]
    gx, gy = g.wx + frame, g.wy + frame
    top_row_y = gy + ntiles * slot_h
    ops.append(Rect(gx, top_row_y, ncol * pitch, CELL, fill=TOP_GREEN, stroke="ink", width=0.8))
    ops += _heading(
        ctx,
        "board.green_row",
        gx + ncol * pitch / 2,
        top_row_y + CELL * 0.4,
        ncol * pitch - mm(6),
        mm(4.5),
        fill="#ffffff",
        anchor="middle",
    )
    for c in range(ncol):
        x = gx + c * pitch
        ops.append(Rect(x, gy, pitch, ntiles * slot_h, fill=GLASS, stroke="ink", width=0.6))
        for t in range(ntiles):
            y = gy + t * slot_h + mm(1)
            ops.append(
                Rect(
                    x + (pitch - CELL) / 2,
                    y,
                    CELL,
                    2 * CELL,
                    fill=None,
                    stroke="#9ec5e8",
                    width=0.6,
                    dash=(2, 2),
                )
            )
            ops.append(
                Line(
                    x + (pitch - CELL) / 2 + mm(2),
                    y + CELL,
                    x + (pitch + CELL) / 2 - mm(2),
                    y + CELL,
                    stroke="#c5dcf0",
                    width=0.4,
                )
            )
        ops.append(
            Text(
                x + pitch / 2,
                gy - frame * 0.7,
                str(c + 1),
                mm(4),
                font="bold",
                fill="#ffffff",
                anchor="middle",
            )
        )
    return ops


def _bottom_row(ctx: Context, g: _Window) -> list[Op]:
    """The bottom row marked, with the thunder reminder right next to the window."""
    gx, gy = g.wx + g.frame, g.wy + g.frame
    by = gy + mm(1)
    ops: list[Op] = [
        Rect(
            gx - mm(1),
            by,
            g.ncol * g.pitch + mm(2),
            CELL,
            fill=None,
            stroke="#fab005",
            width=1.6,
            dash=(4, 2),
        )
    ]
    ops += art.bolt(g.wx + g.win_w + mm(7), by + CELL / 2, mm(6))
    ops += _heading(
        ctx,
        "board.bottom_row",
        g.wx + g.win_w + mm(14),
        by + CELL / 2 - mm(1.5),
        g.panel - mm(26),
        mm(4),
        fill=STORM,
    )
    return ops


def _drop_panel(ctx: Context, g: _Window) -> list[Op]:
    """The left panel: the drop rule with a diagram, wild drops, refill order."""
    ops: list[Op] = []
    lx, lw = mm(10), g.wx - mm(20)
    y = g.h - mm(32)
    ops += _heading(ctx, "board.drop.title", lx, y, lw, mm(5.5))
    y -= mm(4)
    body, used = _text_box(ctx, "board.drop", lx, y, lw, mm(40), mm(3.8))
    ops += body
    y -= used + mm(6)
    ops += _drop_diagram(ctx, lx + lw / 2, y - mm(22), mm(12))
    y -= mm(52)
    wild = next((t.b if len(t.b) > 1 else t.a for t in ctx.extras["bag"] if t.is_wild), None)
    if wild is not None:
        ops += drop(ctx, wild, lx + mm(7), y - mm(7), mm(6.5))
    body, used = _text_box(ctx, "board.wild", lx + mm(17), y, lw - mm(17), mm(24), mm(3.6))
    ops += body
    y -= max(used, mm(16)) + mm(6)
    ops += _heading(ctx, "board.refill.title", lx, y, lw, mm(5))
    y -= mm(4)
    body, used = _text_box(ctx, "board.refill", lx, y, lw, max(mm(12), y - mm(10)), mm(3.6))
    ops += body
    return ops


def _supply_panel(ctx: Context, g: _Window) -> list[Op]:
    """The right panel: the bonus offer, the thunder stack and the cloud stacks."""
    game = ctx.kit.game
    ops: list[Op] = []
    rx = g.wx + g.win_w + mm(7)
    rw = g.w - rx - mm(6)
    y = g.h - mm(32)
    ops += _heading(ctx, "board.bonus.title", rx, y, rw, mm(5.5))
    y -= mm(4)
    body, used = _text_box(ctx, "board.bonus", rx, y, rw, mm(20), mm(3.6))
    ops += body
    y -= used + mm(3)
    offer = _figures(ctx.extras)["bonus_offer"]
    step = min(CELL + mm(4), (rw - CELL - mm(1)) / max(1, offer - 1))
    for i in range(offer):
        ops.append(
            Rect(
                rx + i * step,
                y - CELL - mm(1),
                CELL + mm(1),
                CELL + mm(1),
                fill="#ffffff",
                stroke=GOLD,
                width=0.8,
                dash=(2, 2),
            )
        )
    y -= CELL + mm(9)
    ops += _heading(ctx, "board.thunder.title", rx, y, rw, mm(5.5))
    y -= mm(4)
    body, used = _text_box(ctx, "board.thunder", rx + mm(31), y, rw - mm(31), mm(30), mm(3.6))
    ops += body
    ops.append(Rect(rx, y - mm(27), mm(27), mm(27), fill=STORM, stroke="ink", width=0.8, radius=mm(2)))
    ops += art.bolt(rx + mm(13.5), y - mm(13.5), mm(9))
    y -= max(used, mm(27)) + mm(8)
    ops += _heading(ctx, "board.clouds.title", rx, y, rw, mm(5.5))
    y -= mm(3)
    size = min(
        mm(21), (rw - mm(3) * (len(game.cloud_tokens.types) - 1)) / max(1, len(game.cloud_tokens.types))
    )
    for i, t in enumerate(game.cloud_tokens.types):
        x = rx + i * (size + mm(3))
        ops.append(Rect(x, y - size, size, size, fill="#ffffff", stroke=GOLD, width=1.2, radius=mm(2)))
        ops += art.cloud_symbol(t.id, x + size / 2, y - size / 2, size * 0.33)
    return ops


def _drop_diagram(ctx: Context, cx: float, cy: float, cell: float) -> list[Op]:
    """Three rows of drops: from the middle of the top row a path may go straight or diagonally down, never
    sideways or up."""
    cols = list(ctx.kit.game.colours)
    path, others = cols[-1], cols[:-1] or cols
    o = [others[i % len(others)] for i in range(3)]
    rows = [
        [o[0], path, o[2]],
        [path, path, o[1]],
        [o[2], o[0], path],
    ]  # path: top middle, down, then diagonal
    ops: list[Op] = []
    for r, line in enumerate(rows):
        for c, col in enumerate(line):
            x, y = cx + (c - 1) * cell * 1.5, cy + (1 - r) * cell * 1.5
            ops.append(
                Rect(
                    x - cell * 0.7,
                    y - cell * 0.7,
                    cell * 1.4,
                    cell * 1.4,
                    fill="#ffffff",
                    stroke="#adb5bd",
                    width=0.5,
                )
            )
            ops += symbol(col.shape, x, y, cell * 0.45, fill=col.colour, stroke="ink", width=0.6)
    s = cell * 1.5
    ops += art.arrow(
        cx + s * 0.2, cy + s - cell * 0.3, cx + s * 0.2, cy + cell * 0.3, stroke="#2b8a3e", width=1.6
    )
    ops += art.arrow(
        cx + cell * 0.3,
        cy - cell * 0.3,
        cx + s - cell * 0.3,
        cy - s + cell * 0.3,
        stroke="#2b8a3e",
        width=1.6,
    )
    # forbidden: sideways, crossed out
    ops += art.arrow(
        cx - cell * 0.25, cy - cell * 0.05, cx - s + cell * 0.3, cy - cell * 0.05, stroke="#c92a2a", width=1.2
    )
    k = cell * 0.25
    mx = cx - s / 2
    ops += [
        Line(mx - k, cy - k, mx + k, cy + k, stroke="#c92a2a", width=1.6),
        Line(mx - k, cy + k, mx + k, cy - k, stroke="#c92a2a", width=1.6),
    ]
    return ops


def compose_window_board(ctx: Context, cid: str) -> Component:
    """The window board on one A3 sheet or overlapping A4/Letter strips with glue bands and alignment
    targets."""
    title = component_title(ctx, cid)
    face = board_face(ctx)
    pages = tile_face(
        face, ctx.paper, ctx.print, OVERLAP, glue_text=ctx.texts("tiling.glue"), label=title, bookmark=title
    )
    return Component(cid, title, pages)


def player_board_face(ctx: Context, w: float, h: float) -> Face:
    """A player board: the three special-action slots with icons, the reserve slots, the bonus reserve and the
    edge for completed cards."""
    pad = mm(6)
    ops = _player_header(ctx, w, h, pad)
    top = h - mm(18)
    actions, sy = _action_slots(ctx, w, pad, top)
    ops += actions
    ops += _reserve_slots(ctx, w, pad, top)
    ops += _bonus_reserve_and_edge(ctx, w, pad, sy)
    return Face("player-board", w, h, tuple(ops), 0.0)


def _player_header(ctx: Context, w: float, h: float, pad: float) -> list[Op]:
    """The board and its sky band with the kit's title (or the logo art) and the board's name."""
    ops: list[Op] = [Rect(0, 0, w, h, fill="#f4f8fc", stroke="ink", width=0.8, radius=mm(3))]
    ops.append(Rect(0, h - mm(13), w, mm(13), fill=SKY, stroke=None))
    logo = slot_art(ctx, "player_boards", BOARD_LOGO, w, h, box=(pad, h - mm(12), w * 0.45, mm(10)))
    ops += (
        [logo]
        if logo is not None
        else _heading(ctx, ctx.kit.meta.title, pad, h - mm(9), w * 0.45, mm(6), fill="#ffffff")
    )
    ops += _heading(ctx, "player.title", w - pad, h - mm(9), w * 0.45, mm(4.5), fill="#ffffff", anchor="end")
    return ops


def _action_slots(ctx: Context, w: float, pad: float, top: float) -> tuple[list[Op], float]:
    """The special actions, one slot each in the rules' order, and their note; returns the ops and the
    slots' bottom."""
    fig = _figures(ctx.extras)
    ops: list[Op] = []
    kinds = fig["special_slots"]
    ops += _heading(ctx, "player.actions", pad, top - mm(4), w * 0.6, mm(4.5))
    slot_w = (w * 0.62 - pad) / len(kinds)
    slot_h = mm(44)
    sy = top - mm(7) - slot_h
    for i, key in enumerate(kinds):
        x = pad + i * slot_w
        ops.append(
            Rect(x + mm(1), sy, slot_w - mm(2), slot_h, fill="#ffffff", stroke="ink", width=0.8, radius=mm(2))
        )
        ops.append(Circle(x + mm(5), sy + slot_h - mm(4.5), mm(3), fill=SKY, stroke=None))
        ops.append(
            Text(
                x + mm(5),
                sy + slot_h - mm(5.8),
                str(i + 1),
                mm(3.6),
                font="bold",
                fill="#ffffff",
                anchor="middle",
            )
        )
        ops += art.ACTION_ICONS[key](x + slot_w / 2, sy + slot_h - mm(15), mm(8))
        ops += _heading(
            ctx, f"player.{key}", x + slot_w / 2, sy + mm(14), slot_w - mm(4), mm(4.2), anchor="middle"
        )
        body, _ = _text_box(
            ctx, f"player.{key}.hint", x + mm(2.5), sy + mm(11), slot_w - mm(5), mm(10), mm(2.6)
        )
        ops += body
        if i + 1 == fig["action_start_slot"]:  # markers start here
            ops.append(
                Rect(
                    x + mm(0.2),
                    sy - mm(0.8),
                    slot_w - mm(0.4),
                    slot_h + mm(1.6),
                    fill=None,
                    stroke="#7b3fa0",
                    width=1.2,
                    dash=(3, 2),
                    radius=mm(2.5),
                )
            )
    body, used = _text_box(ctx, "player.actions.note", pad, sy - mm(2), w * 0.62 - pad, mm(12), mm(2.8))
    ops += body
    return ops, sy


def _reserve_slots(ctx: Context, w: float, pad: float, top: float) -> list[Op]:
    """The reserve: tile slots of the tile size, right of the actions."""
    ops: list[Op] = []
    rx = w * 0.66
    ops += _heading(ctx, "player.reserve", rx, top - mm(4), w - rx - pad, mm(4.2))
    for i in range(_figures(ctx.extras)["reserve_slots"]):
        x = rx + i * (CELL + mm(5))
        ops.append(
            Rect(
                x,
                top - mm(8) - 2 * CELL - mm(1),
                CELL + mm(1),
                2 * CELL + mm(1),
                fill="#ffffff",
                stroke="ink",
                width=0.8,
                dash=(3, 2),
                radius=mm(1),
            )
        )
        ops += symbol(
            "drop", x + CELL / 2 + mm(0.5), top - mm(8) - CELL - mm(0.5), mm(4), fill="#dee2e6", stroke=None
        )
    return ops


def _bonus_reserve_and_edge(ctx: Context, w: float, pad: float, sy: float) -> list[Op]:
    """The bonus reserve under the actions and the completed-cards edge along the bottom."""
    ops: list[Op] = []
    by = mm(16)
    bh = sy - mm(16) - by
    ops.append(
        Rect(pad, by, w - 2 * pad, bh, fill="#fff9db", stroke=GOLD, width=0.8, dash=(3, 2), radius=mm(2))
    )
    ops += _heading(ctx, "player.bonus", pad + mm(3), by + bh - mm(5.5), w * 0.7, mm(4))
    ops.append(Text(w - pad - mm(4), by + bh / 2 - mm(3), "∞", mm(9), font="bold", fill=GOLD, anchor="end"))
    ops.append(Rect(0, 0, w, mm(12), fill="#dde7f0", stroke=None))
    ops += art.arrow(pad + mm(4), mm(10), pad + mm(4), mm(2), width=1.4)
    ops += art.arrow(w - pad - mm(4), mm(10), w - pad - mm(4), mm(2), width=1.4)
    ops += _heading(ctx, "player.completed", w / 2, mm(4.5), w - 2 * pad - mm(16), mm(3.6), anchor="middle")
    return ops


def compose_player_boards(ctx: Context, cid: str) -> Component:
    """One board per player, per_page per page (default 2 on portrait paper), one shared face."""
    count = ctx.kit.game.player_boards * ctx.kit.components[cid].copies
    return sheet_component(ctx, cid, player_board_face, count=count, landscape=False)
