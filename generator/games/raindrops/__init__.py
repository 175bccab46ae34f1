"""Raindrops: tile collection and pattern building. Component model, memory cards and their proofs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.games.raindrops.components import (
    BonusTile,
    CloudToken,
    Half,
    MemoryCard,
    RaindropTile,
    ThunderToken,
    build_bag,
    build_bonus_tiles,
    build_cloud_tokens,
    build_thunder_tokens,
)
from generator.games.raindrops.cards_balance import balance_report, legal_problems
from generator.games.raindrops.cover import find_cover, verify_cover
from generator.games.raindrops.memory import generate_memory_cards

if TYPE_CHECKING:
    from generator.spec.games.raindrops import RaindropsGame

GAME_ID = "raindrops"
RULESET_VERSION = "0.2.0"


def transcript(spec: "RaindropsGame", seed: int, players: int) -> str:
    """A readable seeded playthrough (greedy players) of the spec's game."""
    from generator.games.raindrops.playthrough import transcript as _transcript

    return _transcript(spec, seed, players)


def print_data(game_spec: "RaindropsGame", seed: int) -> dict[str, object]:
    """Everything the printed kit draws, generated once per build: bag, bonus/cloud/thunder tokens, memory cards.

    The memory cards come from the spec's own `seed` (the deck is part of the game design, not of one print run)."""
    return {
        "bag": build_bag(game_spec),
        "bonus_tiles": build_bonus_tiles(game_spec),
        "cloud_tokens": build_cloud_tokens(game_spec),
        "thunder_tokens": build_thunder_tokens(game_spec),
        "memory_cards": generate_memory_cards(game_spec, game_spec.seed),
    }

__all__ = [
    "GAME_ID", "RULESET_VERSION", "Half", "RaindropTile", "MemoryCard", "BonusTile", "CloudToken", "ThunderToken",
    "build_bag", "build_bonus_tiles", "build_cloud_tokens", "build_thunder_tokens",
    "generate_memory_cards", "find_cover", "verify_cover", "legal_problems", "balance_report", "print_data",
    "transcript",
]
