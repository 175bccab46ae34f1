"""Raindrops: tile collection and pattern building. Component model, memory cards and their proofs."""

from __future__ import annotations

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

GAME_ID = "raindrops"
RULESET_VERSION = "0.1.0"

__all__ = [
    "GAME_ID", "RULESET_VERSION", "Half", "RaindropTile", "MemoryCard", "BonusTile", "CloudToken", "ThunderToken",
    "build_bag", "build_bonus_tiles", "build_cloud_tokens", "build_thunder_tokens",
    "generate_memory_cards", "find_cover", "verify_cover", "legal_problems", "balance_report",
]
