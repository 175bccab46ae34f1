"""Rummy Cards speed paths (issue 16): every shortcut the self-play kernel takes instead of a search gives the
result the search would have given, so the kernel's rounds are the ones without the shortcut, card for
card."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.kernel import py_func, seed_state
from generator.games.rummy_cards import sim as sim_module
from generator.games.rummy_cards.sim import play_round, round_workspace, simulation_from_spec
from generator.games.rummy_cards.sim_setup import RES_TURNS
from generator.games.rummy_cards.solver import opening_points_bound, solve_turn
from generator.games.rummy_cards.solver_search import workspaces
from generator.games.rummy_cards.solver_state import OUT_BEST, OUT_SIZE
from generator.games.rummy_cards.spec import RummyCardsGame
from tests.games.rummy_cards.tables import random_table
from tests.games.shipped import game_spec

C, N = 4, 13


def _opening_points(hand: np.ndarray, jokers: int) -> int:
    """The exact opening search's points for a hand (0 when it lays nothing)."""
    out = np.zeros(OUT_SIZE, np.int64)
    z = np.zeros(C * N, np.int64)
    solve_turn(
        z,
        z,
        z,
        hand,
        jokers,
        True,
        True,
        False,
        C,
        N,
        1,
        25,
        np.zeros((64, 2 + N), np.int64),
        out,
        workspaces(C, N),
    )
    return int(out[OUT_BEST]) >> 8 if out[OUT_BEST] > 0 else 0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(3, 30), jokers=st.integers(0, 2))
def test_opening_bound_is_never_below_the_exact_opening(seed: int, size: int, jokers: int) -> None:
    rng = np.random.default_rng(seed)
    deck = rng.permutation(np.repeat(np.arange(C * N), 2))
    hand = np.bincount(deck[:size], minlength=C * N).astype(np.int64)
    assert opening_points_bound(hand, jokers, C, N, 1) >= _opening_points(hand, jokers)


def _hand(*kinds: tuple[int, int]) -> np.ndarray:
    h = np.zeros(C * N, np.int64)
    for c, v in kinds:
        h[c * N + v - 1] += 1
    return h


@pytest.mark.parametrize(
    "kinds, jokers, bound",
    [
        (((0, 1), (1, 5), (2, 9), (3, 13)), 0, 0),  # no two cards can meet: nothing counts
        (((0, 11), (0, 12), (0, 13)), 0, 36),  # a run: its cards at face value
        (((0, 7), (1, 7), (2, 7), (0, 1)), 0, 21),  # a group counts, the lone 1 does not
        (((0, 7), (1, 7), (0, 1)), 1, 7 + 7 + 13),  # a joker makes the 7s a group; the 1 stays alone
        (((0, 5), (0, 7), (0, 7)), 0, 0),  # a gap and no joker: no run, no group
        (((0, 5), (0, 7), (0, 7)), 1, 5 + 7 + 7 + 13),  # the joker fills the gap (both copies count)
    ],
)
def test_opening_bound_counts_only_cards_some_meld_could_hold(
    kinds: tuple[tuple[int, int], ...], jokers: int, bound: int
) -> None:
    hand = _hand(*kinds)
    assert opening_points_bound(hand, jokers, C, N, 1) == bound
    assert bound >= _opening_points(hand, jokers)


def _kernel_round(spec: RummyCardsGame, players: int, seed: int, random_seat: int) -> list[list[int]]:
    """One round through play_round's Python body (its callees compiled): result, scores, first_possible, log,
    random-legal choices."""
    setup = simulation_from_spec(spec, players).setup()
    ws = round_workspace(setup, 1, setup.max_turns)
    ws.log[:] = -9
    res = py_func(play_round)(seed_state(seed), setup, ws, 0, random_seat)
    return [
        res.tolist(),
        ws.scores.ravel().tolist(),
        ws.first_possible.ravel().tolist(),
        ws.log[: res[RES_TURNS]].tolist(),
        ws.choices[: res[RES_TURNS]].ravel().tolist(),
    ]


@pytest.mark.parametrize(
    "seed, players, random_seat, changes",
    [
        (11, 2, -1, {}),
        (12, 3, -1, {}),
        (13, 4, 1, {}),
        (14, 3, -1, {"rules.opening_turn": "own_melds_only", "rules.draw": "by_choice"}),
        (15, 2, 0, {"initial_meld": 30, "balance.meld_thresholds": [20, 45]}),
    ],
)
def test_rounds_with_and_without_the_opening_shortcut_are_identical(
    monkeypatch: pytest.MonkeyPatch, seed: int, players: int, random_seat: int, changes: dict[str, object]
) -> None:
    """The kernel skips the opening search when opening_points_bound proves it cannot reach the smallest
    threshold still open; with the bound disabled (every search run) the round is the same turn for turn,
    first_possible included. The count of skipped turns shows the shortcut was taken."""
    spec = game_spec("rummy_cards", changes)
    calls = {"bound": 0}
    real = sim_module.opening_points_bound

    def counting(*args: object) -> int:
        calls["bound"] += 1
        return int(real(*args))

    monkeypatch.setattr(sim_module, "opening_points_bound", counting)
    fast = _kernel_round(spec, players, seed, random_seat)
    monkeypatch.setattr(sim_module, "opening_points_bound", lambda *args: 10**9)
    slow = _kernel_round(spec, players, seed, random_seat)
    assert fast == slow
    assert calls["bound"] > 0


def test_the_shortcut_skips_searches_in_real_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """So the equality above is not vacuous: in default rounds some opening turns are decided by the bound."""
    spec = game_spec("rummy_cards", {})
    skipped = {"n": 0, "turns": 0}
    real = sim_module.opening_points_bound

    def counting(hand: np.ndarray, jokers: int, n_colours: int, n_numbers: int, num_min: int) -> int:
        b = int(real(hand, jokers, n_colours, n_numbers, num_min))
        skipped["turns"] += 1
        skipped["n"] += b < 30
        return b

    monkeypatch.setattr(sim_module, "opening_points_bound", counting)
    for seed in (1, 2, 3):
        _kernel_round(spec, 3, seed, -1)
    assert 0 < skipped["n"] < skipped["turns"]


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), jokers=st.integers(0, 1))
def test_where_the_dominance_pass_runs_changes_ties_only(seed: int, jokers: int) -> None:
    """PRUNE_AT (issue 16: 1,024 -> 8,192) only decides which layers drop dominated states, so it may change
    which of several equally good plays comes out, never the points or cards: the compiled search, given
    prune_at explicitly, gives the same objective with the pass on every layer and on none."""
    from generator.games.rummy_cards import solver_search, solver_state

    rng = np.random.default_rng(seed)
    forced = random_table(rng, int(rng.integers(3, 8)), C, N)
    deck = rng.permutation(np.repeat(np.arange(C * N), 2))
    hand = np.minimum(np.bincount(deck[: int(rng.integers(8, 20))], minlength=C * N), 2 - forced).astype(
        np.int64
    )
    rj, gj = np.zeros(C, np.int64), np.zeros(N, np.int64)
    ws = workspaces(C, N)
    results = []
    for prune_at in (0, 10**9):
        dec = np.zeros(N * (C + 1), np.int64)
        results.append(
            solver_search.resume_counts(
                forced, hand, jokers, rj, gj, C, N, 1, 25, dec, ws, 0, prune_at, solver_state.DEAD_RUN_CUT
            )
        )
    assert results[0] == results[1] >= 0  # a valid table: laying nothing is always possible
    assert results[0] == solver_search.solve_counts(forced, hand, jokers, rj, gj, C, N, 1, 25, dec, ws)


def test_rounds_with_and_without_the_known_nothing_shortcut_are_identical(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A meld finder that laid its exact optimum (no retrieval) and saw nobody lay since knows its next table
    search lays nothing, and the kernel skips it (solve_turn's known_nothing). Every skipped search, run in
    full at the same point of real rounds, gives the same result and table (2 and 3 players, both draw rules),
    and the skip happens (36 of the 188 opened searches of these three rounds; at least a tenth asked)."""
    real = sim_module.solve_turn
    seen = {"known": 0, "opened": 0}

    def checking(
        t_real: np.ndarray,
        t_jrun: np.ndarray,
        t_jgrp: np.ndarray,
        hand: np.ndarray,
        hj: int,
        opening: bool,
        retrieval: bool,
        known_nothing: bool,
        *rest: object,
    ) -> None:
        args = (t_real, t_jrun, t_jgrp, hand, hj, opening, retrieval)
        layout, out = rest[4], rest[5]
        if known_nothing:
            real(*args, False, *rest)
            full_out, full_layout = out.copy(), layout[: out[1]].copy()  # type: ignore[attr-defined,index]
            real(*args, True, *rest)
            assert out[:4].tolist() == full_out[:4].tolist()  # type: ignore[index]
            assert (layout[: out[1]] == full_layout).all()  # type: ignore[index]
            seen["known"] += 1
        else:
            real(*args, False, *rest)
        seen["opened"] += not opening

    monkeypatch.setattr(sim_module, "solve_turn", checking)
    for seed, players, changes in ((21, 2, {}), (22, 2, {"rules.draw": "by_choice"}), (23, 3, {})):
        _kernel_round(game_spec("rummy_cards", changes), players, seed, -1)
    assert seen["known"] >= seen["opened"] // 10 > 0


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), jokers=st.integers(0, 2), run_joker=st.booleans())
def test_the_dead_run_cut_changes_nothing_not_even_ties(seed: int, jokers: int, run_joker: bool) -> None:
    """The dead-run cut refuses only states without a completion, so the search with and without it (the
    compiled search, given dead_run_cut explicitly) gives the same objective and the same decisions along the
    optimum, on random valid tables with hand and table jokers."""
    from generator.games.rummy_cards import solver_search, solver_state

    rng = np.random.default_rng(seed)
    forced = random_table(rng, int(rng.integers(3, 8)), C, N)
    deck = rng.permutation(np.repeat(np.arange(C * N), 2))
    hand = np.minimum(np.bincount(deck[: int(rng.integers(8, 20))], minlength=C * N), 2 - forced).astype(
        np.int64
    )
    rj = np.array([int(run_joker), 0, 0, 0], np.int64)
    if run_joker:  # the table joker stands in a yellow run: give it one (yellow 1 2 + the joker as 3)
        forced[0:2] = np.maximum(forced[0:2], 1)
        hand[0:2] = np.minimum(hand[0:2], 2 - forced[0:2])
    gj = np.zeros(N, np.int64)
    ws = workspaces(C, N)
    results, decisions, states = [], [], []
    for cut in (True, False):
        dec = np.zeros(N * (C + 1), np.int64)
        results.append(
            solver_search.resume_counts(
                forced, hand, jokers, rj, gj, C, N, 1, 25, dec, ws, 0, solver_state.PRUNE_AT, cut
            )
        )
        decisions.append(dec)
        states.append(int(ws.counts.sum()))
    assert results[0] == results[1]
    assert (decisions[0] == decisions[1]).all()
    assert states[0] <= states[1]
    compiled_dec = np.zeros(N * (C + 1), np.int64)
    assert (
        solver_search.solve_counts(forced, hand, jokers, rj, gj, C, N, 1, 25, compiled_dec, ws) == results[0]
    )
    assert (compiled_dec == decisions[0]).all()


def test_the_dead_run_cut_cuts() -> None:
    """So the test above can fail: on a table with many short-run openings the cut drops states."""
    from generator.games.rummy_cards import solver_search, solver_state

    rng = np.random.default_rng(5)
    forced = random_table(rng, 6, C, N)
    deck = rng.permutation(np.repeat(np.arange(C * N), 2))
    hand = np.minimum(np.bincount(deck[:16], minlength=C * N), 2 - forced).astype(np.int64)
    rj, gj = np.zeros(C, np.int64), np.zeros(N, np.int64)
    ws = workspaces(C, N)
    counts = []
    for cut in (True, False):
        solver_search.resume_counts(
            forced,
            hand,
            1,
            rj,
            gj,
            C,
            N,
            1,
            25,
            np.zeros(N * (C + 1), np.int64),
            ws,
            0,
            solver_state.PRUNE_AT,
            cut,
        )
        counts.append(int(ws.counts.sum()))
    assert counts[0] < 0.8 * counts[1]
