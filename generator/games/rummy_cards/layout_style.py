"""Rummy Cards' house style shared by its printed parts: the table teal, the joker's ink, the fold
dash and the number cards' size."""

from __future__ import annotations

from generator.layout.compose import Context
from generator.units import CARD_PRESETS, mm

TABLE = "#0f4c5c"  # card back and headings: a deep teal, like a card table
JOKER_INK = "#5b2a86"
DASH_FOLD = (mm(2.2), mm(1.4))


def card_size(ctx: Context, cid: str) -> tuple[float, float]:
    """The trim size of component `cid`'s cards (poker size when the spec names none)."""
    size = ctx.kit.components[cid].trim_size()
    return size if size else CARD_PRESETS["poker"]
