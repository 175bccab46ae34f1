"""`pnpkit tune`: search a kit's declared tunable parameters until every balance tolerance holds, then prove it.

A client of the check pipeline: a candidate kit is the original kit.yaml with some values changed; it must
validate and pass the game's legal checks, then the game's own `balance_report` judges it. The pipeline never
reaches into a game's kernels.

1. Search (optuna, TPE seeded by --seed): every trial plays the same seeded deals (common random numbers, so
   two candidates differ by their parameters, not by luck), a first batch of `tune.games` games per setting;
   a trial with a FAILING tolerance stops there (pruned: hopeless), the others play a second batch as large.
   Score: how far the point estimates lie outside their bounds (x 1000), plus the distance to the original kit
   (fewest changed parameters, then the smallest changes), or plus the distance to the targets.
   Several targets: one objective each (a multi-objective study).
2. Proof (`proof_order`): walking outward from the original (the nearer candidates first, for one integer
   parameter every value in between, then the `tune.candidates` nearest whose estimates held), or the best
   scores for a target, or the Pareto front for several, each is judged by the full sequential check
   (`balance.games` doubling to `balance.max_games`, family-wise `balance.confidence`) on seed streams the
   search never used; one that fails nothing but stays undecided gets the cap doubled up to
   `tune.proof_max_games`. The first whose every tolerance HOLDS on every stream wins.
3. The winner is written as `OUT/<kit>-tuned/` (the kit folder copied, kit.yaml edited in place with its
   comments kept and each changed value, a raised `balance.max_games` included, annotated with its old one),
   validated; the report beside it.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
import math
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel

import generator.games.registry as registry
from generator.build import check_kit, load_kits
from generator.engine.report import BalanceReport, Tolerance
from generator.engine.sequential import CachingExecutor, judge
from generator.engine.tuning import Space, Tunable, distance, find
from generator.engine.verdict import Verdict
from generator.errors import KitError, OptionError, Problem, SpecError
from generator.spec.base import Bound
from generator.spec.kit import Kit
from generator.spec.paths import read_kit_file
from generator.spec.tune import TuneSpec
from generator.spec.yamlio import MAX_SPEC_BYTES, line_of, parse_yaml

VIOLATION_WEIGHT = 1000.0
"""A candidate with any tolerance outside its bound scores worse than any candidate where all hold."""
STUDY_PREFIX = "pnpkit-tune"
SEARCH_STREAM = 1
PROOF_STREAM = 2


class TuneUsageError(OptionError):
    """The command line's own options are wrong (the CLI exits 2)."""


# ---------------------------------------------------------------------------------------------- the plan

@dataclass(frozen=True)
class Target:
    """Pull every tolerance under `spec_key` towards `value`."""

    tolerance: str
    value: float

    @property
    def spec_key(self) -> str:
        return f"game.balance.{self.tolerance}"


@dataclass
class Plan:
    """What one tune does: the kit, its raw game section, the search space, targets, budgets and seeds."""

    kit: Kit
    raw_game: dict[str, Any]
    space: list[Space]
    targets: list[Target]
    settings: TuneSpec
    trials: int
    seed: int
    original: dict[str, Any]

    @property
    def search_seed(self) -> int:
        return stream_seed(self.seed, SEARCH_STREAM)

    @property
    def proof_seeds(self) -> list[int]:
        """The proof streams, none the search used: the run seed itself first (so `pnpkit check --seed S`, or a
        plain `pnpkit check` when S is the kit's seed, repeats the proof exactly), then derived ones."""
        return [self.seed] + [stream_seed(self.seed, PROOF_STREAM + i) for i in range(self.settings.proofs - 1)]

    def study_name(self) -> str:
        """One study per kit, space, targets, budget and seed: a storage may hold several tunes."""
        key = json.dumps([self.kit.meta.id, [_space_json(s) for s in self.space],
                          [[t.tolerance, t.value] for t in self.targets], self.settings.games, self.seed],
                         sort_keys=True, default=str)
        return f"{STUDY_PREFIX}:{self.kit.meta.id}:{hashlib.sha256(key.encode()).hexdigest()[:12]}"


def stream_seed(seed: int, stream: int) -> int:
    """An independent seed for one use of the run seed (search, proof): never the run seed itself."""
    state = np.random.SeedSequence([seed, 0x70756E65, stream]).generate_state(2, np.uint32)
    return int((int(state[0]) << 31) ^ int(state[1]))


def _space_json(s: Space) -> list[Any]:
    return [s.path, s.kind, s.low, s.high, list(s.choices)]


def get_path(data: Any, keys: Sequence[str]) -> Any:
    """data[k1][k2]... (KeyError when missing)."""
    node = data
    for k in keys:
        if not isinstance(node, dict) or k not in node:
            raise KeyError(".".join(keys))
        node = node[k]
    return node


def set_path(data: dict[str, Any], keys: Sequence[str], value: Any) -> None:
    node = data
    for k in keys[:-1]:
        node = node.setdefault(k, {})
    node[keys[-1]] = value


def parse_param(text: str) -> tuple[str, float | None, float | None, tuple[Any, ...] | None]:
    """`path=lo..hi`, `path=choice:a,b` or `path=permutation` -> (path, lo, hi, choices)."""
    path, eq, rng = text.partition("=")
    path, rng = path.strip(), rng.strip()
    if not eq or not path or not rng:
        raise TuneUsageError(f"--param: expected path=lo..hi, path=choice:a,b or path=permutation; got {text!r}")
    if rng.startswith("choice:"):
        items = tuple(_scalar(x.strip()) for x in rng[len("choice:"):].split(",") if x.strip())
        if len(items) < 2:
            raise TuneUsageError(f"--param {path}: a choice needs at least two values; got {rng!r}")
        return path, None, None, items
    if rng == "permutation":
        return path, None, None, None
    lo, dots, hi = rng.partition("..")
    try:
        if not dots:
            raise ValueError
        a, b = float(lo), float(hi)
    except ValueError:
        raise TuneUsageError(f"--param {path}: expected a range lo..hi such as 8..20; got {rng!r}") from None
    if a > b:
        raise TuneUsageError(f"--param {path}: the range {rng} is empty (lo > hi)")
    return path, a, b, None


def _scalar(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text, text)


def _space_for(t: Tunable, lo: float | None, hi: float | None, choices: tuple[Any, ...] | None,
               original: Any, where: Callable[[str], Exception], kit_name: str) -> Space:
    """The search range of one tunable, refused (by `where(message)`) when it leaves the legal range."""
    if t.kind in ("int", "float"):
        if choices is not None:
            raise where(f"{t.path} is {t.describe()}: give a range lo..hi, not choices")
        assert t.low is not None and t.high is not None
        lo = float(t.low if lo is None else lo)
        hi = float(t.high if hi is None else hi)
        if lo < t.low or hi > t.high:
            raise where(f"{t.path}: range {_fmt(lo)}..{_fmt(hi)} leaves the legal range: {t.describe()}")
        if t.kind == "int" and (lo != int(lo) or hi != int(hi)):
            raise where(f"{t.path}: expected whole numbers for {t.describe()}; got {_fmt(lo)}..{_fmt(hi)}")
        if lo > hi:
            raise where(f"{t.path}: the range {_fmt(lo)}..{_fmt(hi)} is empty (min > max)")
        return Space(t, lo, hi)
    if t.kind == "choice":
        if lo is not None or hi is not None:
            raise where(f"{t.path} is {t.describe()}: give choices, not a range")
        picked = t.choices if choices is None else choices
        bad = [c for c in picked if c not in t.choices]
        if bad:
            raise where(f"{t.path}: {', '.join(map(str, bad))} is not legal here: expected {t.describe()}")
        return Space(t, choices=tuple(picked))
    if lo is not None or hi is not None or choices is not None:
        raise where(f"{t.path} is a reordering of the kit's list: give no range or choices")
    if not isinstance(original, list) or len(original) < 2:
        raise where(f"{t.path}: expected a list of at least two items in {kit_name} to reorder")
    return Space(t)


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def tunables_of(kit: Kit) -> tuple[Tunable, ...]:
    """The tunables the kit's game declares (none: an empty tuple)."""
    plugin = registry.get(kit.game_id)
    return tuple(plugin.tunables()) if plugin.tunables is not None else ()


def make_plan(kit_path: Path, *, params: Sequence[str] = (), targets: Sequence[str] = (), trials: int | None = None,
              seed: int | None = None) -> Plan:
    """Load and check the kit, then the search space from `--param` (usage errors) or its `tune:` section (spec
    errors located in kit.yaml)."""
    (kit,) = load_kits([kit_path])
    problems = check_kit(kit)
    if problems:
        raise SpecError(problems)
    raw, lines = parse_yaml(read_kit_file(kit.dir / "kit.yaml", kit.display, MAX_SPEC_BYTES, "kit.yaml"), kit.display)
    raw_game = copy.deepcopy(dict(raw["game"]))
    settings = TuneSpec.model_validate(raw.get("tune") or {})
    declared = tunables_of(kit)
    if not declared:
        raise KitError(f"{kit.display}: game {kit.game_id!r} declares no tunable parameters")

    def usage(msg: str) -> Exception:
        return TuneUsageError(f"--param {msg}")

    def located(key: tuple[str | int, ...]) -> Callable[[str], Exception]:
        def make(msg: str) -> Exception:
            return SpecError([Problem(kit.display, line_of(lines, key), ".".join(map(str, key)), msg)])
        return make

    def known(path: str) -> str:
        return f"{path!r} is not tunable in {kit.game_id}; tunable: " + ", ".join(t.path for t in declared)

    space: list[Space] = []
    if params:
        for text in params:
            path, lo, hi, choices = parse_param(text)
            t = find(declared, path)
            if t is None:
                raise TuneUsageError(f"--param {known(path)}")
            space.append(_space_for(t, lo, hi, choices, _original(raw_game, t), usage, kit.display))
    else:
        for i, p in enumerate(settings.params):
            key: tuple[str | int, ...] = ("tune", "params", i)
            t = find(declared, p.path)
            if t is None:
                raise located(key + ("path",))(known(p.path))
            choices = tuple(p.choices) if p.choices is not None else None
            lo = None if p.min is None else float(p.min)
            hi = None if p.max is None else float(p.max)
            space.append(_space_for(t, lo, hi, choices, _original(raw_game, t), located(key), kit.display))
    if not space:
        raise TuneUsageError("nothing to tune: pass --param path=lo..hi (or list tune.params in kit.yaml); "
                             "tunable: " + ", ".join(t.path for t in declared))
    paths = [s.path for s in space]
    if len(set(paths)) != len(paths):
        raise TuneUsageError(f"--param: a path is given twice: {', '.join(sorted({p for p in paths if paths.count(p) > 1}))}")
    goal: list[Target] = []
    if targets:
        for text in targets:
            name, eq, val = text.partition("=")
            try:
                value = float(val)
            except ValueError:
                raise TuneUsageError(f"--target: expected tolerance=value such as seat_win_share=1; got {text!r}") from None
            if not eq or not _is_tolerance(kit.game.balance, name.strip()):
                raise TuneUsageError(f"--target {name.strip()!r} names no tolerance of game.balance; expected one "
                                     f"of {', '.join(tolerance_names(kit.game.balance))}")
            goal.append(Target(name.strip(), value))
    else:
        for i, tg in enumerate(settings.targets):
            if not _is_tolerance(kit.game.balance, tg.tolerance):
                raise located(("tune", "targets", i, "tolerance"))(
                    f"{tg.tolerance!r} names no tolerance of game.balance; expected one of "
                    f"{', '.join(tolerance_names(kit.game.balance))}")
            goal.append(Target(tg.tolerance, float(tg.value)))
    n = settings.trials if trials is None else trials
    if n < 1:
        raise TuneUsageError(f"--trials: expected a number >= 1; got {n}")
    original = {s.path: _original(raw_game, s.tunable) for s in space}
    return Plan(kit, raw_game, space, goal, settings, n, kit.meta.seed if seed is None else seed, original)


def _original(raw_game: dict[str, Any], t: Tunable) -> Any:
    try:
        return copy.deepcopy(get_path(raw_game, t.keys[1:]))
    except KeyError:
        raise KitError(f"{t.path} is not set in the kit; set it in kit.yaml before tuning it") from None


def tolerance_names(balance: Any, prefix: str = "") -> list[str]:
    """The dotted names of every bound (a `Bound`: min and max) under a balance section."""
    out: list[str] = []
    for name in type(balance).model_fields:
        v = getattr(balance, name)
        if isinstance(v, Bound):
            out.append(prefix + name)
        elif isinstance(v, BaseModel):
            out.extend(tolerance_names(v, f"{prefix}{name}."))
    return out


def _is_tolerance(balance: Any, name: str) -> bool:
    return name in tolerance_names(balance)


# ---------------------------------------------------------------------------------------------- one candidate

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
        return self.violation * VIOLATION_WEIGHT + self.target_gap + self.distance * (0.01 if self.target_gap else 1)

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
        spec = plugin.spec().model_validate(candidate_game(plan, values))
    except ValidationError as e:
        first = e.errors()[0]
        return None, f"invalid: {'.'.join(map(str, first['loc']))}: {first['msg']}"
    problems = list(plugin.legal_problems()(spec))
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
        vals = [abs(t.measured - tg.value) for t in rep.tolerances if t.spec_key == tg.spec_key
                and not math.isnan(t.measured)]
        out.append(float(np.mean(vals)) if vals else 0.0)
    return out


def play(plan: Plan, spec: Any, games: int, seed: int, executor: Any) -> BalanceReport:
    """One look of the game's own balance check at a fixed games count."""
    rep: BalanceReport = registry.get(plan.kit.game_id).balance_report()(spec, games=games, seed=seed,
                                                                      executor=executor, kit=plan.kit.meta.id)
    return rep


def judge_candidate(plan: Plan, values: dict[str, Any], executor: Any,
                    on_first_batch: Callable[[float], bool] | None = None) -> Judged:
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
    first = Judged(values, sum(violation(t) for t in rep.tolerances), d, sum(gaps), hopeless,
                   measured=_measured(rep), gaps=gaps)
    stop = on_first_batch(first.score) if on_first_batch else False
    if hopeless or stop:
        first.hopeless = True
        return first
    rep = play(plan, spec, 2 * g, plan.search_seed, executor)
    gaps = target_gaps(plan, rep)
    return Judged(values, sum(violation(t) for t in rep.tolerances), d, sum(gaps), False,
                  measured=_measured(rep), gaps=gaps)


def _measured(rep: BalanceReport) -> dict[str, float]:
    return {t.name: t.measured for t in rep.tolerances}


# ---------------------------------------------------------------------------------------------- the search

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


def _key(values: dict[str, Any]) -> str:
    return json.dumps(values, sort_keys=True, default=str)


@dataclass
class Search:
    """The finished search: every judged candidate by trial number, and the optuna study."""

    study: Any
    judged: dict[int, Judged]
    played: int
    """Trials this run played (the rest came from the storage)."""


def search(plan: Plan, executor: Any, *, storage: str | None = None,
           progress: Callable[[int, int, str], None] | None = None) -> Search:
    """Run (or continue, from `storage`) the TPE search until the study holds `plan.trials` finished trials."""
    try:
        import optuna
    except ImportError:
        raise KitError("pnpkit tune needs optuna: pip install 'pnpkit[tune]'") from None

    # ERROR: optuna logs an interrupted trial (Ctrl-C) as a warning with a traceback; the CLI says it plainly
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    # several targets: a multi-objective study (one objective per target; TPE's multi-objective mode, seeded),
    # whose Pareto front the proof walks closest to the original first
    objectives = len(plan.targets) if len(plan.targets) > 1 else 1
    sampler = optuna.samplers.TPESampler(seed=plan.seed % 2**32, n_startup_trials=min(10, max(1, plan.trials // 2)))
    try:
        # pruning is the hopeless rule of judge_candidate (a FAILING tolerance after the first batch), not a
        # median of other trials: a candidate is never dropped for being merely worse than its neighbours
        study = optuna.create_study(study_name=plan.study_name(), storage=storage, sampler=sampler,
                                    pruner=optuna.pruners.NopPruner(), directions=["minimize"] * objectives,
                                    load_if_exists=True)
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
        values = _suggest(trial, plan)
        k = _key(values)
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
    judged = {t.number: _from_attrs(t.user_attrs) for t in study.get_trials(deepcopy=False, states=done_states)
              if "values" in t.user_attrs}
    return Search(study, judged, played)


def _attrs(j: Judged) -> dict[str, Any]:
    return {"values": _key(j.values), "violation": j.violation, "distance": j.distance, "target_gap": j.target_gap,
            "hopeless": j.hopeless, "illegal": j.illegal, "measured": json.dumps(j.measured, sort_keys=True),
            "gaps": json.dumps(j.gaps)}


def _from_attrs(a: dict[str, Any]) -> Judged:
    return Judged(json.loads(a["values"]), float(a["violation"]), float(a["distance"]), float(a["target_gap"]),
                  bool(a["hopeless"]), str(a.get("illegal", "")), json.loads(a.get("measured", "{}")),
                  json.loads(a.get("gaps", "[]")))


def ranked(found: Search) -> list[Judged]:
    """Distinct candidates, best first: those where every estimate sits inside its bound, by score, then the
    rest; ties by the first trial that found them."""
    best: dict[str, tuple[int, Judged]] = {}
    for number, j in sorted(found.judged.items()):
        best.setdefault(_key(j.values), (number, j))
    order = sorted(best.values(), key=lambda nj: (nj[1].illegal != "", nj[1].violation > 0, nj[1].score, nj[0]))
    return [j for _, j in order]


# ---------------------------------------------------------------------------------------------- the proof

MAX_GAMES_PATH = "game.balance.max_games"


@dataclass
class Proven:
    """A candidate (or the original) judged by the full check on the proof streams (stopping at the first stream
    where it does not hold); `report` is that stream's, or the first stream's when it holds on all."""

    values: dict[str, Any]
    report: BalanceReport
    streams: int = 1
    """Proof streams played."""
    holds: bool = False
    budget: dict[str, Any] = field(default_factory=dict)
    """Balance settings the proof raised (`game.balance.max_games`: the cap it needed), written into the kit."""


def _holds(rep: BalanceReport) -> bool:
    return all(t.verdict is Verdict.HOLDS for t in rep.tolerances)


def _fails(rep: BalanceReport) -> bool:
    return any(t.verdict is Verdict.FAILS for t in rep.tolerances)


def budget_ladder(max_games: int | None, proof_max_games: int | None) -> list[int | None]:
    """The game caps a proof may use: the kit's own `balance.max_games`, then doubled while it stays within
    `tune.proof_max_games` (which ends the ladder when it is not a doubling of the kit's cap)."""
    ladder: list[int | None] = [max_games]
    if max_games is None or proof_max_games is None or proof_max_games <= max_games:
        return ladder
    cap = max_games
    while cap * 2 <= proof_max_games:
        cap *= 2
        ladder.append(cap)
    if cap != proof_max_games:
        ladder.append(proof_max_games)
    return ladder


def _with_max_games(spec: Any, cap: int | None) -> Any:
    b = spec.balance
    if cap is None or getattr(b, "max_games", None) in (None, cap):
        return spec
    return spec.model_copy(update={"balance": b.model_copy(update={"max_games": cap})})


def proven(plan: Plan, values: dict[str, Any], spec: Any, executor: Any) -> Proven:
    """The full check of one candidate on every proof stream until one does not hold. A candidate that fails on
    no tolerance but leaves one UNDECIDED (the games ran out, not the kit) is checked again with a doubled
    `balance.max_games`, up to `tune.proof_max_games`; the cap that decides it is written into the tuned kit,
    so `pnpkit check` on that kit plays the same looks. Every rung replays the same seeded games from a cache."""
    cache = CachingExecutor(executor)
    own = getattr(spec.balance, "max_games", None)
    out: Proven | None = None
    for cap in budget_ladder(own, plan.settings.proof_max_games):
        capped = _with_max_games(spec, cap)
        budget = {} if cap == own else {MAX_GAMES_PATH: cap}
        first: BalanceReport | None = None
        out = None
        for i, s in enumerate(plan.proof_seeds):
            rep = full_check(plan, capped, cache, seed=s)
            first = first or rep
            if not _holds(rep):
                out = Proven(values, rep, i + 1, False, budget)
                break
        if out is None:
            assert first is not None
            return Proven(values, first, len(plan.proof_seeds), True, budget)
        if _fails(out.report):
            return out
    assert out is not None
    return out


def full_check(plan: Plan, spec: Any, executor: Any, progress: Callable[..., None] | None = None, *,
               seed: int | None = None) -> BalanceReport:
    """The game's sequential check (as `pnpkit check` runs it) on the proof stream."""
    b = spec.balance
    first = int(b.games)
    cap = int(getattr(b, "max_games", None) or 8 * first)
    conf = getattr(b, "confidence", None)
    cache = executor if isinstance(executor, CachingExecutor) else CachingExecutor(executor)

    def make(budget: Any) -> BalanceReport:
        rep: BalanceReport = registry.get(plan.kit.game_id).balance_report()(
            spec, games=budget, seed=plan.seed if seed is None else seed, executor=cache, kit=plan.kit.meta.id)
        return rep

    return judge(make, first=first, cap=max(first, cap), confidence=float(conf) if isinstance(conf, float) else 0.99,
                 progress=progress)


def proof_order(plan: Plan, found: Search) -> list[Judged]:
    """The candidates the proof judges, in order. Without targets (the least edit that holds): first the
    candidates nearer the original than the nearest one whose estimates all sat inside their bounds (not
    hopeless in the search; for a single integer parameter every value in between, sampled or not), closest
    first, then the `tune.candidates` nearest of those whose estimates held: the proof walks outward from
    the original, so the first that holds is the least edit the check can prove. With targets: the best
    scores first. With several targets: the Pareto front, closest to the original first."""
    best = [j for j in ranked(found) if not j.illegal]
    n = plan.settings.candidates
    hold = [j for j in best if j.violation == 0]
    if len(plan.targets) > 1:
        return sorted(pareto(hold or best), key=lambda j: (j.distance, j.score))[:n]
    if plan.targets:
        return (hold or best)[:n]
    if not hold:
        return best[:n]
    reach = min(j.distance for j in hold)
    # the nearer ones (estimates outside a bound but not hopeless, or never sampled) come on top of the
    # `candidates` budget, which counts the candidates whose estimates held
    pool = {_key(j.values): j for j in best if not j.hopeless and j.violation != 0 and j.distance < reach}
    if len(plan.space) == 1 and plan.space[0].kind == "int":
        s = plan.space[0]
        near = min(hold, key=lambda j: (j.distance, j.score))
        lo, hi = sorted((int(plan.original[s.path]), int(near.values[s.path])))
        sampled = {_key(j.values) for j in best}
        for v in range(lo + 1, hi):
            values = {s.path: v}
            if _key(values) not in sampled:
                pool[_key(values)] = Judged(values, math.nan, distance(plan.space, plan.original, values), 0.0, False)
    order = sorted(pool.values(), key=lambda j: (j.distance, j.score))
    return order + sorted(hold, key=lambda j: (j.distance, j.score))[:n]


def pareto(judged: Sequence[Judged]) -> list[Judged]:
    """The candidates no other candidate beats on every target (lower gaps), in their given order."""
    def gaps(j: Judged) -> tuple[float, ...]:
        return tuple(j.gaps) if j.gaps else (j.target_gap,)

    out = []
    for j in judged:
        g = gaps(j)
        if not any(all(a <= b for a, b in zip(gaps(o), g)) and gaps(o) != g for o in judged):
            out.append(j)
    return out


def prove(plan: Plan, candidates: Sequence[Judged], executor: Any,
          progress: Callable[[int, int, str], None] | None = None) -> tuple[Proven, list[Proven]]:
    """The original and then each candidate (in proof order) under the full check; stops at the first that
    holds. Without targets an original that holds (perhaps with a raised game budget) needs no candidate."""
    total = len(candidates) + 1
    if progress:
        progress(0, total, "proof: the original kit")
    original = proven(plan, dict(plan.original), plan.kit.game, executor)
    out: list[Proven] = []
    if original.holds and not plan.targets:
        candidates = []
    for i, c in enumerate(candidates):
        if progress:
            progress(i + 1, total, f"proof: candidate {i + 1} of {len(candidates)}")
        if c.values == plan.original:  # the original ranks among the best (targets): judged already
            p = original
        else:
            spec, _ = candidate_spec(plan, c.values)
            if spec is None:
                continue
            p = proven(plan, c.values, spec, executor)
        out.append(p)
        if p.holds:
            break
    if progress:
        progress(total, total, "proof done")
    return original, out


# ---------------------------------------------------------------------------------------------- the tuned kit

def _yaml_value(v: Any) -> Any:
    from ruamel.yaml.comments import CommentedSeq

    if isinstance(v, list):
        seq = CommentedSeq(v)
        seq.fa.set_flow_style()
        return seq
    return v


def _changes(plan: Plan, values: dict[str, Any], budget: dict[str, Any]) -> list[tuple[tuple[str, ...], Any, Any]]:
    """(kit.yaml keys, old value, new value) of every value the tuned kit changes."""
    out = [(s.tunable.keys, plan.original[s.path], values[s.path]) for s in plan.space
           if values[s.path] != plan.original[s.path]]
    for path, new in sorted(budget.items()):
        keys = tuple(path.split("."))
        old = get_path(plan.raw_game, keys[1:])
        if old != new:
            out.append((keys, old, new))
    return out


def tuned_yaml(plan: Plan, values: dict[str, Any], budget: dict[str, Any] | None = None) -> str:
    """kit.yaml with the changed values (and any game budget the proof raised) written in, each annotated with
    its old value. Each value is replaced in place on its own line (every other byte kept: layout, alignment,
    comments); a value that does not sit on one line falls back to a ruamel round-trip edit (comments kept,
    layout normalised)."""
    path = plan.kit.dir / "kit.yaml"
    data = read_kit_file(path, plan.kit.display, MAX_SPEC_BYTES, "kit.yaml")  # through the kit door
    text = data.decode("utf-8")
    _, where = parse_yaml(data, plan.kit.display)
    changed = _changes(plan, values, budget or {})
    lines = text.split("\n")
    for keys, old, new in changed:
        line_no = where.get(keys)
        edited = None if line_no is None else _edit_line(lines[line_no - 1], keys, old, new,
                                                        flow=_in_flow(where, keys))
        if edited is None:
            return _tuned_yaml_rt(plan, changed)
        lines[line_no - 1] = edited  # type: ignore[operator]
    out = "\n".join(lines)
    data, _ = parse_yaml(out.encode("utf-8"), plan.kit.display)
    if any(get_path(data, keys) != new for keys, _, new in changed):
        return _tuned_yaml_rt(plan, changed)
    return out


def _in_flow(where: dict[Any, int], keys: tuple[str, ...]) -> bool:
    """The key sits on its parent's line (a flow mapping such as `goals: {points: 3}`)."""
    return len(keys) > 1 and where.get(keys[:-1]) == where.get(keys)


_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


def _flow(v: Any) -> str:
    """A value as YAML flow text."""
    if isinstance(v, list):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return v if _PLAIN.fullmatch(v) and v not in ("true", "false", "null", "yes", "no") else json.dumps(v)
    if isinstance(v, float) and v.is_integer():
        return str(v)
    return str(v)


def _comment_at(line: str) -> int:
    """Index of the line's comment '#' (outside quotes, after a blank), or -1."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return i
    return -1


def _edit_line(line: str, keys: tuple[str, ...], old: Any, new: Any, *, flow: bool) -> str | None:
    """The line with `keys[-1]`'s value replaced and the old value noted in its comment; None if not found."""
    c = _comment_at(line)
    body, comment = (line, "") if c < 0 else (line[:c], line[c:])
    m = re.search(rf"(^|[\s{{,]){re.escape(keys[-1])}:\s*", body)
    if m is None:
        return None
    start = m.end()
    depth, end = 0, len(body.rstrip())
    for i in range(start, len(body)):
        ch = body[i]
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            if depth == 0:
                end = i
                break
            depth -= 1
        elif ch == "," and depth == 0 and flow:
            end = i
            break
    if depth < 0 or end <= start:
        return None
    body = body[:start] + _flow(new) + body[end:]
    note = f"pnpkit tune: {keys[-1] + ' ' if flow else ''}was {_flow(old)}"
    if comment:
        return f"{body}# {note}; {comment[1:].lstrip()}"
    return f"{body.rstrip()}  # {note}"


def _tuned_yaml_rt(plan: Plan, changed: list[tuple[tuple[str, ...], Any, Any]]) -> str:
    """The ruamel round-trip fallback of `tuned_yaml`."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 120
    yaml.indent(mapping=2, sequence=4, offset=2)
    data = yaml.load(read_kit_file(plan.kit.dir / "kit.yaml", plan.kit.display, MAX_SPEC_BYTES, "kit.yaml")
                     .decode("utf-8"))
    for keys, old, new in changed:
        parent = get_path(data, keys[:-1])
        parent[keys[-1]] = _yaml_value(new)
        note = f"pnpkit tune: was {_show(old)}"
        # a flow mapping ({a: 1}) holds no comments: annotate the nearest key of a block mapping above it
        holder, key, depth = parent, keys[-1], len(keys) - 1
        while depth > 0 and holder.fa.flow_style():
            depth -= 1
            holder, key = get_path(data, keys[:depth]), keys[depth]
            note = f"pnpkit tune: {'.'.join(keys[depth + 1:])} was {_show(old)}"
        _add_note(holder, key, note)
    buf = io.StringIO()
    yaml.dump(data, buf)
    return buf.getvalue()


def _show(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(map(str, v)) + "]"
    return str(v)


def _add_note(holder: Any, key: str, note: str) -> None:
    """Put `# note` at the end of `key`'s line, before any comment already there."""
    old = holder.ca.items.get(key)
    tok = old[2] if old and len(old) > 2 else None
    if tok is not None and tok.value.lstrip().startswith("#"):
        text = tok.value
        first, nl, rest = text.partition("\n")
        tok.value = f"# {note}; {first.lstrip()[1:].strip()}{nl}{rest}"
        return
    holder.yaml_add_eol_comment(note, key)


def write_tuned(plan: Plan, values: dict[str, Any], out: Path, budget: dict[str, Any] | None = None) -> Path:
    """Copy the kit folder to OUT/<kit>-tuned (replacing an earlier one), write the tuned kit.yaml, validate."""
    out.mkdir(parents=True, exist_ok=True)
    dest = out / f"{plan.kit.dir.name}-tuned"
    stage = Path(tempfile.mkdtemp(prefix=".tune-", dir=out))
    try:
        staged = stage / dest.name
        shutil.copytree(plan.kit.dir, staged, symlinks=False,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))
        (staged / "kit.yaml").write_text(tuned_yaml(plan, values, budget), encoding="utf-8")
        (kit,) = load_kits([staged])
        problems = check_kit(kit)
        if problems:
            raise SpecError(problems)
        if dest.exists():
            shutil.rmtree(dest)
        staged.rename(dest)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return dest


# ---------------------------------------------------------------------------------------------- effects

@dataclass(frozen=True)
class Effect:
    """What changing one parameter alone (original -> winner) does to each tolerance's measured value."""

    path: str
    old: Any
    new: Any
    rows: tuple[tuple[str, float, float], ...]
    """(tolerance, measured with the original value, measured with this change alone), largest changes first."""


def effects(plan: Plan, values: dict[str, Any], executor: Any, limit: int = 8) -> list[Effect]:
    """The measured effect of each changed parameter alone, on the search stream (its first batch size)."""
    base_rep = play(plan, plan.kit.game, plan.settings.games, plan.search_seed, executor)
    base = _measured(base_rep)
    out = []
    for s in plan.space:
        if values[s.path] == plan.original[s.path]:
            continue
        alone = dict(plan.original)
        alone[s.path] = values[s.path]
        spec, _ = candidate_spec(plan, alone)
        if spec is None:
            continue
        now = _measured(play(plan, spec, plan.settings.games, plan.search_seed, executor))
        rows = [(n, base[n], now[n]) for n in base if n in now]
        rows.sort(key=lambda r: (-abs(_delta(r[1], r[2])), r[0]))
        out.append(Effect(s.path, plan.original[s.path], values[s.path], tuple(rows[:limit])))
    return out


def _delta(a: float, b: float) -> float:
    d = b - a
    return 0.0 if math.isnan(d) else d


# ---------------------------------------------------------------------------------------------- the command

@dataclass
class Outcome:
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
            got = optuna.importance.get_param_importances(study, evaluator=ev,
                                                          target=None if len(study.directions) == 1 else
                                                          lambda t: sum(t.values))
        return {k: float(v) for k, v in got.items()}
    except (RuntimeError, ValueError, ImportError, ZeroDivisionError):
        return {}


@contextmanager
def progress_bar(console: Any) -> Iterator[Callable[[int, int, str], None]]:
    """A rich progress bar with ETA on a terminal; silent otherwise."""
    if console is None or not console.is_terminal:
        yield lambda done, total, what: None
        return
    from generator.render.console import new_progress

    with new_progress(console) as prog:
        tasks: dict[str, Any] = {}

        def update(done: int, total: int, what: str) -> None:
            phase = "proof" if what.startswith("proof") else "search"
            if phase not in tasks:
                tasks[phase] = prog.add_task(what, total=total)
            prog.update(tasks[phase], completed=done, total=total, description=what)

        yield update


def tune(kit_path: Path, *, params: Sequence[str] = (), targets: Sequence[str] = (), trials: int | None = None,
         seed: int | None = None, workers: int | None = None, dask: str | None = None, storage: str | None = None,
         out: Path = Path("tuned"), console: Any = None) -> Outcome:
    """The whole tune: plan, search, proof, the tuned kit and the report (see the module docstring)."""
    from generator.engine.executors import make_executor
    from generator.render.tune_report import write_tune_report

    t0 = time.perf_counter()
    plan = make_plan(kit_path, params=params, targets=targets, trials=trials, seed=seed)
    with make_executor(workers, dask) as executor, progress_bar(console) as progress:
        try:
            found = search(plan, executor, storage=storage, progress=progress)
        except KeyboardInterrupt:
            if console is not None:
                kept = (f"the finished trials are kept in {storage}: run the same command to continue"
                        if storage else "nothing is kept (no --storage): pass --storage sqlite:///FILE to resume")
                console.print(f"tune interrupted: {kept}", highlight=False, soft_wrap=True)
            raise
        original, proven = prove(plan, proof_order(plan, found), executor, progress)
        winner = next((p for p in proven if p.holds), None)
        if winner is None and original.holds:
            winner = original
        eff = effects(plan, winner.values, CachingExecutor(executor)) if winner is not None else []
    kit_dir = write_tuned(plan, winner.values, out, winner.budget) if winner is not None else None
    report = out / f"{plan.kit.dir.name}-tune.html"
    out.mkdir(parents=True, exist_ok=True)
    outcome = Outcome(plan, found, original, proven, winner, kit_dir, report, eff, time.perf_counter() - t0)
    write_tune_report(report, report_data(outcome))
    return outcome


def report_data(o: Outcome) -> dict[str, Any]:
    """Everything the HTML report shows, deterministic (no times)."""
    trials = []
    for number, j in sorted(o.found.judged.items()):
        trials.append({"number": number + 1, "values": j.values, "score": j.score, "violation": j.violation,
                       "distance": j.distance, "pruned": j.hopeless, "illegal": j.illegal})
    return {
        "kit": o.plan.kit.meta.id, "game": o.plan.kit.game_id, "seed": o.plan.seed,
        "search_seed": o.plan.search_seed, "proof_seeds": o.plan.proof_seeds, "games": o.plan.settings.games,
        "space": [{"path": s.path, "kind": s.kind, "range": _range_text(s), "original": _show(o.plan.original[s.path])}
                  for s in o.plan.space],
        "targets": [{"tolerance": t.tolerance, "value": t.value} for t in o.plan.targets],
        "trials": trials,
        "importance": importance(o.found.study),
        "original": o.original.report,
        "proven": [{"values": p.values, "report": p.report, "holds": p.holds, "streams": p.streams,
                    "budget": p.budget} for p in o.proven],
        "winner": None if o.winner is None else o.winner.values,
        "winner_budget": {} if o.winner is None else o.winner.budget,
        "front": _front(o),
        "effects": [{"path": e.path, "old": _show(e.old), "new": _show(e.new),
                     "rows": [list(r) for r in e.rows]} for e in o.effects],
    }


def _front(o: Outcome) -> list[dict[str, Any]]:
    """Several targets: the Pareto front of the candidates whose estimates all sat inside their bounds (or of all
    legal ones when none did), closest to the original first (the first `tune.candidates`, as the proof)."""
    if len(o.plan.targets) < 2:
        return []
    return [{"values": j.values, "gaps": j.gaps, "distance": j.distance} for j in proof_order(o.plan, o.found)]


def _range_text(s: Space) -> str:
    if s.kind in ("int", "float"):
        assert s.low is not None and s.high is not None
        return f"{_fmt(s.low)}..{_fmt(s.high)}"
    if s.kind == "choice":
        return ", ".join(map(str, s.choices))
    return "any order"


__all__ = ["Judged", "Outcome", "Plan", "Proven", "Search", "TuneUsageError", "budget_ladder", "make_plan",
           "pareto", "parse_param", "proof_order", "ranked", "search", "tune", "tuned_yaml", "write_tuned"]
