"""The fast path: whole Raindrops games, greedy and random seats, in one compiled call per chunk.

The reference is `rules.Raindrops` played by `policies.GreedyPolicy` and `policies.RandomPolicy`
(`sim.FullGames`); this module plays the very same games, choice for choice and draw for draw, over plain numpy
arrays, so it compiles with numba (`generator.engine.kernel.jit`) and runs as Python with PNPKIT_PURE=1 or
through `py_func`.

Same games, not merely similar ones: the kernel keeps its own stream, MT19937 seeded by `init_by_array` from
each game's 64-bit seed, and draws from it what numpy's `Generator` draws (`random()`, `integers(n)`,
`shuffle`); `game_rng(lo, hi)` hands the reference rules and policies a numpy Generator over the very same
stream. tests/games/raindrops/test_kernel.py proves the tallies identical to `FullGames` on its Python and its
reference path under every house-rule setting.

What the greedy policy decides here, in the reference's order (see policies.GreedyPolicy.choose):
set-up keeps the cards of highest points per drop; the special action and path come from `best_drop` (the
same compiled search); the thunder token of highest value is kept; a short bonus offer is always refilled
(so `bonus_refill` cannot change a greedy seat's game); the bonus tile of highest points + half the open
drops of its colours is taken; placements follow `_best_placement_reference` (first strict maximum in
`placements` order); the display card of highest points per drop (else the deck top) is taken; the reserve
keeps the tiles that fit a held card best. A random seat makes RandomPolicy's draws: one uniform pick among
the legal actions of a single-kind phase; the special action, drop path and placement
by the counts of RandomPolicy's fast mode (`_rand_special`, `_paths`, `_rand_placement`).

Layout: columns as in `best_drop` (col_tiles/col_flip[column, stack index from the bottom], col_len); a card's
cells are bits in `card_cells` order; colours are `game.bit` bits; scalars live in `sc` (indices S_*).
Boundary: `play_games` takes the static arrays as one `Setup` NamedTuple and adds to one `Tallies`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from generator.engine.kernel import jit
from generator.games.raindrops.components import BonusTile, CloudToken, MemoryCard, RaindropTile, ThunderToken
from generator.games.raindrops.difficulty import _popcount
from generator.games.raindrops.policies import (
    DROP_COL,
    DROP_IDX,
    DROP_KIND,
    DROP_LEN,
    DROP_PATH,
    GreedyPolicy,
    best_drop,
)
from generator.games.raindrops.rules import MARKER_START, Params, Raindrops

MT_N = 624
"""MT19937 state words; the state array has one more slot for the index."""

# scalars of one game, in `sc`
S_CUR = 0
S_TURN = 1
S_EMPTIES = 2
S_TRIGGER = 3  # 0 none, 1 a 10th card ("cards"), 2 the bag ("bag")
S_BAGN = 4
S_DISCN = 5
S_HANDN = 6
S_BSH = 7  # bonus stack: next index to draw
S_OFFN = 8
S_THH = 9  # thunder ring: head
S_THN = 10  # thunder ring: tokens in it
S_DECKH = 11
S_DISPN = 12
S_TAKEN = 13
S_FINAL = 14
N_SC = 15

TRIGGER_NONE = 0
TRIGGER_CARDS = 1
TRIGGER_BAG = 2


# ------------------------------------------------------------------------------------ numpy's Generator over MT19937
@jit
def mt_seed(mt: np.ndarray, lo: int, hi: int) -> None:
    """MT19937 seeded by init_by_array with the 32-bit words lo (and hi when it is not 0) of a 64-bit game seed."""
    mt[0] = 19650218
    for i in range(1, MT_N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
    nkey = 2 if hi != 0 else 1
    i = 1
    j = 0
    for _ in range(max(MT_N, nkey)):
        key = lo if j == 0 else hi
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key + j) & 0xFFFFFFFF
        i += 1
        j += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
        if j >= nkey:
            j = 0
    for _ in range(MT_N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
        i += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
    mt[0] = 0x80000000
    mt[MT_N] = MT_N


@jit
def mt_next(mt: np.ndarray) -> int:
    """The next 32-bit word (genrand_uint32; numpy's MT19937 next_uint32)."""
    if mt[MT_N] >= MT_N:
        for k in range(MT_N):
            y = (mt[k] & 0x80000000) | (mt[(k + 1) % MT_N] & 0x7FFFFFFF)
            v = mt[(k + 397) % MT_N] ^ (y >> 1)
            if y & 1:
                v ^= 0x9908B0DF
            mt[k] = v
        mt[MT_N] = 0
    y = mt[mt[MT_N]]
    mt[MT_N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y  # type: ignore[no-any-return]


@jit
def mt_random(mt: np.ndarray) -> float:
    """`Generator.random()` on MT19937 (numpy's mt19937_next_double, also CPython's `random()`): 53 bits from
    two words."""
    a = mt_next(mt) >> 5
    b = mt_next(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@jit
def mt_below(mt: np.ndarray, n: int) -> int:
    """`Generator.integers(n)` for 1 <= n < 2**31: Lemire's multiply-and-reject on one 32-bit word per try
    (numpy's buffered_bounded_lemire_uint32); n = 1 draws nothing."""
    if n <= 1:
        return 0
    m = mt_next(mt) * n
    left = m & 0xFFFFFFFF
    if left < n:
        threshold = (0xFFFFFFFF - (n - 1)) % n
        while left < threshold:
            m = mt_next(mt) * n
            left = m & 0xFFFFFFFF
    return m >> 32


@jit
def mt_interval(mt: np.ndarray, top: int) -> int:
    """numpy's random_interval(top): a uniform integer in 0..top by masked rejection on 32-bit words."""
    if top == 0:
        return 0
    mask = top
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    v = mt_next(mt) & mask
    while v > top:
        v = mt_next(mt) & mask
    return v


@jit
def mt_shuffle(mt: np.ndarray, arr: np.ndarray, n: int) -> None:
    """`Generator.shuffle` of arr[:n] (Fisher-Yates from the end, j = random_interval(i))."""
    for i in range(n - 1, 0, -1):
        j = mt_interval(mt, i)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t


def game_rng(lo: int, hi: int) -> np.random.Generator:
    """The numpy Generator whose draws `play_games` makes for game (lo, hi): MT19937 in the state `mt_seed`
    gives. The reference rules and policies take it (sim.FullGames' reference path, the replay tests)."""
    mt = np.zeros(MT_N + 1, dtype=np.int64)
    mt_seed(mt, lo, hi)
    bits = np.random.MT19937()
    bits.state = {"bit_generator": "MT19937", "state": {"key": mt[:MT_N].astype(np.uint32), "pos": int(mt[MT_N])}}
    return np.random.Generator(bits)


# ------------------------------------------------------------------------------------ tables
@jit
def cover_table(nxt: np.ndarray, n: int, out: np.ndarray) -> None:
    """out[mask] = 1 when a card's open drops (cells not in `mask`) can still be covered exactly by bag tiles:
    `GreedyPolicy.covers` for every mask at once. nxt[i] = the partner masks (right, then down; 0 = none) a
    bag pair can fill from cell i. Masks go from full to empty, so every mask | pair is known when needed."""
    full = (1 << n) - 1
    for mask in range(full, -1, -1):
        i = 0
        while i < n and (mask >> i) & 1:
            i += 1
        if i == n:
            out[mask] = 1
            continue
        ok = 0
        for j in range(nxt.shape[1]):
            m = nxt[i, j]
            if m != 0 and not mask & m and out[mask | m]:
                ok = 1
                break
        out[mask] = ok


class Setup(NamedTuple):
    """The static game as arrays (`tables`): what `play_games` reads and never writes."""

    rules: np.ndarray
    """players-independent figures: see `tables` for the order."""
    thunder_draw: np.ndarray
    tile_ids: np.ndarray
    ma: np.ndarray
    mb: np.ndarray
    bonus_ids: np.ndarray
    bpts: np.ndarray
    bmask: np.ndarray
    thunder_ids: np.ndarray
    tval: np.ndarray
    cstack: np.ndarray
    cstack_n: np.ndarray
    cpts: np.ndarray
    cond: np.ndarray
    card_ids: np.ndarray
    c_n: np.ndarray
    c_pts: np.ndarray
    c_ratio: np.ndarray
    c_per: np.ndarray
    c_sym: np.ndarray
    c_col: np.ndarray
    c_np: np.ndarray
    c_pi: np.ndarray
    c_pj: np.ndarray
    covers: np.ndarray
    means: np.ndarray
    """thunder_mean, bonus_mean (the greedy search's values of a thunder token and a bonus tile)."""


class Tallies(NamedTuple):
    """What `play_games` adds to, per chunk (the arrays of `sim.FullGames.play`'s tally)."""

    wins: np.ndarray
    """[players] float: 1 / (winners) per game won."""
    ties: np.ndarray
    """[3] games decided by TIE_TOTAL, TIE_CARDS, TIE_SHARED."""
    parts: np.ndarray
    """[games, 5] score parts summed over the seats (PART_* columns)."""
    card_held: np.ndarray
    card_done: np.ndarray
    card_turns: np.ndarray
    clouds: np.ndarray
    """[games, cloud types] cloud tokens taken."""
    turns: np.ndarray
    rounds: np.ndarray
    trigger: np.ndarray
    """[games] TRIGGER_* that ended the game (0: the turn limit)."""
    greedy_wins: np.ndarray
    """[1] the greedy seat's wins (mode "gap")."""
    margin: np.ndarray
    """[games] the greedy seat's total minus the others' mean (mode "gap")."""


class Workspace(NamedTuple):
    """The arrays of one game in progress that the placement helpers share with `play_games` (allocated once
    per chunk, reset per game): scalars, tiles in hand and reserve, held cards, scratch."""

    sc: np.ndarray
    """[N_SC] the game's scalars (S_* indices)."""
    hand: np.ndarray
    """Tiles taken this turn (sc[S_HANDN] of them)."""
    reserve: np.ndarray
    """[players, tiles] each seat's reserve tiles (res_n of them)."""
    res_n: np.ndarray
    bres: np.ndarray
    """[players, bonus id] bonus tiles in each seat's bonus reserve."""
    held_n: np.ndarray
    hcard: np.ndarray
    """[players, slot] held memory card ids (held_n per seat)."""
    hcov: np.ndarray
    """[players, slot] covered cells of each held card, as bits."""
    hfresh: np.ndarray
    """[players, slot] 1 for a card taken this turn."""
    pool: np.ndarray
    bons: np.ndarray
    fits: np.ndarray
    both: np.ndarray
    act: np.ndarray
    """The chosen placement: [kind 1 tile / 2 bonus, slot, tile or bonus, cell a, cell b, bonus over a, over b]."""
    keep: np.ndarray
    """keep[0] reserve tiles keep[1:] that stay when a random seat ends its placement."""


ACT_KIND, ACT_SLOT, ACT_PIECE, ACT_CELL_A, ACT_CELL_B, ACT_OVER_A, ACT_OVER_B = range(7)
"""Slots of Workspace.act, the chosen placement: kind (1 a raindrop tile, 2 a bonus tile alone), held-card slot,
the tile or bonus id, its cells on the card, the bonus tiles laid over half a / half b (-1 none)."""
MEAN_THUNDER, MEAN_BONUS = range(2)
"""Slots of Setup.means."""

PART_CARDS, PART_BONUS, PART_CLOUDS, PART_THUNDER, PART_INCOMPLETE = range(5)
"""Columns of Tallies.parts: the score parts A to E (sim.PARTS)."""

R_COLUMNS, R_CAP, R_DEALT, R_KEPT, R_DISPLAY, R_RESERVE, R_BONUS_MAX, R_OFFER, R_END_CARDS, R_END_EMPTIES, \
    R_AT_LAST, R_FINAL_FRESH_USABLE, R_ONE_HALF, R_MAXCELLS, R_BY_CHOICE, R_NCOLOURS, R_DROP_REFILL, \
    R_FINAL_CLOUDS = range(18)

MODE_RANDOM = 0
MODE_GREEDY = 1
MODE_GAP = 2
MODES = {"random": MODE_RANDOM, "greedy": MODE_GREEDY, "gap": MODE_GAP}
"""`sim.FullGames.mode` -> the kernel's code: all random, all greedy, one greedy seat (game g: seat g % players)."""


def tables(game: Raindrops) -> Setup:
    """Arrays of one rules object (cards' cover tables from the greedy policy's reference `can_cover`)."""
    p = game.params
    pol = GreedyPolicy(game, reference=True)
    i64 = np.int64
    max_bonus = max(game.bonus, default=0) + 1
    max_thunder = max(game.thunder, default=0) + 1
    max_cloud = max(game.clouds, default=0) + 1
    max_card = max(game.cards) + 1
    maxcells = max(len(c) for c in game.card_cells.values())
    if maxcells > 16:  # the spec's grid is at most 4 x 4
        raise ValueError(f"the compiled kernel handles memory cards of up to 16 drops; got {maxcells}")
    rules = np.array([p.columns, p.tiles_per_column, p.cards_dealt, p.cards_kept, p.display, p.reserve_slots,
                      p.bonus_max_tiles, p.bonus_offer, p.end_cards, p.end_bag_empties,
                      p.bag_empties == "last_tile_drawn", p.final_last_turn_card == "usable",
                      p.bonus_per_tile == "one_half", maxcells, p.bonus_refill == "by_choice",
                      len(game.colours), p.window_refill == "drop_step", p.final_clouds == "earned"],
                     dtype=i64)
    bpts = np.zeros(max_bonus, dtype=i64)
    bmask = np.zeros(max_bonus, dtype=i64)
    for b, t in game.bonus.items():
        bpts[b] = t.points
        bmask[b] = game.half_mask(t.colours)
    tval = np.zeros(max_thunder, dtype=i64)
    for k, th in game.thunder.items():
        tval[k] = th.value
    types = game.cloud_types
    syms = sorted({s for c in game.clouds.values() for s, _ in c.condition}
                  | {c.cloud for c in game.cards.values() if c.cloud is not None})
    cstack = np.zeros((max(1, len(types)), max(1, len(game.clouds))), dtype=i64)
    cstack_n = np.zeros(max(1, len(types)), dtype=i64)
    cpts = np.zeros(max_cloud, dtype=i64)
    cond = np.zeros((max(1, len(types)), max(1, len(syms))), dtype=i64)
    for cid in sorted(game.clouds):  # spec order within a type: the gold token first, as new_state stacks them
        c = game.clouds[cid]
        ty = types.index(c.type)
        cstack[ty, cstack_n[ty]] = cid
        cstack_n[ty] += 1
        cpts[cid] = c.points
    for ti, ty_name in enumerate(types):
        for sym, need in game.cloud_cond[ty_name]:
            si = syms.index(sym)
            cond[ti, si] = max(cond[ti, si], need)
    c_n = np.zeros(max_card, dtype=i64)
    c_pts = np.zeros(max_card, dtype=i64)
    c_ratio = np.zeros(max_card, dtype=np.float64)
    c_per = np.zeros(max_card, dtype=np.float64)
    c_sym = np.full(max_card, -1, dtype=i64)
    c_col = np.zeros((max_card, maxcells), dtype=i64)
    maxpairs = max(len(x) for x in game.card_pairs.values())
    c_np = np.zeros(max_card, dtype=i64)
    c_pi = np.zeros((max_card, max(1, maxpairs)), dtype=i64)
    c_pj = np.zeros((max_card, max(1, maxpairs)), dtype=i64)
    covers = np.zeros((max_card, 1 << maxcells), dtype=np.int8)
    for cid, card in game.cards.items():
        cells = game.card_cells[cid]
        index = {cell: i for i, cell in enumerate(cells)}
        c_n[cid] = len(cells)
        c_pts[cid] = card.points
        c_ratio[cid] = card.points / len(cells)
        c_per[cid] = card.points / max(1, len(cells) / 2)
        if not card.cat and card.cloud is not None:
            c_sym[cid] = syms.index(card.cloud)
        for i, cell in enumerate(cells):
            c_col[cid, i] = game.bit[game.colour_at[cid][cell]]
        c_np[cid] = len(game.card_pairs[cid])
        for k, (x, y) in enumerate(game.card_pairs[cid]):
            c_pi[cid, k] = index[x]
            c_pj[cid, k] = index[y]
        nxt = np.zeros((maxcells, 2), dtype=i64)
        for i, opts in enumerate(pol.cnext[cid]):
            for j, m in enumerate(opts):
                nxt[i, j] = m
        cover_table(nxt, len(cells), covers[cid])
    return Setup(rules, np.array(p.thunder_draw, dtype=i64), np.array(game.tile_ids, dtype=i64),
                  pol.ma.copy(), pol.mb.copy(), np.array(sorted(game.bonus), dtype=i64), bpts, bmask,
                  np.array(sorted(game.thunder), dtype=i64), tval, cstack, cstack_n, cpts, cond,
                  np.array(game.card_ids, dtype=i64), c_n, c_pts, c_ratio, c_per, c_sym, c_col, c_np, c_pi, c_pj,
                  covers, np.array([pol.thunder_mean, pol.bonus_mean], dtype=np.float64))


@lru_cache(maxsize=8)
def tables_for(params: Params, bag: tuple[RaindropTile, ...], cards: tuple[MemoryCard, ...],
               bonus: tuple[BonusTile, ...], clouds: tuple[CloudToken, ...],
               thunder: tuple[ThunderToken, ...]) -> Setup:
    """`tables` of the game built from these components, once per process (every chunk of a run reuses it)."""
    return tables(Raindrops(params, bag, cards, bonus, clouds, thunder))


# ------------------------------------------------------------------------------------ the game
@jit
def _reshuffle(mt: np.ndarray, sc: np.ndarray, bag: np.ndarray, discard: np.ndarray) -> None:
    n = sc[S_DISCN]
    discard[:n].sort()
    for i in range(n):
        bag[i] = discard[i]
    sc[S_BAGN] = n
    sc[S_DISCN] = 0
    mt_shuffle(mt, bag, n)


@jit
def _bag_empties(mt: np.ndarray, sc: np.ndarray, bag: np.ndarray, discard: np.ndarray, end_empties: int) -> bool:
    sc[S_EMPTIES] += 1
    if sc[S_EMPTIES] >= end_empties and sc[S_TRIGGER] == TRIGGER_NONE:
        sc[S_TRIGGER] = TRIGGER_BAG
    _reshuffle(mt, sc, bag, discard)
    return sc[S_BAGN] > 0  # type: ignore[no-any-return]


@jit
def _refill_window(mt: np.ndarray, sc: np.ndarray, bag: np.ndarray, discard: np.ndarray, col_tiles: np.ndarray,
                   col_flip: np.ndarray, col_len: np.ndarray, cap: int, at_last: bool, end_empties: int) -> None:
    for c in range(col_len.shape[0]):
        while col_len[c] < cap:
            if sc[S_BAGN] == 0:
                if at_last:
                    if sc[S_DISCN] == 0:
                        return
                    _reshuffle(mt, sc, bag, discard)
                elif not _bag_empties(mt, sc, bag, discard, end_empties):
                    return
            sc[S_BAGN] -= 1
            col_tiles[c, col_len[c]] = bag[sc[S_BAGN]]
            col_flip[c, col_len[c]] = 1 if mt_random(mt) < 0.5 else 0
            col_len[c] += 1
            if at_last and sc[S_BAGN] == 0:
                _bag_empties(mt, sc, bag, discard, end_empties)


@jit
def _fit(tid: int, p: int, setup: Setup, ws: Workspace) -> float:
    """GreedyPolicy.fit_value: points per tile of the best held card with an open pair this tile fits."""
    held_n, hcard, hcov = ws.held_n, ws.hcard, ws.hcov
    ma, mb, c_per, c_col, c_np, c_pi, c_pj = setup.ma, setup.mb, setup.c_per, setup.c_col, setup.c_np, setup.c_pi, setup.c_pj
    a = ma[tid]
    b = mb[tid]
    best = 0.0
    for s in range(held_n[p]):
        card = hcard[p, s]
        cov = hcov[p, s]
        per = c_per[card]
        if per <= best:
            continue
        for k in range(c_np[card]):
            x = c_pi[card, k]
            y = c_pj[card, k]
            if (cov >> x) & 1 or (cov >> y) & 1:
                continue
            cx = c_col[card, x]
            cy = c_col[card, y]
            if (a & cx and b & cy) or (a & cy and b & cx):
                best = per
                break
    return best


@jit
def _best_placement(p: int, setup: Setup, ws: Workspace) -> bool:
    """GreedyPolicy._best_placement_reference: act = [kind 1 tile / 2 bonus, slot, tile or bonus, cell a,
    cell b, bonus over a, bonus over b] of the first placement of strictly highest value; False when none."""
    sc, hand, reserve, res_n, bres, pool, bons, act = ws.sc, ws.hand, ws.reserve, ws.res_n, ws.bres, ws.pool, ws.bons, ws.act
    held_n, hcard, hcov, hfresh = ws.held_n, ws.hcard, ws.hcov, ws.hfresh
    ma, mb, bpts, bmask, c_n, c_pts = setup.ma, setup.mb, setup.bpts, setup.bmask, setup.c_n, setup.c_pts
    c_col, c_np, c_pi, c_pj, covers = setup.c_col, setup.c_np, setup.c_pi, setup.c_pj, setup.covers
    one_half = setup.rules[R_ONE_HALF] != 0
    # the pool: hand and reserve, sorted (both hold distinct tiles)
    n = 0
    for i in range(sc[S_HANDN]):
        pool[n] = hand[i]
        n += 1
    for i in range(res_n[p]):
        pool[n] = reserve[p, i]
        n += 1
    pool[:n].sort()
    nb = 0
    for b in range(bres.shape[1]):
        if bres[p, b]:
            bons[nb] = b
            nb += 1
    best = 0.0
    found = False
    for s in range(held_n[p]):
        if hfresh[p, s]:
            continue
        card = hcard[p, s]
        cov = hcov[p, s]
        total = c_n[card]
        pts = c_pts[card]
        cov_ok = covers[card, cov] != 0
        for ti in range(n):
            tid = pool[ti]
            for k in range(c_np[card]):
                x = c_pi[card, k]
                y = c_pj[card, k]
                if (cov >> x) & 1 or (cov >> y) & 1:
                    continue
                cov2 = cov | (1 << x) | (1 << y)
                full = _popcount(cov2) == total
                for orient in range(2):
                    c0 = x if orient == 0 else y
                    c1 = y if orient == 0 else x
                    wa = c_col[card, c0]
                    wb = c_col[card, c1]
                    oka = (ma[tid] & wa) != 0
                    okb = (mb[tid] & wb) != 0
                    if oka and okb:
                        if full:
                            v = 100.0 + pts
                        elif covers[card, cov2]:
                            v = 10.0 + _popcount(cov2) / total
                        else:
                            continue
                        if v > best:
                            best = v
                            found = True
                            act[ACT_KIND] = 1
                            act[ACT_SLOT] = s
                            act[ACT_PIECE] = tid
                            act[ACT_CELL_A] = c0
                            act[ACT_CELL_B] = c1
                            act[ACT_OVER_A] = -1
                            act[ACT_OVER_B] = -1
                        continue
                    if not oka and not okb and one_half:
                        continue
                    if nb == 0:
                        continue
                    if not full and (cov_ok or not covers[card, cov2]):
                        continue  # an overlay only where the card could not be finished otherwise
                    na = 1 if oka else nb
                    nbb = 1 if okb else nb
                    for ia in range(na):
                        ba = -1
                        if not oka:
                            ba = bons[ia]
                            if not bmask[ba] & wa:
                                continue
                        for ib in range(nbb):
                            bb = -1
                            if not okb:
                                bb = bons[ib]
                                if not bmask[bb] & wb:
                                    continue
                            if ba != -1 and ba == bb:
                                continue
                            cost = 0
                            if ba != -1:
                                cost += bpts[ba] + 1
                            if bb != -1:
                                cost += bpts[bb] + 1
                            if full:
                                v = 100.0 + pts - cost
                            else:
                                v = 5.0 - 0.1 * cost
                            if v > best:
                                best = v
                                found = True
                                act[ACT_KIND] = 1
                                act[ACT_SLOT] = s
                                act[ACT_PIECE] = tid
                                act[ACT_CELL_A] = c0
                                act[ACT_CELL_B] = c1
                                act[ACT_OVER_A] = ba
                                act[ACT_OVER_B] = bb
        for ib in range(nb):
            b = bons[ib]
            for cell in range(total):
                if (cov >> cell) & 1 or not bmask[b] & c_col[card, cell]:
                    continue
                cov2 = cov | (1 << cell)
                cost = bpts[b] + 1
                if _popcount(cov2) == total:
                    v = 100.0 + pts - cost
                elif cov_ok or not covers[card, cov2]:
                    continue
                else:
                    v = 5.0 - 0.1 * cost
                if v > best:
                    best = v
                    found = True
                    act[ACT_KIND] = 2
                    act[ACT_SLOT] = s
                    act[ACT_PIECE] = b
                    act[ACT_CELL_A] = cell
                    act[ACT_CELL_B] = -1
                    act[ACT_OVER_A] = -1
                    act[ACT_OVER_B] = -1
    return found


@jit
def _rand_special(mt: np.ndarray, col_len: np.ndarray, marker: int) -> tuple[int, int, int]:
    """RandomPolicy._special: (kind, column, index), kind -1 for no special action."""
    n = col_len.shape[0]
    c_flip = 0
    c_swap = 0
    c_top = 0
    for c in range(n):
        c_flip += col_len[c]
        if c + 1 < n:
            c_swap += min(col_len[c], col_len[c + 1])
        c_top += max(0, col_len[c] - 1)
    if marker == 0:
        c_flip = 0
    elif marker == 1:
        c_swap = 0
    else:
        c_top = 0
    total = c_flip + c_swap + c_top
    if mt_below(mt, 2 if total else 1) == 0:
        return -1, 0, 0
    k = mt_below(mt, total)
    for kind in range(3):
        cnt = c_flip if kind == 0 else (c_swap if kind == 1 else c_top)
        if k >= cnt:
            k -= cnt
            continue
        for c in range(n):
            if kind == 0:
                m = col_len[c]
            elif kind == 1:
                m = min(col_len[c], col_len[c + 1]) if c + 1 < n else 0
            else:
                m = max(0, col_len[c] - 1)
            if k < m:
                return kind, c, k
            k -= m
    return -1, 0, 0


@jit
def _paths(col_tiles: np.ndarray, col_flip: np.ndarray, col_len: np.ndarray, ma: np.ndarray, mb: np.ndarray,
           target: int, gm: np.ndarray, pc: np.ndarray, pm: np.ndarray, nd: np.ndarray, out: np.ndarray) -> int:
    """`drop_paths_in_order`: with target < 0 the number of paths; else the length of path number `target`,
    its columns (row by row) written to out[DROP_PATH:]."""
    cols = col_tiles.shape[0]
    rows = gm.shape[0]
    for k in range(cols):
        for r in range(rows):
            gm[r, k] = 0
        for j in range(col_len[k]):
            tid = col_tiles[k, j]
            top = ma[tid]
            bot = mb[tid]
            if col_flip[k, j] == 1:
                top = mb[tid]
                bot = ma[tid]
            gm[rows - 1 - 2 * j, k] = bot
            gm[rows - 2 - 2 * j, k] = top
    count = 0
    for c0 in range(cols):
        if gm[0, c0] == 0:
            continue
        d = 0
        pc[0] = c0
        pm[0] = gm[0, c0]
        nd[0] = -1
        while d >= 0:
            if nd[d] == -1:  # the path ending at depth d, before its extensions
                if count == target:
                    for q in range(d + 1):
                        out[DROP_PATH + q] = pc[q]
                    return d + 1
                count += 1
            if d + 1 < rows and nd[d] <= 1:
                dc = nd[d]
                nd[d] += 1
                k = pc[d] + dc
                if 0 <= k < cols:
                    m = pm[d] & gm[d + 1, k]
                    if m != 0:
                        d += 1
                        pc[d] = k
                        pm[d] = m
                        nd[d] = -1
            else:
                d -= 1
    return count


@jit
def _binom(n: int, k: int) -> int:
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@jit
def _rand_placement(mt: np.ndarray, p: int, final: bool, setup: Setup, ws: Workspace) -> int:
    """RandomPolicy._placement with its draws: 1 = a Place in act, 2 = a PlaceBonus in act, 0 = end the
    placement (outside the final placement keep[0] tiles keep[1:] stay in reserve)."""
    sc, hand, reserve, res_n, bres, pool, bons, act = ws.sc, ws.hand, ws.reserve, ws.res_n, ws.bres, ws.pool, ws.bons, ws.act
    held_n, hcard, hcov, hfresh, fits, both, keep = ws.held_n, ws.hcard, ws.hcov, ws.hfresh, ws.fits, ws.both, ws.keep
    ma, mb, bmask, c_n, c_col = setup.ma, setup.mb, setup.bmask, setup.c_n, setup.c_col
    c_np, c_pi, c_pj = setup.c_np, setup.c_pi, setup.c_pj
    one_half = setup.rules[R_ONE_HALF] != 0
    reserve_slots = setup.rules[R_RESERVE]
    n = 0
    for i in range(sc[S_HANDN]):
        pool[n] = hand[i]
        n += 1
    for i in range(res_n[p]):
        pool[n] = reserve[p, i]
        n += 1
    pool[:n].sort()
    nb = 0
    for b in range(bres.shape[1]):
        if bres[p, b]:
            bons[nb] = b
            nb += 1
    ncol = fits.shape[0]
    fits[:] = 0
    both[:, :] = 0
    for ib in range(nb):
        m = bmask[bons[ib]]
        for i in range(ncol):
            if m >> i & 1:
                fits[i] += 1
                for j in range(i, ncol):
                    if m >> j & 1:
                        both[i, j] += 1
                        if j != i:
                            both[j, i] += 1
    # pass 0 counts the Place actions (and singles), pass 1 finds the drawn one
    n_place = 0
    n_single = 0
    for s in range(held_n[p]):
        if hfresh[p, s]:
            continue
        card = hcard[p, s]
        cov = hcov[p, s]
        for ti in range(n):
            tid = pool[ti]
            for k in range(c_np[card]):
                x = c_pi[card, k]
                y = c_pj[card, k]
                if (cov >> x) & 1 or (cov >> y) & 1:
                    continue
                for orient in range(2):
                    wa = c_col[card, x if orient == 0 else y]
                    wb = c_col[card, y if orient == 0 else x]
                    n_place += _place_count(ma[tid] & wa, mb[tid] & wb, wa, wb, nb, fits, both, one_half)
        if nb:
            for ib in range(nb):
                for cell in range(c_n[card]):
                    if not (cov >> cell) & 1 and bmask[bons[ib]] & c_col[card, cell]:
                        n_single += 1
    nk = 1 + (1 if n_place > 0 else 0) + (1 if n_single > 0 else 0)
    kind = mt_below(mt, nk)
    if kind == 2 or (kind == 1 and n_place == 0):  # PlaceBonus
        k = mt_below(mt, n_single)
        for s in range(held_n[p]):
            if hfresh[p, s]:
                continue
            card = hcard[p, s]
            cov = hcov[p, s]
            for ib in range(nb):
                for cell in range(c_n[card]):
                    if not (cov >> cell) & 1 and bmask[bons[ib]] & c_col[card, cell]:
                        if k == 0:
                            act[ACT_KIND] = 2
                            act[ACT_SLOT] = s
                            act[ACT_PIECE] = bons[ib]
                            act[ACT_CELL_A] = cell
                            act[ACT_CELL_B] = -1
                            act[ACT_OVER_A] = -1
                            act[ACT_OVER_B] = -1
                            return 2
                        k -= 1
        return -1  # out of step (never)
    if kind == 0:  # EndPlacement
        if final:
            return 0
        top = min(reserve_slots, n)
        total = 0
        for r in range(top + 1):
            total += _binom(n, r)
        k = mt_below(mt, total)
        size = 0
        while k >= _binom(n, size):
            k -= _binom(n, size)
            size += 1
        # the k-th combination of `size` of the sorted pool, in itertools.combinations order
        keep[0] = size
        start = 0
        for q in range(size):
            for i in range(start, n):
                below = _binom(n - i - 1, size - q - 1)
                if k < below:
                    keep[1 + q] = pool[i]
                    start = i + 1
                    break
                k -= below
        return 0
    k = mt_below(mt, n_place)
    for s in range(held_n[p]):
        if hfresh[p, s]:
            continue
        card = hcard[p, s]
        cov = hcov[p, s]
        for ti in range(n):
            tid = pool[ti]
            for kk in range(c_np[card]):
                x = c_pi[card, kk]
                y = c_pj[card, kk]
                if (cov >> x) & 1 or (cov >> y) & 1:
                    continue
                for orient in range(2):
                    c0 = x if orient == 0 else y
                    c1 = y if orient == 0 else x
                    wa = c_col[card, c0]
                    wb = c_col[card, c1]
                    oka = ma[tid] & wa
                    okb = mb[tid] & wb
                    cnt = _place_count(oka, okb, wa, wb, nb, fits, both, one_half)
                    if k >= cnt:
                        k -= cnt
                        continue
                    act[ACT_KIND] = 1
                    act[ACT_SLOT] = s
                    act[ACT_PIECE] = tid
                    act[ACT_CELL_A] = c0
                    act[ACT_CELL_B] = c1
                    act[ACT_OVER_A] = -1
                    act[ACT_OVER_B] = -1
                    if oka and okb:
                        return 1
                    # combos: bonus over a (or none) x bonus over b (or none), never the same tile twice
                    na = 1 if oka else nb
                    nbb = 1 if okb else nb
                    for ia in range(na):
                        ba = -1
                        if not oka:
                            ba = bons[ia]
                            if not bmask[ba] & wa:
                                continue
                        for ib in range(nbb):
                            bb = -1
                            if not okb:
                                bb = bons[ib]
                                if not bmask[bb] & wb:
                                    continue
                            if ba != -1 and ba == bb:
                                continue
                            if k == 0:
                                act[ACT_OVER_A] = ba
                                act[ACT_OVER_B] = bb
                                return 1
                            k -= 1
                    return -1  # out of step (never)
    return -1


@jit
def _place_count(oka: int, okb: int, wa: int, wb: int, nb: int, fits: np.ndarray, both: np.ndarray,
                 one_half: bool) -> int:
    """How many Place actions one tile, way round and open pair give (RandomPolicy's buckets)."""
    if oka and okb:
        return 1
    if nb == 0:
        return 0
    ia = _lowbit(wa)
    ib = _lowbit(wb)
    k = (1 if oka else fits[ia]) * (1 if okb else fits[ib])
    if not oka and not okb:
        k = 0 if one_half else k - both[ia, ib]
    return k


@jit
def play_games(lo: np.ndarray, hi: np.ndarray, players: int, turn_limit: int, mode: int, setup: Setup,
               tally: Tallies) -> None:
    """Play game g from `game_rng(lo[g], hi[g])` for every g, seats by `mode` (MODES), and add it to `tally`."""
    rules, thunder_draw, tile_ids, ma, mb = setup.rules, setup.thunder_draw, setup.tile_ids, setup.ma, setup.mb
    bonus_ids, bpts, bmask, thunder_ids, tval = setup.bonus_ids, setup.bpts, setup.bmask, setup.thunder_ids, setup.tval
    cstack0, cstack_n0, cpts, cond = setup.cstack, setup.cstack_n, setup.cpts, setup.cond
    card_ids, c_n, c_pts, c_ratio = setup.card_ids, setup.c_n, setup.c_pts, setup.c_ratio
    c_sym, c_col, means = setup.c_sym, setup.c_col, setup.means
    wins, ties, g_parts, g_clouds, greedy_wins = tally.wins, tally.ties, tally.parts, tally.clouds, tally.greedy_wins
    card_held, card_done, card_turns = tally.card_held, tally.card_done, tally.card_turns
    g_turns, g_rounds, g_trigger, g_margin = tally.turns, tally.rounds, tally.trigger, tally.margin
    P = players
    C = rules[R_COLUMNS]
    cap = rules[R_CAP]
    rows = 2 * cap
    dealt_n = rules[R_DEALT]
    kept = rules[R_KEPT]
    display_size = rules[R_DISPLAY]
    reserve_slots = rules[R_RESERVE]
    bonus_max = rules[R_BONUS_MAX]
    offer_size = rules[R_OFFER]
    end_cards = rules[R_END_CARDS]
    end_empties = rules[R_END_EMPTIES]
    at_last = rules[R_AT_LAST] != 0
    final_fresh_usable = rules[R_FINAL_FRESH_USABLE] != 0
    final_clouds = rules[R_FINAL_CLOUDS] != 0
    maxcells = rules[R_MAXCELLS]
    by_choice = rules[R_BY_CHOICE] != 0
    drop_refill = rules[R_DROP_REFILL] != 0
    ncol = rules[R_NCOLOURS]
    NT = tile_ids.shape[0]
    NB = bonus_ids.shape[0]
    NTH = thunder_ids.shape[0]
    NC = card_ids.shape[0]
    T = cstack0.shape[0]
    H = max(dealt_n, kept) + 2
    thunder_mean = means[MEAN_THUNDER]
    bonus_mean = means[MEAN_BONUS]

    mt = np.zeros(MT_N + 1, dtype=np.int64)
    sc = np.zeros(N_SC, dtype=np.int64)
    bag = np.zeros(NT, dtype=np.int64)
    discard = np.zeros(NT, dtype=np.int64)
    hand = np.zeros(NT, dtype=np.int64)
    pool = np.zeros(NT, dtype=np.int64)
    col_tiles = np.zeros((C, cap), dtype=np.int64)
    col_flip = np.zeros((C, cap), dtype=np.int64)
    col_len = np.zeros(C, dtype=np.int64)
    bstack = np.zeros(max(NB, 1), dtype=np.int64)
    offer = np.zeros(max(NB, 1), dtype=np.int64)
    ring = np.zeros(max(NTH, 1), dtype=np.int64)
    cstack = np.zeros_like(cstack0)
    chead = np.zeros(T, dtype=np.int64)
    deck = np.zeros(NC, dtype=np.int64)
    display = np.zeros(NC + P, dtype=np.int64)
    reserve = np.zeros((P, NT), dtype=np.int64)
    res_n = np.zeros(P, dtype=np.int64)
    bres = np.zeros((P, bpts.shape[0]), dtype=np.int64)
    bons = np.zeros(max(NB, 1), dtype=np.int64)
    used_bon = np.zeros(P, dtype=np.int64)
    held_n = np.zeros(P, dtype=np.int64)
    hcard = np.zeros((P, H), dtype=np.int64)
    hcov = np.zeros((P, H), dtype=np.int64)
    hfresh = np.zeros((P, H), dtype=np.int64)
    hsince = np.zeros((P, H), dtype=np.int64)
    hnt = np.zeros((P, H), dtype=np.int64)
    hnb = np.zeros((P, H), dtype=np.int64)
    htiles = np.zeros((P, H, maxcells), dtype=np.int64)
    comp_n = np.zeros(P, dtype=np.int64)
    comp = np.zeros((P, NC), dtype=np.int64)
    comp_after = np.zeros((P, NC), dtype=np.int64)
    have = np.zeros((P, T), dtype=np.int64)
    cloud_pts = np.zeros(P, dtype=np.int64)
    thunder_pts = np.zeros(P, dtype=np.int64)
    marker = np.zeros(P, dtype=np.int64)
    turns = np.zeros(P, dtype=np.int64)
    counts = np.zeros(cond.shape[1], dtype=np.int64)
    w = np.zeros(ma.shape[0], dtype=np.float64)
    thunder_gain = np.zeros(thunder_draw.shape[0] + 1, dtype=np.float64)
    out = np.zeros(DROP_PATH + rows, dtype=np.int64)
    act = np.zeros(ACT_OVER_B + 1, dtype=np.int64)
    need = np.zeros(64, dtype=np.int64)
    drawn = np.zeros(max(NTH, 1), dtype=np.int64)
    remove = np.zeros((C, cap), dtype=np.int64)
    totals = np.zeros(P, dtype=np.int64)
    card_pts = np.zeros(P, dtype=np.int64)
    won = np.zeros(P, dtype=np.int64)
    greedy = np.zeros(P, dtype=np.int64)
    fits = np.zeros(ncol, dtype=np.int64)
    both = np.zeros((ncol, ncol), dtype=np.int64)
    keep = np.zeros(NT + 1, dtype=np.int64)
    gm = np.zeros((rows, C), dtype=np.int64)
    dpc = np.zeros(rows, dtype=np.int64)
    dpm = np.zeros(rows, dtype=np.int64)
    dnd = np.zeros(rows, dtype=np.int64)
    ws = Workspace(sc, hand, reserve, res_n, bres, held_n, hcard, hcov, hfresh, pool, bons, fits, both, act, keep)

    for g in range(lo.shape[0]):
        gseat = g % P if mode == MODE_GAP else -1
        for p in range(P):
            greedy[p] = 1 if (mode == MODE_GREEDY or p == gseat) else 0
        # ------------------------------------------------------------------ new_state
        mt_seed(mt, lo[g], hi[g])
        sc[:] = 0
        for i in range(NT):
            bag[i] = tile_ids[i]
        mt_shuffle(mt, bag, NT)
        sc[S_BAGN] = NT
        for i in range(NB):
            bstack[i] = bonus_ids[i]
        mt_shuffle(mt, bstack, NB)
        for i in range(NTH):
            ring[i] = thunder_ids[i]
        mt_shuffle(mt, ring, NTH)
        sc[S_THN] = NTH
        cstack[:, :] = cstack0
        chead[:] = 0
        for i in range(NC):
            deck[i] = card_ids[i]
        mt_shuffle(mt, deck, NC)
        col_len[:] = 0
        res_n[:] = 0
        bres[:, :] = 0
        used_bon[:] = 0
        held_n[:] = 0
        comp_n[:] = 0
        have[:, :] = 0
        cloud_pts[:] = 0
        thunder_pts[:] = 0
        marker[:] = MARKER_START
        turns[:] = 0
        _refill_window(mt, sc, bag, discard, col_tiles, col_flip, col_len, cap, at_last, end_empties)
        k = min(offer_size, NB)
        for i in range(k):
            offer[i] = bstack[i]
        sc[S_OFFN] = k
        sc[S_BSH] = k
        # ------------------------------------------------------------------ set-up: deal, keep, show
        for p in range(P):
            nd = min(dealt_n, NC - sc[S_DECKH])
            show = -1
            if greedy[p]:
                for i in range(nd):
                    c = deck[sc[S_DECKH] + i]
                    if show < 0 or c_ratio[c] < c_ratio[show] or (c_ratio[c] == c_ratio[show] and c < show):
                        show = c
            elif nd > 0:
                show = deck[sc[S_DECKH] + mt_below(mt, nd)]
            for i in range(nd):
                c = deck[sc[S_DECKH] + i]
                if c != show and held_n[p] < kept:
                    s = held_n[p]
                    hcard[p, s] = c
                    hcov[p, s] = 0
                    hfresh[p, s] = 0
                    hsince[p, s] = 0
                    hnt[p, s] = 0
                    hnb[p, s] = 0
                    held_n[p] += 1
            sc[S_DECKH] += nd
            if nd > 0:
                display[sc[S_DISPN]] = show
                sc[S_DISPN] += 1
        while sc[S_DISPN] < display_size and sc[S_DECKH] < NC:
            display[sc[S_DISPN]] = deck[sc[S_DECKH]]
            sc[S_DISPN] += 1
            sc[S_DECKH] += 1
        # ------------------------------------------------------------------ turns
        cur = 0
        sc[S_TURN] = 1
        turns[0] = 1
        if not drop_refill:
            _refill_window(mt, sc, bag, discard, col_tiles, col_flip, col_len, cap, at_last, end_empties)
        over = False
        while sc[S_TURN] <= turn_limit:
            final = sc[S_FINAL] != 0
            if not final:
                if greedy[cur]:
                    # special action and drop: the greedy search
                    for i in range(w.shape[0]):
                        w[i] = 0.0
                    for c in range(C):
                        for j in range(col_len[c]):
                            tid = col_tiles[c, j]
                            w[tid] = _fit(tid, cur, setup, ws)
                    thunder_gain[0] = 0.0
                    for i in range(1, thunder_gain.shape[0]):
                        thunder_gain[i] = thunder_mean if sc[S_THN] > 0 else 0.0
                    bvalue = bonus_mean if (sc[S_OFFN] > 0 or sc[S_BSH] < NB) else 0.0
                    best_drop(col_tiles, col_flip, col_len, ma, mb, w, bonus_max, bvalue, thunder_gain,
                              marker[cur], True, out)
                    plen = out[DROP_LEN]
                    if plen > 0 and out[DROP_KIND] >= 0:
                        kind = out[DROP_KIND]
                        c = out[DROP_COL]
                        i = out[DROP_IDX]
                        if kind == 0:
                            col_flip[c, i] = 1 - col_flip[c, i]
                        elif kind == 1:
                            t = col_tiles[c, i]
                            col_tiles[c, i] = col_tiles[c + 1, i]
                            col_tiles[c + 1, i] = t
                            f = col_flip[c, i]
                            col_flip[c, i] = col_flip[c + 1, i]
                            col_flip[c + 1, i] = f
                        else:
                            t = col_tiles[c, i]
                            f = col_flip[c, i]
                            for j in range(i, col_len[c] - 1):
                                col_tiles[c, j] = col_tiles[c, j + 1]
                                col_flip[c, j] = col_flip[c, j + 1]
                            col_tiles[c, col_len[c] - 1] = t
                            col_flip[c, col_len[c] - 1] = f
                        marker[cur] = kind
                else:
                    kind, c, i = _rand_special(mt, col_len, marker[cur])
                    if kind == 0:
                        col_flip[c, i] = 1 - col_flip[c, i]
                    elif kind == 1:
                        t = col_tiles[c, i]
                        col_tiles[c, i] = col_tiles[c + 1, i]
                        col_tiles[c + 1, i] = t
                        f = col_flip[c, i]
                        col_flip[c, i] = col_flip[c + 1, i]
                        col_flip[c + 1, i] = f
                    elif kind == 2:
                        t = col_tiles[c, i]
                        f = col_flip[c, i]
                        for j in range(i, col_len[c] - 1):
                            col_tiles[c, j] = col_tiles[c, j + 1]
                            col_flip[c, j] = col_flip[c, j + 1]
                        col_tiles[c, col_len[c] - 1] = t
                        col_flip[c, col_len[c] - 1] = f
                    if kind >= 0:
                        marker[cur] = kind
                    npaths = _paths(col_tiles, col_flip, col_len, ma, mb, -1, gm, dpc, dpm, dnd, out)
                    k = mt_below(mt, npaths if npaths > 0 else 1)
                    plen = 0
                    if npaths > 0:
                        plen = _paths(col_tiles, col_flip, col_len, ma, mb, k, gm, dpc, dpm, dnd, out)
                if plen > 0:
                    remove[:, :] = 0
                    taken = 0
                    bottom = 0
                    for r in range(plen):
                        c = out[DROP_PATH + r]
                        j = (rows - 1 - r) // 2
                        if remove[c, j] == 0:
                            remove[c, j] = 1
                            taken += 1
                            if j == 0:
                                bottom += 1
                    for c in range(C):
                        n = 0
                        for j in range(col_len[c]):
                            if remove[c, j]:
                                hand[sc[S_HANDN]] = col_tiles[c, j]
                                sc[S_HANDN] += 1
                            else:
                                col_tiles[c, n] = col_tiles[c, j]
                                col_flip[c, n] = col_flip[c, j]
                                n += 1
                        col_len[c] = n
                    sc[S_TAKEN] = taken
                    if drop_refill:  # window_refill: drop_step, the refill ends the drop step
                        _refill_window(mt, sc, bag, discard, col_tiles, col_flip, col_len, cap, at_last,
                                       end_empties)
                    draw = thunder_draw[bottom - 1] if 0 < bottom <= thunder_draw.shape[0] else 0
                    nd = min(draw, sc[S_THN])
                    for i in range(nd):
                        drawn[i] = ring[sc[S_THH]]
                        sc[S_THH] = (sc[S_THH] + 1) % NTH
                        sc[S_THN] -= 1
                    if nd == 1:
                        thunder_pts[cur] += tval[drawn[0]]
                    elif nd > 1:
                        kept_t = drawn[0]
                        if greedy[cur]:
                            for i in range(1, nd):
                                x = drawn[i]
                                if tval[x] > tval[kept_t] or (tval[x] == tval[kept_t] and x < kept_t):
                                    kept_t = x
                        else:
                            kept_t = drawn[mt_below(mt, nd)]
                        thunder_pts[cur] += tval[kept_t]
                        for i in range(nd):
                            if drawn[i] != kept_t:
                                ring[(sc[S_THH] + sc[S_THN]) % NTH] = drawn[i]
                                sc[S_THN] += 1
                    # a bonus tile for a short drop (the greedy player always refills a short offer)
                    if taken <= bonus_max:
                        refill = True
                        if by_choice and not greedy[cur] and sc[S_OFFN] < offer_size and sc[S_BSH] < NB:
                            refill = mt_below(mt, 2) == 1
                        while refill and sc[S_OFFN] < offer_size and sc[S_BSH] < NB:
                            offer[sc[S_OFFN]] = bstack[sc[S_BSH]]
                            sc[S_OFFN] += 1
                            sc[S_BSH] += 1
                        if sc[S_OFFN] > 0 and not greedy[cur]:
                            bi = mt_below(mt, sc[S_OFFN])
                            bres[cur, offer[bi]] += 1
                            for i in range(bi, sc[S_OFFN] - 1):
                                offer[i] = offer[i + 1]
                            sc[S_OFFN] -= 1
                        elif sc[S_OFFN] > 0:
                            need[:] = 0
                            for s in range(held_n[cur]):
                                card = hcard[cur, s]
                                for cell in range(c_n[card]):
                                    if not (hcov[cur, s] >> cell) & 1:
                                        need[_lowbit(c_col[card, cell])] += 1
                            bi = 0
                            bv = -1.0e18
                            for i in range(sc[S_OFFN]):
                                b = offer[i]
                                m = 0
                                bm = bmask[b]
                                q = 0
                                while bm:
                                    if bm & 1 and need[q] > m:
                                        m = need[q]
                                    bm >>= 1
                                    q += 1
                                v = bpts[b] + 0.5 * m
                                if v > bv or (v == bv and b < offer[bi]):
                                    bv = v
                                    bi = i
                            bres[cur, offer[bi]] += 1
                            for i in range(bi, sc[S_OFFN] - 1):
                                offer[i] = offer[i + 1]
                            sc[S_OFFN] -= 1
                elif drop_refill:  # no drop path: a window left short earlier is topped up
                    _refill_window(mt, sc, bag, discard, col_tiles, col_flip, col_len, cap, at_last, end_empties)
            # ---------------------------------------------------------------- placements
            p = cur
            while True:
                if greedy[p]:
                    if not _best_placement(p, setup, ws):
                        break
                elif _rand_placement(mt, p, final, setup, ws) == 0:
                    break
                s = act[ACT_SLOT]
                card = hcard[p, s]
                if act[ACT_KIND] == 1:
                    tid = act[ACT_PIECE]
                    inhand = -1
                    for i in range(sc[S_HANDN]):
                        if hand[i] == tid:
                            inhand = i
                    if inhand >= 0:
                        for i in range(inhand, sc[S_HANDN] - 1):
                            hand[i] = hand[i + 1]
                        sc[S_HANDN] -= 1
                    else:
                        for i in range(res_n[p]):
                            if reserve[p, i] == tid:
                                inhand = i
                        for i in range(inhand, res_n[p] - 1):
                            reserve[p, i] = reserve[p, i + 1]
                        res_n[p] -= 1
                    htiles[p, s, hnt[p, s]] = tid
                    hnt[p, s] += 1
                    for q in range(5, 7):
                        if act[q] >= 0:
                            bres[p, act[q]] -= 1
                            hnb[p, s] += 1
                    hcov[p, s] |= (1 << act[ACT_CELL_A]) | (1 << act[ACT_CELL_B])
                else:
                    bres[p, act[ACT_PIECE]] -= 1
                    hnb[p, s] += 1
                    hcov[p, s] |= 1 << act[ACT_CELL_A]
                if _popcount(hcov[p, s]) < c_n[card]:
                    continue
                # the card is complete
                for i in range(hnt[p, s]):
                    discard[sc[S_DISCN]] = htiles[p, s, i]
                    sc[S_DISCN] += 1
                used_bon[p] += hnb[p, s]
                comp[p, comp_n[p]] = card
                comp_after[p, comp_n[p]] = turns[p] - hsince[p, s]
                comp_n[p] += 1
                for j in range(s, held_n[p] - 1):
                    hcard[p, j] = hcard[p, j + 1]
                    hcov[p, j] = hcov[p, j + 1]
                    hfresh[p, j] = hfresh[p, j + 1]
                    hsince[p, j] = hsince[p, j + 1]
                    hnt[p, j] = hnt[p, j + 1]
                    hnb[p, j] = hnb[p, j + 1]
                    for i in range(maxcells):
                        htiles[p, j, i] = htiles[p, j + 1, i]
                held_n[p] -= 1
                if final:
                    continue
                if comp_n[p] >= end_cards and sc[S_TRIGGER] == TRIGGER_NONE:
                    sc[S_TRIGGER] = TRIGGER_CARDS
                if sc[S_DISPN] > 0 or sc[S_DECKH] < NC:
                    pick = -1
                    if not greedy[p]:
                        pick = mt_below(mt, sc[S_DISPN] + (1 if sc[S_DECKH] < NC else 0))
                    if pick >= 0 and pick < sc[S_DISPN]:
                        newc = display[pick]
                        for i in range(pick, sc[S_DISPN] - 1):
                            display[i] = display[i + 1]
                        sc[S_DISPN] -= 1
                    elif pick < 0 and sc[S_DISPN] > 0:
                        bi = 0
                        for i in range(1, sc[S_DISPN]):
                            x = display[i]
                            y = display[bi]
                            if c_ratio[x] > c_ratio[y] or (c_ratio[x] == c_ratio[y] and x < y):
                                bi = i
                        newc = display[bi]
                        for i in range(bi, sc[S_DISPN] - 1):
                            display[i] = display[i + 1]
                        sc[S_DISPN] -= 1
                    else:
                        newc = deck[sc[S_DECKH]]
                        sc[S_DECKH] += 1
                    s = held_n[p]
                    hcard[p, s] = newc
                    hcov[p, s] = 0
                    hfresh[p, s] = 1
                    hsince[p, s] = turns[p]
                    hnt[p, s] = 0
                    hnb[p, s] = 0
                    held_n[p] += 1
            if not final:
                # keep the tiles that fit best (highest fit, then lowest id), discard the rest
                n = 0
                for i in range(sc[S_HANDN]):
                    pool[n] = hand[i]
                    n += 1
                for i in range(res_n[p]):
                    pool[n] = reserve[p, i]
                    n += 1
                pool[:n].sort()
                nkeep = min(reserve_slots, n) if greedy[p] else 0
                res_n[p] = 0
                if not greedy[p]:
                    for q in range(keep[0]):
                        reserve[p, res_n[p]] = keep[1 + q]
                        res_n[p] += 1
                        for i in range(n):
                            if pool[i] == keep[1 + q]:
                                pool[i] = -1
                for _ in range(nkeep):
                    bi = -1
                    bv = -1.0
                    for i in range(n):
                        if pool[i] < 0:
                            continue
                        v = _fit(pool[i], p, setup, ws)
                        if v > bv:
                            bv = v
                            bi = i
                    reserve[p, res_n[p]] = pool[bi]
                    res_n[p] += 1
                    pool[bi] = -1
                for i in range(n):
                    if pool[i] >= 0:
                        discard[sc[S_DISCN]] = pool[i]
                        sc[S_DISCN] += 1
                sc[S_HANDN] = 0
            # ---------------------------------------------------------------- cloud tokens
            if not final or final_clouds:
                counts[:] = 0
                for i in range(comp_n[p]):
                    if c_sym[comp[p, i]] >= 0:
                        counts[c_sym[comp[p, i]]] += 1
                for ty in range(T):
                    if have[p, ty] or chead[ty] >= cstack_n0[ty]:
                        continue
                    ok = True
                    for q in range(cond.shape[1]):
                        if counts[q] < cond[ty, q]:
                            ok = False
                    if ok:
                        tok = cstack[ty, chead[ty]]
                        chead[ty] += 1
                        have[p, ty] = 1
                        cloud_pts[p] += cpts[tok]
                        g_clouds[g, ty] += 1
            if final:
                if cur + 1 < P:
                    cur += 1
                    continue
                over = True
                break
            # ---------------------------------------------------------------- end of the turn
            while sc[S_DISPN] < display_size and sc[S_DECKH] < NC:
                display[sc[S_DISPN]] = deck[sc[S_DECKH]]
                sc[S_DISPN] += 1
                sc[S_DECKH] += 1
            if sc[S_TRIGGER] != TRIGGER_NONE and cur == P - 1:
                cur = 0
                sc[S_FINAL] = 1
                if final_fresh_usable:
                    for q in range(P):
                        for s in range(held_n[q]):
                            hfresh[q, s] = 0
                continue
            cur = (cur + 1) % P
            sc[S_TURN] += 1
            turns[cur] += 1
            if not drop_refill:
                _refill_window(mt, sc, bag, discard, col_tiles, col_flip, col_len, cap, at_last, end_empties)
            for s in range(held_n[cur]):
                hfresh[cur, s] = 0
        # ------------------------------------------------------------------ outcome and tally
        for p in range(P):
            a = 0
            for i in range(comp_n[p]):
                a += c_pts[comp[p, i]]
            b = used_bon[p]
            for q in range(bres.shape[1]):
                b += bres[p, q] * bpts[q]
            e = 0
            for s in range(held_n[p]):
                e = max(e, hnt[p, s] + hnb[p, s])
            g_parts[g, PART_CARDS] += a
            g_parts[g, PART_BONUS] += b
            g_parts[g, PART_CLOUDS] += cloud_pts[p]
            g_parts[g, PART_THUNDER] += thunder_pts[p]
            g_parts[g, PART_INCOMPLETE] += e
            totals[p] = a + b + cloud_pts[p] + thunder_pts[p] + e
            card_pts[p] = a
        nwin, tie = winners(totals, card_pts, won)
        ties[tie] += 1
        for p in range(P):
            if won[p]:
                wins[p] += 1.0 / nwin
        rounds = 0
        for p in range(P):
            for i in range(comp_n[p]):
                card_held[comp[p, i]] += 1
                card_done[comp[p, i]] += 1
                card_turns[comp[p, i]] += comp_after[p, i]
            for s in range(held_n[p]):
                card_held[hcard[p, s]] += 1
                card_turns[hcard[p, s]] += turns[p] - hsince[p, s]
            rounds = max(rounds, turns[p])
        if gseat >= 0:
            if won[gseat]:
                greedy_wins[0] += 1.0 / nwin
            others = 0
            for q in range(P):
                if q != gseat:
                    others += totals[q]
            g_margin[g] = totals[gseat] - others / max(1, P - 1)
        g_turns[g] = sc[S_TURN]
        g_rounds[g] = rounds
        g_trigger[g] = sc[S_TRIGGER] if over else 0


TIE_TOTAL = 0
"""`winners`' tie kinds, the index into the `ties` tally: one highest total ("total" in rules.Outcome) ..."""
TIE_CARDS = 1
"""... tied totals decided by card points ("cards") ..."""
TIE_SHARED = 2
"""... still tied: the win is shared ("shared")."""


@jit
def winners(totals: np.ndarray, card_pts: np.ndarray, won: np.ndarray) -> tuple[int, int]:
    """`rules.decide` on arrays: won[p] = 1 for each winning seat (highest total; a tie broken by card points
    A; still tied: shared), 0 for the others; returns (how many won, TIE_* kind). The balance credits
    1 / (how many won) to each winner."""
    n = totals.shape[0]
    best = totals[0]
    for p in range(1, n):
        best = max(best, totals[p])
    ntop = 0
    best_a = -1
    for p in range(n):
        if totals[p] == best:
            ntop += 1
            best_a = max(best_a, card_pts[p])
    nwin = 0
    for p in range(n):
        won[p] = 1 if totals[p] == best and (ntop == 1 or card_pts[p] == best_a) else 0
        nwin += won[p]
    tie = TIE_TOTAL if ntop == 1 else (TIE_CARDS if nwin == 1 else TIE_SHARED)
    return nwin, tie


@jit
def _lowbit(x: int) -> int:
    """Index of the lowest set bit (a colour bit's colour index)."""
    q = 0
    while x and not x & 1:
        x >>= 1
        q += 1
    return q
