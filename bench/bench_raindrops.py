"""Raindrops full games per second per core (3 players, the shipped kit), the fast self-play path against the
readable reference path measured in the same run (baseline ratio), the 2-worker speed-up, and the wall time of
a full check (`pnpkit check layouts/raindrops --games 2000 --workers 2`: card-level games plus 2,000 full games
per player count and mode).

    python bench/bench_raindrops.py              # everything (the full check takes about a minute)
    python bench/bench_raindrops.py --games 500  # a smaller "full" check
    python bench/bench_raindrops.py --no-full    # rates only

Rates are per CPU second of this process (the machine may be shared). The speed-up and the full check are wall
time, what a user waits for; on a busy machine they are lower, so the full check also prints its CPU seconds
(this process and the pool's workers) halved: its wall time on two idle cores.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import time
from pathlib import Path

from generator.engine.executors import ProcessExecutor, SerialExecutor
from generator.engine.runner import run
from generator.games.raindrops import balance_report
from generator.games.raindrops.memory import generate_memory_cards
from generator.games.raindrops.sim import FullGames, simulation
from generator.spec.kit import load_kit

KIT = Path(__file__).resolve().parent.parent / "layouts" / "raindrops"


def cpu_rate(s: FullGames, games: int) -> float:
    """Games per CPU second in this process."""
    t = time.process_time()
    run(s, games, seed=1, executor=SerialExecutor(), chunk_size=max(1, games // 4))
    return games / (time.process_time() - t)


def wall_rate(s: FullGames, games: int, executor: object) -> float:
    """Games per wall second."""
    t = time.perf_counter()
    run(s, games, seed=2, executor=executor, chunk_size=max(1, games // 8))  # type: ignore[arg-type]
    return games / (time.perf_counter() - t)


def _cpu_all() -> float:
    """CPU seconds of this process and of its reaped children (the pool's workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000, help="full games per player count and mode in the full check")
    ap.add_argument("--no-full", action="store_true", help="skip the full check")
    args = ap.parse_args()

    kit = load_kit(KIT)
    spec = kit.game
    cards = generate_memory_cards(spec, spec.seed)
    greedy3 = simulation(spec, cards, 3, "greedy")
    run(greedy3, 2, seed=0)  # load the compiled search kernel

    fast = cpu_rate(greedy3, 150)
    ref = cpu_rate(dataclasses.replace(greedy3, reference=True), 30)
    pure = cpu_rate(dataclasses.replace(greedy3, pure=True), 16)
    gap = cpu_rate(simulation(spec, cards, 3, "gap"), 150)
    print(f"3 players, greedy in every seat  : {fast:7.1f} full games/s per core")
    print(f"  baseline: readable reference   : {ref:7.1f} full games/s per core (fast path is {fast / ref:.1f}x)")
    print(f"  search kernel as plain Python  : {pure:7.1f} full games/s per core (compiled kernel is {fast / pure:.2f}x)")
    print(f"3 players, 1 greedy vs 2 random  : {gap:7.1f} full games/s per core")

    one = wall_rate(greedy3, 400, SerialExecutor())
    with ProcessExecutor(2) as ex:
        wall_rate(greedy3, 16, ex)  # start the pool (forked after its first chunk)
        two = wall_rate(greedy3, 400, ex)
    print(f"2 workers                        : {two:7.1f} full games/s wall ({two / one:.2f}x one worker at "
          f"{one:.1f}/s wall; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")

    if args.no_full:
        return
    play = spec.balance.play
    if play is None or play.games < args.games:
        raise SystemExit(f"game.balance.play.games ({play.games if play else 'none'}) caps the check below "
                         f"{args.games} games")
    t = time.perf_counter()
    cpu = _cpu_all()
    with ProcessExecutor(2) as ex:
        rep = balance_report(spec, games=args.games, seed=kit.meta.seed, executor=ex, kit=kit.meta.id)
    wall = time.perf_counter() - t
    cpu = _cpu_all() - cpu  # the pool is shut down: its workers' time is in RUSAGE_CHILDREN now
    failed = [x.name for x in rep.tolerances if not x.ok]
    print(f"full check, {args.games} games per player count and mode, 2 workers: {wall:.1f} s wall here, "
          f"{cpu:.1f} CPU s in all = {cpu / 2:.1f} s on 2 idle cores (load average {os.getloadavg()[0]:.1f}); "
          f"{len(rep.tolerances)} tolerances, {len(failed)} outside")
    for name in failed:
        print(f"  outside: {name}")


if __name__ == "__main__":
    main()
