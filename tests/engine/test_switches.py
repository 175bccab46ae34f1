"""House-rule switches: every bool / Literal field of a game's `rules` model is flipped once, numeric fields
are skipped, and each flipped spec's own balance report fills one row of the side-by-side table."""

from __future__ import annotations

from typing import Any, Literal

from generator.engine.report import BalanceReport, Headline
from generator.engine.runner import run
from generator.engine.sequential import Budget, as_budget
from generator.engine.switches import switch_effects, switch_table, switch_values
from generator.spec.base import SpecModel
from tests.engine.toy import DiceRace


class FakeRules(SpecModel):
    """A small rules model: two switches and a figure."""

    short_race: bool = False
    start: Literal["first", "last", "random"] = "first"
    players: int = 2


class FakeGame(SpecModel):
    """A game spec with a rules section."""

    rules: FakeRules = FakeRules()


def fake_balance_report(
    spec: FakeGame,
    *,
    games: int | Budget,
    seed: int,
    executor: Any = None,
    progress: Any = None,
    kit: str = "",
) -> BalanceReport:
    """The dice race, whose target depends on the switches, as a game's balance_report would play it."""
    budget = as_budget(games)
    target = (8 if spec.rules.short_race else 16) + {"first": 0, "last": 2, "random": 4}[spec.rules.start]
    rep = BalanceReport(kit=kit, game="fake", games_per_setting=budget.default, seed=seed)
    for n in (2, 3):
        g = budget(f"{n}p")
        t = run(DiceRace(players=n, target=target), g, seed, executor, chunk_size=100)
        rep.headline[str(n)] = Headline(
            policy="race",
            score_mean=float(target),
            seat_shares=[float(w) / g for w in t["wins"]],
            game_length=float(t["games.turns"].mean()),
            length_unit="turns",
        )
    return rep


def test_switches_are_bool_and_literal_fields_only() -> None:
    assert switch_values(FakeRules()) == [
        ("short_race", False, [True]),
        ("start", "first", ["last", "random"]),
    ]


def test_each_flip_is_played_with_the_flipped_spec() -> None:
    rows = switch_effects(fake_balance_report, FakeGame(), games=200, seed=3)
    assert [(r["switch"], r["value"]) for r in rows] == [
        ("as specified", ""),
        ("short_race", True),
        ("start", "last"),
        ("start", "random"),
    ]
    assert [r["players"]["2"]["score_mean"] for r in rows] == [16.0, 8.0, 18.0, 20.0]
    # a shorter race is a shorter game: the flipped row measured its own games
    assert rows[1]["players"]["3"]["game_length"] < rows[0]["players"]["3"]["game_length"]
    table = switch_table(rows)
    # long, not wide: one line per setting and player count, so the page never needs 3 columns per count
    assert table.columns == ["switch", "value", "players", "score mean", "seat shares", "length"]
    counts = sorted({n for r in rows for n in r["players"]}, key=int)
    assert len(table.rows) == 4 * len(counts) and len(counts) >= 2
    assert table.rows[len(counts)][:4] == ["short_race", True, 2, 8.0]


def test_no_rules_model_or_no_switches_gives_no_rows() -> None:
    class Plain(SpecModel):
        players: int = 2

    class NumericRules(SpecModel):
        rules: Plain = Plain()

    assert switch_effects(fake_balance_report, Plain(), games=10, seed=1) == []
    assert switch_effects(fake_balance_report, NumericRules(), games=10, seed=1) == []
