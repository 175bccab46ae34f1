"""What a tune found: each changed parameter's effect, parameter importance and the report's data."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.engine.tunables import Space
from generator.tune.edit import show_value
from generator.tune.judge import candidate_spec, measured_values, play
from generator.tune.plan import Plan, fmt_number
from generator.tune.proof import Proven, proof_order
from generator.tune.search import Search


@dataclass(frozen=True)
class Effect:
    """What changing one parameter alone (original -> winner) does to each tolerance's measured value."""

    path: str
    old: Any
    new: Any
    rows: tuple[tuple[str, float, float], ...]
    """(tolerance, measured with the original value, with this change alone), largest changes first."""


def effects(plan: Plan, values: dict[str, Any], executor: Any, limit: int = 8) -> list[Effect]:
    """The measured effect of each changed parameter alone, on the search stream (its first batch size)."""
    base_rep = play(plan, plan.kit.game, plan.settings.games, plan.search_seed, executor)
    base = measured_values(base_rep)
    out = []
    for s in plan.space:
        if values[s.path] == plan.original[s.path]:
            continue
        alone = dict(plan.original)
        alone[s.path] = values[s.path]
        spec, _ = candidate_spec(plan, alone)
        if spec is None:
            continue
        now = measured_values(play(plan, spec, plan.settings.games, plan.search_seed, executor))
        rows = [(n, base[n], now[n]) for n in base if n in now]
        rows.sort(key=lambda r: (-abs(_delta(r[1], r[2])), r[0]))
        out.append(Effect(s.path, plan.original[s.path], values[s.path], tuple(rows[:limit])))
    return out


def _delta(a: float, b: float) -> float:
    d = b - a
    return 0.0 if math.isnan(d) else d


@dataclass
class TuneResult:
    """What a tune found and wrote."""

    plan: Plan
    found: Search
    original: Proven
    proven: list[Proven]
    winner: Proven | None
    kit_dir: Path | None
    report: Path
    effects: list[Effect]
    seconds: float


def importance(study: Any) -> dict[str, float]:
    """optuna's parameter importance (PED-ANOVA: numpy only, deterministic); {} when the study cannot give one
    (fewer than two finished trials, or a single value tried)."""
    import warnings

    import optuna

    try:
        ev = optuna.importance.PedAnovaImportanceEvaluator()
        with warnings.catch_warnings():  # "too few trials: importances will be equal" is the report's to say
            warnings.simplefilter("ignore")
            got = optuna.importance.get_param_importances(
                study, evaluator=ev, target=None if len(study.directions) == 1 else lambda t: sum(t.values)
            )
        return {k: float(v) for k, v in got.items()}
    except (RuntimeError, ValueError, ImportError, ZeroDivisionError):
        return {}


def report_data(o: TuneResult) -> dict[str, Any]:
    """Everything the HTML report shows, deterministic (no times)."""
    trials = []
    for number, j in sorted(o.found.judged.items()):
        trials.append(
            {
                "number": number + 1,
                "values": j.values,
                "score": j.score,
                "violation": j.violation,
                "distance": j.distance,
                "pruned": j.hopeless,
                "illegal": j.illegal,
            }
        )
    return {
        "kit": o.plan.kit.meta.id,
        "game": o.plan.kit.game_id,
        "seed": o.plan.seed,
        "search_seed": o.plan.search_seed,
        "proof_seeds": o.plan.proof_seeds,
        "games": o.plan.settings.games,
        "space": [
            {
                "path": s.path,
                "kind": s.kind,
                "range": _range_text(s),
                "original": show_value(o.plan.original[s.path]),
            }
            for s in o.plan.space
        ],
        "targets": [{"tolerance": t.tolerance, "value": t.value} for t in o.plan.targets],
        "trials": trials,
        "importance": importance(o.found.study),
        "original": o.original.report,
        "proven": [
            {
                "values": p.values,
                "report": p.report,
                "holds": p.holds,
                "streams": p.streams,
                "budget": p.budget,
            }
            for p in o.proven
        ],
        "winner": None if o.winner is None else o.winner.values,
        "winner_budget": {} if o.winner is None else o.winner.budget,
        "front": _front(o),
        "effects": [
            {
                "path": e.path,
                "old": show_value(e.old),
                "new": show_value(e.new),
                "rows": [list(r) for r in e.rows],
            }
            for e in o.effects
        ],
    }


def _front(o: TuneResult) -> list[dict[str, Any]]:
    """Several targets: the Pareto front of the candidates whose estimates all sat inside their bounds (or of
    all legal ones when none did), closest to the original first (the first `tune.candidates`, as the
    proof)."""
    if len(o.plan.targets) < 2:
        return []
    return [
        {"values": j.values, "gaps": j.gaps, "distance": j.distance} for j in proof_order(o.plan, o.found)
    ]


def _range_text(s: Space) -> str:
    if s.kind in ("int", "float"):
        assert s.low is not None and s.high is not None
        return f"{fmt_number(s.low)}..{fmt_number(s.high)}"
    if s.kind == "choice":
        return ", ".join(map(str, s.choices))
    return "any order"
