"""The balance credits wins from the kernel's scores with `kernel.winners`; it must name the seats the
reference rules' `Outcome.winners` name (rules.decide), with the same tie-break."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from generator.engine.kernel import py_func
from generator.games.raindrops import kernel as K
from generator.games.raindrops.policies import RandomPolicy
from generator.games.raindrops.policies_greedy import GreedyPolicy
from generator.games.raindrops.state import Score, decide
from tests.games.raindrops.test_kernel import _sim

TIES = {"total": K.TIE_TOTAL, "cards": K.TIE_CARDS, "shared": K.TIE_SHARED}


@settings(max_examples=300, deadline=None)
@given(parts=hs.lists(hs.tuples(hs.integers(0, 6), hs.integers(0, 3)), min_size=1, max_size=5))
def test_winners_of_arrays_equal_the_reference_decision(parts):
    # small ranges so tied totals and tied card points are common
    scores = [Score(a, b, 0, 0, 0) for a, b in parts]
    out = decide(scores)
    totals = np.array([s.total for s in scores], dtype=np.int64)
    cards = np.array([s.cards for s in scores], dtype=np.int64)
    for fn in (K.winners, py_func(K.winners)):
        won = np.zeros(len(scores), dtype=np.int64)
        nwin, tie = fn(totals, cards, won)
        assert [p for p in range(len(scores)) if won[p]] == list(out.winners)
        assert (nwin, tie) == (len(out.winners), TIES[out.tie_break])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_win_credit_names_the_reference_winners_game_by_game(players):
    s = _sim(players, mode="random", turn_limit=300)
    game = s.game()
    greedy, randomp = GreedyPolicy(game), RandomPolicy()
    for k in range(8):
        seq = np.random.SeedSequence(1000 + k)
        compiled = s.play(seq, 1)
        seed = int(np.random.SeedSequence(1000 + k).generate_state(1, dtype=np.uint64)[0])
        _, out, _ = s.play_one(game, seed, 0, greedy, randomp)
        expect = np.zeros(players)
        expect[list(out.winners)] = 1.0 / len(out.winners)
        np.testing.assert_array_equal(compiled["wins"], expect)
        assert compiled["ties"].tolist() == [int(TIES[out.tie_break] == i) for i in range(3)]
