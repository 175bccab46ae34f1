"""One candidate of a tune: the kit with some values changed, played and scored."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from generator.contract import registry
from generator.engine.report import BalanceReport, Tolerance
from generator.engine.tunables import distance
from generator.engine.verdict import Verdict
from generator.tune.plan import VIOLATION_WEIGHT, Plan, set_path


@dataclass
class Judged:
    """One candidate as the search saw it."""

    values: dict[str, Any]
    violation: float
    distance: float
    target_gap: float
    hopeless: bool
    illegal: str = ""
    measured: dict[str, float] = field(default_factory=dict)
    gaps: list[float] = field(default_factory=list)
    """Each target's gap (several targets: the objectives of a multi-objective search)."""

    @property
    def score(self) -> float:
        return (
            self.violation * VIOLATION_WEIGHT
            + self.target_gap
            + self.distance * (0.01 if self.target_gap else 1)
        )

    def objectives(self) -> tuple[float, ...]:
        """One value per target (a multi-objective search): each target's gap, the bounds first."""
        base = self.violation * VIOLATION_WEIGHT + self.distance * 0.01
        return tuple(base + g for g in (self.gaps or [self.target_gap]))


def candidate_game(plan: Plan, values: dict[str, Any]) -> dict[str, Any]:
    """The raw game section with `values` written in."""
    raw = copy.deepcopy(plan.raw_game)
    for s in plan.space:
        set_path(raw, s.tunable.keys[1:], copy.deepcopy(values[s.path]))
    return raw


def candidate_spec(plan: Plan, values: dict[str, Any]) -> tuple[Any, str]:
    """The validated game spec of a candidate, or (None, why it is illegal)."""
    from pydantic import ValidationError

    plugin = registry.get(plan.kit.game_id)
    try:
        spec = plugin.load.spec().model_validate(candidate_game(plan, values))
    except ValidationError as e:
        first = e.errors()[0]
        return None, f"invalid: {'.'.join(map(str, first['loc']))}: {first['msg']}"
    problems = list(plugin.load.legal_problems()(spec))
    if problems:
        key, msg = problems[0]
        return None, f"illegal: {key}: {msg}"
    return spec, ""


def violation(t: Tolerance) -> float:
    """How far the point estimate lies outside the bound, as a share of the bound's scale (0 inside)."""
    m = t.measured
    if math.isnan(m):
        return 1.0
    lo, hi = t.minimum, t.maximum
    scale = abs(hi - lo) if lo is not None and hi is not None else abs(lo if lo is not None else hi or 0.0)
    scale = max(scale, 1e-6)
    if lo is not None and m < lo:
        return (lo - m) / scale
    if hi is not None and m > hi:
        return (m - hi) / scale
    return 0.0


def target_gaps(plan: Plan, rep: BalanceReport) -> list[float]:
    """Per target: the mean distance of its tolerances' measured values from the target value."""
    out = []
    for tg in plan.targets:
        vals = [
            abs(t.measured - tg.value)
            for t in rep.tolerances
            if t.spec_key == tg.spec_key and not math.isnan(t.measured)
        ]
        out.append(float(np.mean(vals)) if vals else 0.0)
    return out


def play(plan: Plan, spec: Any, games: int, seed: int, executor: Any) -> BalanceReport:
    """One look of the game's own balance check at a fixed games count."""
    rep: BalanceReport = registry.get(plan.kit.game_id).load.balance_report()(
        spec, games=games, seed=seed, executor=executor, kit=plan.kit.meta.id
    )
    return rep


def judge_candidate(
    plan: Plan, values: dict[str, Any], executor: Any, on_first_batch: Callable[[float], bool] | None = None
) -> Judged:
    """Play a candidate on the search stream: a first batch, then (unless a tolerance FAILS: hopeless) a
    second batch as large. `on_first_batch(score)` may stop it too (an optuna pruner)."""
    d = distance(plan.space, plan.original, values)
    spec, why = candidate_spec(plan, values)
    if spec is None:
        return Judged(values, 1.0, d, 0.0, True, why)
    g = plan.settings.games
    rep = play(plan, spec, g, plan.search_seed, executor)
    hopeless = any(t.verdict is Verdict.FAILS for t in rep.tolerances)
    gaps = target_gaps(plan, rep)
    first = Judged(
        values,
        sum(violation(t) for t in rep.tolerances),
        d,
        sum(gaps),
        hopeless,
        measured=measured_values(rep),
        gaps=gaps,
    )
    stop = on_first_batch(first.score) if on_first_batch else False
    if hopeless or stop:
        first.hopeless = True
        return first
    rep = play(plan, spec, 2 * g, plan.search_seed, executor)
    gaps = target_gaps(plan, rep)
    return Judged(
        values,
        sum(violation(t) for t in rep.tolerances),
        d,
        sum(gaps),
        False,
        measured=measured_values(rep),
        gaps=gaps,
    )


def measured_values(rep: BalanceReport) -> dict[str, float]:
    """Each tolerance's measured value, by name."""
    return {t.name: t.measured for t in rep.tolerances}
