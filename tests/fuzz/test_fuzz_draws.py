"""Hostile hand conditions (game.balance.draws[].has, bounds, turns): a seeded sample of random condition
trees, with hostile keys and values mixed in, goes through the spec model, `validate`'s legal checks and
`check`'s draw report. Each is refused with a located message (pydantic error or legal problem) or counted; a
counted one must equal the enumeration of every hand (the exact dynamic program against the direct evaluator),
and nothing may raise anything else."""

from __future__ import annotations

import itertools
import math
import os
import random
from fractions import Fraction
from typing import Any

import pytest
from pydantic import ValidationError

from generator.engine.verdict import Verdict
from generator.errors import KitError
from generator.games.deck.algebra import HandCondition, holds
from generator.games.deck.balance import balance_report, where_of
from generator.games.deck.counting import NotExact, count_hands
from generator.games.deck.legal import legal_problems
from generator.games.deck.rules import deck_cards
from tests.games.deck.helpers import deck

ROWS = [
    {"id": "a", "count": 3, "type": "resource", "cost": 0, "suit": "x", "rank": 1},
    {"id": "b", "count": 2, "type": "action", "cost": 2, "suit": "y", "rank": 2},
    {"id": "c", "count": 1, "type": "event", "cost": 5, "suit": "x", "rank": 3},
    {"id": "d", "count": 2, "type": "action", "cost": 1, "suit": "z", "rank": 3},
    {"id": "e", "count": 1, "type": "resource", "cost": 3, "suit": "y", "rank": 5},
]
FIELDS = ["type", "suit", "rank", "cost", "id", "nope", "", "count", "x" * 200]
WHERES = [
    "type == 'action'",
    "cost >= 2",
    "rank in [1, 3]",
    "type ==",
    "{{ 1 }}",
    "cost.__class__",
    "range(10**9) | list",
    "suit != 'x' and cost < 3",
]
HOSTILE = [
    None,
    True,
    -1,
    10**30,
    "1/0",
    "nan",
    "inf",
    "-0.5",
    "1e999",
    [],
    {},
    "½",
    0.1,
    "3/2",
    2.5,
    "a" * 500,
    [1],
    [1, 2, 3],
    [3, 1],
    {"where": "x"},
]


def _range(rng: random.Random) -> dict[str, Any]:
    pick = rng.random()
    n = rng.choice([0, 1, 2, 3, 4, rng.choice(HOSTILE)])
    if pick < 0.3:
        return {"at_least": n}
    if pick < 0.5:
        return {"at_most": n}
    if pick < 0.7:
        return {"exactly": n}
    if pick < 0.85:
        return {"between": [rng.choice([0, 1, 2]), rng.choice([1, 2, 4, rng.choice(HOSTILE)])]}
    if pick < 0.95:
        return {"at_least": rng.choice([0, 1]), "at_most": rng.choice([1, 3])}
    return {}


def _condition(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if roll < 0.04:
        return rng.choice(HOSTILE)
    if depth < 3 and roll < 0.3:
        kind = rng.choice(["all_of", "any_of", "none_of"])
        return {kind: [_condition(rng, depth + 1) for _ in range(rng.choice([0, 1, 2, 3]))]}
    kind = rng.choice(["where", "same", "distinct", "run", "sum"])
    out: dict[str, Any] = {
        kind: rng.choice(WHERES) if kind == "where" else rng.choice(FIELDS[:4] * 3 + FIELDS)
    }
    if kind == "run":
        out["length"] = rng.choice([1, 2, 3, 0, 200, "2"])
        if rng.random() < 0.5:
            out["order"] = rng.choice([[1, 2, 3, 4, 5], [5, 1, 2, 3, 5], ["x", "y", "z", "x"], [1, "q"], []])
    elif kind != "distinct" or rng.random() < 0.5:
        out.update(_range(rng))
    if kind == "same" and rng.random() < 0.3:
        out["values"] = rng.choice([0, 1, 2, -1, "2"])
    if rng.random() < 0.05:
        out[rng.choice(["length", "values", "order", "colour", "where"])] = rng.choice(HOSTILE)
    return out


def _check(rng: random.Random) -> dict[str, Any]:
    check: dict[str, Any] = {
        "name": "fuzz",
        "kind": "hand",
        "component": "cards",
        "has": _condition(rng, 0),
        "bound": rng.choice(
            [{"min": 0}, {"max": "1/2"}, {"min": 0.25, "max": "3/4"}] * 3 + [{"min": rng.choice(HOSTILE)}]
        ),
    }
    if rng.random() < 0.85:
        check["hand"] = rng.choice([1, 2, 3, 4] * 3 + [0, 10, 200])
    if rng.random() < 0.2:
        check["turns"] = {
            "opening": rng.choice([1, 2, 3]),
            "turn": rng.choice([1, 2]),
            "on": rng.choice(["play", "draw", "sideways"]),
            "per_turn": rng.choice([0, 1, -1]),
        }
        if rng.random() < 0.5:
            check["turns"]["mulligan"] = {
                "keep": _condition(rng, 1),
                "times": rng.choice([1, 2, 0, 9]),
                "rule": rng.choice(["redraw", "smaller", "london"]),
            }
    return check


def _outcome(check: dict[str, Any], seed: int) -> str:
    """refused (a located error), sampled (no exact method) or counted (and equal to the enumeration)."""
    try:
        spec = deck(ROWS, balance={"draws": [check]})
    except (ValidationError, KitError) as e:
        assert str(e), check
        return "refused"
    if legal_problems(spec):
        return "refused"
    draw = spec.spec.balance.draws[0]
    report = balance_report(spec, games=50, seed=seed)
    assert len(report.tolerances) == 1
    if report.tolerances[0].method == "exact" and report.tolerances[0].verdict is Verdict.FAILS:
        _every_fix_holds(spec, report, seed)
    cards = deck_cards(spec, "cards")
    hand = draw.hand if draw.hand is not None else draw.turns.seen()
    assert draw.has is not None
    if draw.turns is not None and draw.turns.mulligan is not None:
        if report.tolerances[0].method == "exact":
            assert report.tolerances[0].evidence.fraction == _brute_mulligans(cards, draw), check
        return "counted"
    try:
        got = count_hands(cards, draw.has, hand, where_of(cards))
    except NotExact:
        assert report.tolerances[0].method == "Wilson score"
        return "sampled"
    where = where_of(cards)
    brute = sum(1 for h in itertools.combinations(cards, hand) if holds(draw.has, h, where, cards))
    assert (got.good, got.total) == (brute, math.comb(len(cards), hand)), check
    assert report.tolerances[0].evidence.fraction == Fraction(brute, got.total)
    return "counted"


def _every_fix_holds(spec: Any, report: Any, seed: int) -> None:
    """A failing exact check: the report says what would fix it, and every change it names, made to the
    rows, makes the check hold."""
    from generator.games.deck.fixes import searches, with_counts

    assert report.fixes and report.fixes[0].startswith("what would fix it (cards)"), report.fixes
    for found in searches(spec, [0]):
        assert len(report.fixes) == (1 + len(found.found) if found.found else 1)
        for change, _ in found.found:
            fixed = with_counts(spec, found.component, found.rows, dict(change.counts))
            assert balance_report(fixed, games=50, seed=seed).tolerances[0].verdict is Verdict.HOLDS


def _brute_mulligans(cards: list[dict[str, Any]], draw: Any) -> Fraction:
    """The mulligan rule played out over every opening hand and every later draw of each try."""
    where = where_of(cards)
    turns, keep = draw.turns, draw.turns.mulligan.keep
    sizes, later = turns.sizes(), turns.later()
    reach, out = Fraction(1), Fraction(0)
    idx = range(len(cards))
    for m, size in enumerate(sizes):
        last = m == len(sizes) - 1
        good = kept = ways = 0
        for opening in itertools.combinations(idx, size):
            hand = [cards[i] for i in opening]
            ok = last or holds(keep, hand, where, cards)
            kept += ok
            rest = [i for i in idx if i not in opening]
            for more in itertools.combinations(rest, later):
                ways += 1
                good += ok and holds(draw.has, hand + [cards[i] for i in more], where, cards)
        out += reach * Fraction(good, ways)
        reach *= 1 - Fraction(kept, math.comb(len(cards), size))
    return out


SEEDS = int(os.environ.get("FUZZ_DRAWS_SEEDS", "8"))
"""Seeds of 40 cases each (FUZZ_DRAWS_SEEDS=200 for a longer run)."""


@pytest.mark.parametrize("seed", range(SEEDS))
def test_hostile_conditions_are_refused_or_counted_right(seed):
    rng = random.Random(20261206 + seed)
    for _ in range(40):
        _outcome(_check(rng), seed)


def test_the_generator_reaches_both_sides():
    """Not all refused, not all accepted: the fuzz tests both the refusals and the counts."""
    seen = [_outcome(_check(random.Random(seed)), seed) for seed in range(100)]
    assert seen.count("refused") >= 20 and seen.count("counted") >= 15


@pytest.mark.parametrize(
    "bad",
    [
        [{"same": "rank", "at_least": 2}] * 13,
        {"all_of": [{"all_of": [{"all_of": []}]}]},
        {"where": "type == 'action'", "at_least": 10**30},
    ],
)
def test_hostile_shapes(bad):
    """A list where a mapping goes, an empty list deep inside, a count beyond any hand: refused or counted."""
    try:
        cond = HandCondition.model_validate(bad)
    except ValidationError:
        return
    assert count_hands(deck_cards(deck(ROWS), "cards"), cond, 3, lambda e, c: True).good == 0


VALID = [
    {"where": "type == 'action'", "at_least": 1},
    {"where": "cost >= 2", "at_most": 1},
    {"same": "suit", "at_least": 2},
    {"distinct": "rank", "at_least": 2},
    {"run": "rank", "length": 2},
    {"sum": "cost", "between": [1, 4]},
    {"none_of": [{"same": "rank", "exactly": 2}]},
    {"any_of": [{"where": "type == 'event'", "exactly": 1}, {"same": "suit", "exactly": 0}]},
]


@pytest.mark.parametrize("seed", range(12))
def test_mulligans_equal_the_rule_played_out(seed):
    """Valid random mulligan rules (the hostile generator above mostly ends in refusals for these)."""
    rng = random.Random(seed)
    check = {
        "name": "m",
        "kind": "hand",
        "component": "cards",
        "bound": {"min": 0},
        "has": rng.choice(VALID),
        "turns": {
            "opening": 3,
            "turn": rng.choice([1, 2]),
            "on": rng.choice(["play", "draw"]),
            "mulligan": {
                "keep": rng.choice(VALID),
                "times": rng.choice([1, 2]),
                "rule": rng.choice(["redraw", "smaller"]),
            },
        },
    }
    spec = deck(ROWS, balance={"draws": [check]})
    assert legal_problems(spec) == []
    tol = balance_report(spec, games=10, seed=seed).tolerances[0]
    assert tol.method == "exact" and tol.evidence.fraction == _brute_mulligans(
        deck_cards(spec, "cards"), spec.spec.balance.draws[0]
    )
