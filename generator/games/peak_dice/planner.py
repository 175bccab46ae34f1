"""The planner policy: its exchange rates, its per-row value tables and its compiled decisions.

Each row is valued on its own (plan_table): writing v earns `weight * v`, each roll a row waits costs `tempo`,
and a row that can no longer be completed is worth NEG. The planner then writes the colour whose value gain
over waiting is highest (plan_choose), weighs that against the next miss (see PlannerParams; under a
compulsory step B a roll is worth its best legal write, however bad, and a write that ruins its row is priced
by the circles it puts out of reach, doom_gain), and re-rolls the set of dice (up to reroll_dice of them)
whose re-roll has the best exact expected value (plan_reroll). The write-or-wait rule is the target curve:
from each (circle, last value) it writes only the values whose gain over waiting is >= 0.

The compiled functions take the play loop's Setup and Workspace (sheet.py), the planner's own Plan (tables
and exchange rates) and PlanWork (static helpers and scratch); kernel.play_games calls plan_reroll and
plan_choose, the reference policies (policies.py) call them on one decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from generator.engine.kernel import jit, jit_noref, jit_noref_entry, py_func
from generator.games.peak_dice.sheet import NEG, Setup, Workspace, is_legal_write

if TYPE_CHECKING:
    from generator.games.peak_dice.tables import Tables


@dataclass(frozen=True)
class PlannerParams:
    """The planner's exchange rates, in points."""

    weight: float
    """Points per unit of a written value (a column scores one of its 4 values)."""
    tempo: float
    """Points a row loses for every roll it has to wait while every row is open."""
    endgame: float
    """Waiting costs tempo * (rows / open rows) ** endgame: the fewer rows a sheet has open, the likelier a
    wait is a miss."""
    miss_weight: float
    """Scale of the miss cost: the next miss, the k-th, is valued (k + miss_future) * miss_weight points."""
    miss_future: float
    """Later misses each cost one more point after this one: about how many a player still takes."""
    reroll_dice: int
    """The re-roll considers every set of up to this many dice (2: 21 sets of the 6 default dice; all 63
    sets would score about 1 point more and cost several times the time)."""
    doom_base: float = 100.0
    """Compulsory step B only: points a write costs when it leaves a completable row impossible to complete
    (the sheet can no longer end the game, and the row's stuck end brings misses)."""
    doom_circle: float = 20.0
    """Compulsory step B only: points per circle such a write puts out of the row's reach (about one column's
    score each)."""


DEFAULT_PARAMS = PlannerParams(
    weight=0.25,
    tempo=0.6,
    endgame=1.0,
    miss_weight=1.0,
    miss_future=2.0,
    reroll_dice=2,
    doom_base=100.0,
    doom_circle=20.0,
)
"""Tuned by self-play of the default sheet (mean score is flat within about 1 point around these values)."""


class Plan(NamedTuple):
    """The planner's tables and exchange rates as its compiled functions read them (plan_of)."""

    v: np.ndarray
    """float64[open rows - 1, rows, row_length + 1, values]: row values (plan_table's plan_v)."""
    q: np.ndarray
    """float64[open rows - 1, rows, row_length + 1, values]: the value of writing v next (plan_q)."""
    miss_weight: float
    miss_future: float
    reroll_dice: int
    doom_base: float
    doom_circle: float
    forced: bool
    """Step B is compulsory in this game: a write that ruins its row may have to be made (doom_gain)."""


def plan_of(t: Tables) -> Plan:
    """The planner's view of a Tables (its tables and PlannerParams, and the step-B house rule)."""
    pr = t.planner
    return Plan(
        t.plan_v,
        t.plan_q,
        float(pr.miss_weight),
        float(pr.miss_future),
        int(pr.reroll_dice),
        float(pr.doom_base),
        float(pr.doom_circle),
        not t.step_b_optional,
    )


class PlanWork(NamedTuple):
    """plan_setup's static helpers and plan_reroll's scratch (plan_workspace)."""

    span: np.ndarray
    """int64[rows, 2]: the lowest and highest sum each colour can show."""
    add: np.ndarray
    """int64[dice, max_faces, rows]: what each face adds to each colour's sum."""
    drows: np.ndarray
    """int64[dice, DR_ROWS + rows]: per die, see DR_*."""
    top: np.ndarray
    """float64[players, rows]: each row's best gain (refresh_gains)."""
    fwork: np.ndarray
    """float64[3, width]: scratch."""
    iwork: np.ndarray
    """int64[5, width]: scratch."""


def plan_arrays(
    peaks: np.ndarray,
    row_length: int,
    mass_lt: np.ndarray,
    params: PlannerParams = DEFAULT_PARAMS,
    pure: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """(plan_v, plan_q), float64[levels = rows, rows, row_length + 1, values] as plan_table fills them."""
    rows = peaks.shape[0]
    shape = (rows, rows, row_length + 1, mass_lt.shape[1] - 1)
    tempos = np.asarray(
        [params.tempo * (rows / (k + 1)) ** params.endgame for k in range(rows)], dtype=np.float64
    )
    plan_v = np.zeros(shape, dtype=np.float64)
    plan_q = np.zeros(shape, dtype=np.float64)
    fn = py_func(plan_table) if pure else plan_table
    fn(peaks, row_length, mass_lt, float(params.weight), tempos, plan_v, plan_q)
    return plan_v, plan_q


DEAD_WRITE = 1.0
"""The planner's cost, in points, of a write in a row that can no longer be completed (on top of the circles
it makes unreachable): less than any miss, so a player with a ruined row writes there rather than miss, and
never worth writing for its own sake."""

DR_MASK = 0
DR_COUNT = 1
DR_WHITE = 2
DR_TWIN = 3
DR_ROWS = 4
"""Columns of plan_setup's drows[d]: bit mask of the rows some face of die d counts for, how many, 1 when
every face is white, the lowest die with the same faces (d itself when none is lower), then the rows."""


@jit
def plan_table(
    peaks: np.ndarray,
    row_length: int,
    mass_lt: np.ndarray,
    weight: float,
    tempos: np.ndarray,
    plan_v: np.ndarray,
    plan_q: np.ndarray,
) -> None:
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


@jit_noref_entry  # called from Python: plan_workspace
def plan_setup(
    dice_colour: np.ndarray,
    dice_value: np.ndarray,
    dice_faces: np.ndarray,
    cnt_lt: np.ndarray,
    span: np.ndarray,
    add: np.ndarray,
    drows: np.ndarray,
) -> None:
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


def plan_workspace(setup: Setup, players: int) -> PlanWork:
    """plan_setup's static helpers and plan_reroll's scratch, allocated once per chunk (play_games) or per
    decision (the reference policies). Python, as sheet.workspace is; plan_setup is compiled."""
    dice_colour, dice_faces, cnt_lt = setup.dice_colour, setup.dice_faces, setup.cnt_lt
    rows = setup.peaks.shape[0]
    n_dice = dice_faces.shape[0]
    span = np.zeros((rows, 2), dtype=np.int64)
    add = np.zeros((n_dice, dice_colour.shape[1], rows), dtype=np.int64)
    drows = np.zeros((n_dice, rows + DR_ROWS), dtype=np.int64)
    plan_setup(dice_colour, setup.dice_value, dice_faces, cnt_lt, span, add, drows)
    top = np.zeros((players, rows), dtype=np.float64)
    width = max(max(rows, n_dice), cnt_lt.shape[1])
    fwork = np.zeros((3, width), dtype=np.float64)
    iwork = np.zeros((5, width), dtype=np.int64)
    return PlanWork(span, add, drows, top, fwork, iwork)


@jit_noref
def open_rows(filled: np.ndarray, row_length: int, p: int) -> int:
    """How many rows of player p still have an empty circle."""
    n = 0
    for r in range(filled.shape[1]):
        if filled[p, r] < row_length:
            n += 1
    return n


@jit_noref
def plan_level(filled: np.ndarray, row_length: int, p: int) -> int:
    """The plan tables' level of player p's sheet: open rows - 1 (0 once every row is full)."""
    lv = open_rows(filled, row_length, p) - 1
    return lv if lv > 0 else 0


@jit_noref
def row_reach(
    peaks: np.ndarray, row_length: int, cnt_lt: np.ndarray, totals: np.ndarray, r: int, f: int, a: int
) -> int:
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


@jit_noref
def doom_gain(setup: Setup, plan: Plan, ws: Workspace, p: int, r: int, v: int) -> float:
    """The planner's gain of a legal write of v in row r of player p that leaves the row impossible to
    complete (only asked for under a compulsory step B, where such a write may be forced): minus
    plan.doom_circle points per circle the row can no longer reach, minus plan.doom_base when the row was
    still completable (the sheet can no longer end the game and its stuck rows bring misses), or minus
    DEAD_WRITE when it was already ruined. Always above NEG, so a forced write picks the least bad row."""
    f = ws.filled[p, r]
    a = ws.sheet[p, r, f - 1] if f > 0 else 0
    before = row_reach(setup.peaks, setup.row_length, setup.cnt_lt, setup.totals, r, f, a)
    after = row_reach(setup.peaks, setup.row_length, setup.cnt_lt, setup.totals, r, f + 1, v)
    base = plan.doom_base if before >= setup.row_length else DEAD_WRITE
    return -(base + plan.doom_circle * (before - after))


@jit_noref
def gain_of(setup: Setup, plan: Plan, ws: Workspace, lv: int, p: int, r: int, v: int) -> float:
    """plan_gain for a write already known to be legal."""
    f = ws.filled[p, r]
    q = plan.q[lv, r, f, v]
    if q <= NEG * 0.5:
        if plan.forced:
            return doom_gain(setup, plan, ws, p, r, v)
        return NEG
    a = ws.sheet[p, r, f - 1] if f > 0 else 0
    return q - plan.v[lv, r, f, a]  # type: ignore[no-any-return]  # compiled: numpy scalar


@jit_noref
def plan_gain(setup: Setup, plan: Plan, ws: Workspace, lv: int, p: int, r: int, v: int) -> float:
    """The planner's gain of writing v now in row r of player p over waiting for a better roll, on level
    lv's tables; NEG when illegal; when the row could no longer be completed, NEG too, or doom_gain when step
    B is compulsory (plan.forced: such a write may have to be made, and some are worse than others)."""
    if not is_legal_write(ws.sheet, ws.filled, setup.peaks, setup.row_length, p, r, v):
        return NEG
    if v >= plan.q.shape[3]:
        return NEG
    return gain_of(setup, plan, ws, lv, p, r, v)


@jit_noref
def refresh_gains(setup: Setup, plan: Plan, ws: Workspace, pw: PlanWork, p: int) -> None:
    """ws.table[p, r, v] = plan_gain of sum v in row r of player p for the sums colour r can show
    (pw.span[r]), and pw.top[p, r] = the best of them, for the rows written since the last refresh (do_write
    marks every row of a sheet dirty when one of its rows fills up: the level changes). Entries outside span
    are never read."""
    sheet, filled, table, dirty = ws.sheet, ws.filled, ws.table, ws.dirty
    peaks, row_length, span, top = setup.peaks, setup.row_length, pw.span, pw.top
    plan_v, plan_q, forced = plan.v, plan.q, plan.forced
    lv = plan_level(filled, row_length, p)
    nv = plan_q.shape[3]
    for r in range(peaks.shape[0]):
        if dirty[p, r] == 0:
            continue
        dirty[p, r] = 0
        lo = span[r, 0]
        hi = span[r, 1] if span[r, 1] < nv else nv - 1
        top[p, r] = NEG
        f = filled[p, r]
        if f >= row_length:
            for v in range(span[r, 0], span[r, 1] + 1):
                table[p, r, v] = NEG
            continue
        # plan_gain, row by row: the legal writes are an interval (rising: above the last value; falling:
        # below it), each worth plan_q minus the value of waiting; the others are NEG
        a = 0
        if f > 0:
            a = sheet[p, r, f - 1]
            if f < peaks[r]:
                lo = max(lo, a + 1)
            else:
                hi = min(hi, a - 1)
        for v in range(span[r, 0], min(lo, span[r, 1] + 1)):
            table[p, r, v] = NEG
        for v in range(max(hi + 1, span[r, 0]), span[r, 1] + 1):
            table[p, r, v] = NEG
        wait = plan_v[lv, r, f, a]
        m = NEG
        for v in range(lo, hi + 1):
            q = plan_q[lv, r, f, v]
            if q > NEG * 0.5:
                g = q - wait
            elif forced:
                g = doom_gain(setup, plan, ws, p, r, v)
            else:
                g = NEG
            table[p, r, v] = g
            if g > m:
                m = g
        top[p, r] = m


@jit_noref
def forced_floor(miss_cost: float, forced: bool) -> float:
    """top2_value's `lim`: a roll whose best gain is at or below it is valued as the miss. Optional step B:
    -miss_cost (a write worse than the miss is declined); compulsory: NEG / 2 (only when no colour fits)."""
    return NEG * 0.5 if forced else -miss_cost


@jit_noref
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


NO_GAIN = -1.0e300
"""Below every gain (NEG included): the empty slot of a running top-2."""


@jit_noref
def top2_value(t1: float, t2: float, neg_m: float, lim: float) -> float:
    """plan_bound from the top two gains t1 >= t2 of a roll (neg_m = -miss_cost, lim = forced_floor): the
    same float. With lim = neg_m (optional step B) it is monotone in t1 and t2, so it bounds the compulsory
    value too (that one is never higher): the re-roll's pruning bounds use it."""
    return (t1 if t1 > lim else neg_m) + (t2 if t2 > 0.0 else 0.0)


@jit_noref
def plan_choose(
    setup: Setup,
    plan: Plan,
    ws: Workspace,
    p: int,
    forbidden: int,
    may_pass: bool,
    avoid_miss: bool,
    miss_cost: float,
) -> int:
    """The planner's write for player p (step B: forbidden = -1; step C: the colour chosen in B): the colour
    with the highest gain when it is >= 0; when the write would save the active player a miss (avoid_miss),
    the best write costing less than the miss; when passing is not allowed, the best legal write (plan.forced,
    step B compulsory in this game: a write that ruins its row is valued by doom_gain, so the least bad one is
    chosen and, in step C, a write in an already ruined row beats a miss). -1: pass.
    Reads table[p] for the rows refreshed since their last write and computes the rolled sums' gains of the
    others directly (a player's full table is only needed for the re-roll, when it is active)."""
    sheet, filled, sums, table, dirty = ws.sheet, ws.filled, ws.sums, ws.table, ws.dirty
    peaks, row_length = setup.peaks, setup.row_length
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
            g = NEG if sums[r] >= plan.q.shape[3] else gain_of(setup, plan, ws, lv, p, r, sums[r])
        if g > best_g:
            best_g = g
            best = r
    if best < 0:
        return -1
    if best_g >= 0.0 or (avoid_miss and best_g > -miss_cost and best_g > NEG * 0.5) or not may_pass:
        return best
    return -1


@jit_noref
def miss_value(misses: int, miss_cap: int, miss_weight: float, miss_future: float) -> float:
    """What the planner thinks the next miss costs: (k + miss_future) * miss_weight for the k-th, nothing once
    a capped track is full."""
    if 0 <= miss_cap <= misses:
        return 0.0
    return (float(misses + 1) + miss_future) * miss_weight
