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
"""Utility of a write that is illegal or leaves its row impossible to complete (the planner's gain of an
illegal write; under a compulsory step B a legal write that ruins its row gets doom_gain instead)."""

DEAD_WRITE = 1.0
"""The planner's cost, in points, of a write in a row that can no longer be completed (on top of the circles
it makes unreachable): less than any miss, so a player with a ruined row writes there rather than miss, and
never worth writing for its own sake."""

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
        return v > a  # type: ignore[no-any-return]  # compiled: numpy scalar
    return v < a  # type: ignore[no-any-return]  # compiled: numpy scalar


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
        return totals[r] - 1 >= need  # type: ignore[no-any-return]  # compiled: numpy scalar
    a = sheet[p, r, f - 1]
    if f < pk:
        # values above a up to the top sum, then row_length - pk values below the top sum
        return totals[r] - cnt_lt[r, a + 1] >= pk - f and totals[r] - 1 >= row_length - pk  # type: ignore[no-any-return]  # compiled: numpy scalar
    return cnt_lt[r, a] >= row_length - f  # type: ignore[no-any-return]  # compiled: numpy scalar


@jit
def row_reach(peaks: np.ndarray, row_length: int, cnt_lt: np.ndarray, totals: np.ndarray, r: int, f: int,
              a: int) -> int:
    """The most circles row r can ever hold with f circles filled, the last holding a (row_length exactly
    when row_completable): rising through the achievable sums above a to the top sum at the peak, then
    falling through the sums below it; a rising part that reaches the top sum early is stuck there."""
    pk = peaks[r]
    tot = totals[r]
    if f >= row_length:
        return row_length
    fall = min(tot - 1, row_length - pk)
    if f == 0:
        return pk + fall if tot >= pk else tot  # type: ignore[no-any-return]  # compiled: numpy scalar
    if f < pk:
        up = tot - cnt_lt[r, a + 1]
        return pk + fall if up >= pk - f else f + up  # type: ignore[no-any-return]  # compiled: numpy scalar
    down = cnt_lt[r, a]
    return f + min(down, row_length - f)  # type: ignore[no-any-return]  # compiled: numpy scalar


@jit
def doom_gain(sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int, cnt_lt: np.ndarray,
              totals: np.ndarray, plan_params: np.ndarray, p: int, r: int, v: int) -> float:
    """The planner's gain of a legal write of v in row r of player p that leaves the row impossible to
    complete (only asked for under a compulsory step B, where such a write may be forced): minus
    plan_params[4] points per circle the row can no longer reach, minus plan_params[3] when the row was
    still completable (the sheet can no longer end the game and its stuck rows bring misses), or minus
    DEAD_WRITE when it was already ruined. Always above NEG, so a forced write picks the least bad row."""
    f = filled[p, r]
    a = sheet[p, r, f - 1] if f > 0 else 0
    before = row_reach(peaks, row_length, cnt_lt, totals, r, f, a)
    after = row_reach(peaks, row_length, cnt_lt, totals, r, f + 1, v)
    base = plan_params[3] if before >= row_length else DEAD_WRITE
    return -(base + plan_params[4] * (before - after))  # type: ignore[no-any-return]  # compiled: numpy scalar


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
    return 1.0 - waste / allowed  # type: ignore[no-any-return]  # compiled: numpy scalar


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


DR_MASK = 0
DR_COUNT = 1
DR_WHITE = 2
DR_TWIN = 3
DR_ROWS = 4
"""Columns of plan_setup's drows[d]: bit mask of the rows some face of die d counts for, how many, 1 when
every face is white, the lowest die with the same faces (d itself when none is lower), then the rows."""


@jit
def plan_setup(dice_colour: np.ndarray, dice_value: np.ndarray, dice_faces: np.ndarray, cnt_lt: np.ndarray,
               span: np.ndarray, add: np.ndarray, drows: np.ndarray) -> None:
    """The planner's static helpers, filled once per chunk (so no decision allocates):
    span[r] = (lowest, highest) sum colour r can show (the only sums a gain table needs);
    add[d, k, r] = what face k of die d adds to the sum of colour r (its value when it shows r or white);
    drows[d] = see DR_*."""
    rows = span.shape[0]
    for r in range(rows):
        lo = -1
        hi = -1
        for v in range(cnt_lt.shape[1] - 1):
            if cnt_lt[r, v + 1] > cnt_lt[r, v]:
                if lo < 0:
                    lo = v
                hi = v
        span[r, 0] = lo
        span[r, 1] = hi
    n_dice = dice_faces.shape[0]
    for d in range(n_dice):
        mask = 0
        white = 1
        for k in range(add.shape[1]):
            for r in range(rows):
                add[d, k, r] = 0
        for k in range(dice_faces[d]):
            c = dice_colour[d, k]
            if c != rows:
                white = 0
            for r in range(rows):
                if c == rows or c == r:
                    add[d, k, r] = dice_value[d, k]
                    mask |= 1 << r
        drows[d, DR_MASK] = mask
        drows[d, DR_WHITE] = white
        n = 0
        for r in range(rows):
            if (mask >> r) & 1:
                drows[d, DR_ROWS + n] = r
                n += 1
        drows[d, DR_COUNT] = n
        drows[d, DR_TWIN] = d
        for e in range(d):
            same = dice_faces[e] == dice_faces[d]
            for k in range(dice_faces[d]):
                if same and (dice_colour[e, k] != dice_colour[d, k] or dice_value[e, k] != dice_value[d, k]):
                    same = False
            if same:
                drows[d, DR_TWIN] = e
                break


@jit
def plan_workspace(dice_colour: np.ndarray, dice_value: np.ndarray, dice_faces: np.ndarray, cnt_lt: np.ndarray,
                   players: int, rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                                     np.ndarray]:
    """(span, add, drows, top, fwork, iwork): plan_setup's static helpers and plan_reroll's scratch, allocated
    once per chunk (play_games) or per decision (the reference policies)."""
    n_dice = dice_faces.shape[0]
    span = np.zeros((rows, 2), dtype=np.int64)
    add = np.zeros((n_dice, dice_colour.shape[1], rows), dtype=np.int64)
    drows = np.zeros((n_dice, rows + DR_ROWS), dtype=np.int64)
    plan_setup(dice_colour, dice_value, dice_faces, cnt_lt, span, add, drows)
    top = np.zeros((players, rows), dtype=np.float64)
    width = max(max(rows, n_dice), cnt_lt.shape[1])
    fwork = np.zeros((3, width), dtype=np.float64)
    iwork = np.zeros((5, width), dtype=np.int64)
    return span, add, drows, top, fwork, iwork


@jit
def open_rows(filled: np.ndarray, row_length: int, p: int) -> int:
    """How many rows of player p still have an empty circle."""
    n = 0
    for r in range(filled.shape[1]):
        if filled[p, r] < row_length:
            n += 1
    return n


@jit
def plan_level(filled: np.ndarray, row_length: int, p: int) -> int:
    """The plan tables' level of player p's sheet: open rows - 1 (0 once every row is full)."""
    lv = open_rows(filled, row_length, p) - 1
    return lv if lv > 0 else 0


@jit
def gain_of(sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int, cnt_lt: np.ndarray,
            totals: np.ndarray, plan_v: np.ndarray, plan_q: np.ndarray, plan_params: np.ndarray, forced: bool,
            lv: int, p: int, r: int, v: int) -> float:
    """plan_gain for a write already known to be legal."""
    f = filled[p, r]
    q = plan_q[lv, r, f, v]
    if q <= NEG * 0.5:
        if forced:
            return doom_gain(sheet, filled, peaks, row_length, cnt_lt, totals, plan_params, p, r, v)
        return NEG
    a = sheet[p, r, f - 1] if f > 0 else 0
    return q - plan_v[lv, r, f, a]  # type: ignore[no-any-return]  # compiled: numpy scalar


@jit
def plan_gain(sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int, cnt_lt: np.ndarray,
              totals: np.ndarray, plan_v: np.ndarray, plan_q: np.ndarray, plan_params: np.ndarray, forced: bool,
              lv: int, p: int, r: int, v: int) -> float:
    """The planner's gain of writing v now in row r of player p over waiting for a better roll, on level
    lv's tables; NEG when illegal; when the row could no longer be completed, NEG too, or doom_gain when step
    B is compulsory (`forced`: such a write may have to be made, and some are worse than others)."""
    if not is_legal_write(sheet, filled, peaks, row_length, p, r, v):
        return NEG
    if v >= plan_q.shape[3]:
        return NEG
    return gain_of(sheet, filled, peaks, row_length, cnt_lt, totals, plan_v, plan_q, plan_params, forced, lv, p,
                   r, v)


@jit
def refresh_gains(sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int, cnt_lt: np.ndarray,
                  totals: np.ndarray, plan_v: np.ndarray, plan_q: np.ndarray, plan_params: np.ndarray,
                  forced: bool, p: int, table: np.ndarray, dirty: np.ndarray, span: np.ndarray,
                  top: np.ndarray) -> None:
    """table[p, r, v] = plan_gain of sum v in row r of player p for the sums colour r can show (span[r]), and
    top[p, r] = the best of them, for the rows written since the last refresh (do_write marks every row of a
    sheet dirty when one of its rows fills up: the level changes). Entries outside span are never read."""
    lv = plan_level(filled, row_length, p)
    nv = plan_q.shape[3]
    for r in range(peaks.shape[0]):
        if dirty[p, r] == 0:
            continue
        dirty[p, r] = 0
        lo = span[r, 0]
        hi = span[r, 1] if span[r, 1] < nv else nv - 1
        for v in range(span[r, 0], span[r, 1] + 1):
            table[p, r, v] = NEG
        top[p, r] = NEG
        f = filled[p, r]
        if f >= row_length:
            continue
        # plan_gain, row by row: the legal writes are an interval (rising: above the last value; falling:
        # below it), each worth plan_q minus the value of waiting
        a = 0
        if f > 0:
            a = sheet[p, r, f - 1]
            if f < peaks[r]:
                lo = max(lo, a + 1)
            else:
                hi = min(hi, a - 1)
        wait = plan_v[lv, r, f, a]
        m = NEG
        for v in range(lo, hi + 1):
            q = plan_q[lv, r, f, v]
            if q > NEG * 0.5:
                g = q - wait
            elif forced:
                g = doom_gain(sheet, filled, peaks, row_length, cnt_lt, totals, plan_params, p, r, v)
            else:
                continue
            table[p, r, v] = g
            if g > m:
                m = g
        top[p, r] = m


@jit
def forced_floor(miss_cost: float, forced: bool) -> float:
    """top2_value's `lim`: a roll whose best gain is at or below it is valued as the miss. Optional step B:
    -miss_cost (a write worse than the miss is declined); compulsory: NEG / 2 (only when no colour fits)."""
    return NEG * 0.5 if forced else -miss_cost


@jit
def plan_bound(gains: np.ndarray, miss_cost: float, forced: bool) -> float:
    """What a roll is worth to the active player, from its per-row gains: the best two gains of different
    colours (B and C; C only when worth writing). Optional step B: the miss instead of a best write that costs
    more than it. Compulsory step B (`forced`): the best legal write whatever it costs (doom_gain for one
    that ruins its row), the miss only when no colour fits. The same float as top2_value of the top two."""
    t1 = NO_GAIN
    t2 = NO_GAIN
    for r in range(gains.shape[0]):
        g = gains[r]
        t2 = max(t2, min(t1, g))
        t1 = max(t1, g)
    return top2_value(t1, t2, -miss_cost, forced_floor(miss_cost, forced))


TIE = 1e-9
"""A re-roll must beat keeping the roll, and every set tried before it, by more than this: sets of equal value
(say, one that adds a die counting only for full rows) go to the smaller set and the lower mask, whatever
the rounding of their sums."""

NO_GAIN = -1.0e300
"""Below every gain (NEG included): the empty slot of a running top-2."""


@jit
def top2_value(t1: float, t2: float, neg_m: float, lim: float) -> float:
    """plan_bound from the top two gains t1 >= t2 of a roll (neg_m = -miss_cost, lim = forced_floor): the
    same float. With lim = neg_m (optional step B) it is monotone in t1 and t2, so it bounds the compulsory
    value too (that one is never higher): the re-roll's pruning bounds use it."""
    return (t1 if t1 > lim else neg_m) + (t2 if t2 > 0.0 else 0.0)


@jit
def plan_reroll(sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int, cnt_lt: np.ndarray,
                totals: np.ndarray, plan_v: np.ndarray, plan_q: np.ndarray, plan_params: np.ndarray, forced: bool,
                dice_colour: np.ndarray, dice_value: np.ndarray,
                dice_faces: np.ndarray, p: int, miss_cost: float, max_dice: int, faces: np.ndarray,
                sums: np.ndarray, table: np.ndarray, dirty: np.ndarray, span: np.ndarray, add: np.ndarray,
                drows: np.ndarray, top: np.ndarray, fwork: np.ndarray, iwork: np.ndarray) -> int:
    """Bit mask of the dice the planner re-rolls (0 = keep): among every set of 1..max_dice dice, the one whose
    exact expected roll value (plan_bound over every outcome of those dice; `forced`: step B is compulsory)
    beats keeping the roll, and
    every set before it (smaller sets first, then lower masks), by more than TIE. span/add/drows and the
    scratch top, fwork, iwork come from plan_workspace.

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
    rows = peaks.shape[0]
    n_dice = faces.shape[0]
    colour_sums(dice_colour, dice_value, faces, rows, sums)
    refresh_gains(sheet, filled, peaks, row_length, cnt_lt, totals, plan_v, plan_q, plan_params, forced, p, table,
                  dirty, span, top)
    tp = table[p]
    now = fwork[0, :rows]
    memo = fwork[2]
    base = iwork[0]
    part = iwork[1]
    twins = iwork[2]
    neg_m = -miss_cost
    lim = forced_floor(miss_cost, forced)  # the outcomes' values; the pruning caps use neg_m (upper bounds)
    for r in range(rows):
        now[r] = tp[r, sums[r]]
    # twins[d]: lower dice with the same faces showing the same face (a set with one of them in place of d
    # was tried before and has the same value)
    for d in range(n_dice):
        twins[d] = 0
        for e in range(d):
            if drows[e, DR_TWIN] == drows[d, DR_TWIN] and faces[e] == faces[d]:
                twins[d] += 1
    # memo[w]: the value of the roll with the white dice totalling w, the other dice as rolled
    white = 0
    w_lo = 0
    w_hi = 0
    for d in range(n_dice):
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
    best_e = plan_bound(now, miss_cost, forced) + TIE
    best_mask = 0
    for d in range(n_dice if max_dice >= 1 else 0):
        if twins[d] > 0:
            continue
        hit = drows[d, DR_MASK]
        f1 = NO_GAIN
        f2 = NO_GAIN
        c1 = NO_GAIN
        c2 = NO_GAIN
        for r in range(rows):
            x = now[r]
            if (hit >> r) & 1:
                x = top[p, r]
            else:
                f2 = max(f2, min(f1, x))
                f1 = max(f1, x)
            c2 = max(c2, min(c1, x))
            c1 = max(c1, x)
        if top2_value(c1, c2, neg_m, neg_m) <= best_e:
            continue
        fd = faces[d]
        nk = dice_faces[d]
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
            for r in range(rows):
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
        if total / nk > best_e:
            best_e = total / nk + TIE
            best_mask = 1 << d
    for d2 in range(n_dice if max_dice >= 2 else 0):
        for d1 in range(d2):
            if twins[d1] > 0 or twins[d2] > (1 if drows[d1, DR_TWIN] == drows[d2, DR_TWIN] and
                                             faces[d1] == faces[d2] else 0):
                continue
            hit = drows[d1, DR_MASK] | drows[d2, DR_MASK]
            f1 = NO_GAIN
            f2 = NO_GAIN
            c1 = NO_GAIN
            c2 = NO_GAIN
            for r in range(rows):
                x = now[r]
                if (hit >> r) & 1:
                    x = top[p, r]
                else:
                    f2 = max(f2, min(f1, x))
                    f1 = max(f1, x)
                c2 = max(c2, min(c1, x))
                c1 = max(c1, x)
            cap = top2_value(c1, c2, neg_m, neg_m)
            if cap <= best_e:
                continue
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
                left = 0
            else:
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
            if left == 0 and total / n_out > best_e:
                best_e = total / n_out + TIE
                best_mask = (1 << d1) | (1 << d2)
    if max_dice >= 3:
        best_e, best_mask = plan_reroll_large(p, miss_cost, forced, max_dice, dice_colour, dice_value, dice_faces,
                                              faces, sums, table, top, fwork, iwork, best_e, best_mask)
    return best_mask


@jit
def plan_reroll_large(p: int, miss_cost: float, forced: bool, max_dice: int, dice_colour: np.ndarray, dice_value: np.ndarray,
                      dice_faces: np.ndarray, faces: np.ndarray, sums: np.ndarray, table: np.ndarray,
                      top: np.ndarray, fwork: np.ndarray, iwork: np.ndarray, best_e: float,
                      best_mask: int) -> tuple[float, int]:
    """plan_reroll's sets of 3..max_dice dice (not used by the default planner): every outcome enumerated,
    with the same bound and early stop; returns the updated (best value, best mask)."""
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


@jit
def plan_choose(sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int, cnt_lt: np.ndarray,
                totals: np.ndarray, plan_v: np.ndarray, plan_q: np.ndarray, plan_params: np.ndarray, forced: bool,
                p: int, sums: np.ndarray, forbidden: int, may_pass: bool, avoid_miss: bool, miss_cost: float,
                table: np.ndarray, dirty: np.ndarray) -> int:
    """The planner's write for player p (step B: forbidden = -1; step C: the colour chosen in B): the colour
    with the highest gain when it is >= 0; when the write would save the active player a miss (avoid_miss),
    the best write costing less than the miss; when passing is not allowed, the best legal write (`forced`,
    step B compulsory in this game: a write that ruins its row is valued by doom_gain, so the least bad one is
    chosen and, in step C, a write in an already ruined row beats a miss). -1: pass.
    Reads table[p] for the rows refreshed since their last write and computes the rolled sums' gains of the
    others directly (a player's full table is only needed for the re-roll, when it is active)."""
    best = -1
    best_g = NEG - 1.0
    lv = -1
    for r in range(peaks.shape[0]):
        if r == forbidden or not is_legal_write(sheet, filled, peaks, row_length, p, r, sums[r]):
            continue
        if dirty[p, r] == 0:
            g = table[p, r, sums[r]]
        else:
            if lv < 0:
                lv = plan_level(filled, row_length, p)
            g = NEG if sums[r] >= plan_q.shape[3] else gain_of(sheet, filled, peaks, row_length, cnt_lt, totals,
                                                                plan_v, plan_q, plan_params, forced, lv, p, r,
                                                                sums[r])
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
                column: np.ndarray, distinct: bool, miss_cap: int) -> int:
    """Sum of the complete columns' second lowest values (distinct: equal values count once) minus the miss
    penalty 1 + 2 + ... + misses (only the first miss_cap misses when miss_cap >= 0: a full track)."""
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
        if not distinct:  # house rule: equal values count separately (9, 10, 9, 12 -> 9)
            total += column[1] if rows > 1 else column[0]
            continue
        # second lowest distinct value (seed: 9, 10, 9, 12 -> 10); all equal -> that value
        second = column[0]
        for r in range(1, rows):
            if column[r] > column[0]:
                second = column[r]
                break
        total += second
    counted = misses if miss_cap < 0 else min(misses, miss_cap)
    return total - counted * (counted + 1) // 2


@jit
def miss_value(misses: int, miss_cap: int, miss_weight: float, miss_future: float) -> float:
    """What the planner thinks the next miss costs: (k + miss_future) * miss_weight for the k-th, nothing once
    a capped track is full."""
    if 0 <= miss_cap <= misses:
        return 0.0
    return (float(misses + 1) + miss_future) * miss_weight


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
               rerolls: int, step_b_optional: bool, miss_cap: int, final_turn_miss: bool, distinct_columns: bool,
               plan_v: np.ndarray, plan_q: np.ndarray, plan_params: np.ndarray, turn_limit: int, rng: np.ndarray,
               out_scores: np.ndarray, out_misses: np.ndarray, out_turns: np.ndarray, out_end: np.ndarray,
               out_filled: np.ndarray, counts: np.ndarray, log: np.ndarray, n_log: np.ndarray) -> None:
    """Play `games` games, seat 0 starting, seat s playing policies[s].

    The planner policies read plan_v / plan_q (see plan_table), value the next miss, the k-th, at
    (k + plan_params[1]) * plan_params[0] points (it costs k and makes every later miss cost one more),
    consider re-rolling sets of up to plan_params[2] dice and, when step B is compulsory, value a write that
    ruins its row by plan_params[3] and [4] (doom_gain).
    Per game g: out_scores[g, s], out_misses[g, s], out_turns[g], out_end[g] (END_*), out_filled[g, s].
    counts: [0] active turns, [1] turns with a miss, [2] turns with a re-roll, [3] B writes, [4] C writes.
    House rules: step_b_optional (B may be declined when a colour fits), miss_cap (-1: every miss costs more;
    else a full track of miss_cap boxes costs no more), final_turn_miss (the active player's miss is still
    taken when a sheet filled up in C), distinct_columns (column score: second lowest distinct value).
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
    miss_weight = plan_params[0]
    miss_future = plan_params[1]
    forced = not step_b_optional
    span, add, drows, top, fwork, iwork = plan_workspace(dice_colour, dice_value, dice_faces, cnt_lt, n_players,
                                                         rows)
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
            miss_cost = miss_value(misses[active], miss_cap, miss_weight, miss_future)
            for _ in range(rerolls):
                if pol == POLICY_PLANNER:
                    mask = plan_reroll(sheet, filled, peaks, row_length, cnt_lt, totals, plan_v, plan_q, plan_params,
                                       forced, dice_colour, dice_value, dice_faces, active, miss_cost, reroll_dice,
                                       faces, sums, table, dirty, span, add, drows, top, fwork, iwork)
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
                b = plan_choose(sheet, filled, peaks, row_length, cnt_lt, totals, plan_v, plan_q, plan_params, forced,
                                active, sums, -1, step_b_optional, True, miss_cost, table, dirty)
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
                    c = plan_choose(sheet, filled, peaks, row_length, cnt_lt, totals, plan_v, plan_q, plan_params,
                                    forced, p, sums, b, True, avoid, miss_cost, table, dirty)
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
            full = False
            for p in range(n_players):
                if done[p] == cells:
                    full = True
            if not wrote and (final_turn_miss or not full):  # 「即座に」: a filled sheet ends the game first
                misses[active] += 1
                counts[1] += 1
                if keep_log:
                    log_event(log, n_log, EV_MISS, turn, active, misses[active], 0, faces)
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
            out_scores[g, p] = score_sheet(sheet, filled, row_length, misses[p], p, column, distinct_columns,
                                           miss_cap)
            out_misses[g, p] = misses[p]
            out_filled[g, p] = done[p]
        out_turns[g] = turn
        out_end[g] = end
        if keep_log:
            log_event(log, n_log, EV_END, turn, active, end, 0, faces)
