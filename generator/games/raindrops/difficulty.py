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

from generator.engine.kernel import (
    jit,
    jit_merged,
    jit_noref,
    rand_below,
    rng_next,
    seed_state,
    shuffle_inplace,
)
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
    fit: np.ndarray  # [cards, tiles] bit q set where the tile fits placement q, either way round


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
    p_max = max(1, max(len(p) for p, _, _ in per_card))  # at most 24: a card is at most 4 x 4 cells
    m = len(per_card)
    ta, tb = tile_arrays(bag, colour_ids)
    t = CardTables(
        np.zeros((m, p_max), np.int64),
        np.zeros((m, p_max), np.int64),
        np.zeros((m, p_max), np.int64),
        np.zeros((m, p_max), np.int64),
        np.zeros(m, np.int64),
        np.zeros((m, 1 << maxn), np.bool_),
        np.zeros(m, np.int64),
        np.zeros((m, len(bag)), np.int64),
    )
    for k, (pls, ok, full) in enumerate(per_card):
        for q, (i, j, ci, cj) in enumerate(pls):
            t.pl_i[k, q], t.pl_j[k, q], t.pl_ci[k, q], t.pl_cj[k, q] = i, j, ci, cj
            bi, bj = 1 << ci, 1 << cj
            fits = ((ta & bi != 0) & (tb & bj != 0)) | ((ta & bj != 0) & (tb & bi != 0))
            t.fit[k] |= fits.astype(np.int64) << q
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


@jit_noref  # compiled callers only: no CPython wrapper
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@jit_noref  # compiled callers only: no CPython wrapper
def _spot(k: int, mask: int, fits: int, pl_i: np.ndarray, pl_j: np.ndarray, cover_ok: np.ndarray) -> int:
    """The first placement where the tile fits (bit q of `fits`: `CardTables.fit`) and the card stays
    coverable; -1 if none."""
    q = 0
    while fits:
        if fits & 1:
            d = (1 << pl_i[k, q]) | (1 << pl_j[k, q])
            if (mask & d) == 0 and cover_ok[k, mask | d]:
                return q
        fits >>= 1
        q += 1
    return -1


@jit_noref  # compiled callers only: no CPython wrapper
def _place_all(
    k: int,
    mask: int,
    tiles: np.ndarray,
    n: int,
    used: np.ndarray,
    fit: np.ndarray,
    pl_i: np.ndarray,
    pl_j: np.ndarray,
    cover_ok: np.ndarray,
) -> int:
    """Place tiles[0:n] greedily in order; marks used[]; returns the new covered mask."""
    for s in range(n):
        used[s] = False
        t = tiles[s]
        q = _spot(k, mask, fit[k, t], pl_i, pl_j, cover_ok)
        if q >= 0:
            mask |= (1 << pl_i[k, q]) | (1 << pl_j[k, q])
            used[s] = True
    return mask


@jit_noref  # compiled callers only: no CPython wrapper
def _symbol(
    win: np.ndarray, flip: np.ndarray, tpc: int, y: int, x: int, ta: np.ndarray, tb: np.ndarray
) -> int:
    slot = tpc - 1 - y // 2
    t = win[x, slot]
    upper = (y % 2) == 0
    if upper == (flip[x, slot] == 0):
        return ta[t]  # type: ignore[no-any-return]  # compiled: an int64 array item
    return tb[t]  # type: ignore[no-any-return]  # compiled: an int64 array item


# solo_game's scratch: the rows of its int64 array `work`
SOLO_BAG, SOLO_DISCARD, SOLO_RESERVE, SOLO_PX, SOLO_NXT, SOLO_BEST_X, SOLO_CAND, SOLO_USED = range(8)
SOLO_MASK, SOLO_NPATH, SOLO_COLOURS = 8, 9, 10
"""Per depth of the path walk: the covered mask after its tiles (SOLO_MASK), its distinct tiles
(SOLO_NPATH), the colours all its symbols have (SOLO_COLOURS)."""


def solo_work(n_tiles: int, ncol: int, tpc: int, slots: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`solo_game`'s scratch for a bag of n_tiles: the SOLO_* rows, the window ([3, columns, tiles per
    column]: tiles, sides, taken) and the bag shuffle's draws."""
    return (
        np.zeros((SOLO_COLOURS + 1, max(n_tiles, 2 * tpc + slots + 1)), np.int64),
        np.zeros((3, ncol, tpc), np.int64),
        np.zeros(n_tiles, np.uint64),
    )


@jit_merged  # into _solo_tally, its one compiled caller
def solo_game(
    k: int,
    ta: np.ndarray,
    tb: np.ndarray,
    ncol: int,
    tpc: int,
    n_colours: int,
    pl_i: np.ndarray,
    pl_j: np.ndarray,
    fit: np.ndarray,
    cover_ok: np.ndarray,
    full: np.ndarray,
    max_drops: int,
    slots: int,
    state: np.ndarray,
    work: np.ndarray,
    window: np.ndarray,
    draws: np.ndarray,
) -> int:
    """Drops the reference policy needs to complete card k alone (max_drops + 1 if it never does). work,
    window, draws: scratch (`solo_work`).

    The bag is shuffled as `shuffle_inplace` does, its draws made first, but each swap only when the tile
    it settles is drawn: most of the bag is never drawn in a solo game.

    A path's tiles are placed after the reserve's, top to bottom, each on the first spot where it fits: so
    the covered mask after the reserve is the same for every path of a drop, and a path's mask after its
    first d tiles is its parent's (kept per depth in work[SOLO_MASK]) with one more tile placed."""
    n_tiles = ta.shape[0]
    rows = 2 * tpc
    bag = work[SOLO_BAG]
    discard = work[SOLO_DISCARD]
    reserve = work[SOLO_RESERVE]
    px = work[SOLO_PX]
    nxt = work[SOLO_NXT]
    best_x = work[SOLO_BEST_X]
    cand = work[SOLO_CAND]
    used = work[SOLO_USED]
    pmask = work[SOLO_MASK]
    npath = work[SOLO_NPATH]
    win = window[0]
    flip = window[1]
    taken = window[2]
    inter = work[SOLO_COLOURS]
    for i in range(n_tiles):
        bag[i] = i
    for i in range(n_tiles - 1, 0, -1):
        draws[i] = rng_next(state)
    settled = n_tiles  # bag[settled:] is shuffled; bag[i] settles with swap i
    bag_n = n_tiles
    n_disc = 0
    for x in range(ncol):
        for s in range(tpc):
            bag_n -= 1
            settled = _settle(bag, draws, settled, bag_n)
            win[x, s] = bag[bag_n]
            flip[x, s] = rand_below(state, 2)
            taken[x, s] = 0
    n_res = 0
    mask = 0
    drops = 0
    while mask != full[k]:
        if drops >= max_drops:
            return max_drops + 1
        drops += 1
        best_score = -1
        best_len = 0
        # the reserve first, the same for every path
        for r in range(n_res):
            cand[r] = reserve[r]
        m_res = _place_all(k, mask, cand, n_res, used, fit, pl_i, pl_j, cover_ok)
        placed = _popcount(mask)  # cells covered before this drop
        for x0 in range(ncol):
            s0 = _symbol(win, flip, tpc, 0, x0, ta, tb)
            for c in range(n_colours):
                cbit = 1 << c
                if (s0 & cbit) == 0:
                    continue
                depth = 0
                px[0] = x0
                nxt[0] = -1
                inter[0] = s0
                fresh = True
                while depth >= 0:
                    if fresh:
                        fresh = False
                        # the path px[0..depth]: its parent's mask and tiles, and its last tile unless that is
                        # the parent's (the lower half of the same tile)
                        m2 = m_res if depth == 0 else pmask[depth - 1]
                        n_path = 0 if depth == 0 else npath[depth - 1]
                        if depth == 0 or depth % 2 == 0 or px[depth] != px[depth - 1]:
                            t = win[px[depth], tpc - 1 - depth // 2]
                            u = n_res + n_path
                            cand[u] = t
                            q = _spot(k, m2, fit[k, t], pl_i, pl_j, cover_ok)
                            used[u] = q >= 0
                            if q >= 0:
                                m2 |= (1 << pl_i[k, q]) | (1 << pl_j[k, q])
                            n_path += 1
                        pmask[depth] = m2
                        npath[depth] = n_path
                        covered = _popcount(m2)
                        # the tiles kept in reserve (at most `slots` of those not placed, each placement
                        # covering two cells) count only where they could raise the score above the best; a
                        # path all of whose symbols have a lower colour too was valued with that colour
                        spare = min(slots, n_res + n_path - (covered - placed) // 2)
                        covered *= 16
                        if (covered + spare) * 64 + (63 - n_path) > best_score and not inter[depth] & (
                            cbit - 1
                        ):
                            keep = 0
                            for u in range(n_res + n_path):
                                if not used[u] and keep < slots:
                                    t = cand[u]
                                    if _spot(k, m2, fit[k, t], pl_i, pl_j, cover_ok) >= 0:
                                        keep += 1
                            score = (covered + keep) * 64 + (63 - n_path)
                            if score > best_score:
                                best_score = score
                                best_len = depth + 1
                                for y in range(depth + 1):
                                    best_x[y] = px[y]
                    if depth + 1 < rows and nxt[depth] <= 1:
                        nx = px[depth] + nxt[depth]
                        nxt[depth] += 1
                        sym = _symbol(win, flip, tpc, depth + 1, nx, ta, tb) if 0 <= nx < ncol else 0
                        if (sym & cbit) != 0:
                            depth += 1
                            px[depth] = nx
                            nxt[depth] = -1
                            inter[depth] = inter[depth - 1] & sym
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
                taken[best_x[y], sl] = 1
                cand[n] = win[best_x[y], sl]
                n += 1
        mask = _place_all(k, mask, cand, n, used, fit, pl_i, pl_j, cover_ok)
        n_res = 0
        for u in range(n):
            if used[u]:
                continue  # on the card until it is complete (the game ends then)
            t = cand[u]
            if n_res < slots and _spot(k, mask, fit[k, t], pl_i, pl_j, cover_ok) >= 0:
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
                taken[x, s] = 0
            for s in range(h, tpc):
                if bag_n == 0:
                    for u in range(n_disc):
                        bag[u] = discard[u]
                    bag_n = n_disc
                    n_disc = 0
                    shuffle_inplace(state, bag[:bag_n])
                bag_n -= 1
                settled = _settle(bag, draws, settled, bag_n)
                win[x, s] = bag[bag_n]
                flip[x, s] = rand_below(state, 2)
    return drops


@jit_noref  # compiled callers only: no CPython wrapper
def _settle(bag: np.ndarray, draws: np.ndarray, settled: int, i: int) -> int:
    """The swaps of `shuffle_inplace` (from the end, swap j with a draw below j + 1) down to bag[i]; returns
    the new first settled index."""
    while settled > i:
        settled -= 1
        if settled > 0:
            j = np.int64(draws[settled] % np.uint64(settled + 1))
            t = bag[settled]
            bag[settled] = bag[j]
            bag[j] = t
    return settled


@jit
def _solo_tally(
    ta: np.ndarray,
    tb: np.ndarray,
    ncol: int,
    tpc: int,
    n_colours: int,
    pl_i: np.ndarray,
    pl_j: np.ndarray,
    fit: np.ndarray,
    cover_ok: np.ndarray,
    full: np.ndarray,
    max_drops: int,
    slots: int,
    games: int,
    state: np.ndarray,
    out_sum: np.ndarray,
    out_sq: np.ndarray,
    out_unf: np.ndarray,
    work: np.ndarray,
    window: np.ndarray,
    draws: np.ndarray,
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
                fit,
                cover_ok,
                full,
                max_drops,
                slots,
                state,
                work,
                window,
                draws,
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
            t.fit,
            t.cover_ok,
            t.full,
            self.max_drops,
            self.reserve_slots,
            games,
            seed_state(seed),
            out_sum,
            out_sq,
            out_unf,
            *solo_work(self.ta.shape[0], self.columns, self.tiles_per_column, self.reserve_slots),
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
