"""Peak Dice: score sheet pad, printable dice (cube nets and stickers for blank dice) and rules summary.

Every rule figure printed (circles per row, peak lines, miss boxes and their values, sums, examples, the
numbers of the rule texts) is read from `ctx.extras["figures"]`, what the game package's `print_data`
computed from the spec by the rules (figures.py); this module only draws them, with the spec's colours and
dice faces. Generated sheet variants arrive in `ctx.extras["variants"]` (the same print data)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.errors import LayoutError
from generator.layout.art import RULES_LOGO, Slot, art_or, slot_art
from generator.layout.compose import Builders, Component, Context, figures_of, summary_sheet
from generator.layout.imposition import impose_sheets, sheet_slot
from generator.layout.marks import MARK_GAP, RULER_THICKNESS, ruler
from generator.layout.ops import Circle, Face, Line, Op, Page, Polygon, Rect, Text
from generator.layout.patterns import pattern_in_rect, pattern_ink
from generator.layout.shapes import darken, lighten, symbol
from generator.layout.summary import paragraph, section, summary_faces
from generator.layout.text import block_ops, circle_text, fit_block, fit_line
from generator.units import mm, paper_size

INK_DARK = "#26203a"
WHITE_DIE = "#ffffff"
SYMBOL_SHAPES = {
    "▲": "triangle",
    "△": "triangle",
    "●": "circle",
    "○": "circle",
    "✚": "cross",
    "+": "cross",
    "◆": "diamond",
    "◇": "diamond",
    "♦": "diamond",
    "■": "square",
    "□": "square",
    "★": "star",
    "☆": "star",
    "♥": "heart",
    "♣": "club",
    "☀": "sun",
}
"""Glyphs a spec may give as a row symbol, drawn as shapes (the font has no dingbats)."""
DEFAULT_DIE_FACE = mm(16)


# ---------------------------------------------------------------- numbers for the rule texts
# Figures that follow from the rules (sum range, example row and column, miss penalties) come from the game
# package through the build (print_data()["figures"]): layout never restates a rule.

_figures = figures_of("peak_dice")


TEXT_FIGURES = (
    "rows",
    "others",
    "row_length",
    "circles_total",
    "peak_after",
    "peak_uniform",
    "falling",
    "dice_count",
    "coloured_dice",
    "white_dice",
    "mixed_dice",
    "rerolls",
    "players_min",
    "players_max",
    "sum_min",
    "sum_max",
    "miss_boxes",
    "miss_max",
    "miss_next",
    "example_column",
    "example_score",
)
"""The rule figures the rule texts may name, each passed through as figures.py computed it."""


_ICON = Slot(
    "icon",
    "sheet",
    (0.02, 0.7, 0.03, 0.03),
    ("colour",),
    "every row's colour symbol on the score sheet (on its white disc)",
)
_LOGO = Slot("logo", "sheet", (0.035, 0.925, 0.4, 0.05), (), "the kit's title in the header")
SLOTS: dict[str, tuple[Slot, ...]] = {
    "score_sheet": (_LOGO, _ICON),
    "rules": (RULES_LOGO,),
}
"""The art slots a kit may fill (components.<id>.art.<slot>); an empty slot keeps the drawing. Peak Dice has no
cards, so no back or background slot: dice faces keep their colour, pattern and pips (they carry the rules)."""


def template_context(game: Any, extras: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Numbers the rule templates may use: every one is a figure of the game package's print data
    (figures.py computes them from the spec by the rules); only their printed form is chosen here."""
    fig = _figures(extras)
    out = {k: fig[k] for k in TEXT_FIGURES}
    out["miss_examples"] = [f"−{k}" for k in fig["miss_examples"]]
    return out


# ---------------------------------------------------------------- helpers


def _colour_of(game: Any, cid: str) -> Any | None:
    for c in game.colours:
        if c.id == cid:
            return c
    return None


def colour_name(ctx: Context, cid: str) -> str:
    """The localized name of a colour id (the id itself when the catalog has no name)."""
    tid = f"colour.{cid}"
    return ctx.texts(tid) if ctx.texts.has(tid) else cid


def row_symbol(ctx: Context, glyph: str | None, cx: float, cy: float, r: float, fill: str) -> list[Op]:
    """A row's symbol: known glyphs drawn as shapes, any other glyph as text."""
    if not glyph:
        return []
    kind = SYMBOL_SHAPES.get(glyph)
    if kind is not None:
        return symbol(kind, cx, cy, r, fill=fill, stroke=None)
    return [Text(cx, cy - r * 0.7, glyph, r * 2, font="bold", fill=fill, anchor="middle")]


def _ink_of(colour: str) -> str:
    return darken(colour, 0.35)


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
        _ICON,
        cx,
        cy,
        r * 0.62,
        row_symbol(ctx, c.symbol, cx, cy, r * 0.62, _ink_of(c.colour)),
        values={"colour": c.id},
        colour=_ink_of(c.colour),
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
            fill=_ink_of(c.colour),
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


def sheet_face(ctx: Context, w: float, h: float, variant: Any | None, index: int) -> Face:
    """One score sheet: patterned colour bands, rows of circles with the thick peak line, column numbers,
    a square score box under each column, the miss track (-1, -2, ...) and the total area."""
    game = ctx.kit.game
    fig = _figures(ctx.extras)
    t = ctx.texts
    peaks = tuple(variant.peaks) if variant is not None else tuple(fig["peaks"])
    n, rows = fig["row_length"], len(game.colours)
    box_values = fig["miss_box_values"]
    pad = mm(5)
    ops: list[Op] = [Rect(0, 0, w, h, fill="#ffffff", stroke="muted", width=0.4)]
    # header: title, variant code, name line
    title = t(ctx.kit.meta.title)
    ts = fit_line(
        title, "bold", w * 0.4, ctx.measure, size=mm(6.5), min_size=9, where=f"sheet title ({ctx.lang})"
    )
    base = h - pad - ts * 0.8
    logo = slot_art(ctx, "score_sheet", _LOGO, w, h)
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
    # geometry: band | circles | miss track
    band_w = min(mm(30), w * 0.16)
    miss_w = mm(16) if box_values else 0.0
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
    # column numbers
    for k in range(n):
        ops.append(
            Text(
                gx0 + (k + 0.5) * cw,
                grid_top + mm(1.3),
                str(k + 1),
                mm(3),
                font="bold",
                fill="muted",
                anchor="middle",
            )
        )
    for r, c in enumerate(game.colours):
        y = grid_top - (r + 1) * rh
        ops.append(Rect(gx0, y, n * cw, rh, fill=lighten(c.colour, 0.82), stroke=None))
        ops += _band(ctx, c, pad, y + rh * 0.06, band_w, rh * 0.88)
        cy = y + rh / 2
        for k in range(n):
            cx = gx0 + (k + 0.5) * cw
            ops.append(Circle(cx, cy, d / 2, fill="#ffffff", stroke=_ink_of(c.colour), width=1.6))
            if k < n - 1 and k + 1 != peaks[r]:
                ops.append(
                    _chevron(
                        gx0 + (k + 1) * cw,
                        cy,
                        min(mm(1.1), (cw - d) * 0.25),
                        k + 1 < peaks[r],
                        _ink_of(c.colour),
                    )
                )
        if peaks[r] < n:  # the thick peak line after circle peaks[r], with a small summit on top
            px = gx0 + peaks[r] * cw
            summit = (
                r == 0 or peaks[r - 1] != peaks[r]
            )  # a small summit where the line starts, inside its row
            head = mm(1.6) if summit else 0.0
            ops.append(
                Rect(px - mm(0.7), y + rh * 0.04, mm(1.4), rh * 0.92 - head, fill=INK_DARK, stroke=None)
            )
            if summit:
                apex = y + rh * 0.96
                ops.append(
                    Polygon(
                        ((px - mm(1.6), apex - head), (px + mm(1.6), apex - head), (px, apex)),
                        fill=INK_DARK,
                        stroke=None,
                    )
                )
    ops.append(Rect(gx0, grid_top - rows * rh, n * cw, rows * rh, fill=None, stroke="ink", width=1.0))
    # a square score box under every column
    by = grid_top - rows * rh - mm(2) - sq
    for k in range(n):
        ops.append(Rect(gx0 + (k + 0.5) * cw - sq / 2, by, sq, sq, fill="#ffffff", stroke="ink", width=1.5))
    lbl = t("sheet.column_score")
    fitted = fit_block(
        lbl,
        "bold",
        band_w,
        sq,
        ctx.measure,
        size=mm(2.8),
        min_size=5,
        where=f"sheet.column_score ({ctx.lang})",
    )
    ops += block_ops(
        fitted,
        pad + band_w,
        by + sq / 2 + fitted.height / 2 + fitted.size * 0.1,
        font="bold",
        anchor="end",
        text_id="sheet.column_score",
    )
    # miss track, top to bottom at the right of the rows
    if box_values:
        mx0 = w - pad - miss_w
        ml = t("sheet.misses")
        ms = fit_line(
            ml, "bold", miss_w, ctx.measure, size=mm(3), min_size=5, where=f"sheet.misses ({ctx.lang})"
        )
        ops.append(
            Text(
                mx0 + miss_w / 2,
                grid_top + mm(1.3),
                ml,
                ms,
                font="bold",
                anchor="middle",
                text_id="sheet.misses",
            )
        )
        room = rows * rh + sq + mm(1.5)
        per_col = len(box_values)
        cols = 1
        while per_col * mm(7) > room and cols < 4:  # a box big enough to cross out
            cols += 1
            per_col = -(-len(box_values) // cols)
        pitch = room / per_col
        bs = min(pitch * 0.82, (miss_w - (cols - 1) * mm(1)) / cols, mm(9))
        for i, value in enumerate(box_values):
            col, k = divmod(i, per_col)
            bx = mx0 + (miss_w - cols * bs - (cols - 1) * mm(1)) / 2 + col * (bs + mm(1))
            byy = grid_top - (k + 1) * pitch + (pitch - bs) / 2
            ops.append(Rect(bx, byy, bs, bs, fill="#ffffff", stroke="ink", width=1.0, radius=mm(0.8)))
            ops.append(
                Text(
                    bx + bs / 2,
                    byy + bs / 2 - bs * 0.14,
                    f"−{value}",
                    bs * 0.4,
                    fill="muted",
                    anchor="middle",
                    role="fine",
                )
            )
    # total area: columns - misses = total, at the bottom right
    fy = pad
    box_h = mm(9)
    parts = [("sheet.columns", 1.2), ("sheet.misses", 1.2), ("sheet.total", 2.2)]
    box_w = mm(20)
    xs = w - pad
    items: list[Op] = []
    for i, (tid, width) in enumerate(reversed(parts)):
        xs -= box_w
        items.append(Rect(xs, fy, box_w, box_h, fill="#ffffff", stroke="ink", width=width, radius=mm(1.2)))
        lab = t(tid)
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
    ops += items
    foot_w = xs - pad - mm(4)
    # the sheet states the column score and full-track readings the kit's house rules choose
    rules = game.rules
    foot_ids = (f"sheet.footer.{rules.column_score}", f"sheet.footer.miss.{rules.miss_track_full}")
    foot = " ".join(t(i) for i in foot_ids)
    fitted = fit_block(
        foot,
        "regular",
        foot_w,
        foot_h - mm(2),
        ctx.measure,
        size=mm(2.6),
        min_size=ctx.kit.style.min_size.fine,
        where=f"sheet.footer ({ctx.lang})",
    )
    ops += block_ops(fitted, pad, fy + box_h + mm(4.5), fill="muted", text_id="+".join(foot_ids), role="fine")
    if variant is not None:  # the sorting code in the bottom-left corner, inside the 3 mm safe area
        ops.append(Text(pad, mm(3.15), variant.code, mm(2.12), fill="muted", role="fine"))
    return Face(f"sheet-{index}", w, h, tuple(ops), 0.0)


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
    (1-6) or a numeral; white faces are plain white with dark pips. The first op is the face's exact square."""
    game = ctx.kit.game
    c = _colour_of(game, colour_id)
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
        ink = _ink_of(c.colour)
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
    for face, (col, row) in zip(faces, NET_SLOTS):
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


# ---------------------------------------------------------------- rules summary


def _example_row_ops(ctx: Context, x: float, top: float, width: float) -> tuple[list[Op], float]:
    """The first row filled with a legal example: rising to the peak line, falling after it."""
    game = ctx.kit.game
    fig = _figures(ctx.extras)
    values = list(fig["example_row"])
    if not values:
        return [], top
    c = game.colours[0]
    n = fig["row_length"]
    cw = min(mm(9), width / n)
    d = cw * 0.82
    cy = top - cw / 2
    ops: list[Op] = [Rect(x, top - cw, n * cw, cw, fill=lighten(c.colour, 0.82), stroke="ink", width=0.6)]
    for k, v in enumerate(values):
        cx = x + (k + 0.5) * cw
        ops.append(Circle(cx, cy, d / 2, fill="#ffffff", stroke=_ink_of(c.colour), width=1.2))
        ops.append(circle_text(str(v), cx, cy, d / 2, ctx.measure, size=d * 0.5, stroke=1.2, fill=INK_DARK))
    peak = fig["peak_after"]
    if peak < n:
        px = x + peak * cw
        ops.append(Rect(px - mm(0.5), top - cw, mm(1), cw, fill=INK_DARK, stroke=None))
    return ops, top - cw - mm(3)


EXAMPLE_CELL = mm(8)
"""Side of a cell of the rules' worked column: its circles' two-digit numbers stay at the number floor."""


def _example_column_ops(ctx: Context, x: float, top: float) -> tuple[list[Op], float, float]:
    """The scoring example: one column of circles and the square holding its second lowest value."""
    game = ctx.kit.game
    fig = _figures(ctx.extras)
    values = list(fig["example_column"])
    cw = EXAMPLE_CELL
    ops: list[Op] = []
    for r, (c, v) in enumerate(zip(game.colours, values)):
        cy = top - (r + 0.5) * cw
        ops.append(Rect(x, top - (r + 1) * cw, cw, cw, fill=lighten(c.colour, 0.82), stroke="ink", width=0.4))
        ops.append(Circle(x + cw / 2, cy, cw * 0.4, fill="#ffffff", stroke=_ink_of(c.colour), width=1))
        ops.append(circle_text(str(v), x + cw / 2, cy, cw * 0.4, ctx.measure, size=cw * 0.4, stroke=1.0))
    score = fig["example_score"]
    sy = top - len(values) * cw - mm(1) - cw
    ops.append(Rect(x, sy, cw, cw, fill="#ffffff", stroke="ink", width=1.4))
    ops.append(Text(x + cw / 2, sy + cw * 0.3, str(score), cw * 0.45, font="bold", anchor="middle"))
    return ops, cw, sy


def _dice_legend(ctx: Context, x: float, top: float, width: float) -> tuple[list[Op], float]:
    """Every die as a small face in its colour and pattern with its name below."""
    game = ctx.kit.game
    s = mm(7)
    step = min(mm(17), width / max(1, len(game.dice)))
    ops: list[Op] = []
    for k, die in enumerate(game.dice):
        faces = die.expanded()
        fx = x + k * step + (step - s) / 2
        ops += die_face_ops(
            ctx,
            faces[0].colour,
            max(f.value for f in faces if f.value <= 6)
            if any(f.value <= 6 for f in faces)
            else faces[0].value,
            fx,
            top - s,
            s,
        )
        ops.append(Rect(fx, top - s, s, s, fill=None, stroke="ink", width=0.5))
        colours = {f.colour for f in faces}
        name = colour_name(ctx, faces[0].colour) if len(colours) == 1 else ctx.texts("dice.mixed")
        ns = fit_line(
            name,
            "regular",
            step - mm(1),
            ctx.measure,
            size=mm(2.4),
            min_size=ctx.kit.style.min_size.fine,
            where=f"colour name ({ctx.lang})",
        )
        ops.append(
            Text(x + k * step + step / 2, top - s - mm(1) - ns * 0.8, name, ns, anchor="middle", role="fine")
        )
    return ops, top - s - mm(5)


def rules_face(ctx: Context, w: float, h: float) -> list[Face]:
    """The rules summary, every figure from the spec (templates filled with template_context)."""
    return summary_faces(ctx, w, h, _rules_body, band=INK_DARK, logo=slot_art(ctx, "rules", RULES_LOGO, w, h))


def _rules_body(ctx: Context, pad: float, top: float, body_w: float, size: float) -> tuple[list[Op], float]:
    ops: list[Op] = []
    y = top
    rules = ctx.kit.game.rules  # each house-rule switch picks the paragraph that states its reading
    sections = [
        ("rules.dice.title", "rules.dice"),
        ("rules.turn.title", f"rules.turn.{rules.step_b}"),
        ("rules.write.title", "rules.write"),
        ("rules.score.title", f"rules.score.{rules.column_score}"),
        ("rules.miss.title", f"rules.miss.{rules.miss_track_full}"),
        ("rules.end.title", f"rules.end.{rules.final_turn_miss}"),
    ]
    if not _figures(ctx.extras)["peak_uniform"] or ctx.extras.get("variants"):
        sections.append(("rules.variants.title", "rules.variants"))
    for head_id, body_id in sections:
        text_w = body_w
        if body_id.startswith("rules.score."):  # a worked column beside the text
            col_ops, cw, low = _example_column_ops(
                ctx, pad + body_w - EXAMPLE_CELL, y - size * 1.12 * 1.45 + mm(1)
            )
            ops += col_ops
            text_w = body_w - cw - mm(4)
        drawn, y = section(ctx, head_id, body_id, pad, y, text_w, size, INK_DARK)
        ops += drawn
        if body_id.startswith("rules.score."):
            y = min(y, low - mm(2))
        if body_id == "rules.dice":
            legend, y = _dice_legend(ctx, pad, y - mm(1), body_w)
            ops += legend
        if body_id == "rules.write":
            row, y = _example_row_ops(ctx, pad, y, body_w)
            ops += row
        if body_id.startswith("rules.end."):  # the end's second switch: a sheet filled in step B
            tid = f"rules.end.sheet_full_in_b.{rules.sheet_full_in_b}"
            y += size * 0.6  # the paragraph continues the section above (section() left a gap under it)
            drawn, height = paragraph(ctx, tid, ctx.texts(tid), pad, y, body_w, size)
            ops += drawn
            y -= height + size * 0.6
    return ops, y


BUILDERS = Builders(
    "Peak Dice",
    {
        "score_sheet": compose_sheet,
        "dice_nets": compose_dice_nets,
        "dice_stickers": compose_dice_stickers,
        "rules": summary_sheet(rules_face),
    },
)
compose = BUILDERS.compose
component_ids = BUILDERS.component_ids


__all__ = ["compose", "template_context", "component_ids", "die_face_ops", "net_ops", "NET_SLOTS"]
