"""The compiled self-play agrees with the pure path and with the reference rules; Hypothesis properties."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.games.ripple_rush.kernel_board import COUNT_DRAWN, KIND_ANNOUNCED, KIND_BONUS, KIND_OWN
from generator.games.ripple_rush.policies import POLICIES
from generator.games.ripple_rush.rules import PASS, Card, Cell, Game, Write
from generator.games.ripple_rush.sim import RippleRushSim, Setup, winners
from tests.games.python_kernels import all_python, pure_process
from tests.games.ripple_rush.conftest import make_spec

ROOT = Path(__file__).resolve().parents[3]
KIND = {KIND_OWN: "own", KIND_ANNOUNCED: "announced", KIND_BONUS: "bonus"}


def recount(sheet, goals, points):
    """Independent score: longest filled run per column (rows top to bottom), plus points per full goal
    row."""
    total = 0
    for col in sheet:
        runs = "".join("x" if v else "." for v in col).split(".")
        total += max(len(r) for r in runs)
    return total + points * sum(1 for r in goals if all(c[r - 1] for c in sheet))


def replay(spec, players, policies, seed, games):
    """Play with the kernel, recording; replay every game through the reference rules' apply."""
    setup = Setup.from_spec(spec)
    t = RippleRushSim(setup, players, policies, record=True).play(np.random.SeedSequence(seed), games)
    game = Game.from_spec(spec, players)
    span = spec.numbers.max - spec.numbers.min + 1
    log = t["log"]
    i = 0
    finals = []
    for g in range(games):
        deck = [Card(int(c) // span, int(c) % span + spec.numbers.min) for c in t["games.decks"][g]]
        goals = [spec.rows - int(h) for h in t["games.goals"][g][: spec.goals.revealed]]
        state = game.deal(deck, goals)
        while i < len(log) and log[i, 0] == g:
            _, p, kind, c, h, n = (int(x) for x in log[i])
            d = game.to_decide(state)
            assert d is not None and (d.player, d.kind) == (p, KIND[kind]), (g, i, d, log[i])
            state = game.apply(state, PASS if c < 0 else Write(Cell(c, spec.rows - h), n))
            i += 1
        assert game.is_over(state)
        out = game.outcome(state)
        assert list(out.scores) == list(t["games.score"][g])
        assert [d.completed_columns for d in out.details] == list(t["games.colsdone"][g])
        for p, sh in enumerate(state.sheets):
            assert recount(sh, goals, spec.goals.points) == t["games.score"][g][p]
            for col in sh:  # never an out-of-order number: strictly descending from top to bottom
                vals = [v for v in col if v]
                assert vals == sorted(vals, reverse=True) and len(set(vals)) == len(vals)
        finals.append(state)
    assert i == len(log)
    return t, finals


def test_kernel_games_replay_through_the_reference_rules(spec):
    for players, pols in ((1, ("greedy",)), (3, ("random", "greedy", "strong")), (5, ("strong",))):
        replay(spec, players, pols, 11, 12)


def test_kernel_counts_match_the_reference_replay(spec):
    t, finals = replay(spec, 4, ("greedy",), 5, 10)
    rows_done = np.zeros(spec.rows, dtype=np.int64)
    for s in finals:
        for sh in s.sheets:
            for r in range(spec.rows):
                rows_done[r] += all(c[r] for c in sh)
    assert list(t["rows_done"]) == list(rows_done)
    assert t["counts"][COUNT_DRAWN] == 10 * 4 * 20


@pytest.mark.parametrize("players", [2, 3, 5])
def test_balance_winners_are_the_reference_outcome_winners(players):
    """sim.winners (what balance credits wins with, from the kernel's scores and completed columns) names the
    same winners, tie-break use and shared wins as the reference Outcome of the same games. Short games
    (3 rounds) tie often, so ties, tie-breaks by completed columns and shared wins all occur."""
    spec = make_spec(cards_per_player=3, rows=2, bonuses=[5, 20], goals={"points": 3, "revealed": 1})
    t, finals = replay(spec, players, ("random", "greedy", "strong"), 8, 150)
    win, decided, shared = winners(t["games.score"], t["games.colsdone"])
    game = Game.from_spec(spec, players)
    seen = {"tie_break": 0, "shared": 0}
    for g, state in enumerate(finals):
        out = game.outcome(state)
        assert list(np.flatnonzero(win[g])) == list(out.winners), (g, out)
        assert (bool(decided[g]), bool(shared[g])) == (out.tie_break_used, out.shared), (g, out)
        seen["tie_break"] += out.tie_break_used
        seen["shared"] += out.shared
    assert seen["tie_break"] > 0 and seen["shared"] > 0, seen


_PURE = """
import json, sys, numpy as np
sys.path.insert(0, {root!r})
from generator.engine.kernel import HAVE_NUMBA
from generator.games.ripple_rush.sim import RippleRushSim, Setup
from tests.games.python_kernels import all_python, pure_process
from tests.games.ripple_rush.conftest import make_spec
sim = RippleRushSim(Setup.from_spec(make_spec()), 3, ("random", "greedy", "strong"))
t = sim.play(np.random.SeedSequence(9), 6)
print(json.dumps({{"numba": HAVE_NUMBA, **{{k: v.tolist() for k, v in t.items()}}}}))
"""


def test_compiled_and_pure_paths_give_identical_tallies():
    """PNPKIT_PURE=1 (a process of its own: it is read before numba would be imported) plays the games this
    process's compiled kernel plays."""
    pure = json.loads(pure_process(_PURE.format(root=str(ROOT))))
    assert pure.pop("numba") is False
    sim = RippleRushSim(Setup.from_spec(make_spec()), 3, ("random", "greedy", "strong"))
    fast = sim.play(np.random.SeedSequence(9), 6)
    assert pure == json.loads(json.dumps({k: v.tolist() for k, v in fast.items()}))


def test_py_func_path_matches_compiled(spec):
    """The kernel's Python functions, every one (`all_python`: the pure path alone called compiled steps from
    Python, which compiled twins of them no command compiles), play the compiled kernel's games."""
    setup = Setup.from_spec(spec)
    a = RippleRushSim(setup, 2, ("strong", "random")).play(np.random.SeedSequence(4), 5)
    with all_python():
        b = RippleRushSim(setup, 2, ("strong", "random"), pure=True).play(np.random.SeedSequence(4), 5)
    assert all(np.array_equal(a[k], b[k]) for k in a)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(1, 5),
    pol=st.sampled_from(["random", "greedy", "strong"]),
)
def test_any_seed_plays_to_a_legal_end_and_replays_identically(seed, players, pol):
    spec = make_spec()
    t1, _ = replay(spec, players, (pol,), seed, 2)
    t2 = RippleRushSim(Setup.from_spec(spec), players, (pol,), record=True).play(
        np.random.SeedSequence(seed), 2
    )
    assert all(np.array_equal(t1[k], t2[k]) for k in t1)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 4))
def test_reference_game_with_policies_ends_legally_and_conserves_cards(seed, players):
    spec = make_spec()
    game = Game.from_spec(spec, players)
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    names = ["random", "greedy", "strong"]
    while not game.is_over(state):
        d = game.to_decide(state)
        act = POLICIES[names[d.player % 3]].choose(game, state, rng)
        assert act in game.legal_actions(state)
        state = game.apply(state, act)
    assert len(state.deck) == 20 * players == len(set(state.deck))  # no card created or lost
    out = game.outcome(state)
    for p, sh in enumerate(state.sheets):
        assert recount(sh, state.goals, spec.goals.points) == out.scores[p]


def test_policies_draw_from_the_callers_generator_and_only_random_draws(spec):
    """One random generator type in the reference path: a policy takes a numpy Generator; greedy and strong
    leave it untouched, random takes its choices from it (same seed, same choices)."""
    game = Game.from_spec(spec, 2)
    state = game.new_state(np.random.default_rng(3))
    for name in ("greedy", "strong"):
        rng = np.random.default_rng(9)
        before = rng.bit_generator.state
        POLICIES[name].choose(game, state, rng)
        assert rng.bit_generator.state == before, name

    def random_game(seed):
        rng = np.random.default_rng(seed)
        st = game.new_state(rng)
        acts = []
        while not game.is_over(st):
            acts.append(POLICIES["random"].choose(game, st, rng))
            st = game.apply(st, acts[-1])
        return acts

    assert random_game(4) == random_game(4) != random_game(5)


def test_kernel_decisions_are_the_reference_policies_choices(spec):
    """Every decision the compiled game loop logged (greedy and strong, which use no RNG while deciding) is
    the one the reference policy picks in the same state: the loop's inlined decision code and the functions
    the policies call stay one and the same."""
    _same_decisions(spec)


def _same_decisions(spec):
    setup = Setup.from_spec(spec)
    span = spec.numbers.max - spec.numbers.min + 1
    for players, pols in ((4, ("greedy",)), (3, ("strong", "greedy"))):
        game = Game.from_spec(spec, players)
        t = RippleRushSim(setup, players, pols, rotate=False, record=True).play(np.random.SeedSequence(21), 6)
        log = t["log"]
        i = 0
        checked = 0
        for g in range(6):
            deck = [Card(int(c) // span, int(c) % span + spec.numbers.min) for c in t["games.decks"][g]]
            goals = [spec.rows - int(h) for h in t["games.goals"][g][: spec.goals.revealed]]
            state = game.deal(deck, goals)
            while i < len(log) and log[i, 0] == g:
                _, p, kind, c, h, n = (int(x) for x in log[i])
                logged = PASS if c < 0 else Write(Cell(c, spec.rows - h), n)
                chosen = POLICIES[pols[p % len(pols)]].choose(game, state, np.random.default_rng(0))
                assert chosen == logged, (players, g, i, KIND[kind], chosen, logged)
                state = game.apply(state, logged)
                i += 1
                checked += 1
        assert i == len(log) and checked > 300 * players / 4


# --- house-rule switches (issue 11): every setting is played alike by the kernel and the reference rules
# -----

HOUSE_RULES = [
    {"x_bonus_numbers": x, "announced_order": o}
    for x in ("card_range", "any_integer")
    for o in ("any", "seat")
]


@pytest.mark.parametrize("rules", HOUSE_RULES, ids=lambda r: f"{r['x_bonus_numbers']}-{r['announced_order']}")
def test_every_house_rule_setting_replays_through_the_reference_rules(rules):
    spec = make_spec(rules=rules)
    for players, pols in ((3, ("random", "greedy", "strong")), (5, ("random",)), (4, ("strong",))):
        replay(spec, players, pols, 31, 10)


@pytest.mark.parametrize("rules", HOUSE_RULES, ids=lambda r: f"{r['x_bonus_numbers']}-{r['announced_order']}")
def test_every_house_rule_setting_kernel_decisions_are_the_policies_choices(rules):
    _same_decisions(make_spec(rules=rules))


@pytest.mark.parametrize("rules", HOUSE_RULES, ids=lambda r: f"{r['x_bonus_numbers']}-{r['announced_order']}")
def test_every_house_rule_setting_pure_path_matches_compiled(rules):
    setup = Setup.from_spec(make_spec(rules=rules))
    a = RippleRushSim(setup, 3, ("strong", "random", "greedy")).play(np.random.SeedSequence(4), 8)
    with all_python():  # every kernel function as Python (the pure path alone compiled twins of the steps)
        b = RippleRushSim(setup, 3, ("strong", "random", "greedy"), pure=True).play(
            np.random.SeedSequence(4), 8
        )
    assert all(np.array_equal(a[k], b[k]) for k in a)


def _log(rules, players, pols, seed=5, games=40):
    spec = make_spec(rules=rules)
    return RippleRushSim(Setup.from_spec(spec), players, pols, record=True).play(
        np.random.SeedSequence(seed), games
    )


def test_any_integer_x_bonus_writes_numbers_outside_the_range_and_card_range_never_does():
    outside = []
    for x in ("card_range", "any_integer"):
        log = _log({"x_bonus_numbers": x, "announced_order": "any"}, 4, ("random", "greedy", "strong"))["log"]
        bonus = log[(log[:, 2] == KIND_BONUS) & (log[:, 3] >= 0)]
        outside.append(int(((bonus[:, 5] < 1) | (bonus[:, 5] > 25)).sum()))
        assert not (bonus[:, 5] == 0).any()
    assert outside[0] == 0 and outside[1] > 0


def test_announced_order_any_takes_cards_out_of_seat_order_and_changes_the_tallies():
    seat = _log({"x_bonus_numbers": "card_range", "announced_order": "seat"}, 5, ("greedy",), games=60)
    anyo = _log({"x_bonus_numbers": "card_range", "announced_order": "any"}, 5, ("greedy",), games=60)
    assert not np.array_equal(seat["games.score"], anyo["games.score"])
    # some player wrote an announced card of a later announcer before one of an earlier announcer
    log, span = anyo["log"], 25
    out_of_order = 0
    for g in range(60):
        deck = anyo["games.decks"][g]
        rows = log[(log[:, 0] == g) & (log[:, 2] == KIND_ANNOUNCED) & (log[:, 3] >= 0)]
        dealt = {
            (int(c) // span, int(c) % span + 1): divmod(i, 5) for i, c in enumerate(deck)
        }  # (round, seat)
        last: dict[tuple[int, int], int] = {}
        for _, p, _, c, _, n in rows:
            rnd, q = dealt[(int(c), int(n))]
            if last.get((int(p), rnd), -1) > q:
                out_of_order += 1
            last[(int(p), rnd)] = q
    assert out_of_order > 0


def _find_gap_reference(col: list[int], n: int) -> tuple[int, int]:
    """find_gap as first written: (last filled row below n, first filled row above it); (-2, rows) if n is
    there."""
    lo = -1
    for h, v in enumerate(col):
        if v != 0:
            if v < n:
                lo = h
            elif v == n:
                return -2, len(col)
            else:
                return lo, h
    return lo, len(col)


@settings(max_examples=300, deadline=None)
@given(
    cells=st.lists(st.integers(-30, 30), min_size=1, max_size=16),
    n=st.integers(-32, 32),
    empty=st.lists(st.booleans(), min_size=16, max_size=16),
)
def test_find_gap_fast_path_and_general_path_agree_with_the_reference(cells, n, empty):
    """find_gap branches on n >= 1 (its compiled loop for every legal number) and keeps the general loop for
    n < 1; both give the reference answer on ascending columns with empty cells, negative numbers included."""
    from generator.games.ripple_rush.kernel_board import find_gap

    col = [0 if empty[h] else v for h, v in enumerate(sorted(set(cells)))]
    sheet = np.zeros((2, 3, len(col)), dtype=np.int64)
    sheet[1, 2] = col
    assert find_gap(sheet, 1, 2, len(col), n) == _find_gap_reference(col, n)
