"""Hot loops of Peak Dice: plain functions over numpy arrays, compiled by `generator.engine.kernel.jit`.

One call of `play_games` plays a whole chunk of games and fills a Results; with an event log it plays one game
and records every roll, re-roll, write, pass and miss so the reference rules can replay it. The same functions
run uncompiled (`fn.py_func`, PNPKIT_PURE=1) and give the same results bit for bit.

The loops take NamedTuples, not dozens of positional arrays: the static Setup and the per-chunk Workspace
(sheet.py: the sheets and the sheet's rules), the planner's Plan and PlanWork (planner.py: the planner's
compiled decisions live there), and the Results filled here. This module holds the play loop, the random,
greedy and reroll policies' decisions and the scoring.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from generator.engine.kernel import jit, jit_noref, jit_noref_entry, py_func, rand_below_inline
from generator.games.peak_dice.planner import Plan, PlanWork, miss_value, plan_choose, plan_workspace
from generator.games.peak_dice.planner_reroll import large_sets, plan_reroll
from generator.games.peak_dice.sheet import (
    NEG,
    Setup,
    Workspace,
    colour_sums,
    do_write,
    is_legal_write,
    workspace,
)

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
LOG_FACES = 5
"""An event row is [kind, turn, player, x, y, faces...]: the faces start at this column."""

END_FULL = 0
END_STALLED = 1
END_LIMIT = 2

ACTIVE_TURNS = 0
MISS_TURNS = 1
REROLL_TURNS = 2
WRITES_B = 3
WRITES_C = 4
COUNTERS = 5
"""Results.counts[...]: turns played, turns ending in a miss, turns with a re-roll, step B and step C
writes."""


class Results(NamedTuple):
    """What play_games fills: per game g and seat s, and the chunk's counters."""

    scores: np.ndarray
    """int64[games, seats]: final scores."""
    misses: np.ndarray
    """int64[games, seats]: miss boxes checked."""
    turns: np.ndarray
    """int64[games]: turns played."""
    end: np.ndarray
    """int64[games]: how the game ended (END_*)."""
    filled: np.ndarray
    """int64[games, seats]: circles filled."""
    counts: np.ndarray
    """int64[COUNTERS]: summed over the chunk, indexed by ACTIVE_TURNS, MISS_TURNS, ..."""
    log: np.ndarray
    """int64[rows, LOG_FACES + dice]: the event log (no rows: none kept)."""
    n_log: np.ndarray
    """int64[1]: event rows written."""


def results(games: int, seats: int, dice: int, log_rows: int = 0) -> Results:
    """Zeroed Results for `games` games of `seats` seats (an event log of `log_rows` rows)."""
    return Results(
        np.zeros((games, seats), dtype=np.int64),
        np.zeros((games, seats), dtype=np.int64),
        np.zeros(games, dtype=np.int64),
        np.zeros(games, dtype=np.int64),
        np.zeros((games, seats), dtype=np.int64),
        np.zeros(COUNTERS, dtype=np.int64),
        np.zeros((log_rows, LOG_FACES + dice), dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )


@jit_noref
def write_utility(setup: Setup, ws: Workspace, p: int, r: int, v: int) -> float:
    """How well writing v fits row r: 1 = skips no achievable value, <= 0 = skips more than the row's fair
    share of slack; NEG when illegal or when the row could no longer be completed."""
    sheet, filled = ws.sheet, ws.filled
    peaks, row_length, cnt_lt, totals, mass_lt = (
        setup.peaks,
        setup.row_length,
        setup.cnt_lt,
        setup.totals,
        setup.mass_lt,
    )
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


@jit_noref
def best_colour(setup: Setup, ws: Workspace, p: int, forbidden: int) -> int:
    """The legal colour (not `forbidden`) for the sums ws.sums with the highest write utility, lowest index on
    ties; -1 if none is legal. ws.best_u[0] receives its utility (NEG for a legal write that dooms its
    row)."""
    sums = ws.sums
    best = -1
    best_u = NEG - 1.0
    for r in range(setup.peaks.shape[0]):
        if r == forbidden:
            continue
        if not is_legal_write(ws.sheet, ws.filled, setup.peaks, setup.row_length, p, r, sums[r]):
            continue
        u = write_utility(setup, ws, p, r, sums[r])
        if u > best_u:
            best_u = u
            best = r
    ws.best_u[0] = best_u
    return best


@jit_noref
def random_colour(
    rng: np.ndarray, setup: Setup, ws: Workspace, p: int, forbidden: int, may_pass: bool
) -> int:
    """Uniform choice among the legal colours for ws.sums (not `forbidden`) and, when allowed, passing
    (-1)."""
    sums, scratch = ws.sums, ws.scratch
    n = 0
    for r in range(setup.peaks.shape[0]):
        if r != forbidden and is_legal_write(
            ws.sheet, ws.filled, setup.peaks, setup.row_length, p, r, sums[r]
        ):
            scratch[n] = r
            n += 1
    if n == 0:
        return -1
    if may_pass:
        scratch[n] = -1
        n += 1
    return int(scratch[rand_below_inline(rng, n)])


@jit_noref
def refresh_table(setup: Setup, ws: Workspace, p: int) -> None:
    """ws.table[p, r, v] = write_utility of sum v in row r of player p; only rows written since the last
    refresh (ws.dirty[p, r] = 1) are recomputed."""
    table, dirty = ws.table, ws.dirty
    for r in range(setup.peaks.shape[0]):
        if dirty[p, r] == 0:
            continue
        for v in range(table.shape[2]):
            table[p, r, v] = write_utility(setup, ws, p, r, v)
        dirty[p, r] = 0


@jit_noref
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


@jit_noref
def choose_reroll(policy: int, rng: np.ndarray, setup: Setup, ws: Workspace, p: int) -> int:
    """Bit mask of the dice the active player re-rolls from the roll ws.faces (0 = keep). random: a uniform
    subset; greedy: never; reroll: the single die whose exact expected re-roll value beats keeping the roll,
    if any (ws.sums and ws.trial are its scratch)."""
    faces, sums, table, trial = ws.faces, ws.sums, ws.table, ws.trial
    dice_colour, dice_value, dice_faces = setup.dice_colour, setup.dice_value, setup.dice_faces
    n_dice = faces.shape[0]
    if policy == POLICY_RANDOM:
        mask = 0
        for d in range(n_dice):
            if rand_below_inline(rng, 2) == 1:
                mask |= 1 << d
        return mask
    if policy != POLICY_REROLL:
        return 0
    rows = setup.peaks.shape[0]
    colour_sums(dice_colour, dice_value, faces, rows, sums)
    refresh_table(setup, ws, p)
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


@jit_noref
def choose_b(policy: int, rng: np.ndarray, setup: Setup, ws: Workspace, p: int, may_pass: bool) -> int:
    """Step B for the active player and the sums ws.sums: a legal colour or -1 (pass, or no legal colour)."""
    if policy == POLICY_RANDOM:
        return random_colour(rng, setup, ws, p, -1, may_pass)
    c = best_colour(setup, ws, p, -1)
    if c >= 0 and ws.best_u[0] <= NEG and may_pass:
        return -1  # every legal write would doom its row: pass and hope for step C / take the miss
    return c


@jit_noref
def choose_c(
    policy: int, rng: np.ndarray, setup: Setup, ws: Workspace, p: int, forbidden: int, avoid_miss: bool
) -> int:
    """Step C for player p and the sums ws.sums: a legal colour other than `forbidden`, or -1. Greedy writes
    when the value fits the row's slack, or (avoid_miss: the active player wrote nothing yet) whenever the row
    stays completable."""
    if policy == POLICY_RANDOM:
        return random_colour(rng, setup, ws, p, forbidden, True)
    c = best_colour(setup, ws, p, forbidden)
    if c < 0:
        return -1
    u = ws.best_u[0]
    if u > 0.0 or (avoid_miss and u > NEG):
        return c
    return -1


@jit
def score_sheet(setup: Setup, ws: Workspace, p: int) -> int:
    """Player p's score: the complete columns' second lowest values (setup.distinct_columns: equal values
    count once) minus the miss penalty 1 + 2 + ... + misses (only the first miss_cap misses when miss_cap >=
    0)."""
    sheet, filled, column = ws.sheet, ws.filled, ws.column
    row_length, distinct, miss_cap, misses = (
        setup.row_length,
        setup.distinct_columns,
        setup.miss_cap,
        ws.misses[p],
    )
    rows = filled.shape[1]
    total = 0
    for i in range(row_length):
        complete = True
        for r in range(rows):
            if filled[p, r] <= i:
                complete = False
        if not complete:
            continue
        for r in range(rows):  # insertion sort: a handful of values (numba's sort is a general quicksort)
            v = sheet[p, r, i]
            j = r
            while j > 0 and column[j - 1] > v:
                column[j] = column[j - 1]
                j -= 1
            column[j] = v
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
    return total - counted * (counted + 1) // 2  # type: ignore[no-any-return]  # compiled: numpy scalar


@jit_noref
def log_event(
    log: np.ndarray, n_log: np.ndarray, kind: int, turn: int, player: int, x: int, y: int, faces: np.ndarray
) -> None:
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
        log[i, LOG_FACES + d] = faces[d]
    n_log[0] = i + 1


def play_games(
    games: int,
    policies: np.ndarray,
    setup: Setup,
    plan: Plan,
    turn_limit: int,
    rng: np.ndarray,
    res: Results,
    *,
    pure: bool = False,
) -> None:
    """Play `games` games, seat 0 starting, seat s playing policies[s], filling `res`.

    The planner policies read `plan` (planner.py): the next miss, the k-th, is valued at
    (k + plan.miss_future) * plan.miss_weight points (it costs k and makes every later miss cost one more),
    sets of up to plan.reroll_dice dice are considered for a re-roll and, when step B is compulsory, a write
    that ruins its row is priced by plan.doom_base and plan.doom_circle (doom_gain).
    House rules (setup): step_b_optional (B may be declined when a colour fits), miss_cap (-1: every miss
    costs more; else a full track of miss_cap boxes costs no more), final_turn_miss (the active player's miss
    is still taken when a sheet filled up in C), distinct_columns (column score: second lowest distinct
    value), b_full_plays_c (a sheet filled in B still lets every player play step C).
    """
    n_players = policies.shape[0]
    ws = workspace(setup, n_players)
    pw = plan_workspace(setup, n_players)
    fn = py_func(play_loop) if pure else play_loop
    fn(games, policies, setup, plan, turn_limit, rng, res, ws, pw, large_sets(plan.reroll_dice))


@jit_noref_entry  # called from Python, once per chunk
def play_loop(
    games: int,
    policies: np.ndarray,
    setup: Setup,
    plan: Plan,
    turn_limit: int,
    rng: np.ndarray,
    res: Results,
    ws: Workspace,
    pw: PlanWork,
    large: bool | None,
) -> None:
    """`play_games`' games in the Workspace and PlanWork it made (`large`: plan_reroll's). Compiled without
    reference counting: it allocates nothing, and the arrays it passes its steps (compiled without it too)
    cost no reference count per call."""
    n_players = policies.shape[0]
    rows = setup.peaks.shape[0]
    n_dice = setup.dice_faces.shape[0]
    cells = rows * setup.row_length
    dice_faces = setup.dice_faces
    step_b_optional = setup.step_b_optional
    counts = res.counts
    log = res.log
    n_log = res.n_log
    keep_log = log.shape[0] > 0
    faces, sums, misses, done, dead = ws.faces, ws.sums, ws.misses, ws.done, ws.dead
    for g in range(games):
        ws.sheet[:] = 0
        ws.filled[:] = 0
        misses[:] = 0
        dead[:] = 0
        done[:] = 0
        ws.dirty[:] = 1
        active = 0
        turn = 0
        end = END_LIMIT
        while True:
            turn += 1
            pol = policies[active]
            # A: roll everything, then up to `rerolls` re-rolls of any subset
            for d in range(n_dice):
                faces[d] = rand_below_inline(rng, dice_faces[d])
            if keep_log:
                log_event(log, n_log, EV_ROLL, turn, active, 0, 0, faces)
            rerolled = False
            planner = pol == POLICY_PLANNER or pol == POLICY_PLANNER_KEEP
            miss_cost = miss_value(misses[active], setup.miss_cap, plan.miss_weight, plan.miss_future)
            for _ in range(setup.rerolls):
                if pol == POLICY_PLANNER:
                    mask = plan_reroll(setup, plan, ws, pw, active, miss_cost, plan.reroll_dice, large)
                elif planner:
                    mask = 0
                else:
                    mask = choose_reroll(pol, rng, setup, ws, active)
                if mask == 0:
                    break
                rerolled = True
                for d in range(n_dice):
                    if (mask >> d) & 1:
                        faces[d] = rand_below_inline(rng, dice_faces[d])
                if keep_log:
                    log_event(log, n_log, EV_REROLL, turn, active, mask, 0, faces)
            colour_sums(setup.dice_colour, setup.dice_value, faces, rows, sums)
            counts[ACTIVE_TURNS] += 1
            if rerolled:
                counts[REROLL_TURNS] += 1
            # B: the active player writes one legal colour (or passes / cannot)
            if planner:
                b = plan_choose(setup, plan, ws, active, -1, step_b_optional, True, miss_cost)
            else:
                b = choose_b(pol, rng, setup, ws, active, step_b_optional)
            wrote = False
            if b >= 0:
                do_write(setup, ws, active, b, sums[b])
                wrote = True
                counts[WRITES_B] += 1
                if keep_log:
                    log_event(log, n_log, EV_WRITE_B, turn, active, b, sums[b], faces)
                if done[active] == cells and not setup.b_full_plays_c:  # 「即座に」: before anyone's step C
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
                    c = plan_choose(setup, plan, ws, p, b, True, avoid, miss_cost)
                else:
                    c = choose_c(pp, rng, setup, ws, p, b, avoid)
                if c >= 0:
                    do_write(setup, ws, p, c, sums[c])
                    counts[WRITES_C] += 1
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
            if not wrote and (
                setup.final_turn_miss or not full
            ):  # 「即座に」: a filled sheet ends the game first
                misses[active] += 1
                counts[MISS_TURNS] += 1
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
            res.scores[g, p] = score_sheet(setup, ws, p)
            res.misses[g, p] = misses[p]
            res.filled[g, p] = done[p]
        res.turns[g] = turn
        res.end[g] = end
        if keep_log:
            log_event(log, n_log, EV_END, turn, active, end, 0, faces)
