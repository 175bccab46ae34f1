"""Peak Dice self-play speed: 3-player games/second per core (compiled) for every policy, the pure-Python
baseline measured in the same run (as a ratio), the 2-worker speed-up, and the wall time of a full check
(`python -m generator check layouts/peak_dice --games 10000 --workers 2`: 10,000 games per player count 2-4
plus the planner_keep re-roll comparison, process start-up included).

The machine is shared: every figure is the best of `repeats` runs, per-core rates use CPU time
(time.process_time, or the children's rusage for the check), and the load average is printed with them.
Run: python bench/bench_peak_dice.py [games] [repeats]
     python bench/bench_peak_dice.py misses [games]   (planner miss tracks, both step-B readings: see
     misses())
     python bench/bench_peak_dice.py digests [games] [repeats]   (a digest of the tallies of every setting
     in SETTINGS and the planner's CPU ms per game at 2-4 players: see digests(); compare two checkouts by
     running this file with each on PYTHONPATH)"""

from __future__ import annotations

import hashlib
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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
        for n, seq in zip((2, 3, 4), np.random.SeedSequence(20180301).spawn(3), strict=True):
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


D2 = [1, 2, 3, 4, 5, 6]
FACE_COLOURS = (
    ["purple", "blue", "red", "yellow", "white", "white"],
    ["white", "red", "purple", "blue", "yellow", "red"],
)
MIXED_DICE = [
    *({"faces": [{"colour": c, "value": v} for c, v in zip(cols, D2, strict=True)]} for cols in FACE_COLOURS),
    {"colour": "red", "values": [1, 2, 3, 4, 5, 6]},
    {"colour": "yellow", "values": [2, 2, 3, 4, 5, 6, 7, 8]},
    {"colour": "white", "values": [1, 2, 3, 4, 5, 6]},
    {"colour": "white", "values": [1, 2, 3, 4, 5, 6]},
    {"colour": "white", "values": [0, 1, 2]},
]
"""Dice that take the kernels' general paths: faces of several colours, twins, a die of 8 faces, three white
dice."""

SETTINGS: dict[str, tuple[dict[str, str], dict[str, Any], dict[str, Any]]] = {
    "shipped": ({}, {}, {}),
    "optional": ({"step_b": "optional"}, {}, {}),
    "capped": ({"miss_track_full": "capped", "final_turn_miss": "taken"}, {}, {}),
    "b_full_c": ({"sheet_full_in_b": "step_c_played", "column_score": "second_lowest"}, {}, {}),
    "all_house": (
        {
            "step_b": "optional",
            "miss_track_full": "capped",
            "final_turn_miss": "taken",
            "sheet_full_in_b": "step_c_played",
            "column_score": "second_lowest",
        },
        {},
        {},
    ),
    "peaks_rerolls": ({}, {"peak_after": [5, 4, 6, 3], "rerolls": 2}, {}),
    "mixed_dice": ({}, {"dice": MIXED_DICE}, {}),
    "mixed_optional": ({"step_b": "optional"}, {"dice": MIXED_DICE}, {}),
    "reroll3": ({}, {}, {"reroll_dice": 3}),
    "reroll3_optional_mixed": ({"step_b": "optional"}, {"dice": MIXED_DICE}, {"reroll_dice": 3}),
}
"""Digest settings: name -> (house rules, other game keys, PlannerParams changes)."""

SEATINGS = (
    ("planner",) * 2,
    ("planner",) * 3,
    ("planner",) * 4,
    ("planner_keep",) * 3,
    ("random", "greedy", "reroll"),
    ("reroll", "planner", "greedy", "planner_keep"),
    ("random",) * 2,
)


def tally_digest(out: dict[str, np.ndarray]) -> str:
    """sha256 (first 16 hex digits) of every array of a tally, in key order, with its key, dtype and shape."""
    h = hashlib.sha256()
    for k in sorted(out):
        a = np.ascontiguousarray(out[k])
        h.update(f"{k}:{a.dtype.str}:{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def digests(games: int, repeats: int) -> None:
    """One digest line per setting (SETTINGS x SEATINGS, two seeds, `games` games each, plus a logged game),
    then the combined digest, then the planner's CPU ms per game at 2, 3 and 4 players (the shipped kit, the
    best of `repeats` runs of `games` * 4 games). Run the same command with each checkout first on
    PYTHONPATH: equal digests = bit-identical games."""
    import dataclasses

    from generator.games.peak_dice.planner import DEFAULT_PARAMS

    every = hashlib.sha256()
    for name, (rules, keys, params) in SETTINGS.items():
        spec = make_spec(keys, rules=rules)
        t = build_tables(spec, planner=dataclasses.replace(DEFAULT_PARAMS, **params))
        for seats in SEATINGS:
            for seed in (1, 20180301):
                out = play(t, list(seats), spec.balance.turn_limit, seed_state(seed), games)
                d = tally_digest(out)
                every.update(d.encode())
                print(f"{name:<24} {'/'.join(seats):<40} seed {seed:<9} {d}")
        log = play(t, ["planner", "reroll", "random"], 300, seed_state(7), 1, log_rows=4000)
        d = tally_digest(log)
        every.update(d.encode())
        print(f"{name:<24} {'logged game':<40} seed {7:<9} {d}")
    print(f"all settings: {every.hexdigest()[:16]}")
    spec = make_spec()
    t = build_tables(spec)
    for n in (2, 3, 4):
        play(t, ["planner"] * n, 300, seed_state(0), 2)
        _, cpu, _ = best_of(repeats, lambda n=n: play(t, ["planner"] * n, 300, seed_state(n), games * 4))
        print(f"planner {n}p: {cpu / (games * 4) * 1e3:.4f} ms CPU per game ({games * 4} games), {load()}")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "digests":
        digests(int(sys.argv[2]) if len(sys.argv) > 2 else 500, int(sys.argv[3]) if len(sys.argv) > 3 else 3)
        return
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
