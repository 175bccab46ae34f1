"""What `pnpkit tune` may change in a Raindrops kit (ranges inside the spec model's own limits)."""

from __future__ import annotations

from generator.engine.tunables import Tunable

TUNABLES = (
    Tunable(
        "easiest card points",
        "game.memory_cards.points.min",
        "int",
        0,
        20,
        doc="points of the easiest cloud card",
    ),
    Tunable(
        "hardest card points",
        "game.memory_cards.points.max",
        "int",
        0,
        30,
        doc="points of the hardest cloud card",
    ),
    Tunable(
        "cat card bonus", "game.memory_cards.points.cat_bonus", "int", 0, 10, doc="extra points on a cat card"
    ),
    Tunable("bonus tiles in the offer", "game.bonus_tiles.offer", "int", 1, 10, doc="bonus tiles face up"),
    Tunable(
        "bonus tile threshold",
        "game.rules.bonus_max_tiles",
        "int",
        1,
        6,
        doc="a drop taking this many tiles or fewer earns a bonus tile",
    ),
    Tunable(
        "hand size", "game.rules.cards_dealt", "int", 1, 8, doc="memory cards dealt to each player at set-up"
    ),
    Tunable("cards kept", "game.rules.cards_kept", "int", 1, 8, doc="memory cards a player keeps face up"),
)
