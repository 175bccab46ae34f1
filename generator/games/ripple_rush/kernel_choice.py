"""The seats' choices in the kernel: the cell for a number (greedy, strong), the number or suit
to write, an announced card of another player, and the decision log."""

from __future__ import annotations

import numpy as np

from generator.engine.kernel import jit, rand_below
from generator.games.ripple_rush.kernel_board import (
    POLICY_GREEDY,
    POLICY_RANDOM,
    POLICY_STRONG,
    expected_fill,
    find_gap,
    inline,
    neighbours,
    no_refcount,
    nth_between,
    pre_at,
    room_between,
    row_value,
    unseen_between,
    value_at,
    x_bounds,
)


@inline
def greedy_cell(
    sheet: np.ndarray,
    rowfill: np.ndarray,
    p: int,
    c: int,
    n: int,
    lo: int,
    hi: int,
    rows: int,
    cols: int,
    nmin: int,
    nmax: int,
    isgoal: np.ndarray,
    goal_points: int,
) -> tuple[int, float]:
    """Greedy: the cell nearest the linear interpolation of n between its gap's bounds, pulled towards rows
    it would complete; (h, gain)."""
    lo_v = value_at(sheet, p, c, rows, lo, nmin, nmax)
    hi_v = value_at(sheet, p, c, rows, hi, nmin, nmax)
    best_h = lo + 1
    best = -1e9
    target = lo + (n - lo_v) * (hi - lo) / (hi_v - lo_v)
    for h in range(lo + 1, hi):
        gain = 1.0 - abs(h - target) + 0.5 * row_value(rowfill, p, h, cols, isgoal, goal_points)
        if gain > best:
            best = gain
            best_h = h
    return int(best_h), float(best)


@no_refcount
def strong_cell(
    sheet: np.ndarray,
    rowfill: np.ndarray,
    p: int,
    c: int,
    n: int,
    lo: int,
    hi: int,
    rows: int,
    cols: int,
    nmin: int,
    nmax: int,
    isgoal: np.ndarray,
    goal_points: int,
    unseen: np.ndarray,
    u_total: int,
    rounds_left: int,
) -> tuple[int, float]:
    """Strong: expected cells still fillable in the split gap, from the cards nobody has seen yet; (h,
    gain)."""
    lo_v = value_at(sheet, p, c, rows, lo, nmin, nmax)
    hi_v = value_at(sheet, p, c, rows, hi, nmin, nmax)
    best_h = lo + 1
    best = -1e9
    k = hi - lo - 1
    scale = rounds_left / max(u_total, 1)
    m_all = scale * unseen_between(unseen, c, lo_v + 1, hi_v - 1, nmin)
    m_below = scale * unseen_between(unseen, c, lo_v + 1, n - 1, nmin)
    m_above = scale * unseen_between(unseen, c, n + 1, hi_v - 1, nmin)
    # a number outside any reachable range still blocks cells it strands
    cap_below = n - lo_v - 1
    cap_above = hi_v - n - 1
    before = expected_fill(k, m_all)
    for h in range(lo + 1, hi):
        kb = min(h - lo - 1, cap_below)
        ka = min(hi - h - 1, cap_above)
        gain = 1.0 + expected_fill(kb, m_below) + expected_fill(ka, m_above) - before
        gain += row_value(rowfill, p, h, cols, isgoal, goal_points)
        if gain > best:
            best = gain
            best_h = h
    return int(best_h), float(best)


@inline
def choose_in_gap(
    pol: int,
    rng: np.ndarray,
    sheet: np.ndarray,
    rowfill: np.ndarray,
    p: int,
    c: int,
    n: int,
    lo: int,
    hi: int,
    rows: int,
    cols: int,
    nmin: int,
    nmax: int,
    isgoal: np.ndarray,
    goal_points: int,
    unseen: np.ndarray,
    u_total: int,
    rounds_left: int,
) -> tuple[int, float]:
    """Best cell (h) for n in its gap lo..hi under policy `pol`, and the policy's gain for writing it
    there."""
    if pol == POLICY_RANDOM:
        return lo + 1 + int(rand_below(rng, hi - lo - 1)), 1.0
    if pol == POLICY_GREEDY:
        return greedy_cell(sheet, rowfill, p, c, n, lo, hi, rows, cols, nmin, nmax, isgoal, goal_points)
    return strong_cell(
        sheet,
        rowfill,
        p,
        c,
        n,
        lo,
        hi,
        rows,
        cols,
        nmin,
        nmax,
        isgoal,
        goal_points,
        unseen,
        u_total,
        rounds_left,
    )


@no_refcount
def accepts(pol: int, gain: float) -> bool:
    """Whether a policy takes an optional write with this gain (random decides elsewhere)."""
    if pol == POLICY_GREEDY:
        return gain >= 0.4
    return gain > 0.05


@no_refcount  # called in place, not inlined: its three copies in play_loop doubled the compile, no faster
def decide_number(
    pol: int,
    rng: np.ndarray,
    sheet: np.ndarray,
    rowfill: np.ndarray,
    p: int,
    c_only: int,
    n: int,
    rows: int,
    cols: int,
    nmin: int,
    nmax: int,
    isgoal: np.ndarray,
    goal_points: int,
    unseen: np.ndarray,
    u_total: int,
    rounds_left: int,
    optional: bool,
) -> tuple[int, int]:
    """Choose where to write number n (column c_only, or any column when c_only < 0): (c, h); c = -1 passes,
    c = -2 means there was no legal cell at all (no decision)."""
    c0 = c_only if c_only >= 0 else 0
    c1 = c_only + 1 if c_only >= 0 else cols
    if pol != POLICY_RANDOM:
        # one pass: greedy and strong draw nothing, so counting the options first is only the "no legal cell"
        # test, and the best cell of every open gap is the answer whenever one exists
        best_c = -2
        best_h = 0
        best = -1e9
        for c in range(c0, c1):  # with one column, this picks its best cell (every gain is > -1e9)
            lo, hi = find_gap(sheet, p, c, rows, n)
            if lo != -2 and hi - lo >= 2:
                h, gain = choose_in_gap(
                    pol,
                    rng,
                    sheet,
                    rowfill,
                    p,
                    c,
                    n,
                    lo,
                    hi,
                    rows,
                    cols,
                    nmin,
                    nmax,
                    isgoal,
                    goal_points,
                    unseen,
                    u_total,
                    rounds_left,
                )
                if best_c == -2 or gain > best:
                    best = gain
                    best_c = c
                    best_h = h
        if best_c == -2:
            return -2, 0
        if optional and not accepts(pol, best):
            return -1, 0
        return int(best_c), int(best_h)
    options = 0
    for c in range(c0, c1):
        lo, hi = find_gap(sheet, p, c, rows, n)
        if lo != -2 and hi - lo >= 2:
            options += hi - lo - 1
    if options == 0:
        return -2, 0
    pick = int(rand_below(rng, options + 1)) if optional else int(rand_below(rng, options))
    if pick == options:
        return -1, 0
    for c in range(c0, c1):
        lo, hi = find_gap(sheet, p, c, rows, n)
        if lo != -2 and hi - lo >= 2:
            if pick < hi - lo - 1:
                return c, lo + 1 + pick
            pick -= hi - lo - 1
    return -1, 0


@jit
def decide_suit(
    pol: int,
    rng: np.ndarray,
    sheet: np.ndarray,
    rowfill: np.ndarray,
    p: int,
    c: int,
    rows: int,
    cols: int,
    nmin: int,
    nmax: int,
    isgoal: np.ndarray,
    goal_points: int,
    unseen: np.ndarray,
    u_total: int,
    rounds_left: int,
    x_any: bool,
) -> tuple[int, int]:
    """Choose (h, n) for an X(suit) bonus in column c; h = -1 passes, h = -2 means no legal write exists."""
    pre = np.zeros(nmax - nmin + 2, dtype=np.int64)
    return suit_choice(
        pol,
        rng,
        sheet,
        rowfill,
        p,
        c,
        rows,
        cols,
        nmin,
        nmax,
        isgoal,
        goal_points,
        unseen,
        u_total,
        rounds_left,
        pre,
        x_any,
    )


@no_refcount
def suit_choice(
    pol: int,
    rng: np.ndarray,
    sheet: np.ndarray,
    rowfill: np.ndarray,
    p: int,
    c: int,
    rows: int,
    cols: int,
    nmin: int,
    nmax: int,
    isgoal: np.ndarray,
    goal_points: int,
    unseen: np.ndarray,
    u_total: int,
    rounds_left: int,
    pre: np.ndarray,
    x_any: bool,
) -> tuple[int, int]:
    """`decide_suit` with caller-owned scratch `pre` (nmax - nmin + 2 ints): no allocation in the game
    loop."""
    xmin, xmax = x_bounds(sheet, p, c, rows, nmin, nmax, x_any)
    options = 0
    for h in range(rows):
        if sheet[p, c, h] == 0:
            lo, hi = neighbours(sheet, p, c, rows, h)
            room = room_between(
                value_at(sheet, p, c, rows, lo, xmin, xmax), value_at(sheet, p, c, rows, hi, xmin, xmax)
            )
            if room > 0:
                options += room
    if options == 0:
        return -2, 0
    if pol == POLICY_RANDOM:
        pick = int(rand_below(rng, options + 1))
        if pick == options:
            return -1, 0
        for h in range(rows):
            if sheet[p, c, h] == 0:
                lo, hi = neighbours(sheet, p, c, rows, h)
                lo_v = value_at(sheet, p, c, rows, lo, xmin, xmax)
                room = room_between(lo_v, value_at(sheet, p, c, rows, hi, xmin, xmax))
                if room > 0:
                    if pick < room:
                        return h, nth_between(lo_v, pick)
                    pick -= room
        return -1, 0
    best = -1e9
    best_h = -1
    best_n = 0
    scale = rounds_left / max(u_total, 1)
    # pre[v - base] = unseen cards of suit c numbered <= v, for v in nmin-1 .. nmax
    base = nmin - 1
    if pol == POLICY_STRONG:
        pre[0] = 0
        for v in range(nmin, nmax + 1):
            pre[v - base] = pre[v - 1 - base] + unseen[c, v - nmin]
    for h in range(rows):
        if sheet[p, c, h] != 0:
            continue
        lo, hi = neighbours(sheet, p, c, rows, h)
        lo_v = value_at(sheet, p, c, rows, lo, xmin, xmax)
        hi_v = value_at(sheet, p, c, rows, hi, xmin, xmax)
        room = room_between(lo_v, hi_v)
        if room <= 0:
            continue
        rv = row_value(rowfill, p, h, cols, isgoal, goal_points)
        if pol == POLICY_GREEDY:
            # the number that splits the gap evenly; fill where numbers are scarcest per empty cell
            n = lo_v + int(round((h - lo) * (hi_v - lo_v) / (hi - lo)))
            n = min(max(n, lo_v + 1), hi_v - 1)
            if n == 0:  # 0 marks an empty cell; room > 0 leaves 1 or -1
                n = 1 if hi_v > 1 else -1
            gain = 1.0 - room / (hi - lo - 1) / (nmax - nmin + 1) + rv
            if gain > best:
                best = gain
                best_h = h
                best_n = n
        else:
            k = hi - lo - 1
            before = expected_fill(
                k, scale * (pre_at(pre, hi_v - 1, nmin, nmax) - pre_at(pre, lo_v, nmin, nmax))
            )
            for n in range(lo_v + 1, hi_v):
                if n == 0:
                    continue
                kb = min(h - lo - 1, n - lo_v - 1)
                ka = min(hi - h - 1, hi_v - n - 1)
                gain = (
                    1.0
                    + rv
                    - before
                    + expected_fill(
                        kb, scale * (pre_at(pre, n - 1, nmin, nmax) - pre_at(pre, lo_v, nmin, nmax))
                    )
                    + expected_fill(
                        ka, scale * (pre_at(pre, hi_v - 1, nmin, nmax) - pre_at(pre, n, nmin, nmax))
                    )
                )
                if gain > best:
                    best = gain
                    best_h = h
                    best_n = n
    if not accepts(pol, best):
        return -1, 0
    return int(best_h), int(best_n)


@inline
def announced_choice(
    pol: int,
    rng: np.ndarray,
    sheet: np.ndarray,
    rowfill: np.ndarray,
    p: int,
    ksuit: np.ndarray,
    knum: np.ndarray,
    kopen: np.ndarray,
    rows: int,
    cols: int,
    nmin: int,
    nmax: int,
    isgoal: np.ndarray,
    goal_points: int,
    unseen: np.ndarray,
    u_total: int,
    rounds_left: int,
) -> tuple[int, int, int]:
    """Announced cards in any order: which open card k (kopen[k]) to write, and where (c, h): (k, c, h);
    k = -1 stops taking announced cards, k = -2 means no open card has a legal cell (no decision)."""
    if pol != POLICY_RANDOM:
        # one pass, as in decide_number: greedy and strong draw nothing, so counting the options first is only
        # the "no legal cell" test
        found = False
        best_k = -1
        best_h = 0
        best = -1e9
        for k in range(ksuit.shape[0]):
            if kopen[k]:
                c = ksuit[k]
                lo, hi = find_gap(sheet, p, c, rows, knum[k])
                if lo != -2 and hi - lo >= 2:
                    found = True
                    h, gain = choose_in_gap(
                        pol,
                        rng,
                        sheet,
                        rowfill,
                        p,
                        c,
                        knum[k],
                        lo,
                        hi,
                        rows,
                        cols,
                        nmin,
                        nmax,
                        isgoal,
                        goal_points,
                        unseen,
                        u_total,
                        rounds_left,
                    )
                    if gain > best:
                        best = gain
                        best_k = k
                        best_h = h
        if not found:
            return -2, 0, 0
        if not accepts(pol, best):
            return -1, 0, 0
        return int(best_k), int(ksuit[best_k]), int(best_h)
    options = 0
    for k in range(ksuit.shape[0]):
        if kopen[k]:
            lo, hi = find_gap(sheet, p, ksuit[k], rows, knum[k])
            if lo != -2 and hi - lo >= 2:
                options += hi - lo - 1
    if options == 0:
        return -2, 0, 0
    pick = int(rand_below(rng, options + 1))
    if pick == options:
        return -1, 0, 0
    for k in range(ksuit.shape[0]):
        if kopen[k]:
            lo, hi = find_gap(sheet, p, ksuit[k], rows, knum[k])
            if lo != -2 and hi - lo >= 2:
                if pick < hi - lo - 1:
                    return k, int(ksuit[k]), lo + 1 + pick
                pick -= hi - lo - 1
    return -1, 0, 0


@no_refcount
def log_decision(
    log: np.ndarray, nlog: np.ndarray, g: int, p: int, kind: int, c: int, h: int, n: int
) -> None:
    """Append one decision to the log when recording (log has rows; nlog[0] counts them)."""
    i = nlog[0]
    if i < log.shape[0]:
        log[i, 0] = g
        log[i, 1] = p
        log[i, 2] = kind
        log[i, 3] = c
        log[i, 4] = h
        log[i, 5] = n
    nlog[0] = i + 1
