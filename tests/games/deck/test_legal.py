"""Declared legality of a data kit (`game.rules`): every broken row named with its file and row, one line
each."""

from __future__ import annotations

from generator.games.deck.legal import legal_problems
from tests.games.deck.helpers import deck, shipped

ROWS = [
    {"id": "h1", "count": 2, "suit": "hearts", "cost": 1},
    {"id": "s1", "count": 2, "suit": "spades", "cost": 1},
    {"id": "h2", "count": 1, "suit": "hearts", "cost": 2},
]


def test_the_shipped_kit_is_legal():
    assert legal_problems(shipped()) == []


def test_a_duplicate_id_names_both_rows():
    spec = deck([*ROWS, {"id": "s1", "count": 1, "suit": "spades", "cost": 3}])
    assert legal_problems(spec) == [("decks.cards.data", "kit.yaml:4: column id: 's1' repeats row 2")]


def test_count_by_off_by_one_names_the_value_and_its_rows():
    spec = deck(ROWS, rules={"cards": {"count_by": {"suit": {"hearts": 4, "spades": 2}}}})
    assert legal_problems(spec) == [
        ("rules.cards.count_by.suit", "kit.yaml (rows 1, 3): suit 'hearts': 3 cards; expected 4")
    ]


def test_a_value_missing_from_count_by_is_named():
    spec = deck(ROWS, rules={"cards": {"count_by": {"suit": {"hearts": 3}}}})
    assert legal_problems(spec) == [
        ("rules.cards.count_by.suit", "kit.yaml (rows 2): suit 'spades': 2 cards; expected 0")
    ]


def test_total_required_values_and_refs():
    """Inline rows are numbered from 1 (a file's rows by their line, the header being line 1)."""
    other = {
        "data": [{"id": "x", "count": 1, "pair": "h1"}, {"id": "y", "count": 1, "pair": "zz"}],
        "template": "plain",
    }
    spec = deck(
        ROWS,
        decks={
            "cards": {"data": ROWS + [{"id": "n", "count": 1, "suit": "", "cost": 0}], "template": "plain"},
            "extra": other,
        },
        rules={
            "cards": {"total": 7, "required": ["suit"], "values": {"suit": ["hearts"]}},
            "extra": {"refs": {"pair": "cards"}},
        },
    )
    assert legal_problems(spec) == [
        ("rules.cards.total", "kit.yaml: 6 cards in all; expected 7"),
        ("rules.cards.required", "kit.yaml:4: column suit: required; got an empty cell"),
        ("rules.cards.values.suit", "kit.yaml:2: column suit: expected one of hearts; got 'spades'"),
        ("rules.extra.refs.pair", "kit.yaml:2: column pair: 'zz' is not an id of cards"),
    ]


def test_draw_checks_and_deal_must_fit_the_deck():
    spec = deck(
        ROWS,
        deal={"component": "cards", "hand": 3, "players": {"min": 1, "max": 2}},
        balance={
            "draws": [
                {
                    "name": "x",
                    "kind": "hand_has",
                    "component": "cards",
                    "hand": 9,
                    "where": "suit ==",
                    "bound": {"min": 0.5},
                },
                {
                    "name": "y",
                    "kind": "expected_sum",
                    "component": "nope",
                    "hand": 2,
                    "field": "cost",
                    "bound": {"max": 1},
                },
            ]
        },
    )
    problems = legal_problems(spec)
    assert ("balance.draws[0].hand", "the deck holds 5 cards; got a hand of 9") in problems
    assert any(k == "balance.draws[0].where" for k, _ in problems)
    assert ("balance.draws[1].component", "expected a card component of game.decks; got 'nope'") in problems
    assert ("deal.hand", "2 hands of 3 need 6 cards; the deck holds 5") in problems
