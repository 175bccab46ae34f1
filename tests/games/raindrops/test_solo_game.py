"""The compiled solo game (`difficulty.solo_game`, the measured difficulty of a memory card) against a plain
one written here from the module's description: the bag shuffled whole, every drop path listed depth-first
and valued from scratch (the reserve and the path's tiles placed in order, each on the first placement its
colours fit, read from the card's placements and colours, not from the kernel's fit table), the first of the
highest scores taken. The kernel settles the shuffle lazily, values a path from its parent's placement and
skips paths that cannot beat the best; the drops per card and game must be the same."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from generator.engine.kernel import py_func, rand_below, seed_state, shuffle_inplace
from generator.games.raindrops.components import build_bag
from generator.games.raindrops.difficulty import (
    CardTables,
    SoloDifficulty,
    _solo_tally,
    solo_simulation,
    solo_work,
)
from generator.games.raindrops.memory import generate_memory_cards
from tests.games.raindrops.test_components_spec import SPEC, make_spec

_below = py_func(rand_below)
_shuffle = py_func(shuffle_inplace)


def _spot(t: int, k: int, mask: int, tb: CardTables, sim: SoloDifficulty) -> int:
    """The first placement of card k tile t fits (either way round) with the rest still coverable."""
    a, b = int(sim.ta[t]), int(sim.tb[t])
    for q in range(tb.n_pl[k]):
        d = (1 << int(tb.pl_i[k, q])) | (1 << int(tb.pl_j[k, q]))
        ci, cj = 1 << int(tb.pl_ci[k, q]), 1 << int(tb.pl_cj[k, q])
        fits = (a & ci and b & cj) or (a & cj and b & ci)
        if not mask & d and tb.cover_ok[k, mask | d] and fits:
            return q
    return -1


def _place_all(tiles: list[int], k: int, mask: int, tb: CardTables, sim: SoloDifficulty) -> tuple[int, list]:
    used = []
    for t in tiles:
        q = _spot(t, k, mask, tb, sim)
        if q >= 0:
            mask |= (1 << int(tb.pl_i[k, q])) | (1 << int(tb.pl_j[k, q]))
        used.append(q >= 0)
    return mask, used


def _paths(symbol: Callable[[int, int], int], x0: int, colour: int, ncol: int, rows: int) -> list[list[int]]:
    """The drop paths from column x0 of the top row whose symbols all have `colour`, each before its
    extensions, below it left, straight, right."""
    out: list[list[int]] = []

    def walk(path: list[int]) -> None:
        out.append(path)
        if len(path) < rows:
            for nx in (path[-1] - 1, path[-1], path[-1] + 1):
                if 0 <= nx < ncol and symbol(len(path), nx) >> colour & 1:
                    walk([*path, nx])

    walk([x0])
    return out


def _plain_solo(k: int, sim: SoloDifficulty, state: np.ndarray) -> int:
    tb, ncol, tpc, slots = sim.tables, sim.columns, sim.tiles_per_column, sim.reserve_slots
    bag = np.arange(len(sim.ta), dtype=np.int64)
    _shuffle(state, bag)
    bag_n = len(bag)
    discard: list[int] = []
    win: list[list[int]] = [[0] * tpc for _ in range(ncol)]
    flip: list[list[int]] = [[0] * tpc for _ in range(ncol)]
    for x in range(ncol):
        for s in range(tpc):
            bag_n -= 1
            win[x][s], flip[x][s] = int(bag[bag_n]), int(_below(state, 2))

    def symbol(y: int, x: int) -> int:
        slot = tpc - 1 - y // 2
        t = win[x][slot]
        return int(sim.ta[t] if (y % 2 == 0) == (flip[x][slot] == 0) else sim.tb[t])

    def tiles_of(path: list[int]) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        for y, x in enumerate(path):
            if (x, tpc - 1 - y // 2) not in out:
                out.append((x, tpc - 1 - y // 2))
        return out

    reserve: list[int] = []
    mask, drops = 0, 0
    while mask != tb.full[k]:
        if drops >= sim.max_drops:
            return sim.max_drops + 1
        drops += 1
        best_score, best_path = -1, [0]
        for x0 in range(ncol):
            for colour in range(sim.n_colours):
                if not symbol(0, x0) >> colour & 1:
                    continue
                for path in _paths(symbol, x0, colour, ncol, 2 * tpc):
                    spots = tiles_of(path)
                    cand = reserve + [win[x][s] for x, s in spots]
                    m2, used = _place_all(cand, k, mask, tb, sim)
                    keep = 0
                    for t, u in zip(cand, used, strict=True):
                        if not u and keep < slots and _spot(t, k, m2, tb, sim) >= 0:
                            keep += 1
                    score = (bin(m2).count("1") * 16 + keep) * 64 + (63 - len(spots))
                    if score > best_score:
                        best_score, best_path = score, path
        spots = tiles_of(best_path)
        cand = reserve + [win[x][s] for x, s in spots]
        mask, used = _place_all(cand, k, mask, tb, sim)
        reserve = []
        for t, u in zip(cand, used, strict=True):
            if not u:
                if len(reserve) < slots and _spot(t, k, mask, tb, sim) >= 0:
                    reserve.append(t)
                else:
                    discard.append(t)
        for x in range(ncol):
            kept = [(win[x][s], flip[x][s]) for s in range(tpc) if (x, s) not in spots]
            for s, (t, f) in enumerate(kept):
                win[x][s], flip[x][s] = t, f
            for s in range(len(kept), tpc):
                if bag_n == 0:
                    bag[: len(discard)] = discard
                    bag_n, discard = len(discard), []
                    _shuffle(state, bag[:bag_n])
                bag_n -= 1
                win[x][s], flip[x][s] = int(bag[bag_n]), int(_below(state, 2))
    return drops


@pytest.mark.parametrize("seed", [3, 20])
def test_solo_games_are_the_plain_solo_games(seed: int) -> None:
    spec = make_spec()
    cards = generate_memory_cards(spec, SPEC["seed"])
    sim = solo_simulation(spec, [c.pattern for c in cards], build_bag(spec))
    tb = sim.tables
    m = tb.full.shape[0]
    fast_state, plain_state = seed_state(seed), seed_state(seed)
    work = solo_work(len(sim.ta), sim.columns, sim.tiles_per_column, sim.reserve_slots)
    for _ in range(2):
        drops = np.zeros(m, np.int64)
        _solo_tally(
            sim.ta, sim.tb, sim.columns, sim.tiles_per_column, sim.n_colours, tb.pl_i, tb.pl_j, tb.fit,
            tb.cover_ok, tb.full, sim.max_drops, sim.reserve_slots, 1, fast_state, drops,
            np.zeros(m, np.int64), np.zeros(m, np.int64), *work,
        )  # fmt: skip
        plain = [min(_plain_solo(k, sim, plain_state), sim.max_drops) for k in range(m)]
        assert drops.tolist() == plain
        assert np.array_equal(fast_state, plain_state)  # the same draws, game after game
