"""Peak Dice self-play speed: 3-player games/second per core (compiled), the pure-Python baseline measured in
the same run (as a ratio), the 2-worker speed-up, and the wall time of a full check (10,000 games per player
count 2-4 plus the re-roll comparison). Run: python bench/bench_peak_dice.py [games]"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.engine.executors import ProcessExecutor, SerialExecutor  # noqa: E402
from generator.engine.kernel import seed_state  # noqa: E402
from generator.engine.runner import run  # noqa: E402
from generator.games.peak_dice import balance_report, build_tables  # noqa: E402
from generator.games.peak_dice.sim import Simulation, play  # noqa: E402
from tests.games.peak_dice.conftest import make_spec  # noqa: E402


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    spec = make_spec()
    t = build_tables(spec)
    policy = spec.balance.policy
    play(t, [policy] * 3, 300, seed_state(0), 2)  # load / compile the kernel
    rates = {}
    for pol in ("greedy", "reroll", "planner_keep", "planner"):
        t0 = time.perf_counter()
        play(t, [pol] * 3, 300, seed_state(1), games)
        rates[pol] = games / (time.perf_counter() - t0)
        print(f"compiled {pol:<12} 3p: {rates[pol]:9.0f} games/s per core")
    n_pure = max(4, games // 400)
    t0 = time.perf_counter()
    play(t, [policy] * 3, 300, seed_state(1), n_pure, pure=True)
    pure = n_pure / (time.perf_counter() - t0)
    print(f"pure-Python {policy} 3p: {pure:9.1f} games/s  -> compiled is {rates[policy] / pure:.0f}x faster")
    sim = Simulation(t, (policy,) * 3, spec.balance.turn_limit)
    t0 = time.perf_counter()
    run(sim, games, 2, SerialExecutor())
    serial = time.perf_counter() - t0
    t0 = time.perf_counter()
    run(sim, games, 2, ProcessExecutor(2))
    two = time.perf_counter() - t0
    print(f"2 workers: {serial / two:.2f}x speed-up over serial ({games} games)")
    t0 = time.perf_counter()
    balance_report(spec, games=10_000, seed=1, executor=ProcessExecutor(2))
    print(f"full check (10,000 games x players 2-4 + planner_keep re-roll comparison, 2 workers): "
          f"{time.perf_counter() - t0:.2f} s wall")


if __name__ == "__main__":
    main()
