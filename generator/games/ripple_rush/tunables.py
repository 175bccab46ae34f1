"""What `pnpkit tune` may change in a Ripple Rush kit (ranges inside the spec model's own limits)."""

from __future__ import annotations

from generator.engine.tunables import Tunable

TUNABLES = (
    Tunable(
        "goal points", "game.goals.points", "int", 0, 20, doc="points per revealed goal whose row is full"
    ),
    Tunable("goals revealed", "game.goals.revealed", "int", 0, 8, doc="goal cards revealed at set-up"),
    Tunable("row bonus order", "game.bonuses", "permutation", doc="the row bonuses, top row first"),
    Tunable(
        "cards per player", "game.cards_per_player", "int", 1, 40, doc="cards in the deck per player = rounds"
    ),
)
