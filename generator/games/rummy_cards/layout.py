"""Rummy Cards: number cards and jokers with one back, the score pad, a fold-up three-tier card holder and the
rules summary. Every rule figure printed comes from the rules package (figures.py,
`ctx.extras["figures"]`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.errors import LayoutError
from generator.layout.art import FULL, RULES_LOGO, Slot, art_or, slot_art
from generator.layout.compose import Builders, Component, Context, figures_of, summary_sheet
from generator.layout.imposition import impose_cards, impose_sheets, sheet_slot
from generator.layout.ops import Circle, Face, Line, Op, Path, Place, Polygon, Rect, Text
from generator.layout.shapes import darken, lighten, symbol
from generator.layout.summary import section, summary_faces
from generator.layout.text import block_ops, fit_block, fit_line, number_ops, vertical_label
from generator.units import CARD_PRESETS, mm, to_mm

TABLE = "#0f4c5c"  # card back and headings: a deep teal, like a card table
JOKER_INK = "#5b2a86"
DASH_FOLD = (mm(2.2), mm(1.4))


_figures = figures_of("rummy_cards")


_BACK = Slot("back", "back", FULL, (), "the shared card back (teal field, ring of symbols, label)")
_BACKGROUND = Slot(
    "background", "front", FULL, ("colour", "number"), "a number card's colour frame and white field"
)
_ICON = Slot(
    "icon", "front", (0.2, 0.357, 0.6, 0.286), ("colour",), "every colour symbol (centre and corners)"
)
_JOKER = Slot("joker", "front", (0.2, 0.357, 0.6, 0.43), (), "the jester in the joker's centre")
_LOGO = Slot("logo", "sheet", (0.034, 0.94, 0.47, 0.036), (), "the kit's title in the header")
SLOTS: dict[str, tuple[Slot, ...]] = {
    "number_cards": (_BACK, _BACKGROUND, _ICON, _JOKER),
    "score_pad": (_LOGO,),
    "rules": (RULES_LOGO,),
}
"""The art slots a kit may fill (components.<id>.art.<slot>); an empty slot keeps the drawing."""


def template_context(game: Any, extras: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Numbers the rule templates may use: the rule figures from the rules package (figures.py, through the
    build's print data), the score pad's rows from its component spec."""
    return {**_figures(extras), "rounds": game.score_pad.rounds}


def _colour_id(ctx: Context, sym: str) -> str:
    """The id of the deck colour drawn with symbol `sym` (the corner index knows only the symbol)."""
    return next((c.id for c in ctx.kit.game.colours if c.symbol == sym), sym)


def _ink(colour: str) -> str:
    """A tone of a card colour dark enough for text on white (yellow becomes a deep amber)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    luma = 0.299 * r + 0.587 * g + 0.114 * b
    return darken(colour, 0.45) if luma > 150 else darken(colour, 0.1) if luma > 60 else colour


def colour_codes(game: Any) -> dict[str, str]:
    """A short, unique, upper-case code per colour id (the shortest common prefix length that is unique)."""
    ids = [c.id for c in game.colours]
    for k in range(1, max(len(i) for i in ids) + 1):
        codes = [i[:k].upper() for i in ids]
        if len(set(codes)) == len(codes):
            return dict(zip(ids, codes, strict=True))
    return {i: i.upper() for i in ids}


def card_code(prefix: str, n: int, copy: int) -> str:
    """The small code printed on every face so each is distinct: colour, number, copy ('BLA7-2')."""
    return f"{prefix}{n}-{copy}"


# ---------------------------------------------------------------- cards


def _number_ops(
    text: str, x: float, baseline: float, size: float, fill: str, ctx: Context, rotate: float = 0.0
) -> list[Op]:
    """A centred number; 6 and 9 underlined so they read the same upside down."""
    return number_ops(text, x, baseline, size, fill, ctx.measure, rotate=rotate)


INDEX_SIZE = mm(11.5)  # corner number: about 8 mm tall digits, readable in a holder at arm's length
INDEX_SYMBOL_R = mm(3.4)


def _corner_index(
    ctx: Context, text: str, sym: str | None, colour: str, ink: str, inset: float, w: float, h: float
) -> list[Op]:
    """Big number with the colour's symbol below it at top-left, the same upside down at bottom-right."""
    size = fit_line(
        text, "bold", mm(10.6), ctx.measure, size=INDEX_SIZE, min_size=mm(7), where=f"corner index {text}"
    )
    cx = inset + mm(6.6)
    base = (
        h - inset - mm(1.7) - INDEX_SIZE * 0.72
    )  # 1.7 mm: the digits stay inside a print shop's 1/8 in safe area
    sy = base - mm(2.0) - INDEX_SYMBOL_R
    ops: list[Op] = _number_ops(text, cx, base, size, ink, ctx)
    if sym:
        ops += art_or(
            ctx,
            "number_cards",
            _ICON,
            cx,
            sy,
            INDEX_SYMBOL_R,
            symbol(sym, cx, sy, INDEX_SYMBOL_R, fill=colour, stroke="ink", width=0.6),
            values={"colour": _colour_id(ctx, sym)},
            colour=colour,
        )
    # rotated 180 degrees about the card centre
    ops += _number_ops(text, w - cx, h - base, size, ink, ctx, rotate=180)
    if sym:
        ops += art_or(
            ctx,
            "number_cards",
            _ICON,
            w - cx,
            h - sy,
            INDEX_SYMBOL_R,
            symbol(sym, w - cx, h - sy, INDEX_SYMBOL_R, fill=colour, stroke="ink", width=0.6),
            values={"colour": _colour_id(ctx, sym)},
            colour=colour,
        )
    return ops


def number_face(
    ctx: Context, colour: Any, code: str, n: int, copy: int, w: float, h: float, bleed: float
) -> Face:
    """One number card: a colour frame to the bleed, white field, corner indices, big faded symbol and
    number."""
    col, ink = colour.colour, _ink(colour.colour)
    inset = mm(2.6)
    background = slot_art(
        ctx, "number_cards", _BACKGROUND, w, h, bleed=bleed, values={"colour": colour.id, "number": n}
    )
    ops: list[Op] = (
        [background]
        if background is not None
        else [
            Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=col, stroke=None),
            Rect(inset, inset, w - 2 * inset, h - 2 * inset, fill="#ffffff", stroke=None, radius=mm(2.5)),
        ]
    )
    icon = slot_art(  # pale whatever the kit's tint: the number prints across it
        ctx, "number_cards", _ICON, w, h, values={"colour": colour.id}, colour=lighten(col, 0.8), faded=True
    )
    ops.append(
        Place(
            0,
            0,
            tuple(
                [icon]
                if icon is not None
                else symbol(colour.symbol, w / 2, h / 2, w * 0.3, fill=lighten(col, 0.8), stroke=None)
            ),
            backdrop=True,
        )
    )  # the number sits across it
    text = str(n)
    size = fit_line(
        text, "bold", w * 0.5, ctx.measure, size=w * 0.42, min_size=20, where=f"number card {colour.id} {n}"
    )
    ops += _number_ops(text, w / 2, h / 2 - size * 0.36, size, ink, ctx)
    ops += _corner_index(ctx, text, colour.symbol, col, ink, inset, w, h)
    if ctx.print.print_ids:  # a small sorting id only when the spec asks for it (print.print_ids)
        ops.append(
            Text(inset + mm(2), inset + mm(1.6), card_code(code, n, copy), mm(2.2), fill="muted", role="fine")
        )
    return Face(f"{colour.id}-{n}-{copy}", w, h, tuple(ops), bleed)


def joker_mark(game: Any, cx: float, cy: float, r: float) -> list[Op]:
    """A jester: a three-pointed cap in the deck's colours with bells, over a smiling face (fits radius r)."""
    cols = [c.colour for c in game.colours] or ["#888888"]
    face_r = r * 0.42
    fy = cy - r * 0.38
    ops: list[Op] = []
    brim_y = fy + face_r * 0.7
    tips = [(cx - r * 0.92, cy + r * 0.55), (cx, cy + r * 0.95), (cx + r * 0.92, cy + r * 0.55)]
    left, right = cx - face_r * 1.25, cx + face_r * 1.25
    edges = [left, cx - face_r * 0.42, cx + face_r * 0.42, right]
    for i, tip in enumerate(tips):
        ops.append(
            Polygon(
                ((edges[i], brim_y), tip, (edges[i + 1], brim_y)),
                fill=cols[i % len(cols)],
                stroke="ink",
                width=r * 0.03,
            )
        )
    for i, (tx, ty) in enumerate(tips):
        ops.append(Circle(tx, ty, r * 0.09, fill=cols[(i + 3) % len(cols)], stroke="ink", width=r * 0.025))
    ops.append(Circle(cx, fy, face_r, fill="#fff3dc", stroke="ink", width=r * 0.035))
    ops.append(
        Rect(
            left,
            brim_y - r * 0.05,
            right - left,
            r * 0.12,
            fill=JOKER_INK,
            stroke="ink",
            width=r * 0.025,
            radius=r * 0.04,
        )
    )
    ops += [
        Circle(cx - face_r * 0.38, fy + face_r * 0.1, face_r * 0.1, fill="ink", stroke=None),
        Circle(cx + face_r * 0.38, fy + face_r * 0.1, face_r * 0.1, fill="ink", stroke=None),
    ]
    ops.append(
        Path(
            (
                ("M", cx - face_r * 0.5, fy - face_r * 0.25),
                (
                    "C",
                    cx - face_r * 0.3,
                    fy - face_r * 0.7,
                    cx + face_r * 0.3,
                    fy - face_r * 0.7,
                    cx + face_r * 0.5,
                    fy - face_r * 0.25,
                ),
            ),
            fill=None,
            stroke="ink",
            width=r * 0.04,
        )
    )
    # a ruff collar: alternating colour triangles under the face
    n = 6
    cy2 = fy - face_r * 0.95
    for i in range(n):
        x0 = cx - face_r * 1.2 + i * face_r * 2.4 / n
        ops.append(
            Polygon(
                (
                    (x0, cy2 + face_r * 0.1),
                    (x0 + face_r * 2.4 / n, cy2 + face_r * 0.1),
                    (x0 + face_r * 1.2 / n, cy2 - face_r * 0.45),
                ),
                fill=cols[i % len(cols)],
                stroke="ink",
                width=r * 0.02,
            )
        )
    return ops


def joker_face(ctx: Context, copy: int, w: float, h: float, bleed: float) -> Face:
    """A joker: a frame banded in every deck colour, the jester in the centre and in both corners, its name
    and penalty; language-independent code 'JK-n'."""
    game = ctx.kit.game
    cols = [c.colour for c in game.colours]
    band = (h + 2 * bleed) / len(cols)
    ops: list[Op] = [
        Rect(-bleed, -bleed + i * band, w + 2 * bleed, band + 0.01, fill=c, stroke=None)
        for i, c in enumerate(cols)
    ]
    inset = mm(2.6)
    ops.append(Rect(inset, inset, w - 2 * inset, h - 2 * inset, fill="#ffffff", stroke=None, radius=mm(2.5)))
    jester = slot_art(ctx, "number_cards", _JOKER, w, h)
    ops += [jester] if jester is not None else joker_mark(game, w / 2, h / 2 + mm(4), w * 0.3)
    for cx, cy, rot in (
        (inset + mm(6.2), h - inset - mm(7), 0.0),
        (w - inset - mm(6.2), inset + mm(7), 180.0),
    ):
        mini = joker_mark(game, 0, 0, mm(5.6))
        ops.append(Place(cx, cy, tuple(mini), rotate=rot))
    name = ctx.texts("joker.name")
    ns = fit_line(
        name,
        "bold",
        w - 2 * inset - mm(8),
        ctx.measure,
        size=mm(5),
        min_size=7,
        where=f"joker.name ({ctx.lang})",
    )
    ops.append(
        Text(w / 2, h * 0.24, name, ns, font="bold", fill=JOKER_INK, anchor="middle", text_id="joker.name")
    )
    val = ctx.texts("joker.value")
    # the line sits above the corner jesters (their tops are 15.2 mm up, the line's ink 16 mm): it may use
    # the width
    vs = fit_line(
        val,
        "regular",
        w - 2 * inset - mm(8),
        ctx.measure,
        size=mm(2.6),
        min_size=ctx.kit.style.min_size.body,
        where=f"joker.value ({ctx.lang})",
    )
    ops.append(Text(w / 2, h * 0.24 - mm(5), val, vs, anchor="middle", text_id="joker.value"))
    if ctx.print.print_ids:
        ops.append(Text(inset + mm(2), inset + mm(1.6), f"JK-{copy}", mm(2.2), fill="muted", role="fine"))
    return Face(f"joker-{copy}", w, h, tuple(ops), bleed)


def back_face(ctx: Context, w: float, h: float, bleed: float) -> Face:
    """The shared back: teal field, a ring of the colour symbols (point-symmetric), the localized title; the
    kit's `art.back` replaces all of it."""
    art = slot_art(ctx, "number_cards", _BACK, w, h, bleed=bleed)
    if art is not None:
        return Face("back", w, h, (art,), bleed)
    game = ctx.kit.game
    ops: list[Op] = [Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=TABLE, stroke=None)]
    inset = mm(3.5)
    ops.append(
        Rect(inset, inset, w - 2 * inset, h - 2 * inset, fill=None, stroke="#9fd3dc", width=1.2, radius=mm(3))
    )
    ops.append(
        Rect(
            inset + mm(1.5),
            inset + mm(1.5),
            w - 2 * inset - mm(3),
            h - 2 * inset - mm(3),
            fill=None,
            stroke="#5fa9b6",
            width=0.6,
            radius=mm(2),
        )
    )
    cols = list(game.colours)
    k = 2 * len(cols)
    rx, ry = w * 0.32, h * 0.3
    for i in range(k):
        a = math.radians(90 + 180 / k + 360 * i / k)  # none behind the label
        c = cols[i % len(cols)]
        ops += symbol(
            c.symbol,
            w / 2 + rx * math.cos(a),
            h / 2 + ry * math.sin(a),
            mm(4),
            fill=c.colour,
            stroke="#ffffff",
            width=0.8,
        )
    label = ctx.texts("cards.back")
    # The white box grows with the label (at least 0.6 w, at most to 3 mm inside the inner frame) and the
    # label is fitted to the box's inside: it was fitted to a wider width than the box, so "RUMMY CARDS" ran
    # past it.
    pad = mm(2)
    widest = w - 2 * inset - mm(6)
    box_w = min(max(w * 0.6, ctx.measure(label, "bold", mm(5)) + 2 * pad), widest)
    size = fit_line(
        label, "bold", box_w - 2 * pad, ctx.measure, size=mm(5), min_size=7, where=f"cards.back ({ctx.lang})"
    )
    ops.append(
        Rect(
            w / 2 - box_w / 2,
            h / 2 - size * 0.9,
            box_w,
            size * 1.8,
            fill="#ffffff",
            stroke=None,
            radius=size * 0.3,
        )
    )
    ops.append(
        Text(
            w / 2,
            h / 2 - size * 0.35,
            label,
            size,
            font="bold",
            fill=TABLE,
            anchor="middle",
            text_id="cards.back",
        )
    )
    return Face("back", w, h, tuple(ops), bleed)


def _card_size(ctx: Context, cid: str) -> tuple[float, float]:
    size = ctx.kit.components[cid].trim_size()
    return size if size else CARD_PRESETS["poker"]


def compose_number_cards(ctx: Context, cid: str) -> Component:
    """Every number card (colours x numbers x copies, copies adjacent) then the jokers, one shared back."""
    game = ctx.kit.game
    w, h = _card_size(ctx, cid)
    b = ctx.print.bleed
    codes = colour_codes(game)
    fronts = [
        number_face(ctx, c, codes[c.id], n, k, w, h, b)
        for c in game.colours
        for n in range(game.numbers.min, game.numbers.max + 1)
        for k in range(1, game.copies + 1)
    ]
    fronts += [joker_face(ctx, k, w, h, b) for k in range(1, game.jokers + 1)]
    back = back_face(ctx, w, h, b) if ctx.kit.components[cid].back else None
    title = ctx.texts(ctx.kit.components[cid].title)
    return Component(cid, title, impose_cards(cid, fronts, back, ctx.print, ctx.paper, bookmark=title))


# ---------------------------------------------------------------- score pad

PLUS_TINT = "#e6f4ea"
MINUS_TINT = "#fbe9e9"


def pad_face(ctx: Context, w: float, h: float) -> Face:
    """One score pad sheet: per player a name box over a + and a − column, a row per round, a check column
    (Σ+ = Σ−) per row, a Sum row and a Total row at the bottom, the scoring note as a footer."""
    game = ctx.kit.game
    t = ctx.texts
    players = game.score_pad.players
    rounds = game.score_pad.rounds
    pad = mm(5)
    ops: list[Op] = [Rect(0, 0, w, h, fill="#ffffff", stroke="muted", width=0.4)]
    title = t(ctx.kit.meta.title)
    ts = fit_line(
        title, "bold", w * 0.5, ctx.measure, size=mm(6), min_size=9, where=f"pad title ({ctx.lang})"
    )
    head = h - pad - ts - mm(3)  # the table's top: the logo stays in the header above it
    logo = slot_art(ctx, "score_pad", _LOGO, w, h, box=(pad, head + mm(1.5), w * 0.5 - pad, ts + mm(1.5)))
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
    xp = [x0 + round_w + i * cw for i in range(2 * players + 1)]
    xc = xp[-1]
    y_name = top - name_h
    y_sub = y_name - sub_h
    # header: round label, name boxes, check
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
    for p in range(players):
        x = xp[2 * p]
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
    # the rows
    for r in range(rows):
        y = y_sub - (r + 1) * rh
        last = r >= rounds
        label = str(r + 1) if not last else (sum_l if r == rounds else tot_l)
        lid = "" if not last else ("pad.sum" if r == rounds else "pad.total")
        ls = fit_line(
            label,
            "bold" if last else "regular",
            round_w - 2 * cell_pad,
            ctx.measure,
            size=min(rh * 0.45, mm(3.2)),
            min_size=3.5,
            where=f"{lid or 'round'} ({ctx.lang})",
        )
        ops.append(Rect(x0, y, round_w, rh, fill="#eef4f5", stroke="ink", width=0.6))
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
        for p in range(players):
            if r == rounds + 1:  # Total: one box per player (+ minus −)
                ops.append(Rect(xp[2 * p], y, 2 * cw, rh, fill="#ffffff", stroke="ink", width=1.6))
                continue
            for s, tint in enumerate((PLUS_TINT, MINUS_TINT)):
                ops.append(
                    Rect(
                        xp[2 * p + s],
                        y,
                        cw,
                        rh,
                        fill=tint if last else lighten(tint, 0.55),
                        stroke="ink",
                        width=1.0 if last else 0.5,
                    )
                )
        if r == rounds + 1:
            ops.append(Rect(xc, y, check_w, rh, fill="#eef4f5", stroke="ink", width=0.6))
            continue
        ops.append(Rect(xc, y, check_w, rh, fill="#ffffff", stroke="ink", width=1.0 if last else 0.5))
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
    # heavier lines between players and above the sums
    for p in range(players + 1):
        ops.append(Line(xp[2 * p], y_sub - rows * rh, xp[2 * p], top, stroke="ink", width=1.4))
    ops.append(Line(x0, y_sub - rounds * rh, xc + check_w, y_sub - rounds * rh, stroke="ink", width=1.6))
    ops.append(
        Rect(
            x0,
            y_sub - rows * rh,
            xc + check_w - x0,
            rows * rh + sub_h + name_h,
            fill=None,
            stroke="ink",
            width=1.4,
        )
    )
    foot = t("pad.footer")
    fitted = fit_block(
        foot,
        "regular",
        w - 2 * pad,
        foot_h - mm(4),
        ctx.measure,
        size=mm(2.6),
        min_size=ctx.kit.style.min_size.fine,
        where=f"pad.footer ({ctx.lang})",
    )
    ops += block_ops(fitted, pad, bottom - mm(3), fill="ink", text_id="pad.footer", role="fine")
    return Face("pad", w, h, tuple(ops), 0.0)


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


# ---------------------------------------------------------------- card holder


@dataclass(frozen=True)
class Holder:
    """A three-tier stand, cross-section first: `profile` runs from the front foot over the three card grooves
    and the flat top down the back wall to the back foot; x goes back, y up, in points."""

    profile: tuple[tuple[float, float], ...]
    grooves: tuple[int, ...]  # indices of the groove points in profile
    lean: float  # how far the risers (and the cards) lean back, degrees
    length: float  # the stand's length along the table
    tab: float  # glue tab width

    def segments(self) -> list[float]:
        """Lengths of the strip's panels, front to back."""
        return [math.dist(a, b) for a, b in zip(self.profile, self.profile[1:], strict=False)]

    def interior_angles(self) -> list[float]:
        """The angle inside the stand (below the strip) at each fold, degrees."""
        out = []
        for a, b, c in zip(self.profile, self.profile[1:], self.profile[2:], strict=False):
            a1 = math.atan2(a[1] - b[1], a[0] - b[0])
            a2 = math.atan2(c[1] - b[1], c[0] - b[0])
            out.append(math.degrees((a1 - a2) % (2 * math.pi)))
        return out


def holder_geometry(card_h: float, length: float) -> Holder:
    """The stand: grooves 25 mm apart in height so each tier's top-left corners show above the tier in
    front."""
    lean, slope = 10.0, 20.0
    tread, rise, foot = mm(13), mm(25), mm(5)
    back_rise, top = mm(24), mm(8)
    sl, cl = math.sin(math.radians(slope)), math.cos(math.radians(slope))
    tl = math.tan(math.radians(lean))
    pts = [(0.0, 0.0), (0.0, foot + tread * sl)]
    grooves = []
    x, y = pts[-1]
    for k in range(3):
        x, y = x + tread * cl, y - tread * sl
        pts.append((x, y))
        grooves.append(len(pts) - 1)
        up = rise + tread * sl if k < 2 else back_rise
        x, y = x + up * tl, y + up
        pts.append((x, y))
    x += top
    pts.append((x, y))
    pts.append((x, 0.0))
    return Holder(tuple(pts), tuple(grooves), lean, length, mm(8))


def holder_cards(card_w: float, length: float) -> int:
    """Cards one tier holds when each shows a 14 mm strip (the corner index) of the card in front of it."""
    return max(1, int((length - card_w) // mm(14)) + 1)


def _legend(ctx: Context, x: float, y: float, width: float) -> list[Op]:
    """cut (solid), fold (dashed), glue tab (grey), on one line starting at (x, y)."""
    ops: list[Op] = []
    size = mm(2.8)
    items = (
        ("holder.legend.cut", None, None),
        ("holder.legend.fold", DASH_FOLD, None),
        ("holder.legend.glue", None, "#dddddd"),
    )
    xx = x
    for tid, dash, fill in items:
        if fill:
            ops.append(Rect(xx, y - mm(1), mm(9), mm(3.5), fill=fill, stroke="cut", width=0.8))
        else:
            ops.append(Line(xx, y + mm(0.7), xx + mm(9), y + mm(0.7), stroke="cut", width=0.8, dash=dash))
        label = ctx.texts(tid)
        ops.append(Text(xx + mm(11), y, label, size, text_id=tid))
        xx += mm(11) + ctx.measure(label, "regular", size) + mm(6)
    if xx - x > width + mm(6):
        raise LayoutError(
            f"card holder legend ({ctx.lang}) is {to_mm(xx - x):.0f} mm wide; the page has "
            f"{to_mm(width):.0f} mm"
        )
    return ops


def _tab(x_edge: float, ya: float, yb: float, width: float, ins_a: float, ins_b: float, side: int) -> Polygon:
    """A trapezoid glue tab on a strip side edge (side -1 = left, +1 = right) between ya and yb."""
    xo = x_edge + side * width
    return Polygon(
        ((x_edge, ya), (xo, ya + ins_a), (xo, yb - ins_b), (x_edge, yb)),
        fill="#dddddd",
        stroke="cut",
        width=0.8,
    )


def strip_face(ctx: Context, w: float, h: float, holder: Holder) -> Face:
    """Page 1: the flat strip (panels front to back, top to bottom), fold lines dashed, tabs on both sides."""
    game = ctx.kit.game
    pad = mm(3)
    ops: list[Op] = []
    title = ctx.texts("holder.strip")
    ts = fit_line(
        title, "bold", w - 2 * pad, ctx.measure, size=mm(4.2), min_size=7, where=f"holder.strip ({ctx.lang})"
    )
    ops.append(
        Text(pad, h - pad - ts * 0.9, title, ts, font="bold", fill=TABLE, text_id="holder.strip")
    )  # ink rises to 0.88 em
    ops += _legend(ctx, pad, h - pad - ts - mm(5), w - 2 * pad)
    segs = holder.segments()
    total = sum(segs)
    y_top = h - pad - ts - mm(9)
    if total > y_top - pad:
        raise LayoutError(
            f"card holder: the strip is {to_mm(total):.0f} mm long; the page has {to_mm(y_top - pad):.0f} mm"
        )
    x0 = (w - holder.length) / 2
    x1 = x0 + holder.length
    if x0 - holder.tab < 0:
        raise LayoutError(
            f"card holder: {to_mm(holder.length):.0f} mm stand and tabs do not fit {to_mm(w):.0f} mm"
        )
    angles = holder.interior_angles()
    ys = [y_top]
    for s in segs:
        ys.append(ys[-1] - s)
    grooves = set(holder.grooves)
    for i, s in enumerate(segs):
        ya, yb = ys[i + 1], ys[i]  # panel i spans yb (top, nearer the front) down to ya
        # tier tints: the tread ending in groove k carries its tier's label
        if i + 1 in grooves:
            k = holder.grooves.index(i + 1)
            c = game.colours[k % len(game.colours)]
            ops.append(Rect(x0, ya, holder.length, s, fill=lighten(c.colour, 0.85), stroke=None))
            lab = ctx.texts("holder.tier", n=k + 1)
            ops.append(
                Text(
                    x0 + holder.length / 2,
                    ya + s / 2 - mm(1.2),
                    lab,
                    mm(3.2),
                    fill="ink",
                    anchor="middle",
                    text_id="holder.tier",
                )
            )
        if i == 0:
            lab = ctx.texts("holder.front")
            ops.append(
                Text(
                    x0 + holder.length / 2,
                    ya + s / 2 - mm(1.1),
                    lab,
                    mm(3),
                    fill="muted",
                    anchor="middle",
                    text_id="holder.front",
                )
            )

        # the tab's cut edges follow the bisector of the fold it meets (no overlap inside the stand)
        def inset(angle: float | None, tw: float) -> float:
            if angle is None or angle >= 180:
                return tw * 0.3
            return tw / math.tan(math.radians(angle / 2))

        a_top = angles[i - 1] if i > 0 else None
        a_bot = angles[i] if i < len(angles) else None
        tw = holder.tab
        while tw > mm(2) and inset(a_top, tw) + inset(a_bot, tw) > s - mm(1):
            tw -= mm(0.5)
        ia, ib = inset(a_bot, tw), inset(a_top, tw)
        ops.append(_tab(x0, ya, yb, tw, ia, ib, -1))
        ops.append(_tab(x1, ya, yb, tw, ia, ib, +1))
    for y in ys[1:-1]:
        ops.append(Line(x0, y, x1, y, stroke="cut", width=0.8, dash=DASH_FOLD))
    ops.append(Line(x0, ys[0], x1, ys[0], stroke="cut", width=0.8))
    ops.append(Line(x0, ys[-1], x1, ys[-1], stroke="cut", width=0.8))
    ops.append(Line(x0, ys[-1], x0, ys[0], stroke="cut", width=0.8, dash=DASH_FOLD))
    ops.append(Line(x1, ys[-1], x1, ys[0], stroke="cut", width=0.8, dash=DASH_FOLD))
    return Face("holder-strip", w, h, tuple(ops), 0.0)


def _side_view(ctx: Context, holder: Holder, card_h: float) -> tuple[list[Op], float, float]:
    """The stand's cross-section with a card standing in each groove; its width and height (1:1)."""
    game = ctx.kit.game
    ops: list[Op] = [Polygon(holder.profile, fill="#e8eef0", stroke="ink", width=1.0)]
    lean = math.radians(holder.lean)
    top = 0.0
    right = max(p[0] for p in holder.profile)
    for k, gi in enumerate(holder.grooves):
        gx, gy = holder.profile[gi]
        c = game.colours[k % len(game.colours)]
        th = mm(1.2)
        dx, dy = math.sin(lean) * card_h, math.cos(lean) * card_h
        nx, ny = -math.cos(lean) * th, math.sin(lean) * th
        ops.append(
            Polygon(
                ((gx, gy), (gx + dx, gy + dy), (gx + dx + nx, gy + dy + ny), (gx + nx, gy + ny)),
                fill=c.colour,
                stroke="ink",
                width=0.5,
            )
        )
        top = max(top, gy + dy)
        right = max(right, gx + dx)
    ops.append(Line(-mm(8), 0, right + mm(4), 0, stroke="muted", width=0.8))
    return ops, right, top


def plates_face(ctx: Context, w: float, h: float, holder: Holder, card_h: float, cards: int) -> Face:
    """Page 2: two side plates to cut, the side view as the assembly diagram, legend and numbered steps."""
    t = ctx.texts
    pad = mm(3)
    ops: list[Op] = []
    title = t("holder.title")
    ts = fit_line(
        title, "bold", w - 2 * pad, ctx.measure, size=mm(5), min_size=8, where=f"holder.title ({ctx.lang})"
    )
    ops.append(
        Text(pad, h - pad - ts * 0.9, title, ts, font="bold", fill=TABLE, text_id="holder.title")
    )  # CJK ink rises to 0.88 em
    y = h - pad - ts - mm(5)
    sub = t("holder.plates")
    ops.append(Text(pad, y - mm(3), sub, mm(3.4), font="bold", text_id="holder.plates"))
    pw = max(p[0] for p in holder.profile)
    ph = max(p[1] for p in holder.profile)
    py = y - mm(8) - ph
    for i in range(2):
        px = pad + mm(4) + i * (pw + mm(10))
        ops.append(
            Place(
                px,
                py,
                (
                    Polygon(holder.profile, fill="#ffffff", stroke="cut", width=0.8),
                    Text(0, -mm(4), "← " + t("holder.front"), mm(2.6), fill="muted", text_id="holder.front"),
                ),
            )
        )
    # the side view (the assembly diagram) to the right of the plates, as tall as the room allows
    view, vw, vh = _side_view(ctx, holder, card_h)
    room_x = pad + mm(4) + 2 * pw + mm(18)
    room_w = w - pad - room_x - mm(12)
    cap = t("holder.diagram")
    cfit = fit_block(
        cap,
        "bold",
        w - room_x - pad,
        mm(9),
        ctx.measure,
        size=mm(3.0),
        min_size=5,
        where=f"holder.diagram ({ctx.lang})",
    )
    ops += block_ops(cfit, room_x, y, font="bold", text_id="holder.diagram")
    scale = min(1.0, room_w / vw, mm(120) / vh)
    vx = room_x + mm(8)
    vtop = y - cfit.height - mm(3)
    vy = vtop - vh * scale
    ops.append(Place(vx, vy, tuple(view), scale=scale))
    lean = math.radians(holder.lean)
    for k, gi in enumerate(holder.grooves):
        gx, gy = holder.profile[gi]
        lab = t("holder.tier", n=k + 1)
        lx = vx + (gx + math.sin(lean) * card_h) * scale - mm(1.5)
        ly = vy + (gy + math.cos(lean) * card_h) * scale - mm(2)
        ops.append(Text(lx, ly, lab, mm(2.6), anchor="end", text_id="holder.tier"))
    ops.append(
        Text(
            vx - mm(8), vy - mm(4.5), "← " + t("holder.front"), mm(2.8), fill="muted", text_id="holder.front"
        )
    )
    py = min(py - mm(5), vy - mm(6))
    # legend and steps
    ly = py - mm(6)
    ops += _legend(ctx, pad, ly, w - 2 * pad)
    st = t("holder.steps.title")
    sy = ly - mm(8)
    ops.append(Text(pad, sy, st, mm(3.8), font="bold", fill=TABLE, text_id="holder.steps.title"))
    yy = sy - mm(3)
    size = mm(3.2)
    for i in range(1, 6):
        tid = f"holder.step{i}"
        text = t(tid, holder_cards=cards)
        fitted = fit_block(
            text,
            "regular",
            w - 2 * pad,
            max(yy - pad, 1.0),
            ctx.measure,
            size=size,
            min_size=5,
            where=f"{tid} ({ctx.lang})",
        )
        ops += block_ops(fitted, pad, yy, text_id=tid)
        yy -= fitted.height + mm(1.5)
    if yy < pad:
        raise LayoutError(f"card holder instructions ({ctx.lang}) run off the page")
    return Face("holder-plates", w, h, tuple(ops), 0.0)


def compose_card_holder(ctx: Context, cid: str) -> Component:
    """Two portrait pages per holder: the folding strip, then side plates, side view and instructions."""
    comp = ctx.kit.components[cid]
    w, h = sheet_slot(ctx.paper, 1, False, ctx.print)
    card_w, card_h = (
        _card_size(ctx, "number_cards") if "number_cards" in ctx.kit.components else CARD_PRESETS["poker"]
    )
    length = min(mm(170), w - 2 * mm(8) - mm(6))
    holder = holder_geometry(card_h, length)
    faces = [
        strip_face(ctx, w, h, holder),
        plates_face(ctx, w, h, holder, card_h, holder_cards(card_w, length)),
    ]
    title = ctx.texts(comp.title)
    return Component(
        cid,
        title,
        impose_sheets(
            cid, faces * comp.copies, ctx.print, ctx.paper, per_page=1, landscape=False, bookmark=title
        ),
    )


# ---------------------------------------------------------------- rules summary


def _mini_card(
    ctx: Context, x: float, y: float, w: float, h: float, colour: Any | None, n: int | None
) -> list[Op]:
    """A small picture of a card (or a joker when colour is None) for the meld examples."""
    game = ctx.kit.game
    if colour is None:
        return [
            Rect(x, y, w, h, fill="#ffffff", stroke="ink", width=0.6, radius=mm(0.8)),
            Place(x + w / 2, y + h * 0.45, tuple(joker_mark(game, 0, 0, w * 0.36))),
        ]
    ink = _ink(colour.colour)
    ops: list[Op] = [Rect(x, y, w, h, fill="#ffffff", stroke=colour.colour, width=1.4, radius=mm(0.8))]
    size = w * 0.55
    ops += _number_ops(str(n), x + w / 2, y + h * 0.48, size, ink, ctx)
    ops += symbol(
        colour.symbol, x + w / 2, y + h * 0.22, w * 0.17, fill=colour.colour, stroke="ink", width=0.4
    )
    return ops


def rules_face(ctx: Context, w: float, h: float) -> list[Face]:
    """The rules summary, every figure from the spec (templates filled with template_context)."""
    return summary_faces(ctx, w, h, _rules_body, band=TABLE, logo=slot_art(ctx, "rules", RULES_LOGO, w, h))


def _rules_body(ctx: Context, pad: float, top: float, body_w: float, size: float) -> tuple[list[Op], float]:
    t = ctx.texts
    game = ctx.kit.game
    ops: list[Op] = []
    y = top
    # the colours and their symbols
    xx = pad
    for c in game.colours:
        ops += symbol(
            c.symbol, xx + size * 0.6, y - size * 0.7, size * 0.6, fill=c.colour, stroke="ink", width=0.5
        )
        name = t(f"colour.{c.id}") if t.has(f"colour.{c.id}") else c.id
        ops.append(Text(xx + size * 1.5, y - size, name, size, text_id=f"colour.{c.id}"))
        xx += size * 2.5 + ctx.measure(name, "regular", size)
    y -= size * 2
    for head_id, body_ids in rules_sections(game):
        drawn, y = section(ctx, head_id, body_ids, pad, y, body_w, size, TABLE, gap=0.5)
        ops += drawn
        if body_ids[0] == "rules.melds":
            y = _meld_examples(ctx, ops, pad, y, size)
    return ops, y


def rules_sections(game: Any) -> list[tuple[str, list[str]]]:
    """The rules summary's sections: (heading id, paragraph ids), each house rule's sentences (the catalog
    entry of each setting) run on in one paragraph (a setting that changes nothing under the others prints
    nothing)."""
    r = game.rules
    initial = [f"rules.initial.{r.opening_turn}"]
    if r.opening_turn == "may_add_after_opening":
        initial.append(f"rules.initial.retrieval.{r.opening_retrieval}")
    exhausted = [
        f"rules.exhausted.end.{r.exhausted_end}",
        f"rules.exhausted.{r.exhausted_winner}.{r.exhausted_tie}",
        f"rules.exhausted.pay.{r.exhausted_below_winner}",
    ]
    if r.exhausted_tie == "share":
        exhausted.append(f"rules.exhausted.tie_pay.{r.exhausted_tie_pay}")
        if r.exhausted_tie_pay == "lowest_winner":
            exhausted.append(f"rules.exhausted.remainder.{r.exhausted_tie_remainder}")
    return [
        ("rules.setup.title", ["rules.setup"]),
        ("rules.turn.title", [f"rules.turn.{r.draw}"]),
        ("rules.melds.title", ["rules.melds"]),
        ("rules.initial.title", initial),
        ("rules.jokers.title", ["rules.jokers"]),
        ("rules.end.title", ["rules.end"]),
        ("rules.exhausted.title", exhausted),
    ]


def _meld_examples(ctx: Context, ops: list[Op], x: float, top: float, size: float) -> float:
    """A group (one number, different colours) and a run (one colour, consecutive, with a joker), drawn from
    the spec."""
    game = ctx.kit.game
    meld_min = int(_figures(ctx.extras)["meld_min"])
    cw, ch = size * 2.6, size * 3.4
    gap = size * 0.35
    cols = list(game.colours)
    n = min(game.numbers.max, game.numbers.min + 6)
    xx = x
    for c in cols[:meld_min]:
        ops += _mini_card(ctx, xx, top - ch, cw, ch, c, n)
        xx += cw + gap
    xx += cw
    run_col = cols[-1]
    start = game.numbers.min + 3 if game.numbers.max - game.numbers.min >= meld_min + 3 else game.numbers.min
    for i in range(meld_min + 1):
        if i == 2 and game.jokers:
            ops += _mini_card(ctx, xx, top - ch, cw, ch, None, None)
        else:
            ops += _mini_card(ctx, xx, top - ch, cw, ch, run_col, min(start + i, game.numbers.max))
        xx += cw + gap
    return top - ch - size * 0.8


BUILDERS = Builders(
    "Rummy Cards",
    {
        "number_cards": compose_number_cards,
        "score_pad": compose_score_pad,
        "card_holder": compose_card_holder,
        "rules": summary_sheet(rules_face),
    },
)
compose = BUILDERS.compose
component_ids = BUILDERS.component_ids


__all__ = ["compose", "template_context", "component_ids", "holder_geometry", "card_code", "colour_codes"]
