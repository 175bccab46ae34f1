"""The self-play fast path agrees with the readable reference: the same choices at every state, the same
tallies over seeded games, and a special action is allowed exactly when `specials` lists it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from generator.engine.runner import run
from generator.games.raindrops.components import BonusTile
from generator.games.raindrops.policies import RandomPolicy, drop_paths_in_order
from generator.games.raindrops.policies_greedy import GreedyPolicy
from generator.games.raindrops.sim import FullGames
from generator.games.raindrops.state import SPECIALS, Held, Params, Place, PlaceBonus, Special
from tests.games.raindrops.test_rules_fixtures import (
    PARAMS,
    bag84,
    bonus28,
    card,
    clouds12,
    deck54,
    game,
    thunder10,
)

G = game()


def sim(mode: str, players: int, **kw: bool) -> FullGames:
    """The Python paths (compiled=False): the compiled kernel is proven equal to them in test_kernel.py."""
    return FullGames(
        PARAMS,
        bag84(),
        deck54(),
        bonus28(),
        clouds12(),
        thunder10(),
        players,
        mode,
        2000,
        compiled=False,
        **kw,
    )


@pytest.mark.parametrize("mode", ["greedy", "gap"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_tally_equals_the_reference_tally(mode: str, players: int) -> None:
    fast = run(sim(mode, players), 3, seed=21, chunk_size=2)
    ref = run(sim(mode, players, reference=True), 3, seed=21, chunk_size=2)
    assert fast.keys() == ref.keys()
    for k in fast:
        np.testing.assert_array_equal(fast[k], ref[k], err_msg=k)


HOUSE_RULES = [
    ("bag_empties", "last_tile_drawn"),
    ("bag_empties", "tile_needed"),
    ("window_refill", "drop_step"),
    ("window_refill", "next_turn"),
    ("final_last_turn_card", "usable"),
    ("final_last_turn_card", "not_usable"),
    ("final_clouds", "earned"),
    ("final_clouds", "not_earned"),
    ("bonus_per_tile", "one_half"),
    ("bonus_per_tile", "both_halves"),
    ("wild_bonus", "two_colours"),
    ("wild_bonus", "all_colours"),
    ("bonus_refill", "by_choice"),
    ("bonus_refill", "always"),
]


def _house_rule_rules(switch: str, value: str) -> tuple[Params, tuple[BonusTile, ...]]:
    """The rule figures and bonus tiles of one house-rule setting (the other switches as shipped)."""
    params = dataclasses.replace(PARAMS, **{switch: value}) if switch != "wild_bonus" else PARAMS
    return params, bonus28(value) if switch == "wild_bonus" else bonus28()


def _distinct(settings: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The settings in order, less those whose rules equal an earlier one's (the very same games)."""
    out: list[tuple[str, str]] = []
    for setting in settings:
        if all(_house_rule_rules(*setting) != _house_rule_rules(*kept) for kept in out):
            out.append(setting)
    return out


DISTINCT_HOUSE_RULES = _distinct(HOUSE_RULES)
"""HOUSE_RULES less the settings that play the very games of an earlier one: the shipped value of each switch
is the shipped kit itself, so of those seven only the first (bag_empties=last_tile_drawn) is played."""


@pytest.mark.parametrize("switch, value", DISTINCT_HOUSE_RULES)
def test_fast_tally_equals_the_reference_tally_for_each_house_rule(switch: str, value: str) -> None:
    """Every setting of every house-rule switch plays the same games on the fast path and the reference path
    (greedy seats and random seats both, so every choice the switch touches is made); a shipped value once
    (DISTINCT_HOUSE_RULES: each is the shipped kit)."""
    params, bonus = _house_rule_rules(switch, value)
    tallies = []
    for reference in (False, True):
        s = FullGames(
            params,
            bag84(),
            deck54(),
            bonus,
            clouds12(),
            thunder10(),
            3,
            "gap",
            2000,
            reference=reference,
            compiled=False,
        )
        tallies.append(run(s, 4, seed=33, chunk_size=2))
    fast, ref = tallies
    assert fast.keys() == ref.keys()
    for k in fast:
        np.testing.assert_array_equal(fast[k], ref[k], err_msg=k)


def test_house_rules_change_the_games() -> None:
    """Each switch is honoured by self-play: flipping it changes the tallies of the same seeded games."""

    def tally(params, bonus):
        return run(
            FullGames(
                params, bag84(), deck54(), bonus, clouds12(), thunder10(), 3, "gap", 2000, compiled=False
            ),
            4,
            seed=38,
            chunk_size=2,
        )

    base = tally(PARAMS, bonus28())  # seed 38: one of these 4 games has a final completion that earns a cloud
    for switch, value in HOUSE_RULES[1::2]:
        if switch == "wild_bonus":
            other = tally(PARAMS, bonus28("two_colours"))
        else:
            other = tally(dataclasses.replace(PARAMS, **{switch: value}), bonus28())
        assert any(not np.array_equal(base[k], other[k]) for k in base), switch


def _walk(game, seed: int, players: int, steps: int):
    """A reachable state: `steps` random actions (random seats pile up bonus tiles and odd reserves)."""
    rng = np.random.default_rng(seed)
    st = game.new_state(players, rng)
    pol = RandomPolicy(reference=True)
    for _ in range(steps):
        if st.phase == "over":
            break
        game.apply(st, pol.choose(game, st, rng))
    return st, rng


@settings(max_examples=60, deadline=None)
@given(seed=hs.integers(0, 2**32 - 1), players=hs.sampled_from([2, 3, 4]), steps=hs.integers(0, 400))
def test_fast_and_reference_policies_choose_the_same_at_any_reachable_state(
    seed: int, players: int, steps: int
) -> None:
    st, rng = _walk(G, seed, players, steps)
    if st.phase == "over":
        return
    for pol_fast, pol_ref in (
        (GreedyPolicy(G), GreedyPolicy(G, reference=True)),
        (RandomPolicy(), RandomPolicy(reference=True)),
    ):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        x, y = pol_fast.choose(G, st.copy(), a), pol_ref.choose(G, st.copy(), b)
        assert x == y
        assert (
            a.bit_generator.state == b.bit_generator.state
        )  # the same draws, so the rest of the game stays in step


CARDS = (card(1, ["OBG"], 9), card(2, ["OO"], 9), card(3, ["OOPB"], 9), *deck54()[3:])
GB = game(CARDS)


@pytest.mark.parametrize(
    "card_id, covered, hand, bonuses, kind",
    [
        (1, [(0, 0), (0, 1)], [73], [7, 13], "bonus"),  # one green drop left: a green bonus tile ends it
        (2, [], [73], [13, 19], "overlay"),  # O O: tile 73 (O/P) with an orange bonus on half b
        (3, [], [73, 30], [13], "overlay"),  # O O P B is stuck: only an overlay unsticks it
        (3, [], [73, 30], [], "none"),  # stuck and no bonus tile: nothing worth placing
        (4, [], [73], [13], "place"),  # O over P: the plain tile, no bonus spent
    ],
)
def test_fast_greedy_places_overlays_and_bonus_tiles_like_the_reference(
    card_id, covered, hand, bonuses, kind
) -> None:
    rng = np.random.default_rng(1)
    st = GB.new_state(2, rng)
    while st.phase != "place":
        GB.apply(st, GreedyPolicy(GB).choose(GB, st, rng))
    ps = st.players[st.current]
    ps.held = [Held(card_id, {c: "t0" for c in covered})]
    st.hand, ps.reserve, ps.bonus_reserve = list(hand), [], list(bonuses)
    x = GreedyPolicy(GB)._best_placement(st)
    assert x == GreedyPolicy(GB, reference=True)._best_placement(st)
    got = (
        "none"
        if x is None
        else "bonus"
        if isinstance(x, PlaceBonus)
        else "overlay"
        if x.over_a is not None or x.over_b is not None
        else "place"
    )
    assert got == kind


def test_a_special_is_allowed_exactly_when_listed() -> None:
    for seed in range(20):
        st, _ = _walk(G, seed, 3, 5 * seed)
        listed = set(G.specials(st)) if st.phase == "special" else set()
        marker = st.players[st.current].marker
        for kind in SPECIALS:
            for c in range(-1, PARAMS.columns + 1):
                for i in range(-1, PARAMS.tiles_per_column + 1):
                    s = Special(kind, c, i)
                    if SPECIALS.index(kind) != marker and st.phase == "special":
                        assert G.can_special(st.columns, s) == (s in listed)


def test_trusted_apply_plays_the_same_game() -> None:
    for seed in range(3):
        ra, rb = np.random.default_rng(seed), np.random.default_rng(seed)
        sa, sb = G.new_state(3, ra), G.new_state(3, rb)
        pa, pb = GreedyPolicy(G), GreedyPolicy(G)
        while sa.phase != "over":
            x, y = pa.choose(G, sa, ra), pb.choose(G, sb, rb)
            assert x == y
            G.apply(sa, x)
            G.apply(sb, y, trusted=True)
        assert sb.phase == "over" and G.outcome(sa) == G.outcome(sb)
        assert sb.tile_count() == 84


def test_the_fast_random_policy_places_bonus_tiles_and_overlays() -> None:
    kinds: set[str] = set()
    for seed in range(6):
        rng = np.random.default_rng(seed)
        st = G.new_state(2, rng)
        pol = RandomPolicy()
        while st.phase != "over":
            a = pol.choose(G, st, rng)
            if isinstance(a, PlaceBonus):
                kinds.add("bonus")
            if isinstance(a, Place) and (a.over_a is not None or a.over_b is not None):
                kinds.add("overlay")
            G.apply(st, a)
    assert kinds == {"bonus", "overlay"}


def test_reference_flag_is_part_of_the_picklable_job() -> None:
    s = sim("greedy", 2)
    assert dataclasses.replace(s, reference=True) != s


@settings(max_examples=40, deadline=None)
@given(seed=hs.integers(0, 2**32 - 1), steps=hs.integers(0, 300))
def test_drop_paths_in_walk_order_are_the_sorted_drop_paths(seed: int, steps: int) -> None:
    st, _ = _walk(G, seed, 3, steps)
    assert drop_paths_in_order(G, st) == G.drop_paths(st)
