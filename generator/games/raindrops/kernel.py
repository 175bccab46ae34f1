"""The fast path: whole Raindrops games, greedy and random seats, in one compiled call per chunk.

The reference is `rules.Raindrops` played by `policies.GreedyPolicy` and `policies.RandomPolicy`
(`sim.FullGames`); this module plays the very same games, choice for choice and draw for draw, over plain
numpy arrays, so it compiles with numba (`generator.engine.kernel.jit`) and runs as Python with PNPKIT_PURE=1
or through `py_func`.

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
by the counts of RandomPolicy's fast mode (`rand_special`, `_paths`, `_rand_placement`). The special action
(which ones a window allows, what each does) is policies.special_at / do_special, shared with the policies.

Layout: columns as in `best_drop` (col_tiles/col_flip[column, stack index from the bottom], col_len); a card's
cells are bits in `card_cells` order; colours are `game.bit` bits; scalars live in `sc` (indices S_*).
Boundary: `play_games` takes the static arrays as one `Setup` NamedTuple and adds to one `Tallies`; each game
is a sequence of named steps over one `Workspace` (see "the game" below).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from generator.engine.kernel import jit, jit_noref, jit_noref_entry
from generator.games.raindrops.components import BonusTile, CloudToken, MemoryCard, RaindropTile, ThunderToken
from generator.games.raindrops.difficulty import _popcount
from generator.games.raindrops.policies import (
    DROP_COL,
    DROP_IDX,
    DROP_KIND,
    DROP_LEN,
    DROP_PATH,
    WALK_COL,
    WALK_NEXT,
    GreedyPolicy,
    best_drop,
    do_special,
    special_at,
    walk_next,
    walk_start,
    window_grid,
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


# ----------------------------------------------------------------------------- numpy's Generator over MT19937
@jit
def mt_seed(mt: np.ndarray, lo: int, hi: int) -> None:
    """MT19937 seeded by init_by_array with the 32-bit words lo (and hi when it is not 0) of a 64-bit game
    seed."""
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
    bits.state = {
        "bit_generator": "MT19937",
        "state": {"key": mt[:MT_N].astype(np.uint32), "pos": int(mt[MT_N])},
    }
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
    """The arrays of the game in progress, allocated once per chunk (`workspace`) and reset per game
    (`new_state`): everything the turn steps read and write besides Setup, the MT19937 state and the
    Tallies."""

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
    """The chosen placement: [kind 1 tile / 2 bonus, slot, tile or bonus, cell a, cell b, bonus over a, over
    b]."""
    keep: np.ndarray
    """keep[0] reserve tiles keep[1:] that stay when a random seat ends its placement."""
    bag: np.ndarray
    """Drawn from the end (sc[S_BAGN] tiles)."""
    discard: np.ndarray
    col_tiles: np.ndarray
    """[column, stack index from the bottom] the window's tiles (col_len per column), as `best_drop` reads
    them."""
    col_flip: np.ndarray
    col_len: np.ndarray
    bstack: np.ndarray
    """The shuffled bonus stack, drawn from sc[S_BSH] on."""
    offer: np.ndarray
    ring: np.ndarray
    """The thunder stack as a ring: sc[S_THN] tokens from sc[S_THH]; kept-back tokens go under it."""
    chead: np.ndarray
    """[cloud type] tokens taken from each cloud stack (Setup.cstack)."""
    deck: np.ndarray
    """The shuffled memory deck, drawn from sc[S_DECKH] on."""
    display: np.ndarray
    greedy: np.ndarray
    """[players] 1 for a greedy seat, 0 for a random one."""
    marker: np.ndarray
    turns: np.ndarray
    used_bon: np.ndarray
    hsince: np.ndarray
    """[players, slot] the seat's turns when it took the held card."""
    hnt: np.ndarray
    hnb: np.ndarray
    htiles: np.ndarray
    """[players, slot, i] the hnt raindrop tiles on each held card (hnb bonus tiles besides)."""
    comp_n: np.ndarray
    comp: np.ndarray
    """[players, i] completed cards (comp_n per seat), comp_after their turns held."""
    comp_after: np.ndarray
    have: np.ndarray
    """[players, cloud type] 1 once the seat holds a token of that type."""
    cloud_pts: np.ndarray
    thunder_pts: np.ndarray
    counts: np.ndarray
    w: np.ndarray
    thunder_gain: np.ndarray
    out: np.ndarray
    """`best_drop`'s and `_paths`' out array (DROP_* slots)."""
    need: np.ndarray
    drawn: np.ndarray
    remove: np.ndarray
    totals: np.ndarray
    card_pts: np.ndarray
    won: np.ndarray
    gm: np.ndarray
    gt: np.ndarray
    walk: np.ndarray
    pv: np.ndarray
    """gm, gt, walk, pv: the scratch of `best_drop` (policies.drop_scratch) and `_paths`."""


ACT_KIND, ACT_SLOT, ACT_PIECE, ACT_CELL_A, ACT_CELL_B, ACT_OVER_A, ACT_OVER_B = range(7)
"""Slots of Workspace.act, the chosen placement: kind (1 a raindrop tile, 2 a bonus tile alone), held-card
slot, the tile or bonus id, its cells on the card, the bonus tiles laid over half a / half b (-1 none)."""
MEAN_THUNDER, MEAN_BONUS = range(2)
"""Slots of Setup.means."""

PART_CARDS, PART_BONUS, PART_CLOUDS, PART_THUNDER, PART_INCOMPLETE = range(5)
"""Columns of Tallies.parts: the score parts A to E (sim.PARTS)."""

(
    R_COLUMNS,
    R_CAP,
    R_DEALT,
    R_KEPT,
    R_DISPLAY,
    R_RESERVE,
    R_BONUS_MAX,
    R_OFFER,
    R_END_CARDS,
    R_END_EMPTIES,
    R_AT_LAST,
    R_FINAL_FRESH_USABLE,
    R_ONE_HALF,
    R_MAXCELLS,
    R_BY_CHOICE,
    R_NCOLOURS,
    R_DROP_REFILL,
    R_FINAL_CLOUDS,
) = range(18)

MODE_RANDOM = 0
MODE_GREEDY = 1
MODE_GAP = 2
MODES = {"random": MODE_RANDOM, "greedy": MODE_GREEDY, "gap": MODE_GAP}
"""`sim.FullGames.mode` -> the kernel's code: all random, all greedy, one greedy seat (game g: seat g %
players)."""


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
    rules = np.array(
        [
            p.columns,
            p.tiles_per_column,
            p.cards_dealt,
            p.cards_kept,
            p.display,
            p.reserve_slots,
            p.bonus_max_tiles,
            p.bonus_offer,
            p.end_cards,
            p.end_bag_empties,
            p.bag_empties == "last_tile_drawn",
            p.final_last_turn_card == "usable",
            p.bonus_per_tile == "one_half",
            maxcells,
            p.bonus_refill == "by_choice",
            len(game.colours),
            p.window_refill == "drop_step",
            p.final_clouds == "earned",
        ],
        dtype=i64,
    )
    bpts = np.zeros(max_bonus, dtype=i64)
    bmask = np.zeros(max_bonus, dtype=i64)
    for b, t in game.bonus.items():
        bpts[b] = t.points
        bmask[b] = game.half_mask(t.colours)
    tval = np.zeros(max_thunder, dtype=i64)
    for k, th in game.thunder.items():
        tval[k] = th.value
    types = game.cloud_types
    syms = sorted(
        {s for c in game.clouds.values() for s, _ in c.condition}
        | {c.cloud for c in game.cards.values() if c.cloud is not None}
    )
    cstack = np.zeros((max(1, len(types)), max(1, len(game.clouds))), dtype=i64)
    cstack_n = np.zeros(max(1, len(types)), dtype=i64)
    cpts = np.zeros(max_cloud, dtype=i64)
    cond = np.zeros((max(1, len(types)), max(1, len(syms))), dtype=i64)
    for cid in sorted(
        game.clouds
    ):  # spec order within a type: the gold token first, as new_state stacks them
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
    return Setup(
        rules,
        np.array(p.thunder_draw, dtype=i64),
        np.array(game.tile_ids, dtype=i64),
        pol.ma.copy(),
        pol.mb.copy(),
        np.array(sorted(game.bonus), dtype=i64),
        bpts,
        bmask,
        np.array(sorted(game.thunder), dtype=i64),
        tval,
        cstack,
        cstack_n,
        cpts,
        cond,
        np.array(game.card_ids, dtype=i64),
        c_n,
        c_pts,
        c_ratio,
        c_per,
        c_sym,
        c_col,
        c_np,
        c_pi,
        c_pj,
        covers,
        np.array([pol.thunder_mean, pol.bonus_mean], dtype=np.float64),
    )


@lru_cache(maxsize=8)
def tables_for(
    params: Params,
    bag: tuple[RaindropTile, ...],
    cards: tuple[MemoryCard, ...],
    bonus: tuple[BonusTile, ...],
    clouds: tuple[CloudToken, ...],
    thunder: tuple[ThunderToken, ...],
) -> Setup:
    """`tables` of the game built from these components, once per process (every chunk of a run reuses it)."""
    return tables(Raindrops(params, bag, cards, bonus, clouds, thunder))


# ------------------------------------------------------------------------------------ the game
# `play_games` plays each game as named steps: `new_state`, `deal`, then `play_turns` (per turn `drop_step`,
# `placements`, `end_placement`, `cloud_tokens`, `end_turn`) and `score_game`. Each step reads Setup and
# writes the Workspace; each is compiled on its own without reference counting (`jit_noref`), so passing the
# Workspace costs nothing. Inlining them at numba's level (`jit_inline`) ran 10-14 % faster but took 146 CPU s
# to compile against 50, and every source edit recompiles: compile time is paid by every developer and every
# CI run.
@jit
def workspace(players: int, setup: Setup) -> Workspace:
    """The Workspace of games of `players` seats with this setup."""
    rules = setup.rules
    i64 = np.int64
    P = players
    C = rules[R_COLUMNS]
    cap = rules[R_CAP]
    rows = 2 * cap
    ncol = rules[R_NCOLOURS]
    NT = setup.tile_ids.shape[0]
    NB = max(setup.bonus_ids.shape[0], 1)
    NTH = max(setup.thunder_ids.shape[0], 1)
    NC = setup.card_ids.shape[0]
    T = setup.cstack.shape[0]
    H = max(rules[R_DEALT], rules[R_KEPT]) + 2
    return Workspace(
        np.zeros(N_SC, dtype=i64),
        np.zeros(NT, dtype=i64),
        np.zeros((P, NT), dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros((P, setup.bpts.shape[0]), dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros((P, H), dtype=i64),
        np.zeros((P, H), dtype=i64),
        np.zeros((P, H), dtype=i64),
        np.zeros(NT, dtype=i64),
        np.zeros(NB, dtype=i64),
        np.zeros(ncol, dtype=i64),
        np.zeros((ncol, ncol), dtype=i64),
        np.zeros(ACT_OVER_B + 1, dtype=i64),
        np.zeros(NT + 1, dtype=i64),
        # bag, discard, window, bonus stack and offer, thunder ring, cloud heads, deck, display
        np.zeros(NT, dtype=i64),
        np.zeros(NT, dtype=i64),
        np.zeros((C, cap), dtype=i64),
        np.zeros((C, cap), dtype=i64),
        np.zeros(C, dtype=i64),
        np.zeros(NB, dtype=i64),
        np.zeros(NB, dtype=i64),
        np.zeros(NTH, dtype=i64),
        np.zeros(T, dtype=i64),
        np.zeros(NC, dtype=i64),
        np.zeros(NC + P, dtype=i64),
        # greedy, marker, turns, used_bon, hsince, hnt, hnb, htiles, comp_n, comp, comp_after, have, points
        np.zeros(P, dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros((P, H), dtype=i64),
        np.zeros((P, H), dtype=i64),
        np.zeros((P, H), dtype=i64),
        np.zeros((P, H, rules[R_MAXCELLS]), dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros((P, NC), dtype=i64),
        np.zeros((P, NC), dtype=i64),
        np.zeros((P, T), dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros(P, dtype=i64),
        # scratch
        np.zeros(setup.cond.shape[1], dtype=i64),
        np.zeros(setup.ma.shape[0], dtype=np.float64),
        np.zeros(setup.thunder_draw.shape[0] + 1, dtype=np.float64),
        np.zeros(DROP_PATH + rows, dtype=i64),
        np.zeros(64, dtype=i64),
        np.zeros(NTH, dtype=i64),
        np.zeros((C, cap), dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros((rows, C), dtype=i64),
        np.zeros((rows, C), dtype=i64),
        np.zeros((5, rows), dtype=i64),
        np.zeros(rows, dtype=np.float64),
    )


@jit
def play_games(
    lo: np.ndarray, hi: np.ndarray, players: int, turn_limit: int, mode: int, setup: Setup, tally: Tallies
) -> None:
    """Play game g from `game_rng(lo[g], hi[g])` for every g, seats by `mode` (MODES), and add it to
    `tally`."""
    ws = workspace(players, setup)
    mt = np.zeros(MT_N + 1, dtype=np.int64)
    for g in range(lo.shape[0]):
        play_game(mt, lo[g], hi[g], g, mode, turn_limit, setup, ws, tally)


@jit_noref_entry  # also called from Python: by the kernel's Python path or its tests
def play_game(
    mt: np.ndarray,
    lo: int,
    hi: int,
    g: int,
    mode: int,
    turn_limit: int,
    setup: Setup,
    ws: Workspace,
    tally: Tallies,
) -> None:
    """Game g: its seats by `mode`, `new_state`, `deal`, `play_turns`, `score_game`. Compiled without
    reference counting, as are its steps: they allocate nothing, and the Workspace is passed through them at
    no cost."""
    P = ws.greedy.shape[0]
    gseat = g % P if mode == MODE_GAP else -1
    for p in range(P):
        ws.greedy[p] = 1 if (mode == MODE_GREEDY or p == gseat) else 0
    new_state(mt, lo, hi, setup, ws)
    deal(mt, setup, ws)
    over = play_turns(mt, turn_limit, g, setup, ws, tally)
    score_game(g, gseat, over, setup, ws, tally)


@jit_noref
def new_state(mt: np.ndarray, lo: int, hi: int, setup: Setup, ws: Workspace) -> None:
    """`Raindrops.new_state` before the deal: the game's stream seeded, the bag, bonus stack, thunder stack
    and deck shuffled in that order, every board emptied, the window filled, the bonus offer revealed."""
    sc = ws.sc
    NT = setup.tile_ids.shape[0]
    NB = setup.bonus_ids.shape[0]
    NTH = setup.thunder_ids.shape[0]
    NC = setup.card_ids.shape[0]
    mt_seed(mt, lo, hi)
    sc[:] = 0
    for i in range(NT):
        ws.bag[i] = setup.tile_ids[i]
    mt_shuffle(mt, ws.bag, NT)
    sc[S_BAGN] = NT
    for i in range(NB):
        ws.bstack[i] = setup.bonus_ids[i]
    mt_shuffle(mt, ws.bstack, NB)
    for i in range(NTH):
        ws.ring[i] = setup.thunder_ids[i]
    mt_shuffle(mt, ws.ring, NTH)
    sc[S_THN] = NTH
    ws.chead[:] = 0
    for i in range(NC):
        ws.deck[i] = setup.card_ids[i]
    mt_shuffle(mt, ws.deck, NC)
    ws.col_len[:] = 0
    ws.res_n[:] = 0
    ws.bres[:, :] = 0
    ws.used_bon[:] = 0
    ws.held_n[:] = 0
    ws.comp_n[:] = 0
    ws.have[:, :] = 0
    ws.cloud_pts[:] = 0
    ws.thunder_pts[:] = 0
    ws.marker[:] = MARKER_START
    ws.turns[:] = 0
    _refill_window(mt, setup, ws)
    k = min(setup.rules[R_OFFER], NB)
    for i in range(k):
        ws.offer[i] = ws.bstack[i]
    sc[S_OFFN] = k
    sc[S_BSH] = k


@jit_noref
def deal(mt: np.ndarray, setup: Setup, ws: Workspace) -> None:
    """The set-up: each seat in turn is dealt cards_dealt cards, shows one in the display (greedy: the fewest
    points per drop, lowest id among equals; random: a uniform pick) and keeps the others; then the display is
    filled from the deck."""
    sc, deck, greedy, c_ratio = ws.sc, ws.deck, ws.greedy, setup.c_ratio
    dealt_n = setup.rules[R_DEALT]
    kept = setup.rules[R_KEPT]
    NC = setup.card_ids.shape[0]
    for p in range(greedy.shape[0]):
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
            if c != show and ws.held_n[p] < kept:
                _hold(p, c, 0, 0, ws)
        sc[S_DECKH] += nd
        if nd > 0:
            ws.display[sc[S_DISPN]] = show
            sc[S_DISPN] += 1
    _refill_display(setup, ws)


@jit_noref
def _hold(p: int, card: int, fresh: int, since: int, ws: Workspace) -> None:
    """Seat p holds `card` in a new slot, nothing on it."""
    s = ws.held_n[p]
    ws.hcard[p, s] = card
    ws.hcov[p, s] = 0
    ws.hfresh[p, s] = fresh
    ws.hsince[p, s] = since
    ws.hnt[p, s] = 0
    ws.hnb[p, s] = 0
    ws.held_n[p] += 1


@jit_noref
def _refill_display(setup: Setup, ws: Workspace) -> None:
    """`Raindrops._refill_display`: cards from the deck until the display holds `display` cards."""
    sc = ws.sc
    NC = setup.card_ids.shape[0]
    while sc[S_DISPN] < setup.rules[R_DISPLAY] and sc[S_DECKH] < NC:
        ws.display[sc[S_DISPN]] = ws.deck[sc[S_DECKH]]
        sc[S_DISPN] += 1
        sc[S_DECKH] += 1


@jit_noref
def play_turns(mt: np.ndarray, turn_limit: int, g: int, setup: Setup, ws: Workspace, tally: Tallies) -> bool:
    """The turns from seat 0's first: True when the final placement ends the game, False when turn_limit turns
    have begun first."""
    sc = ws.sc
    P = ws.greedy.shape[0]
    sc[S_CUR] = 0
    sc[S_TURN] = 1
    ws.turns[0] = 1
    if setup.rules[R_DROP_REFILL] == 0:
        _refill_window(mt, setup, ws)
    while sc[S_TURN] <= turn_limit:
        cur = sc[S_CUR]
        final = sc[S_FINAL] != 0
        if not final:
            drop_step(mt, cur, setup, ws)
        placements(mt, cur, final, setup, ws)
        if not final:
            end_placement(cur, setup, ws)
        if not final or setup.rules[R_FINAL_CLOUDS] != 0:
            cloud_tokens(cur, g, setup, ws, tally)
        if not final:
            end_turn(mt, setup, ws)
        elif cur + 1 < P:
            sc[S_CUR] = cur + 1
        else:
            return True
    return False


@jit_noref
def end_turn(mt: np.ndarray, setup: Setup, ws: Workspace) -> None:
    """`Raindrops._end_turn` after the cloud tokens: the display refilled; once the end is triggered, after
    the last seat's turn the final placement begins at seat 0 (final_last_turn_card "usable": cards taken last
    turn may be used); else the next seat's turn begins (`_begin_turn`)."""
    sc = ws.sc
    P = ws.greedy.shape[0]
    _refill_display(setup, ws)
    if sc[S_TRIGGER] != TRIGGER_NONE and sc[S_CUR] == P - 1:
        sc[S_CUR] = 0
        sc[S_FINAL] = 1
        if setup.rules[R_FINAL_FRESH_USABLE] != 0:
            for q in range(P):
                for s in range(ws.held_n[q]):
                    ws.hfresh[q, s] = 0
        return
    cur = (sc[S_CUR] + 1) % P
    sc[S_CUR] = cur
    sc[S_TURN] += 1
    ws.turns[cur] += 1
    if setup.rules[R_DROP_REFILL] == 0:
        _refill_window(mt, setup, ws)
    for s in range(ws.held_n[cur]):
        ws.hfresh[cur, s] = 0


# ------------------------------------------------------------------------------------ bag and window
@jit_noref
def _refill_window(mt: np.ndarray, setup: Setup, ws: Workspace) -> None:
    """`refill_window` of this game's window."""
    refill_window(mt, setup.rules, ws.sc, ws.bag, ws.discard, ws.col_tiles, ws.col_flip, ws.col_len)


@jit_noref
def refill_window(
    mt: np.ndarray,
    rules: np.ndarray,
    sc: np.ndarray,
    bag: np.ndarray,
    discard: np.ndarray,
    col_tiles: np.ndarray,
    col_flip: np.ndarray,
    col_len: np.ndarray,
) -> None:
    """`Raindrops._refill_window`: columns left to right, each up to tiles_per_column from the bag, each tile
    turned by a coin; an empty bag is reshuffled (counted when the last tile comes out under
    bag_empties "last_tile_drawn", when a tile is needed under "tile_needed")."""
    cap = rules[R_CAP]
    at_last = rules[R_AT_LAST] != 0
    for c in range(col_len.shape[0]):
        while col_len[c] < cap:
            if sc[S_BAGN] == 0:
                if at_last:
                    if sc[S_DISCN] == 0:
                        return
                    _reshuffle(mt, sc, bag, discard)
                elif not _bag_empties(mt, rules, sc, bag, discard):
                    return
            sc[S_BAGN] -= 1
            col_tiles[c, col_len[c]] = bag[sc[S_BAGN]]
            col_flip[c, col_len[c]] = 1 if mt_random(mt) < 0.5 else 0
            col_len[c] += 1
            if at_last and sc[S_BAGN] == 0:
                _bag_empties(mt, rules, sc, bag, discard)


@jit_noref
def _reshuffle(mt: np.ndarray, sc: np.ndarray, bag: np.ndarray, discard: np.ndarray) -> None:
    """`Raindrops._reshuffle`: the discard, sorted, becomes the bag and is shuffled."""
    n = sc[S_DISCN]
    _sort(discard, n)
    for i in range(n):
        bag[i] = discard[i]
    sc[S_BAGN] = n
    sc[S_DISCN] = 0
    mt_shuffle(mt, bag, n)


@jit_noref
def _bag_empties(
    mt: np.ndarray, rules: np.ndarray, sc: np.ndarray, bag: np.ndarray, discard: np.ndarray
) -> bool:
    """`Raindrops._bag_empties`: counted (the end_bag_empties-th triggers the end), then reshuffled; False
    when the bag is still empty."""
    sc[S_EMPTIES] += 1
    if sc[S_EMPTIES] >= rules[R_END_EMPTIES] and sc[S_TRIGGER] == TRIGGER_NONE:
        sc[S_TRIGGER] = TRIGGER_BAG
    _reshuffle(mt, sc, bag, discard)
    return sc[S_BAGN] > 0  # type: ignore[no-any-return]


# ------------------------------------------------------------------------------------ special action and drop
@jit_noref
def drop_step(mt: np.ndarray, cur: int, setup: Setup, ws: Workspace) -> None:
    """Seat cur's special action and drop (`_greedy_drop` or `_random_drop`), the tiles under the path taken
    (`take_path`), the window refilled (window_refill "drop_step"), thunder tokens for the bottom row
    (`thunder`) and a bonus tile for a short drop (`bonus_tile`)."""
    rules = setup.rules
    if ws.greedy[cur]:
        plen = _greedy_drop(cur, setup, ws)
    else:
        plen = _random_drop(mt, cur, setup, ws)
    taken = 0
    bottom = 0
    if plen > 0:
        taken, bottom = take_path(plen, setup, ws)
    if rules[R_DROP_REFILL] != 0:  # window_refill: drop_step, the refill ends the drop step (no drop path:
        _refill_window(mt, setup, ws)  # a window left short earlier is topped up)
    if plen == 0:
        return
    thunder(mt, cur, bottom, setup, ws)
    if taken <= rules[R_BONUS_MAX]:
        bonus_tile(mt, cur, setup, ws)


@jit_noref
def _greedy_drop(cur: int, setup: Setup, ws: Workspace) -> int:
    """GreedyPolicy.plan_drop: each window tile valued by `_fit`, the special action and path by `best_drop`;
    the special action done (the marker moves to it). Returns the path's length (the path in ws.out)."""
    sc, w, tg, out = ws.sc, ws.w, ws.thunder_gain, ws.out
    col_tiles, col_flip, col_len = ws.col_tiles, ws.col_flip, ws.col_len
    for i in range(w.shape[0]):
        w[i] = 0.0
    for c in range(col_len.shape[0]):
        for j in range(col_len[c]):
            tid = col_tiles[c, j]
            w[tid] = _fit(tid, cur, setup, ws)
    tg[0] = 0.0
    for i in range(1, tg.shape[0]):
        tg[i] = setup.means[MEAN_THUNDER] if sc[S_THN] > 0 else 0.0
    has_bonus = sc[S_OFFN] > 0 or sc[S_BSH] < setup.bonus_ids.shape[0]
    bvalue = setup.means[MEAN_BONUS] if has_bonus else 0.0
    best_drop(
        col_tiles,
        col_flip,
        col_len,
        setup.ma,
        setup.mb,
        w,
        setup.rules[R_BONUS_MAX],
        bvalue,
        tg,
        ws.marker[cur],
        True,
        out,
        ws.gm,
        ws.gt,
        ws.walk,
        ws.pv,
    )
    plen = out[DROP_LEN]
    if plen > 0 and out[DROP_KIND] >= 0:
        do_special(col_tiles, col_flip, col_len, out[DROP_KIND], out[DROP_COL], out[DROP_IDX])
        ws.marker[cur] = out[DROP_KIND]
    return plen  # type: ignore[no-any-return]


@jit_noref
def _random_drop(mt: np.ndarray, cur: int, setup: Setup, ws: Workspace) -> int:
    """RandomPolicy's special action (`rand_special`, done; the marker moves to it) and a uniform pick among
    the drop paths (`_paths`). Returns the path's length (0: none; the path in ws.out)."""
    kind, c, i = rand_special(mt, ws.col_len, ws.marker[cur])
    if kind >= 0:
        do_special(ws.col_tiles, ws.col_flip, ws.col_len, kind, c, i)
        ws.marker[cur] = kind
    npaths = _paths(
        -1, ws.col_tiles, ws.col_flip, ws.col_len, setup.ma, setup.mb, ws.gm, ws.gt, ws.walk, ws.out
    )
    k = mt_below(mt, npaths if npaths > 0 else 1)
    if npaths == 0:
        return 0
    return _paths(k, ws.col_tiles, ws.col_flip, ws.col_len, setup.ma, setup.mb, ws.gm, ws.gt, ws.walk, ws.out)


@jit_noref
def rand_special(mt: np.ndarray, col_len: np.ndarray, marker: int) -> tuple[int, int, int]:
    """RandomPolicy._special with the kernel's draws: (kind, column, index) by `special_at`, kind -1 for
    none."""
    total = special_at(col_len, marker, -1)[1]
    if mt_below(mt, 2 if total else 1) == 0:
        return -1, 0, 0
    return special_at(col_len, marker, mt_below(mt, total))


@jit_noref
def _paths(
    target: int,
    col_tiles: np.ndarray,
    col_flip: np.ndarray,
    col_len: np.ndarray,
    ma: np.ndarray,
    mb: np.ndarray,
    gm: np.ndarray,
    gt: np.ndarray,
    walk: np.ndarray,
    out: np.ndarray,
) -> int:
    """`drop_paths_in_order` over the window: with target < 0 the number of paths; else the length of path
    number `target`, its columns (row by row) written to out[DROP_PATH:]."""
    pc, nd = walk[WALK_COL], walk[WALK_NEXT]
    window_grid(col_tiles, col_flip, col_len, ma, mb, gm, gt)
    count = 0
    for c0 in range(gm.shape[1]):
        d = walk_start(gm, walk, c0)
        while d >= 0:
            if nd[d] == -1:  # the path ending at depth d, before its extensions
                if count == target:
                    for q in range(d + 1):
                        out[DROP_PATH + q] = pc[q]
                    return d + 1
                count += 1
            d = walk_next(gm, walk, d)
    return count


@jit_noref
def take_path(plen: int, setup: Setup, ws: Workspace) -> tuple[int, int]:
    """`Raindrops._drop`: the tiles under the path's symbols (each once) go from the window to the hand, the
    columns close up. Returns (tiles taken, of them from the bottom row)."""
    sc, remove, out, hand = ws.sc, ws.remove, ws.out, ws.hand
    col_tiles, col_flip, col_len = ws.col_tiles, ws.col_flip, ws.col_len
    rows = 2 * setup.rules[R_CAP]
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
    for c in range(col_len.shape[0]):
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
    return taken, bottom


@jit_noref
def thunder(mt: np.ndarray, cur: int, bottom: int, setup: Setup, ws: Workspace) -> None:
    """Thunder tokens for `bottom` bottom-row tiles: thunder_draw[bottom - 1] from the stack; one is kept
    (greedy: the highest value, lowest id among equals; random: a uniform pick), the others go under the
    stack."""
    sc, ring, drawn, tval = ws.sc, ws.ring, ws.drawn, setup.tval
    NTH = setup.thunder_ids.shape[0]
    thunder_draw = setup.thunder_draw
    draw = thunder_draw[bottom - 1] if 0 < bottom <= thunder_draw.shape[0] else 0
    nd = min(draw, sc[S_THN])
    for i in range(nd):
        drawn[i] = ring[sc[S_THH]]
        sc[S_THH] = (sc[S_THH] + 1) % NTH
        sc[S_THN] -= 1
    if nd == 1:
        ws.thunder_pts[cur] += tval[drawn[0]]
    elif nd > 1:
        kept_t = drawn[0]
        if ws.greedy[cur]:
            for i in range(1, nd):
                x = drawn[i]
                if tval[x] > tval[kept_t] or (tval[x] == tval[kept_t] and x < kept_t):
                    kept_t = x
        else:
            kept_t = drawn[mt_below(mt, nd)]
        ws.thunder_pts[cur] += tval[kept_t]
        for i in range(nd):
            if drawn[i] != kept_t:
                ring[(sc[S_THH] + sc[S_THN]) % NTH] = drawn[i]
                sc[S_THN] += 1


@jit_noref
def bonus_tile(mt: np.ndarray, cur: int, setup: Setup, ws: Workspace) -> None:
    """A short drop's bonus tile (`Raindrops._after_thunder`): a short offer refilled from the stack (a random
    seat under bonus_refill "by_choice" draws whether to; the greedy seat always refills), then one tile taken
    (random: a uniform pick; greedy: `_best_bonus`)."""
    sc, offer = ws.sc, ws.offer
    NB = setup.bonus_ids.shape[0]
    offer_size = setup.rules[R_OFFER]
    refill = True
    if setup.rules[R_BY_CHOICE] != 0 and not ws.greedy[cur] and sc[S_OFFN] < offer_size and sc[S_BSH] < NB:
        refill = mt_below(mt, 2) == 1
    while refill and sc[S_OFFN] < offer_size and sc[S_BSH] < NB:
        offer[sc[S_OFFN]] = ws.bstack[sc[S_BSH]]
        sc[S_OFFN] += 1
        sc[S_BSH] += 1
    if sc[S_OFFN] == 0:
        return
    bi = _best_bonus(cur, setup, ws) if ws.greedy[cur] else mt_below(mt, sc[S_OFFN])
    ws.bres[cur, offer[bi]] += 1
    _pop_at(offer, sc[S_OFFN], bi)
    sc[S_OFFN] -= 1


@jit_noref
def _best_bonus(cur: int, setup: Setup, ws: Workspace) -> int:
    """GreedyPolicy._best_bonus: the offer's index of the tile of highest points + half the open drops of the
    held cards' most needed colour among its colours (lowest id among equals)."""
    need, offer, bmask, c_col = ws.need, ws.offer, setup.bmask, setup.c_col
    need[:] = 0
    for s in range(ws.held_n[cur]):
        card = ws.hcard[cur, s]
        for cell in range(setup.c_n[card]):
            if not (ws.hcov[cur, s] >> cell) & 1:
                need[_lowbit(c_col[card, cell])] += 1
    bi = 0
    bv = -1.0e18
    for i in range(ws.sc[S_OFFN]):
        b = offer[i]
        m = 0
        bm = bmask[b]
        q = 0
        while bm:
            if bm & 1 and need[q] > m:
                m = need[q]
            bm >>= 1
            q += 1
        v = setup.bpts[b] + 0.5 * m
        if v > bv or (v == bv and b < offer[bi]):
            bv = v
            bi = i
    return bi


@jit_noref
def _pop_at(arr: np.ndarray, n: int, i: int) -> int:
    """arr[i] out of the first n entries of arr, the ones after it moved down; returns it."""
    x = arr[i]
    for j in range(i, n - 1):
        arr[j] = arr[j + 1]
    return x  # type: ignore[no-any-return]


# ------------------------------------------------------------------------------------ placements
@jit_noref
def placements(mt: np.ndarray, p: int, final: bool, setup: Setup, ws: Workspace) -> None:
    """Seat p's placement (or final placement): placements chosen one by one (greedy `_best_placement`, random
    `_rand_placement`) and done (`place`, `complete_card`) until the seat ends it."""
    while True:
        if ws.greedy[p]:
            if not _best_placement(p, setup, ws):
                break
        elif _rand_placement(mt, p, final, setup, ws) == 0:
            break
        if place(p, setup, ws):
            complete_card(mt, p, ws.act[ACT_SLOT], final, setup, ws)


@jit_noref
def place(p: int, setup: Setup, ws: Workspace) -> bool:
    """Do the placement in ws.act (`Raindrops._place`, PlaceBonus): the tile leaves the hand (else the
    reserve), the bonus tiles the bonus reserve, and their cells are covered. True when the card is
    complete."""
    sc, hand, act, bres = ws.sc, ws.hand, ws.act, ws.bres
    s = act[ACT_SLOT]
    if act[ACT_KIND] == 1:
        tid = act[ACT_PIECE]
        inhand = _index(hand, sc[S_HANDN], tid)
        if inhand >= 0:
            _pop_at(hand, sc[S_HANDN], inhand)
            sc[S_HANDN] -= 1
        else:
            _pop_at(ws.reserve[p], ws.res_n[p], _index(ws.reserve[p], ws.res_n[p], tid))
            ws.res_n[p] -= 1
        ws.htiles[p, s, ws.hnt[p, s]] = tid
        ws.hnt[p, s] += 1
        for q in range(ACT_OVER_A, ACT_OVER_B + 1):
            if act[q] >= 0:
                bres[p, act[q]] -= 1
                ws.hnb[p, s] += 1
        ws.hcov[p, s] |= (1 << act[ACT_CELL_A]) | (1 << act[ACT_CELL_B])
    else:
        bres[p, act[ACT_PIECE]] -= 1
        ws.hnb[p, s] += 1
        ws.hcov[p, s] |= 1 << act[ACT_CELL_A]
    return _popcount(ws.hcov[p, s]) >= setup.c_n[ws.hcard[p, s]]  # type: ignore[no-any-return]


@jit_noref
def _index(arr: np.ndarray, n: int, x: int) -> int:
    """Where x is among the first n entries of arr (the last place; -1: nowhere)."""
    at = -1
    for i in range(n):
        if arr[i] == x:
            at = i
    return at


@jit_noref
def complete_card(mt: np.ndarray, p: int, s: int, final: bool, setup: Setup, ws: Workspace) -> None:
    """`Raindrops._check_complete` of slot s's full card: its tiles discarded, its bonus tiles counted as
    used, the card scored and its slot freed; outside the final placement the end_cards-th card triggers the
    end and a new card is taken (`take_card`) while the display or the deck has one."""
    sc = ws.sc
    for i in range(ws.hnt[p, s]):
        ws.discard[sc[S_DISCN]] = ws.htiles[p, s, i]
        sc[S_DISCN] += 1
    ws.used_bon[p] += ws.hnb[p, s]
    ws.comp[p, ws.comp_n[p]] = ws.hcard[p, s]
    ws.comp_after[p, ws.comp_n[p]] = ws.turns[p] - ws.hsince[p, s]
    ws.comp_n[p] += 1
    for j in range(s, ws.held_n[p] - 1):
        ws.hcard[p, j] = ws.hcard[p, j + 1]
        ws.hcov[p, j] = ws.hcov[p, j + 1]
        ws.hfresh[p, j] = ws.hfresh[p, j + 1]
        ws.hsince[p, j] = ws.hsince[p, j + 1]
        ws.hnt[p, j] = ws.hnt[p, j + 1]
        ws.hnb[p, j] = ws.hnb[p, j + 1]
        for i in range(ws.htiles.shape[2]):
            ws.htiles[p, j, i] = ws.htiles[p, j + 1, i]
    ws.held_n[p] -= 1
    if final:
        return
    if ws.comp_n[p] >= setup.rules[R_END_CARDS] and sc[S_TRIGGER] == TRIGGER_NONE:
        sc[S_TRIGGER] = TRIGGER_CARDS
    if sc[S_DISPN] > 0 or sc[S_DECKH] < setup.card_ids.shape[0]:
        take_card(mt, p, setup, ws)


@jit_noref
def take_card(mt: np.ndarray, p: int, setup: Setup, ws: Workspace) -> None:
    """A new memory card for seat p, fresh: greedy takes the display card of highest points per drop (lowest
    id among equals), else the deck's top card; random draws among the display and the deck."""
    sc, display, c_ratio = ws.sc, ws.display, setup.c_ratio
    has_deck = sc[S_DECKH] < setup.card_ids.shape[0]
    pick = -1
    if not ws.greedy[p]:
        pick = mt_below(mt, sc[S_DISPN] + (1 if has_deck else 0))
    elif sc[S_DISPN] > 0:
        pick = 0
        for i in range(1, sc[S_DISPN]):
            x = display[i]
            y = display[pick]
            if c_ratio[x] > c_ratio[y] or (c_ratio[x] == c_ratio[y] and x < y):
                pick = i
    if 0 <= pick < sc[S_DISPN]:
        newc = _pop_at(display, sc[S_DISPN], pick)
        sc[S_DISPN] -= 1
    else:
        newc = ws.deck[sc[S_DECKH]]
        sc[S_DECKH] += 1
    _hold(p, newc, 1, ws.turns[p], ws)


@jit_noref
def end_placement(p: int, setup: Setup, ws: Workspace) -> None:
    """EndPlacement outside the final: of the hand and reserve, greedy keeps the reserve_slots tiles of
    highest `_fit` (lowest id among equals), random the tiles `_rand_placement` drew (ws.keep); the rest is
    discarded and the hand emptied."""
    sc, pool, reserve, res_n, keep = ws.sc, ws.pool, ws.reserve, ws.res_n, ws.keep
    n = _pool(p, ws)
    greedy = ws.greedy[p] != 0
    nkeep = min(setup.rules[R_RESERVE], n) if greedy else 0
    res_n[p] = 0
    if not greedy:
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
            ws.discard[sc[S_DISCN]] = pool[i]
            sc[S_DISCN] += 1
    sc[S_HANDN] = 0


@jit_noref
def cloud_tokens(p: int, g: int, setup: Setup, ws: Workspace, tally: Tallies) -> None:
    """`Raindrops._take_clouds`: seat p takes the top token of each cloud type it has none of whose condition
    (completed cards per symbol) its completed cards meet."""
    counts, comp, have, chead, cond, c_sym = ws.counts, ws.comp, ws.have, ws.chead, setup.cond, setup.c_sym
    counts[:] = 0
    for i in range(ws.comp_n[p]):
        if c_sym[comp[p, i]] >= 0:
            counts[c_sym[comp[p, i]]] += 1
    for ty in range(setup.cstack.shape[0]):
        if have[p, ty] or chead[ty] >= setup.cstack_n[ty]:
            continue
        ok = True
        for q in range(cond.shape[1]):
            if counts[q] < cond[ty, q]:
                ok = False
        if ok:
            tok = setup.cstack[ty, chead[ty]]
            chead[ty] += 1
            have[p, ty] = 1
            ws.cloud_pts[p] += setup.cpts[tok]
            tally.clouds[g, ty] += 1


@jit_noref
def score_game(g: int, gseat: int, over: bool, setup: Setup, ws: Workspace, tally: Tallies) -> None:
    """`Raindrops.score` of every board (parts A to E), `winners`, and game g added to the tally."""
    totals, card_pts, won, comp, comp_n = ws.totals, ws.card_pts, ws.won, ws.comp, ws.comp_n
    P = totals.shape[0]
    for p in range(P):
        a = 0
        for i in range(comp_n[p]):
            a += setup.c_pts[comp[p, i]]
        b = ws.used_bon[p]
        for q in range(ws.bres.shape[1]):
            b += ws.bres[p, q] * setup.bpts[q]
        e = 0
        for s in range(ws.held_n[p]):
            e = max(e, ws.hnt[p, s] + ws.hnb[p, s])
        tally.parts[g, PART_CARDS] += a
        tally.parts[g, PART_BONUS] += b
        tally.parts[g, PART_CLOUDS] += ws.cloud_pts[p]
        tally.parts[g, PART_THUNDER] += ws.thunder_pts[p]
        tally.parts[g, PART_INCOMPLETE] += e
        totals[p] = a + b + ws.cloud_pts[p] + ws.thunder_pts[p] + e
        card_pts[p] = a
    nwin, tie = winners(totals, card_pts, won)
    tally.ties[tie] += 1
    for p in range(P):
        if won[p]:
            tally.wins[p] += 1.0 / nwin
    rounds = 0
    for p in range(P):
        for i in range(comp_n[p]):
            tally.card_held[comp[p, i]] += 1
            tally.card_done[comp[p, i]] += 1
            tally.card_turns[comp[p, i]] += ws.comp_after[p, i]
        for s in range(ws.held_n[p]):
            tally.card_held[ws.hcard[p, s]] += 1
            tally.card_turns[ws.hcard[p, s]] += ws.turns[p] - ws.hsince[p, s]
        rounds = max(rounds, ws.turns[p])
    if gseat >= 0:
        if won[gseat]:
            tally.greedy_wins[0] += 1.0 / nwin
        others = 0
        for q in range(P):
            if q != gseat:
                others += totals[q]
        tally.margin[g] = totals[gseat] - others / max(1, P - 1)
    tally.turns[g] = ws.sc[S_TURN]
    tally.rounds[g] = rounds
    tally.trigger[g] = ws.sc[S_TRIGGER] if over else 0


# ------------------------------------------------------------------------------------ the seats' choices
@jit_noref
def _pool(p: int, ws: Workspace) -> int:
    """Seat p's hand and reserve tiles into ws.pool, sorted (the two hold distinct tiles); returns how
    many."""
    pool = ws.pool
    n = 0
    for i in range(ws.sc[S_HANDN]):
        pool[n] = ws.hand[i]
        n += 1
    for i in range(ws.res_n[p]):
        pool[n] = ws.reserve[p, i]
        n += 1
    _sort(pool, n)
    return n


@jit_noref
def _sort(arr: np.ndarray, n: int) -> None:
    """Sort arr[:n] (insertion: few entries, and no allocation)."""
    for i in range(1, n):
        x = arr[i]
        j = i - 1
        while j >= 0 and arr[j] > x:
            arr[j + 1] = arr[j]
            j -= 1
        arr[j + 1] = x


@jit_noref
def _bonuses(p: int, ws: Workspace) -> int:
    """The bonus tiles seat p holds (each id once, ascending) into ws.bons; returns how many."""
    nb = 0
    for b in range(ws.bres.shape[1]):
        if ws.bres[p, b]:
            ws.bons[nb] = b
            nb += 1
    return nb


@jit_noref
def _act(
    act: np.ndarray, kind: int, s: int, piece: int, cell_a: int, cell_b: int, over_a: int, over_b: int
) -> None:
    """Write a placement to act (ACT_* slots)."""
    act[ACT_KIND] = kind
    act[ACT_SLOT] = s
    act[ACT_PIECE] = piece
    act[ACT_CELL_A] = cell_a
    act[ACT_CELL_B] = cell_b
    act[ACT_OVER_A] = over_a
    act[ACT_OVER_B] = over_b


@jit_noref
def _overlay(
    ia: int, ib: int, oka: int, okb: int, wa: int, wb: int, bons: np.ndarray, bmask: np.ndarray
) -> tuple[int, int]:
    """Overlay choice (ia, ib) of a Place whose halves fit colours wa, wb (oka, okb: the tile's own half
    fits): (bonus over half a, bonus over half b), -1 where the tile's half fits by itself, bonus bons[ia] /
    bons[ib] over a half that does not; (-2, -2) where that bonus lacks the colour or would lie on both
    halves."""
    ba = -1
    if not oka:
        ba = bons[ia]
        if not bmask[ba] & wa:
            return -2, -2
    bb = -1
    if not okb:
        bb = bons[ib]
        if not bmask[bb] & wb:
            return -2, -2
    if ba != -1 and ba == bb:
        return -2, -2
    return ba, bb


@jit_noref
def _fit(tid: int, p: int, setup: Setup, ws: Workspace) -> float:
    """GreedyPolicy.fit_value: points per tile of the best held card with an open pair this tile fits."""
    held_n, hcard, hcov = ws.held_n, ws.hcard, ws.hcov
    c_per, c_col, c_np, c_pi, c_pj = setup.c_per, setup.c_col, setup.c_np, setup.c_pi, setup.c_pj
    a = setup.ma[tid]
    b = setup.mb[tid]
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


@jit_noref
def _best_placement(p: int, setup: Setup, ws: Workspace) -> bool:
    """GreedyPolicy._best_placement_reference: ws.act = the first placement of strictly highest value over the
    held cards that are not fresh (`_best_tile`, `_best_single`); False when none has a value."""
    n = _pool(p, ws)
    nb = _bonuses(p, ws)
    best = 0.0
    for s in range(ws.held_n[p]):
        if ws.hfresh[p, s]:
            continue
        best = _best_tile(p, s, n, nb, best, setup, ws)
        best = _best_single(p, s, nb, best, setup, ws)
    return best > 0.0  # every value written is above the start, 0


@jit_noref
def _best_tile(p: int, s: int, n: int, nb: int, best: float, setup: Setup, ws: Workspace) -> float:
    """The raindrop tiles of the pool on slot s's card, each open pair both ways round, with the overlays the
    bonus tiles allow: completing the card (100 + points - bonus cost) before a plain tile that keeps it
    coverable (10 + share covered) before an overlay where it could not be finished otherwise (5 - 0.1 cost).
    The first value above `best` goes to ws.act; returns the highest value."""
    pool, bons, act = ws.pool, ws.bons, ws.act
    ma, mb, bpts, bmask, c_col, covers = (
        setup.ma,
        setup.mb,
        setup.bpts,
        setup.bmask,
        setup.c_col,
        setup.covers,
    )
    one_half = setup.rules[R_ONE_HALF] != 0
    card = ws.hcard[p, s]
    cov = ws.hcov[p, s]
    total = setup.c_n[card]
    pts = setup.c_pts[card]
    cov_ok = covers[card, cov] != 0
    for ti in range(n):
        tid = pool[ti]
        for k in range(setup.c_np[card]):
            x = setup.c_pi[card, k]
            y = setup.c_pj[card, k]
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
                        _act(act, 1, s, tid, c0, c1, -1, -1)
                    continue
                if (not oka and not okb and one_half) or nb == 0:
                    continue
                if not full and (cov_ok or not covers[card, cov2]):
                    continue  # an overlay only where the card could not be finished otherwise
                for ia in range(1 if oka else nb):
                    for ib in range(1 if okb else nb):
                        ba, bb = _overlay(ia, ib, oka, okb, wa, wb, bons, bmask)
                        if ba == -2:
                            continue
                        cost = 0
                        if ba != -1:
                            cost += bpts[ba] + 1
                        if bb != -1:
                            cost += bpts[bb] + 1
                        v = 100.0 + pts - cost if full else 5.0 - 0.1 * cost
                        if v > best:
                            best = v
                            _act(act, 1, s, tid, c0, c1, ba, bb)
    return best


@jit_noref
def _best_single(p: int, s: int, nb: int, best: float, setup: Setup, ws: Workspace) -> float:
    """The bonus tiles alone on slot s's card: completing it (100 + points - cost), else only where the card
    could not be finished otherwise (5 - 0.1 cost). The first value above `best` goes to ws.act; returns the
    highest value."""
    bpts, bmask, covers = setup.bpts, setup.bmask, setup.covers
    card = ws.hcard[p, s]
    cov = ws.hcov[p, s]
    total = setup.c_n[card]
    cov_ok = covers[card, cov] != 0
    for ib in range(nb):
        b = ws.bons[ib]
        for cell in range(total):
            if (cov >> cell) & 1 or not bmask[b] & setup.c_col[card, cell]:
                continue
            cov2 = cov | (1 << cell)
            cost = bpts[b] + 1
            if _popcount(cov2) == total:
                v = 100.0 + setup.c_pts[card] - cost
            elif cov_ok or not covers[card, cov2]:
                continue
            else:
                v = 5.0 - 0.1 * cost
            if v > best:
                best = v
                _act(ws.act, 2, s, b, cell, -1, -1, -1)
    return best


@jit_noref
def _rand_placement(mt: np.ndarray, p: int, final: bool, setup: Setup, ws: Workspace) -> int:
    """RandomPolicy._placement with its draws: a kind among EndPlacement, Place (when any) and PlaceBonus
    (when any), then one of that kind. 1 = a Place in ws.act, 2 = a PlaceBonus in ws.act, 0 = end the
    placement (outside the final placement ws.keep[0] tiles ws.keep[1:] stay in reserve)."""
    n = _pool(p, ws)
    nb = _bonuses(p, ws)
    _bonus_fits(nb, setup, ws)
    n_place = _places(p, n, nb, -1, setup, ws)
    n_single = _singles(p, nb, -1, setup, ws) if nb else 0
    kind = mt_below(mt, 1 + (1 if n_place > 0 else 0) + (1 if n_single > 0 else 0))
    if kind == 2 or (kind == 1 and n_place == 0):
        _singles(p, nb, mt_below(mt, n_single), setup, ws)
        return 2
    if kind == 0:
        if not final:
            _draw_keep(mt, n, setup, ws)
        return 0
    _places(p, n, nb, mt_below(mt, n_place), setup, ws)
    return 1


@jit_noref
def _bonus_fits(nb: int, setup: Setup, ws: Workspace) -> None:
    """RandomPolicy's bonus counts: fits[colour] = held bonus tiles (ws.bons) of that colour, both[x, y] =
    those of both colours."""
    fits, both = ws.fits, ws.both
    ncol = fits.shape[0]
    fits[:] = 0
    both[:, :] = 0
    for ib in range(nb):
        m = setup.bmask[ws.bons[ib]]
        for i in range(ncol):
            if m >> i & 1:
                fits[i] += 1
                for j in range(i, ncol):
                    if m >> j & 1:
                        both[i, j] += 1
                        if j != i:
                            both[j, i] += 1


@jit_noref
def _singles(p: int, nb: int, k: int, setup: Setup, ws: Workspace) -> int:
    """Seat p's PlaceBonus actions in `placements` order (slot, bonus, cell): with k >= 0, number k into
    ws.act. Returns how many were passed (with k < 0: how many there are)."""
    bmask, c_col = setup.bmask, setup.c_col
    seen = 0
    for s in range(ws.held_n[p]):
        if ws.hfresh[p, s]:
            continue
        card = ws.hcard[p, s]
        cov = ws.hcov[p, s]
        for ib in range(nb):
            for cell in range(setup.c_n[card]):
                if not (cov >> cell) & 1 and bmask[ws.bons[ib]] & c_col[card, cell]:
                    if seen == k:
                        _act(ws.act, 2, s, ws.bons[ib], cell, -1, -1, -1)
                        return seen
                    seen += 1
    return seen


@jit_noref
def _places(p: int, n: int, nb: int, k: int, setup: Setup, ws: Workspace) -> int:
    """Seat p's Place actions in RandomPolicy's order (slot, pool tile, open pair, way round, overlays): with
    k >= 0, number k into ws.act. Returns how many were passed (with k < 0: how many there are)."""
    pool, fits, both = ws.pool, ws.fits, ws.both
    ma, mb, c_col = setup.ma, setup.mb, setup.c_col
    one_half = setup.rules[R_ONE_HALF] != 0
    seen = 0
    for s in range(ws.held_n[p]):
        if ws.hfresh[p, s]:
            continue
        card = ws.hcard[p, s]
        cov = ws.hcov[p, s]
        for ti in range(n):
            tid = pool[ti]
            for kk in range(setup.c_np[card]):
                x = setup.c_pi[card, kk]
                y = setup.c_pj[card, kk]
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
                    if 0 <= k - seen < cnt:
                        _act(ws.act, 1, s, tid, c0, c1, -1, -1)
                        if not (oka and okb):
                            _nth_overlay(k - seen, oka, okb, wa, wb, nb, setup, ws)
                        return seen
                    seen += cnt
    return seen


@jit_noref
def _nth_overlay(k: int, oka: int, okb: int, wa: int, wb: int, nb: int, setup: Setup, ws: Workspace) -> None:
    """Overlay choice number k (`_overlay` order, skipping the ones not allowed) into ws.act."""
    for ia in range(1 if oka else nb):
        for ib in range(1 if okb else nb):
            ba, bb = _overlay(ia, ib, oka, okb, wa, wb, ws.bons, setup.bmask)
            if ba == -2:
                continue
            if k == 0:
                ws.act[ACT_OVER_A] = ba
                ws.act[ACT_OVER_B] = bb
                return
            k -= 1


@jit_noref
def _draw_keep(mt: np.ndarray, n: int, setup: Setup, ws: Workspace) -> None:
    """RandomPolicy's EndPlacement: a uniform pick among the subsets of at most reserve_slots tiles of the
    sorted pool (by size, then in itertools.combinations order) into ws.keep."""
    pool, keep = ws.pool, ws.keep
    top = min(setup.rules[R_RESERVE], n)
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


@jit
def _binom(n: int, k: int) -> int:
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@jit
def _place_count(
    oka: int, okb: int, wa: int, wb: int, nb: int, fits: np.ndarray, both: np.ndarray, one_half: bool
) -> int:
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
