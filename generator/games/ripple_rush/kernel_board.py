"""The sheet as the kernel reads and writes it: gaps in a column, neighbours, values, the range an X
bonus allows, row values; and the kernel's counters and decorators."""

from __future__ import annotations

import math

import numpy as np

from generator.engine.kernel import jit_inline, jit_noref

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
