"""Exact draw probabilities against brute-force enumeration, and verdicts without seed dependence (issue 25:
"a draw bound set beyond the exact value FAILS deterministically and one set inside HOLDS")."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from generator.engine.verdict import Verdict
from generator.games.deck.balance import balance_report, exact_value
from generator.games.deck.draws import expected_sum, hand_distribution, largest_share, p_at_least
from tests.games.deck.helpers import deck, shipped

SMALL = [
    {"id": "a", "count": 3, "type": "resource", "cost": 0},
    {"id": "b", "count": 2, "type": "action", "cost": 2},
    {"id": "c", "count": 1, "type": "event", "cost": 5},
    {"id": "d", "count": 3, "type": "action", "cost": 1},
]


def _cards(rows):
    return [r for r in rows for _ in range(r["count"])]


@pytest.mark.parametrize("hand", [1, 2, 4, 6])
@pytest.mark.parametrize("at_least", [0, 1, 2, 3])
def test_hand_has_matches_enumeration(hand, at_least):
    cards = _cards(SMALL)
    hands = list(itertools.combinations(range(len(cards)), hand))
    hits = sum(1 for h in hands if sum(cards[i]["type"] == "action" for i in h) >= at_least)
    marked = sum(c["type"] == "action" for c in cards)
    assert p_at_least(len(cards), marked, hand, at_least) == pytest.approx(hits / len(hands), abs=1e-12)
    dist = hand_distribution(len(cards), marked, hand)
    for k in range(hand + 1):
        n = sum(1 for h in hands if sum(cards[i]["type"] == "action" for i in h) == k)
        assert dist[k] == pytest.approx(n / len(hands), abs=1e-12)


@pytest.mark.parametrize("hand", [1, 3, 5])
def test_expected_sum_matches_enumeration(hand):
    cards = _cards(SMALL)
    hands = list(itertools.combinations(range(len(cards)), hand))
    brute = sum(sum(cards[i]["cost"] for i in h) for h in hands) / len(hands)
    assert expected_sum([c["cost"] for c in cards], hand) == pytest.approx(brute, abs=1e-12)


def test_largest_share():
    assert largest_share([c["type"] for c in _cards(SMALL)]) == ("action", 5 / 9)


def test_exact_value_reads_the_condition_over_the_rows():
    spec = deck(
        SMALL,
        balance={
            "draws": [
                {
                    "name": "p",
                    "kind": "hand_has",
                    "component": "cards",
                    "hand": 4,
                    "where": "type == 'action' or cost >= 5",
                    "at_least": 2,
                    "bound": {"min": 0.5},
                }
            ]
        },
    )
    value, figures = exact_value(spec, spec.spec.balance.draws[0])
    cards = _cards(SMALL)
    hands = list(itertools.combinations(range(9), 4))
    brute = sum(
        1 for h in hands if sum(cards[i]["type"] == "action" or cards[i]["cost"] >= 5 for i in h) >= 2
    )
    assert figures["marked"] == 6 and value == pytest.approx(brute / len(hands), abs=1e-12)


def test_shipped_opening_hand_is_exact():
    """30 crops of 50 cards: P(no crop in 5) = C(20,5) / C(50,5)."""
    value, _ = exact_value(shipped(), shipped().spec.balance.draws[0])
    assert value == pytest.approx(1 - math.comb(20, 5) / math.comb(50, 5), abs=1e-12)


@pytest.mark.parametrize("seed", [1, 2, 99])
def test_bound_beyond_the_exact_value_fails_and_inside_holds_whatever_the_seed(seed):
    exact = 1 - math.comb(20, 5) / math.comb(50, 5)
    draws = shipped().spec.balance.draws
    first = draws[0].model_dump()
    inside = shipped({"balance.draws": [{**first, "bound": {"min": exact - 1e-6}}]})
    beyond = shipped({"balance.draws": [{**first, "bound": {"min": exact + 1e-6}}]})
    assert balance_report(inside, games=10, seed=seed).tolerances[0].verdict == Verdict.HOLDS
    assert balance_report(beyond, games=10, seed=seed).tolerances[0].verdict == Verdict.FAILS


def test_sum_at_most_is_exact_and_seed_free():
    cards = _cards(SMALL)
    hands = list(itertools.combinations(range(9), 3))
    exact = Fraction(sum(1 for h in hands if sum(cards[i]["cost"] for i in h) <= 3), len(hands))
    spec = deck(
        SMALL,
        balance={
            "draws": [
                {
                    "name": "cheap",
                    "kind": "sum_at_most",
                    "component": "cards",
                    "hand": 3,
                    "field": "cost",
                    "limit": 3,
                    "bound": {"min": 0.0},
                }
            ]
        },
    )
    a = balance_report(spec, games=20, seed=5).tolerances[0].evidence
    b = balance_report(spec, games=20, seed=6).tolerances[0].evidence
    assert a == b and a.fraction == exact


@pytest.mark.parametrize("hand", [2, 3, 5])
@pytest.mark.parametrize("needs", [(1, 1), (2, 1), (1, 0), (2, 2)])
def test_all_of_matches_enumeration_with_overlapping_conditions(hand, needs):
    """Several conditions at once (a card may meet both): the multivariate hypergeometric over the cells."""
    spec = deck(
        SMALL,
        balance={
            "draws": [
                {
                    "name": "both",
                    "kind": "hand_has",
                    "component": "cards",
                    "hand": hand,
                    "all_of": [
                        {"where": "type == 'action'", "at_least": needs[0]},
                        {"where": "cost >= 1", "at_least": needs[1]},
                    ],
                    "bound": {"min": 0.0},
                }
            ]
        },
    )
    value, _ = exact_value(spec, spec.spec.balance.draws[0])
    cards = _cards(SMALL)
    hands = list(itertools.combinations(range(len(cards)), hand))
    good = sum(
        1
        for h in hands
        if sum(cards[i]["type"] == "action" for i in h) >= needs[0]
        and sum(cards[i]["cost"] >= 1 for i in h) >= needs[1]
    )
    assert value == pytest.approx(good / len(hands), abs=1e-12)


def test_all_of_agrees_with_scipy_multivariate_hypergeom():
    from scipy.stats import multivariate_hypergeom

    from generator.games.deck.draws import p_all_of

    cells = {(True, False): 4, (False, True): 3, (False, False): 5}
    exact = p_all_of(cells, 4, [1, 2])
    sizes = [4, 3, 5]
    total = sum(
        multivariate_hypergeom.pmf([a, b, 4 - a - b], sizes, 4)
        for a in range(5)
        for b in range(5 - a)
        if a >= 1 and b >= 2 and 4 - a - b <= 5
    )
    assert exact == pytest.approx(float(total), abs=1e-12)


def test_shipped_crop_and_action_together_is_inclusion_exclusion():
    """30 crops, 16 actions, 4 events; 6 cards: 1 - P(no crop) - P(no action) + P(neither)."""
    check = next(d for d in shipped().spec.balance.draws if d.all_of)
    value, _ = exact_value(shipped(), check)
    n = math.comb(50, 6)
    assert value == pytest.approx(
        1 - math.comb(20, 6) / n - math.comb(34, 6) / n + math.comb(4, 6) / n, abs=1e-12
    )
