"""The fast path: whole chunks of Ripple Rush games in one compiled call (numba when present, else Python).

Everything here is a plain function over numpy arrays; `generator.engine.kernel.jit` compiles it when numba
is installed and leaves it as Python with PNPKIT_PURE=1, and both give the same results bit for bit (the RNG
is the engine's xorshift64). Speed notes (greedy 4-player games): the game loop and its helpers are compiled
without reference counting (`no_refcount`: the loop allocates nothing, `workspace` is made per chunk), sheets
are indexed in place (no column views), and the small per-card decisions are inlined (`inline`); the two big
ones (`decide_number`, `cascade`) are called, not inlined: inlining copied them into every caller and doubled
the compile time (12 -> 6 CPU-s) for no measurable speed. The order of decisions is the reference rules' order
(`rules.py`): each round,
every player draws; players who cannot write announce; in seat order every other player writes their own
card (and resolves its bonus cascade); then in seat order every player may write the announced cards of the
others: with `any_order` (the seed names no order) one decision per write over the cards still open (pick
one, or stop), else each card offered on its own in the announcers' seat order. A decision exists only when
at least one legal write exists. With `x_any` an X bonus may write whole numbers outside nmin..nmax (never
0, the empty mark): its virtual bounds are `rows` + 1 beyond the column's extremes (`x_bounds`).

Layout of a sheet in here: sheet[player, column, h] with h counted from the BOTTOM (h = 0 is the bottom row,
sheet row `rows - h` in user-facing numbering); 0 means empty. Cards are encoded `suit * span + number - min`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from generator.engine.kernel import jit, jit_inline, jit_noref, jit_noref_entry, rand_below, shuffle_inplace

inline = jit_inline
no_refcount = jit_noref

POLICY_RANDOM = 0
POLICY_GREEDY = 1
POLICY_STRONG = 2

KIND_OWN = 0
KIND_ANNOUNCED = 1
KIND_BONUS = 2

COUNT_DRAWN = 0
"""Counters (`Tallies.counts[...]`): cards drawn ..."""
COUNT_UNPLACEABLE = 1
"""... drawn cards their drawer could not write (announced) ..."""
COUNT_ANNOUNCED_OFFERED = 2
"""... decisions on an announced card of another player ..."""
COUNT_ANNOUNCED_WRITTEN = 3
"""... announced cards written ..."""
COUNT_GOALS_COMPLETED = 4
"""... revealed goal rows completed (per player) ..."""
COUNT_GOALS_POSSIBLE = 5
"""... and revealed goal rows that could have been (revealed x players)."""
N_COUNTS = 6

LOG_WIDTH = 6
"""Columns of a decision log row: game, player, kind, column (-1 = pass), h (from bottom), number."""

_ROW_VALUE = 0.7
"""What a policy thinks an unlocked row bonus is worth, in cells (it is about one more written cell)."""


@no_refcount
def find_gap(sheet: np.ndarray, p: int, c: int, rows: int, n: int) -> tuple[int, int]:
    """Rows (from the bottom) of the nearest filled cells below and above `n` in column c of player p's sheet:
    (lo, hi), lo = -1 / hi = rows at the edges. lo == -2 when `n` is already in the column. Legal cells are
    lo+1 .. hi-1. (Sheets are indexed in place: a column view would cost an atomic incref/decref per call.)"""
    lo = -1
    if (
        n >= 1
    ):  # every legal number: an empty cell (0) is below n, so `v >= n` alone finds the first filled cell >= n
        for h in range(rows):
            v = sheet[p, c, h]
            if (
                v >= n
            ):  # the one data-dependent branch per cell, taken once; empty cells only steer the select
                if v == n:
                    return -2, rows
                return lo, h
            lo = h if v != 0 else lo
        return lo, rows
    for h in range(rows):
        v = sheet[p, c, h]
        if v != 0:
            if v < n:
                lo = h
            elif v == n:
                return -2, rows
            else:
                return lo, h
    return lo, rows


@no_refcount
def neighbours(sheet: np.ndarray, p: int, c: int, rows: int, h: int) -> tuple[int, int]:
    """Nearest filled rows below and above empty cell h: (lo, hi) with -1 / rows at the edges."""
    lo = h - 1
    while lo >= 0 and sheet[p, c, lo] == 0:
        lo -= 1
    hi = h + 1
    while hi < rows and sheet[p, c, hi] == 0:
        hi += 1
    return lo, hi


@no_refcount
def value_at(sheet: np.ndarray, p: int, c: int, rows: int, h: int, nmin: int, nmax: int) -> int:
    """Number in row h, or the virtual bound nmin-1 below the bottom / nmax+1 above the top."""
    if h < 0:
        return nmin - 1
    if h >= rows:
        return nmax + 1
    return int(sheet[p, c, h])


@no_refcount
def x_bounds(
    sheet: np.ndarray, p: int, c: int, rows: int, nmin: int, nmax: int, x_any: bool
) -> tuple[int, int]:
    """The smallest and largest number an X bonus may write in column c: the cards' range, or with `x_any`
    `rows` beyond the column's extremes (nmin..nmax when empty), so the ends always have room."""
    if not x_any:
        return nmin, nmax
    lo = nmin
    hi = nmax
    for h in range(rows):
        v = sheet[p, c, h]
        if v != 0:
            lo = min(lo, v)
            hi = max(hi, v)
    return lo - rows, hi + rows


@no_refcount
def room_between(lo_v: int, hi_v: int) -> int:
    """Whole numbers strictly between lo_v and hi_v, 0 left out (it marks an empty cell)."""
    room = hi_v - lo_v - 1
    if lo_v < 0 < hi_v:
        room -= 1
    return room


@no_refcount
def nth_between(lo_v: int, k: int) -> int:
    """The k-th (0-based) whole number above lo_v, skipping 0."""
    n = lo_v + 1 + k
    if lo_v < 0 <= n:
        n += 1
    return n


@no_refcount
def pre_at(pre: np.ndarray, v: int, nmin: int, nmax: int) -> int:
    """pre[] (unseen cards numbered <= v, from nmin - 1) at v, clipped to the cards' range."""
    return pre[min(max(v, nmin - 1), nmax) - nmin + 1]  # type: ignore[no-any-return]  # compiled: int64


@no_refcount
def expected_fill(cells: int, arrivals: float) -> float:
    """Expected cells filled of a gap with `cells` empty cells that `arrivals` cards may still reach."""
    if cells <= 0:
        return 0.0
    return cells * (1.0 - math.exp(-arrivals / cells))


@no_refcount
def unseen_between(unseen: np.ndarray, c: int, a: int, b: int, nmin: int) -> int:
    """Unseen cards of suit c with numbers in a..b inclusive (bounds outside the cards' range are clipped:
    an any_integer X bonus may have written such numbers)."""
    s = 0
    for v in range(max(a, nmin), min(b, nmin + unseen.shape[1] - 1) + 1):
        s += unseen[c, v - nmin]
    return s


@no_refcount
def row_value(rowfill: np.ndarray, p: int, h: int, cols: int, isgoal: np.ndarray, goal_points: int) -> float:
    """What writing in row h is worth beyond the cell: an unlocked bonus and, on a goal row, its points."""
    if rowfill[p, h] == cols - 1:
        return _ROW_VALUE + goal_points * isgoal[h]  # type: ignore[no-any-return]  # compiled: float64
    return 0.0


@no_refcount
def write_cell(sheet: np.ndarray, rowfill: np.ndarray, p: int, c: int, h: int, n: int, cols: int) -> bool:
    """Write n at (c, h) of player p's sheet; True when this completes row h."""
    sheet[p, c, h] = n
    rowfill[p, h] += 1
    return rowfill[p, h] == cols  # type: ignore[no-any-return]  # compiled: a boolean scalar


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


class Params(NamedTuple):
    """The rule numbers of one setting, as the compiled loop takes them (`sim.Setup.params` builds it)."""

    players: int
    cols: int
    rows: int
    nmin: int
    nmax: int
    rounds: int
    bkind: np.ndarray
    """Per row from the BOTTOM: 0 = number bonus, 1 = suit (X) bonus."""
    bval: np.ndarray
    """Per row from the bottom: the bonus number, or the X bonus's column."""
    revealed: int
    goal_points: int
    x_any: bool
    """House rule: an X bonus may write numbers outside nmin..nmax."""
    any_order: bool
    """House rule: announced cards are taken in any order (else offered in seat order)."""


class Tallies(NamedTuple):
    """What a chunk of games fills in: per game [G, P] and summed counters (rows indexed from the bottom)."""

    score: np.ndarray
    colsdone: np.ndarray
    seatpol: np.ndarray
    rows_done: np.ndarray
    fired: np.ndarray
    used: np.ndarray
    counts: np.ndarray
    """N_COUNTS counters, indexed by the COUNT_* constants."""


class Record(NamedTuple):
    """The decision log of a recorded chunk (`on` False: nothing is written, the arrays are stubs)."""

    on: bool
    log: np.ndarray
    """LOG_WIDTH columns per decision (see LOG_WIDTH)."""
    nlog: np.ndarray
    """nlog[0]: decisions logged."""
    decks: np.ndarray
    """decks[g]: the dealt deck of game g (cards encoded suit * span + number - nmin)."""
    goal_log: np.ndarray
    """goal_log[g]: the revealed goal rows of game g (h from the bottom)."""


class Workspace(NamedTuple):
    """The game loop's scratch arrays, made once per chunk (the loop itself allocates nothing)."""

    deck: np.ndarray
    gperm: np.ndarray
    sheet: np.ndarray
    rowfill: np.ndarray
    unseen: np.ndarray
    isgoal: np.ndarray
    pol: np.ndarray
    cs: np.ndarray
    cn: np.ndarray
    placeable: np.ndarray
    glo: np.ndarray
    ghi: np.ndarray
    pre: np.ndarray
    kopen: np.ndarray


@no_refcount  # called in place, not inlined (see decide_number)
def cascade(
    pol: int,
    rng: np.ndarray,
    prm: Params,
    ws: Workspace,
    out: Tallies,
    rec: Record,
    p: int,
    h: int,
    u_total: int,
    rounds_left: int,
    g: int,
) -> None:
    """Resolve the bonus of just-completed row h and every row its writes complete in turn."""
    rows, cols, nmin, nmax, goal_points, x_any = (
        prm.rows,
        prm.cols,
        prm.nmin,
        prm.nmax,
        prm.goal_points,
        prm.x_any,
    )
    bkind, bval = prm.bkind, prm.bval
    sheet, rowfill, isgoal, unseen, pre = ws.sheet, ws.rowfill, ws.isgoal, ws.unseen, ws.pre
    fired, used = out.fired, out.used
    while True:
        fired[h] += 1
        if bkind[h] == 0:
            n = int(bval[h])
            c, h2 = decide_number(
                pol,
                rng,
                sheet,
                rowfill,
                p,
                -1,
                n,
                rows,
                cols,
                nmin,
                nmax,
                isgoal,
                goal_points,
                unseen,
                u_total,
                rounds_left,
                True,
            )
        else:
            c = int(bval[h])
            h2, n = suit_choice(
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
            if h2 == -2:
                c = -2
            elif h2 == -1:
                c = -1
        if c == -2:
            return
        if c == -1:
            if rec.on:
                log_decision(rec.log, rec.nlog, g, p, KIND_BONUS, -1, 0, 0)
            return
        used[h] += 1
        if rec.on:
            log_decision(rec.log, rec.nlog, g, p, KIND_BONUS, c, h2, n)
        if not write_cell(sheet, rowfill, p, c, h2, n, cols):
            return
        h = h2


@no_refcount
def column_run(sheet: np.ndarray, p: int, c: int, rows: int) -> int:
    """Longest run of vertically consecutive filled cells."""
    best = 0
    run = 0
    for h in range(rows):
        if sheet[p, c, h] != 0:
            run += 1
            if run > best:
                best = run
        else:
            run = 0
    return best


def workspace(players: int, cols: int, rows: int, nmin: int, nmax: int) -> Workspace:
    """Scratch for `play_loop`."""
    span = nmax - nmin + 1
    z = np.zeros
    return Workspace(
        z(cols * span, np.int64),
        z(rows, np.int64),
        z((players, cols, rows), np.int64),
        z((players, rows), np.int64),
        z((cols, span), np.int64),
        z(rows, np.int64),
        z(players, np.int64),
        z(players, np.int64),
        z(players, np.int64),
        z(players, np.bool_),
        z(players, np.int64),
        z(players, np.int64),
        z(span + 1, np.int64),
        z(players, np.bool_),
    )


@jit_noref_entry  # also called from Python: by the kernel's Python path or its tests
def play_loop(
    rng: np.ndarray,
    games: int,
    mix: np.ndarray,
    rotate: bool,
    prm: Params,
    out: Tallies,
    rec: Record,
    ws: Workspace,
) -> None:
    """Play `games` games of setting `prm`; fill `out` (per-game score/colsdone/seatpol[g, p], summed
    counters) and, when `rec.on`, the decision log, decks and goal rows of `rec`. `ws` is a `workspace`.

    mix: policies to seat; seat p of game g plays mix[(p + g) % len(mix)] when rotate, else mix[p % len(mix)].
    """
    players, cols, rows, nmin, nmax, rounds = prm.players, prm.cols, prm.rows, prm.nmin, prm.nmax, prm.rounds
    revealed, goal_points, any_order = prm.revealed, prm.goal_points, prm.any_order
    score, colsdone, seatpol, rows_done, counts = (
        out.score,
        out.colsdone,
        out.seatpol,
        out.rows_done,
        out.counts,
    )
    record, log, nlog, decks, goal_log = rec.on, rec.log, rec.nlog, rec.decks, rec.goal_log
    deck, gperm, sheet, rowfill, unseen, isgoal = (
        ws.deck,
        ws.gperm,
        ws.sheet,
        ws.rowfill,
        ws.unseen,
        ws.isgoal,
    )
    pol, cs, cn, placeable, glo, ghi, kopen = ws.pol, ws.cs, ws.cn, ws.placeable, ws.glo, ws.ghi, ws.kopen
    span = nmax - nmin + 1
    total = cols * span
    need = min(players * rounds, total)
    nmix = mix.shape[0]  # not `k`: the announced-card step below reuses k for a card index
    for g in range(games):
        # a partial Fisher-Yates: only the cards dealt need a random place
        for i in range(total):
            deck[i] = i
        for i in range(need):
            j = i + int(rand_below(rng, total - i))
            tmp = deck[i]
            deck[i] = deck[j]
            deck[j] = tmp
        for i in range(rows):
            gperm[i] = i
        shuffle_inplace(rng, gperm)
        isgoal[:] = 0
        for j in range(revealed):
            isgoal[gperm[j]] = 1
            if record:
                goal_log[g, j] = gperm[j]
        if record:
            for i in range(players * rounds):
                decks[g, i] = deck[i]
        sheet[:, :, :] = 0
        rowfill[:, :] = 0
        unseen[:, :] = 1
        u_total = total
        for p in range(players):
            pol[p] = mix[(p + g) % nmix] if rotate else mix[p % nmix]
            seatpol[g, p] = pol[p]
        for t in range(rounds):
            left = rounds - t - 1
            for p in range(players):
                card = deck[t * players + p]
                cs[p] = card // span
                cn[p] = card % span + nmin
                unseen[cs[p], cn[p] - nmin] = 0
            u_total -= players
            announced = 0
            for p in range(players):
                lo, hi = find_gap(sheet, p, cs[p], rows, cn[p])
                placeable[p] = lo != -2 and hi - lo >= 2
                glo[p] = lo
                ghi[p] = hi
                counts[COUNT_DRAWN] += 1
                if not placeable[p]:
                    counts[COUNT_UNPLACEABLE] += 1
                    announced += 1
            for p in range(players):
                if not placeable[p]:
                    continue
                c = cs[p]
                h, _ = choose_in_gap(
                    pol[p],
                    rng,
                    sheet,
                    rowfill,
                    p,
                    c,
                    cn[p],
                    glo[p],
                    ghi[p],
                    rows,
                    cols,
                    nmin,
                    nmax,
                    isgoal,
                    goal_points,
                    unseen,
                    u_total,
                    left,
                )
                if record:
                    log_decision(log, nlog, g, p, KIND_OWN, c, h, cn[p])
                if write_cell(sheet, rowfill, p, c, h, cn[p], cols):
                    cascade(pol[p], rng, prm, ws, out, rec, p, h, u_total, left, g)
            if announced == 0:
                continue  # no card to offer: every step below would decide nothing and draw nothing
            for p in range(players):
                if any_order:
                    for q in range(players):
                        kopen[q] = q != p and not placeable[q]
                    while True:
                        k, c, h = announced_choice(
                            pol[p],
                            rng,
                            sheet,
                            rowfill,
                            p,
                            cs,
                            cn,
                            kopen,
                            rows,
                            cols,
                            nmin,
                            nmax,
                            isgoal,
                            goal_points,
                            unseen,
                            u_total,
                            left,
                        )
                        if k == -2:
                            break
                        counts[COUNT_ANNOUNCED_OFFERED] += 1
                        if k == -1:
                            if record:
                                log_decision(log, nlog, g, p, KIND_ANNOUNCED, -1, 0, 0)
                            break
                        if record:
                            log_decision(log, nlog, g, p, KIND_ANNOUNCED, c, h, cn[k])
                        kopen[k] = False
                        counts[COUNT_ANNOUNCED_WRITTEN] += 1
                        if write_cell(sheet, rowfill, p, c, h, cn[k], cols):
                            cascade(pol[p], rng, prm, ws, out, rec, p, h, u_total, left, g)
                    continue
                for q in range(players):
                    if q == p or placeable[q]:
                        continue
                    c, h = decide_number(
                        pol[p],
                        rng,
                        sheet,
                        rowfill,
                        p,
                        cs[q],
                        cn[q],
                        rows,
                        cols,
                        nmin,
                        nmax,
                        isgoal,
                        goal_points,
                        unseen,
                        u_total,
                        left,
                        True,
                    )
                    if c == -2:
                        continue
                    counts[COUNT_ANNOUNCED_OFFERED] += 1
                    if record:
                        log_decision(log, nlog, g, p, KIND_ANNOUNCED, c, h, cn[q])
                    if c == -1:
                        continue
                    counts[COUNT_ANNOUNCED_WRITTEN] += 1
                    if write_cell(sheet, rowfill, p, c, h, cn[q], cols):
                        cascade(pol[p], rng, prm, ws, out, rec, p, h, u_total, left, g)
        for p in range(players):
            s = 0
            done = 0
            for c in range(cols):
                run = column_run(sheet, p, c, rows)
                s += run
                if run == rows:  # the longest run is the whole column exactly when every cell is filled
                    done += 1
            for h in range(rows):
                if rowfill[p, h] == cols:
                    rows_done[h] += 1
                    if isgoal[h] == 1:
                        s += goal_points
                        counts[COUNT_GOALS_COMPLETED] += 1
            counts[COUNT_GOALS_POSSIBLE] += revealed
            score[g, p] = s
            colsdone[g, p] = done
