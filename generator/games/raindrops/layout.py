"""Raindrops: window board, raindrop and bonus tiles, cloud and thunder tokens, player boards, markers,
memory cards and the rules summary. Every colour has its own drop shape (colour-blind and black-and-white
safe); pictures are drawn in raindrops_art; identical pieces share one Face (the renderer makes them Form
XObjects). Pieces paint their ground into the bleed and draw no outline on the cut (crop marks show it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.errors import LayoutError
from generator.games.raindrops import layout_art as art
from generator.games.raindrops.layout_board import BOARD_LOGO, compose_player_boards, compose_window_board
from generator.games.raindrops.layout_style import (
    BADGE_MARGIN,
    CELL,
    DROP_ICON,
    GLASS,
    GOLD,
    SKY,
    STORM,
    colours_by_id,
    component_title,
    drop,
)
from generator.layout.art import FULL, RULES_LOGO, Slot, art_or, slot_art
from generator.layout.compose import Builders, Component, Context, figures_of, summary_sheet
from generator.layout.imposition import BLEED_REACH, impose_cards, piece_bleed
from generator.layout.ops import Circle, Face, Line, Op, Page, Rect, Text
from generator.layout.shapes import lighten, symbol
from generator.layout.summary import heading_size, section, sentences, summary_faces
from generator.layout.text import fit_line
from generator.units import mm

_figures = figures_of("raindrops")


_BACK = Slot("back", "back", FULL, (), "the back (rain on a window, plain colour on tiles)")
_TILE_BACKGROUND = Slot("background", "front", FULL, ("top", "bottom"), "the tile's two colour tints")
_MEMORY_BACKGROUND = Slot("background", "front", FULL, ("id",), "the card's pale field")
_CLOUD = Slot(
    "cloud",
    "front",
    (0.27, 0.47, 0.3, 0.3),
    ("cloud",),
    "the cloud pictures: umbrella, boots, frog and snail ({cloud} names which)",
)
SLOTS: dict[str, tuple[Slot, ...]] = {
    "raindrop_tiles": (_BACK, _TILE_BACKGROUND, DROP_ICON),
    "bonus_tiles": (_BACK,),
    "cloud_tokens": (_CLOUD,),
    "memory_cards": (_BACK, _MEMORY_BACKGROUND, DROP_ICON, _CLOUD),
    "player_boards": (BOARD_LOGO,),
    "rules": (RULES_LOGO,),
}
"""The art slots a kit may fill (components.<id>.art.<slot>); an empty slot keeps the drawing."""


def template_context(game: Any, extras: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Numbers the rule templates may use: every one is a rule figure from `figures.rule_figures`."""
    return dict(_figures(extras))


def _size(ctx: Context, cid: str, default: tuple[float, float]) -> tuple[float, float]:
    return ctx.kit.components[cid].trim_size() or default


def _back(ctx: Context, cid: str) -> bool:
    return ctx.kit.components[cid].back


def _ground(fill: str, x: float, y: float, w: float, h: float, face_w: float, face_h: float) -> Rect:
    """A fill of the box (x, y, w, h) run on into the bleed on every side where the box meets the trim of a
    face_w x face_h face, so a cut a little off the line meets this colour, not white or a neighbour's."""
    x0 = x - BLEED_REACH if x <= 0 else x
    y0 = y - BLEED_REACH if y <= 0 else y
    x1 = x + w + BLEED_REACH if x + w >= face_w else x + w
    y1 = y + h + BLEED_REACH if y + h >= face_h else y + h
    return Rect(x0, y0, x1 - x0, y1 - y0, fill=fill, stroke=None)


# ---------------------------------------------------------------- tiles and tokens


def raindrop_face(ctx: Context, a: tuple[str, ...], b: tuple[str, ...], w: float, h: float) -> Face:
    """A raindrop tile: half `a` on top, half `b` below, each on a tint of its colour."""
    cols = colours_by_id(ctx)
    background = slot_art(
        ctx,
        "raindrop_tiles",
        _TILE_BACKGROUND,
        w,
        h,
        bleed=piece_bleed(ctx.print),
        values={"top": "+".join(a), "bottom": "+".join(b)},
    )
    ops: list[Op] = [background] if background is not None else []
    for half, y in ((a, h / 2), (b, 0.0)):
        tint = lighten(cols[half[0]].colour, 0.82) if len(half) == 1 else "#eceff3"
        if background is None:
            ops.append(_ground(tint, 0, y, w, h / 2, w, h))
        ops += drop(ctx, half, w / 2, y + h / 4, min(w, h / 2) * 0.38, "raindrop_tiles")
    ops.append(Line(mm(1.5), h / 2, w - mm(1.5), h / 2, stroke="muted", width=0.4, dash=(1.5, 1.5)))
    return Face(f"tile-{'+'.join(a)}-{'+'.join(b)}", w, h, tuple(ops), 0.0)


def compose_raindrop_tiles(ctx: Context, cid: str) -> Component:
    """Every tile of the bag; tiles of one kind share a face."""
    w, h = _size(ctx, cid, (CELL, 2 * CELL))
    faces: dict[tuple[Any, Any], Face] = {}
    fronts = []
    for t in ctx.extras["bag"]:
        key = (t.a, t.b)
        if key not in faces:
            faces[key] = raindrop_face(ctx, t.a, t.b, w, h)
        fronts.append(faces[key])
    art_back = slot_art(ctx, cid, _BACK, w, h, bleed=piece_bleed(ctx.print))
    back = (
        Face(
            "tile-back",
            w,
            h,
            (art_back,) if art_back is not None else (_ground(GLASS, 0, 0, w, h, w, h),),
            0.0,
        )
        if _back(ctx, cid)
        else None
    )
    title = component_title(ctx, cid)
    return Component(cid, title, impose_cards(cid, fronts, back, ctx.print, ctx.paper, bookmark=title))


def _points_badge(cx: float, cy: float, r: float, value: str, fill: str = "#ffffff") -> list[Op]:
    return [
        Circle(cx, cy, r, fill=fill, stroke="ink", width=0.7),
        Text(cx, cy - r * 0.38, value, r * 1.1, font="bold", anchor="middle"),
    ]


def bonus_face(ctx: Context, tile: Any, w: float, h: float) -> Face:
    """A bonus tile: one drop (or the split wild drop) and its points."""
    cols = colours_by_id(ctx)
    ops: list[Op] = [_ground(GOLD, 0, 0, w, h, w, h)]  # the gold frame, into the bleed
    band = mm(1.2)
    if tile.wild:
        ops.append(Rect(band, band, w - 2 * band, h - 2 * band, fill="#f1f3f5", stroke=None))
        ops += art.split_disc(
            w * 0.45,
            h * 0.45,
            min(w, h) * 0.33,
            [cols[c].colour for c in tile.colours],
            [cols[c].shape for c in tile.colours],
        )
    else:
        c = cols[tile.colours[0]]
        ops.append(Rect(band, band, w - 2 * band, h - 2 * band, fill=lighten(c.colour, 0.82), stroke=None))
        ops += symbol(c.shape, w * 0.45, h * 0.45, min(w, h) * 0.33, fill=c.colour, stroke="ink", width=0.8)
    # the badge keeps BADGE_MARGIN from the cut (the safe area of a small tile)
    r = mm(2.8)
    ops += _points_badge(w - BADGE_MARGIN - r, h - BADGE_MARGIN - r, r, str(tile.points))
    return Face(f"bonus-{'+'.join(tile.colours)}-{tile.points}", w, h, tuple(ops), 0.0)


def _plain_back(
    ctx: Context, name: str, w: float, h: float, fill: str, label_id: str | None, pic: list[Op] | None = None
) -> Face:
    ops: list[Op] = [_ground(fill, 0, 0, w, h, w, h)]
    ops += pic or []
    if label_id:
        label = ctx.texts(label_id)
        size = fit_line(
            label,
            "bold",
            w * 0.85,
            ctx.measure,
            size=min(h * 0.17, mm(3.4)),
            min_size=3.5,
            where=f"{label_id} ({ctx.lang})",
        )
        # the label's lowest glyphs keep BADGE_MARGIN from the cut
        base = max(h * 0.12, BADGE_MARGIN + size * 0.25)
        ops.append(
            Text(w / 2, base, label, size, font="bold", fill="#ffffff", anchor="middle", text_id=label_id)
        )
    return Face(name, w, h, tuple(ops), 0.0)


def compose_bonus_tiles(ctx: Context, cid: str) -> Component:
    """Bonus tiles (one face per colour and points) and their shared back."""
    w, h = _size(ctx, cid, (CELL, CELL))
    faces: dict[tuple[Any, int], Face] = {}
    fronts = []
    for t in ctx.extras["bonus_tiles"]:
        key = (t.colours, t.points)
        if key not in faces:
            faces[key] = bonus_face(ctx, t, w, h)
        fronts.append(faces[key])
    art_back = slot_art(ctx, cid, _BACK, w, h, bleed=piece_bleed(ctx.print))
    back = (
        (
            Face("bonus-back", w, h, (art_back,), 0.0)
            if art_back is not None
            else _plain_back(
                ctx,
                "bonus-back",
                w,
                h,
                SKY,
                "bonus.back",
                symbol("drop", w / 2, h * 0.6, min(w, h) * 0.26, fill="#ffffff", stroke=GOLD, width=1),
            )
        )
        if _back(ctx, cid)
        else None
    )
    title = component_title(ctx, cid)
    return Component(cid, title, impose_cards(cid, fronts, back, ctx.print, ctx.paper, bookmark=title))


def cloud_face(ctx: Context, token: Any, w: float, h: float) -> Face:
    """A cloud token: its type's symbol in a cloud, the condition as symbols with counts, its points;
    the top token of each stack has a gold border."""
    ops: list[Op] = [_ground("#e7f5ff", 0, 0, w, h, w, h)]
    if token.gold:
        ops.append(
            Rect(mm(1), mm(1), w - mm(2), h - mm(2), fill=None, stroke=GOLD, width=mm(1.4), radius=mm(2))
        )
    ops += art.cloud_shape(w * 0.42, h * 0.6, w * 0.4, fill="#ffffff", width=0.8)
    ops += art_or(
        ctx,
        "cloud_tokens",
        _CLOUD,
        w * 0.42,
        h * 0.62,
        w * 0.15,
        art.cloud_symbol(token.type, w * 0.42, h * 0.62, w * 0.15),
        values={"cloud": token.type},
    )
    # the badge stays inside the token's safe area (a twelfth of its side from the cut)
    ops += _points_badge(
        w - mm(6.3), h - mm(6.3), mm(3.6), str(token.points), fill="#ffe066" if token.gold else "#ffffff"
    )
    # condition: "2 x [symbol]" per cloud symbol, along the bottom
    n = len(token.condition)
    slot = (w - mm(4)) / n
    own_first = sorted(token.condition, key=lambda item: (item[0] != token.type, item[0]))
    size, r, gap = mm(3.0), mm(2.6), mm(0.9)  # "2×" then its symbol, the pair centred in its slot, apart
    for i, (sym, need) in enumerate(own_first):
        label = f"{need}×"
        tw = ctx.measure(label, "bold", size)
        start = mm(2) + slot * i + (slot - (tw + gap + 2 * r)) / 2
        ops.append(Text(start, mm(3.3), label, size, font="bold", role="number"))
        ops += art_or(
            ctx,
            "cloud_tokens",
            _CLOUD,
            start + tw + gap + r,
            mm(5),
            r,
            art.cloud_symbol(sym, start + tw + gap + r, mm(5), r),
            values={"cloud": sym},
        )
    return Face(
        f"cloud-{token.type}-{token.points}-{'gold' if token.gold else 'plain'}", w, h, tuple(ops), 0.0
    )


def compose_cloud_tokens(ctx: Context, cid: str) -> Component:
    """Cloud tokens, stack by stack (gold top token first)."""
    w, h = _size(ctx, cid, (mm(30), mm(30)))
    fronts = [cloud_face(ctx, t, w, h) for t in ctx.extras["cloud_tokens"]]
    back = (
        _plain_back(
            ctx, "cloud-back", w, h, "#74c0fc", None, art.cloud_shape(w / 2, h / 2, w * 0.4, fill="#ffffff")
        )
        if _back(ctx, cid)
        else None
    )
    title = component_title(ctx, cid)
    return Component(cid, title, impose_cards(cid, fronts, back, ctx.print, ctx.paper, bookmark=title))


def thunder_face(value: int, w: float, h: float) -> Face:
    """A thunder token's face: a bolt and its value."""
    ops: list[Op] = [_ground(STORM, 0, 0, w, h, w, h)]
    ops += art.bolt(w * 0.3, h * 0.55, h * 0.32)
    ops += [
        # inside the safe area, the value clear of the ring
        Circle(w * 0.64, h * 0.45, h * 0.24, fill="#ffffff", stroke="#ffd43b", width=1.5),
        Text(w * 0.64, h * 0.45 - h * 0.108, str(value), h * 0.3, font="bold", anchor="middle"),
    ]
    return Face(f"thunder-{value}", w, h, tuple(ops), 0.0)


def compose_thunder_tokens(ctx: Context, cid: str) -> Component:
    """Thunder tokens: value on the face, one plain back for all (duplex)."""
    w, h = _size(ctx, cid, (mm(25), mm(25)))
    faces = {v: thunder_face(v, w, h) for v in sorted({t.value for t in ctx.extras["thunder_tokens"]})}
    fronts = [faces[t.value] for t in ctx.extras["thunder_tokens"]]
    back = (
        _plain_back(ctx, "thunder-back", w, h, STORM, None, art.bolt(w / 2, h / 2, h * 0.35, fill="#ffd43b"))
        if _back(ctx, cid)
        else None
    )
    title = component_title(ctx, cid)
    return Component(cid, title, impose_cards(cid, fronts, back, ctx.print, ctx.paper, bookmark=title))


def marker_face(kind: str, w: float, h: float) -> Face:
    """An action marker (kind 'action' or 'start': with the purple arrow) or a path marker (a glass bead)."""
    cx, cy, r = w / 2, h / 2, min(w, h) * 0.44
    ops: list[Op] = [_ground("#ffffff", 0, 0, w, h, w, h)]
    if kind == "path":
        ops += [
            Circle(cx, cy, r * 0.8, fill="#99e9f2", stroke="ink", width=0.8),
            Circle(cx - r * 0.25, cy + r * 0.25, r * 0.22, fill="#ffffff", stroke=None),
            Circle(cx, cy, r * 0.5, fill=None, stroke="#3bc9db", width=0.8),
        ]
    else:
        ops.append(Circle(cx, cy, r, fill="#e9ecef", stroke="ink", width=1.0))
        ops += symbol(
            "drop",
            cx,
            cy + (r * 0.25 if kind == "start" else 0),
            r * (0.45 if kind == "start" else 0.62),
            fill=SKY,
            stroke=None,
        )
        if kind == "start":
            ops += art.arrow(
                cx - r * 0.7,
                cy - r * 0.45,
                cx + r * 0.75,
                cy - r * 0.45,
                stroke="#7b3fa0",
                width=r * 0.22,
                head=r * 0.5,
            )
    return Face(f"marker-{kind}", w, h, tuple(ops), 0.0)


def compose_markers(ctx: Context, cid: str) -> Component:
    """Action markers (the first shows the purple start arrow) and path markers standing in for glass
    beads."""
    game = ctx.kit.game
    w, h = _size(ctx, cid, (mm(22), mm(22)))
    start, action, path = marker_face("start", w, h), marker_face("action", w, h), marker_face("path", w, h)
    fronts = [start] + [action] * (game.action_markers - 1) + [path] * game.path_markers
    back = (
        _plain_back(
            ctx,
            "marker-back",
            w,
            h,
            "#adb5bd",
            None,
            [Circle(w / 2, h / 2, min(w, h) * 0.44, fill="#ced4da", stroke="ink", width=1.0)],
        )
        if _back(ctx, cid)
        else None
    )
    title = component_title(ctx, cid)
    return Component(cid, title, impose_cards(cid, fronts, back, ctx.print, ctx.paper, bookmark=title))


# ---------------------------------------------------------------- memory cards


def memory_face(ctx: Context, card: Any, w: float, h: float) -> Face:
    """A memory card: its drop pattern on 20 mm cells (a tile covers two), points, cloud symbol or cat."""
    game = ctx.kit.game
    grid = game.memory_cards.grid
    background = slot_art(
        ctx, "memory_cards", _MEMORY_BACKGROUND, w, h, bleed=piece_bleed(ctx.print), values={"id": card.id}
    )
    ops: list[Op] = (
        [background]
        if background is not None
        else [
            _ground("#f8fbff", 0, 0, w, h, w, h),
            Rect(
                mm(1.2),
                mm(1.2),
                w - mm(2.4),
                h - mm(2.4),
                fill=None,
                stroke="#74c0fc",
                width=1.2,
                radius=mm(2.5),
            ),
        ]
    )
    rows, cols = len(card.pattern), len(card.pattern[0])
    grid_top = h - mm(3)
    x0 = (w - cols * CELL) / 2
    top = grid_top - (grid.rows - rows) * CELL / 2
    colours = colours_by_id(ctx)
    for r, line in enumerate(card.pattern):
        for c, cid in enumerate(line):
            if cid is None:
                continue
            x, y = x0 + c * CELL, top - (r + 1) * CELL
            ops.append(
                Rect(
                    x + mm(0.5),
                    y + mm(0.5),
                    CELL - mm(1),
                    CELL - mm(1),
                    fill=lighten(colours[cid].colour, 0.8),
                    stroke="#adb5bd",
                    width=0.5,
                    radius=mm(1.5),
                )
            )
            ops += drop(ctx, (cid,), x + CELL / 2, y + CELL / 2, CELL * 0.36, "memory_cards")
    band = grid_top - grid.rows * CELL
    cy = band / 2
    if card.cat:
        ops += art.cat(mm(11), cy, min(band * 0.42, mm(8)))
    else:
        ops += art.cloud_shape(mm(13), cy + mm(1), mm(11), fill="#ffffff", width=0.7)
        ops += art_or(
            ctx,
            "memory_cards",
            _CLOUD,
            mm(13),
            cy + mm(1.4),
            mm(5.2),
            art.cloud_symbol(card.cloud, mm(13), cy + mm(1.4), mm(5.2)),
            values={"cloud": card.cloud},
        )
    ops += _points_badge(w - mm(10), cy, mm(6), str(card.points), fill="#ffe066" if card.cat else "#ffffff")
    if ctx.print.print_ids:  # the card's sorting id only when the spec asks (print.print_ids)
        ops.append(Text(w / 2, mm(3), f"#{card.id}", mm(2.2), fill="muted", anchor="middle", role="fine"))
    return Face(f"memory-{card.id}", w, h, tuple(ops), 0.0)


def memory_back(ctx: Context, w: float, h: float) -> Face:
    """The memory-card back: rain on a dark window, the kit title; symmetric so flips do not matter. The kit's
    `art.back` replaces all of it."""
    art_back = slot_art(ctx, "memory_cards", _BACK, w, h, bleed=piece_bleed(ctx.print))
    if art_back is not None:
        return Face("memory-back", w, h, (art_back,), 0.0)
    ops: list[Op] = [_ground(SKY, 0, 0, w, h, w, h)]
    # the rain stays inside a frame 3 mm in from the trim, so neighbouring backs do not read as one field;
    # rows of 5 and 4 drops alternate, centred, so the back looks the same turned 180 degrees
    inset, r = mm(3), mm(3)
    ops.append(
        Rect(inset, inset, w - 2 * inset, h - 2 * inset, fill=None, stroke="#4dabf7", width=1, radius=mm(2.5))
    )
    room_x0, room_y0 = inset + mm(1.5) + r, inset + mm(1.5) + r
    room_w, room_h = w - 2 * room_x0, h - 2 * room_y0
    for j in range(7):
        y = room_y0 + room_h * j / 6
        n = 4 if j % 2 else 5
        for i in range(n):
            x = room_x0 + room_w * (i + (0.5 if j % 2 else 0.0)) / 4
            ops += symbol("drop", x, y, r, fill="#4dabf7", stroke=None)
    label = ctx.texts("cards.back")
    size = fit_line(
        label, "bold", w - mm(10), ctx.measure, size=mm(6), min_size=7, where=f"cards.back ({ctx.lang})"
    )
    ops.append(
        Rect(
            mm(3),
            h / 2 - size * 0.9,
            w - mm(6),
            size * 1.8,
            fill=SKY,
            stroke="#ffffff",
            width=1,
            radius=mm(2),
        )
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
            text_id="cards.back",
        )
    )
    return Face("memory-back", w, h, tuple(ops), 0.0)


def compose_memory_cards(ctx: Context, cid: str) -> Component:
    """The memory-card deck from print_data and the shared back."""
    w, h = _size(ctx, cid, (mm(66), mm(88)))
    grid = ctx.kit.game.memory_cards.grid
    if grid.columns * CELL > w or grid.rows * CELL + mm(18) > h:
        raise LayoutError(
            f"{ctx.kit.display}: components.{cid}.size: a {grid.rows} x {grid.columns} grid of 20 mm cells "
            f"needs at least {grid.columns * 20} x {grid.rows * 20 + 18} mm"
        )
    fronts = [memory_face(ctx, c, w, h) for c in ctx.extras["memory_cards"]]
    back = memory_back(ctx, w, h) if _back(ctx, cid) else None
    title = component_title(ctx, cid)
    return Component(cid, title, impose_cards(cid, fronts, back, ctx.print, ctx.paper, bookmark=title))


# ---------------------------------------------------------------- rules summary

SECTIONS = (
    ("rules.setup.title", "rules.setup"),
    ("rules.turn.title", "rules.turn"),
    ("rules.actions.title", "rules.actions"),
    ("rules.drop.title", "rules.drop"),
    ("rules.place.title", "rules.place"),
    ("rules.clouds.title", "rules.clouds"),
    ("rules.end.title", "rules.end"),
    ("rules.score.title", "rules.score"),
)


HOUSE_RULES = (
    "bag_empties",
    "window_refill",
    "final_last_turn_card",
    "final_clouds",
    "bonus_per_tile",
    "wild_bonus",
    "bonus_refill",
)
"""The house-rule switches of `game.rules`; the rules card prints the kit's reading of each."""


def house_rule_ids(game: Any) -> list[str]:
    """Text ids of the chosen readings: `rules.house.<switch>.<setting>` (one catalog sentence per
    setting)."""
    return [f"rules.house.{name}.{getattr(game.rules, name)}" for name in HOUSE_RULES]


def _house_rules(ctx: Context, x: float, y: float, width: float, size: float) -> tuple[list[Op], float]:
    """The heading and one paragraph of one sentence per switch, each chosen by the spec's setting (the
    sentences run on: none starts a line of its own)."""
    hs = heading_size(ctx, size)
    ops: list[Op] = [
        Text(
            x,
            y - hs,
            ctx.texts("rules.house.title"),
            hs,
            font="bold",
            fill=SKY,
            text_id="rules.house.title",
            role="heading",
        )
    ]
    y -= hs * 1.45
    drawn, height = sentences(ctx, house_rule_ids(ctx.kit.game), x, y, width, size)
    return ops + drawn, y - height - size * 0.6


def rules_face(ctx: Context, w: float, h: float) -> list[Face]:
    """The rules summary: a colour/shape legend and every section, one size for all (the largest that
    fits)."""
    return summary_faces(ctx, w, h, _rules_body, band=SKY, logo=slot_art(ctx, "rules", RULES_LOGO, w, h))


def _rules_body(ctx: Context, x: float, top: float, width: float, size: float) -> tuple[list[Op], float]:
    ops: list[Op] = []
    y = top - size
    xx = x
    for c in ctx.kit.game.colours:  # legend: each colour's shape and name
        ops += symbol(
            c.shape, xx + size * 0.8, y + size * 0.3, size * 0.8, fill=c.colour, stroke="ink", width=0.6
        )
        name = ctx.texts(f"colour.{c.id}")
        ops.append(Text(xx + size * 2, y, name, size, font="bold", text_id=f"colour.{c.id}"))
        xx += size * 3.2 + ctx.measure(name, "bold", size)
    y -= size * 1.2
    for head, body in SECTIONS:
        drawn, y = section(ctx, head, body, x, y, width, size, SKY)
        ops += drawn
        if body == "rules.end":
            drawn, y = _house_rules(ctx, x, y, width, size)
            ops += drawn
    return ops, y


BUILDERS = Builders(
    "Raindrops",
    {
        "window_board": compose_window_board,
        "raindrop_tiles": compose_raindrop_tiles,
        "bonus_tiles": compose_bonus_tiles,
        "cloud_tokens": compose_cloud_tokens,
        "thunder_tokens": compose_thunder_tokens,
        "player_boards": compose_player_boards,
        "markers": compose_markers,
        "memory_cards": compose_memory_cards,
        "rules": summary_sheet(rules_face),
    },
)
compose = BUILDERS.compose
component_ids = BUILDERS.component_ids


__all__ = ["compose", "template_context", "component_ids", "Page"]
