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

GAME_ID = "raindrops"
RULESET_VERSION = "0.1.0"

__all__ = [
    "GAME_ID", "RULESET_VERSION", "Half", "RaindropTile", "MemoryCard", "BonusTile", "CloudToken", "ThunderToken",
    "build_bag", "build_bonus_tiles", "build_cloud_tokens", "build_thunder_tokens",
]
