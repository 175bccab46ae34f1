"""Peak Dice's printable dice: die faces (pips or numerals in the colour and pattern of a row), cube
nets and stickers for blank dice."""

from __future__ import annotations

from typing import Any

from generator.errors import LayoutError
from generator.games.peak_dice.layout_colours import (
    INK_DARK,
    WHITE_DIE,
    colour_name,
    colour_of,
    ink_of,
    row_symbol,
)
from generator.layout.compose import Component, Context
from generator.layout.marks import MARK_GAP, RULER_THICKNESS, ruler
from generator.layout.ops import Circle, Line, Op, Page, Polygon, Rect, Text
from generator.layout.patterns import pattern_in_rect, pattern_ink
from generator.layout.text import block_ops, fit_block, fit_line
from generator.units import mm, paper_size

DEFAULT_DIE_FACE = mm(16)


# ---------------------------------------------------------------- dice faces

PIPS = {
    1: ((0, 0),),
    2: ((-1, 1), (1, -1)),
    3: ((-1, 1), (0, 0), (1, -1)),
    4: ((-1, 1), (1, 1), (-1, -1), (1, -1)),
    5: ((-1, 1), (1, 1), (0, 0), (-1, -1), (1, -1)),
    6: ((-1, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (1, -1)),
}


def die_face_ops(ctx: Context, colour_id: str, value: int, x: float, y: float, s: float) -> list[Op]:
    """One die face of side s at (x, y): the colour with its pattern as a frame, a white centre with pips
    (1-6) or a numeral; white faces are plain white with dark pips. The first op is the face's exact
    square."""
    game = ctx.kit.game
    c = colour_of(game, colour_id)
    fill = c.colour if c is not None else WHITE_DIE
    ops: list[Op] = [Rect(x, y, s, s, fill=fill, stroke=None)]
    ink = INK_DARK
    if c is not None:
        ops += pattern_in_rect(
            c.pattern, x, y, s, s, ink=pattern_ink(c.colour), spacing=s * 0.12, width=s * 0.02
        )
        inset = s * 0.14
        ops.append(
            Rect(
                x + inset,
                y + inset,
                s - 2 * inset,
                s - 2 * inset,
                fill="#ffffff",
                stroke=None,
                radius=s * 0.12,
            )
        )
        ink = ink_of(c.colour)
    cx, cy = x + s / 2, y + s / 2
    if value in PIPS:
        off, pr = s * 0.235, s * 0.075
        for dx, dy in PIPS[value]:
            ops.append(Circle(cx + dx * off, cy + dy * off, pr, fill=ink, stroke=None))
    else:
        text = str(value)
        size = fit_line(
            text, "bold", s * 0.6, ctx.measure, size=s * 0.5, min_size=3, where=f"die face {value}"
        )
        ops.append(Text(cx, cy - size * 0.36, text, size, font="bold", fill=ink, anchor="middle"))
        if value in (6, 9, 66, 99, 68, 89, 86, 98):  # tell 6 from 9 when the die lies upside down
            uw = ctx.measure(text, "bold", size)
            ops.append(Rect(cx - uw / 2, cy - size * 0.48, uw, size * 0.06, fill=ink, stroke=None))
    if c is not None and c.symbol:  # a small symbol in the frame: the row it counts for, also in grey print
        ops += row_symbol(ctx, c.symbol, x + s * 0.07, y + s - s * 0.07, s * 0.055, "#ffffff")
    return ops


def die_label(ctx: Context, k: int, die: Any) -> str:
    """'Die 3 · red' (the colour of its faces, or 'mixed')."""
    colours = {f.colour for f in die.expanded()}
    cname = colour_name(ctx, next(iter(colours))) if len(colours) == 1 else ctx.texts("dice.mixed")
    return ctx.texts("dice.label", n=k, colour=cname)


def _die_size(ctx: Context, cid: str) -> float:
    size = ctx.kit.components[cid].trim_size() if cid in ctx.kit.components else None
    if size is None:
        return DEFAULT_DIE_FACE
    if abs(size[0] - size[1]) > 0.01:
        raise LayoutError(
            f"{ctx.kit.display}: components.{cid}.size: a die face is square; got "
            f"{size[0] / mm(1):.1f} x {size[1] / mm(1):.1f} mm"
        )
    return size[0]


# net: faces in a cross, (column, row) with row 0 at the top; face i of the die goes to NET_SLOTS[i], so faces
# (0, 5), (1, 4) and (2, 3) are opposite (a standard 1-6 die gets 1|6, 2|5, 3|4).
NET_SLOTS = ((1, 1), (1, 0), (0, 1), (2, 1), (1, 2), (1, 3))
# glue tabs: (column, row, side) for the 7 edges glued to another face
NET_TABS = (
    (0, 1, "top"),
    (0, 1, "bottom"),
    (0, 1, "left"),
    (2, 1, "top"),
    (2, 1, "bottom"),
    (2, 1, "right"),
    (1, 3, "bottom"),
)


def _tab(x: float, y: float, s: float, side: str, depth: float) -> tuple[tuple[float, float], ...]:
    """A trapezoid glue tab on one side of the face square at (x, y)."""
    k = depth * 0.9
    if side == "top":
        return ((x, y + s), (x + k, y + s + depth), (x + s - k, y + s + depth), (x + s, y + s))
    if side == "bottom":
        return ((x, y), (x + k, y - depth), (x + s - k, y - depth), (x + s, y))
    if side == "left":
        return ((x, y), (x - depth, y + k), (x - depth, y + s - k), (x, y + s))
    return ((x + s, y), (x + s + depth, y + k), (x + s + depth, y + s - k), (x + s, y + s))


def net_ops(ctx: Context, k: int, die: Any, x: float, y: float, s: float) -> list[Op]:
    """A cube net for one die, its bounding box's bottom-left at (x, y): 6 faces (each exactly s x s), glue
    tabs, solid cut outline, dashed fold lines, and the die's label in the free corner."""
    faces = die.expanded()
    if len(faces) != 6:
        raise LayoutError(
            f"{ctx.kit.display}: game.dice[{k - 1}]: a cube net needs 6 faces; this die has "
            f"{len(faces)} (disable dice_nets and print dice_stickers instead)"
        )
    depth = s * 0.35
    ox, oy = x + depth, y + depth  # (column 0, row 3) bottom-left corner

    def at(col: int, row: int) -> tuple[float, float]:
        return ox + col * s, oy + (3 - row) * s

    ops: list[Op] = []
    for col, row, side in NET_TABS:
        fx, fy = at(col, row)
        pts = _tab(fx, fy, s, side, depth)
        ops.append(Polygon(pts, fill="#eeeeee", stroke=None))
        ops.append(Polygon(pts, fill=None, stroke="ink", width=0.6, closed=False))  # cut; the base folds
    for face, (col, row) in zip(faces, NET_SLOTS, strict=False):
        fx, fy = at(col, row)
        ops += die_face_ops(ctx, face.colour, face.value, fx, fy, s)
    fold = (mm(1), mm(0.8))
    # fold lines: shared edges between faces, and every tab's base
    for col, row in ((1, 0), (1, 1), (1, 2)):  # horizontal edges in the column
        fx, fy = at(col, row)
        ops.append(Line(fx, fy, fx + s, fy, stroke="ink", width=0.5, dash=fold))
    for col in (1, 2):
        fx, fy = at(col, 1)
        ops.append(Line(fx, fy, fx, fy + s, stroke="ink", width=0.5, dash=fold))
    # cut outline: every face edge that is neither shared nor a tab base, solid
    cut = [
        ((1, 0), "top"),
        ((1, 0), "left"),
        ((1, 0), "right"),
        ((1, 2), "left"),
        ((1, 2), "right"),
        ((1, 3), "left"),
        ((1, 3), "right"),
    ]
    for (col, row), side in cut:
        fx, fy = at(col, row)
        seg = {
            "top": (fx, fy + s, fx + s, fy + s),
            "left": (fx, fy, fx, fy + s),
            "right": (fx + s, fy, fx + s, fy + s),
        }[side]
        ops.append(Line(*seg, stroke="ink", width=0.6))
    for col, row, side in NET_TABS:  # tab bases fold
        fx, fy = at(col, row)
        seg = {
            "top": (fx, fy + s, fx + s, fy + s),
            "bottom": (fx, fy, fx + s, fy),
            "left": (fx, fy, fx, fy + s),
            "right": (fx + s, fy, fx + s, fy + s),
        }[side]
        ops.append(Line(*seg, stroke="ink", width=0.5, dash=fold))
    label = die_label(ctx, k, die)
    lx, ly = at(0, 2)
    fitted = fit_block(
        label,
        "bold",
        s + depth - mm(3.5),
        s,
        ctx.measure,
        size=mm(2.6),
        min_size=4,
        where=f"dice.label ({ctx.lang})",
    )
    ops += block_ops(fitted, lx - depth + mm(0.5), ly + s - depth - mm(1), font="bold", text_id="dice.label")
    return ops


def _page_frame(
    ctx: Context, title: str, title_id: str, note: str, note_id: str, landscape: bool = False
) -> tuple[float, float, list[Op], tuple[float, float, float, float]]:
    """A page with its title and instructions at the top and the check ruler at the bottom; returns the page
    size, the ops and the free area (x0, y0, x1, y1) below the instructions."""
    pw, ph = paper_size(ctx.paper, landscape)
    m = ctx.print.margin + mm(3)
    ops: list[Op] = []
    ts = fit_line(
        title, "bold", pw - 2 * m, ctx.measure, size=mm(5.5), min_size=8, where=f"{title_id} ({ctx.lang})"
    )
    ops.append(Text(m, ph - m - ts * 0.8, title, ts, font="bold", fill=INK_DARK, text_id=title_id))
    fitted = fit_block(
        note,
        "regular",
        pw - 2 * m,
        mm(16),
        ctx.measure,
        size=mm(3),
        min_size=6,
        where=f"{note_id} ({ctx.lang})",
    )
    top = ph - m - ts * 1.3
    ops += block_ops(fitted, m, top, text_id=note_id)
    area_top = top - fitted.height - mm(4)
    bottom = ctx.print.margin
    if ctx.print.ruler:
        ops += ruler(m, ctx.print.margin)
        bottom += RULER_THICKNESS + MARK_GAP
    return pw, ph, ops, (m, bottom + mm(2), pw - m, area_top)


def compose_dice_nets(ctx: Context, cid: str) -> Component:
    """One cube net per die (faces from the spec's dice, each face exactly the component's size), as many
    per page as fit, every page with the check ruler."""
    game = ctx.kit.game
    comp = ctx.kit.components[cid]
    s = _die_size(ctx, cid)
    depth = s * 0.35
    nw, nh = 3 * s + 2 * depth, 4 * s + 2 * depth
    title = ctx.texts(comp.title)
    dice = [(k, die) for _ in range(comp.copies) for k, die in enumerate(game.dice, 1)]
    pages: list[Page] = []
    i = 0
    while i < len(dice):
        pw, ph, ops, (x0, y0, x1, y1) = _page_frame(
            ctx, title, comp.title, ctx.texts("nets.instructions"), "nets.instructions"
        )
        cols = max(1, int((x1 - x0 + mm(4)) // (nw + mm(4))))
        rows = max(1, int((y1 - y0 + mm(4)) // (nh + mm(4))))
        if nw > x1 - x0 or nh > y1 - y0:
            raise LayoutError(
                f"{ctx.kit.display}: components.{cid}.size: a net of {s / mm(1):.1f} mm faces "
                f"({nw / mm(1):.0f} x {nh / mm(1):.0f} mm) does not fit on {ctx.paper}"
            )
        gx = (x1 - x0 - cols * nw) / max(1, cols - 1) if cols > 1 else 0.0
        for slot in range(cols * rows):
            if i >= len(dice):
                break
            r, c = divmod(slot, cols)
            k, die = dice[i]
            ops += net_ops(ctx, k, die, x0 + c * (nw + gx), y1 - (r + 1) * nh - r * mm(4), s)
            i += 1
        pages.append(Page(pw, ph, ops, label=f"{cid} {len(pages) + 1}"))
    if pages:
        pages[0].bookmark = title
    return Component(cid, title, pages)


def compose_dice_stickers(ctx: Context, cid: str) -> Component:
    """Stickers for blank dice: one line per die, its faces as squares of the component's size with a thin
    cut outline around each."""
    game = ctx.kit.game
    comp = ctx.kit.components[cid]
    s = _die_size(ctx, cid)
    die_mm = _die_size(ctx, "dice_nets") / mm(1)
    title = ctx.texts(comp.title)
    note = ctx.texts("stickers.instructions", die_mm=f"{die_mm:g}", sticker_mm=f"{s / mm(1):g}")
    gap = mm(3)
    dice = [(k, die) for _ in range(comp.copies) for k, die in enumerate(game.dice, 1)]
    pages: list[Page] = []
    i = 0
    while i < len(dice):
        pw, ph, ops, (x0, y0, x1, y1) = _page_frame(ctx, title, comp.title, note, "stickers.instructions")
        label_w = mm(32)
        y = y1
        while i < len(dice) and y - s - mm(2) >= y0:
            k, die = dice[i]
            label = die_label(ctx, k, die)
            ls = fit_line(
                label,
                "bold",
                label_w - mm(2),
                ctx.measure,
                size=mm(3),
                min_size=5,
                where=f"dice.label ({ctx.lang})",
            )
            ops.append(Text(x0, y - s / 2 - ls * 0.36, label, ls, font="bold", text_id="dice.label"))
            x = x0 + label_w
            for face in die.expanded():
                if x + s > x1:
                    x = x0 + label_w
                    y -= s + gap
                ops += die_face_ops(ctx, face.colour, face.value, x, y - s, s)
                ops.append(Rect(x, y - s, s, s, fill=None, stroke="muted", width=0.3))
                x += s + gap
            y -= s + gap + mm(2)
            i += 1
        pages.append(Page(pw, ph, ops, label=f"{cid} {len(pages) + 1}"))
    if pages:
        pages[0].bookmark = title
    return Component(cid, title, pages)


__all__ = ["compose_dice_nets", "compose_dice_stickers", "die_face_ops", "net_ops", "NET_SLOTS"]
