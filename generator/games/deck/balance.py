"""Draw checks of a data kit (`game.balance.draws`): exact values (hypergeometric, linearity of expectation,
shares) judged as `Exact` evidence -- HOLDS or FAILS with no seed dependence -- and a seeded Monte-Carlo
`Proportion` only for `sum_at_most`, which has no closed form here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generator.engine.report import BalanceReport, Bars, Headline, Table, bounded
from generator.engine.runner import Executor, run
from generator.engine.sequential import Budget, as_budget
from generator.engine.verdict import Exact, Proportion
from generator.games.deck.draws import (
    SumSampler,
    expected_sum,
    hand_distribution,
    largest_share,
    p_all_of,
    p_at_least,
)
from generator.games.deck.rules import deck_cards
from generator.games.deck.spec import DeckGame, DrawCheck
from generator.i18n.sandbox import CatalogEnvironment


def matches(cards: list[dict[str, Any]], where: str) -> list[bool]:
    """Whether each card meets the condition (rendered in the catalog sandbox)."""
    env = CatalogEnvironment()
    tmpl = env.compile_checked("{% if " + where + " %}1{% endif %}")
    out = []
    cache: dict[int, bool] = {}
    for card in cards:
        key = id(card)
        if key not in cache:
            env.start()
            cache[key] = tmpl.render(card) == "1"
        out.append(cache[key])
    return out


def exact_value(spec: DeckGame, check: DrawCheck) -> tuple[float, dict[str, Any]]:
    """The exact value of a closed-form check and the figures behind it."""
    cards = deck_cards(spec, check.component)
    if check.kind == "hand_has" and check.all_of:
        assert check.hand is not None
        truths = list(zip(*(matches(cards, c.where) for c in check.all_of), strict=True))
        cells: dict[tuple[bool, ...], int] = {}
        for t in truths:
            cells[tuple(t)] = cells.get(tuple(t), 0) + 1
        value = p_all_of(cells, check.hand, [c.at_least for c in check.all_of])
        return value, {"deck": len(cards), "hand": check.hand,
                       "cells": {"".join("1" if b else "0" for b in t): n for t, n in sorted(cells.items())}}
    if check.kind == "hand_has":
        assert check.where is not None and check.hand is not None
        marked = sum(matches(cards, check.where))
        dist = hand_distribution(len(cards), marked, check.hand)
        return p_at_least(len(cards), marked, check.hand, check.at_least), {
            "deck": len(cards), "marked": marked, "hand": check.hand, "distribution": dist}
    if check.kind == "share":
        assert check.field is not None
        largest, share = largest_share(["" if c.get(check.field) is None else str(c.get(check.field)) for c in cards])
        return share, {"deck": len(cards), "largest": largest}
    assert check.field is not None and check.hand is not None
    values = [float(c.get(check.field) or 0) for c in cards]
    return expected_sum(values, check.hand), {"deck": len(cards), "mean": sum(values) / len(values)}


def balance_report(spec: DeckGame, *, games: int | Budget, seed: int, executor: Executor | None = None,
                   progress: Callable[[int], None] | None = None, kit: str = "") -> BalanceReport:
    """Every draw check: exact where a closed form exists, seeded Monte-Carlo otherwise."""
    budget = as_budget(games)
    rep = BalanceReport(kit=kit, game="deck", games_per_setting=budget.default, seed=seed)
    rep.figures = {"draws": {}}
    rows = []
    for n, check in enumerate(spec.balance.draws):
        key = f"game.balance.draws[{n}].bound"
        if check.kind == "sum_at_most":
            assert check.field is not None and check.hand is not None and check.limit is not None
            values = tuple(float(c.get(check.field) or 0) for c in deck_cards(spec, check.component))
            setting = f"draw {n}: {check.hand} cards"
            g = budget(setting)
            tally = run(SumSampler(values, check.hand, check.limit), g, seed, executor, progress=progress)
            ev: Exact | Proportion = Proportion(float(tally["hits"].sum()), g)
            rep.tolerances.append(bounded(check.name, ev, check.bound, key, (setting,)))
            figures: dict[str, Any] = {"samples": g, "hits": int(tally["hits"].sum())}
        else:
            value, figures = exact_value(spec, check)
            ev = Exact(value)
            rep.tolerances.append(bounded(check.name, ev, check.bound, key))
            if "distribution" in figures:
                dist = figures["distribution"]
                rep.charts.append(Bars(f"{check.name}: cards meeting the condition in a {check.hand}-card hand",
                                       [str(k) for k in range(len(dist))], dist, y_label="probability"))
        rep.figures["draws"][check.name] = {"kind": check.kind, "value": ev.estimate(), **figures}
        rows.append([check.name, check.kind, round(ev.estimate(), 6)])
    rep.tables.append(Table("Draw checks", ["check", "kind", "value"], rows))
    for p in range(spec.deal.players.min, spec.deal.players.max + 1):
        rep.headline[str(p)] = Headline(policy="deal", score_mean=float(spec.deal.hand), seat_shares=[1.0 / p] * p,
                                        game_length=float(spec.deal.hand), length_unit="cards per seat")
    return rep
