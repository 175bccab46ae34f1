"""The planner policy's static part: per-row value tables from the colour sums' distribution.

Each row is valued on its own (see kernel.plan_table): writing v earns `weight * v`, each roll a row waits
costs `tempo`, and a row that can no longer be completed is worth NEG. The kernel's planner then writes the
colour whose value gain over waiting is highest, weighs that against the next miss (see PlannerParams; under
a compulsory step B a roll is worth its best legal write, however bad, and a write that ruins its row is
priced by the circles it puts out of reach, kernel.doom_gain),
and re-rolls the set of dice (up to reroll_dice of them) whose re-roll has the best exact expected value. The write-or-wait rule is the target
curve: from each (circle, last value) it writes only the values whose gain over waiting is >= 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.engine.kernel import py_func

from generator.games.peak_dice import kernel as K


@dataclass(frozen=True)
class PlannerParams:
    """The planner's exchange rates, in points."""

    weight: float
    """Points per unit of a written value (a column scores one of its 4 values)."""
    tempo: float
    """Points a row loses for every roll it has to wait while every row is open."""
    endgame: float
    """Waiting costs tempo * (rows / open rows) ** endgame: the fewer rows a sheet has open, the likelier a
    wait is a miss."""
    miss_weight: float
    """Scale of the miss cost: the next miss, the k-th, is valued (k + miss_future) * miss_weight points."""
    miss_future: float
    """Later misses each cost one more point after this one: about how many a player still takes."""
    reroll_dice: int
    """The re-roll considers every set of up to this many dice (2: 21 sets of the 6 default dice; all 63
    sets would score about 1 point more and cost several times the time)."""
    doom_base: float = 100.0
    """Compulsory step B only: points a write costs when it leaves a completable row impossible to complete
    (the sheet can no longer end the game, and the row's stuck end brings misses)."""
    doom_circle: float = 20.0
    """Compulsory step B only: points per circle such a write puts out of the row's reach (about one column's
    score each)."""


DEFAULT_PARAMS = PlannerParams(weight=0.25, tempo=0.6, endgame=1.0, miss_weight=1.0, miss_future=2.0, reroll_dice=2,
                               doom_base=100.0, doom_circle=20.0)
"""Tuned by self-play of the default sheet (mean score is flat within about 1 point around these values)."""


def plan_arrays(peaks: np.ndarray, row_length: int, mass_lt: np.ndarray,
                params: PlannerParams = DEFAULT_PARAMS, pure: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(plan_v, plan_q), float64[levels = rows, rows, row_length + 1, values] as kernel.plan_table fills them."""
    rows = peaks.shape[0]
    shape = (rows, rows, row_length + 1, mass_lt.shape[1] - 1)
    tempos = np.asarray([params.tempo * (rows / (k + 1)) ** params.endgame for k in range(rows)], dtype=np.float64)
    plan_v = np.zeros(shape, dtype=np.float64)
    plan_q = np.zeros(shape, dtype=np.float64)
    fn = py_func(K.plan_table) if pure else K.plan_table
    fn(peaks, row_length, mass_lt, float(params.weight), tempos, plan_v, plan_q)
    return plan_v, plan_q
