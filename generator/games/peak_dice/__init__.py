"""Peak Dice: a roll-and-write whose rows rise to a peak line and fall after it (see docs and rules.py)."""

from __future__ import annotations

from generator.games.peak_dice.policies import GREEDY, POLICIES, RANDOM, REROLL, Policy, play_reference
from generator.games.peak_dice.rules import Game, Outcome, Pass, Reroll, Roll, State, Write

GAME_ID = "peak_dice"
RULESET_VERSION = "1.0"

__all__ = ["GAME_ID", "RULESET_VERSION", "Game", "State", "Outcome", "Roll", "Reroll", "Write", "Pass",
           "Policy", "RANDOM", "GREEDY", "REROLL", "POLICIES", "play_reference"]
