"""The picklable self-play job: one kernel call per chunk, returning per-game arrays and summed counts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from generator.engine.kernel import py_func, seed_state
from generator.engine.runner import Tally
from generator.games.peak_dice import kernel as K
from generator.games.peak_dice.tables import Tables

POLICY_CODES = {"random": K.POLICY_RANDOM, "greedy": K.POLICY_GREEDY, "reroll": K.POLICY_REROLL,
                "planner": K.POLICY_PLANNER, "planner_keep": K.POLICY_PLANNER_KEEP}
END_NAMES = {K.END_FULL: "sheet_full", K.END_STALLED: "stalled", K.END_LIMIT: "turn_limit"}
COUNT_KEYS = ("active_turns", "miss_turns", "reroll_turns", "writes_b", "writes_c")


def kernel_args(tables: Tables) -> tuple[np.ndarray, int, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                         np.ndarray, np.ndarray, int, bool, int, bool, bool, np.ndarray,
                                         np.ndarray, np.ndarray]:
    """The static arrays `play_games` takes after the policies, in order (house rules included)."""
    return (tables.peaks, tables.row_length, tables.dice_colour, tables.dice_value, tables.dice_faces,
            tables.cnt_lt, tables.totals, tables.mass_lt, tables.rerolls, tables.step_b_optional,
            tables.miss_cap, tables.final_turn_miss, tables.distinct_columns,
            tables.plan_v, tables.plan_q, tables.plan_params)


@dataclass(frozen=True, eq=False)
class Simulation:
    """Games of one setting: the sheet/dice tables, one policy name per seat, the turn safeguard."""

    tables: Tables
    policies: tuple[str, ...]
    turn_limit: int
    pure: bool = False
    """Run the uncompiled Python functions (the baseline and the equality test)."""

    def play(self, seed: np.random.SeedSequence, games: int) -> Tally:
        """Play `games` games from `seed`; "games.*" arrays have one entry per game."""
        return play(self.tables, self.policies, self.turn_limit, seed_state(seed), games, pure=self.pure)


def play(tables: Tables, policies: Sequence[str], turn_limit: int, rng: np.ndarray, games: int,
         pure: bool = False, log_rows: int = 0) -> Tally:
    """Run the kernel for `games` games on RNG state `rng`; with log_rows > 0 also return the event log."""
    n = len(policies)
    scores = np.zeros((games, n), dtype=np.int64)
    misses = np.zeros((games, n), dtype=np.int64)
    filled = np.zeros((games, n), dtype=np.int64)
    turns = np.zeros(games, dtype=np.int64)
    end = np.zeros(games, dtype=np.int64)
    counts = np.zeros(len(COUNT_KEYS), dtype=np.int64)
    log = np.zeros((log_rows, 5 + tables.dice), dtype=np.int64)
    n_log = np.zeros(1, dtype=np.int64)
    pol = np.asarray([POLICY_CODES[p] for p in policies], dtype=np.int64)
    fn = py_func(K.play_games) if pure else K.play_games
    fn(games, pol, *kernel_args(tables), turn_limit, rng, scores, misses, turns, end, filled, counts, log, n_log)
    out: Tally = {"games.scores": scores, "games.misses": misses, "games.turns": turns, "games.end": end,
                  "games.filled": filled}
    for i, k in enumerate(COUNT_KEYS):
        out[k] = counts[i:i + 1].copy()
    if log_rows:
        out["log"] = log[: int(n_log[0])].copy()
    return out
