"""Draw checks of a data kit (`game.balance.draws`): exact fractions (the draw algebra of algebra.py and
counting.py for every hand condition and sum, linearity of expectation, shares) judged as `Exact` evidence
against bounds read exactly -- HOLDS or FAILS with no seed dependence -- and a seeded Monte-Carlo `Proportion`
only for a condition with no exact method (the report names the method)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from generator.engine.report import BalanceReport, Bars, Headline, Table, bounded
from generator.engine.sequential import Budget, as_budget
from generator.engine.verdict import Exact, Proportion, Verdict
from generator.games.deck.algebra import HandCondition, Turns, fraction_shown, holds, number_of, value_text
from generator.games.deck.counting import Count, NotExact, count_hands, with_mulligans
from generator.games.deck.draws import hand_distribution, largest_share
from generator.games.deck.loaded import LoadedDeck, players
from generator.games.deck.rules import deck_cards
from generator.games.deck.spec import DrawCheck
from generator.i18n.sandbox import CatalogEnvironment
from generator.spec.yamlio import clip

if TYPE_CHECKING:  # numpy and the runner only when a draw has no exact method: a deck check stays light
    import numpy as np

    from generator.engine.runner import Executor, Tally


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


def hand_size(check: DrawCheck) -> int:
    """Cards in the hand the check looks at: `hand`, or the cards seen by a turn (`turns`)."""
    if check.turns is not None:
        return check.turns.seen()
    assert check.hand is not None
    return check.hand


def condition_of(check: DrawCheck) -> HandCondition | None:
    """The check as a hand condition (hand_has, sum_at_most, hand); None for share and expected_sum."""
    if check.kind == "hand" and check.has is not None:
        return check.has
    if check.kind == "hand_has" and check.all_of:
        return HandCondition.model_validate(
            {"all_of": [{"where": c.where, "at_least": c.at_least} for c in check.all_of]}
        )
    if check.kind == "hand_has" and check.where is not None:
        return HandCondition.model_validate({"where": check.where, "at_least": check.at_least})
    if check.kind == "sum_at_most" and check.field is not None and check.limit is not None:
        return HandCondition.model_validate({"sum": check.field, "at_most": check.limit})
    return None


def where_of(cards: list[dict[str, Any]]) -> Callable[[str, dict[str, Any]], bool]:
    """A `where` evaluator over these cards (each condition compiled once, each card's answer cached)."""
    cache: dict[str, dict[int, bool]] = {}

    def where(expr: str, card: dict[str, Any]) -> bool:
        if expr not in cache:
            truths = matches(cards, expr)
            cache[expr] = {id(c): t for c, t in zip(cards, truths, strict=True)}
        return cache[expr][id(card)]

    return where


def exact_count(deck: LoadedDeck, check: DrawCheck) -> Count:
    """Hands meeting the check's condition over all hands, exactly; NotExact where no exact method applies."""
    cards = deck_cards(deck, check.component)
    cond = condition_of(check)
    assert cond is not None
    return count_hands(cards, cond, hand_size(check), where_of(cards))


def exact_fraction(deck: LoadedDeck, check: DrawCheck) -> tuple[Fraction, str, dict[str, Any]]:
    """The exact value of a check, how a report writes it and the figures behind it (NotExact for a condition
    with no exact method)."""
    cards = deck_cards(deck, check.component)
    if check.kind == "share":
        assert check.field is not None
        largest, _ = largest_share([value_text(c.get(check.field)) for c in cards])
        n = sum(1 for c in cards if value_text(c.get(check.field)) == largest)
        return (
            Fraction(n, len(cards)),
            fraction_shown(n, len(cards)),
            {"deck": len(cards), "largest": largest},
        )
    if check.kind == "expected_sum":
        assert check.field is not None and check.hand is not None
        total = sum((number_of(c.get(check.field)) for c in cards), Fraction(0))
        value = check.hand * total / len(cards)
        return value, f"{value} ({float(value):.4g})", {"deck": len(cards), "mean": float(total / len(cards))}
    if check.turns is not None and check.turns.mulligan is not None:
        assert check.has is not None
        value = with_mulligans(cards, check.has, check.turns, where_of(cards))
        return (
            value,
            fraction_shown(value.numerator, value.denominator),
            {
                "deck": len(cards),
                "opening": check.turns.sizes(),
                "later": check.turns.later(),
                "mulligan": check.turns.mulligan.rule,
            },
        )
    count = exact_count(deck, check)
    figures: dict[str, Any] = {
        "deck": len(cards),
        "hand": hand_size(check),
        "hands": count.total,
        "good": count.good,
    }
    if check.kind == "hand_has" and check.all_of:
        truths = list(zip(*(matches(cards, c.where) for c in check.all_of), strict=True))
        cells: dict[tuple[bool, ...], int] = {}
        for t in truths:
            cells[tuple(t)] = cells.get(tuple(t), 0) + 1
        figures["cells"] = {"".join("1" if b else "0" for b in t): n for t, n in sorted(cells.items())}
    elif check.kind == "hand_has":
        assert check.where is not None
        marked = sum(matches(cards, check.where))
        figures["marked"] = marked
        figures["distribution"] = hand_distribution(len(cards), marked, hand_size(check))
    return count.value, fraction_shown(count.good, count.total), figures


def where_row_problem(
    rows: Sequence[dict[str, Any]], source: str, row_at: Callable[[int], str]
) -> str | None:
    """Why a `where` that compiles cannot be evaluated on some row (the first such row), or None: the
    sandbox's refusals, names a row lacks and type errors are all the spec's to fix, found before `check`
    runs."""
    env = CatalogEnvironment()
    tmpl = env.compile_checked("{% if " + source + " %}1{% endif %}")
    for i, row in enumerate(rows):
        env.start()
        try:
            tmpl.render(row)
        except Exception as e:  # any failure of a user's expression is a located spec problem
            return f"{row_at(i)}: cannot be evaluated on this row: {clip(str(e) or type(e).__name__, 160)}"
    return None


def exact_value(deck: LoadedDeck, check: DrawCheck) -> tuple[float, dict[str, Any]]:
    """The exact value of a closed-form check (as a float) and the figures behind it."""
    value, _, figures = exact_fraction(deck, check)
    return float(value), figures


@dataclass(frozen=True)
class HandSampler:
    """A picklable Simulation (generator.engine.runner) for a condition with no exact method: `hand` cards per
    game, drawn by a seeded generator; the number of hands meeting the condition."""

    cards: tuple[tuple[tuple[str, Any], ...], ...]
    hand: int
    condition: HandCondition
    turns: Turns | None = None

    def play(self, seed: np.random.SeedSequence, games: int) -> Tally:
        """`games` seeded hands (with the turns' mulligans, if any); how many meet the condition."""
        import numpy as np

        rng = np.random.default_rng(seed)
        cards = [dict(c) for c in self.cards]
        where = where_of(cards)
        mulligan = self.turns.mulligan if self.turns is not None else None
        sizes = self.turns.sizes() if self.turns is not None and mulligan is not None else [self.hand]
        later = self.turns.later() if self.turns is not None and mulligan is not None else 0
        hits = 0
        for _ in range(games):
            for m, size in enumerate(sizes):
                picked = [int(i) for i in rng.choice(len(cards), size=size + later, replace=False)]
                opening = [cards[i] for i in sorted(picked[:size])]
                if m == len(sizes) - 1 or mulligan is None or holds(mulligan.keep, opening, where, cards):
                    hits += holds(self.condition, [cards[i] for i in sorted(picked)], where, cards)
                    break
        return {"hits": np.array([hits], dtype=np.int64)}


def balance_report(
    deck: LoadedDeck,
    *,
    games: int | Budget,
    seed: int,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
    kit: str = "",
) -> BalanceReport:
    """Every draw check: exact (a fraction) where an exact method applies, seeded Monte-Carlo otherwise."""
    budget = as_budget(games)
    rep = BalanceReport(kit=kit, game="deck", games_per_setting=budget.default, seed=seed)
    rep.figures = {"draws": {}}
    rows = []
    spec = deck.spec
    for n, check in enumerate(spec.balance.draws):
        key = f"game.balance.draws[{n}].bound"
        try:
            value, shown, figures = exact_fraction(deck, check)
        except NotExact as why:
            cond = condition_of(check)
            assert cond is not None
            cards = tuple(tuple(sorted(c.items())) for c in deck_cards(deck, check.component))
            setting = f"draw {n}: {hand_size(check)} cards"
            g = budget(setting)
            from generator.engine.runner import run

            tally = run(
                HandSampler(cards, hand_size(check), cond, check.turns), g, seed, executor, progress=progress
            )
            ev: Exact | Proportion = Proportion(float(tally["hits"].sum()), g)
            rep.tolerances.append(bounded(check.name, ev, check.bound, key, (setting,)))
            figures = {
                "method": f"Monte-Carlo (no exact method: {why})",
                "samples": g,
                "hits": int(tally["hits"].sum()),
            }
            shown = f"{ev.estimate():.4g} (Monte-Carlo)"
        else:
            ev = Exact(float(value), fraction=value, shown=shown)
            figures = {"method": "exact", **figures}
            rep.tolerances.append(bounded(check.name, ev, check.bound, key))
            if "distribution" in figures:
                dist = figures["distribution"]
                rep.charts.append(
                    Bars(
                        f"{check.name}: cards meeting the condition in a {hand_size(check)}-card hand",
                        [str(k) for k in range(len(dist))],
                        dist,
                        y_label="probability",
                    )
                )
        rep.figures["draws"][check.name] = {
            "kind": check.kind,
            "value": ev.estimate(),
            **({"exact": str(value)} if isinstance(ev, Exact) else {}),
            **figures,
        }
        rows.append([check.name, check.kind, shown, "exact" if isinstance(ev, Exact) else "Monte-Carlo"])
    rep.tables.append(Table("Draw checks", ["check", "kind", "value", "method"], rows))
    failing = [
        n
        for n, t in enumerate(rep.tolerances)
        if isinstance(t.evidence, Exact) and t.verdict is Verdict.FAILS
    ]
    if failing:  # a data kit has no tunable parameter: the report says which counts would make them hold
        from generator.games.deck.fixes import count_fixes

        rep.fixes += _memo_fixes(deck, tuple(failing), count_fixes)
    hand = 0 if spec.deal is None else spec.deal.hand
    for p in players(deck):
        rep.headline[str(p)] = Headline(
            policy="deal",
            score_mean=float(hand),
            seat_shares=[1.0 / p] * p,
            game_length=float(hand),
            length_unit="cards per seat",
        )
    return rep


_FIXES: list[tuple[LoadedDeck, tuple[int, ...], list[str]]] = []
"""The last count_fixes (its deck, failing checks and notes): a check builds its report at every look, with
the same deck."""


def _memo_fixes(
    deck: LoadedDeck, failing: tuple[int, ...], search: Callable[[LoadedDeck, Sequence[int]], list[str]]
) -> list[str]:
    if not (_FIXES and _FIXES[0][0] is deck and _FIXES[0][1] == failing):
        _FIXES[:] = [(deck, failing, search(deck, failing))]
    return list(_FIXES[0][2])
