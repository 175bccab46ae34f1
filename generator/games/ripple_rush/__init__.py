"""Ripple Rush: flip-and-write, 1-5 players; reference rules, policies, compiled self-play, balance and
generated sheet variants, all driven by the kit spec (`generator.spec.games.ripple_rush.RippleRushGame`)."""

from generator.games.ripple_rush.balance import balance_report
from generator.games.ripple_rush.legal import legal_problems
from generator.games.ripple_rush.policies import GREEDY, POLICIES, RANDOM, STRONG, Policy, new_rng
from generator.games.ripple_rush.rules import (GAME_ID, PASS, RULESET_VERSION, Action, Card, Cell, Decision, Game,
                                               Outcome, Pass, SheetScore, State, Write)
from generator.games.ripple_rush.sim import RippleRushSim, Setup
from generator.games.ripple_rush.transcript import transcript
from generator.games.ripple_rush.variants import Variant, generate_variants

__all__ = [
    "GAME_ID", "RULESET_VERSION", "legal_problems", "balance_report", "generate_variants", "transcript",
    "Game", "State", "Outcome", "SheetScore", "Card", "Cell", "Write", "Pass", "PASS", "Action", "Decision",
    "Policy", "RANDOM", "GREEDY", "STRONG", "POLICIES", "new_rng", "RippleRushSim", "Setup", "Variant",
]
