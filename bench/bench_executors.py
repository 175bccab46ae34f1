"""Executors on the toy dice race: games/s serial vs a 2-process pool (and optionally Dask), measured in
the same run, plus the pure-Python kernel as a baseline. Also checks the tallies are identical.

    python bench/bench_executors.py [--games 3000000] [--chunk 100000] [--dask]

The baseline runs the same kernel with PNPKIT_PURE=1 (no numba at all) in a subprocess.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.engine.executors import DaskExecutor, ProcessExecutor, SerialExecutor
from generator.engine.runner import Tally, run
from tests.engine.toy import DiceRace


def timed(fn: Callable[[], Tally]) -> tuple[float, Tally]:
    """Seconds taken by fn() and its tally."""
    t0 = time.perf_counter()
    tally = fn()
    return time.perf_counter() - t0, tally


def same(a: Tally, b: Tally) -> bool:
    return sorted(a) == sorted(b) and all(np.array_equal(a[k], b[k]) for k in a)


PURE_SNIPPET = """
import sys, time
from generator.engine.runner import run
from tests.engine.toy import DiceRace
games = int(sys.argv[1])
t0 = time.perf_counter()
run(DiceRace(players=4, target=30), games, 1)
print(games / (time.perf_counter() - t0))
"""


def pure_rate(games: int) -> float:
    """Games/s of the kernel as plain Python (PNPKIT_PURE=1), in a fresh interpreter."""
    env = dict(os.environ, PNPKIT_PURE="1")
    root = str(Path(__file__).resolve().parents[1])
    out = subprocess.run(
        [sys.executable, "-c", PURE_SNIPPET, str(games)],
        env=env,
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=3_000_000)
    ap.add_argument("--chunk", type=int, default=100_000)
    ap.add_argument("--pure-games", type=int, default=2_000, help="games for the pure-Python baseline")
    ap.add_argument("--dask", action="store_true", help="also time a 2-worker Dask LocalCluster")
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args()

    sim = DiceRace(players=4, target=30)
    run(sim, 10, 0)  # compile (or load the numba cache) outside the timings
    print(
        f"toy dice race, 4 players to 30; {args.games} games in chunks of {args.chunk}; {os.cpu_count()} "
        f"cores"
    )

    pure = pure_rate(args.pure_games)
    t_serial, serial = timed(lambda: run(sim, args.games, args.seed, SerialExecutor(), chunk_size=args.chunk))
    t_pool, pooled = timed(lambda: run(sim, args.games, args.seed, ProcessExecutor(2), chunk_size=args.chunk))

    serial_rate = args.games / t_serial
    pool_rate = args.games / t_pool
    print(f"  pure Python, serial : {pure:12,.0f} games/s  (PNPKIT_PURE=1, {args.pure_games} games)")
    print(f"  compiled, serial    : {serial_rate:12,.0f} games/s  ({serial_rate / pure:.0f}x pure)")
    print(
        f"  compiled, 2 procs   : {pool_rate:12,.0f} games/s  (speed-up {pool_rate / serial_rate:.2f}x vs "
        f"serial,"
        f" pool start-up included)"
    )
    print(f"  identical tallies   : {same(serial, pooled)}")
    if args.dask:
        t_dask, dasked = timed(
            lambda: run(sim, args.games, args.seed, DaskExecutor("local", 2), chunk_size=args.chunk)
        )
        dask_rate = args.games / t_dask
        print(
            f"  compiled, Dask 2 w. : {dask_rate:12,.0f} games/s  (speed-up {dask_rate / serial_rate:.2f}x "
            f"vs serial,"
            f" cluster start-up included); identical: {same(serial, dasked)}"
        )


if __name__ == "__main__":
    main()
