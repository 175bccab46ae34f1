"""The memory-card generator: determinism, proofs re-checked, distinct patterns, symbols, points, balance."""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from generator.engine.executors import ProcessExecutor, SerialExecutor
from generator.games.raindrops.balance import balance_report
from generator.games.raindrops.components import build_bag
from generator.games.raindrops.cover import check_cover, verify_cover
from generator.games.raindrops.difficulty import measure
from generator.games.raindrops.legal import card_problems, legal_problems
from generator.games.raindrops.memory import generate_memory_cards, points_from_difficulty
from tests.games.raindrops.test_components_spec import SPEC, make_spec
from tests.games.shipped import game_spec


@pytest.fixture(scope="module")
def spec():
    return make_spec()


@pytest.fixture(scope="module")
def cards(spec):
    return generate_memory_cards(spec, SPEC["seed"])


def _pairs_from_dict() -> set[tuple[str, str]]:
    """Colour pairs of the bag read straight from the spec dict (not through build_bag/bag_pairs)."""
    out = set()
    for k in SPEC["bag"]["tiles"]:
        a = [k["a"]] if isinstance(k["a"], str) else k["a"]
        b = [k["b"]] if isinstance(k["b"], str) else k["b"]
        for x in a:
            for y in b:
                out |= {(x, y), (y, x)}
    return out


def test_same_seed_same_cards_other_seed_other_cards(spec, cards) -> None:
    assert generate_memory_cards(spec, SPEC["seed"]) == cards
    other = generate_memory_cards(spec, SPEC["seed"] + 1)
    assert [c.pattern for c in other] != [c.pattern for c in cards]
    assert len({c.pattern for c in other} & {c.pattern for c in cards}) < 27


def test_every_stored_cover_reverified(spec, cards) -> None:
    bag = build_bag(spec)
    pairs = _pairs_from_dict()
    for card in cards:
        assert verify_cover(card, bag) == [], card.id
        assert check_cover(card.pattern, card.cover, pairs) == [], card.id
        covered = sorted(cell for p, q, _, _ in card.cover for cell in (p, q))
        drops = sorted(
            (r, c) for r, row in enumerate(card.pattern) for c, v in enumerate(row) if v is not None
        )
        assert covered == drops


def test_deck_shape(spec, cards) -> None:
    assert [c.id for c in cards] == list(range(1, 55))
    assert len({c.pattern for c in cards}) == 54
    assert Counter(c.cells for c in cards) == {4: 18, 6: 18, 8: 18}
    for c in cards:
        assert len(c.pattern) <= 3 and all(len(r) <= 3 for r in c.pattern)
        assert any(v is not None for v in c.pattern[0]) and any(
            r[0] is not None for r in c.pattern
        )  # cropped
        assert c.cat == (c.cloud is None)
    assert sum(c.cat for c in cards) == 6
    assert Counter(c.cloud for c in cards if not c.cat) == {
        "umbrella": 12,
        "boots": 12,
        "frog": 12,
        "snail": 12,
    }


def test_points_follow_build_difficulty(cards) -> None:
    mc = SPEC["memory_cards"]["points"]
    base = {c.id: c.points - (mc["cat_bonus"] if c.cat else 0) for c in cards}
    assert min(base.values()) == mc["min"] and max(base.values()) == mc["max"]
    for a in cards:
        for b in cards:
            if a.difficulty < b.difficulty:
                assert base[a.id] <= base[b.id], (a.id, b.id)


def test_points_from_difficulty_rank_quantiles() -> None:
    d = np.array([4.0, 1.0, 3.0, 2.0, 2.0, 6.0])
    cat = np.array([False, False, True, False, False, False])
    assert points_from_difficulty(d, cat, 1, 3, 2).tolist() == [3, 1, 4, 1, 1, 3]


def test_symbols_spread_over_difficulty(cards) -> None:
    # every cloud symbol gets cards from the easy and the hard half of the deck
    ranked = sorted((c for c in cards if not c.cat), key=lambda c: c.difficulty)
    easy, hard = ranked[: len(ranked) // 2], ranked[len(ranked) // 2 :]
    for sym in ("umbrella", "boots", "frog", "snail"):
        assert 4 <= sum(c.cloud == sym for c in easy) <= 8, sym
        assert 4 <= sum(c.cloud == sym for c in hard) <= 8, sym


def test_tampered_deck_is_reported(spec, cards) -> None:
    bad_cover = dataclasses.replace(cards[0], cover=cards[0].cover[1:])
    dup = dataclasses.replace(cards[2], pattern=cards[1].pattern, cover=cards[1].cover)
    probs = card_problems(spec, (bad_cover, cards[1], dup) + cards[3:])
    msgs = [m for _, m in probs]
    assert any(m.startswith("card 1: drops ") and m.endswith("are not covered") for m in msgs)
    assert "memory_cards (seed 1) card 3: same pattern as card 2" in msgs


def test_grid_too_small_for_distinct_patterns() -> None:
    mc = copy.deepcopy(SPEC["memory_cards"])
    mc["grid"] = {"rows": 1, "columns": 4}
    mc["cells"] = {"min": 2, "max": 4}
    probs = legal_problems(make_spec(memory_cards=mc))
    assert probs and probs[0][0] == "memory_cards"
    assert probs[0][1].startswith(
        "memory_cards: could not find 54 distinct patterns of [2, 4] drops on a 1 x 4 grid"
    )


def test_cloud_condition_beyond_the_deck() -> None:
    clouds = copy.deepcopy(SPEC["cloud_tokens"])
    clouds["types"][0]["condition"] = {"umbrella": 13}
    probs = legal_problems(make_spec(cloud_tokens=clouds))
    assert (
        "cloud_tokens.types[0].condition.umbrella",
        "needs 13 cards showing umbrella, but the deck has 12",
    ) in probs


def test_harder_patterns_measure_harder(spec) -> None:
    small = (("orange", "purple"),)
    big = (("orange", "purple", "green"), ("blue", "green", "orange"), ("purple", "blue", None))
    t = measure(spec, [small, big], build_bag(spec), 40, 5)
    mean = t["drops_sum"] / t["runs"]
    assert mean[0] < mean[1]
    assert t["runs"].tolist() == [40, 40]


def test_compiled_and_pure_difficulty_agree(spec, cards) -> None:
    pats = [c.pattern for c in cards[:6]]
    fast = measure(spec, pats, build_bag(spec), 3, 11)
    code = (
        "import json,sys; from tests.games.raindrops.test_components_spec import make_spec;"
        "from generator.games.raindrops.components import build_bag;"
        "from generator.games.raindrops.difficulty import measure;"
        "pats=json.loads(sys.argv[1]); pats=[tuple(tuple(r) for r in p) for p in pats]; s=make_spec();"
        "t=measure(s, pats, build_bag(s), 3, 11); print(json.dumps({k: v.tolist() for k, v in t.items()}))"
    )
    env = dict(os.environ, PNPKIT_PURE="1")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    env["PYTHONPATH"] = root
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps(pats)],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    pure = json.loads(out.stdout)
    assert {k: v.tolist() for k, v in fast.items()} == pure


def test_balance_report_figures_and_tolerances(cards) -> None:
    spec = game_spec("raindrops", {"balance.play": None})  # the card-level balance alone (no full games)
    rep = balance_report(spec, games=60, seed=3, executor=SerialExecutor(), kit="raindrops")
    keys = [t.spec_key for t in rep.tolerances]
    assert keys == [
        "game.balance.points_difficulty_spearman",
        "game.balance.cloud_reach_spread",
        "game.balance.unfinished_share",
    ]
    table = rep.tables[0]
    assert "points" in table.columns and "difficulty (check)" in table.columns and len(table.rows) == 54
    fig = rep.figures["memory_cards"]
    assert [c["points"] for c in fig["cards"]] == [c.points for c in cards]
    assert -1 <= fig["spearman_points_difficulty"] <= 1
    rates = [v["rate"] for v in rep.figures["cloud_reach"]["types"].values()]
    assert rep.figures["cloud_reach"]["spread"] == pytest.approx(max(rates) - min(rates))
    assert json.dumps(rep.to_json())  # JSON-able
    again = balance_report(spec, games=60, seed=3, executor=ProcessExecutor(2), kit="raindrops")
    assert again.figures == rep.figures
    other = balance_report(spec, games=60, seed=4, executor=SerialExecutor(), kit="raindrops")
    assert other.figures != rep.figures


def test_check_judges_points_out_of_sample_even_at_the_build_seed(spec, cards) -> None:
    """At the kit's own seed and the build's sample size, the check used to replay the build sample number for
    number (in-sample: the points were fitted on those very games). Its solo games now come from another
    spawn key, so the re-measured difficulties differ from the build's, and the report says so."""
    samples = spec.memory_cards.difficulty.samples
    rep = balance_report(
        spec.model_copy(update={"balance": spec.balance.model_copy(update={"play": None})}),
        games=samples,
        seed=spec.seed,
        executor=SerialExecutor(),
        kit="raindrops",
    )
    fig = rep.figures["memory_cards"]["cards"]
    same = sum(c["difficulty"] == c["difficulty_build"] for c in fig)
    assert same < len(fig) // 10
    assert any("out of sample" in n for n in rep.notes)
    assert "(out of sample)" in rep.tolerances[0].name


def test_a_decks_card_tables_are_built_once_per_process(spec, cards, monkeypatch) -> None:
    """Issue 38 ("nothing computed twice"): the deck's placement tables serve the build-time difficulty and
    every look of a check; other patterns get their own."""
    from generator.games.raindrops import difficulty

    built: list[int] = []
    real = difficulty._card_tables

    def counting(patterns, colour_ids, bag):  # type: ignore[no-untyped-def]
        built.append(len(patterns))
        return real(patterns, colour_ids, bag)

    monkeypatch.setattr(difficulty, "_card_tables", counting)
    monkeypatch.setattr(difficulty, "_TABLES", {})
    patterns = [c.pattern for c in cards]
    first = measure(spec, patterns, build_bag(spec), 20, 1)
    again = measure(spec, [list(map(list, p)) for p in patterns], build_bag(spec), 20, 1)  # equal, not same
    for k in first:
        assert np.array_equal(first[k], again[k]), k
    assert built == [len(cards)]
    measure(spec, patterns[:5], build_bag(spec), 20, 1)
    assert built == [len(cards), 5]
