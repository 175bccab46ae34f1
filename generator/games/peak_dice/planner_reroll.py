"""The planner's re-roll: which dice to roll again, the expected total of each set (one die,
two dice, larger sets by memo), and the running top-2 of gains it reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from generator.engine.kernel import jit_inline, jit_noref, jit_noref_entry
from generator.games.peak_dice.sheet import Setup, Workspace, colour_sums

if TYPE_CHECKING:
    pass
from generator.games.peak_dice.planner import (
    DR_COUNT,
    DR_MASK,
    DR_ROWS,
    DR_TWIN,
    DR_WHITE,
    NO_GAIN,
    Plan,
    PlanWork,
    forced_floor,
    plan_bound,
    refresh_gains,
    top2_value,
)

TIE = 1e-9
"""A re-roll must beat keeping the roll, and every set tried before it, by more than this: sets of equal value
(say, one that adds a die counting only for full rows) go to the smaller set and the lower mask, whatever
the rounding of their sums."""


@jit_inline
def _count_twins(drows: np.ndarray, faces: np.ndarray, twins: np.ndarray) -> None:
    """twins[d]: lower dice with the same faces showing the same face (a set with one of them in place of d
    was tried before and has the same value)."""
    for d in range(faces.shape[0]):
        twins[d] = 0
        for e in range(d):
            if drows[e, DR_TWIN] == drows[d, DR_TWIN] and faces[e] == faces[d]:
                twins[d] += 1


@jit_inline
def _white_memo(
    setup: Setup,
    faces: np.ndarray,
    sums: np.ndarray,
    tp: np.ndarray,
    drows: np.ndarray,
    memo: np.ndarray,
    neg_m: float,
    lim: float,
) -> int:
    """memo[w]: the value of the roll with the white dice totalling w, the other dice as rolled; returns the
    white dice's total as rolled."""
    dice_value, dice_faces = setup.dice_value, setup.dice_faces
    rows = tp.shape[0]
    white = 0
    w_lo = 0
    w_hi = 0
    for d in range(faces.shape[0]):
        if drows[d, DR_WHITE] == 1:
            white += dice_value[d, faces[d]]
            lo = dice_value[d, 0]
            hi = dice_value[d, 0]
            for k in range(dice_faces[d]):
                lo = min(lo, dice_value[d, k])
                hi = max(hi, dice_value[d, k])
            w_lo += lo
            w_hi += hi
    if w_hi > 0:
        for w in range(w_lo, w_hi + 1):
            t1 = NO_GAIN
            t2 = NO_GAIN
            for r in range(rows):
                x = tp[r, sums[r] - white + w]
                t2 = max(t2, min(t1, x))
                t1 = max(t1, x)
            memo[w] = top2_value(t1, t2, neg_m, lim)
    return white


@jit_inline
def _rest_top2(hit: int, now: np.ndarray, top_p: np.ndarray, neg_m: float) -> tuple[float, float, float]:
    """The top two gains (f1, f2) of the rows the set's dice (rows `hit`) cannot change, and the set's cap:
    the value with each row it can change at that row's best gain (top_p)."""
    f1 = NO_GAIN
    f2 = NO_GAIN
    c1 = NO_GAIN
    c2 = NO_GAIN
    for r in range(now.shape[0]):
        x = now[r]
        if (hit >> r) & 1:
            x = top_p[r]
        else:
            f2 = max(f2, min(f1, x))
            f1 = max(f1, x)
        c2 = max(c2, min(c1, x))
        c1 = max(c1, x)
    return f1, f2, top2_value(c1, c2, neg_m, neg_m)


@jit_inline
def _one_die_total(
    d: int,
    white: int,
    setup: Setup,
    faces: np.ndarray,
    sums: np.ndarray,
    tp: np.ndarray,
    pw: PlanWork,
    memo: np.ndarray,
    f1: float,
    f2: float,
    neg_m: float,
    lim: float,
) -> float:
    """The summed value of every outcome of re-rolling die d (f1, f2: the top two of the rows it cannot
    change)."""
    dice_value, add, drows, base = setup.dice_value, pw.add, pw.drows, pw.iwork[0]
    fd = faces[d]
    nk = setup.dice_faces[d]
    total = 0.0
    if drows[d, DR_WHITE] == 1:
        w = white - dice_value[d, fd]
        for k in range(nk):
            total += memo[w + dice_value[d, k]]
    elif drows[d, DR_COUNT] == 1:
        r0 = drows[d, DR_ROWS]
        s0 = sums[r0] - add[d, fd, r0]
        q2 = f2 if f2 > 0.0 else 0.0
        for k in range(nk):
            x = tp[r0, s0 + add[d, k, r0]]
            t1 = max(x, f1)
            total += (t1 if t1 > lim else neg_m) + max(min(x, f1), q2)
    else:
        for r in range(tp.shape[0]):
            base[r] = sums[r] - add[d, fd, r]
        for k in range(nk):
            t1 = f1
            t2 = f2
            for i in range(drows[d, DR_COUNT]):
                r = drows[d, DR_ROWS + i]
                x = tp[r, base[r] + add[d, k, r]]
                t2 = max(t2, min(t1, x))
                t1 = max(t1, x)
            total += top2_value(t1, t2, neg_m, lim)
    return total


@jit_inline
def _two_dice_total(
    d1: int,
    d2: int,
    white: int,
    setup: Setup,
    faces: np.ndarray,
    sums: np.ndarray,
    tp: np.ndarray,
    pw: PlanWork,
    memo: np.ndarray,
    f1: float,
    f2: float,
    cap: float,
    best_e: float,
    neg_m: float,
    lim: float,
) -> tuple[float, int]:
    """The summed value of the outcomes of re-rolling dice d1 < d2, and how many outcomes were left when it
    stopped early (all of them at `cap` could not beat best_e); 0 when every outcome counted."""
    dice_value, dice_faces, add, drows = setup.dice_value, setup.dice_faces, pw.add, pw.drows
    base, part = pw.iwork[0], pw.iwork[1]
    rows = tp.shape[0]
    fd1 = faces[d1]
    fd2 = faces[d2]
    n1 = dice_faces[d1]
    n_out = n1 * dice_faces[d2]
    total = 0.0
    left = n_out
    if drows[d1, DR_WHITE] == 1 and drows[d2, DR_WHITE] == 1:
        w = white - dice_value[d1, fd1] - dice_value[d2, fd2]
        for k2 in range(dice_faces[d2]):
            w2 = w + dice_value[d2, k2]
            for k1 in range(n1):
                total += memo[w2 + dice_value[d1, k1]]
        return total, 0
    for r in range(rows):
        base[r] = sums[r] - add[d1, fd1, r] - add[d2, fd2, r]
    outer_only = drows[d2, DR_MASK] & ~drows[d1, DR_MASK]
    need = best_e * n_out
    single = drows[d1, DR_COUNT] == 1
    r0 = drows[d1, DR_ROWS]
    for k2 in range(dice_faces[d2]):
        p1 = f1
        p2 = f2
        for r in range(rows):
            part[r] = base[r] + add[d2, k2, r]
            if (outer_only >> r) & 1:
                x = tp[r, part[r]]
                p2 = max(p2, min(p1, x))
                p1 = max(p1, x)
        if single:  # the lower die counts for one row: a look-up and three maxima per outcome
            s0 = part[r0]
            q2 = p2 if p2 > 0.0 else 0.0
            for k1 in range(n1):
                x = tp[r0, s0 + add[d1, k1, r0]]
                t1 = max(x, p1)
                total += (t1 if t1 > lim else neg_m) + max(min(x, p1), q2)
        else:
            for k1 in range(n1):
                t1 = p1
                t2 = p2
                for i in range(drows[d1, DR_COUNT]):
                    r = drows[d1, DR_ROWS + i]
                    x = tp[r, part[r] + add[d1, k1, r]]
                    t2 = max(t2, min(t1, x))
                    t1 = max(t1, x)
                total += top2_value(t1, t2, neg_m, lim)
        left -= n1
        if left > 0 and total + left * cap <= need:
            break
    return total, left


@jit_noref_entry  # also called from Python: by the kernel's Python path or its tests
def plan_reroll(
    setup: Setup,
    plan: Plan,
    ws: Workspace,
    pw: PlanWork,
    p: int,
    miss_cost: float,
    max_dice: int,
    large: bool | None = None,
) -> int:
    """Bit mask of the dice the planner re-rolls (0 = keep): among every set of 1..max_dice dice, the one
    whose exact expected roll value (plan_bound over every outcome of those dice; plan.forced: step B is
    compulsory) beats keeping the roll, and
    every set before it (smaller sets first, then lower masks), by more than TIE. The roll is ws.faces
    (ws.sums receives its sums); pw comes from plan_workspace. Sets of 3 or more dice only where `large`
    is not None (`large_sets(max_dice)`).

    The same choice as enumerating every outcome of every set, for a fraction of the work:
    - a set whose best conceivable outcome (each row it can change at that row's best gain, the others as
      rolled) cannot beat the best so far is skipped, and so is a set equal to one tried before (a die
      swapped for a twin showing the same face);
    - an outcome's value needs only the top two gains, so the rows a set cannot change enter as one top-2,
      and for 2 dice the rows only the higher die changes are looked up once per face of that die; a lower
      die that counts for one row (a coloured die) then costs one look-up per outcome, without branches;
    - sets of white dice only are valued by the white total, each total once per decision;
    - an enumeration stops as soon as its remaining outcomes, all at the set's bound, could not lift it
      above the best so far."""
    faces, sums, table = ws.faces, ws.sums, ws.table
    drows, top, fwork, iwork = pw.drows, pw.top, pw.fwork, pw.iwork
    forced = plan.forced
    rows = setup.peaks.shape[0]
    n_dice = faces.shape[0]
    colour_sums(setup.dice_colour, setup.dice_value, faces, rows, sums)
    refresh_gains(setup, plan, ws, pw, p)
    tp = table[p]
    now = fwork[0, :rows]
    memo = fwork[2]
    twins = iwork[2]
    neg_m = -miss_cost
    lim = forced_floor(miss_cost, forced)  # the outcomes' values; the pruning caps use neg_m (upper bounds)
    for r in range(rows):
        now[r] = tp[r, sums[r]]
    _count_twins(drows, faces, twins)
    white = _white_memo(setup, faces, sums, tp, drows, memo, neg_m, lim)
    best_e = plan_bound(now, miss_cost, forced) + TIE
    best_mask = 0
    for d in range(n_dice if max_dice >= 1 else 0):
        if twins[d] > 0:
            continue
        f1, f2, cap = _rest_top2(drows[d, DR_MASK], now, top[p], neg_m)
        if cap <= best_e:
            continue
        total = _one_die_total(d, white, setup, faces, sums, tp, pw, memo, f1, f2, neg_m, lim)
        nk = setup.dice_faces[d]
        if total / nk > best_e:
            best_e = total / nk + TIE
            best_mask = 1 << d
    for d2 in range(n_dice if max_dice >= 2 else 0):
        for d1 in range(d2):
            if twins[d1] > 0 or twins[d2] > (
                1 if drows[d1, DR_TWIN] == drows[d2, DR_TWIN] and faces[d1] == faces[d2] else 0
            ):
                continue
            f1, f2, cap = _rest_top2(drows[d1, DR_MASK] | drows[d2, DR_MASK], now, top[p], neg_m)
            if cap <= best_e:
                continue
            n_out = setup.dice_faces[d1] * setup.dice_faces[d2]
            total, left = _two_dice_total(
                d1, d2, white, setup, faces, sums, tp, pw, memo, f1, f2, cap, best_e, neg_m, lim
            )
            if left == 0 and total / n_out > best_e:
                best_e = total / n_out + TIE
                best_mask = (1 << d1) | (1 << d2)
    if large is not None:  # a None `large` removes this branch, and plan_reroll_large, before compiling
        if max_dice >= 3:
            best_e, best_mask = plan_reroll_large(
                setup, plan, ws, pw, p, miss_cost, max_dice, best_e, best_mask
            )
    return best_mask


def large_sets(max_dice: int) -> bool | None:
    """plan_reroll's `large` for sets of up to `max_dice` dice: True from 3 dice (plan_reroll_large), None
    below. numba drops an `is not None` branch on an argument typed None before it compiles, so a planner
    that considers at most pairs (the default, every shipped kit) never compiles plan_reroll_large: 1.1
    CPU-s, and its machine code linked into plan_reroll and the game loop."""
    return True if max_dice >= 3 else None


@jit_noref
def plan_reroll_large(
    setup: Setup,
    plan: Plan,
    ws: Workspace,
    pw: PlanWork,
    p: int,
    miss_cost: float,
    max_dice: int,
    best_e: float,
    best_mask: int,
) -> tuple[float, int]:
    """plan_reroll's sets of 3..max_dice dice (not used by the default planner): every outcome enumerated,
    with the same bound and early stop; returns the updated (best value, best mask)."""
    faces, sums, table = ws.faces, ws.sums, ws.table
    dice_colour, dice_value, dice_faces = setup.dice_colour, setup.dice_value, setup.dice_faces
    top, fwork, iwork = pw.top, pw.fwork, pw.iwork
    forced = plan.forced
    rows = sums.shape[0]
    n_dice = faces.shape[0]
    now = fwork[0, :rows]
    bound = fwork[1, :rows]
    sel = iwork[0]
    cur = iwork[1]
    base = iwork[2]
    trial = iwork[3]
    touches = iwork[4]
    for d in range(n_dice):
        touches[d] = 0
        for k in range(dice_faces[d]):
            c = dice_colour[d, k]
            touches[d] |= ((1 << rows) - 1) if c == rows else (1 << c)
    for size in range(3, max_dice + 1):
        for mask in range(1, 1 << n_dice):
            m = 0
            rows_hit = 0
            for d in range(n_dice):
                if (mask >> d) & 1:
                    sel[m] = d
                    m += 1
                    rows_hit |= touches[d]
            if m != size:
                continue
            for r in range(rows):
                bound[r] = top[p, r] if (rows_hit >> r) & 1 else now[r]
            cap = plan_bound(bound, miss_cost, False)  # an upper bound of the forced value too
            if cap <= best_e:
                continue
            for r in range(rows):
                base[r] = sums[r]
            n_out = 1
            for j in range(m):
                d = sel[j]
                c = dice_colour[d, faces[d]]
                v = dice_value[d, faces[d]]
                for r in range(rows):
                    if c == rows or c == r:
                        base[r] -= v
                cur[j] = 0
                n_out *= dice_faces[d]
            need = best_e * n_out
            total = 0.0
            left = n_out
            while left > 0:
                for r in range(rows):
                    trial[r] = base[r]
                for j in range(m):
                    d = sel[j]
                    c = dice_colour[d, cur[j]]
                    v = dice_value[d, cur[j]]
                    for r in range(rows):
                        if c == rows or c == r:
                            trial[r] += v
                for r in range(rows):
                    bound[r] = table[p, r, trial[r]]
                total += plan_bound(bound, miss_cost, forced)
                left -= 1
                if total + left * cap <= need:
                    break
                j = 0
                while j < m:
                    cur[j] += 1
                    if cur[j] < dice_faces[sel[j]]:
                        break
                    cur[j] = 0
                    j += 1
            if left == 0 and total / n_out > best_e:
                best_e = total / n_out + TIE
                best_mask = mask
    return best_e, best_mask
