"""Raindrops: tile collection and pattern building (2-4 players): components, memory cards and their proofs,
reference rules, policies, the compiled full-game kernel and balance.

The package itself holds only the plugin record (strings): names below are imported on first use (PEP 562),
so looking the game up, `pnpkit build` and `validate` do not load numba and the simulation kernels."""

from __future__ import annotations

from generator.games.lazy import lazy_getattr
from generator.games.registry import GamePlugin

GAME_ID = "raindrops"

GAME = GamePlugin(
    id="raindrops",
    name="Raindrops",
    ruleset="0.3.0",
    spec="generator.games.raindrops.spec:RaindropsGame",
    layout="generator.games.raindrops.layout",
    legal="generator.games.raindrops.legal:legal_problems",
    balance="generator.games.raindrops.balance:balance_report",
    transcript="generator.games.raindrops.transcript:transcript",
    play="generator.games.raindrops.rules:new_game",
    print_data="generator.games.raindrops.figures:print_data",
    refit="generator.games.raindrops.refit:refit_edit",
    tunables="generator.games.raindrops.tunables:TUNABLES",
)
RULESET_VERSION = GAME.ruleset

_WHERE = {
    "BonusTile": "components", "CloudToken": "components", "Half": "components", "MemoryCard": "components",
    "RaindropTile": "components", "ThunderToken": "components", "build_bag": "components",
    "build_bonus_tiles": "components", "build_cloud_tokens": "components", "build_thunder_tokens": "components",
    "balance_report": "balance", "legal_problems": "legal", "find_cover": "cover",
    "verify_cover": "cover", "generate_memory_cards": "memory", "transcript": "transcript",
    "print_data": "figures",
}

__all__ = ["GAME", "GAME_ID", "RULESET_VERSION", *_WHERE]

__getattr__ = lazy_getattr(__name__, _WHERE, globals())
