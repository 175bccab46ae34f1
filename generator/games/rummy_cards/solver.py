"""The exact meld finder: a dynamic programme over numbers x colours that lays the most points (then cards).

Cards are counted by kind (colour * n_numbers + number index). Table cards are `forced` (every one must be on
the table again at the end), hand cards are optional; hand jokers are wildcards; table jokers are forced
wildcards of their set's kind (a run joker ends in a run of its colour, a group joker in a group of its
number, see rules.py; counted per colour in the state key, per number where the number's groups close). Per
colour the state holds two run slots with lengths 0, 1, 2 or 3+ (two copies -> at most two parallel runs);
cards not in runs go to groups of their number, which exist iff 3m <= total <= colours*m for some m >= the
largest per-colour count, each group holding a number card. A run of 6+ is two runs of 3+, so slots never
need longer memory. Exact on these rules (tests/games/rummy_cards/test_solver_oracle.py checks it against a
brute force), with one gap: with 3+ jokers able to reach one colour's runs (a deck of more than the seed's
2 jokers) a run of jokers only is not refused.

A number is C colour layers; the last one also closes the number's groups, so its states (the number
boundary) hold only run slots, hand jokers used and table run jokers placed. Size (issue 16):
- at every boundary, states that another state dominates with at least the score are dropped
  (`_prune_dominated`): fewer hand jokers used, or one colour's run slots higher in the order 3+ > 2 > 1,
  3+ > 0 (SLOT_DOMS: every continuation of the lower slot stays open from the higher one, with the same
  cards). 80-97% of the boundary states of a big table were dominated so; the pass only looks up pair codes
  some state of the layer holds;
- a colour layer refuses a state whose number can no longer close its groups with the colours still to come
  (`_groups_possible`), and one whose new run of 1 or 2 cannot reach 3: too few cards of its colour at the
  next two numbers (table or hand) and too few jokers left for the gaps (the dead-run cut; half of all
  states before it, 1.7-1.8x on recorded self-play turns). Refusing a state that has no completion changes
  nothing: neither has any state of its key, nor any state it would have dominated, and the states that have
  one come only from such states, the same ones in the same order, so the optimum, its path and every tie
  are the same (test_speed_paths runs the search with the cut on and off; the brute force agrees; tallies
  were identical to before on 29 rule and deck variants). The cut reads LOOK_AHEAD numbers past its layer,
  so resume_counts redoes the LOOK_AHEAD layers below `start`;
- each colour layer reads its moves from a table built once per process (`move_table`), less the moves a
  sibling move dominates, moves without jokers first; colours with fewer cards of the number go first.
Which states are dropped decides ties between equally good plays (a dominated state of equal score goes), so
this is policy: the meld finder lays the same points and cards, the table may be arranged otherwise.
Every search runs in one CAP workspace; only a search past CAP returns -2 (give up: the player draws). None
in the bench's or the check's rounds since the boundary pass (3 in 932 recorded 4-player turns before).

The workspace keeps every layer and its state count, so a search whose input differs from the previous one
only from number index `start` on resumes there (`resume_counts`: the joker retrieval's candidate
searches). `solve_turn` is the meld finder's whole turn, joker retrieval included.

The objective is points * 256 + cards, with a laid joker worth `joker_value` points (or, when negative, the
number it stands for: the initial-meld count). `decode` turns the optimal decisions into melds.

The meld finder's modules: `solver_state` (constants, the workspace, the hash table of a layer's states),
`solver_search` (the layers, the dominance pass, resuming), `solver_decode` (decisions -> melds),
`solver_retrieval` (joker retrieval); this one plays the whole turn (`solve_turn`)."""

from __future__ import annotations

import numpy as np

from generator.engine.kernel import jit
from generator.games.rummy_cards.solver_decode import decode
from generator.games.rummy_cards.solver_retrieval import _best_retrieval
from generator.games.rummy_cards.solver_search import solve_exact
from generator.games.rummy_cards.solver_state import (
    GIVE_UP,
    MAX_FREE_RUN_JOKERS,
    OUT_BEST,
    OUT_EXACT,
    OUT_GIVEUPS,
    OUT_MELDS,
    OUT_RETRIEVED,
    RUN,
    SolverWorkspace,
    is_joker_entry,
)


@jit
def joker_locks(
    layout: np.ndarray,
    n_melds: int,
    n_colours: int,
    n_numbers: int,
    run_locks: np.ndarray,
    group_locks: np.ndarray,
) -> None:
    """Add to run_locks[kind] / group_locks[kind] the kind each run / group joker on the laid-out table stands
    for (runs: its place; groups: the lowest colour missing among the group's real cards)."""
    N = n_numbers
    for mi in range(n_melds):
        length = layout[mi, 1]
        for j in range(length):
            ent = layout[mi, 2 + j]
            if not is_joker_entry(ent):
                continue
            k = ent >> 3
            if layout[mi, 0] == RUN:
                run_locks[k] += 1
            else:
                v = k % N
                miss = 0
                for cc in range(n_colours):
                    present = False
                    for jj in range(length):
                        e2 = layout[mi, 2 + jj]
                        if not is_joker_entry(e2) and (e2 >> 3) // N == cc:
                            present = True
                    if not present:
                        miss = cc
                        break
                group_locks[miss * N + v] += 1


@jit
def table_cards(
    layout: np.ndarray,
    n_melds: int,
    n_colours: int,
    n_numbers: int,
    real: np.ndarray,
    run_locks: np.ndarray,
    group_locks: np.ndarray,
) -> None:
    """Recount a whole laid-out table: real cards per kind, run and group jokers per kind they stand for
    (arrays overwritten)."""
    for k in range(real.shape[0]):
        real[k] = 0
        run_locks[k] = 0
        group_locks[k] = 0
    for mi in range(n_melds):
        for j in range(layout[mi, 1]):
            ent = layout[mi, 2 + j]
            if not is_joker_entry(ent):
                real[ent >> 3] += 1
    joker_locks(layout, n_melds, n_colours, n_numbers, run_locks, group_locks)


@jit
def opening_points_bound(
    hand: np.ndarray, hand_jokers: int, n_colours: int, n_numbers: int, num_min: int
) -> int:
    """An upper bound on the opening search's points (solve_turn with opening True: new melds of hand cards
    only, a joker counted as the number it stands for), without a search: every hand card that some meld of
    hand cards could hold, at face value (both copies), plus each hand joker at the highest number.

    A card of kind (c, v) in a run sits in a window of 3 consecutive places of colour c whose other places are
    hand cards or jokers; in a group, 3+ distinct colours at number v are the hand's cards or jokers. A card
    passing neither test is in no meld, so the bound never falls below the optimum (tests: test_speed_paths).
    """
    C = n_colours
    N = n_numbers
    total = hand_jokers * (num_min + N - 1)
    for v in range(N):
        colours = 0
        for c in range(C):
            if hand[c * N + v] > 0:
                colours += 1
        for c in range(C):
            k = c * N + v
            if hand[k] == 0:
                continue
            ok = colours + hand_jokers >= 3
            s = v - 2 if v >= 2 else 0
            while not ok and s <= v and s + 2 < N:
                gaps = 0
                for w in range(s, s + 3):
                    if hand[c * N + w] == 0:
                        gaps += 1
                ok = gaps <= hand_jokers
                s += 1
            if ok:
                total += hand[k] * (num_min + v)
    return total


@jit
def solve_turn(
    t_real: np.ndarray,
    t_jrun: np.ndarray,
    t_jgrp: np.ndarray,
    hand: np.ndarray,
    hand_jokers: int,
    opening: bool,
    retrieval: bool,
    known_nothing: bool,
    n_colours: int,
    n_numbers: int,
    num_min: int,
    joker_penalty: int,
    layout: np.ndarray,
    out: np.ndarray,
    ws: SolverWorkspace,
) -> None:
    """The meld finder's whole turn: out[OUT_BEST] objective, [OUT_MELDS] melds in layout, [OUT_RETRIEVED]
    retrieved joker (the kind it stood for, + n_kinds for a group joker) or -1, [OUT_GIVEUPS] give-ups; ws the
    search's arrays (workspaces); layout = the new melds (opening) or the whole new table (opened). Objective
    <= 0: nothing. t_jrun / t_jgrp: the table's run / group jokers by the kind they stand for (table_cards);
    each stays in a set of its kind (run colour / group number) unless retrieved.

    Opening: new melds from the hand only, the most initial-meld points (a joker counts as its card).
    Opened: the whole table rearranged with the hand, the most penalty points laid (joker = joker_penalty),
    then the most cards; also (retrieval True) every joker retrieval (see _best_retrieval), taken when
    strictly better.

    known_nothing (opened only): the caller knows the table search lays nothing, so it is skipped (the
    retrieval still runs); the result is a full search's, a give-up aside. The kernel's meld finders know it
    (sim.play_round) when their last turn's exact table search laid its optimum P without retrieval and
    nobody laid since: a lay Q of the table T + P with the hand H - P would make P + Q a lay of (T, H) worth
    more than P (Q lays a card, and every arrangement of T + P with Q is one of T with P + Q); or when it laid
    nothing and no card was drawn (the same search again). The reference (policies.MeldFinder) searches.
    out[OUT_EXACT]: 1 when the table search was exact (no give-up; a known one counts as exact).
    """
    C = n_colours
    N = n_numbers
    K = C * N
    decisions = np.zeros(N * C, np.int64)
    zeros = np.zeros(K, np.int64)
    zn = np.zeros(N, np.int64)
    out[OUT_RETRIEVED] = -1
    out[OUT_GIVEUPS] = 0
    if opening:
        best = solve_exact(
            zeros, hand, hand_jokers, np.zeros(C, np.int64), zn, C, N, num_min, -1, decisions, ws
        )
        out[OUT_EXACT] = 1
        if best == GIVE_UP:
            out[OUT_GIVEUPS] += 1
            out[OUT_EXACT] = 0
        out[OUT_BEST] = best
        out[OUT_MELDS] = 0
        if best > 0 and (best & 255) > 0:
            out[OUT_MELDS] = decode(decisions, zeros, zeros, zn, C, N, layout)
        return
    rj = np.zeros(C, np.int64)
    gj = np.zeros(N, np.int64)
    t_lock = np.zeros(K, np.int64)
    for k in range(K):
        rj[k // N] += t_jrun[k]
        gj[k % N] += t_jgrp[k]
    for c in range(C):
        if rj[c] > MAX_FREE_RUN_JOKERS:  # beyond the key's counter: these keep their kinds
            for v in range(N):
                t_lock[c * N + v] = t_jrun[c * N + v]
            rj[c] = 0
    forced = t_real + t_lock
    if known_nothing:
        best = 0
    else:
        best = solve_exact(forced, hand, hand_jokers, rj, gj, C, N, num_min, joker_penalty, decisions, ws)
    out[OUT_EXACT] = 1
    if best == GIVE_UP:
        out[OUT_GIVEUPS] += 1
        out[OUT_EXACT] = 0
    if best > 0 and (best & 255) > 0:
        out[OUT_MELDS] = decode(decisions, t_real, t_lock, gj, C, N, layout)
    else:
        best = 0
        out[OUT_MELDS] = 0
    out[OUT_BEST] = best
    if not retrieval:
        return
    _best_retrieval(
        t_real,
        t_jrun,
        t_jgrp,
        t_lock,
        rj,
        gj,
        forced,
        hand,
        hand_jokers,
        C,
        N,
        num_min,
        joker_penalty,
        layout,
        out,
        decisions,
        ws,
    )
