"""Peak Dice's colours in print: the dark ink, the glyphs a row symbol may be drawn as, a colour's localized
name and the darker ink drawn over it (shared by the score sheet, the dice and the rules)."""

from __future__ import annotations

from typing import Any

from generator.layout.compose import Context
from generator.layout.ops import Op, Text
from generator.layout.shapes import darken, symbol

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


def colour_of(game: Any, cid: str) -> Any | None:
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


def ink_of(colour: str) -> str:
    return darken(colour, 0.35)
