"""Rummy Cards: full rounds of meld finders per CPU second per core (2, 3 and 4 players, the digest's kit),
the same rounds on old paths (generator/ at --baseline: by default the commit before issue 16, main before the
solver's slot dominance and main before the dead-run cut) measured in the same run (baseline ratios), whether
the paths give identical tallies, the solver's give-ups, solver calls/s on realistic hands, the 2-worker
speed-up of a warm pool from CPU accounting (bench/_scaling.py: what two idle cores would give, every overhead
counted), and the wall time of a full check serially and with 2 workers.

    python bench/bench_rummy_cards.py                       # everything (the full checks take minutes)
    python bench/bench_rummy_cards.py --no-full             # rates and the baseline ratio only
    python bench/bench_rummy_cards.py --rounds 100 --reps 2 # fewer rounds per measurement
    python bench/bench_rummy_cards.py --baseline main       # the ratio against another revision
    python bench/bench_rummy_cards.py --profile 30          # only: where a round's time goes (30 rounds, 3p)
    python bench/bench_rummy_cards.py --replay 15           # only: the meld finder alone, low noise (A/B)
    perf record -F 5000 -o /tmp/perf.data python bench/bench_rummy_cards.py --perf-map 3000
    perf report -i /tmp/perf.data --no-children --sort sym  # the same, per compiled function (_perfmap.py)

Rates are rounds per CPU second of the measuring process (best of --reps, the current and the old path
alternating, each in a fresh process), so a shared machine slows them less than wall time would; the load
averages are printed before and after. The old path is extracted with `git archive` into
output/bench_baseline/<rev>/ once (its numba compile then lands there, cached for the next run).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.engine import kernelcache
from generator.engine.executors import ProcessExecutor, SerialExecutor
from generator.engine.kernel import jit
from generator.games.rummy_cards.balance import balance_report
from generator.games.rummy_cards.sim import simulation_from_spec
from generator.games.rummy_cards.solver import solve_turn
from generator.games.rummy_cards.solver_search import solve_counts, workspaces
from generator.games.rummy_cards.solver_state import MAX_MELDS, OUT_SIZE, SolverWorkspace
from generator.games.rummy_cards.spec import RummyCardsGame
from tests.games.shipped import game_section

SPEC = game_section("rummy_cards")  # the shipped kit's game section
PLAY_SPEC = {
    **SPEC,
    "balance": {k: v for k, v in SPEC["balance"].items() if k not in ("confidence", "max_games")},
}
"""SPEC for the timed self-play: without the sequential-check fields, which self-play does not read and a
baseline tree from before spec/base.SequentialCheck refuses."""
BASELINES = ["ac06553", "671deca", "463b2f1"]
"""The old paths: main as merged before issue 16 (small workspace first, big one on overflow), main as
landed after issue 13 (before the solver's slot dominance, move table and fused group layer), and main before
the dead-run cut and the known-nothing skip."""

# Run in a fresh process with generator/ of the tree under test first on sys.path: one timed play per player
# count after a warm-up (numba compile or cache load), CPU seconds, and a digest of every tally array.
MEASURE = """
import hashlib, json, sys, time
import numpy as np
sys.path.insert(0, sys.argv[1])
try:
    from generator.games.rummy_cards.spec import RummyCardsGame
except ImportError:  # a tree from before the one-folder-per-game layout (issue 13)
    from generator.spec.games.rummy_cards import RummyCardsGame
from generator.games.rummy_cards.sim import simulation_from_spec
spec = RummyCardsGame.model_validate(json.loads(sys.argv[2]))
rounds = int(sys.argv[3])
out = {}
for players in (2, 3, 4):
    sim = simulation_from_spec(spec, players)
    sim.play(np.random.SeedSequence(0), 1)
    t = time.process_time()
    tally = sim.play(np.random.SeedSequence(players), rounds)
    cpu = time.process_time() - t
    h = hashlib.sha256()
    for k in sorted(tally):
        h.update(k.encode() + np.ascontiguousarray(tally[k]).tobytes())
    out[players] = {"cpu": cpu, "digest": h.hexdigest(), "giveups": int(tally["solver_giveups"].sum())}
print(json.dumps(out))
"""


def baseline_tree(rev: str) -> Path:
    """generator/ at `rev`, extracted once under output/bench_baseline/."""
    sha = subprocess.run(
        ["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    dest = ROOT / "output" / "bench_baseline" / sha
    if not (dest / "generator").is_dir():
        dest.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(
            ["git", "archive", sha, "generator"], cwd=ROOT, capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    return dest


def measure(tree: Path, rounds: int) -> dict[str, dict[str, float | str | int]]:
    """One fresh-process measurement of the tree's self-play (see MEASURE)."""
    env = {k: v for k, v in os.environ.items() if k != "PNPKIT_PURE"}
    env["PYTHONPATH"] = str(tree)
    if Path(env.get("NUMBA_CACHE_DIR", "/")).parent == kernelcache.cache_base():
        # the salted folder this process's import chose for ROOT's sources: another tree has its own (an
        # inherited one would file its modules beside this tree's, and a kernel whose module has the same
        # bytes in both would load the machine code of the other tree's callees)
        del env["NUMBA_CACHE_DIR"]
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, str(tree), json.dumps(PLAY_SPEC), str(rounds)],
        env=env,
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result: dict[str, dict[str, float | str | int]] = json.loads(out)
    return result


def profile(spec: RummyCardsGame, rounds: int, players: int = 3) -> None:
    """Where the meld finders' time goes: every solver turn of `rounds` rounds is recorded (play_round's
    Python body, its callees compiled), then each is timed alone, compiled (best of 2, CPU time), with and
    without the joker retrieval; printed by kind of turn, with the share of the slowest turns."""
    from generator.engine.kernel import py_func, seed_state
    from generator.games.rummy_cards import sim as sim_module

    s = simulation_from_spec(spec, players)
    ws = workspaces(s.n_colours, s.n_numbers)
    calls: list[list[object]] = []
    skipped = [0]
    real_bound = sim_module.opening_points_bound

    def record(*a: object) -> None:
        calls.append([x.copy() if isinstance(x, np.ndarray) else x for x in a[:14]])
        solve_turn(*a)

    def bound(*a: object) -> int:
        b = int(real_bound(*a))
        skipped[0] += b < min(spec.initial_meld, *spec.balance.meld_thresholds)
        return b

    sim_module.solve_turn, sim_module.opening_points_bound = record, bound  # type: ignore[assignment]
    rng = seed_state(np.random.SeedSequence(1))
    setup = s.setup()
    round_ws = sim_module.round_workspace(setup, 1)
    for _ in range(rounds):
        py_func(sim_module.play_round)(rng, setup, round_ws, 0, -1)
    sim_module.solve_turn, sim_module.opening_points_bound = solve_turn, real_bound  # type: ignore[assignment]

    def timed(a: list[object], retrieval: bool) -> tuple[float, np.ndarray]:
        best_t = float("inf")
        for _ in range(2):
            b = [x.copy() if isinstance(x, np.ndarray) else x for x in a]
            b[6] = retrieval
            t = time.process_time()
            solve_turn(*b, ws)
            best_t = min(best_t, time.process_time() - t)
        return best_t, b[13]  # type: ignore[return-value]

    kinds: dict[str, list[float]] = {}
    main_t = retr_t = 0.0
    per_call = []
    for a in calls:
        full, out = timed(a, True)
        per_call.append(full)
        laid = out[0] > 0 and (out[0] & 255) > 0
        if a[5]:
            kind = "opening, searched"
        else:
            plain, _ = timed(a, False)
            main_t += plain
            retr_t += max(full - plain, 0.0)
            tj = int(np.sum(a[1]) + np.sum(a[2]))  # type: ignore[call-overload]
            kind = (
                f"opened, {'lays' if laid else 'lays nothing'}, {'table jokers' if tj else 'no table joker'}"
                f"{', known to lay nothing' if a[7] else ''}"
            )
        kinds.setdefault(kind, []).append(full)
    total = sum(per_call)
    whole = float("inf")
    for _ in range(2):  # the same rounds (same seed stream) through the compiled kernel
        t = time.process_time()
        s.play(np.random.SeedSequence(1), rounds)
        whole = min(whole, time.process_time() - t)
    print(
        f"profile: {rounds} rounds x {players} players, {len(calls)} solver turns, {skipped[0]} opening "
        f"turns "
        f"decided by the bound; the turns timed alone {total:.3f} CPU s, the rounds in the kernel "
        f"{whole:.3f} "
        f"CPU s ({rounds / whole:,.0f} rounds/s)"
    )
    for kind, ts in sorted(kinds.items(), key=lambda kv: -sum(kv[1])):
        print(
            f"  {kind:60s} {len(ts):5d} turns {100 * sum(ts) / total:5.1f}% of the time, "
            f"{1e6 * sum(ts) / len(ts):7.0f} us each"
        )
    opened = sum(sum(ts) for k, ts in kinds.items() if k.startswith("opened"))
    print(
        f"  opened turns: the table search {100 * main_t / total:.0f}%, joker retrieval "
        f"{100 * retr_t / total:.0f}% "
        f"of the time (retrieval off: {main_t:.3f} s of {opened:.3f} s)"
    )
    srt = sorted(per_call, reverse=True)
    for q in (0.01, 0.1):
        n = max(1, int(q * len(srt)))
        print(
            f"  the slowest {100 * q:.0f}% of turns ({n}): {100 * sum(srt[:n]) / total:.0f}% of the time "
            f"(slowest {1e3 * srt[0]:.1f} ms)"
        )


@jit
def _replay_turns(
    calls: np.ndarray, C: int, N: int, layout: np.ndarray, ws: SolverWorkspace, results: np.ndarray
) -> None:
    """solve_turn on each recorded turn (record_turns' rows), its out array into results (compiled: no Python
    call per turn)."""
    K = C * N
    out = np.zeros(OUT_SIZE, np.int64)
    for i in range(calls.shape[0]):
        row = calls[i]
        solve_turn(
            row[0:K],
            row[K : 2 * K],
            row[2 * K : 3 * K],
            row[3 * K : 4 * K],
            row[4 * K],
            row[4 * K + 1] == 1,
            row[4 * K + 2] == 1,
            row[4 * K + 3] == 1,
            C,
            N,
            row[4 * K + 4],
            row[4 * K + 5],
            layout,
            out,
            ws,
        )
        for j in range(OUT_SIZE):
            results[i, j] = out[j]


def record_turns(spec: RummyCardsGame, rounds: int) -> np.ndarray:
    """The meld finder's turns of `rounds` rounds at each of 2, 3 and 4 players (3 players: seat 0
    random-legal), as rows: table cards, run jokers and group jokers by kind, the hand, then hand jokers,
    opening, retrieval, known_nothing, num_min, joker_penalty (play_round's Python body, its callees
    compiled)."""
    from generator.engine.kernel import py_func, seed_state
    from generator.games.rummy_cards import sim as sim_module

    rows: list[np.ndarray] = []

    def record(*a: Any) -> None:
        t_real, t_jrun, t_jgrp, hand, hj, opening, retrieval, known, _, _, num_min, penalty = a[:12]
        flags = [hj, opening, retrieval, known, num_min, penalty]
        rows.append(np.concatenate([t_real, t_jrun, t_jgrp, hand, np.array(flags, np.int64)]))
        solve_turn(*a)

    sim_module.solve_turn = record  # type: ignore[assignment]
    try:
        for players in (2, 3, 4):
            s = simulation_from_spec(spec, players)
            rng, setup = seed_state(np.random.SeedSequence(players)), s.setup()
            ws = sim_module.round_workspace(setup, 1)
            for _ in range(rounds):
                py_func(sim_module.play_round)(rng, setup, ws, 0, 0 if players == 3 else -1)
    finally:
        sim_module.solve_turn = solve_turn  # type: ignore[assignment]
    return np.array(rows, np.int64)


def replay(spec: RummyCardsGame, rounds: int, reps: int) -> None:
    """The meld finder alone, timed with little noise, for A/B runs of two trees: the recorded turns
    (record_turns) replayed in one compiled call, best of `reps` (CPU time); the digest of every result."""
    import hashlib

    calls = record_turns(spec, rounds)
    C, N = len(spec.colours), spec.numbers.max - spec.numbers.min + 1
    ws = workspaces(C, N)
    layout = np.zeros((MAX_MELDS, 2 + max(C, N)), np.int64)
    results = np.zeros((calls.shape[0], OUT_SIZE), np.int64)
    _replay_turns(calls[:1], C, N, layout, ws, results)  # compile (or load) first
    times = []
    for _ in range(reps):
        t = time.process_time()
        _replay_turns(calls, C, N, layout, ws, results)
        times.append(time.process_time() - t)
    digest = hashlib.sha256(calls.tobytes() + results.tobytes()).hexdigest()[:16]
    best, median = min(times), sorted(times)[len(times) // 2]
    print(
        f"replay: {calls.shape[0]} solver turns of {rounds} rounds x 2-4 players: best {1e3 * best:.2f} ms "
        f"({1e6 * best / calls.shape[0]:.2f} us per turn), median {1e3 * median:.2f} ms; digest {digest}"
    )


def perf_map(spec: RummyCardsGame, rounds: int, players: int = 3) -> None:
    """Play `rounds` rounds under `perf record` and write the map that names the kernels (bench/_perfmap.py):
    a warm-up round first (kernel loading), then the timed rounds, CPU time printed."""
    import _perfmap  # bench/ is on sys.path when this script runs

    _perfmap.install()
    sim = simulation_from_spec(spec, players)
    sim.play(np.random.SeedSequence(0), 1)
    t = time.process_time()
    sim.play(np.random.SeedSequence(players), rounds)
    cpu = time.process_time() - t
    print(f"{rounds} rounds x {players} players: {1e3 * cpu / rounds:.3f} ms CPU per round")
    print(f"kernel names for perf report: {_perfmap.write_map()}")


def load() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=200, help="rounds per player count and measurement")
    ap.add_argument("--reps", type=int, default=3, help="measurements per path (best of)")
    ap.add_argument(
        "--baseline",
        action="append",
        help="git revision of an old path (repeatable; default: " + ", ".join(BASELINES) + ")",
    )
    ap.add_argument("--games", type=int, default=2000, help="rounds per player count in the full check")
    ap.add_argument("--no-full", action="store_true", help="skip the full checks (serial and 2 workers)")
    ap.add_argument(
        "--scaling-rounds",
        type=int,
        default=2000,
        help="3-player rounds in the 2-worker measurement (chunks of 50, as the check plays them)",
    )
    ap.add_argument(
        "--profile", type=int, default=0, metavar="ROUNDS", help="only profile ROUNDS 3-player rounds"
    )
    ap.add_argument(
        "--perf-map",
        type=int,
        default=0,
        metavar="ROUNDS",
        help="only play ROUNDS 3-player rounds and name the kernels for a `perf record` of this run",
    )
    ap.add_argument(
        "--replay",
        type=int,
        default=0,
        metavar="ROUNDS",
        help="only replay the solver turns of ROUNDS rounds per player count in one compiled loop",
    )
    args = ap.parse_args()
    if args.replay:
        replay(RummyCardsGame.model_validate(SPEC), args.replay, args.reps + 4)
        return
    if args.perf_map:
        perf_map(RummyCardsGame.model_validate(SPEC), args.perf_map)
        return
    args.baseline = args.baseline or BASELINES
    print(f"load averages at start: {load()} on {os.cpu_count()} CPUs")

    spec = RummyCardsGame.model_validate(SPEC)
    if args.profile:
        profile(spec, args.profile)
        return
    C, N = len(spec.colours), spec.numbers.max - spec.numbers.min + 1
    ws = workspaces(C, N)
    dec = np.zeros(N * (C + 1), np.int64)
    no_rj, no_gj = np.zeros(C, np.int64), np.zeros(N, np.int64)
    rng = np.random.default_rng(0)
    cases = []
    for _ in range(300):
        deck = rng.permutation(np.repeat(np.arange(C * N), 2))
        cases.append(
            (
                np.zeros(C * N, np.int64),
                np.bincount(deck[: int(rng.integers(14, 24))], minlength=C * N),
                int(rng.integers(0, 2)),
            )
        )
    solve_counts(cases[0][0], cases[0][1], 0, no_rj, no_gj, C, N, 1, -1, dec, ws)
    t = time.process_time()
    for f, h, j in cases:
        solve_counts(f, h, j, no_rj, no_gj, C, N, 1, -1, dec, ws)
    print(f"solver (opening, 14-23 cards, 0-1 joker): {len(cases) / (time.process_time() - t):,.0f} calls/s")

    trees = {"new": ROOT, **{rev: baseline_tree(rev) for rev in args.baseline}}
    for tree in trees.values():
        measure(tree, 1)  # compile each path once (cached under its tree)
    best: dict[str, dict[str, float]] = {name: {} for name in trees}
    digests: dict[str, dict[str, str]] = {name: {} for name in trees}
    giveups = dict.fromkeys(trees, 0)
    for _ in range(args.reps):  # the paths alternate, so a load change hits them alike
        for name, tree in trees.items():
            for p, r in measure(tree, args.rounds).items():
                best[name][p] = min(best[name].get(p, float("inf")), float(r["cpu"]))
                digests[name][p] = str(r["digest"])
                giveups[name] += int(r["giveups"])
    for p in sorted(best["new"]):
        new = args.rounds / best["new"][p]
        parts = []
        for rev in args.baseline:
            old = args.rounds / best[rev][p]
            same = "identical tallies" if digests["new"][p] == digests[rev][p] else "other tallies"
            parts.append(f"{rev} {old:,.1f} -> {new / old:.2f}x ({same})")
        print(f"self-play {p}p meld finders: {new:,.1f} rounds/s per core; " + "; ".join(parts))
    print(
        "solver give-ups in "
        + f"{args.reps} x {args.rounds} rounds x 3: "
        + ", ".join(f"{name} {n}" for name, n in giveups.items())
    )
    print(f"load averages after the rates: {load()}")

    from _scaling import measure as scaling  # bench/ is on sys.path when this script runs

    sim3 = simulation_from_spec(spec, 3)
    print("3 players, " + scaling(sim3, args.scaling_rounds, 50, repeat=max(args.reps, 5)).line())
    if args.no_full:
        return
    base = 0.0
    for name, ex in (("serial", SerialExecutor()), ("2 workers", ProcessExecutor(2))):
        t = time.perf_counter()
        rep = balance_report(spec, games=args.games, seed=1, executor=ex)
        dt = time.perf_counter() - t
        print(f"full check {args.games:,} rounds x 2-4 players, {name}: {dt:.1f} s wall (ok={rep.ok})")
        if name == "serial":
            base = dt
    print(f"2-worker speed-up: {base / dt:.2f}x (wall; load averages now {load()})")


if __name__ == "__main__":
    main()
