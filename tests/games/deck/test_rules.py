"""The reference deal of a deck (its Game protocol) and its golden transcript."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from generator.errors import RuleViolation
from generator.games.deck.rules import DRAW, new_game
from generator.games.deck.transcript import transcript
from tests.games.deck.helpers import shipped

HERE = Path(__file__).parent


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deal_gives_each_seat_its_hand_from_one_shuffled_deck(players):
    game = new_game(shipped(), players)
    state = game.new_state(np.random.default_rng(3))
    assert sorted(state.order) == list(range(50))
    while game.to_move(state) is not None:
        state = game.apply(state, DRAW)
    dealt = [i for h in state.hands for i in h]
    assert len(dealt) == len(set(dealt)) == 5 * players
    assert game.outcome(state).scores == (5,) * players and game.legal_actions(state) == ()
    with pytest.raises(RuleViolation):
        game.apply(state, DRAW)


def test_player_counts_outside_the_deal_are_refused():
    with pytest.raises(RuleViolation, match="the deal is for 2..4 players; got 5"):
        new_game(shipped(), 5)


def test_golden_deal_2p(golden):  # type: ignore[no-untyped-def]
    golden.check(HERE / "golden" / "playthrough_2p.txt", transcript(shipped(), 2026, 2))
