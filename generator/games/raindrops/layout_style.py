"""Raindrops' house style shared by its printed parts: the palette, the drop cell, the raindrop in
its colour's own shape and the component lookups."""

from __future__ import annotations

from typing import Any

from generator.games.raindrops import layout_art as art
from generator.layout.art import Slot, art_or
from generator.layout.compose import Context
from generator.layout.ops import Op
from generator.layout.shapes import symbol
from generator.units import mm

SKY = "#1b3a5c"
GLASS = "#dcecf9"
FRAME = "#8d6e63"
TOP_GREEN = "#74b816"
GOLD = "#d4a017"
STORM = "#2b2d42"
CELL = mm(20)
"""One drop cell: half a raindrop tile, a bonus tile, a memory-card cell."""
BADGE_MARGIN = mm(2)
"""How far a tile's value badge and a back's label keep from the cut (a small tile's safe area and a little
more: a badge 0.3 mm from the cut is lost to the first miscut)."""


DROP_ICON = Slot(
    "icon", "front", (0.12, 0.56, 0.76, 0.38), ("colour",), "every raindrop of one colour (its shape)"
)


def colours_by_id(ctx: Context) -> dict[str, Any]:
    """The kit's colours by id."""
    return {c.id: c for c in ctx.kit.game.colours}


def component_title(ctx: Context, cid: str) -> str:
    """Component `cid`'s localized title."""
    return ctx.texts(ctx.kit.components[cid].title)


def drop(ctx: Context, half: tuple[str, ...], cx: float, cy: float, r: float, cid: str = "") -> list[Op]:
    """One raindrop: the colour's own shape filled with the colour (or the kit's `art.icon` of component
    `cid`); a wild half as a split drop."""
    cols = colours_by_id(ctx)
    if len(half) == 1:
        c = cols[half[0]]
        return art_or(
            ctx,
            cid,
            DROP_ICON,
            cx,
            cy,
            r,
            symbol(c.shape, cx, cy, r, fill=c.colour, stroke="ink", width=0.8),
            values={"colour": c.id},
            colour=c.colour,
        )
    a, b = cols[half[0]], cols[half[1]]
    return art.wild_drop(cx, cy, r, (a.colour, b.colour), (a.shape, b.shape))
