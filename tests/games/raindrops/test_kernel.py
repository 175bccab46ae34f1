"""The compiled full-game kernel plays the reference games: its MT19937 stream draws what `game_rng`'s numpy
Generator draws, and its tallies equal the Python fast path's and the readable reference path's, under every
house-rule setting."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from generator.engine.kernel import py_func
from generator.engine.runner import Tally, run
from generator.games.raindrops import kernel_rng, kernel_tables
from generator.games.raindrops.sim import FullGames
from tests.games.python_kernels import all_python, pure_process
from tests.games.raindrops.test_rules_fixtures import PARAMS, bag84, bonus28, clouds12, deck54, thunder10
from tests.games.raindrops.test_sim_fast import DISTINCT_HOUSE_RULES, HOUSE_RULES, _house_rule_rules

ROOT = Path(__file__).resolve().parents[3]
SEEDS = [0, 1, 7, 2**31, 2**32 - 1, 2**32, 2**32 + 5, 12345678901234567, 2**64 - 1]


def _mt(seed: int) -> np.ndarray:
    mt = np.zeros(kernel_rng.MT_N + 1, dtype=np.int64)
    kernel_rng.mt_seed(mt, seed & 0xFFFFFFFF, seed >> 32)
    return mt


@pytest.mark.parametrize("seed", SEEDS)
def test_the_kernel_draws_what_its_numpy_generator_draws(seed: int) -> None:
    ref = kernel_rng.game_rng(seed & 0xFFFFFFFF, seed >> 32)
    mt = _mt(seed)
    for n in (1, 2, 3, 7, 84, 1000, 2**31 - 3):  # integers(n), including the rejection loop and n = 1
        for _ in range(50):
            assert kernel_rng.mt_below(mt, n) == int(ref.integers(n))
    for _ in range(700):  # past one 624-word regeneration
        assert kernel_rng.mt_random(mt) == ref.random()
    for n in (54, 84, 2, 1, 0):
        deck = list(range(n))
        arr = np.array(deck, dtype=np.int64)
        ref.shuffle(deck)
        kernel_rng.mt_shuffle(mt, arr, len(arr))
        assert arr.tolist() == deck
    assert kernel_rng.mt_next(mt) == int(ref.bit_generator.random_raw())


def test_game_rng_streams_differ_by_seed() -> None:
    draws = {
        tuple(kernel_rng.game_rng(lo, hi).integers(1000, size=8).tolist())
        for lo, hi in ((0, 0), (1, 0), (0, 1))
    }
    assert len(draws) == 3


def test_mt19937_python_functions_match_the_compiled_ones() -> None:
    a, b = _mt(99), np.zeros(kernel_rng.MT_N + 1, dtype=np.int64)
    py_func(kernel_rng.mt_seed)(b, 99, 0)
    assert np.array_equal(a, b)
    assert [kernel_rng.mt_next(a) for _ in range(700)] == [py_func(kernel_rng.mt_next)(b) for _ in range(700)]


def _sim(
    players: int = 3, params=PARAMS, bonus=None, turn_limit: int = 2000, mode: str = "greedy", **kw: bool
) -> FullGames:
    return FullGames(
        params,
        bag84(),
        deck54(),
        bonus or bonus28(),
        clouds12(),
        thunder10(),
        players,
        mode,
        turn_limit,
        **kw,
    )


def _same(a: Tally, b: Tally) -> None:
    assert a.keys() == b.keys()
    for k in a:
        assert a[k].dtype == b[k].dtype, k
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)


@pytest.mark.parametrize("mode", ["greedy", "gap", "random"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_compiled_tally_equals_the_python_and_the_reference_tallies(players: int, mode: str) -> None:
    s = _sim(players, mode=mode)
    compiled = run(s, 6, seed=40 + players, chunk_size=4)
    _same(compiled, run(dataclasses.replace(s, compiled=False), 6, seed=40 + players, chunk_size=4))
    ref = run(dataclasses.replace(s, reference=True), 6, seed=40 + players, chunk_size=4)
    _same(compiled, ref)
    assert compiled["games"][0] == 6 and compiled["games.turns"].min() > 0


FINAL_ROUND_SWITCHES = ("final_last_turn_card", "final_clouds")
"""The switches the rules read only in the final round, after the end is triggered (Raindrops._end_turn with
an end trigger, _next_final; the kernel's end_turn and its final placement): in games the turn limit cuts
before any trigger, they play the shipped kit's very games, move for move."""

HOUSE_RULE_CASES = [
    (switch, value, turn_limit)
    for turn_limit in (2000, 14)
    for switch, value in DISTINCT_HOUSE_RULES
    if not (turn_limit == 14 and switch in FINAL_ROUND_SWITCHES)
]
"""Every setting in whole games and in games cut at turn 14, less the final-round settings in cut games: the
shipped kit's cut games played again (test_the_final_round_switches_do_not_act_in_games_the_limit_cuts)."""


@pytest.mark.parametrize("switch, value, turn_limit", HOUSE_RULE_CASES)
@pytest.mark.parametrize("mode", ["greedy", "gap"])
def test_compiled_tally_equals_the_reference_for_each_house_rule(
    switch: str, value: str, turn_limit: int, mode: str
) -> None:
    """Every setting of every switch (and games cut by the turn limit) gives the reference's tallies, with
    greedy seats and with random seats (which make every choice a switch touches: refusing a refill, bonus
    tiles on both halves, keeping odd reserves)."""
    params, bonus = _house_rule_rules(switch, value)
    for players in (3, 4):
        s = _sim(players, params, bonus, turn_limit, mode)
        compiled = run(s, 12, seed=61, chunk_size=5)
        _same(compiled, run(dataclasses.replace(s, compiled=False), 12, seed=61, chunk_size=5))
        _same(compiled, run(dataclasses.replace(s, reference=True), 12, seed=61, chunk_size=5))
        if turn_limit == 14:
            assert (compiled["games.trigger"] == 0).all()  # every game stopped by the limit


@pytest.mark.parametrize("mode", ["greedy", "gap"])
def test_the_final_round_switches_do_not_act_in_games_the_limit_cuts(mode: str) -> None:
    """What leaves the final-round settings' cut games out of the reference comparison: cut at turn 14 (no
    end triggered), they are the shipped kit's games, tally for tally."""
    for players in (3, 4):
        shipped = run(_sim(players, turn_limit=14, mode=mode), 12, seed=61, chunk_size=5)
        assert (shipped["games.trigger"] == 0).all()
        for switch, value in DISTINCT_HOUSE_RULES:
            if switch in FINAL_ROUND_SWITCHES:
                params, bonus = _house_rule_rules(switch, value)
                _same(shipped, run(_sim(players, params, bonus, 14, mode), 12, seed=61, chunk_size=5))


def test_the_bag_trigger_and_a_tied_game_are_replayed() -> None:
    """4 players empty the bag twice (trigger "bag") under both readings of when the bag empties."""
    for value in ("last_tile_drawn", "tile_needed"):
        s = _sim(4, dataclasses.replace(PARAMS, bag_empties=value))
        compiled = run(s, 30, seed=3, chunk_size=10)
        assert (compiled["games.trigger"] == 2).any() and (compiled["games.trigger"] == 1).any()
        _same(compiled, run(dataclasses.replace(s, compiled=False), 30, seed=3, chunk_size=10))


@pytest.mark.parametrize("mode", ["greedy", "gap"])
def test_the_kernel_python_function_gives_the_compiled_tally(mode: str) -> None:
    """The kernel's Python functions, every one (`all_python`: its pure path alone called the compiled game
    level, which compiled it on its own, 4 CPU-s no command spends), play the compiled kernel's games."""
    s = _sim(3, mode=mode)
    compiled = run(s, 3, seed=8)
    with all_python():
        _same(compiled, run(dataclasses.replace(s, pure=True), 3, seed=8))


def test_house_rules_change_compiled_games() -> None:
    """Each switch is honoured by the kernel: flipping it changes the tallies of the same seeded games."""
    base = run(_sim(3, mode="gap"), 8, seed=35)  # seed 35: a final completion earns a cloud in one game
    for switch, value in HOUSE_RULES[1::2]:
        if switch == "wild_bonus":
            other = run(_sim(3, bonus=bonus28("two_colours"), mode="gap"), 8, seed=35)
        else:
            other = run(_sim(3, dataclasses.replace(PARAMS, **{switch: value}), mode="gap"), 8, seed=35)
        assert any(not np.array_equal(base[k], other[k]) for k in base), switch


def test_zero_games_is_an_empty_tally() -> None:
    t = _sim(2).play(np.random.SeedSequence(1), 0)
    assert t["games"][0] == 0 and t["games.turns"].shape == (0,) and t["wins"].sum() == 0


_PURE = """
import json, sys
sys.path.insert(0, {root!r})
import numpy as np
from generator.engine.kernel import HAVE_NUMBA
from tests.games.raindrops.test_kernel import _sim
t = _sim(2, mode="gap").play(np.random.SeedSequence(5), 2)
print(json.dumps({{"numba": HAVE_NUMBA, **{{k: v.tolist() for k, v in t.items()}}}}))
"""


def test_compiled_and_pure_mode_give_identical_tallies() -> None:
    """PNPKIT_PURE=1 (a process of its own: it is read before numba would be imported) plays the games this
    process's compiled kernel plays."""
    pure = json.loads(pure_process(_PURE.format(root=str(ROOT))))
    assert pure.pop("numba") is False
    fast = _sim(2, mode="gap").play(np.random.SeedSequence(5), 2)
    assert pure == json.loads(json.dumps({k: v.tolist() for k, v in fast.items()}))


def test_cover_tables_are_the_reference_can_cover() -> None:
    """Every card and every set of covered drops: the kernel's table says what GreedyPolicy.can_cover says."""
    from generator.games.raindrops.policies_greedy import GreedyPolicy
    from tests.games.raindrops.test_rules_fixtures import game

    g = game()
    pol = GreedyPolicy(g, reference=True)
    tb = kernel_tables.tables(g)
    for cid, cells in g.card_cells.items():
        for mask in range(1 << len(cells)):
            cov = frozenset(c for i, c in enumerate(cells) if mask >> i & 1)
            assert bool(tb.covers[cid, mask]) == pol.can_cover(cid, cov), (cid, mask)


def test_a_full_four_by_four_card_gets_its_table() -> None:
    """The spec allows 4 x 4 grids: 16 drops, 65,536 cover states per card, built without the Python
    search."""
    from generator.games.raindrops.policies_greedy import GreedyPolicy
    from tests.games.raindrops.test_rules_fixtures import card, game

    big = card(90, ["OPOP", "BGBG", "OPOP", "BGBG"], 12)
    g = game((big, *deck54()[1:]))
    pol = GreedyPolicy(g)
    tb = kernel_tables.tables(g)
    cells = g.card_cells[90]
    assert len(cells) == 16 and tb.covers.shape[1] == 1 << 16
    rng = np.random.default_rng(3)
    for mask in [0, (1 << 16) - 1, *rng.integers(0, 1 << 16, 300).tolist()]:
        assert bool(tb.covers[90, mask]) == pol.covers(90, mask), mask
    deck = (big, *deck54()[1:])
    s = FullGames(PARAMS, bag84(), deck, bonus28(), clouds12(), thunder10(), 3, "gap", 2000)
    _same(run(s, 6, seed=2), run(dataclasses.replace(s, compiled=False), 6, seed=2))
