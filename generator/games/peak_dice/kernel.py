"""Hot loops of Peak Dice: plain functions over numpy arrays, compiled by `generator.engine.kernel.jit`.

One call of `play_games` plays a whole chunk of games and fills per-game arrays; with an event log it plays
one game and records every roll, re-roll, write, pass and miss so the reference rules can replay it.
The same functions run uncompiled (`fn.py_func`, PNPKIT_PURE=1) and give the same results bit for bit.

Sheet state: sheet[p, r, i] is the value in circle i of row r of player p; filled[p, r] how many circles
of that row are filled (left to right, no skipping); misses[p] the checked miss boxes; dead[p] = 1 once
some row of p can no longer be completed with achievable sums.
"""

from __future__ import annotations

import numpy as np

from generator.engine.kernel import jit, rand_below

NEG = -1.0e9
"""Utility of a write that is illegal or leaves its row impossible to complete."""

POLICY_RANDOM = 0
POLICY_GREEDY = 1
POLICY_REROLL = 2
POLICY_PLANNER = 3
POLICY_PLANNER_KEEP = 4

EV_ROLL = 1
EV_REROLL = 2
EV_WRITE_B = 3
EV_PASS_B = 4
EV_WRITE_C = 5
EV_PASS_C = 6
EV_MISS = 7
EV_END = 8

END_FULL = 0
END_STALLED = 1
END_LIMIT = 2



@jit
def colour_sums(dice_colour: np.ndarray, dice_value: np.ndarray, faces: np.ndarray, rows: int,
                sums: np.ndarray) -> None:
    """sums[r] = values of faces showing colour r + values of all white faces (white index = rows)."""
    for r in range(rows):
        sums[r] = 0
    for d in range(faces.shape[0]):
        c = dice_colour[d, faces[d]]
        v = dice_value[d, faces[d]]
        if c == rows:
            for r in range(rows):
                sums[r] += v
        else:
            sums[c] += v


@jit
def is_legal_write(sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int,
                   p: int, r: int, v: int) -> bool:
    """Writing v next in row r of player p: a free circle, rising up to the peak line, falling after it."""
    f = filled[p, r]
    if f >= row_length:
        return False
    if f == 0:
        return True
    a = sheet[p, r, f - 1]
    if f < peaks[r]:
        return v > a
    return v < a


@jit
def row_completable(sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int,
                    cnt_lt: np.ndarray, totals: np.ndarray, p: int, r: int) -> bool:
    """Row r of player p can still be filled with achievable sums (rising to the peak, falling after)."""
    f = filled[p, r]
    pk = peaks[r]
    if f >= row_length:
        return True
    if f == 0:
        need = pk - 1 if pk - 1 > row_length - pk else row_length - pk
        return totals[r] - 1 >= need
    a = sheet[p, r, f - 1]
    if f < pk:
        # values above a up to the top sum, then row_length - pk values below the top sum
        return totals[r] - cnt_lt[r, a + 1] >= pk - f and totals[r] - 1 >= row_length - pk
    return cnt_lt[r, a] >= row_length - f


@jit
def write_utility(sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int,
                  cnt_lt: np.ndarray, totals: np.ndarray, mass_lt: np.ndarray, p: int, r: int, v: int) -> float:
    """How well writing v fits row r: 1 = skips no achievable value, <= 0 = skips more than the row's fair
    share of slack; NEG when illegal or when the row could no longer be completed."""
    if not is_legal_write(sheet, filled, peaks, row_length, p, r, v):
        return NEG
    f = filled[p, r]
    pk = peaks[r]
    f1 = f + 1
    tot = totals[r]
    if f1 < row_length:
        if f1 < pk:
            if tot - cnt_lt[r, v + 1] < pk - f1:
                return NEG
        elif cnt_lt[r, v] < row_length - f1:
            return NEG
    # waste and slack are probability masses of the colour's sum (mass_lt[r, v] = P(sum < v)), so skipping
    # a value that is rarely rolled costs little; each write may use its fair share of the remaining slack
    if f1 < pk:  # rising, before the peak: skipped = mass strictly between the last value and v
        below = 0.0
        if f > 0:
            below = mass_lt[r, sheet[p, r, f - 1] + 1]
        waste = mass_lt[r, v] - below
        allowed = (1.0 - below) / (pk - f)
    elif f1 == pk:  # the peak: mass above it is lost to the falling part
        waste = 1.0 - mass_lt[r, v + 1]
        allowed = 1.0 / (row_length - pk + 1)
    else:  # falling: skipped = mass strictly between v and the last value
        a = sheet[p, r, f - 1]
        waste = mass_lt[r, a] - mass_lt[r, v + 1]
        allowed = mass_lt[r, a] / (row_length - f)
    if allowed <= 0.0:
        return 1.0 if waste <= 0.0 else 0.0
    return 1.0 - waste / allowed


@jit
def best_colour(sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int,
                cnt_lt: np.ndarray, totals: np.ndarray, mass_lt: np.ndarray, p: int, sums: np.ndarray, forbidden: int,
                out_u: np.ndarray) -> int:
    """The legal colour (not `forbidden`) with the highest write utility, lowest index on ties; -1 if none is
    legal. out_u[0] receives its utility (NEG for a legal write that dooms its row)."""
    best = -1
    best_u = NEG - 1.0
    for r in range(peaks.shape[0]):
        if r == forbidden:
            continue
        if not is_legal_write(sheet, filled, peaks, row_length, p, r, sums[r]):
            continue
        u = write_utility(sheet, filled, peaks, row_length, cnt_lt, totals, mass_lt, p, r, sums[r])
        if u > best_u:
            best_u = u
            best = r
    out_u[0] = best_u
    return best


@jit
def random_colour(rng: np.ndarray, sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int,
                  p: int, sums: np.ndarray, forbidden: int, may_pass: bool, scratch: np.ndarray) -> int:
    """Uniform choice among the legal colours (not `forbidden`) and, when allowed, passing (-1)."""
    n = 0
    for r in range(peaks.shape[0]):
        if r != forbidden and is_legal_write(sheet, filled, peaks, row_length, p, r, sums[r]):
            scratch[n] = r
            n += 1
    if n == 0:
        return -1
    if may_pass:
        scratch[n] = -1
        n += 1
    return int(scratch[rand_below(rng, n)])


@jit
def refresh_table(sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int, cnt_lt: np.ndarray,
                  totals: np.ndarray, mass_lt: np.ndarray, p: int, table: np.ndarray, dirty: np.ndarray) -> None:
    """table[p, r, v] = write_utility of sum v in row r of player p; only rows written since the last refresh
    (dirty[p, r] = 1) are recomputed."""
    for r in range(peaks.shape[0]):
        if dirty[p, r] == 0:
            continue
        for v in range(table.shape[2]):
            table[p, r, v] = write_utility(sheet, filled, peaks, row_length, cnt_lt, totals, mass_lt, p, r, v)
        dirty[p, r] = 0


@jit
def plan_value(table: np.ndarray, p: int, sums: np.ndarray) -> float:
    """Value of a roll for the active player: the two best positive write utilities (B and C take different
    colours), or -1 when no write is worth making."""
    u1 = 0.0
    u2 = 0.0
    for r in range(sums.shape[0]):
        u = table[p, r, sums[r]]
        if u > u1:
            u2 = u1
            u1 = u
        elif u > u2:
            u2 = u
    if u1 <= 0.0:
        return -1.0
    return u1 + u2


@jit
def choose_reroll(policy: int, rng: np.ndarray, sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray,
                  row_length: int, cnt_lt: np.ndarray, totals: np.ndarray, mass_lt: np.ndarray,
                  dice_colour: np.ndarray, dice_value: np.ndarray, dice_faces: np.ndarray, p: int,
                  faces: np.ndarray, sums: np.ndarray, table: np.ndarray, dirty: np.ndarray,
                  trial: np.ndarray) -> int:
    """Bit mask of the dice the active player re-rolls (0 = keep). random: a uniform subset; greedy: never;
    reroll: the single die whose exact expected re-roll value beats keeping the roll, if any."""
    n_dice = faces.shape[0]
    if policy == POLICY_RANDOM:
        mask = 0
        for d in range(n_dice):
            if rand_below(rng, 2) == 1:
                mask |= 1 << d
        return mask
    if policy != POLICY_REROLL:
        return 0
    rows = peaks.shape[0]
    colour_sums(dice_colour, dice_value, faces, rows, sums)
    refresh_table(sheet, filled, peaks, row_length, cnt_lt, totals, mass_lt, p, table, dirty)
    keep = plan_value(table, p, sums)
    if keep >= 2.0:
        return 0
    best_d = -1
    best_e = keep + 1e-9
    for d in range(n_dice):
        c_old = dice_colour[d, faces[d]]
        v_old = dice_value[d, faces[d]]
        total = 0.0
        for k in range(dice_faces[d]):
            c_new = dice_colour[d, k]
            v_new = dice_value[d, k]
            for r in range(rows):
                x = sums[r]
                if c_old == rows or c_old == r:
                    x -= v_old
                if c_new == rows or c_new == r:
                    x += v_new
                trial[r] = x
            total += plan_value(table, p, trial)
        e = total / dice_faces[d]
        if e > best_e:
            best_e = e
            best_d = d
    if best_d < 0:
        return 0
    return 1 << best_d


@jit
def choose_b(policy: int, rng: np.ndarray, sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray,
             row_length: int, cnt_lt: np.ndarray, totals: np.ndarray, mass_lt: np.ndarray, p: int, sums: np.ndarray,
             may_pass: bool, scratch: np.ndarray, out_u: np.ndarray) -> int:
    """Step B for the active player: a legal colour or -1 (pass, or no legal colour)."""
    if policy == POLICY_RANDOM:
        return random_colour(rng, sheet, filled, peaks, row_length, p, sums, -1, may_pass, scratch)
    c = best_colour(sheet, filled, peaks, row_length, cnt_lt, totals, mass_lt, p, sums, -1, out_u)
    if c >= 0 and out_u[0] <= NEG and may_pass:
        return -1  # every legal write would doom its row: pass and hope for step C / take the miss
    return c


@jit
def choose_c(policy: int, rng: np.ndarray, sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray,
             row_length: int, cnt_lt: np.ndarray, totals: np.ndarray, mass_lt: np.ndarray, p: int, sums: np.ndarray,
             forbidden: int, avoid_miss: bool, scratch: np.ndarray, out_u: np.ndarray) -> int:
    """Step C for player p: a legal colour other than `forbidden`, or -1. Greedy writes when the value fits
    the row's slack, or (avoid_miss: the active player wrote nothing yet) whenever the row stays completable."""
    if policy == POLICY_RANDOM:
        return random_colour(rng, sheet, filled, peaks, row_length, p, sums, forbidden, True, scratch)
    c = best_colour(sheet, filled, peaks, row_length, cnt_lt, totals, mass_lt, p, sums, forbidden, out_u)
    if c < 0:
        return -1
    if out_u[0] > 0.0 or (avoid_miss and out_u[0] > NEG):
        return c
    return -1


@jit
def plan_table(peaks: np.ndarray, row_length: int, mass_lt: np.ndarray, weight: float, tempos: np.ndarray,
               plan_v: np.ndarray, plan_q: np.ndarray) -> None:
    """The planner's row values, by backward induction over one row at a time.

    A row alone sees one fresh roll of its colour's sum per opportunity; each opportunity costs a tempo (the
    game ends when any sheet is full, so a row that waits for rare sums loses its columns, and a sheet with
    few open rows takes misses while it waits), and writing v earns `weight * v` (a column scores one of its
    values). Level k (0-based) is a sheet with k + 1 rows still open, waiting there costs tempos[k].
    plan_v[k, r, f, a] is the expected value of row r with f circles filled, the last holding a, under the
    best write-or-wait rule: the x solving x = -tempos[k] + sum_v P(v) * max(x, plan_q[k, r, f, v]) over
    the legal v (the others can only wait); plan_q[k, r, f, v] = weight * v + plan_v[k, r, f + 1, v] is the
    value of writing v in circle f + 1. NEG marks states from which the row cannot be completed. Both arrays
    are float64[levels, rows, row_length + 1, values]; at f = 0 every a holds the same number."""
    rows = peaks.shape[0]
    nv = plan_v.shape[3]
    rv = np.zeros(nv, dtype=np.float64)
    pv = np.zeros(nv, dtype=np.float64)
    for lv in range(plan_v.shape[0]):
        tempo = tempos[lv]
        for r in range(rows):
            pk = peaks[r]
            for a in range(nv):
                plan_v[lv, r, row_length, a] = 0.0
                plan_q[lv, r, row_length, a] = NEG
            for f in range(row_length - 1, -1, -1):
                for v in range(nv):
                    if plan_v[lv, r, f + 1, v] <= NEG * 0.5:
                        plan_q[lv, r, f, v] = NEG
                    else:
                        plan_q[lv, r, f, v] = weight * v + plan_v[lv, r, f + 1, v]
                for a in range(nv):
                    if f == 0 and a > 0:
                        plan_v[lv, r, f, a] = plan_v[lv, r, f, 0]
                        continue
                    # the legal, completable writes, best first (insertion sort of at most `nv` values)
                    n = 0
                    for v in range(nv):
                        p = mass_lt[r, v + 1] - mass_lt[r, v]
                        if p <= 0.0 or plan_q[lv, r, f, v] <= NEG * 0.5:
                            continue
                        if f > 0 and ((f < pk and v <= a) or (f >= pk and v >= a)):
                            continue
                        q = plan_q[lv, r, f, v]
                        i = n
                        while i > 0 and rv[i - 1] < q:
                            rv[i] = rv[i - 1]
                            pv[i] = pv[i - 1]
                            i -= 1
                        rv[i] = q
                        pv[i] = p
                        n += 1
                    x = NEG
                    cum_p = 0.0
                    cum_pr = 0.0
                    for k in range(n):
                        cum_p += pv[k]
                        cum_pr += pv[k] * rv[k]
                        xk = (cum_pr - tempo) / cum_p
                        if k + 1 == n or xk >= rv[k + 1]:
                            x = xk
                            break
                    plan_v[lv, r, f, a] = x


@jit
def open_rows(filled: np.ndarray, row_length: int, p: int) -> int:
    """How many rows of player p still have an empty circle."""
    n = 0
    for r in range(filled.shape[1]):
        if filled[p, r] < row_length:
            n += 1
    return n


@jit
def plan_gain(sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int, plan_v: np.ndarray,
              plan_q: np.ndarray, lv: int, p: int, r: int, v: int) -> float:
    """The planner's gain of writing v now in row r of player p over waiting for a better roll, on level
    lv's tables; NEG when illegal or when the row could no longer be completed."""
    if not is_legal_write(sheet, filled, peaks, row_length, p, r, v):
        return NEG
    if v >= plan_q.shape[3]:
        return NEG
    f = filled[p, r]
    q = plan_q[lv, r, f, v]
    if q <= NEG * 0.5:
        return NEG
    a = sheet[p, r, f - 1] if f > 0 else 0
    return q - plan_v[lv, r, f, a]


@jit
def refresh_gains(sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int,
                  plan_v: np.ndarray, plan_q: np.ndarray, p: int, table: np.ndarray, dirty: np.ndarray) -> None:
    """table[p, r, v] = plan_gain of sum v in row r of player p, for the rows written since the last refresh
    (do_write marks every row of a sheet dirty when one of its rows fills up: the level changes)."""
    lv = open_rows(filled, row_length, p) - 1
    if lv < 0:
        lv = 0
    for r in range(peaks.shape[0]):
        if dirty[p, r] == 0:
            continue
        for v in range(table.shape[2]):
            table[p, r, v] = plan_gain(sheet, filled, peaks, row_length, plan_v, plan_q, lv, p, r, v)
        dirty[p, r] = 0


@jit
def plan_bound(gains: np.ndarray, miss_cost: float) -> float:
    """What a roll is worth to the active player, from its per-row gains: the best two gains of different
    colours (B and C) when the best is worth writing; else the least bad write when it costs less than the
    miss, else the miss. In one pass: top1(max(g, -miss_cost)) + max(top2(g), 0)."""
    g1 = -miss_cost
    g2 = 0.0
    for r in range(gains.shape[0]):
        g = gains[r]
        if g > g1:
            if g1 > g2:
                g2 = g1
            g1 = g
        elif g > g2:
            g2 = g
    return g1 + g2


@jit
def plan_reroll(sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int,
                plan_v: np.ndarray, plan_q: np.ndarray, dice_colour: np.ndarray, dice_value: np.ndarray,
                dice_faces: np.ndarray, p: int, miss_cost: float, max_dice: int, faces: np.ndarray,
                sums: np.ndarray, table: np.ndarray, dirty: np.ndarray, trial: np.ndarray) -> int:
    """Bit mask of the dice the planner re-rolls (0 = keep): among every set of 1..max_dice dice, the one whose
    exact expected roll value (plan_bound over every outcome of those dice) beats keeping the roll by
    the most; smaller sets and lower masks win ties.

    Exactness is kept while most sets are skipped: a set whose best conceivable outcome (each row it can
    change at that row's best gain, the others as rolled) cannot beat the best so far is not enumerated,
    and an enumeration stops as soon as its remaining outcomes, all at that bound, could not lift it above
    the best so far (so the choice is the one full enumeration would make)."""
    rows = peaks.shape[0]
    n_dice = faces.shape[0]
    colour_sums(dice_colour, dice_value, faces, rows, sums)
    refresh_gains(sheet, filled, peaks, row_length, plan_v, plan_q, p, table, dirty)
    now = np.empty(rows, dtype=np.float64)
    top = np.empty(rows, dtype=np.float64)
    bound = np.empty(rows, dtype=np.float64)
    for r in range(rows):
        now[r] = table[p, r, sums[r]]
        m = NEG
        for v in range(table.shape[2]):
            if table[p, r, v] > m:
                m = table[p, r, v]
        top[r] = m
    touches = np.zeros(n_dice, dtype=np.int64)  # bit r: some face of the die counts for row r
    for d in range(n_dice):
        for k in range(dice_faces[d]):
            c = dice_colour[d, k]
            touches[d] |= ((1 << rows) - 1) if c == rows else (1 << c)
    best_e = plan_bound(now, miss_cost) + 1e-9
    best_mask = 0
    sel = np.zeros(n_dice, dtype=np.int64)
    cur = np.zeros(n_dice, dtype=np.int64)
    base = np.zeros(rows, dtype=np.int64)
    for size in range(1, max_dice + 1):
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
                bound[r] = top[r] if (rows_hit >> r) & 1 else now[r]
            cap = plan_bound(bound, miss_cost)
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
                total += plan_bound(bound, miss_cost)
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
                best_e = total / n_out
                best_mask = mask
    return best_mask


@jit
def plan_choose(sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int,
                plan_v: np.ndarray, plan_q: np.ndarray, p: int, sums: np.ndarray, forbidden: int,
                may_pass: bool, avoid_miss: bool, miss_cost: float, table: np.ndarray, dirty: np.ndarray) -> int:
    """The planner's write for player p (step B: forbidden = -1; step C: the colour chosen in B): the colour
    with the highest gain when it is >= 0; when the write would save the active player a miss (avoid_miss),
    the best write costing less than the miss; when passing is not allowed, the best legal write. -1: pass."""
    refresh_gains(sheet, filled, peaks, row_length, plan_v, plan_q, p, table, dirty)
    best = -1
    best_g = NEG - 1.0
    for r in range(peaks.shape[0]):
        if r == forbidden or not is_legal_write(sheet, filled, peaks, row_length, p, r, sums[r]):
            continue
        g = table[p, r, sums[r]]
        if g > best_g:
            best_g = g
            best = r
    if best < 0:
        return -1
    if best_g >= 0.0 or (avoid_miss and best_g > -miss_cost and best_g > NEG * 0.5) or not may_pass:
        return best
    return -1


@jit
def do_write(sheet: np.ndarray, filled: np.ndarray, dead: np.ndarray, done: np.ndarray, dirty: np.ndarray,
             peaks: np.ndarray, row_length: int, cnt_lt: np.ndarray, totals: np.ndarray, p: int, r: int,
             v: int) -> None:
    """Write v in the next circle of row r of player p and update the full/dead bookkeeping."""
    sheet[p, r, filled[p, r]] = v
    filled[p, r] += 1
    done[p] += 1
    dirty[p, r] = 1
    if filled[p, r] == row_length:
        for i in range(dirty.shape[1]):
            dirty[p, i] = 1
    if not row_completable(sheet, filled, peaks, row_length, cnt_lt, totals, p, r):
        dead[p] = 1


@jit
def score_sheet(sheet: np.ndarray, filled: np.ndarray, row_length: int, misses: int, p: int,
                column: np.ndarray) -> int:
    """Sum of the complete columns' second lowest distinct values minus the miss penalty 1 + 2 + ... + misses."""
    rows = filled.shape[1]
    total = 0
    for i in range(row_length):
        complete = True
        for r in range(rows):
            if filled[p, r] <= i:
                complete = False
        if not complete:
            continue
        for r in range(rows):
            column[r] = sheet[p, r, i]
        column.sort()
        # second lowest distinct value (seed: 9, 10, 9, 12 -> 10); all equal -> that value
        second = column[0]
        for r in range(1, rows):
            if column[r] > column[0]:
                second = column[r]
                break
        total += second
    return total - misses * (misses + 1) // 2


@jit
def log_event(log: np.ndarray, n_log: np.ndarray, kind: int, turn: int, player: int, x: int, y: int,
              faces: np.ndarray) -> None:
    """Append one event row [kind, turn, player, x, y, faces...] when a log is kept."""
    i = n_log[0]
    if i >= log.shape[0]:
        return
    log[i, 0] = kind
    log[i, 1] = turn
    log[i, 2] = player
    log[i, 3] = x
    log[i, 4] = y
    for d in range(faces.shape[0]):
        log[i, 5 + d] = faces[d]
    n_log[0] = i + 1


@jit
def play_games(games: int, policies: np.ndarray, peaks: np.ndarray, row_length: int, dice_colour: np.ndarray,
               dice_value: np.ndarray, dice_faces: np.ndarray, cnt_lt: np.ndarray, totals: np.ndarray, mass_lt: np.ndarray,
               rerolls: int, step_b_optional: bool, plan_v: np.ndarray, plan_q: np.ndarray, plan_params: np.ndarray,
               turn_limit: int, rng: np.ndarray,
               out_scores: np.ndarray, out_misses: np.ndarray, out_turns: np.ndarray, out_end: np.ndarray,
               out_filled: np.ndarray, counts: np.ndarray, log: np.ndarray, n_log: np.ndarray) -> None:
    """Play `games` games, seat 0 starting, seat s playing policies[s].

    The planner policies read plan_v / plan_q (see plan_table), value the next miss, the k-th, at
    (k + plan_params[1]) * plan_params[0] points (it costs k and makes every later miss cost one more) and
    consider re-rolling sets of up to plan_params[2] dice.
    Per game g: out_scores[g, s], out_misses[g, s], out_turns[g], out_end[g] (END_*), out_filled[g, s].
    counts: [0] active turns, [1] turns with a miss, [2] turns with a re-roll, [3] B writes, [4] C writes.
    """
    n_players = policies.shape[0]
    rows = peaks.shape[0]
    n_dice = dice_faces.shape[0]
    cells = rows * row_length
    keep_log = log.shape[0] > 0
    sheet = np.zeros((n_players, rows, row_length), dtype=np.int64)
    filled = np.zeros((n_players, rows), dtype=np.int64)
    misses = np.zeros(n_players, dtype=np.int64)
    dead = np.zeros(n_players, dtype=np.int64)
    done = np.zeros(n_players, dtype=np.int64)
    faces = np.zeros(n_dice, dtype=np.int64)
    sums = np.zeros(rows, dtype=np.int64)
    scratch = np.zeros(rows + 2, dtype=np.int64)
    column = np.zeros(rows, dtype=np.int64)
    out_u = np.zeros(1, dtype=np.float64)
    table = np.zeros((n_players, rows, cnt_lt.shape[1] - 1), dtype=np.float64)
    dirty = np.ones((n_players, rows), dtype=np.int64)
    trial = np.zeros(rows, dtype=np.int64)
    reroll_dice = int(plan_params[2])
    for g in range(games):
        sheet[:] = 0
        filled[:] = 0
        misses[:] = 0
        dead[:] = 0
        done[:] = 0
        dirty[:] = 1
        active = 0
        turn = 0
        end = END_LIMIT
        while True:
            turn += 1
            pol = policies[active]
            # A: roll everything, then up to `rerolls` re-rolls of any subset
            for d in range(n_dice):
                faces[d] = rand_below(rng, dice_faces[d])
            if keep_log:
                log_event(log, n_log, EV_ROLL, turn, active, 0, 0, faces)
            rerolled = False
            planner = pol == POLICY_PLANNER or pol == POLICY_PLANNER_KEEP
            miss_cost = (misses[active] + 1 + plan_params[1]) * plan_params[0]
            for _ in range(rerolls):
                if pol == POLICY_PLANNER:
                    mask = plan_reroll(sheet, filled, peaks, row_length, plan_v, plan_q, dice_colour, dice_value,
                                       dice_faces, active, miss_cost, reroll_dice, faces, sums, table, dirty,
                                       trial)
                elif planner:
                    mask = 0
                else:
                    mask = choose_reroll(pol, rng, sheet, filled, peaks, row_length, cnt_lt, totals, mass_lt,
                                         dice_colour, dice_value, dice_faces, active, faces, sums, table, dirty,
                                         trial)
                if mask == 0:
                    break
                rerolled = True
                for d in range(n_dice):
                    if (mask >> d) & 1:
                        faces[d] = rand_below(rng, dice_faces[d])
                if keep_log:
                    log_event(log, n_log, EV_REROLL, turn, active, mask, 0, faces)
            colour_sums(dice_colour, dice_value, faces, rows, sums)
            counts[0] += 1
            if rerolled:
                counts[2] += 1
            # B: the active player writes one legal colour (or passes / cannot)
            if planner:
                b = plan_choose(sheet, filled, peaks, row_length, plan_v, plan_q, active, sums, -1, step_b_optional,
                                True, miss_cost, table, dirty)
            else:
                b = choose_b(pol, rng, sheet, filled, peaks, row_length, cnt_lt, totals, mass_lt, active, sums,
                             step_b_optional, scratch, out_u)
            wrote = False
            if b >= 0:
                do_write(sheet, filled, dead, done, dirty, peaks, row_length, cnt_lt, totals, active, b, sums[b])
                wrote = True
                counts[3] += 1
                if keep_log:
                    log_event(log, n_log, EV_WRITE_B, turn, active, b, sums[b], faces)
                if done[active] == cells:
                    end = END_FULL
                    break
            elif keep_log:
                log_event(log, n_log, EV_PASS_B, turn, active, -1, 0, faces)
            # C: everyone, active first, may write one colour the active player did not choose
            for i in range(n_players):
                p = (active + i) % n_players
                avoid = p == active and not wrote
                pp = policies[p]
                if pp == POLICY_PLANNER or pp == POLICY_PLANNER_KEEP:
                    c = plan_choose(sheet, filled, peaks, row_length, plan_v, plan_q, p, sums, b, True, avoid,
                                    miss_cost, table, dirty)
                else:
                    c = choose_c(pp, rng, sheet, filled, peaks, row_length, cnt_lt, totals, mass_lt, p, sums, b,
                                 avoid, scratch, out_u)
                if c >= 0:
                    do_write(sheet, filled, dead, done, dirty, peaks, row_length, cnt_lt, totals, p, c, sums[c])
                    counts[4] += 1
                    if p == active:
                        wrote = True
                    if keep_log:
                        log_event(log, n_log, EV_WRITE_C, turn, p, c, sums[c], faces)
                elif keep_log:
                    log_event(log, n_log, EV_PASS_C, turn, p, -1, 0, faces)
            if not wrote:
                misses[active] += 1
                counts[1] += 1
                if keep_log:
                    log_event(log, n_log, EV_MISS, turn, active, misses[active], 0, faces)
            full = False
            for p in range(n_players):
                if done[p] == cells:
                    full = True
            if full:
                end = END_FULL
                break
            alive = False
            for p in range(n_players):
                if dead[p] == 0:
                    alive = True
            if not alive:
                end = END_STALLED
                break
            if turn >= turn_limit:
                end = END_LIMIT
                break
            active = (active + 1) % n_players
        for p in range(n_players):
            out_scores[g, p] = score_sheet(sheet, filled, row_length, misses[p], p, column)
            out_misses[g, p] = misses[p]
            out_filled[g, p] = done[p]
        out_turns[g] = turn
        out_end[g] = end
        if keep_log:
            log_event(log, n_log, EV_END, turn, active, end, 0, faces)
