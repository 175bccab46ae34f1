"""What the printed Raindrops kit takes from the rules: everything generated once per build (bag, bonus,
cloud and thunder tokens, memory cards)."""

from __future__ import annotations

from typing import Any

from generator.games.raindrops.components import (build_bag, build_bonus_tiles, build_cloud_tokens,
                                                  build_thunder_tokens)
from generator.games.raindrops.memory import generate_memory_cards


def print_data(game_spec: Any, seed: int) -> dict[str, object]:
    """Everything the printed kit draws, generated once per build: bag, bonus/cloud/thunder tokens, memory cards.

    The memory cards come from the spec's own `seed` (the deck is part of the game design, not of one print run)."""
    return {
        "bag": build_bag(game_spec),
        "bonus_tiles": build_bonus_tiles(game_spec),
        "cloud_tokens": build_cloud_tokens(game_spec),
        "thunder_tokens": build_thunder_tokens(game_spec),
        "memory_cards": generate_memory_cards(game_spec, game_spec.seed),
    }
