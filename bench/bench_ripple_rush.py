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

from generator.engine.executors import ProcessExecutor, SerialExecutor  # noqa: E402
from generator.engine.runner import run  # noqa: E402
from generator.games.ripple_rush import RippleRushSim, Setup  # noqa: E402
from tests.games.ripple_rush.conftest import make_spec  # noqa: E402

_PURE = """
import sys, time, numpy as np
sys.path.insert(0, {root!r})
from generator.games.ripple_rush import RippleRushSim, Setup
from tests.games.ripple_rush.conftest import make_spec
sim = RippleRushSim(Setup.from_spec(make_spec()), 4, ("greedy",))
t = time.process_time(); sim.play(np.random.SeedSequence(1), {n}); print({n} / (time.process_time() - t))
"""

_BALANCE = """
import sys, time
t0 = time.perf_counter()
sys.path.insert(0, {root!r})
from generator.engine.executors import ProcessExecutor
from generator.games.ripple_rush import balance_report
from tests.games.ripple_rush.conftest import make_spec
spec = make_spec()
spec = spec.model_copy(update={{"balance": spec.balance.model_copy(update={{"policies": ["greedy"]}})}})
rep = balance_report(spec, games=10000, seed=1, executor=ProcessExecutor({workers}))
print(time.perf_counter() - t0)
"""


def per_core(sim: RippleRushSim, games: int) -> tuple[float, float]:
    """(games per CPU second, games per wall second) in this process."""
    sim.play(np.random.SeedSequence(0), 4)  # compile or load the cache
    w, c = time.perf_counter(), time.process_time()
    sim.play(np.random.SeedSequence(1), games)
    return games / (time.process_time() - c), games / (time.perf_counter() - w)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100_000)
    args = ap.parse_args()
    setup = Setup.from_spec(make_spec())
    print(f"cores: {os.cpu_count()}  load average: {os.getloadavg()[0]:.2f} (other work on the machine slows walls)")
    rates = {}
    for pol, n in (("greedy", args.games), ("strong", args.games // 4), ("random", args.games)):
        cpu, wall = per_core(RippleRushSim(setup, 4, (pol,)), n)
        rates[pol] = cpu
        print(f"4 players, {pol:7s}: {cpu:10,.0f} games/s per core (CPU time), {wall:10,.0f} wall, {n} games")
    pure_n = 40
    r = subprocess.run([sys.executable, "-c", _PURE.format(root=str(ROOT), n=pure_n)], capture_output=True, text=True,
                       env=dict(os.environ, PNPKIT_PURE="1"), check=True)
    pure = float(r.stdout.strip())
    print(f"baseline pure Python (PNPKIT_PURE=1), greedy: {pure:,.0f} games/s per core -> compiled is "
          f"{rates['greedy'] / pure:,.0f}x")
    sim = RippleRushSim(setup, 4, ("greedy",))
    games = 2 * args.games
    t = time.perf_counter()
    a = run(sim, games, 5, SerialExecutor())
    one = time.perf_counter() - t
    t = time.perf_counter()
    b = run(sim, games, 5, ProcessExecutor(2))
    two = time.perf_counter() - t
    assert all(np.array_equal(a[k], b[k]) for k in a)
    print(f"{games} greedy 4-player games: 1 worker {one:.2f} s, 2 workers {two:.2f} s (pool start-up included) "
          f"-> speed-up {one / two:.2f}x (identical tallies)")
    # steady state: a warm pool of 2 (numba cache loaded), the same chunks as the serial run
    from concurrent.futures import ProcessPoolExecutor

    from generator.engine.runner import merge_tallies, plan_chunks, play_chunk
    chunks = plan_chunks(games, 5)
    with ProcessPoolExecutor(2) as pool:
        list(pool.map(play_chunk, [sim, sim], chunks[:2]))
        t = time.perf_counter()
        c = merge_tallies(list(pool.map(play_chunk, [sim] * len(chunks), chunks)))
        warm = time.perf_counter() - t
    assert all(np.array_equal(a[k], c[k]) for k in a)
    print(f"  warm pool of 2 (start-up excluded): {warm:.2f} s -> speed-up {one / warm:.2f}x")
    for workers in (1, 2):
        r = subprocess.run([sys.executable, "-c", _BALANCE.format(root=str(ROOT), workers=workers)],
                           capture_output=True, text=True, check=True)
        print(f"full balance run, greedy, 10,000 games x player counts 1-5, {workers} workers: "
              f"{float(r.stdout.strip()):.2f} s wall including interpreter start-up")


if __name__ == "__main__":
    main()
