"""Peak Dice: a roll-and-write whose rows rise to a peak line and fall after it (rules in rules.py)."""

from __future__ import annotations

from generator.games.peak_dice.balance import GAME_ID, balance_report
from generator.games.peak_dice.legal import legal_problems
from generator.games.peak_dice.policies import GREEDY, POLICIES, RANDOM, REROLL, Policy, play_reference
from generator.games.peak_dice.rules import (RULESET_VERSION, Game, Outcome, Pass, Reroll, Roll, State, Write,
                                             miss_penalty, second_lowest)
from generator.games.peak_dice.sim import Simulation
from generator.games.peak_dice.tables import Tables, build_tables
from generator.games.peak_dice.transcript import transcript
from generator.games.peak_dice.variants import Variant, generate_variants

__all__ = ["GAME_ID", "RULESET_VERSION", "legal_problems", "balance_report", "generate_variants", "Variant",
           "transcript", "Game", "State", "Outcome", "Roll", "Reroll", "Write", "Pass", "Policy", "RANDOM",
           "GREEDY", "REROLL", "POLICIES", "play_reference", "Simulation", "Tables", "build_tables",
           "miss_penalty", "second_lowest"]
