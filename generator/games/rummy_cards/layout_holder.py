"""Rummy Cards' fold-up three-tier card holder: its geometry, the folding strip and the page of side
plates, side view and assembly steps."""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.errors import LayoutError
from generator.games.rummy_cards.layout_style import DASH_FOLD, TABLE, card_size
from generator.layout.compose import Component, Context
from generator.layout.imposition import impose_sheets, sheet_slot
from generator.layout.ops import Face, Line, Op, Place, Polygon, Rect, Text
from generator.layout.shapes import lighten
from generator.layout.text import block_ops, fit_block, fit_line
from generator.units import CARD_PRESETS, mm, to_mm

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
    pad = mm(3)
    ops, ts = _strip_title(ctx, w, h, pad)
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
    for i, s in enumerate(segs):
        ya, yb = ys[i + 1], ys[i]  # panel i spans yb (top, nearer the front) down to ya
        ops += _panel_labels(ctx, holder, i, x0, ya, s)
        ops += _panel_tabs(holder, angles, i, x0, x1, ya, yb, s)
    for y in ys[1:-1]:
        ops.append(Line(x0, y, x1, y, stroke="cut", width=0.8, dash=DASH_FOLD))
    ops.append(Line(x0, ys[0], x1, ys[0], stroke="cut", width=0.8))
    ops.append(Line(x0, ys[-1], x1, ys[-1], stroke="cut", width=0.8))
    ops.append(Line(x0, ys[-1], x0, ys[0], stroke="cut", width=0.8, dash=DASH_FOLD))
    ops.append(Line(x1, ys[-1], x1, ys[0], stroke="cut", width=0.8, dash=DASH_FOLD))
    return Face("holder-strip", w, h, tuple(ops), 0.0)


def _strip_title(ctx: Context, w: float, h: float, pad: float) -> tuple[list[Op], float]:
    """The strip page's title and the cut / fold / glue legend; returns the ops and the title's size."""
    ops: list[Op] = []
    title = ctx.texts("holder.strip")
    ts = fit_line(
        title, "bold", w - 2 * pad, ctx.measure, size=mm(4.2), min_size=7, where=f"holder.strip ({ctx.lang})"
    )
    ops.append(
        Text(pad, h - pad - ts * 0.9, title, ts, font="bold", fill=TABLE, text_id="holder.strip")
    )  # ink rises to 0.88 em
    ops += _legend(ctx, pad, h - pad - ts - mm(5), w - 2 * pad)
    return ops, ts


def _panel_labels(ctx: Context, holder: Holder, i: int, x0: float, ya: float, s: float) -> list[Op]:
    """Panel i's tier tint and label (the tread ending in groove k carries its tier's), or 'front'."""
    game = ctx.kit.game
    ops: list[Op] = []
    if i + 1 in holder.grooves:
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
    return ops


def _tab_inset(angle: float | None, tw: float) -> float:
    """How far a tab's cut edge slants in at a fold of `angle` degrees (None: a strip end)."""
    if angle is None or angle >= 180:
        return tw * 0.3
    return tw / math.tan(math.radians(angle / 2))


def _panel_tabs(
    holder: Holder, angles: list[float], i: int, x0: float, x1: float, ya: float, yb: float, s: float
) -> list[Op]:
    """Panel i's glue tabs on both sides, as wide as the panel allows; their cut edges follow the bisector
    of the fold they meet (no overlap inside the stand)."""
    a_top = angles[i - 1] if i > 0 else None
    a_bot = angles[i] if i < len(angles) else None
    tw = holder.tab
    while tw > mm(2) and _tab_inset(a_top, tw) + _tab_inset(a_bot, tw) > s - mm(1):
        tw -= mm(0.5)
    ia, ib = _tab_inset(a_bot, tw), _tab_inset(a_top, tw)
    return [_tab(x0, ya, yb, tw, ia, ib, -1), _tab(x1, ya, yb, tw, ia, ib, +1)]


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
    pad = mm(3)
    ops, y = _plates_title(ctx, w, h, pad)
    plates, py, pw = _side_plates(ctx, holder, pad, y)
    ops += plates
    diagram, vy = _assembly_diagram(ctx, w, holder, card_h, pad, y, pw)
    ops += diagram
    py = min(py - mm(5), vy - mm(6))
    ops += _holder_steps(ctx, w, pad, py - mm(6), cards)
    return Face("holder-plates", w, h, tuple(ops), 0.0)


def _plates_title(ctx: Context, w: float, h: float, pad: float) -> tuple[list[Op], float]:
    """The page's title and the plates' heading; returns the ops and the top of the drawings."""
    t = ctx.texts
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
    return ops, y


def _side_plates(ctx: Context, holder: Holder, pad: float, y: float) -> tuple[list[Op], float, float]:
    """The two side plates to cut, side by side under y; returns the ops, their bottom and one's width."""
    t = ctx.texts
    ops: list[Op] = []
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
    return ops, py, pw


def _assembly_diagram(
    ctx: Context, w: float, holder: Holder, card_h: float, pad: float, y: float, pw: float
) -> tuple[list[Op], float]:
    """The side view (the assembly diagram) right of the plates, as tall as the room allows, with its
    caption and tier labels; returns the ops and its bottom."""
    t = ctx.texts
    ops: list[Op] = []
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
    return ops, vy


def _holder_steps(ctx: Context, w: float, pad: float, ly: float, cards: int) -> list[Op]:
    """The legend at ly, then the numbered assembly steps; a LayoutError when they run off the page."""
    t = ctx.texts
    ops = _legend(ctx, pad, ly, w - 2 * pad)
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
    return ops


def compose_card_holder(ctx: Context, cid: str) -> Component:
    """Two portrait pages per holder: the folding strip, then side plates, side view and instructions."""
    comp = ctx.kit.components[cid]
    w, h = sheet_slot(ctx.paper, 1, False, ctx.print)
    card_w, card_h = (
        card_size(ctx, "number_cards") if "number_cards" in ctx.kit.components else CARD_PRESETS["poker"]
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
