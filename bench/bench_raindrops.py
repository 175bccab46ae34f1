"""Raindrops full games per second per core (3 players, the shipped kit): the compiled full-game kernel
(greedy seats) against the Python fast path and the readable reference path measured in the same run
(baseline ratios), the 2-worker speed-up (warm pool), and the wall time of
a full check (`pnpkit check layouts/raindrops --workers 2` at the kit's balance.play.games: card-level games
plus the full games per player count and mode).

    python bench/bench_raindrops.py              # everything (the full check takes about a minute)
    python bench/bench_raindrops.py --games 500  # a smaller "full" check
    python bench/bench_raindrops.py --no-full    # rates only
    python bench/bench_raindrops.py --digests    # ms/game per setting and digests of every tally array

Rates are per CPU second of this process, best of --repeat tries (the machine may be shared). The speed-up and
the full check are wall time (best of --repeat tries for the speed-up), what a user waits for; on a busy
machine they are lower, so the full check also prints its CPU seconds (this process and the pool's workers)
halved: its wall time on two idle cores.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import os
import resource
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.contract.load import load_kit
from generator.engine.executors import ProcessExecutor, SerialExecutor
from generator.engine.runner import run
from generator.games.raindrops.balance import balance_report
from generator.games.raindrops.memory import generate_memory_cards
from generator.games.raindrops.sim import CHUNK, FullGames, simulation

KIT = Path(__file__).resolve().parent.parent / "layouts" / "raindrops"


REPEAT = 3


def cpu_rate(s: FullGames, games: int) -> float:
    """Games per CPU second in this process, best of REPEAT runs (a shared machine only ever slows a run)."""
    best = 0.0
    for _ in range(REPEAT):
        t = time.process_time()
        run(s, games, seed=1, executor=SerialExecutor(), chunk_size=max(1, games // 4))
        best = max(best, games / (time.process_time() - t))
    return best


HOUSE_RULES = (
    ("bag_empties", "tile_needed"),
    ("window_refill", "next_turn"),
    ("final_last_turn_card", "not_usable"),
    ("final_clouds", "not_earned"),
    ("bonus_per_tile", "both_halves"),
    ("bonus_refill", "always"),
)
"""Each house rule's non-default setting (the kit ships the defaults)."""


def _digest(tally: dict[str, np.ndarray]) -> str:
    """One digest of every array of a tally (name, dtype, shape and bytes), in name order."""
    h = hashlib.sha256()
    for k in sorted(tally):
        a = np.ascontiguousarray(tally[k])
        h.update(f"{k}:{a.dtype.str}:{a.shape}".encode() + a.tobytes())
    return h.hexdigest()[:16]


def digests(spec: object, cards: object, games: int, seeds: tuple[int, ...]) -> None:
    """CPU ms per game and the digest of `sim.play(SeedSequence(s), games)` for every player count and mode
    (the kit's rules), each house rule's other setting (3 players, greedy and gap), and the solo games per
    memory card (`SoloDifficulty`): the same code gives the same lines, whatever the machine."""
    from generator.games.raindrops.difficulty import solo_simulation
    from generator.games.raindrops.memory import build_bag

    settings = []
    for players in spec.rules.players:  # type: ignore[attr-defined]
        for mode in ("greedy", "gap", "random"):
            settings.append((f"{players}p {mode}", simulation(spec, cards, players, mode)))
    for switch, value in HOUSE_RULES:
        for mode in ("greedy", "gap"):
            s = simulation(spec, cards, 3, mode)
            s = dataclasses.replace(s, params=dataclasses.replace(s.params, **{switch: value}))
            settings.append((f"3p {mode} {switch}={value}", s))
    for _, s in settings[:1]:
        s.play(np.random.SeedSequence(0), 2)  # load (or compile) the kernels
    total = {"full": 0.0, "solo": 0.0}
    for name, s in settings:
        t = time.process_time()
        ds = [_digest(s.play(np.random.SeedSequence(seed), games)) for seed in seeds]
        ms = (time.process_time() - t) * 1000 / (games * len(seeds))
        total["full"] += ms
        print(f"{name:40s} {ms:7.3f} ms/game  {' '.join(ds)}")
    solo = solo_simulation(spec, [c.pattern for c in cards], build_bag(spec))  # type: ignore[attr-defined]
    solo.play(np.random.SeedSequence(0), 1)
    n = max(1, games // 10)
    t = time.process_time()
    ds = [_digest(solo.play(np.random.SeedSequence(seed), n)) for seed in seeds]
    cards_n = solo.tables.full.shape[0]
    ms = (time.process_time() - t) * 1000 / (n * len(seeds) * cards_n)
    print(f"{'solo games (' + str(cards_n) + ' cards)':40s} {ms * 1000:7.2f} us/game  {' '.join(ds)}")
    print(f"sum of full-game ms/game over the settings: {total['full']:.2f}")


def _cpu_all() -> float:
    """CPU seconds of this process and of its reaped children (the pool's workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--games",
        type=int,
        default=None,
        help="full games per player count and mode in the full check (default: the kit's balance.play.games)",
    )
    ap.add_argument("--no-full", action="store_true", help="skip the full check")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many tries per rate")
    ap.add_argument(
        "--digests",
        type=int,
        nargs="?",
        const=60,
        default=None,
        metavar="GAMES",
        help="only print CPU ms per game and tally digests per setting (GAMES per seed, default 60)",
    )
    args = ap.parse_args()
    global REPEAT
    REPEAT = max(1, args.repeat)

    kit = load_kit(KIT)
    spec = kit.game
    cards = generate_memory_cards(spec, spec.seed)
    if args.digests is not None:
        digests(spec, cards, args.digests, (1, 2, 3))
        return
    greedy3 = simulation(spec, cards, 3, "greedy")
    run(greedy3, 2, seed=0)  # load (or compile) the kernels
    run(dataclasses.replace(greedy3, compiled=False), 2, seed=0)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    fast = cpu_rate(greedy3, 3000)
    py = cpu_rate(dataclasses.replace(greedy3, compiled=False), 100)
    ref = cpu_rate(dataclasses.replace(greedy3, reference=True), 20)
    gap3 = simulation(spec, cards, 3, "gap")
    gap = cpu_rate(gap3, 3000)
    gap_py = cpu_rate(dataclasses.replace(gap3, compiled=False), 100)
    print(f"3 players, greedy in every seat  : {fast:7.1f} full games/s per core (compiled full-game kernel)")
    print(f"  baseline: Python fast path     : {py:7.1f} full games/s per core (kernel is {fast / py:.1f}x)")
    print(
        f"  baseline: readable reference   : {ref:7.1f} full games/s per core (kernel is {fast / ref:.1f}x)"
    )
    print(
        f"3 players, 1 greedy vs 2 random  : {gap:7.1f} full games/s per core (compiled; Python fast path "
        f"{gap_py:.1f}, kernel is {gap / gap_py:.1f}x)"
    )

    from _scaling import measure  # bench/ is on sys.path when this script runs

    print(measure(greedy3, 6000, CHUNK, repeat=max(REPEAT, 5)).line())

    if args.no_full:
        return
    play = spec.balance.play
    if args.games is None and play is not None:
        args.games = play.games
    if play is None or play.games < args.games:
        raise SystemExit(
            f"game.balance.play.games ({play.games if play else 'none'}) caps the check below "
            f"{args.games} games"
        )
    t = time.perf_counter()
    cpu = _cpu_all()
    with ProcessExecutor(2) as ex:
        rep = balance_report(spec, games=args.games, seed=kit.meta.seed, executor=ex, kit=kit.meta.id)
    wall = time.perf_counter() - t
    cpu = _cpu_all() - cpu  # the pool is shut down: its workers' time is in RUSAGE_CHILDREN now
    failed = [x.name for x in rep.tolerances if not x.ok]
    print(
        f"full check, {args.games} games per player count and mode, 2 workers: {wall:.1f} s wall here, "
        f"{cpu:.1f} CPU s in all = {cpu / 2:.1f} s on 2 idle cores (load average {os.getloadavg()[0]:.1f}); "
        f"{len(rep.tolerances)} tolerances, {len(failed)} outside"
    )
    for name in failed:
        print(f"  outside: {name}")


if __name__ == "__main__":
    main()
