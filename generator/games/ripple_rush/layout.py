"""Ripple Rush: number cards, card back, goal cards, score sheet pad and rules summary."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.errors import LayoutError
from generator.layout.art import FULL, RULES_LOGO, Slot, slot_art
from generator.layout.compose import Builders, Component, Context, figures_of, summary_sheet
from generator.layout.imposition import impose_cards, impose_sheets, sheet_slot
from generator.layout.ops import Circle, Face, Line, Op, Page, Place, Polygon, Rect, Text
from generator.layout.shapes import darken, inner_circle, lighten, symbol
from generator.layout.summary import section, summary_faces
from generator.layout.text import block_ops, circle_text, fit_block, fit_line, number_ops, vertical_label
from generator.units import CARD_PRESETS, mm

NAVY = "#1d2b4f"
HIGHLIGHT = "#ffd23f"


_figures = figures_of("ripple_rush")

_BACK = Slot("back", "back", FULL, (), "the card back (navy ripples and label)")
_BACKGROUND = Slot("background", "front", FULL, ("suit", "number"), "the card's frame and white field")
_ICON = Slot("icon", "front", (0.14, 0.243, 0.72, 0.514), ("suit",), "every suit symbol (centre and corners)")
_GOAL_ICON = Slot(
    "icon", "front", (0.27, 0.83, 0.06, 0.043), ("suit",), "the suit symbols over the sheet in miniature"
)
_SHEET_ICON = Slot(
    "icon",
    "sheet",
    (0.2, 0.86, 0.053, 0.038),
    ("suit",),
    "every suit symbol (column headers and suit bonuses)",
)
_LOGO = Slot("logo", "sheet", (0.044, 0.913, 0.5, 0.053), (), "the kit's title in the header")
_GOAL_BACKGROUND = Slot("background", "front", FULL, ("row",), "the card's navy frame and cream field")
SLOTS: dict[str, tuple[Slot, ...]] = {
    "number_cards": (_BACK, _BACKGROUND, _ICON),
    "goal_cards": (_BACK, _GOAL_BACKGROUND, _GOAL_ICON),
    "score_sheet": (_LOGO, _SHEET_ICON),
    "rules": (RULES_LOGO,),
}
"""The art slots a kit may fill (components.<id>.art.<slot>); an empty slot keeps the drawing."""


def suit_icon(
    ctx: Context,
    cid: str,
    suit: Any,
    cx: float,
    cy: float,
    r: float,
    *,
    fill: str,
    stroke: str | None = "ink",
    width: float = 0.5,
) -> list[Op]:
    """A suit's symbol, or the kit's icon art in the symbol's box when `art.icon` is filled (tinted in
    `fill`)."""
    art = slot_art(
        ctx, cid, _ICON, 0, 0, values={"suit": suit.id}, box=(cx - r, cy - r, 2 * r, 2 * r), colour=fill
    )
    if art is not None:
        return [art]
    return symbol(suit.symbol, cx, cy, r, fill=fill, stroke=stroke, width=width)


def template_context(game: Any, extras: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Numbers the rule templates may use: spec values as they are, and every figure that follows from the
    rules (deck size, cards dealt, goal cards, most goal points) from the rules package's print data."""
    fig = _figures(extras)
    return {
        "rows": game.rows,
        "suits": len(game.suits),
        # each suit's symbol inline in its colour (rich text, docs/text.md), in column order
        "suit_icons": " ".join(f"[{s.colour}]:{s.symbol}:[/]" for s in game.suits),
        "number_min": game.numbers.min,
        "number_max": game.numbers.max,
        "deck_total": fig["deck_total"],
        "cards_per_player": game.cards_per_player,
        "rounds": fig["rounds"],
        "players_min": game.players.min,
        "players_max": game.players.max,
        "deck_sizes": [tuple(pair) for pair in fig["deck_sizes"]],
        "goal_points": game.goals.points,
        "goals_revealed": game.goals.revealed,
        "goal_cards": fig["goal_cards"],
        "goal_max": fig["goal_max"],
    }


def _suit(game: Any, sid: str) -> Any:
    for s in game.suits:
        if s.id == sid:
            return s
    raise LayoutError(f"unknown suit {sid!r}")


def _ink_of(colour: str) -> str:
    """A darker tone of a suit colour for text on white (contrast)."""
    return darken(colour, 0.25)


# ---------------------------------------------------------------- cards


def number_face(
    ctx: Context, suit: Any, n: int, w: float, h: float, bleed: float, cid: str = "number_cards"
) -> Face:
    """One number card: colour frame to the bleed, big number, faded symbol, corner indices."""
    col = suit.colour
    inset = mm(3.5)
    background = slot_art(ctx, cid, _BACKGROUND, w, h, bleed=bleed, values={"suit": suit.id, "number": n})
    ops: list[Op] = (
        [background]
        if background is not None
        else [
            Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=col, stroke=None),
            Rect(inset, inset, w - 2 * inset, h - 2 * inset, fill="#ffffff", stroke=None, radius=mm(3)),
        ]
    )
    icon = slot_art(ctx, cid, _ICON, w, h, values={"suit": suit.id}, colour=lighten(col, 0.82))
    ops.append(
        Place(
            0,
            0,
            tuple(
                [icon]
                if icon is not None
                else symbol(suit.symbol, w / 2, h / 2, w * 0.36, fill=lighten(col, 0.82), stroke=None)
            ),
            backdrop=True,
        )
    )  # the number sits across it
    text = str(n)
    size = fit_line(
        text,
        "bold",
        w - 2 * inset - mm(8),
        ctx.measure,
        size=w * 0.46,
        min_size=20,
        where=f"number card {suit.id} {n}",
    )
    ops += number_ops(text, w / 2, h / 2 - size * 0.36, size, _ink_of(col), ctx.measure)
    ops += _corner(ctx, suit, text, inset, w, h, cid)
    return Face(f"{suit.id}-{n}", w, h, tuple(ops), bleed)


def _corner(ctx: Context, suit: Any, text: str, inset: float, w: float, h: float, cid: str) -> list[Op]:
    size = mm(6.2)
    x = inset + mm(2.2)
    top = h - inset - mm(1.5)
    ops: list[Op] = number_ops(
        text, x + size * 0.55, top - size * 0.85, size, _ink_of(suit.colour), ctx.measure
    )
    ops += suit_icon(
        ctx, cid, suit, x + size * 0.55, top - size * 1.55, size * 0.38, fill=suit.colour, width=0.5
    )
    # the same index upside down in the opposite corner (6 and 9 underlined like the centre number)
    ops += number_ops(
        text,
        w - x - size * 0.55,
        h - (top - size * 0.85),
        size,
        _ink_of(suit.colour),
        ctx.measure,
        rotate=180,
    )
    ops += suit_icon(
        ctx, cid, suit, w - x - size * 0.55, h - (top - size * 1.55), size * 0.38, fill=suit.colour, width=0.5
    )
    return ops


def back_face(
    ctx: Context, name: str, w: float, h: float, bleed: float, label_id: str, cid: str = ""
) -> Face:
    """A card back: navy field with ripples and the localized label; symmetric so flips do not matter. The
    kit's `art.back` replaces all of it."""
    art = slot_art(ctx, cid, _BACK, w, h, bleed=bleed)
    if art is not None:
        return Face(name, w, h, (art,), bleed)
    ops: list[Op] = [Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=NAVY, stroke=None)]
    inset = mm(3.5)
    ops.append(
        Rect(inset, inset, w - 2 * inset, h - 2 * inset, fill=None, stroke="#c9d6ff", width=1.2, radius=mm(3))
    )
    # the outer ring keeps 2 mm of navy between it and the frame (it touched the frame at 0.44 w)
    outer = min(w, h) / 2 - inset - 0.6 - 0.8 - mm(2)
    for i, r in enumerate((0.12, 0.2, 0.28, 0.36, 0.44)):
        ops.append(
            Circle(
                w / 2, h / 2, outer * r / 0.44, fill=None, stroke="#5b74b8" if i % 2 else "#8ea2dd", width=1.6
            )
        )
    label = ctx.texts(label_id)
    size = fit_line(
        label,
        "bold",
        w - 2 * inset - mm(6),
        ctx.measure,
        size=mm(5.5),
        min_size=7,
        where=f"{label_id} ({ctx.lang})",
    )
    ops.append(
        Rect(inset + mm(2), h / 2 - size * 0.9, w - 2 * inset - mm(4), size * 1.8, fill=NAVY, stroke=None)
    )
    ops.append(
        Text(
            w / 2,
            h / 2 - size * 0.35,
            label,
            size,
            font="bold",
            fill="#ffffff",
            anchor="middle",
            text_id=label_id,
        )
    )
    return Face(name, w, h, tuple(ops), bleed)


def _card_size(ctx: Context, cid: str) -> tuple[float, float]:
    size = ctx.kit.components[cid].trim_size()
    return size if size else CARD_PRESETS["poker"]


def _bleed(ctx: Context) -> float:
    return ctx.print.bleed


def compose_number_cards(ctx: Context, cid: str) -> Component:
    """Every number card of the box (the rules' deck: suits x numbers) and one shared back."""
    suits = ctx.kit.game.suits
    w, h = _card_size(ctx, cid)
    b = _bleed(ctx)
    fronts = [number_face(ctx, suits[s], n, w, h, b, cid) for s, n in _figures(ctx.extras)["deck"]]
    back = back_face(ctx, "number-back", w, h, b, "cards.back", cid) if ctx.kit.components[cid].back else None
    title = ctx.texts(ctx.kit.components[cid].title)
    return Component(cid, title, impose_cards(cid, fronts, back, ctx.print, ctx.paper, bookmark=title))


def mini_grid(
    ctx: Context, x: float, y: float, w: float, h: float, highlight_row: int | None, cid: str = "goal_cards"
) -> list[Op]:
    """A small picture of the sheet (rows x suits) with one row highlighted; row 1 is the top row."""
    game = ctx.kit.game
    cols, rows = len(game.suits), game.rows
    cw, rh = w / (cols + 1), h / rows
    ops: list[Op] = []
    for r in range(1, rows + 1):
        yy = y + h - r * rh
        hl = r == highlight_row
        ops.append(Rect(x, yy, cw, rh, fill=HIGHLIGHT if hl else "#eeeeee", stroke="ink", width=0.6))
        ops.append(Text(x + cw / 2, yy + rh * 0.3, str(r), rh * 0.55, font="bold", anchor="middle"))
        for c, s in enumerate(game.suits):
            xx = x + (c + 1) * cw
            ops.append(
                Rect(
                    xx,
                    yy,
                    cw,
                    rh,
                    fill=lighten(s.colour, 0.35) if hl else "#ffffff",
                    stroke="ink",
                    width=1.4 if hl else 0.5,
                )
            )
    for c, s in enumerate(game.suits):
        ops += suit_icon(
            ctx, cid, s, x + (c + 1.5) * cw, y + h + rh * 0.55, min(cw, rh) * 0.32, fill=s.colour, width=0.4
        )
    return ops


def goal_face(ctx: Context, row: int, w: float, h: float, bleed: float, cid: str = "goal_cards") -> Face:
    """Goal card for sheet row `row` (1 = top): the sheet in miniature with that row highlighted, its
    points."""
    game = ctx.kit.game
    inset = mm(3.5)
    background = slot_art(ctx, cid, _GOAL_BACKGROUND, w, h, bleed=bleed, values={"row": row})
    ops: list[Op] = (
        [background]
        if background is not None
        else [
            Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=NAVY, stroke=None),
            Rect(inset, inset, w - 2 * inset, h - 2 * inset, fill="#fffdf4", stroke=None, radius=mm(3)),
        ]
    )
    title = ctx.texts("goal.title")
    ts = fit_line(
        title,
        "bold",
        w - 2 * inset - mm(6),
        ctx.measure,
        size=mm(5),
        min_size=7,
        where=f"goal.title ({ctx.lang})",
    )
    ops.append(
        Text(
            w / 2, h - inset - mm(4) - ts * 0.8, title, ts, font="bold", anchor="middle", text_id="goal.title"
        )
    )
    gw, gh = w * 0.62, h * 0.5
    ops += mini_grid(ctx, (w - gw) / 2, h * 0.3, gw, gh, row, cid)
    desc = ctx.texts("goal.row", row=row)
    box_w = w - 2 * inset - mm(6)
    r = mm(5.5)
    bx, by = w - inset - r - mm(1.5), inset + r + mm(1.5)
    badge_top = by + r + 0.5 + mm(1)
    top = h * 0.25
    if ctx.measure(desc, "regular", mm(2.6)) <= box_w and top - mm(3.4) * 1.15 >= badge_top:
        # one line above the badge when it fits at a readable size
        ds = fit_line(
            desc,
            "regular",
            box_w,
            ctx.measure,
            size=mm(3.4),
            min_size=mm(2.6),
            where=f"goal.row ({ctx.lang})",
        )
        ops.append(Text(w / 2, top - ds, desc, ds, anchor="middle", text_id="goal.row"))
    else:  # a block beside the badge: its lines end 2 mm left of the circle, whatever their length
        left, right = inset + mm(2), bx - r - 0.5 - mm(2)
        # at its one size (3.4 mm: every goal card of a language reads alike) in no more lines than fit
        # between the block's top and the badge's lower edge (3 on a poker card): a longer text is a goal.row
        # error
        size, leading = max(mm(3.4), ctx.kit.style.min_size.body), 1.3
        lines = max(1, int((top - (by - r)) // (size * leading)))
        fitted = fit_block(
            desc,
            "regular",
            right - left,
            lines * size * leading,
            ctx.measure,
            size=size,
            min_size=size,
            leading=leading,
            where=f"goal.row ({ctx.lang}, at most {lines} lines)",
        )
        ops += block_ops(fitted, (left + right) / 2, top, anchor="middle", text_id="goal.row")
    ops.append(Circle(bx, by, r, fill=HIGHLIGHT, stroke="ink", width=1))
    pts = f"+{game.goals.points}"
    size = r * 0.7  # the digits keep a fifth of the radius from the ring
    ops.append(Text(bx, by - size * 0.36, pts, size, font="bold", anchor="middle"))
    return Face(f"goal-{row}", w, h, tuple(ops), bleed)


def compose_goal_cards(ctx: Context, cid: str) -> Component:
    """The goal cards (one per sheet row, rows counted from the top) and their shared back."""
    w, h = _card_size(ctx, cid)
    b = _bleed(ctx)
    fronts = [goal_face(ctx, r, w, h, b, cid) for r in range(1, _figures(ctx.extras)["goal_cards"] + 1)]
    back = back_face(ctx, "goal-back", w, h, b, "goal.back", cid) if ctx.kit.components[cid].back else None
    title = ctx.texts(ctx.kit.components[cid].title)
    return Component(cid, title, impose_cards(cid, fronts, back, ctx.print, ctx.paper, bookmark=title))


# ---------------------------------------------------------------- score sheet


def bonus_ops(
    ctx: Context, bonus: int | str, cx: float, cy: float, r: float, cid: str = "score_sheet"
) -> list[Op]:
    """A row bonus: a number in a circle, or the suit's symbol with a cross (write any number there)."""
    if isinstance(bonus, int):
        return [
            Circle(cx, cy, r, fill="#ffffff", stroke="ink", width=1.2),
            circle_text(str(bonus), cx, cy, r, ctx.measure, size=r * 1.05, stroke=1.2),
        ]
    s = _suit(ctx.kit.game, bonus)
    outline = 0.8
    ops = suit_icon(ctx, cid, s, cx, cy, r * 1.05, fill=s.colour, width=outline)
    # the cross sits on the symbol's inner circle, its stroke ends clear of the outline (a triangle's is
    # small)
    ix, iy, ir = inner_circle(s.symbol, cx, cy, r * 1.05)
    lw = min(r * 0.22, ir * 0.34)
    k = (ir - outline / 2 - lw / 2 - 0.4) / 2**0.5
    ops += [
        Line(ix - k, iy - k, ix + k, iy + k, stroke="#ffffff", width=lw),
        Line(ix - k, iy + k, ix + k, iy - k, stroke="#ffffff", width=lw),
    ]
    return ops


@dataclass(frozen=True)
class _SheetGrid:
    """Where a score sheet's grid lies, shared by its drawing steps (lengths in points)."""

    pad: float
    """The sheet's inner margin."""
    cols: int
    """Columns, one per suit."""
    rows: int
    """Rows of the grid."""
    label_w: float
    """Width of the row numbers' column."""
    bonus_w: float
    """Width of the bonus column."""
    left: float
    """Left edge of the suit columns."""
    cw: float
    """Width of a suit column."""
    rh: float
    """Height of a row."""
    header_h: float
    """Height of the suit headers."""
    grid_top: float
    """Top edge of the first row (the suit headers' bottom)."""


def sheet_face(ctx: Context, w: float, h: float, variant: Any | None, index: int) -> Face:
    """One score sheet: suit headers (colour and symbol), rows with bonuses at the left edge, run boxes,
    goal and total boxes. Numbers ascend from the bottom of a column to its top."""
    game = ctx.kit.game
    pad = mm(6)
    ops: list[Op] = [Rect(0, 0, w, h, fill="#ffffff", stroke="muted", width=0.4)]
    header, ts = _sheet_header(ctx, w, h, pad)
    ops += header
    bonuses = list(variant.bonuses) if variant is not None else list(game.bonuses)
    g = _sheet_grid(ctx, w, h, pad, ts)
    ops += _suit_headers(ctx, g)
    ops += _sheet_rows(ctx, g, bonuses)
    ops += _ascending_arrow(ctx, g)
    runs, by = _run_boxes(ctx, g)
    ops += runs
    ops += _goal_and_total(ctx, g, w, by)
    ops += _sheet_footer(ctx, w, pad, variant)
    return Face(f"sheet-{index}", w, h, tuple(ops), 0.0)


def _sheet_header(ctx: Context, w: float, h: float, pad: float) -> tuple[list[Op], float]:
    """The kit's title (or the logo art) and the name line; returns the ops and the title's size (with a
    logo, at least the depth its box reaches below the pad, less the grid's 4 mm, so the grid starts 1 mm
    below it: the box is a share of the face, the title a size in points)."""
    t = ctx.texts
    ops: list[Op] = []
    title = t(ctx.kit.meta.title)
    ts = fit_line(
        title, "bold", w * 0.55, ctx.measure, size=mm(7), min_size=9, where=f"sheet title ({ctx.lang})"
    )
    logo = slot_art(ctx, "score_sheet", _LOGO, w, h)
    ops.append(
        logo
        if logo is not None
        else Text(pad, h - pad - ts * 0.85, title, ts, font="bold", fill=NAVY, text_id=ctx.kit.meta.title)
    )
    name = t("sheet.name")
    ns = mm(3.4)
    nx = w * 0.6
    ops.append(Text(nx, h - pad - ts * 0.8, name, ns, text_id="sheet.name"))
    ops.append(
        Line(
            nx + ctx.measure(name, "regular", ns) + mm(2),
            h - pad - ts * 0.8 - 1,
            w - pad,
            h - pad - ts * 0.8 - 1,
            width=0.6,
        )
    )
    if logo is not None:
        ts = max(ts, h - pad - mm(4) - _LOGO.box_on(w, h)[1] + mm(1))
    return ops, ts


def _sheet_grid(ctx: Context, w: float, h: float, pad: float, ts: float) -> _SheetGrid:
    """The grid's geometry: row numbers | bonuses | a column per suit, the rows sharing the height left."""
    game = ctx.kit.game
    cols = len(game.suits)
    top = h - pad - ts - mm(4)
    foot = mm(41)
    header_h = mm(11)
    grid_h = top - header_h - foot
    rh = grid_h / game.rows
    label_w = mm(7)
    bonus_w = min(mm(16), rh * 1.25)
    left = pad + label_w + bonus_w
    cw = (w - pad - left - mm(9)) / cols
    grid_top = top - header_h
    return _SheetGrid(pad, cols, game.rows, label_w, bonus_w, left, cw, rh, header_h, grid_top)


def _suit_headers(ctx: Context, g: _SheetGrid) -> list[Op]:
    """Every suit's header (its colour and symbol) over its column, and the bonus column's header."""
    left, cw, grid_top, header_h = g.left, g.cw, g.grid_top, g.header_h
    ops: list[Op] = []
    for c, s in enumerate(ctx.kit.game.suits):
        x = left + c * cw
        ops.append(Rect(x, grid_top, cw, header_h, fill=s.colour, stroke="ink", width=0.8))
        ops += suit_icon(
            ctx,
            "score_sheet",
            s,
            x + cw / 2,
            grid_top + header_h / 2,
            header_h * 0.33,
            fill="#ffffff",
            width=0.8,
        )
    hdr = ctx.texts("sheet.bonus")
    hs = fit_line(
        hdr,
        "bold",
        g.bonus_w + g.label_w - mm(1),
        ctx.measure,
        size=mm(2.8),
        min_size=5,
        where=f"sheet.bonus ({ctx.lang})",
    )
    ops.append(
        Text(
            g.pad + (g.label_w + g.bonus_w) / 2,
            grid_top + header_h / 2 - hs * 0.35,
            hdr,
            hs,
            font="bold",
            anchor="middle",
            text_id="sheet.bonus",
        )
    )
    return ops


def _sheet_rows(ctx: Context, g: _SheetGrid, bonuses: list[Any]) -> list[Op]:
    """Every row: its number, its bonus and a tinted cell per suit; then the grid's frame."""
    pad, label_w, bonus_w, left, cw, rh = g.pad, g.label_w, g.bonus_w, g.left, g.cw, g.rh
    ops: list[Op] = []
    for r in range(1, g.rows + 1):
        y = g.grid_top - r * rh
        ops.append(
            Text(pad + label_w / 2, y + rh / 2 - rh * 0.14, str(r), rh * 0.36, fill="muted", anchor="middle")
        )
        ops += bonus_ops(
            ctx, bonuses[r - 1], pad + label_w + bonus_w / 2, y + rh / 2, min(bonus_w, rh) * 0.36
        )
        for c, s in enumerate(ctx.kit.game.suits):
            ops.append(Rect(left + c * cw, y, cw, rh, fill=lighten(s.colour, 0.9), stroke="ink", width=0.6))
    ops.append(
        Rect(left, g.grid_top - g.rows * rh, cw * g.cols, g.rows * rh, fill=None, stroke="ink", width=1.6)
    )
    return ops


def _ascending_arrow(ctx: Context, g: _SheetGrid) -> list[Op]:
    """The arrow right of the grid that says numbers ascend up a column, with its vertical label."""
    ax = g.left + g.cols * g.cw + mm(4.5)
    y0, y1 = g.grid_top - g.rows * g.rh + mm(2), g.grid_top - mm(6)
    ops: list[Op] = [Line(ax, y0, ax, y1, width=1.4)]
    ops.append(Polygon(((ax - mm(1.8), y1), (ax + mm(1.8), y1), (ax, y1 + mm(4))), fill="ink", stroke=None))
    asc = ctx.texts("sheet.ascending")
    ops += vertical_label(
        asc,
        ax + mm(3.6) - mm(2.6) * 0.36,
        (y0 + y1) / 2,
        mm(2.6),
        y1 - y0,
        ctx.measure,
        fill="muted",
        text_id="sheet.ascending",
        where=f"sheet.ascending ({ctx.lang})",
    )
    return ops


def _run_boxes(ctx: Context, g: _SheetGrid) -> tuple[list[Op], float]:
    """A run box under each column with its label at the left; returns the ops and the boxes' bottom."""
    by = g.grid_top - g.rows * g.rh - mm(3) - mm(10)
    lbl = ctx.texts("sheet.run")
    # two lines beside the run boxes when one would shrink under the body floor
    run = fit_block(
        lbl,
        "regular",
        g.label_w + g.bonus_w - mm(1),
        mm(10),
        ctx.measure,
        size=mm(2.6),
        min_size=ctx.kit.style.min_size.body,
        where=f"sheet.run ({ctx.lang})",
    )
    ops: list[Op] = []
    ops += block_ops(run, g.pad, by + mm(5) + run.height / 2, text_id="sheet.run")
    for c, s in enumerate(ctx.kit.game.suits):
        ops.append(
            Rect(
                g.left + c * g.cw + mm(2),
                by,
                g.cw - mm(4),
                mm(10),
                fill="#ffffff",
                stroke=s.colour,
                width=1.6,
                radius=mm(1.5),
            )
        )
    return ops, by


def _goal_and_total(ctx: Context, g: _SheetGrid, w: float, by: float) -> list[Op]:
    """The goals box (revealed goals x points) and the total box under the run boxes."""
    game = ctx.kit.game
    left = g.left
    ops: list[Op] = []
    gy = by - mm(14)
    bw = (w - g.pad - left) / 3
    for i, (tid, extra) in enumerate(
        (("sheet.goals", f"{game.goals.revealed} × {game.goals.points}"), ("sheet.total", ""))
    ):
        x = left + i * (bw + mm(4))
        label = ctx.texts(tid)
        lw = ctx.measure(label, "bold", mm(3))
        ops.append(Text(x, gy + mm(3.5), label, mm(3), font="bold", text_id=tid))
        ops.append(
            Rect(
                x + lw + mm(2),
                gy,
                bw - lw - mm(2),
                mm(10),
                fill="#ffffff",
                stroke="ink",
                width=1.2 + i,
                radius=mm(1.5),
            )
        )
        if extra:
            ops.append(
                Text(x + bw - mm(2), gy + mm(1.5), extra, mm(2.4), fill="muted", anchor="end", role="fine")
            )
    return ops


def _sheet_footer(ctx: Context, w: float, pad: float, variant: Any | None) -> list[Op]:
    """The footnote and, on a generated variant, its code at the bottom right."""
    foot_text = ctx.texts("sheet.footer")
    # the footnote keeps to the fine-print floor: 10.5 mm of room, clear of the variant code at the right
    code_w = ctx.measure(variant.code, "regular", mm(2.4)) + mm(3) if variant is not None else 0.0
    fitted = fit_block(
        foot_text,
        "regular",
        w - 2 * pad - code_w,
        mm(10.5),
        ctx.measure,
        size=mm(2.5),
        min_size=ctx.kit.style.min_size.fine,
        where=f"sheet.footer ({ctx.lang})",
    )
    ops: list[Op] = []
    ops += block_ops(fitted, pad, mm(13), fill="muted", text_id="sheet.footer", role="fine")
    if variant is not None:
        # baseline 3.3 mm up: the code's glyphs stay inside the 3 mm safe area
        ops.append(Text(w - pad, mm(3.3), variant.code, mm(2.4), fill="muted", anchor="end", role="fine"))
    return ops


def compose_sheet(ctx: Context, cid: str) -> Component:
    """The score pad: per_page sheets per page (default 2 on A4 landscape), variants if generated."""
    comp = ctx.kit.components[cid]
    per_page = comp.per_page or 2
    landscape = True if comp.landscape is None else comp.landscape
    w, h = sheet_slot(ctx.paper, per_page, landscape, ctx.print)
    variants = list(ctx.extras.get("variants", []))
    faces: list[Face] = []
    if variants:
        faces = [sheet_face(ctx, w, h, v, i) for i, v in enumerate(variants)]
    else:
        one = sheet_face(ctx, w, h, None, 0)
        faces = [one] * (per_page * comp.copies)
    title = ctx.texts(comp.title)
    return Component(
        cid,
        title,
        impose_sheets(
            cid, faces, ctx.print, ctx.paper, per_page=per_page, landscape=landscape, bookmark=title
        ),
    )


# ---------------------------------------------------------------- rules summary


def rules_face(ctx: Context, w: float, h: float) -> list[Face]:
    """The rules summary, every figure from the spec (templates filled with template_context)."""
    return summary_faces(ctx, w, h, _rules_body, band=NAVY, logo=slot_art(ctx, "rules", RULES_LOGO, w, h))


def _rules_body(ctx: Context, x: float, top: float, width: float, size: float) -> tuple[list[Op], float]:
    ops: list[Op] = []
    y = top
    rules = ctx.kit.game.rules  # each house-rule switch picks the paragraph that states its reading
    bodies = {
        "round": f"rules.round.{rules.announced_order}",
        "bonus": f"rules.bonus.{rules.x_bonus_numbers}",
    }
    for name in ("setup", "round", "write", "bonus", "end"):
        drawn, y = section(
            ctx, f"rules.{name}.title", bodies.get(name, f"rules.{name}"), x, y, width, size, NAVY, gap=0.7
        )
        ops += drawn
        if name == "setup":
            y = _deck_table(ctx, ops, x, y, width)
        if name == "bonus":
            y = _bonus_legend(ctx, ops, x, y)
    return ops, y


def _deck_table(ctx: Context, ops: list[Op], x: float, top: float, width: float) -> float:
    """Cards dealt per player count, as the rules deal them."""
    sizes = _figures(ctx.extras)["deck_sizes"]
    players = [p for p, _ in sizes]
    cw = min(mm(16), (width - mm(28)) / len(players))
    rh = mm(5.5)
    lab_p, lab_c = ctx.texts("rules.table.players"), ctx.texts("rules.table.cards")
    lw = max(ctx.measure(lab_p, "bold", mm(2.8)), ctx.measure(lab_c, "bold", mm(2.8))) + mm(3)
    for i, (lab, tid) in enumerate(((lab_p, "rules.table.players"), (lab_c, "rules.table.cards"))):
        yy = top - (i + 1) * rh
        ops.append(Rect(x, yy, lw, rh, fill="#eef1f8", stroke="ink", width=0.5))
        ops.append(Text(x + mm(1.5), yy + rh * 0.3, lab, mm(2.8), font="bold", text_id=tid))
        for j, p in enumerate(players):
            val = str(p) if i == 0 else str(sizes[j][1])
            ops.append(Rect(x + lw + j * cw, yy, cw, rh, fill="#ffffff", stroke="ink", width=0.5))
            ops.append(Text(x + lw + j * cw + cw / 2, yy + rh * 0.3, val, mm(2.8), anchor="middle"))
    return top - 2 * rh - mm(3)


def _bonus_legend(ctx: Context, ops: list[Op], x: float, top: float) -> float:
    game = ctx.kit.game
    r = mm(3.5)  # the numbers in the legend's circles stay at the number floor
    xx = x
    for b in game.bonuses:
        ops += bonus_ops(ctx, b, xx + r, top - r - mm(1), r)
        xx += 2 * r + mm(2.5)
    return top - 2 * r - mm(4)


BUILDERS = Builders(
    "Ripple Rush",
    {
        "score_sheet": compose_sheet,
        "number_cards": compose_number_cards,
        "goal_cards": compose_goal_cards,
        "rules": summary_sheet(rules_face),
    },
)
compose = BUILDERS.compose
component_ids = BUILDERS.component_ids


__all__ = ["compose", "template_context", "component_ids", "Page"]
