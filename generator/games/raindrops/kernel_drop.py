"""The kernel's special action and drop step: the action a seat takes, the window's refill from the
bag, the drop path, thunder and bonus tiles."""

from __future__ import annotations

import numpy as np

from generator.engine.kernel import jit_noref
from generator.games.raindrops.kernel_choice import _fit, _sort
from generator.games.raindrops.kernel_rng import mt_below, mt_random, mt_shuffle
from generator.games.raindrops.kernel_tables import (
    MEAN_BONUS,
    MEAN_THUNDER,
    R_AT_LAST,
    R_BONUS_MAX,
    R_BY_CHOICE,
    R_CAP,
    R_DROP_REFILL,
    R_END_EMPTIES,
    R_OFFER,
    S_BAGN,
    S_BSH,
    S_DISCN,
    S_EMPTIES,
    S_HANDN,
    S_OFFN,
    S_TAKEN,
    S_THH,
    S_THN,
    S_TRIGGER,
    TRIGGER_BAG,
    TRIGGER_NONE,
    Setup,
    Workspace,
    _lowbit,
)
from generator.games.raindrops.policies import (
    DROP_COL,
    DROP_IDX,
    DROP_KIND,
    DROP_LEN,
    DROP_PATH,
    WALK_COL,
    WALK_NEXT,
    best_drop,
    do_special,
    special_at,
    walk_next,
    walk_start,
    window_grid,
)


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
    window_grid(ws.col_tiles, ws.col_flip, ws.col_len, setup.ma, setup.mb, ws.gm, ws.gt)
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
    """`drop_paths_in_order` over the window (gm: its `window_grid`): with target < 0 the number of paths;
    else the length of path number `target`, its columns (row by row) written to out[DROP_PATH:]."""
    pc, nd = walk[WALK_COL], walk[WALK_NEXT]
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
