"""The fast path: whole chunks of Ripple Rush games in one compiled call (numba when present, else Python).

Everything here is a plain function over numpy arrays; `generator.engine.kernel.jit` compiles it when numba
is installed and leaves it as Python with PNPKIT_PURE=1, and both give the same results bit for bit (the RNG
is the engine's xorshift64). Speed notes (greedy 4-player games): the game loop and its helpers are compiled
without reference counting (`no_refcount`: the loop allocates nothing, `workspace` is made per chunk), sheets
are indexed in place (no column views), and the small per-card decisions are inlined (`inline`); the two big
ones (`decide_number`, `cascade`) are called, not inlined: inlining copied them into every caller and doubled
the compile time (12 -> 6 CPU-s) for no measurable speed. The order of decisions is the reference rules' order
(`rules.py`): each round, every player draws; players who cannot write
announce; in seat order every other player writes their own card (and resolves its bonus cascade); then in
seat order every player may write the announced cards of the others: with `any_order` (the seed names no
order) one decision per write over the cards still open (pick one, or stop), else each card offered on its own
in the announcers' seat order. A decision exists only when at least one legal write exists. With `x_any` an X
bonus may write whole numbers outside nmin..nmax (never 0, the empty mark): its virtual bounds are `rows` + 1
beyond the column's extremes (`x_bounds`).

Layout of a sheet in here: sheet[player, column, h] with h counted from the BOTTOM (h = 0 is the bottom row,
sheet row `rows - h` in user-facing numbering); 0 means empty. Cards are encoded `suit * span + number - min`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from generator.engine.kernel import jit_noref_entry, rand_below, shuffle_inplace
from generator.games.ripple_rush.kernel_board import (
    COUNT_ANNOUNCED_OFFERED,
    COUNT_ANNOUNCED_WRITTEN,
    COUNT_DRAWN,
    COUNT_GOALS_COMPLETED,
    COUNT_GOALS_POSSIBLE,
    COUNT_UNPLACEABLE,
    KIND_ANNOUNCED,
    KIND_BONUS,
    KIND_OWN,
    find_gap,
    no_refcount,
    write_cell,
)
from generator.games.ripple_rush.kernel_choice import (
    announced_choice,
    choose_in_gap,
    decide_number,
    log_decision,
    suit_choice,
)


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
