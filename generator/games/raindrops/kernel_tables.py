"""The kernel's data: the scalar slots of a game, the static tables built once per game
configuration (`Setup`, `tables`), the tallies and the workspace of the game in progress."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from generator.engine.kernel import jit
from generator.games.raindrops.components import BonusTile, CloudToken, MemoryCard, RaindropTile, ThunderToken
from generator.games.raindrops.policies_greedy import GreedyPolicy
from generator.games.raindrops.rules import Raindrops
from generator.games.raindrops.state import Params

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
    maxcells = max(len(c) for c in game.card_cells.values())
    if maxcells > 16:  # the spec's grid is at most 4 x 4
        raise ValueError(f"the compiled kernel handles memory cards of up to 16 drops; got {maxcells}")
    rules = _rule_row(game, maxcells)
    bpts = np.zeros(max_bonus, dtype=i64)
    bmask = np.zeros(max_bonus, dtype=i64)
    for b, t in game.bonus.items():
        bpts[b] = t.points
        bmask[b] = game.half_mask(t.colours)
    tval = np.zeros(max_thunder, dtype=i64)
    for k, th in game.thunder.items():
        tval[k] = th.value
    syms = sorted(
        {s for c in game.clouds.values() for s, _ in c.condition}
        | {c.cloud for c in game.cards.values() if c.cloud is not None}
    )
    cstack, cstack_n, cpts, cond = _cloud_tables(game, syms)
    c_n, c_pts, c_ratio, c_per, c_sym, c_col, c_np, c_pi, c_pj, covers = _card_tables(
        game, pol, syms, maxcells
    )
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


def _rule_row(game: Raindrops, maxcells: int) -> np.ndarray:
    """Setup.rules: the rule figures and house rules as one row of integers (indices R_*)."""
    p = game.params
    i64 = np.int64
    return np.array(
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


def _cloud_tables(game: Raindrops, syms: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The cloud tokens: per type its stack (token ids, gold first) and size, each token's points, and per
    type the cards needed of each symbol."""
    i64 = np.int64
    max_cloud = max(game.clouds, default=0) + 1
    types = game.cloud_types
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
    return cstack, cstack_n, cpts, cond


def _card_tables(
    game: Raindrops, pol: GreedyPolicy, syms: list[str], maxcells: int
) -> tuple[np.ndarray, ...]:
    """The memory cards by id: cells, points, points per cell and per tile, symbol, colour bit per cell,
    the pairs of cells a tile covers, and the cover table of every set of covered cells."""
    i64 = np.int64
    max_card = max(game.cards) + 1
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
    return c_n, c_pts, c_ratio, c_per, c_sym, c_col, c_np, c_pi, c_pj, covers


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


@jit
def _lowbit(x: int) -> int:
    """Index of the lowest set bit (a colour bit's colour index)."""
    q = 0
    while x and not x & 1:
        x >>= 1
        q += 1
    return q
