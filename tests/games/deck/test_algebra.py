"""The exact draw algebra (generator/games/deck/algebra.py): every condition against brute-force enumeration
of all hands, the poker hand classes and the land-count tables against independent counts (math.comb), exact
bounds, the Monte-Carlo fallback and located validation errors."""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction

import pytest
from pydantic import ValidationError

from generator.engine.verdict import Verdict
from generator.games.deck.algebra import HandCondition, fraction_shown, holds, parse_exact
from generator.games.deck.balance import balance_report, exact_fraction
from generator.games.deck.counting import NotExact, count_hands
from generator.games.deck.legal import legal_problems
from tests.games.deck.helpers import ROOT, deck, load_example
from tests.games.deck.test_data import pnpkit

POKER = ROOT / "docs" / "examples" / "poker_hands"
LANDS = ROOT / "docs" / "examples" / "land_count"

# a small deck with structure: ranks 1..4 (two suits, some doubled), a type and a cost
SMALL = [
    {
        "id": f"{r}{s}",
        "count": 2 if (r, s) == (2, "x") else 1,
        "rank": r,
        "suit": s,
        "type": "a" if r % 2 else "b",
        "cost": r - 1,
    }
    for r in range(1, 5)
    for s in ("x", "y")
] + [{"id": "j", "count": 1, "rank": 9, "suit": "z", "type": "a", "cost": 3}]

CONDITIONS = [
    {"where": "type == 'a'", "at_least": 2},
    {"where": "type == 'a'", "at_most": 1},
    {"where": "type == 'a'", "exactly": 2},
    {"where": "type == 'b'", "between": [1, 2]},
    {"same": "rank", "at_least": 2},
    {"same": "rank", "exactly": 2, "values": 2},
    {"same": "suit", "at_least": 3},
    {"same": "suit", "exactly": 2, "values": 1},
    {"distinct": "rank"},
    {"distinct": "suit", "at_most": 2},
    {"run": "rank", "length": 3},
    {"run": "rank", "length": 2, "order": [4, 1, 2, 3, 4]},
    {"sum": "cost", "at_most": 3},
    {"sum": "cost", "between": ["3/2", 4]},
    {"all_of": [{"same": "suit", "at_least": 2}, {"run": "rank", "length": 2}]},
    {"any_of": [{"same": "rank", "at_least": 2}, {"where": "cost >= 3", "at_least": 2}]},
    {"none_of": [{"distinct": "suit", "exactly": 1}, {"sum": "cost", "at_least": 5}]},
    {
        "all_of": [
            {"same": "rank", "exactly": 2},
            {"none_of": [{"same": "suit", "at_least": 3}]},
            {"where": "type == 'b'", "at_least": 1},
        ]
    },
]


def _cards(rows):
    return [r for r in rows for _ in range(r["count"])]


def _where(expr, card):  # the few where conditions the table uses, evaluated by hand (not by the sandbox)
    return {
        "type == 'a'": card["type"] == "a",
        "type == 'b'": card["type"] == "b",
        "cost >= 3": card["cost"] >= 3,
    }[expr]


def _brute(cards, cond, hand):
    """Hands meeting a condition, by enumerating every hand, each condition evaluated directly."""
    return sum(1 for h in itertools.combinations(cards, hand) if _direct(cond, h))


def _direct(c, h):
    """An independent reading of a condition dict on a concrete hand."""
    if "all_of" in c:
        return all(_direct(x, h) for x in c["all_of"])
    if "any_of" in c:
        return any(_direct(x, h) for x in c["any_of"])
    if "none_of" in c:
        return not any(_direct(x, h) for x in c["none_of"])
    lo = (
        Fraction(c["between"][0])
        if "between" in c
        else Fraction(c.get("exactly", c.get("at_least", -(10**9))))
    )
    hi = Fraction(c["between"][1]) if "between" in c else Fraction(c.get("exactly", c.get("at_most", 10**9)))
    if "where" in c:
        return lo <= sum(_where(c["where"], x) for x in h) <= hi
    if "sum" in c:
        return lo <= sum(x[c["sum"]] for x in h) <= hi
    counts = {}
    for x in h:
        counts[x[c.get("same") or c.get("distinct") or c.get("run")]] = (
            counts.get(x[c.get("same") or c.get("distinct") or c.get("run")], 0) + 1
        )
    if "same" in c:
        n = sum(1 for v in counts.values() if lo <= v <= hi)
        return n >= 1 if "values" not in c else n == c["values"]
    if "distinct" in c:
        return len(counts) == len(h) if lo == -(10**9) and hi == 10**9 else lo <= len(counts) <= hi
    order = c.get("order") or sorted({x[c["run"]] for x in SMALL})
    return any(
        all(v in counts for v in order[i : i + c["length"]]) for i in range(len(order) - c["length"] + 1)
    )


@pytest.mark.parametrize("hand", [1, 3, 4])
@pytest.mark.parametrize("cond", CONDITIONS, ids=lambda c: str(c)[:60])
def test_exact_count_matches_enumeration(cond, hand):
    cards = _cards(SMALL)
    got = count_hands(cards, HandCondition.model_validate(cond), hand, _where)
    assert got.total == math.comb(len(cards), hand)
    assert got.good == _brute(cards, cond, hand)
    # the module's own direct evaluator (used for sampling) agrees too
    assert got.good == sum(
        1
        for h in itertools.combinations(cards, hand)
        if holds(HandCondition.model_validate(cond), h, _where, cards)
    )


def _poker_cards():
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    return [{"rank": r, "suit": s} for s in "shdc" for r in ranks]


def test_poker_classes_are_the_textbook_counts():
    """Independent counts: e.g. one pair = 13 C(4,2) C(12,3) 4^3; straights = 10 4^5 - 40."""
    c = math.comb
    expected = {
        "straight flush": 10 * 4,
        "four of a kind": 13 * 48,
        "full house": 13 * c(4, 3) * 12 * c(4, 2),
        "flush": 4 * c(13, 5) - 40,
        "straight": 10 * 4**5 - 40,
        "three of a kind": 13 * c(4, 3) * c(12, 2) * 4**2,
        "two pair": c(13, 2) * c(4, 2) ** 2 * 11 * 4,
        "one pair": 13 * c(4, 2) * c(12, 3) * 4**3,
        "high card": (c(13, 5) - 10) * (4**5 - 4),
    }
    assert sum(expected.values()) == c(52, 5)
    spec = load_example(POKER)
    got = {d.name: exact_fraction(spec, d) for d in spec.spec.balance.draws}
    for name, n in expected.items():
        value, shown, figures = got[name]
        assert (figures["good"], figures["hands"]) == (n, 2_598_960)
        assert value == Fraction(n, 2_598_960)
        assert shown.startswith(f"{n:,} / 2,598,960 (")


def test_poker_example_checks_every_class_exactly():
    r = pnpkit("check", str(POKER))
    assert r.returncode == 0, r.stdout + r.stderr
    for n in ["40", "624", "3,744", "5,108", "10,200", "54,912", "123,552", "1,098,240", "1,302,540"]:
        assert f"measured {n} / 2,598,960 (" in r.stdout
    assert "measured 624 / 2,598,960 (0.0240 %)" in r.stdout
    assert "allowed 1/4165..1/4165" in r.stdout and "allowed 0.5..0.5" in r.stdout
    assert r.stdout.count("HOLDS") == 11 and "FAILS" not in r.stdout


def _hyper_at_least(n, k, lands=17, deck=40):
    return Fraction(
        sum(math.comb(lands, i) * math.comb(deck - lands, n - i) for i in range(k, n + 1)), math.comb(deck, n)
    )


def test_land_count_matches_the_hypergeometric_to_the_last_digit():
    spec = load_example(LANDS)
    got = {d.name: exact_fraction(spec, d)[0] for d in spec.spec.balance.draws}
    assert got["at least 2 lands in the opening 7"] == _hyper_at_least(7, 2)
    assert got["exactly 3 lands in the opening 7"] == Fraction(
        math.comb(17, 3) * math.comb(23, 4), math.comb(40, 7)
    )
    assert got["at least 3 lands by turn 3 on the play"] == _hyper_at_least(9, 3)  # 7 + turns 2 and 3
    assert got["at least 3 lands by turn 3 on the draw"] == _hyper_at_least(10, 3)  # 7 + turns 1, 2 and 3
    assert got["2 to 4 lands in the opening 7"] == _hyper_at_least(7, 2) - _hyper_at_least(7, 5)
    assert got["3 lands by turn 3 on the draw, a free mulligan"] == _with_mulligans([7, 7], later=3, need=3)
    assert got["the same, mulligans to 6 then 5"] == _with_mulligans([7, 6, 5], later=3, need=3)
    report = balance_report(spec, games=10, seed=1)
    assert [t.verdict for t in report.tolerances] == [Verdict.HOLDS] * 7


def _with_mulligans(sizes, later, need, lands=17, deck=40):
    """Independently: an opening hand of i lands (hypergeometric) is kept with 2..5 lands (or at the last
    try), then j lands among the `later` cards of the rest (hypergeometric again); need i + j lands."""
    c = math.comb

    def p_open(size, i):
        return Fraction(c(lands, i) * c(deck - lands, size - i), c(deck, size))

    def p_then(size, i):
        rest, left = deck - size, lands - i
        return sum(
            Fraction(c(left, j) * c(rest - left, later - j), c(rest, later))
            for j in range(later + 1)
            if i + j >= need
        )

    reach, out = Fraction(1), Fraction(0)
    for m, size in enumerate(sizes):
        last = m == len(sizes) - 1
        out += reach * sum(p_open(size, i) * p_then(size, i) for i in range(size + 1) if last or 2 <= i <= 5)
        reach *= 1 - sum(p_open(size, i) for i in range(size + 1) if 2 <= i <= 5)
    return out


def test_a_mulligan_that_cannot_be_counted_is_sampled_the_same_way():
    """The sampler plays the declared rule too: with two runs (no exact method) it still lands near the exact
    figure of the same rule computed with one run."""
    from generator.engine.runner import run
    from generator.games.deck.balance import HandSampler
    from generator.games.deck.spec import DrawCheck

    check = DrawCheck.model_validate(
        {
            "name": "m",
            "kind": "hand",
            "component": "cards",
            "bound": {"min": 0},
            "turns": {
                "opening": 7,
                "turn": 3,
                "on": "draw",
                "mulligan": {
                    "keep": {"where": "type == 'land'", "between": [2, 5]},
                    "times": 2,
                    "rule": "smaller",
                },
            },
            "has": {"where": "type == 'land'", "at_least": 3},
        }
    )
    cards = tuple(tuple(sorted(c.items())) for c in [{"type": "land"}] * 17 + [{"type": "spell"}] * 23)
    tally = run(HandSampler(cards, 10, check.has, check.turns), 20_000, 5)
    assert abs(int(tally["hits"].sum()) / 20_000 - float(_with_mulligans([7, 6, 5], later=3, need=3))) < 0.01


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1/4165", Fraction(1, 4165)),
        ("0.5", Fraction(1, 2)),
        (0.2, Fraction(1, 5)),
        (0.1, Fraction(1, 10)),
        (3, Fraction(3)),
        ("2.5e-3", Fraction(1, 400)),
        ("0.30000000000000000001", Fraction(30000000000000000001, 10**20)),
    ],
)
def test_numbers_are_read_exactly(text, value):
    assert parse_exact(text) == value


@pytest.mark.parametrize(
    "bad",
    [
        "1/0",
        "abc",
        "nan",
        True,
        None,
        "1/2/3",
        float("inf"),
        "1e999",
        "1e-99999999",
        10**40,
        "1" + "0" * 40 + "/3",
    ],
)
def test_numbers_that_are_not_refused(bad):
    with pytest.raises(ValueError):
        parse_exact(bad)


@pytest.mark.parametrize(
    ("bound", "verdict"),
    [
        ({"min": "1/5", "max": "1/5"}, Verdict.HOLDS),
        ({"min": 0.2, "max": 0.2}, Verdict.HOLDS),
        ({"min": 0.2000001}, Verdict.FAILS),
        ({"max": "1999999/10000000"}, Verdict.FAILS),
    ],
)
def test_a_bound_equal_to_the_exact_value_holds(bound, verdict):
    """Two cards of ten cost under 2: one card drawn is one of them with probability exactly 1/5."""
    rows = [{"id": str(i), "count": 1, "cost": i} for i in range(10)]
    spec = deck(
        rows,
        balance={
            "draws": [
                {
                    "name": "low",
                    "kind": "hand",
                    "component": "cards",
                    "hand": 1,
                    "has": {"where": "cost < 2", "at_least": 1},
                    "bound": bound,
                }
            ]
        },
    )
    t = balance_report(spec, games=10, seed=3).tolerances[0]
    assert t.verdict == verdict and t.evidence.fraction == Fraction(1, 5)


def test_sum_at_most_is_exact_now():
    """The issue's figure: an exact 175/663 that sampling read as 0.2641-0.2688."""
    rows = [{"id": str(v), "count": 4, "cost": v} for v in range(1, 14)]  # 52 cards, values 1..13
    cards = _cards(rows)
    for limit in (10, 15):
        spec = deck(
            rows,
            balance={
                "draws": [
                    {
                        "name": "s",
                        "kind": "sum_at_most",
                        "component": "cards",
                        "hand": 2,
                        "field": "cost",
                        "limit": limit,
                        "bound": {"min": 0},
                    }
                ]
            },
        )
        value, _, _ = exact_fraction(spec, spec.spec.balance.draws[0])
        brute = sum(
            1 for h in itertools.combinations(range(52), 2) if sum(cards[i]["cost"] for i in h) <= limit
        )
        assert value == Fraction(brute, math.comb(52, 2))
    assert Fraction(175, 663) in {
        Fraction(
            sum(1 for h in itertools.combinations(range(52), 2) if sum(cards[i]["cost"] for i in h) <= lim),
            1326,
        )
        for lim in range(2, 27)
    }


def test_no_exact_method_is_sampled_and_said_so():
    cond = {"all_of": [{"run": "rank", "length": 2}, {"run": "cost", "length": 2}]}
    with pytest.raises(NotExact):
        count_hands(_cards(SMALL), HandCondition.model_validate(cond), 3, _where)
    spec = deck(
        SMALL,
        balance={
            "draws": [
                {
                    "name": "two runs",
                    "kind": "hand",
                    "component": "cards",
                    "hand": 3,
                    "has": cond,
                    "bound": {"min": 0},
                }
            ]
        },
    )
    a = balance_report(spec, games=4000, seed=9)
    b = balance_report(spec, games=4000, seed=9)
    assert a.tolerances[0].method == "Wilson score"
    assert "Monte-Carlo" in a.figures["draws"]["two runs"]["method"]
    assert a.tables[0].rows[0][3] == "Monte-Carlo"
    assert a.tolerances[0].measured == b.tolerances[0].measured
    exact = Fraction(
        sum(1 for h in itertools.combinations(_cards(SMALL), 3) if _direct(cond, h)),
        math.comb(len(_cards(SMALL)), 3),
    )
    assert abs(a.tolerances[0].measured - float(exact)) < 0.03


def test_fraction_shown():
    assert fraction_shown(624, 2_598_960) == "624 / 2,598,960 (0.0240 %)"
    assert fraction_shown(26, 52) == "26 / 52 (50.0 %)"
    assert fraction_shown(0, 10) == "0 / 10 (0 %)"
    from generator.engine.report import exact_text

    assert [
        exact_text(Fraction(n, d)) for n, d in [(9, 10), (1, 4165), (1, 400), (3, 1), (-1, 2), (17, 40)]
    ] == ["0.9", "1/4165", "0.0025", "3", "-0.5", "0.425"]


@pytest.mark.parametrize(
    ("cond", "message"),
    [
        ({"same": "rank"}, "same needs a range: at_least, at_most, exactly or between"),
        (
            {"same": "rank", "where": "x", "at_least": 1},
            "a condition needs exactly one of where, same, distinct, run, "
            "sum, all_of, any_of, none_of; got where, same",
        ),
        ({"run": "rank"}, "run needs length (how many consecutive values)"),
        ({"where": "x", "at_least": "1/2"}, "at_least: a number of cards is a whole number >= 0; got 1/2"),
        ({"where": "x", "between": [3, 1]}, "the range 3..1 is empty"),
        ({"all_of": []}, "all_of: expected at least one condition; got an empty list"),
    ],
)
def test_malformed_conditions_are_refused(cond, message):
    with pytest.raises(ValidationError) as e:
        HandCondition.model_validate(cond)
    assert message in str(e.value)


def test_unknown_fields_and_orders_are_legal_problems():
    spec = deck(
        SMALL,
        balance={
            "draws": [
                {
                    "name": "a",
                    "kind": "hand",
                    "component": "cards",
                    "hand": 3,
                    "has": {
                        "all_of": [
                            {"same": "colour", "at_least": 2},
                            {"run": "suit", "length": 2, "order": ["x", "w"]},
                            {"where": "type ==", "at_least": 1},
                        ]
                    },
                    "bound": {"min": 0},
                },
                {
                    "name": "b",
                    "kind": "hand",
                    "component": "cards",
                    "hand": 3,
                    "turns": {"opening": 7, "turn": 1, "on": "play"},
                    "has": {"sum": "id", "at_most": 3},
                    "bound": {"min": 0},
                },
            ]
        },
    )
    problems = legal_problems(spec)
    keys = [k for k, _ in problems]
    assert (
        "balance.draws[0].has.all_of[0].same",
        "expected a column of the deck (id, count, rank, suit, type, cost); got 'colour'",
    ) in problems
    assert (
        "balance.draws[0].has.all_of[1].order",
        "'w' is not a value of suit (values: x, y, z)",
    ) in problems
    assert "balance.draws[0].has.all_of[2].where" in keys
    assert (
        "balance.draws[1]",
        "a hand check needs hand (cards drawn) or turns (cards seen by a turn), not both",
    ) in problems
    assert any(
        k == "balance.draws[1].has.sum" and re.search(r"kit\.yaml:\S*: column id: expected a number", m)
        for k, m in problems
    )


def test_a_sum_over_cells_of_any_size_is_exact():
    """Data cells are summed as the decimals they are, however large (a bound's 1e30 limit is the spec's)."""
    cards = [{"cost": 1.5}, {"cost": 1e300}, {"cost": 0.1}, {"cost": 0.2}]
    at_most = HandCondition.model_validate({"sum": "cost", "at_most": "3/10"})
    assert (
        count_hands(cards, at_most, 2, _where).good == 1
    )  # 0.1 + 0.2 is 3/10 exactly, not 0.30000000000000004
    big = HandCondition.model_validate({"sum": "cost", "at_least": 10**30})
    assert count_hands(cards, big, 2, _where).good == 3


def test_validate_locates_a_malformed_condition(tmp_path):
    import shutil

    kit = tmp_path / "poker"
    shutil.copytree(POKER, kit)
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    text = text.replace("has: {same: rank, exactly: 4}", "has: {same: rank, exactly: four}")
    text = text.replace("bound: {min: 0.5, max: 0.5}", "bound: {min: 0.5, max: 1/0}")
    (kit / "kit.yaml").write_text(text, encoding="utf-8")
    r = pnpkit("validate", str(kit))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "exactly: four" in t)
    assert re.search(rf"kit\.yaml:{line}: game\.balance\.draws\[1\]\.has\.exactly: .*got 'four'", r.stderr), (
        r.stderr
    )
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "max: 1/0" in t)
    assert re.search(rf"kit\.yaml:{line}: game\.balance\.draws\[9\]\.bound\.max: .*'1/0'", r.stderr), r.stderr


def test_a_decimal_is_read_from_the_text_written(tmp_path):
    """0.42499999999999999999 is the float 0.425, but not the number 17/40: a bound written so FAILS,
    exactly."""
    import shutil

    kit = tmp_path / "lands"
    shutil.copytree(LANDS, kit)
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    head, tail = text.split("    draws:\n", 1)
    draws = (
        "    draws:\n"
        "      - {name: below, kind: hand, component: cards, hand: 1,\n"
        "         has: {where: \"type == 'land'\", exactly: 1},\n"
        "         bound: {max: 0.42499999999999999999}}\n"
        "      - {name: equal, kind: hand, component: cards, hand: 1,\n"
        "         has: {where: \"type == 'land'\", exactly: 1},\n"
        "         bound: {min: 0.425, max: 0.42500000000000000000}}\n"
    )
    (kit / "kit.yaml").write_text(
        head + draws + "\ncomponents:" + tail.split("\ncomponents:", 1)[1], encoding="utf-8"
    )
    assert float("0.42499999999999999999") == 0.425
    r = pnpkit("check", str(kit))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "1 of 2 tolerances failed" in r.stdout
    assert re.search(r"FAILS\s+below", r.stdout) and re.search(r"HOLDS\s+equal", r.stdout)
    assert "allowed at most 0.42499999999999999999" in r.stdout and "allowed 0.425..0.425" in r.stdout
