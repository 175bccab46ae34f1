"""The proof of a tune: the full sequential check on seed streams the search never used."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from generator.contract import registry
from generator.engine.report import BalanceReport
from generator.engine.sequential import CachingExecutor, judge
from generator.engine.tunables import distance
from generator.engine.verdict import Verdict
from generator.tune.judge import Judged, candidate_spec
from generator.tune.plan import Plan
from generator.tune.search import Search, ranked, values_key

MAX_GAMES_PATH = "game.balance.max_games"


@dataclass
class Proven:
    """A candidate (or the original) judged by the full check on the proof streams (stopping at the first
    stream where it does not hold); `report` is that stream's, or the first stream's when it holds on all."""

    values: dict[str, Any]
    report: BalanceReport
    streams: int = 1
    """Proof streams played."""
    holds: bool = False
    budget: dict[str, Any] = field(default_factory=dict)
    """Balance settings the proof raised (`game.balance.max_games`: the cap it needed), written into the
    kit."""


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
    """The full check of one candidate on every proof stream until one does not hold. A candidate that fails
    on no tolerance but leaves one UNDECIDED (the games ran out, not the kit) is checked again with a doubled
    `balance.max_games`, up to `tune.proof_max_games`; the cap that decides it is written into the tuned kit,
    so `pnpkit check` on that kit plays the same looks. Every rung replays the same seeded games from a
    cache (`executor` itself when it is one: `prove` shares one between the candidates)."""
    cache = executor if isinstance(executor, CachingExecutor) else CachingExecutor(executor)
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


def full_check(
    plan: Plan,
    spec: Any,
    executor: Any,
    progress: Callable[..., None] | None = None,
    *,
    seed: int,
) -> BalanceReport:
    """The game's sequential check (as `pnpkit check` runs it) on the proof stream `seed` (one of
    `plan.proof_seeds`)."""
    b = spec.balance
    first = int(b.games)
    cap = int(getattr(b, "max_games", None) or 8 * first)
    conf = getattr(b, "confidence", None)
    cache = executor if isinstance(executor, CachingExecutor) else CachingExecutor(executor)

    def make(budget: Any) -> BalanceReport:
        rep: BalanceReport = registry.get(plan.kit.game_id).load.balance_report()(
            spec, games=budget, seed=seed, executor=cache, kit=plan.kit.meta.id
        )
        return rep

    return judge(
        make,
        first=first,
        cap=max(first, cap),
        confidence=float(conf) if isinstance(conf, float) else 0.99,
        progress=progress,
    )


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
    pool = {
        values_key(j.values): j for j in best if not j.hopeless and j.violation != 0 and j.distance < reach
    }
    if len(plan.space) == 1 and plan.space[0].kind == "int":
        s = plan.space[0]
        near = min(hold, key=lambda j: (j.distance, j.score))
        lo, hi = sorted((int(plan.original[s.path]), int(near.values[s.path])))
        sampled = {values_key(j.values) for j in best}
        for v in range(lo + 1, hi):
            values = {s.path: v}
            if values_key(values) not in sampled:
                pool[values_key(values)] = Judged(
                    values, math.nan, distance(plan.space, plan.original, values), 0.0, False
                )
    order = sorted(pool.values(), key=lambda j: (j.distance, j.score))
    return order + sorted(hold, key=lambda j: (j.distance, j.score))[:n]


def pareto(judged: Sequence[Judged]) -> list[Judged]:
    """The candidates no other candidate beats on every target (lower gaps), in their given order."""

    def gaps(j: Judged) -> tuple[float, ...]:
        return tuple(j.gaps) if j.gaps else (j.target_gap,)

    out = []
    for j in judged:
        g = gaps(j)
        if not any(all(a <= b for a, b in zip(gaps(o), g, strict=False)) and gaps(o) != g for o in judged):
            out.append(j)
    return out


def prove(
    plan: Plan,
    candidates: Sequence[Judged],
    executor: Any,
    progress: Callable[[int, int, str], None] | None = None,
) -> tuple[Proven, list[Proven]]:
    """The original and then each candidate (in proof order) under the full check; stops at the first that
    holds. Without targets an original that holds (perhaps with a raised game budget) needs no candidate.
    One cache serves them all: candidates whose games are the same (a game that plays the same whatever the
    tuned value, as Peak Dice's miss track) play them once."""
    executor = executor if isinstance(executor, CachingExecutor) else CachingExecutor(executor)
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
