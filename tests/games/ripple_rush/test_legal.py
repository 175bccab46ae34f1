"""Static legality (legal_problems) and the spec model's shape checks."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from generator.games.ripple_rush.legal import legal_problems
from generator.games.ripple_rush.spec import RippleRushGame
from tests.games.ripple_rush.conftest import make_spec
from tests.games.shipped import game_section


def test_default_spec_is_legal(spec):
    assert legal_problems(spec) == []


def test_bonus_must_be_a_number_in_range_or_an_existing_suit():
    spec = make_spec(bonuses=[5, 10, "blue", "purple", "green", "orange", 26, 0])
    assert legal_problems(spec) == [
        ("bonuses[3]", "expected a number in 1..25 or one of blue, red, green, orange; got 'purple'"),
        ("bonuses[6]", "expected a number in 1..25 or one of blue, red, green, orange; got 26"),
        ("bonuses[7]", "expected a number in 1..25 or one of blue, red, green, orange; got 0"),
    ]


def test_one_bonus_and_one_goal_card_per_row():
    spec = make_spec(bonuses=[5, 10, "blue"], goals={"points": 3, "revealed": 9})
    assert legal_problems(spec) == [
        ("bonuses", "expected one bonus per row (8), got 3"),
        ("goals.revealed", "9 goal cards revealed, but there is one goal card per row and 8 rows"),
    ]


def test_deck_size_per_player_count_fits_the_box():
    spec = make_spec(cards_per_player=21)
    assert legal_problems(spec) == [
        ("cards_per_player", "5 players x 21 cards = 105, but the deck holds 4 suits x 25 numbers = 100")
    ]
    assert legal_problems(make_spec(players={"min": 1, "max": 4}, cards_per_player=25)) == []


def _playing(policies: list[str]) -> RippleRushGame:
    balance = game_section("ripple_rush")["balance"]
    return make_spec(balance={**balance, "policies": policies, "reference_policy": policies[0]})


@pytest.mark.parametrize("policies", [["greedy"], ["greedy", "strong"], ["random"]])
def test_the_skill_gap_needs_random_and_a_stronger_policy_played(policies):
    """balance.skill_gap is strong (else greedy) minus random: without both played, its tolerance used to
    vanish from the check without a word."""
    assert legal_problems(_playing(policies)) == [
        (
            "balance.policies",
            "balance.skill_gap compares the strongest policy played (strong, else greedy) with random: "
            f"expected random and greedy or strong among the policies; got [{', '.join(policies)}]",
        )
    ]


@pytest.mark.parametrize(
    "policies", [["random", "greedy"], ["strong", "random"], ["greedy", "random", "strong"]]
)
def test_random_and_a_stronger_policy_are_enough_for_the_skill_gap(policies):
    assert legal_problems(_playing(policies)) == []


def test_deck_is_suits_times_range_without_duplicates():
    suits = game_section("ripple_rush")["suits"]
    suits[3] = {"id": "blue", "colour": "#1f6fd1", "symbol": "circle"}
    probs = dict(legal_problems(make_spec(suits=suits, bonuses=[5, 10, "blue", "red", "green", 12, 15, 20])))
    assert (
        probs["suits[3].id"] == "suit 'blue' is already suits[0]; the deck would hold every blue card twice"
    )
    assert (
        probs["suits[3].colour"]
        == "colour '#1f6fd1' is already used by suits[0] (blue); suits must differ in colour"
    )
    assert (
        probs["suits[3].symbol"]
        == "symbol 'circle' is already used by suits[0] (blue); suits must differ in symbol"
    )
    assert legal_problems(make_spec(numbers={"min": 9, "max": 3}))[0] == ("numbers", "range 9..3 is empty")


def test_shape_checks_in_the_model():
    with pytest.raises(ValidationError):
        make_spec(suits=[{"id": "blue", "colour": "blue", "symbol": "circle"}])
    with pytest.raises(ValidationError):
        make_spec(suits=[{"id": "blue", "colour": "#1f6fd1", "symbol": "moon"}])
    with pytest.raises(ValidationError):
        make_spec(bonuses=[5.5])
    with pytest.raises(ValidationError):
        RippleRushGame.model_validate(game_section("ripple_rush", {"extra_key": 1}, new_keys=True))
    with pytest.raises(ValidationError):
        make_spec(rows="8")
