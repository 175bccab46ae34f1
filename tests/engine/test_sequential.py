"""The sequential check: looks double the games of undecided settings only, verdicts freeze at the look that
decides them, cached chunks are never replayed, and the result does not depend on the executor."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from generator.engine.executors import ProcessExecutor, SerialExecutor
from generator.engine.report import BalanceReport, Headline, bounded
from generator.engine.runner import run
from generator.engine.sequential import Budget, CachingExecutor, as_budget, judge
from generator.engine.verdict import Proportion, Verdict
from generator.spec.base import Bound
from tests.engine.toy import DiceRace


def toy_report(games: int | Budget, seed: int, executor: Any, bounds: dict[str, Bound]) -> BalanceReport:
    """Two settings of the dice race (2 and 3 players); seat 1's win share x players in each, bounded."""
    budget = as_budget(games)
    rep = BalanceReport(kit="toy", game="dice_race", games_per_setting=budget.default, seed=seed)
    for n in (2, 3):
        g = budget(f"{n}p")
        t = run(DiceRace(players=n, target=12), g, seed + n, executor, chunk_size=100)
        rep.tolerances.append(
            bounded(
                f"seat 1 x {n}",
                Proportion(float(t["wins"][0]), g, scale=float(n)),
                bounds[f"{n}p"],
                "game.balance.seat",
                (f"{n}p",),
            )
        )
    rep.headline = {str(n): Headline("race", 0.0, (0.5,) * n, 0.0, "turns") for n in (2, 3)}
    return rep


def test_budget_answers_per_setting_and_caps() -> None:
    b = Budget(200, {"2p": 800})
    assert (b("2p"), b("3p"), b("2p", cap=500)) == (800, 200, 500)
    assert b.given == {"2p": 500, "3p": 200}
    assert as_budget(30)("x") == 30


def test_caching_executor_plays_only_new_chunks() -> None:
    sim = DiceRace(players=2, target=12)
    cache = CachingExecutor(SerialExecutor())
    a = run(sim, 250, 5, cache, chunk_size=100)
    assert cache.played_games == 250
    b = run(sim, 450, 5, cache, chunk_size=100)
    assert (
        cache.played_games == 250 + 50 + 200
    )  # the short last chunk (50 games) grows to 100 and is replayed
    direct = run(sim, 450, 5, chunk_size=100)
    assert all(np.array_equal(b[k], direct[k]) for k in direct)
    assert not all(np.array_equal(a[k], b[k]) for k in a)


def test_decided_verdicts_freeze_and_only_undecided_settings_grow() -> None:
    # 2 players: seat 1's share x 2 (about 1.2) sits well inside 0..2 -> HOLDS at once; 3 players: a narrow
    # bound around the estimate (about 1.5) -> stays UNDECIDED and is the only setting that gets more games
    bounds = {"2p": Bound(min=0.0, max=2.0), "3p": Bound(min=1.4, max=1.6)}
    seen: list[dict[str, int]] = []
    cache = CachingExecutor(SerialExecutor())

    def make(b: Budget) -> BalanceReport:
        rep = toy_report(b, 1, cache, bounds)
        seen.append(dict(b.given))
        return rep

    rep = judge(make, first=100, cap=800, confidence=0.99)
    assert [s["2p"] for s in seen] == [100, 100, 100, 100]
    assert [s["3p"] for s in seen] == [100, 200, 400, 800]
    assert rep.looks == [100, 200, 400, 800]
    two, three = rep.tolerances
    assert two.verdict is Verdict.HOLDS and two.look == 1 and two.games == 100
    assert three.verdict is Verdict.UNDECIDED and three.games == 800 and three.look == 4
    assert three.needed_games is not None and three.needed_games > 800
    assert two.alpha == three.alpha == pytest.approx(0.01 / (2 * 4))
    assert rep.verdict is Verdict.UNDECIDED and rep.confidence == 0.99


def test_fails_early_and_stops() -> None:
    bounds = {"2p": Bound(min=1.8), "3p": Bound(max=0.2)}  # both far off the truth (about 1.2 and 1.5)
    rep = judge(lambda b: toy_report(b, 1, None, bounds), first=200, cap=3200, confidence=0.99)
    assert [t.verdict for t in rep.tolerances] == [Verdict.FAILS, Verdict.FAILS]
    assert rep.looks == [200]


def test_same_result_serial_and_processes() -> None:
    bounds = {"2p": Bound(min=0.9, max=1.1), "3p": Bound(min=0.8, max=1.2)}
    a = judge(
        lambda b: toy_report(b, 4, CachingExecutor(SerialExecutor()), bounds),
        first=100,
        cap=400,
        confidence=0.99,
    )
    with ProcessExecutor(2) as ex:
        cache = CachingExecutor(ex)
        b = judge(lambda bb: toy_report(bb, 4, cache, bounds), first=100, cap=400, confidence=0.99)
    assert a.to_json() == b.to_json()


def test_tolerance_list_must_not_change_between_looks() -> None:
    calls = []

    def make(b: Budget) -> BalanceReport:
        calls.append(1)
        rep = toy_report(b, 1, None, {"2p": Bound(min=0.95, max=1.05), "3p": Bound(min=0.95, max=1.05)})
        if len(calls) > 1:
            rep.tolerances.pop()
        return rep

    with pytest.raises(ValueError, match="same tolerances at every look"):
        judge(make, first=50, cap=200, confidence=0.99)
