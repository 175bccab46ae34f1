"""The meld finder's steps one at a time (issue 22 item 5): resume_counts' search and the joker retrieval are
split into named steps (solver_search.py, solver_decode.py, solver_retrieval.py); each is checked here on a
position small enough to work out by hand or against the reference rules (rules.meld_roles), so a step that
goes wrong points at itself, not at a whole search that no longer agrees with the oracle
(test_solver_oracle.py) or with itself (test_speed_paths.py).

Kinds are colour * N + number index (colours yellow, blue, black, red; numbers 1..13, index = number - 1)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations

import numpy as np
import pytest

from generator.games.rummy_cards import solver_decode, solver_retrieval, solver_search, solver_state
from generator.games.rummy_cards.rules import Deck, Meld, is_valid_meld
from generator.games.rummy_cards.solver_retrieval import CAND_F, CAND_GAIN, MAX_CANDIDATES
from generator.games.rummy_cards.solver_search import move_table, workspaces
from generator.games.rummy_cards.solver_state import (
    DEC_GROUP_JOKERS,
    GROUP,
    OUT_BEST,
    OUT_MELDS,
    OUT_RETRIEVED,
    OUT_SIZE,
    RUN,
    SRC_FREED_JOKER,
    SRC_HAND,
    SRC_TABLE,
    SRC_TABLE_JOKER,
    TJ_SHIFT,
    SolverWorkspace,
    new_workspace,
)
from tests.games.python_kernels import all_python

C, N, NUM_MIN = 4, 13, 1
DECK = Deck(("yellow", "blue", "black", "red"), NUM_MIN, NUM_MIN + N - 1, 2, 3)
Y, B, K, R = range(C)
JOKER = 25 * 256 + 1  # a laid hand joker's objective (joker_value 25)


@pytest.fixture(autouse=True)
def _as_python() -> Iterator[None]:
    """Every step runs as its Python function (`all_python`): most steps are merged into the search and
    compile only inside it, where the tests of solve_turn and of the kernel against the reference rules run
    them; a call from Python compiled a version of each that no command compiles."""
    with all_python():
        yield


def kind(colour: int, number: int) -> int:
    return colour * N + number - NUM_MIN


def counts(*cards: tuple[int, int]) -> np.ndarray:
    """Counts per kind of (colour, number) cards."""
    out = np.zeros(C * N, np.int64)
    for colour, number in cards:
        out[kind(colour, number)] += 1
    return out


def gain(*numbers: int) -> int:
    """The objective of laying these cards from the hand: points * 256 + cards."""
    return sum(n * 256 + 1 for n in numbers)


def as_meld(row: np.ndarray) -> Meld:
    """A layout row [type, length, entry...] as the reference rules' Meld (a joker entry: a joker card)."""
    cards = []
    for j, ent in enumerate(row[2 : 2 + row[1]]):
        if solver_state.is_joker_entry(int(ent)):
            cards.append(DECK.card("joker", j))
        else:
            cards.append(int(ent >> 3) * DECK.copies)
    return Meld("run" if row[0] == RUN else "group", tuple(cards))


# ---- the table search's steps ------------------------------------------------------------------------


def test_colour_order_puts_the_colours_with_fewest_cards_of_the_number_first() -> None:
    forced = counts((Y, 5))
    hand = counts((Y, 5), (K, 5), (B, 6))  # at 5: yellow 2, blue 0, black 1, red 0 (the blue 6 is not a 5)
    order = np.zeros(C, np.int64)
    solver_search._colour_order(forced, hand, 4, C, N, order)
    assert order.tolist() == [B, R, K, Y]  # ties (blue, red: none) by colour


def test_group_room_counts_the_later_colours_cards_at_most_three_each() -> None:
    forced = counts((Y, 5), (Y, 5))
    hand = counts((Y, 5), (Y, 5), (K, 5))  # yellow: 4 cards of the 5 (only 3 can be in groups), black 1
    order = np.array([B, R, K, Y], np.int64)
    rooms = [solver_search._group_room(forced, hand, order, pos, 4, C, N) for pos in range(C)]
    assert rooms == [0 + 1 + 3, 1 + 3, 3, 0]  # after blue: red, black, yellow; after red: black, yellow


@pytest.mark.parametrize(
    "number, expect",
    [
        # at 5, with a yellow 6 in the hand but no yellow 7
        (5, {0: 0, 1: 1, 2: 0, 3: 0, 1 | (1 << 2): 1 + 2, 2 | (1 << 2): 1 + 1, 2 | (2 << 2): 1}),
        # at 13 nothing follows: every place a short run still needs counts as a joker
        (13, {0: 0, 1: 2, 2: 1, 3: 0, 1 | (1 << 2): 4, 3 | (1 << 2): 2, 2 | (2 << 2): 2}),
    ],
)
def test_run_shortfall_counts_the_jokers_a_short_run_needs_to_reach_three(
    number: int, expect: dict[int, int]
) -> None:
    """Slot pair code ab = a | b << 2, a slot's value the length of yellow's run so far (3: 3 or more). At 5
    the hand holds a yellow 6 but no 7: a run of 1 needs the 6 (there) and a 7 (a joker); two runs of 1 need
    two 6s (one short) and two 7s; a run of 2 needs only a 6, so a run of 2 and one of 1 are one 6 short and
    one 7 short."""
    hand = counts((Y, 6), (Y, 9))
    short = np.full(16, -1, np.int64)
    solver_search._run_shortfall(np.zeros(C * N, np.int64), hand, Y, number - 1, N, short)
    assert {ab: int(short[ab]) for ab in expect} == expect


def _can_split_into_groups(colour_counts: tuple[int, ...], jokers: int) -> bool:
    """Brute force over the reference rules: the cards of one number (per colour) and the jokers make groups
    that the rules accept, every card and joker in one."""

    @cache
    def split(left: tuple[int, ...], j: int) -> bool:
        if sum(left) == 0:
            return j == 0
        first = next(c for c in range(C) if left[c])  # the lowest colour left is in some group
        others = [c for c in range(C) if c != first and left[c]]
        for size in range(len(others) + 1):
            for picked in combinations(others, size):
                for used in range(j + 1):
                    cards = tuple(DECK.card(f"{DECK.colours[c]}7") for c in (first, *picked))
                    cards += tuple(DECK.card("joker", i) for i in range(used))
                    if is_valid_meld(DECK, Meld("group", cards)):
                        rest = tuple(n - (c == first or c in picked) for c, n in enumerate(left))
                        if split(rest, j - used):
                            return True
        return False

    return split(colour_counts, jokers)


def test_groups_close_agrees_with_the_rules_on_every_small_number() -> None:
    """Every split of up to 2 copies per colour and up to 3 jokers at one number: _groups_close(real cards,
    jokers, largest colour count) says yes exactly when the reference rules accept some grouping (groups of
    3..4 distinct colours, each with a number card)."""
    seen = set()
    for cc in np.ndindex(3, 3, 3, 3):
        for jokers in range(4):
            want = _can_split_into_groups(tuple(cc), jokers)
            assert solver_search._groups_close(sum(cc), jokers, max(cc), C) == want, (cc, jokers)
            seen.add(want)
    assert seen == {True, False}
    assert not solver_search._groups_close(0, 3, 0, C)  # jokers only: refused
    assert solver_search._groups_close(1, 2, 1, C)  # a 7 and two jokers
    assert not solver_search._groups_close(
        4, 0, 2, C
    )  # yellow 7 twice, blue 7, black 7: two groups need 6 cards


def _layer(ws: SolverWorkspace, L: int) -> set[tuple[int, int]]:
    return {(int(ws.keys[L, i]), int(ws.score[L, i])) for i in range(int(ws.counts[L]))}


def _start(ws: SolverWorkspace) -> None:
    """Layer 0: the one empty state."""
    ws.keys[0, 0], ws.score[0, 0], ws.parent[0, 0], ws.dec[0, 0], ws.counts[0] = 0, 0, -1, 0, 1


@pytest.mark.parametrize(
    "hand_cards, room, cut, expect",
    [
        # yellow 1 2 3 in the hand: keep the 1, or start a run with it (slot a = 1); no group (no room)
        (((Y, 1), (Y, 2), (Y, 3)), 0, True, {(0, 0), (1, gain(1))}),
        # yellow 1 alone: the run it would start can never reach 3, the dead-run cut refuses it
        (((Y, 1),), 0, True, {(0, 0)}),
        (((Y, 1),), 0, False, {(0, 0), (1, gain(1))}),
        # room for two more 1s from later colours: the 1 may also go to the groups (1 group card, yellow's 1)
        (((Y, 1),), 2, True, {(0, 0), ((1 << 36) | (1 << 42), gain(1))}),
    ],
)
def test_colour_layer_lists_the_moves_of_one_colour(
    hand_cards: tuple[tuple[int, int], ...], room: int, cut: bool, expect: set[tuple[int, int]]
) -> None:
    """One colour layer from the empty state: yellow at number 1, not the number's last colour. A state's key
    holds the colour's run slots (4 bits a colour), then hand jokers used (<< 32), the number's group cards
    (<< 36) and the largest colour count among them (<< 42)."""
    ws = workspaces(C, N)
    _start(ws)
    hand = counts(*hand_cards)
    forced = np.zeros(C * N, np.int64)
    short = np.zeros(16, np.int64)
    solver_search._run_shortfall(forced, hand, Y, 0, N, short)
    hmask = solver_search._colour_layer(
        ws, 0, Y, 0, False, forced, hand, 0, 0, 0, room, short, gain(1), JOKER, C, N, cut
    )
    assert hmask == 255
    assert _layer(ws, 1) == expect


def test_close_groups_adds_the_hand_jokers_that_make_the_groups_valid() -> None:
    """The number's last colour: 2 group cards (one per colour) close only with a hand joker (a group of 3);
    3 close with none or one (a group of 3 or 4)."""
    ws = workspaces(C, N)
    ws.counts[1] = 0
    hmask = solver_search._close_groups(ws, 1, 0, 0, 100, 7, 2, 1, 0, 1, JOKER, C, 255)
    assert hmask == 255
    assert _layer(ws, 1) == {(1 << 32, 100 + JOKER)}
    assert ws.dec[1, 0] == 7 | (1 << DEC_GROUP_JOKERS)  # the decision records the group's jokers
    ws.htab[ws.hpos[0], 0] = 0
    ws.counts[1] = 0
    solver_search._close_groups(ws, 1, 0, 0, 100, 7, 3, 1, 0, 1, JOKER, C, 255)
    assert _layer(ws, 1) == {(0, 100), (1 << 32, 100 + JOKER)}
    for i in range(2):
        ws.htab[ws.hpos[i], 0] = 0
    ws.counts[1] = 0
    assert (
        solver_search._close_groups(ws, 1, 0, 0, 100, 7, 2, 1, 0, 0, JOKER, C, 255) == 255
    )  # no joker to spare
    assert ws.counts[1] == 0


def test_offer_keeps_one_state_per_key_at_its_best_value() -> None:
    ws = workspaces(C, N)
    ws.counts[1] = 0
    assert solver_search._offer(ws, 1, 42, 5, 0, 1, 255) == 255
    assert solver_search._offer(ws, 1, 42, 3, 1, 2, 255) == 255  # worse: ignored
    assert solver_search._offer(ws, 1, 42, 5, 2, 3, 255) == 255  # as good: the first stays
    assert (ws.counts[1], ws.score[1, 0], ws.parent[1, 0], ws.dec[1, 0]) == (1, 5, 0, 1)
    solver_search._offer(ws, 1, 42, 9, 3, 4, 255)  # better: it takes the state over
    assert (ws.counts[1], ws.score[1, 0], ws.parent[1, 0], ws.dec[1, 0]) == (1, 9, 3, 4)
    hmask = 255
    for key in range(100, 227):  # 128 states in a table of 256 slots: it doubles
        hmask = solver_search._offer(ws, 1, key, 0, 0, 0, hmask)
    assert hmask == 511 and ws.counts[1] == 128
    assert all(solver_state._lookup(ws.keys, 1, ws.htab, hmask, key) == key - 99 for key in range(100, 227))
    for i in range(128):
        ws.htab[ws.hpos[i], 0] = 0


def test_offer_gives_up_when_the_layer_is_full_and_clears_its_hash_slots() -> None:
    ws = SolverWorkspace(*new_workspace(C, N, 128), *move_table())  # rows of 128 + ROW_PAD states, 256 slots
    ws.counts[1] = 0
    row = ws.keys.shape[1]
    for key in range(row):
        assert solver_search._offer(ws, 1, key, 0, 0, 0, 255) == 255
    assert solver_search._offer(ws, 1, row, 0, 0, 0, 255) == -1
    assert not ws.htab[:, 0].any()


def test_best_boundary_takes_the_best_valid_table_first_on_a_tie() -> None:
    """Valid: no run slot of 1 or 2 left open and every table run joker placed (here the yellow one)."""
    ws = workspaces(C, N)
    rj = np.array([1, 0, 0, 0], np.int64)
    placed = 1 << TJ_SHIFT
    states = [
        (placed | 3, 20, 0),  # yellow run of 3+, the joker placed: valid
        (placed | 2, 30, 0),  # a yellow run of 2 still open
        (3, 40, 0),  # the table's run joker left out
        (placed | 3 | (3 << 4), 20, 0),  # valid, as good as the first
        (placed, 50, -1),
    ]  # dominated (pruned)
    for i, (key, score, dec) in enumerate(states):
        ws.keys[5, i], ws.score[5, i], ws.dec[5, i] = key, score, dec
    ws.counts[5] = len(states)
    assert solver_search._best_boundary(ws, 5, rj, C) == 0
    ws.score[5, 3] = 21
    assert solver_search._best_boundary(ws, 5, rj, C) == 3
    ws.dec[5, 3] = -1
    ws.dec[5, 0] = -1
    assert solver_search._best_boundary(ws, 5, rj, C) == -1


def test_trace_back_reads_the_decisions_along_the_parents() -> None:
    ws = workspaces(C, N)
    ws.parent[1, :2], ws.dec[1, :2] = [0, 0], [10, 11]
    ws.parent[2, :2], ws.dec[2, :2] = [1, 0], [20, 21]
    ws.parent[3, :3], ws.dec[3, :3] = [0, 0, 1], [30, 31, 32]
    decisions = np.zeros(3, np.int64)
    solver_decode._trace_back(ws, 3, 2, decisions)  # 3:2 <- 2:1 <- 1:0
    assert decisions.tolist() == [10, 21, 32]


# ---- the joker retrieval's steps ----------------------------------------------------------------------


def test_retrievable_needs_a_hand_card_a_table_joker_stands_for() -> None:
    jrun, jgrp = counts((Y, 6)), np.zeros(C * N, np.int64)
    assert solver_retrieval._retrievable(jrun, jgrp, counts((Y, 6)))
    assert not solver_retrieval._retrievable(jrun, jgrp, counts((Y, 7), (R, 6)))
    assert solver_retrieval._retrievable(
        jgrp, counts((R, 6)), counts((R, 6))
    )  # a group joker standing for red 6


def test_candidate_melds_are_the_new_melds_of_the_freed_joker() -> None:
    """Hand yellow 5 6, blue 9, black 9 (the card put in for the joker already taken out): the joker makes
    joker-5-6 (as 4), 5-6-joker (as 7) and blue-black-joker 9s (as yellow, the lowest missing colour); 5-J-7
    needs a 7. Each is a meld the reference rules accept."""
    hand = counts((Y, 5), (Y, 6), (B, 9), (K, 9))
    cand = np.zeros((MAX_CANDIDATES, CAND_F), np.int64)
    nc = solver_retrieval._candidate_melds(kind(R, 7), hand, C, N, NUM_MIN, cand)
    assert cand[:nc].tolist() == [
        [RUN, Y, 3, 5, 3, gain(5, 6)],
        [RUN, Y, 4, 6, 6, gain(5, 6)],
        [GROUP, 8, (1 << B) | (1 << K), 0, 0, gain(9, 9)],
    ]
    layout = np.zeros((nc, 2 + N), np.int64)
    for i in range(nc):
        solver_retrieval._write_meld(layout, i, cand[i], C, N)
        assert is_valid_meld(DECK, as_meld(layout[i]))
    assert layout[2, :5].tolist() == [
        GROUP,
        3,
        kind(B, 9) * 8 + SRC_HAND,
        kind(K, 9) * 8 + SRC_HAND,
        kind(Y, 9) * 8 + SRC_FREED_JOKER,
    ]
    # the joker's own kind stays out: with yellow 6 as the retrieved card's kind only the 9s remain
    assert solver_retrieval._candidate_melds(kind(Y, 6), hand, C, N, NUM_MIN, cand) == 1
    assert cand[0, CAND_GAIN] == gain(9, 9)


def test_take_and_fits_follow_a_candidates_hand_cards() -> None:
    hand = counts((Y, 5), (Y, 6), (B, 9), (K, 9))
    run = np.array([RUN, Y, 3, 5, 3, 0], np.int64)  # joker 5 6
    assert solver_retrieval._fits(run, hand, C, N)
    solver_retrieval._take(run, hand, C, N, -1)
    assert hand.tolist() == counts((B, 9), (K, 9)).tolist()
    assert not solver_retrieval._fits(run, hand, C, N)
    solver_retrieval._take(run, hand, C, N, 1)
    assert hand.tolist() == counts((Y, 5), (Y, 6), (B, 9), (K, 9)).tolist()


def _joker_table() -> tuple[np.ndarray, np.ndarray]:
    """A table of one run, yellow 4 5 and a table joker as yellow 6; out says the search laid nothing."""
    layout = np.zeros((8, 2 + N), np.int64)
    layout[0, :5] = [
        RUN,
        3,
        kind(Y, 4) * 8 + SRC_TABLE,
        kind(Y, 5) * 8 + SRC_TABLE,
        kind(Y, 6) * 8 + SRC_TABLE_JOKER,
    ]
    out = np.zeros(OUT_SIZE, np.int64)
    out[OUT_MELDS], out[OUT_RETRIEVED] = 1, -1
    return layout, out


def test_greedy_incumbent_swaps_the_card_in_and_lays_the_richest_candidate() -> None:
    """Hand yellow 6, blue 9, black 9: the 6 takes the joker's place and the joker joins the 9s (as yellow
    9): 6 + 9 + 9 points, three cards."""
    layout, out = _joker_table()
    hand = counts((Y, 6), (B, 9), (K, 9))
    cand = np.zeros((MAX_CANDIDATES, CAND_F), np.int64)
    hand2 = hand.copy()
    hand2[kind(Y, 6)] -= 1
    nc = solver_retrieval._candidate_melds(kind(Y, 6), hand2, C, N, NUM_MIN, cand)
    assert solver_retrieval._greedy_incumbent(kind(Y, 6), hand, cand, nc, layout, out, C, N, NUM_MIN)
    assert out[OUT_BEST] == gain(6, 9, 9) and out[OUT_MELDS] == 2 and out[OUT_RETRIEVED] == kind(Y, 6)
    assert layout[0, 4] == kind(Y, 6) * 8 + SRC_HAND
    assert all(is_valid_meld(DECK, as_meld(layout[i])) for i in range(2))
    layout, out = _joker_table()
    assert not solver_retrieval._greedy_incumbent(
        kind(Y, 6), counts((Y, 6), (B, 9)), cand, nc, layout, out, C, N, NUM_MIN
    )
    assert out[OUT_BEST] == 0 and out[OUT_MELDS] == 1  # black 9 not in the hand: no candidate fits


def test_search_candidates_finds_the_retrieval_by_an_exact_search() -> None:
    """The same position as counts: the table yellow 4 5 6 with the 6 from the hand forced, the hand blue 9
    black 9 left; the search without a candidate lays nothing, with the 9s and the joker it lays them."""
    forced2 = counts((Y, 4), (Y, 5), (Y, 6))
    hand2 = counts((B, 9), (K, 9))
    rj2, gj2 = np.zeros(C, np.int64), np.zeros(N, np.int64)
    cand = np.zeros((MAX_CANDIDATES, CAND_F), np.int64)
    nc = solver_retrieval._candidate_melds(kind(Y, 6), hand2, C, N, NUM_MIN, cand)
    out = np.zeros(OUT_SIZE, np.int64)
    best_meld, best_dec = np.zeros(CAND_F, np.int64), np.zeros(N * C, np.int64)
    decisions = np.zeros(N * C, np.int64)
    ws = workspaces(C, N)
    kf = solver_retrieval._search_candidates(
        kind(Y, 6),
        cand,
        nc,
        forced2,
        hand2,
        0,
        rj2,
        gj2,
        C,
        N,
        NUM_MIN,
        25,
        decisions,
        ws,
        out,
        -1,
        best_meld,
        best_dec,
    )
    assert kf == kind(Y, 6) and out[OUT_BEST] == gain(6, 9, 9)
    assert best_meld.tolist() == cand[0].tolist() and (best_dec == decisions).all()
    assert hand2.tolist() == counts((B, 9), (K, 9)).tolist()  # the hand is given back
    out[OUT_BEST] = gain(6, 9, 9)  # nothing better: the bound stops before any candidate search
    assert (
        solver_retrieval._search_candidates(
            kind(Y, 6),
            cand,
            nc,
            forced2,
            hand2,
            0,
            rj2,
            gj2,
            C,
            N,
            NUM_MIN,
            25,
            decisions,
            ws,
            out,
            -1,
            best_meld,
            best_dec,
        )
        == -1
    )
