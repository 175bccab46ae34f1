"""refit_points: keeps the deck total (within 5%), orders points by measured speed, leaves unplayed cards."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as hs

from generator.games.raindrops.refit import CardPlay, refit_points, total_change
from generator.games.raindrops.spec import PlayBalance
from generator.spec.base import Bound  # noqa: F401  (PlayBalance below uses it)
from tests.games.raindrops.test_rules_fixtures import card, deck54


@settings(max_examples=60, deadline=None)
@given(
    hs.lists(hs.tuples(hs.integers(0, 30), hs.integers(0, 30), hs.integers(0, 300)), min_size=54, max_size=54)
)
def test_total_stays_within_5_percent(stats) -> None:
    cards = deck54()
    cs = {
        c.id: CardPlay(h, min(d, h), float(t if h else 0)) for c, (h, d, t) in zip(cards, stats, strict=True)
    }
    new = refit_points(cards, cs)
    assert abs(total_change(cards, new)) <= 0.05
    assert all(v >= 1 for v in new.values())


def test_slower_cards_get_more_points_and_unheld_cards_keep_theirs() -> None:
    cards = (card(1, ["OB"], 4), card(2, ["OB"], 4), card(3, ["OB"], 4), card(4, ["OB"], 9))
    stats = {1: CardPlay(10, 10, 20.0), 2: CardPlay(10, 5, 40.0), 3: CardPlay(10, 0, 30.0)}
    new = refit_points(cards, stats)
    assert new[4] == 9
    assert new[1] < new[2] <= new[3]
    assert new[1] + new[2] + new[3] == 12


def test_cat_cards_are_refit_among_themselves() -> None:
    cards = (card(1, ["OB"], 2), card(2, ["OB"], 8, cat=True), card(3, ["OB"], 6, cat=True))
    stats = {i: CardPlay(5, 5, 5.0 * i) for i in (1, 2, 3)}
    new = refit_points(cards, stats)
    assert new[1] == 2 and new[2] + new[3] == 14 and new[3] > new[2]


def test_play_balance_has_no_defaults() -> None:
    assert all(f.is_required() for f in PlayBalance.model_fields.values())
