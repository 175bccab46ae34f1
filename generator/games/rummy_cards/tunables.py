"""What `pnpkit tune` may change in a Rummy Cards kit (ranges inside the spec model's own limits)."""

from __future__ import annotations

from generator.engine.tunables import Tunable

TUNABLES = (
    Tunable("initial meld", "game.initial_meld", "int", 0, 80, doc="points the first lay must reach"),
    Tunable("hand size", "game.hand_size", "int", 5, 20, doc="cards dealt to each player"),
    Tunable("joker penalty", "game.joker_penalty", "int", 0, 60, doc="points a joker left in hand costs"),
)
