"""Ripple Rush: flip-and-write, 1-5 players; reference rules, policies, compiled self-play, balance and
generated sheet variants, all driven by the kit spec (`generator.games.ripple_rush.spec.RippleRushGame`).

Names are imported on first use (PEP 562) so that `pnpkit build` and `validate`, which need only the legal
checks, do not load numba and the simulation kernels."""

from __future__ import annotations

from generator.games.lazy import lazy_getattr
from generator.games.registry import GamePlugin

GAME = GamePlugin(
    id="ripple_rush",
    name="Ripple Rush",
    ruleset="1.1",
    spec="generator.games.ripple_rush.spec:RippleRushGame",
    layout="generator.games.ripple_rush.layout",
    legal="generator.games.ripple_rush.legal:legal_problems",
    balance="generator.games.ripple_rush.balance:balance_report",
    transcript="generator.games.ripple_rush.transcript:transcript",
    play="generator.games.ripple_rush.rules:new_game",
    print_data="generator.games.ripple_rush.figures:print_data",
    tunables="generator.games.ripple_rush.tunables:TUNABLES",
)

_WHERE = {
    "balance_report": "balance", "legal_problems": "legal",
    "GREEDY": "policies", "POLICIES": "policies", "RANDOM": "policies", "STRONG": "policies", "Policy": "policies",
    "PASS": "rules", "Action": "rules", "Card": "rules", "Cell": "rules",
    "Decision": "rules", "Game": "rules", "new_game": "rules", "Outcome": "rules", "Pass": "rules", "SheetScore": "rules",
    "State": "rules", "Write": "rules",
    "RippleRushSim": "sim", "Setup": "sim", "transcript": "transcript", "Variant": "variants",
    "generate_variants": "variants",
}

__all__ = ["GAME", "GAME_ID", "RULESET_VERSION", *_WHERE]
GAME_ID = GAME.id  # the plugin record is the one source of the id and the ruleset
RULESET_VERSION = GAME.ruleset


__getattr__ = lazy_getattr(__name__, _WHERE, globals())
