"""The seats' choices in the kernel: the greedy seat's best placement and the random seat's
uniform picks, as `policies.GreedyPolicy` and `RandomPolicy` make them."""

from __future__ import annotations

import numpy as np

from generator.engine.kernel import jit, jit_noref
from generator.games.raindrops.difficulty import _popcount
from generator.games.raindrops.kernel_rng import mt_below
from generator.games.raindrops.kernel_tables import (
    ACT_CELL_A,
    ACT_CELL_B,
    ACT_KIND,
    ACT_OVER_A,
    ACT_OVER_B,
    ACT_PIECE,
    ACT_SLOT,
    R_ONE_HALF,
    R_RESERVE,
    S_HANDN,
    Setup,
    Workspace,
    _lowbit,
)


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
    after = _popcount(cov) + 2  # cells covered after a tile on an open pair
    full = after == total
    share = after / total
    if best >= (100.0 + pts if full else 10.0 + share):
        return best  # no placement here is worth more (an overlay that does not finish it: under 5)
    for ti in range(n):
        tid = pool[ti]
        for k in range(setup.c_np[card]):
            x = setup.c_pi[card, k]
            y = setup.c_pj[card, k]
            if (cov >> x) & 1 or (cov >> y) & 1:
                continue
            cov2 = cov | (1 << x) | (1 << y)
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
                        v = 10.0 + share
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
                        # oka, okb as ints, as _nth_overlay passes them: one compiled _overlay, not two
                        ba, bb = _overlay(ia, ib, int(oka), int(okb), wa, wb, bons, bmask)
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
    full = _popcount(cov) + 1 == total  # a bonus tile on the last open cell
    if best >= (100.0 + setup.c_pts[card] if full else 5.0):
        return best  # no bonus tile here is worth more (each costs at least 1)
    for ib in range(nb):
        b = ws.bons[ib]
        for cell in range(total):
            if (cov >> cell) & 1 or not bmask[b] & setup.c_col[card, cell]:
                continue
            cov2 = cov | (1 << cell)
            cost = bpts[b] + 1
            if full:
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
