"""Play until the verdicts are known: a group-sequential balance check with a stated family-wise error rate.

Plan: the first batch is `first` games per setting; later looks double the games of every setting that still
has an UNDECIDED tolerance (first, 2 x first, 4 x first, ... up to `cap`). Every look re-builds the game's
report with a `Budget` (games per setting); a `CachingExecutor` keeps every finished chunk, so a look only
plays the games it adds (chunk i of a setting always has seed `SeedSequence(seed).spawn(...)[i]`, whatever the
total, so a longer run extends the same stream and results never depend on workers or Dask).

Error rate: with m tolerances and K planned looks, every interval is taken at alpha = (1 - confidence) / (m K)
(Bonferroni, i.e. uniform alpha spending over looks). By the union bound, the chance that ANY interval of ANY
look misses its true value is <= 1 - confidence; a verdict is frozen at the first look that decides it, and a
decided verdict is wrong only if its interval missed. So all verdicts together are right with probability
>= confidence (0.99 by default), however the looks went.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from generator.engine.report import BalanceReport, Tolerance
from generator.engine.verdict import Verdict, bonferroni_alpha, planned_looks

if TYPE_CHECKING:  # types only: a check whose verdicts are all exact imports no runner (nor numpy)
    from generator.engine.runner import Chunk, Executor, Simulation, Tally


@dataclass
class Budget:
    """Games per self-play setting for one look: `default` for every setting unless `per_setting` says more.

    Games ask `budget(setting)` (optionally with their own cap for that setting) instead of using one number;
    the budget records what it answered so the driver knows each setting's games."""

    default: int
    per_setting: Mapping[str, int] = field(default_factory=dict)
    given: dict[str, int] = field(default_factory=dict)
    """What each setting was given at this look (filled as the game asks)."""

    def __call__(self, setting: str, cap: int | None = None) -> int:
        """Games for `setting` at this look (never above `cap`)."""
        n = self.per_setting.get(setting, self.default)
        if cap is not None:
            n = min(n, cap)
        n = max(1, n)
        self.given[setting] = n
        return n


def as_budget(games: int | Budget) -> Budget:
    """A plain games count is a budget giving every setting that many games."""
    return games if isinstance(games, Budget) else Budget(int(games))


def _sim_key(sim: Simulation) -> str:
    try:
        return hashlib.sha256(pickle.dumps(sim, protocol=4)).hexdigest()
    except (pickle.PicklingError, TypeError, AttributeError):
        return f"id:{id(sim)}"


class CachingExecutor:
    """Wraps an executor and keeps every chunk's tally, keyed by (simulation, chunk seed, games): the looks of
    a sequential check re-run a report and only the chunks they add (or a grown last chunk) are played."""

    def __init__(self, inner: Executor):
        self.inner = inner
        self._cache: dict[tuple[str, str, tuple[int, ...], int], Tally] = {}
        self.played_games = 0
        """Games actually played (not served from the cache)."""

    @staticmethod
    def _keys(sim: Simulation, chunks: Sequence[Chunk]) -> list[tuple[str, str, tuple[int, ...], int]]:
        sk = _sim_key(sim)
        return [(sk, repr(c.seed.entropy), tuple(c.seed.spawn_key), c.games) for c in chunks]

    def pending(self, sim: Simulation, chunks: Sequence[Chunk]) -> list[Chunk]:
        """The chunks `map` would play (those not kept from an earlier call)."""
        return [c for c, k in zip(chunks, self._keys(sim, chunks), strict=True) if k not in self._cache]

    def can_prefetch(self) -> bool:
        """Whether the inner executor plays several runs in one submission (a process pool)."""
        return callable(getattr(self.inner, "map_many", None))

    def prefetch(
        self, jobs: Sequence[tuple[Simulation, Sequence[Chunk], bool]], progress: Callable[[int], None]
    ) -> None:
        """Play the chunks of several runs (simulation, chunks, whether its games move the bar) that are not
        kept yet in one submission to the inner executor's `map_many`, and keep their tallies: a look asks
        for them afterwards run by run and finds them here, so the workers never wait for this process
        between runs. A chunk's tally depends only on its simulation and seed, so where and when it was
        played changes nothing."""
        todo: list[tuple[Simulation, list[tuple[Chunk, tuple[str, str, tuple[int, ...], int]]], bool]] = []
        seen: set[tuple[str, str, tuple[int, ...], int]] = set()
        for sim, chunks, counted in jobs:
            new = [
                (c, k)
                for c, k in zip(chunks, self._keys(sim, chunks), strict=True)
                if k not in self._cache and k not in seen
            ]
            seen.update(k for _, k in new)
            if new:
                todo.append((sim, new, counted))
        if not todo:
            return

        def done(job: int, games: int) -> None:
            if todo[job][2]:
                progress(games)

        inner: Any = self.inner
        played = inner.map_many([(sim, [c for c, _ in new]) for sim, new, _ in todo], done)
        for (_, new, _), tallies in zip(todo, played, strict=True):
            for (c, k), t in zip(new, tallies, strict=True):
                self._cache[k] = t
                self.played_games += c.games

    def map(
        self, sim: Simulation, chunks: Sequence[Chunk], progress: Callable[[int], None] | None = None
    ) -> list[Tally]:
        """Tallies of `chunks` in order, playing only those not seen before."""
        keys = self._keys(sim, chunks)
        missing = [(c, k) for c, k in zip(chunks, keys, strict=True) if k not in self._cache]
        todo = [c for c, _ in missing]
        if todo:
            for (_, k), t in zip(missing, self.inner.map(sim, todo, progress), strict=True):
                self._cache[k] = t
            self.played_games += sum(c.games for c in todo)
        return [self._cache[k] for k in keys]


def _games_of(t: Tolerance, given: Mapping[str, int]) -> int:
    pool = [given[s] for s in t.settings if s in given] if t.settings else list(given.values())
    return max(pool) if pool else 0


def judge(
    make_report: Callable[[Budget], BalanceReport],
    *,
    first: int,
    cap: int,
    confidence: float,
    progress: Callable[..., None] | None = None,
    stop_on_fail: bool = True,
) -> BalanceReport:
    """Run the sequential check: build the report at each look, freeze decided verdicts, extend the settings
    of undecided ones, stop when all are decided or at the cap (or, with `stop_on_fail`, as soon as one FAILS:
    the kit fails whatever the rest say, and the undecided rest is reported as such). Returns the last look's
    report with every tolerance replaced by its frozen verdict (and, for undecided ones, the games the
    estimate needs)."""
    looks = planned_looks(first, max(first, cap))
    K = len(looks)
    per: dict[str, int] = {}
    final: dict[int, Tolerance] = {}
    names: list[str] = []
    alpha = 0.0
    played: list[int] = []
    rep: BalanceReport | None = None
    last_given: dict[str, int] = {}
    for k, target in enumerate(looks):
        if progress:
            progress(f"batch {k + 1}/{K} ({target if k else first} games per setting)")
        budget = Budget(first, dict(per))
        rep = make_report(budget)
        if k == 0:
            names = [t.name for t in rep.tolerances]
            if len(set(names)) != len(names):
                dup = sorted({n for n in names if names.count(n) > 1})
                raise ValueError(f"tolerance names must be unique within a report; repeated: {dup}")
            alpha = bonferroni_alpha(confidence, len(names), K)
        elif [t.name for t in rep.tolerances] != names:
            raise ValueError("a game's report must list the same tolerances at every look")
        played.append(max(budget.given.values(), default=first))
        undecided: list[int] = []
        for i, t in enumerate(rep.tolerances):
            if i in final and final[i].verdict is not Verdict.UNDECIDED:
                continue  # frozen at the look that decided it
            final[i] = replace(t, alpha=alpha, games=_games_of(t, budget.given), look=k + 1)
            if final[i].verdict is Verdict.UNDECIDED:
                undecided.append(i)
        if not undecided or k == K - 1:
            break
        if stop_on_fail and any(t.verdict is Verdict.FAILS for t in final.values()):
            break
        grow: set[str] = set()
        for i in undecided:
            grow.update(final[i].settings or budget.given.keys())
        nxt = looks[k + 1]
        grew = False
        for s in sorted(grow):
            if per.get(s, first) < nxt:
                per[s] = nxt
                grew = True
        if not grew or (last_given and budget.given == last_given):
            break  # the undecided tolerances' settings are all at their caps
        last_given = dict(budget.given)
    assert rep is not None
    out = [final[i] for i in range(len(names))]
    out = [replace(t, needed_games=t.estimate_needed()) if t.verdict is Verdict.UNDECIDED else t for t in out]
    rep.tolerances = out
    rep.confidence = confidence
    rep.looks = played
    return rep
