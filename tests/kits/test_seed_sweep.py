"""Seed sweep (small): for a few seeds, every shipped kit HOLDS or is UNDECIDED (never FAILS) and every
deliberately broken variant FAILS. The full sweep (seeds 1..10, default games, timings) is
bench/seed_sweep.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.contract import registry
from generator.contract.load import load_kit
from generator.engine.executors import SerialExecutor
from generator.engine.report import BalanceReport
from generator.engine.sequential import Budget, CachingExecutor, judge
from generator.engine.verdict import Verdict
from tests.kits.broken import BROKEN, ROOT

SEEDS = (1, 2)
GAMES = 100


def _check(folder: Path, seed: int, games: int = GAMES, cap: int = GAMES) -> BalanceReport:
    kit = load_kit(folder)
    balance_report = registry.get(kit.game_id).load.balance_report()
    cache = CachingExecutor(SerialExecutor())

    def make(b: Budget) -> BalanceReport:
        return balance_report(kit.game, games=b, seed=seed, executor=cache, kit=kit.meta.id)

    return judge(make, first=games, cap=cap, confidence=kit.game.balance.confidence)


@pytest.mark.parametrize("kit", sorted(BROKEN))
def test_shipped_kit_never_fails_and_broken_variant_always_fails(kit: str, tmp_path: Path) -> None:
    broken = BROKEN[kit](tmp_path)
    for seed in SEEDS:
        shipped = _check(ROOT / "layouts" / kit, seed)
        failed = [t.describe() for t in shipped.tolerances if t.verdict is Verdict.FAILS]
        assert not failed, f"seed {seed}: {failed}"
        bad = _check(broken, seed)
        assert bad.verdict is Verdict.FAILS, f"seed {seed}: the broken {kit} was not caught"
