"""Peak Dice: a roll-and-write whose rows rise to a peak line and fall after it (rules in rules.py).

Names are imported on first use (PEP 562): `pnpkit build` and `validate` need only the legal checks and
must not pay for numba and the simulation kernels."""

from __future__ import annotations

from generator.games.lazy import lazy_getattr
from generator.games.registry import GamePlugin

GAME_ID = "peak_dice"

GAME = GamePlugin(
    id="peak_dice",
    name="Peak Dice",
    ruleset="1.1",
    spec="generator.games.peak_dice.spec:PeakDiceGame",
    layout="generator.games.peak_dice.layout",
    legal="generator.games.peak_dice.legal:legal_problems",
    balance="generator.games.peak_dice.balance:balance_report",
    transcript="generator.games.peak_dice.transcript:transcript",
    play="generator.games.peak_dice.rules:new_game",
    print_data="generator.games.peak_dice.figures:print_data",
    tunables="generator.games.peak_dice.tunables:TUNABLES",
)

_WHERE = {
    "balance_report": "balance", "legal_problems": "legal",
    "GREEDY": "policies", "PLANNER": "policies", "PLANNER_KEEP": "policies", "POLICIES": "policies", "RANDOM": "policies", "REROLL": "policies", "Policy": "policies",
    "play_reference": "policies", "PlannerParams": "planner", "DEFAULT_PARAMS": "planner",
    "Game": "rules", "Outcome": "rules", "Pass": "rules", "Reroll": "rules",
    "Roll": "rules", "State": "rules", "Write": "rules", "miss_penalty": "rules", "second_lowest": "rules",
    "Simulation": "sim", "Tables": "tables", "build_tables": "tables", "transcript": "transcript",
    "Variant": "variants", "generate_variants": "variants",
}

__all__ = ["GAME", "GAME_ID", "RULESET_VERSION", *_WHERE]
RULESET_VERSION = GAME.ruleset


__getattr__ = lazy_getattr(__name__, _WHERE, globals())
