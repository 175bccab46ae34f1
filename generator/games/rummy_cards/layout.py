"""Rummy Cards: number cards and jokers with one back, the score pad, a fold-up three-tier card holder and the
rules summary. Every rule figure printed comes from the rules package (figures.py,
`ctx.extras["figures"]`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from generator.games.rummy_cards.layout_holder import compose_card_holder
from generator.games.rummy_cards.layout_pad import PAD_LOGO, compose_score_pad
from generator.games.rummy_cards.layout_style import JOKER_INK, TABLE, card_size
from generator.layout.art import FULL, RULES_LOGO, Slot, art_or, slot_art
from generator.layout.compose import Builders, Component, Context, figures_of, summary_sheet
from generator.layout.imposition import impose_cards
from generator.layout.ops import Circle, Face, Op, Path, Place, Polygon, Rect, Text
from generator.layout.shapes import darken, lighten, symbol
from generator.layout.summary import section, summary_faces
from generator.layout.text import fit_line, number_ops
from generator.units import mm

_figures = figures_of("rummy_cards")


_BACK = Slot("back", "back", FULL, (), "the shared card back (teal field, ring of symbols, label)")
_BACKGROUND = Slot(
    "background", "front", FULL, ("colour", "number"), "a number card's colour frame and white field"
)
_ICON = Slot(
    "icon", "front", (0.2, 0.357, 0.6, 0.286), ("colour",), "every colour symbol (centre and corners)"
)
_JOKER = Slot("joker", "front", (0.2, 0.357, 0.6, 0.43), (), "the jester in the joker's centre")
SLOTS: dict[str, tuple[Slot, ...]] = {
    "number_cards": (_BACK, _BACKGROUND, _ICON, _JOKER),
    "score_pad": (PAD_LOGO,),
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
    # the digits' caps reach about 0.72 em (the built-in bold's reach 0.81): 2.7 mm keeps their ink 1 mm and
    # more inside the panel and inside a print shop's 1/8 in safe area
    base = h - inset - mm(2.7) - INDEX_SIZE * 0.72
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


def compose_number_cards(ctx: Context, cid: str) -> Component:
    """Every number card (colours x numbers x copies, copies adjacent) then the jokers, one shared back."""
    game = ctx.kit.game
    w, h = card_size(ctx, cid)
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


__all__ = ["compose", "template_context", "component_ids", "card_code", "colour_codes"]
