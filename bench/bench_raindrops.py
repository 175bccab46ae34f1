"""Raindrops full games per second per core (3 players), greedy with the compiled search kernel versus the
same games with the pure-Python kernel (baseline in the same run), and the 2-worker speed-up."""

from __future__ import annotations

import time

from generator.engine.executors import ProcessExecutor, SerialExecutor
from generator.engine.runner import run
from generator.games.raindrops.sim import FullGames
from tests.games.raindrops.test_rules_fixtures import PARAMS, bag84, bonus28, clouds12, deck54, thunder10


def sim(mode: str, pure: bool = False) -> FullGames:
    return FullGames(PARAMS, bag84(), deck54(), bonus28(), clouds12(), thunder10(), 3, mode, 2000, pure)


def rate(s: FullGames, games: int, executor=None) -> float:
    t = time.perf_counter()
    run(s, games, seed=1, executor=executor or SerialExecutor(), chunk_size=max(1, games // 4))
    return games / (time.perf_counter() - t)


def main() -> None:
    run(sim("greedy"), 2, seed=0)  # compile / load the kernel cache
    fast = rate(sim("greedy"), 100)
    base = rate(sim("greedy", pure=True), 20)
    gap = rate(sim("gap"), 60)
    two = rate(sim("greedy"), 200, ProcessExecutor(2))
    print(f"greedy, compiled kernel : {fast:7.1f} games/s per core")
    print(f"greedy, pure kernel     : {base:7.1f} games/s per core (baseline; compiled is {fast / base:.1f}x)")
    print(f"1 greedy vs 2 random    : {gap:7.1f} games/s per core")
    print(f"greedy, 2 workers       : {two:7.1f} games/s ({two / fast:.2f}x one core)")
    full = 3 * 2000 / fast + 3 * 2000 / gap
    print(f"a full check (2,000 games x 3 player counts x greedy+gap) ~ {full / 2:.0f} s on 2 cores at this rate")


if __name__ == "__main__":
    main()
