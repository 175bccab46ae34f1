"""Measured difficulty of memory cards: seeded solo drops on a random window under a reference policy.

One solo game: shuffle the bag, fill the window (columns left to right, each bottom to top, random side up),
then drop until the card is complete. Reference policy `greedy_cover`: among every legal drop path (start at
a top-row symbol, move to a matching symbol directly or diagonally below, any length >= 1, one colour; a wild
symbol matches either of its colours) take the one that leaves the most drops of the card covered, then the
most still-placeable tiles for the reserve (at most `rules.reserve_slots`), then the fewest tiles. Tiles are
placed greedily (reserve first, then the path top to bottom) on the first spot where the rest of the card can
still be covered by bag pairs. Special actions, bonus tiles and other players are left out: the figure ranks
cards against each other, it does not predict game length. A card's difficulty is the mean number of drops
(capped at `memory_cards.difficulty.max_drops`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from generator.engine.kernel import jit, rand_below, seed_state, shuffle_inplace
from generator.engine.runner import Executor, Tally, run
from generator.games.raindrops.components import RaindropTile, bag_pairs


@dataclass(frozen=True)
class CardTables:
    """A set of patterns as flat arrays for the kernel (one row per card)."""

    pl_i: np.ndarray  # [cards, P] first cell of each placement
    pl_j: np.ndarray  # [cards, P] second cell
    pl_ci: np.ndarray  # [cards, P] colour index wanted on the first cell
    pl_cj: np.ndarray  # [cards, P] colour index wanted on the second cell
    n_pl: np.ndarray  # [cards] placements in use
    cover_ok: (
        np.ndarray
    )  # [cards, 2**maxcells] True when the uncovered rest can still be covered by bag pairs
    full: np.ndarray  # [cards] mask of all cells


_TABLES: dict[tuple[object, ...], CardTables] = {}


def card_tables(
    patterns: Sequence[Sequence[Sequence[str | None]]], colour_ids: Sequence[str], bag: Sequence[RaindropTile]
) -> CardTables:
    """Placements and still-coverable masks of every pattern, for the kernel. Kept per patterns, colours and
    bag (the kernels only read them): a check builds the same deck's tables for the build-time difficulty
    and at every look, each time ~20 ms of Python."""
    key = (tuple(tuple(tuple(row) for row in pat) for pat in patterns), tuple(colour_ids), tuple(bag))
    if key not in _TABLES:
        if len(_TABLES) >= 8:
            _TABLES.pop(next(iter(_TABLES)))
        _TABLES[key] = _card_tables(patterns, colour_ids, bag)
    return _TABLES[key]


def _card_tables(
    patterns: Sequence[Sequence[Sequence[str | None]]], colour_ids: Sequence[str], bag: Sequence[RaindropTile]
) -> CardTables:
    pairs = bag_pairs(tuple(bag))
    cidx = {c: i for i, c in enumerate(colour_ids)}
    per_card = []
    maxn = 1
    for pat in patterns:
        cells = [(r, c) for r, row in enumerate(pat) for c, v in enumerate(row) if v is not None]
        index = {rc: k for k, rc in enumerate(cells)}
        pls = []
        for (r, c), k in index.items():
            for nb in ((r, c + 1), (r + 1, c)):
                if nb in index:
                    x, y = pat[r][c], pat[nb[0]][nb[1]]
                    if (x, y) in pairs:
                        pls.append((k, index[nb], cidx[x], cidx[y]))  # type: ignore[index]
        n = len(cells)
        maxn = max(maxn, n)
        ok = _coverable(n, pls)
        per_card.append((pls, ok, (1 << n) - 1))
    p_max = max(1, max(len(p) for p, _, _ in per_card))
    m = len(per_card)
    t = CardTables(
        np.zeros((m, p_max), np.int64),
        np.zeros((m, p_max), np.int64),
        np.zeros((m, p_max), np.int64),
        np.zeros((m, p_max), np.int64),
        np.zeros(m, np.int64),
        np.zeros((m, 1 << maxn), np.bool_),
        np.zeros(m, np.int64),
    )
    for k, (pls, ok, full) in enumerate(per_card):
        for q, (i, j, ci, cj) in enumerate(pls):
            t.pl_i[k, q], t.pl_j[k, q], t.pl_ci[k, q], t.pl_cj[k, q] = i, j, ci, cj
        t.n_pl[k] = len(pls)
        t.cover_ok[k, : ok.shape[0]] = ok
        t.full[k] = full
    return t


def _coverable(n: int, pls: list[tuple[int, int, int, int]]) -> np.ndarray:
    """ok[mask]: the cells outside `mask` can be exactly covered by the placements (mask = covered cells)."""
    full = (1 << n) - 1
    by_cell: list[list[int]] = [[] for _ in range(n)]
    for i, j, _, _ in pls:
        by_cell[i].append((1 << i) | (1 << j))
        by_cell[j].append((1 << i) | (1 << j))
    ok = np.zeros(1 << n, np.bool_)
    ok[full] = True
    # Masks with more covered cells first: ok[m] depends only on supersets of m.
    for mask in sorted(range(1 << n), key=lambda x: -bin(x).count("1")):
        if mask == full:
            continue
        rest = full & ~mask
        low = (rest & -rest).bit_length() - 1
        ok[mask] = any((d & mask) == 0 and ok[mask | d] for d in by_cell[low])
    return ok


def tile_arrays(bag: Sequence[RaindropTile], colour_ids: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Half colour masks (bit per colour) of every tile: (a, b)."""
    cidx = {c: i for i, c in enumerate(colour_ids)}
    a = np.array([sum(1 << cidx[c] for c in t.a) for t in bag], np.int64)
    b = np.array([sum(1 << cidx[c] for c in t.b) for t in bag], np.int64)
    return a, b


@jit
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@jit
def _fits(k: int, q: int, ha: int, hb: int, pl_ci: np.ndarray, pl_cj: np.ndarray) -> bool:
    bi = 1 << pl_ci[k, q]
    bj = 1 << pl_cj[k, q]
    # compiled code: bi/bj come from array items, so the checker sees Any; the value is a bool
    return ((ha & bi) != 0 and (hb & bj) != 0) or ((ha & bj) != 0 and (hb & bi) != 0)  # type: ignore[no-any-return]


@jit
def _spot(
    k: int,
    mask: int,
    ha: int,
    hb: int,
    pl_i: np.ndarray,
    pl_j: np.ndarray,
    pl_ci: np.ndarray,
    pl_cj: np.ndarray,
    n_pl: np.ndarray,
    cover_ok: np.ndarray,
) -> int:
    """The first placement where the tile fits and the card stays coverable; -1 if none."""
    for q in range(n_pl[k]):
        d = (1 << pl_i[k, q]) | (1 << pl_j[k, q])
        if (mask & d) == 0 and cover_ok[k, mask | d] and _fits(k, q, ha, hb, pl_ci, pl_cj):
            return q
    return -1


@jit
def _place_all(
    k: int,
    mask: int,
    tiles: np.ndarray,
    n: int,
    used: np.ndarray,
    ta: np.ndarray,
    tb: np.ndarray,
    pl_i: np.ndarray,
    pl_j: np.ndarray,
    pl_ci: np.ndarray,
    pl_cj: np.ndarray,
    n_pl: np.ndarray,
    cover_ok: np.ndarray,
) -> int:
    """Place tiles[0:n] greedily in order; marks used[]; returns the new covered mask."""
    for s in range(n):
        used[s] = False
        t = tiles[s]
        q = _spot(k, mask, ta[t], tb[t], pl_i, pl_j, pl_ci, pl_cj, n_pl, cover_ok)
        if q >= 0:
            mask |= (1 << pl_i[k, q]) | (1 << pl_j[k, q])
            used[s] = True
    return mask


@jit
def _symbol(
    win: np.ndarray, flip: np.ndarray, tpc: int, y: int, x: int, ta: np.ndarray, tb: np.ndarray
) -> int:
    slot = tpc - 1 - y // 2
    t = win[x, slot]
    upper = (y % 2) == 0
    if upper == (flip[x, slot] == 0):
        return ta[t]  # type: ignore[no-any-return]  # compiled: an int64 array item
    return tb[t]  # type: ignore[no-any-return]  # compiled: an int64 array item


@jit
def solo_game(
    k: int,
    ta: np.ndarray,
    tb: np.ndarray,
    ncol: int,
    tpc: int,
    n_colours: int,
    pl_i: np.ndarray,
    pl_j: np.ndarray,
    pl_ci: np.ndarray,
    pl_cj: np.ndarray,
    n_pl: np.ndarray,
    cover_ok: np.ndarray,
    full: np.ndarray,
    max_drops: int,
    slots: int,
    state: np.ndarray,
) -> int:
    """Drops the reference policy needs to complete card k alone (max_drops + 1 if it never does)."""
    n_tiles = ta.shape[0]
    rows = 2 * tpc
    bag = np.arange(n_tiles)
    shuffle_inplace(state, bag)
    bag_n = n_tiles
    discard = np.empty(n_tiles, np.int64)
    n_disc = 0
    win = np.empty((ncol, tpc), np.int64)
    flip = np.empty((ncol, tpc), np.int64)
    for x in range(ncol):
        for s in range(tpc):
            bag_n -= 1
            win[x, s] = bag[bag_n]
            flip[x, s] = rand_below(state, 2)
    reserve = np.empty(slots + 1, np.int64)
    n_res = 0
    mask = 0
    px = np.empty(rows, np.int64)
    nxt = np.empty(rows, np.int64)
    best_x = np.empty(rows, np.int64)
    cand = np.empty(rows + slots + 1, np.int64)
    cand_col = np.empty(rows, np.int64)
    cand_slot = np.empty(rows, np.int64)
    used = np.empty(rows + slots + 1, np.bool_)
    taken = np.zeros((ncol, tpc), np.bool_)
    drops = 0
    while mask != full[k]:
        if drops >= max_drops:
            return max_drops + 1
        drops += 1
        best_score = -1
        best_len = 0
        for x0 in range(ncol):
            s0 = _symbol(win, flip, tpc, 0, x0, ta, tb)
            for c in range(n_colours):
                cbit = 1 << c
                if (s0 & cbit) == 0:
                    continue
                depth = 0
                px[0] = x0
                nxt[0] = -1
                fresh = True
                while depth >= 0:
                    if fresh:
                        fresh = False
                        # evaluate the path px[0..depth]: reserve first, then its tiles top to bottom
                        n = 0
                        for r in range(n_res):
                            cand[n] = reserve[r]
                            n += 1
                        n_path = 0
                        for y in range(depth + 1):
                            sl = tpc - 1 - y // 2
                            dup = False
                            for u in range(n_path):
                                if cand_col[u] == px[y] and cand_slot[u] == sl:
                                    dup = True
                            if not dup:
                                cand_col[n_path] = px[y]
                                cand_slot[n_path] = sl
                                n_path += 1
                                cand[n] = win[px[y], sl]
                                n += 1
                        m2 = _place_all(
                            k, mask, cand, n, used, ta, tb, pl_i, pl_j, pl_ci, pl_cj, n_pl, cover_ok
                        )
                        keep = 0
                        for u in range(n):
                            if not used[u] and keep < slots:
                                t = cand[u]
                                if _spot(k, m2, ta[t], tb[t], pl_i, pl_j, pl_ci, pl_cj, n_pl, cover_ok) >= 0:
                                    keep += 1
                        score = (_popcount(m2) * 16 + keep) * 64 + (63 - n_path)
                        if score > best_score:
                            best_score = score
                            best_len = depth + 1
                            for y in range(depth + 1):
                                best_x[y] = px[y]
                    if depth + 1 < rows and nxt[depth] <= 1:
                        nx = px[depth] + nxt[depth]
                        nxt[depth] += 1
                        if 0 <= nx < ncol and (_symbol(win, flip, tpc, depth + 1, nx, ta, tb) & cbit) != 0:
                            depth += 1
                            px[depth] = nx
                            nxt[depth] = -1
                            fresh = True
                    else:
                        depth -= 1
        # apply the best path
        n = 0
        for r in range(n_res):
            cand[n] = reserve[r]
            n += 1
        for y in range(best_len):
            sl = tpc - 1 - y // 2
            if not taken[best_x[y], sl]:
                taken[best_x[y], sl] = True
                cand[n] = win[best_x[y], sl]
                n += 1
        mask = _place_all(k, mask, cand, n, used, ta, tb, pl_i, pl_j, pl_ci, pl_cj, n_pl, cover_ok)
        n_res = 0
        for u in range(n):
            if used[u]:
                continue  # on the card until it is complete (the game ends then)
            t = cand[u]
            if n_res < slots and _spot(k, mask, ta[t], tb[t], pl_i, pl_j, pl_ci, pl_cj, n_pl, cover_ok) >= 0:
                reserve[n_res] = t
                n_res += 1
            else:
                discard[n_disc] = t
                n_disc += 1
        # slide down and refill from the bag (reshuffling the discards when it runs out)
        for x in range(ncol):
            h = 0
            for s in range(tpc):
                if not taken[x, s]:
                    win[x, h] = win[x, s]
                    flip[x, h] = flip[x, s]
                    h += 1
                taken[x, s] = False
            for s in range(h, tpc):
                if bag_n == 0:
                    for u in range(n_disc):
                        bag[u] = discard[u]
                    bag_n = n_disc
                    n_disc = 0
                    shuffle_inplace(state, bag[:bag_n])
                bag_n -= 1
                win[x, s] = bag[bag_n]
                flip[x, s] = rand_below(state, 2)
    return drops


@jit
def _solo_tally(
    ta: np.ndarray,
    tb: np.ndarray,
    ncol: int,
    tpc: int,
    n_colours: int,
    pl_i: np.ndarray,
    pl_j: np.ndarray,
    pl_ci: np.ndarray,
    pl_cj: np.ndarray,
    n_pl: np.ndarray,
    cover_ok: np.ndarray,
    full: np.ndarray,
    max_drops: int,
    slots: int,
    games: int,
    state: np.ndarray,
    out_sum: np.ndarray,
    out_sq: np.ndarray,
    out_unf: np.ndarray,
) -> None:
    for _ in range(games):
        for k in range(full.shape[0]):
            d = solo_game(
                k,
                ta,
                tb,
                ncol,
                tpc,
                n_colours,
                pl_i,
                pl_j,
                pl_ci,
                pl_cj,
                n_pl,
                cover_ok,
                full,
                max_drops,
                slots,
                state,
            )
            if d > max_drops:
                out_unf[k] += 1
                d = max_drops
            out_sum[k] += d
            out_sq[k] += d * d


@dataclass(frozen=True)
class SoloDifficulty:
    """Picklable simulation: every game plays each card once alone; tallies drops per card."""

    ta: np.ndarray
    tb: np.ndarray
    columns: int
    tiles_per_column: int
    n_colours: int
    tables: CardTables
    max_drops: int
    reserve_slots: int

    def play(self, seed: np.random.SeedSequence, games: int) -> Tally:
        """Play `games` rounds of one solo game per card."""
        t = self.tables
        m = t.full.shape[0]
        out_sum = np.zeros(m, np.int64)
        out_sq = np.zeros(m, np.int64)
        out_unf = np.zeros(m, np.int64)
        _solo_tally(
            self.ta,
            self.tb,
            self.columns,
            self.tiles_per_column,
            self.n_colours,
            t.pl_i,
            t.pl_j,
            t.pl_ci,
            t.pl_cj,
            t.n_pl,
            t.cover_ok,
            t.full,
            self.max_drops,
            self.reserve_slots,
            games,
            seed_state(seed),
            out_sum,
            out_sq,
            out_unf,
        )
        return {
            "drops_sum": out_sum,
            "drops_sq": out_sq,
            "unfinished": out_unf,
            "runs": np.full(m, games, np.int64),
        }


def solo_simulation(
    spec: Any, patterns: Sequence[Sequence[Sequence[str | None]]], bag: Sequence[RaindropTile]
) -> SoloDifficulty:
    """The solo-drop simulation for these patterns under the spec's window, bag and reserve."""
    colour_ids = [c.id for c in spec.colours]
    ta, tb = tile_arrays(bag, colour_ids)
    return SoloDifficulty(
        ta,
        tb,
        spec.window.columns,
        spec.window.tiles_per_column,
        len(colour_ids),
        card_tables(patterns, colour_ids, bag),
        spec.memory_cards.difficulty.max_drops,
        spec.rules.reserve_slots,
    )


def measure(
    spec: object,
    patterns: Sequence[Sequence[Sequence[str | None]]],
    bag: Sequence[RaindropTile],
    games: int,
    seed: int,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
) -> Tally:
    """Tally of `games` solo games per pattern (drops_sum, drops_sq, unfinished, runs), seeded."""
    return run(solo_simulation(spec, patterns, bag), games, seed, executor, chunk_size=50, progress=progress)
