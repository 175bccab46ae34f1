"""The search of a tune: optuna TPE on common random numbers, hopeless trials pruned."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from generator.engine.sequential import CachingExecutor
from generator.errors import KitError
from generator.interrupts import checkpoint
from generator.tune.judge import Judged, judge_candidate
from generator.tune.plan import Plan, TuneUsageError


def _suggest(trial: Any, plan: Plan) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for s in plan.space:
        if s.kind == "int":
            assert s.low is not None and s.high is not None
            out[s.path] = trial.suggest_int(s.path, int(s.low), int(s.high))
        elif s.kind == "float":
            assert s.low is not None and s.high is not None
            out[s.path] = trial.suggest_float(s.path, float(s.low), float(s.high))
        elif s.kind == "choice":
            out[s.path] = trial.suggest_categorical(s.path, list(s.choices))
        else:  # a permutation as its Lehmer code: all zeros = the kit's own order
            items = list(plan.original[s.path])
            perm = []
            for i in range(len(items) - 1):
                perm.append(items.pop(trial.suggest_int(f"{s.path}[{i}]", 0, len(items) - 1)))
            out[s.path] = perm + items
    return out


def values_key(values: dict[str, Any]) -> str:
    """A candidate's values as one sortable string (the same values, the same key)."""
    return json.dumps(values, sort_keys=True, default=str)


@dataclass
class Search:
    """The finished search: every judged candidate by trial number, and the optuna study."""

    study: Any
    judged: dict[int, Judged]
    played: int
    """Trials this run played (the rest came from the storage)."""


def search(
    plan: Plan,
    executor: Any,
    *,
    storage: str | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> Search:
    """Run (or continue, from `storage`) the TPE search until the study has `plan.trials` finished trials."""
    try:
        import optuna
    except ImportError:
        raise KitError("pnpkit tune needs optuna: pip install 'pnpkit[tune]'") from None

    # ERROR: optuna logs an interrupted trial (Ctrl-C) as a warning with a traceback; the CLI says it plainly
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    # several targets: a multi-objective study (one objective per target; TPE's multi-objective mode, seeded),
    # whose Pareto front the proof walks closest to the original first
    objectives = len(plan.targets) if len(plan.targets) > 1 else 1
    sampler = optuna.samplers.TPESampler(
        seed=plan.seed % 2**32, n_startup_trials=min(10, max(1, plan.trials // 2))
    )
    try:
        # pruning is the hopeless rule of judge_candidate (a FAILING tolerance after the first batch), not a
        # median of other trials: a candidate is never dropped for being merely worse than its neighbours
        study = optuna.create_study(
            study_name=plan.study_name(),
            storage=storage,
            sampler=sampler,
            pruner=optuna.pruners.NopPruner(),
            directions=["minimize"] * objectives,
            load_if_exists=True,
        )
    except Exception as e:  # a bad URL or an unreadable database: name it
        raise TuneUsageError(f"--storage {storage!r}: cannot open ({type(e).__name__}: {e})") from None
    cache = CachingExecutor(executor)
    seen: dict[str, Judged] = {}
    done_states = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    for t in study.get_trials(deepcopy=False, states=done_states):
        if "values" in t.user_attrs:
            seen.setdefault(t.user_attrs["values"], _from_attrs(t.user_attrs))
    finished = len(study.get_trials(deepcopy=False, states=done_states))
    todo = max(0, plan.trials - finished)
    played = 0

    def objective(trial: Any) -> float | tuple[float, ...]:
        nonlocal played
        # Ctrl-C is acted on here and between the games' batches, never inside optuna's storage writes (a
        # signal raised in a database commit printed its traceback); optuna marks this trial failed
        checkpoint()
        values = _suggest(trial, plan)
        k = values_key(values)
        j = seen.get(k)
        if j is None:

            def prune(score: float) -> bool:
                trial.report(score, 0)
                return bool(trial.should_prune())

            j = judge_candidate(plan, values, cache, prune if objectives == 1 else None)
            seen[k] = j
        for name, v in _attrs(j).items():
            trial.set_user_attr(name, v)
        played += 1
        if progress:
            progress(finished + played, plan.trials, f"trial {trial.number + 1}: score {j.score:.4g}")
        if j.hopeless:
            raise optuna.TrialPruned()
        return j.score if objectives == 1 else j.objectives()

    if progress:
        progress(finished, plan.trials, "searching")
    if todo:
        study.optimize(objective, n_trials=todo, catch=())
    judged = {
        t.number: _from_attrs(t.user_attrs)
        for t in study.get_trials(deepcopy=False, states=done_states)
        if "values" in t.user_attrs
    }
    return Search(study, judged, played)


def _attrs(j: Judged) -> dict[str, Any]:
    return {
        "values": values_key(j.values),
        "violation": j.violation,
        "distance": j.distance,
        "target_gap": j.target_gap,
        "hopeless": j.hopeless,
        "illegal": j.illegal,
        "measured": json.dumps(j.measured, sort_keys=True),
        "gaps": json.dumps(j.gaps),
    }


def _from_attrs(a: dict[str, Any]) -> Judged:
    return Judged(
        json.loads(a["values"]),
        float(a["violation"]),
        float(a["distance"]),
        float(a["target_gap"]),
        bool(a["hopeless"]),
        str(a.get("illegal", "")),
        json.loads(a.get("measured", "{}")),
        json.loads(a.get("gaps", "[]")),
    )


def ranked(found: Search) -> list[Judged]:
    """Distinct candidates, best first: those where every estimate sits inside its bound, by score, then the
    rest; ties by the first trial that found them."""
    best: dict[str, tuple[int, Judged]] = {}
    for number, j in sorted(found.judged.items()):
        best.setdefault(values_key(j.values), (number, j))
    order = sorted(
        best.values(), key=lambda nj: (nj[1].illegal != "", nj[1].violation > 0, nj[1].score, nj[0])
    )
    return [j for _, j in order]
