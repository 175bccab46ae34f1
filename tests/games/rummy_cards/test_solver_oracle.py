"""The exact meld finder against a brute-force oracle (issue 16).

The solver prunes its dynamic programme hard: run slots that another state's slots dominate, group counts that
can no longer close, moves a sibling move dominates (solver_search.py). None of that may change the optimum.
The oracle here knows none of it: it takes the lowest card that must still go to the table (every table card;
then, once those are placed, each hand card in turn, which may also stay in the hand) and tries every meld
holding it, filled from table cards, hand cards and hand jokers, remembering what it has solved. It is slow,
so the decks are small (3-4 colours, 5-7 numbers, 2 copies), which is exactly where the solver is exact.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from generator.games.rummy_cards.solver_decode import decode
from generator.games.rummy_cards.solver_search import solve_counts, workspaces
from generator.games.rummy_cards.solver_state import GROUP, RUN, SRC_HAND, SRC_HAND_JOKER, SRC_TABLE
from tests.games.rummy_cards.tables import random_table

NUM_MIN = 1
JOKER_VALUE = 25


def _melds_with(kind: int, C: int, N: int) -> list[tuple[int, ...]]:
    """Every meld (as its kinds, in place order) that holds `kind`: runs of 3+ places of its colour through
    its number (no wrap), groups of 3..C distinct colours at its number."""
    c, v = divmod(kind, N)
    out = []
    for s in range(max(0, v - N + 1), v + 1):
        for e in range(max(v, s + 2), N):
            out.append(tuple(c * N + w for w in range(s, e + 1)))
    others = [cc for cc in range(C) if cc != c]
    for mask in range(1 << len(others)):
        cols = [c] + [others[i] for i in range(len(others)) if (mask >> i) & 1]
        if 3 <= len(cols) <= C:
            out.append(tuple(sorted(cc * N + v for cc in cols)))
    return out


def oracle(forced: np.ndarray, hand: np.ndarray, jokers: int, C: int, N: int) -> int:
    """The best objective (points * 256 + cards from the hand, a joker worth JOKER_VALUE) of a table that
    holds every forced card, or -1 when none does."""
    gain = [(NUM_MIN + k % N) * 256 + 1 for k in range(C * N)]
    joker_gain = JOKER_VALUE * 256 + 1

    @cache
    def best(f: tuple[int, ...], h: tuple[int, ...], j: int) -> int:
        must = next((k for k, n in enumerate(f) if n), -1)
        if must < 0:
            pick = next((k for k, n in enumerate(h) if n), -1)
            if pick < 0:
                return 0
            h_rest = list(h)
            h_rest[pick] -= 1
            result = best(f, tuple(h_rest), j)  # this copy stays in the hand
            for meld in _melds_with(pick, C, N):
                result = max(result, fill(meld, f, tuple(h_rest), j, pick, gain[pick]))
            return result
        f_rest = list(f)
        f_rest[must] -= 1
        result = -1
        for meld in _melds_with(must, C, N):
            result = max(result, fill(meld, tuple(f_rest), h, j, must, 0))
        return result

    def fill(
        meld: tuple[int, ...], f: tuple[int, ...], h: tuple[int, ...], j: int, placed: int, got: int
    ) -> int:
        """Fill the meld's other places from table cards, hand cards or jokers; best total over the rest."""
        places = [k for k in meld if k != placed]
        result = -1

        def go(i: int, f: list[int], h: list[int], j: int, got: int) -> None:
            nonlocal result
            if i == len(places):
                rest = best(tuple(f), tuple(h), j)
                if rest >= 0:
                    result = max(result, got + rest)
                return
            k = places[i]
            if f[k]:
                f[k] -= 1
                go(i + 1, f, h, j, got)
                f[k] += 1
            if h[k]:
                h[k] -= 1
                go(i + 1, f, h, j, got + gain[k])
                h[k] += 1
            if j:
                go(i + 1, f, h, j - 1, got + joker_gain)

        go(0, list(f), list(h), j, got)
        return result

    return best(tuple(int(x) for x in forced), tuple(int(x) for x in hand), jokers)


def _cases(n: int, seed: int) -> list[tuple[int, int, np.ndarray, np.ndarray, int]]:
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(n):
        C, N = int(rng.integers(3, 5)), int(rng.integers(5, 8))
        forced = random_table(rng, int(rng.integers(0, 4)), C, N)
        deck = rng.permutation(np.repeat(np.arange(C * N), 2))
        hand = np.minimum(np.bincount(deck[: int(rng.integers(3, 9))], minlength=C * N), 2 - forced)
        cases.append((C, N, forced, hand.astype(np.int64), int(rng.integers(0, 3))))
    return cases


def _check_layout(
    layout: np.ndarray,
    n_melds: int,
    forced: np.ndarray,
    hand: np.ndarray,
    jokers: int,
    C: int,
    N: int,
    objective: int,
) -> None:
    """The decoded melds are valid, hold every table card, and lay exactly the objective's hand cards."""
    table = np.zeros(C * N, np.int64)
    laid = np.zeros(C * N, np.int64)
    laid_jokers = 0
    for mi in range(n_melds):
        kind, length = int(layout[mi, 0]), int(layout[mi, 1])
        entries = [int(e) for e in layout[mi, 2 : 2 + length]]
        kinds = [e >> 3 for e in entries]
        assert length >= 3
        if kind == RUN:
            assert len({k // N for k in kinds}) == 1 and [k % N for k in kinds] == list(
                range(kinds[0] % N, kinds[0] % N + length)
            )
        # a group: one number, real cards of distinct colours (jokers stand for missing ones), 3..C cards
        else:
            real = [e >> 3 for e in entries if e & 7 != SRC_HAND_JOKER]
            assert (
                kind == GROUP
                and len({k % N for k in kinds}) == 1
                and len({k // N for k in real}) == len(real)
            )
            assert length <= C
        for e in entries:
            src = e & 7
            if src == SRC_TABLE:
                table[e >> 3] += 1
            elif src == SRC_HAND:
                laid[e >> 3] += 1
            else:
                assert src == SRC_HAND_JOKER
                laid_jokers += 1
    assert np.array_equal(table, forced)
    assert (laid <= hand).all() and laid_jokers <= jokers
    gains = sum(int(laid[k]) * ((NUM_MIN + k % N) * 256 + 1) for k in range(C * N))
    assert gains + laid_jokers * (JOKER_VALUE * 256 + 1) == objective


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_solver_finds_the_oracles_optimum_and_decodes_a_valid_table(seed: int) -> None:
    found_play = 0
    for C, N, forced, hand, jokers in _cases(70, seed):
        ws = workspaces(C, N)
        dec = np.zeros(N * C, np.int64)
        got = solve_counts(
            forced,
            hand,
            jokers,
            np.zeros(C, np.int64),
            np.zeros(N, np.int64),
            C,
            N,
            NUM_MIN,
            JOKER_VALUE,
            dec,
            ws,
        )
        want = oracle(forced, hand, jokers, C, N)
        assert got == want, (C, N, forced.tolist(), hand.tolist(), jokers)
        if got > 0:
            found_play += 1
            layout = np.zeros((64, 2 + max(N, C)), np.int64)
            n = decode(dec, forced, np.zeros(C * N, np.int64), np.zeros(N, np.int64), C, N, layout)
            _check_layout(layout, n, forced, hand, jokers, C, N, got)
    assert found_play > 20  # the cases do lay cards (not only the empty play)


def test_oracle_knows_the_rules() -> None:
    """The oracle on hand-made cases: a run and a group, a joker in place of a card, a 13 that cannot wrap."""
    C, N = 4, 5
    hand = np.zeros(C * N, np.int64)
    hand[[0, 1, 2]] = 1  # colour 0: 1 2 3
    assert oracle(np.zeros(C * N, np.int64), hand, 0, C, N) == (1 + 2 + 3) * 256 + 3
    hand[2] = 0
    assert oracle(np.zeros(C * N, np.int64), hand, 0, C, N) == 0
    assert oracle(np.zeros(C * N, np.int64), hand, 1, C, N) == (1 + 2) * 256 + 2 + JOKER_VALUE * 256 + 1
    wrap = np.zeros(C * N, np.int64)
    wrap[[3, 4, 0]] = 1  # colour 0: 4 5 and 1 (N = 5: no 5-1 wrap)
    assert oracle(np.zeros(C * N, np.int64), wrap, 0, C, N) == 0
    forced = np.zeros(C * N, np.int64)
    forced[[0, N, 2 * N]] = 1  # a group of 1s on the table
    one = np.zeros(C * N, np.int64)
    one[3 * N] = 1
    assert oracle(forced, one, 0, C, N) == 1 * 256 + 1  # the fourth 1 joins the group
    forced[2 * N] = 0  # two 1s alone on the table cannot stand
    assert oracle(forced, np.zeros(C * N, np.int64), 0, C, N) == -1


def test_no_group_of_jokers_only() -> None:
    """The rules refuse a meld without a number card (rules.meld_roles): a group joker of the table cannot
    stand in a group with two hand jokers only (the search used to lay that), but with a number card it
    can."""
    C, N = 4, 13
    z = np.zeros(C * N, np.int64)
    no_rj = np.zeros(C, np.int64)
    ws = workspaces(C, N)
    dec = np.zeros(N * C, np.int64)
    gj = np.zeros(N, np.int64)
    gj[4] = 1
    assert (
        solve_counts(z, z, 2, no_rj, gj, C, N, NUM_MIN, JOKER_VALUE, dec, ws) == -1
    )  # the table joker must stay
    one = z.copy()
    one[4] = 1  # colour 0, number 5: with the table joker and a hand joker, a group of three
    assert solve_counts(z, one, 1, no_rj, gj, C, N, NUM_MIN, JOKER_VALUE, dec, ws) == (5 * 256 + 1) + (
        JOKER_VALUE * 256 + 1
    )
