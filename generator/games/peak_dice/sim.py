"""The picklable self-play job: one kernel call per chunk, returning per-game arrays and summed counts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from generator.engine.kernel import seed_state
from generator.engine.runner import Tally
from generator.games.peak_dice import kernel as K
from generator.games.peak_dice.planner import plan_of
from generator.games.peak_dice.sheet import setup_of
from generator.games.peak_dice.tables import Tables

POLICY_CODES = {
    "random": K.POLICY_RANDOM,
    "greedy": K.POLICY_GREEDY,
    "reroll": K.POLICY_REROLL,
    "planner": K.POLICY_PLANNER,
    "planner_keep": K.POLICY_PLANNER_KEEP,
}
END_NAMES = {K.END_FULL: "sheet_full", K.END_STALLED: "stalled", K.END_LIMIT: "turn_limit"}
COUNT_KEYS = {
    "active_turns": K.ACTIVE_TURNS,
    "miss_turns": K.MISS_TURNS,
    "reroll_turns": K.REROLL_TURNS,
    "writes_b": K.WRITES_B,
    "writes_c": K.WRITES_C,
}
"""The tally key of each of the kernel's counters."""


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


def play(
    tables: Tables,
    policies: Sequence[str],
    turn_limit: int,
    rng: np.ndarray,
    games: int,
    pure: bool = False,
    log_rows: int = 0,
) -> Tally:
    """Run the kernel for `games` games on RNG state `rng`; with log_rows > 0 also return the event log."""
    res = K.results(games, len(policies), tables.dice, log_rows)
    pol = np.asarray([POLICY_CODES[p] for p in policies], dtype=np.int64)
    K.play_games(games, pol, setup_of(tables), plan_of(tables), turn_limit, rng, res, pure=pure)
    out: Tally = {
        "games.scores": res.scores,
        "games.misses": res.misses,
        "games.turns": res.turns,
        "games.end": res.end,
        "games.filled": res.filled,
    }
    for k, i in COUNT_KEYS.items():
        out[k] = res.counts[i : i + 1].copy()
    if log_rows:
        out["log"] = res.log[: int(res.n_log[0])].copy()
    return out
