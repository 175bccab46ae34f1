"""Component model: the bag, bonus tiles, tokens and the seed's counts, with located messages."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from generator.games.raindrops.components import (
    build_bag,
    build_bonus_tiles,
    build_cloud_tokens,
    build_thunder_tokens,
    component_problems,
)
from generator.games.raindrops.legal import legal_problems
from tests.games.raindrops.test_components_spec import SPEC, make_spec


def test_bag_matches_the_digest() -> None:
    bag = build_bag(make_spec())
    assert len(bag) == 84
    assert [t.id for t in bag] == list(range(1, 85))
    assert sum(t.is_wild for t in bag) == 12
    for t in bag:  # two different colours, whatever colour a wild half is read as
        assert all(x != y for x, y in t.pairs()), t
        assert len(t.a) == 1 or len(t.b) == 1
        assert all(len(h) in (1, 2) and list(h) == sorted(h) for h in (t.a, t.b))
    plain = Counter(frozenset(t.a + t.b) for t in bag if not t.is_wild)
    assert sorted(plain.values()) == [12] * 6


def test_bonus_and_tokens_match_the_digest() -> None:
    spec = make_spec()
    bonus = build_bonus_tiles(spec)
    assert len(bonus) == 28
    assert Counter(b.colours[0] for b in bonus if not b.wild) == {
        "orange": 6,
        "purple": 6,
        "green": 6,
        "blue": 6,
    }
    wild = [b for b in bonus if b.wild]
    assert [b.colours for b in wild] == [
        ("orange", "purple"),
        ("blue", "green"),
        ("green", "orange"),
        ("blue", "purple"),
    ]  # two colours each, as printed (wild_bonus two_colours)
    every = build_bonus_tiles(make_spec(rules={**SPEC["rules"], "wild_bonus": "all_colours"}))
    assert all(set(b.colours) == {"orange", "purple", "green", "blue"} for b in every if b.wild)
    clouds = build_cloud_tokens(spec)
    assert len(clouds) == 12 and Counter(c.type for c in clouds) == {
        "umbrella": 3,
        "boots": 3,
        "frog": 3,
        "snail": 3,
    }
    assert [c.gold for c in clouds if c.type == "frog"] == [True, False, False]
    assert Counter(t.value for t in build_thunder_tokens(spec)) == {3: 4, 4: 3, 5: 3}


def test_default_spec_is_legal() -> None:
    assert legal_problems(make_spec()) == []


def test_bag_count_shows_the_arithmetic() -> None:
    bag = copy.deepcopy(SPEC["bag"])
    bag["tiles"][0]["count"] = 8
    probs = component_problems(make_spec(bag=bag))
    assert probs == [
        (
            "bag.tiles",
            "8 + 12 + 12 + 12 + 12 + 12 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 "
            "= 80 raindrop tiles, but the seed's component table has 84",
        )
    ]


def test_tile_with_one_colour_twice_is_illegal() -> None:
    bag = copy.deepcopy(SPEC["bag"])
    bag["tiles"][0]["b"] = "orange"  # orange/orange
    bag["tiles"][6]["b"] = ["orange", "green"]  # orange + wild(orange, green): could read orange/orange
    probs = component_problems(make_spec(bag=bag))
    assert (
        "bag.tiles[0]",
        "a raindrop tile shows two different colours, but halves ['orange'] and ['orange'] share orange",
    ) in probs
    assert (
        "bag.tiles[6]",
        "a raindrop tile shows two different colours, but halves ['orange'] and "
        "['green', 'orange'] share orange",
    ) in probs


def test_unknown_colours_and_counts_all_reported_at_once() -> None:
    bag = copy.deepcopy(SPEC["bag"])
    bag["tiles"][1]["a"] = "red"
    bonus = copy.deepcopy(SPEC["bonus_tiles"])
    bonus["kinds"][4]["points"] = [1, 1, 1]
    thunder = {"values": [{"value": 3, "count": 4}, {"value": 4, "count": 3}, {"value": 5, "count": 2}]}
    probs = dict(
        component_problems(make_spec(bag=bag, bonus_tiles=bonus, thunder_tokens=thunder, player_boards=5))
    )
    assert probs["bag.tiles[1].a"] == "expected one of orange, purple, green, blue; got 'red'"
    assert probs["bonus_tiles.kinds"] == (
        "6 + 6 + 6 + 6 + 3 = 27 bonus tiles, but the seed's component table has 28"
    )
    assert (
        probs["thunder_tokens.values"]
        == "4 + 3 + 2 = 9 thunder tokens, but the seed's component table has 10"
    )
    assert probs["player_boards"] == "the seed's component table has 4 player boards; got 5"


def test_cloud_condition_symbols_and_points_checked() -> None:
    clouds = copy.deepcopy(SPEC["cloud_tokens"])
    clouds["types"][0]["condition"] = {"rainbow": 2}
    clouds["types"][1]["points"] = [3, 4, 6]
    probs = dict(component_problems(make_spec(cloud_tokens=clouds)))
    assert probs["cloud_tokens.types[0].condition.rainbow"] == (
        "expected a cloud symbol (umbrella, boots, frog, snail); got 'rainbow'"
    )
    assert "gold top token" in probs["cloud_tokens.types[1].points"]


def test_shapes_must_differ_for_colour_blind_play() -> None:
    colours = copy.deepcopy(SPEC["colours"])
    colours[3]["shape"] = "drop"
    probs = dict(component_problems(make_spec(colours=colours)))
    assert probs["colours[3].shape"].startswith("shape 'drop' is already the shape of orange")


def test_odd_drop_counts_rejected() -> None:
    mc = copy.deepcopy(SPEC["memory_cards"])
    mc["cells"] = {"min": 3, "max": 10}
    probs = dict(component_problems(make_spec(memory_cards=mc)))
    assert probs["memory_cards.cells.min"] == (
        "a pattern is covered by whole tiles (2 drops each), so drops must be even; got 3"
    )
    assert probs["memory_cards.cells.max"] == "3 x 3 grid has 9 cells; got 10"


@pytest.mark.parametrize("players", [[1, 2, 3, 4], [2, 3, 5]])
def test_player_counts_outside_two_to_four_are_illegal(players) -> None:
    # seed: 「2-4人」
    bad = [p for p in players if not 2 <= p <= 4]
    probs = [
        (k, m)
        for k, m in component_problems(make_spec(rules={**SPEC["rules"], "players": players}))
        if k.startswith("rules.players")
    ]
    msg = "expected 2..4 players (the seed: 2-4人, one board each); got {}"
    assert probs == [(f"rules.players[{players.index(p)}]", msg.format(p)) for p in bad]


def test_player_count_problem_is_located_in_kit_yaml(tmp_path) -> None:
    import shutil
    from pathlib import Path

    from generator.contract.load import load_kit
    from generator.pipeline import check_kit

    kit = tmp_path / "raindrops"
    shutil.copytree(Path(__file__).resolve().parents[3] / "layouts" / "raindrops", kit)
    y = kit / "kit.yaml"
    text = y.read_text(encoding="utf-8")
    assert "players: [2, 3, 4]" in text
    y.write_text(text.replace("players: [2, 3, 4]", "players: [1, 2, 3, 4]"), encoding="utf-8")
    line = next(
        i for i, s in enumerate(y.read_text(encoding="utf-8").splitlines(), 1) if "players: [1, 2" in s
    )
    probs = [str(p) for p in check_kit(load_kit(kit))]
    assert [p for p in probs if "rules.players" in p] == [
        (
            f"{load_kit(kit).display}:{line}: game.rules.players[0]: expected 2..4 players (the seed: 2-4人, "
            f"one board "
            f"each); got 1"
        )
    ]


def test_two_colour_wild_bonus_tiles_need_their_pairs() -> None:
    bonus = copy.deepcopy(SPEC["bonus_tiles"])
    bonus["kinds"][4]["pairs"] = [["orange", "purple"], ["green", "green"]]
    probs = component_problems(make_spec(bonus_tiles=bonus))
    assert (
        "bonus_tiles.kinds[4].pairs",
        ("rules.wild_bonus two_colours: expected one pair of colours per wild tile (4); got 2 pairs"),
    ) in probs
    assert (
        "bonus_tiles.kinds[4].pairs[1]",
        ("expected two different colours of orange, purple, green, blue; got ['green', 'green']"),
    ) in probs
    del bonus["kinds"][4]["pairs"]
    assert (
        component_problems(make_spec(bonus_tiles=bonus, rules={**SPEC["rules"], "wild_bonus": "all_colours"}))
        == []
    )
