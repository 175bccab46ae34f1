"""Peak Dice self-play speed: 3-player games/second per core (compiled) for every policy, the pure-Python
baseline measured in the same run (as a ratio), the 2-worker speed-up, and the wall time of a full check
(`python -m generator check layouts/peak_dice --games 10000 --workers 2`: 10,000 games per player count 2-4
plus the planner_keep re-roll comparison, process start-up included).

The machine is shared: every figure is the best of `repeats` runs, per-core rates use CPU time
(time.process_time, or the children's rusage for the check), and the load average is printed with them.
Run: python bench/bench_peak_dice.py [games] [repeats]
     python bench/bench_peak_dice.py misses [games]   (planner miss tracks, both step-B readings: see
     misses())"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.engine.executors import ProcessExecutor, SerialExecutor
from generator.engine.kernel import seed_state
from generator.engine.runner import DEFAULT_CHUNK, run
from generator.games.peak_dice.sim import Simulation, play
from generator.games.peak_dice.tables import build_tables
from tests.games.peak_dice.conftest import make_spec


def load() -> str:
    """The 1-minute load average (the machine is shared)."""
    return f"load {os.getloadavg()[0]:.2f}"


def best_of(repeats: int, fn) -> tuple[float, float, object]:  # type: ignore[no-untyped-def]
    """(best wall seconds, best CPU seconds, last result) of `repeats` calls."""
    wall = cpu = float("inf")
    out = None
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        wall = min(wall, time.perf_counter() - w0)
        cpu = min(cpu, time.process_time() - c0)
    return wall, cpu, out


def full_check(repeats: int) -> tuple[float, float]:
    """(best wall, its CPU seconds incl. workers) of the CLI's full check: 10,000 games, 2 workers."""
    cmd = [
        sys.executable,
        "-m",
        "generator",
        "check",
        "layouts/peak_dice",
        "--games",
        "10000",
        "--workers",
        "2",
    ]
    best = (float("inf"), 0.0)
    for _ in range(repeats):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        w0 = time.perf_counter()
        res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        wall = time.perf_counter() - w0
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if res.returncode != 0:
            raise SystemExit(f"check failed ({res.returncode}):\n{res.stdout[-2000:]}\n{res.stderr[-2000:]}")
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        best = min(best, (wall, cpu))
    return best


def misses(games: int) -> None:
    """Planner self-play per player count (seed 20180301) under each step-B reading: mean score, share of
    games past the kit's miss track, mean turns, and the smallest track whose overflow share has a one-sided
    99% Clopper-Pearson upper bound under the kit's balance.miss_box_overflow.max (the shipped kit.yaml's, via
    tests/games/shipped.py) at every player count."""
    from scipy.stats import binomtest

    for reading in ("compulsory", "optional"):
        spec = make_spec(
            rules={
                "step_b": reading,
                "miss_track_full": "keep_counting",
                "final_turn_miss": "skipped",
                "column_score": "second_lowest_distinct",
            }
        )
        t = build_tables(spec)
        worst: dict[int, np.ndarray] = {}
        for n, seq in zip((2, 3, 4), np.random.SeedSequence(20180301).spawn(3)):
            out = play(t, ["planner"] * n, spec.balance.turn_limit, seed_state(seq), games)
            worst[n] = out["games.misses"].max(axis=1)
            print(
                f"step_b {reading:<10} {n}p: mean score {out['games.scores'].mean():6.2f}, "
                f"past {spec.miss_boxes} misses {(worst[n] > spec.miss_boxes).mean():.4f}, "
                f"mean turns {out['games.turns'].mean():5.2f}, most misses {worst[n].max()}"
            )
        bound = spec.balance.miss_box_overflow.max
        for boxes in range(1, 1000):
            ub = [
                binomtest(int((m > boxes).sum()), games).proportion_ci(0.98, "exact").high
                for m in worst.values()
            ]
            if max(ub) < bound:
                print(
                    f"step_b {reading}: smallest track with the 99% upper bound < {bound} at 2-4 players: "
                    f"{boxes} boxes ({games} games per count)"
                )
                break


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "misses":
        misses(int(sys.argv[2]) if len(sys.argv) > 2 else 20_000)
        return
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    spec = make_spec()
    t = build_tables(spec)
    policy = spec.balance.policy
    print(f"{os.cpu_count()} cores, {load()}; best of {repeats}")
    rates = {}
    for pol in ("greedy", "reroll", "planner_keep", "planner"):
        play(t, [pol] * 3, 300, seed_state(0), 2)  # load / compile the kernel
        _, cpu, out = best_of(repeats, lambda pol=pol: play(t, [pol] * 3, 300, seed_state(1), games))
        turns = int(out["active_turns"][0])  # type: ignore[index]
        rates[pol] = games / cpu
        print(
            f"compiled {pol:<12} 3p: {rates[pol]:8.0f} games/s per core ({cpu / turns * 1e6:5.2f} us CPU per "
            f"turn), "
            f"{load()}"
        )
    n_pure = max(4, games // 1000)
    _, pure_cpu, _ = best_of(1, lambda: play(t, [policy] * 3, 300, seed_state(1), n_pure, pure=True))
    pure = n_pure / pure_cpu
    print(
        f"pure-Python {policy} 3p: {pure:8.1f} games/s per core -> compiled is {rates[policy] / pure:.0f}x "
        f"faster "
        f"({n_pure} games)"
    )
    sim = Simulation(t, (policy,) * 3, spec.balance.turn_limit)
    n2 = max(games, 20_000)  # 20 chunks: enough to keep 2 workers busy past the pool start-up
    serial, _, _ = best_of(repeats, lambda: run(sim, n2, 2, SerialExecutor()))

    def two_workers() -> None:
        with ProcessExecutor(2) as ex:
            run(sim, n2, 2, ex)

    two, _, _ = best_of(repeats, two_workers)
    print(
        f"2 workers: {serial / two:.2f}x speed-up over serial ({n2} games, wall {serial:.2f} s -> {two:.2f} "
        f"s), "
        f"{load()}"
    )
    from _scaling import measure  # bench/ is on sys.path when this script runs

    print(measure(sim, n2, DEFAULT_CHUNK, repeat=max(repeats, 5)).line())
    wall, cpu = full_check(repeats)
    print(
        f"full check (python -m generator check layouts/peak_dice --games 10000 --workers 2): {wall:.2f} s "
        f"wall, "
        f"{cpu:.2f} s CPU (parent + workers), {load()}"
    )


if __name__ == "__main__":
    main()
