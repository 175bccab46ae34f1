"""Ripple Rush self-play speed: games/s per core (greedy and strong, 4 players), the speed-up of 2 workers
over 1, a full greedy balance run (10,000 games for each player count 1-5, with start-up), and the pure-Python
path as the baseline measured in the same run. Run: python bench/bench_ripple_rush.py [--games N]"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.engine.executors import ProcessExecutor, SerialExecutor
from generator.engine.runner import DEFAULT_CHUNK, run
from generator.games.ripple_rush.sim import RippleRushSim, Setup
from tests.games.shipped import game_spec

_PURE = """
import sys, time, numpy as np
sys.path.insert(0, {root!r})
from generator.games.ripple_rush.sim import RippleRushSim, Setup
from tests.games.shipped import game_spec
sim = RippleRushSim(Setup.from_spec(game_spec("ripple_rush")), 4, ("greedy",))
t = time.process_time(); sim.play(np.random.SeedSequence(1), {n}); print({n} / (time.process_time() - t))
"""

_BALANCE = """
import sys, time
t0 = time.perf_counter()
sys.path.insert(0, {root!r})
from generator.engine.executors import ProcessExecutor
from generator.games.ripple_rush.balance import balance_report
from tests.games.shipped import game_spec
spec = game_spec("ripple_rush")
spec = spec.model_copy(update={{"balance": spec.balance.model_copy(update={{"policies": ["greedy"]}})}})
rep = balance_report(spec, games=10000, seed=1, executor=ProcessExecutor({workers}))
print(time.perf_counter() - t0)
"""


REPEAT = 5


def per_core(sim: RippleRushSim, games: int) -> tuple[float, float]:
    """(games per CPU second, games per wall second) in this process, best of REPEAT runs each (a shared
    machine only ever slows a run down)."""
    sim.play(np.random.SeedSequence(0), 4)  # compile or load the cache
    cpu = wall = 0.0
    for _ in range(REPEAT):
        w, c = time.perf_counter(), time.process_time()
        sim.play(np.random.SeedSequence(1), games)
        cpu = max(cpu, games / (time.process_time() - c))
        wall = max(wall, games / (time.perf_counter() - w))
    return cpu, wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5, help="best of this many tries per figure")
    ap.add_argument("--no-full", action="store_true", help="skip the full balance runs")
    args = ap.parse_args()
    global REPEAT
    REPEAT = max(1, args.repeat)
    setup = Setup.from_spec(game_spec("ripple_rush"))
    print(
        f"cores: {os.cpu_count()}  load average: {os.getloadavg()[0]:.2f} (other work on the machine slows "
        f"walls)"
    )
    rates = {}
    for pol, n in (("greedy", args.games), ("strong", args.games // 4), ("random", args.games)):
        cpu, wall = per_core(RippleRushSim(setup, 4, (pol,)), n)
        rates[pol] = cpu
        print(f"4 players, {pol:7s}: {cpu:10,.0f} games/s per core (CPU time), {wall:10,.0f} wall, {n} games")
    pure_n = 40
    r = subprocess.run(
        [sys.executable, "-c", _PURE.format(root=str(ROOT), n=pure_n)],
        capture_output=True,
        text=True,
        env=dict(os.environ, PNPKIT_PURE="1"),
        check=True,
    )
    pure = float(r.stdout.strip())
    print(
        f"baseline pure Python (PNPKIT_PURE=1), greedy: {pure:,.0f} games/s per core -> compiled is "
        f"{rates['greedy'] / pure:,.0f}x"
    )
    sim = RippleRushSim(setup, 4, ("greedy",))
    games = 2 * args.games
    t = time.perf_counter()
    a = run(sim, games, 5, SerialExecutor())
    one = time.perf_counter() - t
    t = time.perf_counter()
    with ProcessExecutor(2) as ex:
        b = run(sim, games, 5, ex)
    two = time.perf_counter() - t
    assert all(np.array_equal(a[k], b[k]) for k in a)
    print(
        f"{games} greedy 4-player games: 1 worker {one:.2f} s, 2 workers {two:.2f} s wall (pool start-up "
        f"included) -> {one / two:.2f}x here (identical tallies)"
    )
    from _scaling import measure  # bench/ is on sys.path when this script runs

    print(measure(sim, games, DEFAULT_CHUNK, repeat=max(REPEAT, 5)).line())
    if args.no_full:
        return
    for workers in (1, 2):
        r = subprocess.run(
            [sys.executable, "-c", _BALANCE.format(root=str(ROOT), workers=workers)],
            capture_output=True,
            text=True,
            check=True,
        )
        print(
            f"full balance run, greedy, 10,000 games x player counts 1-5, {workers} workers: "
            f"{float(r.stdout.strip()):.2f} s wall including interpreter start-up"
        )


if __name__ == "__main__":
    main()
