"""What would fix a data kit's failing draw checks: the fewest copies changed in its data that make every
exact draw check of the component hold again, and keep the kit legal.

A designer's own game (`game.kind: deck`) has no tunable parameter for `pnpkit tune` to search: its balance
is its cards' `count` column. When an exact draw check FAILS, the check's report (`BalanceReport.fixes`)
names up to `SHOWN` changes of that column, smallest first:
- one row's count up or down by 1..`MOST_STEP` copies, where the component's `game.rules` fix neither its
  total nor its copies per value (`total`, `count_by`);
- else (or when no such change does) one copy moved from a row to another that shares every `count_by` value
  (the total and the copies per value stay as the rules say). The `TRIED` moves judged are those whose two row
  changes, each alone, help the failing checks most; a row is in one move shown at most, so the moves shown
  are alternatives;
- when no move within `count_by` holds, moves between rows of different values, each line saying how
  `count_by` changes with it (both edits to make).
Each change is judged as the check judges: the exact value of every exact draw check of the component
against its bound. Monte-Carlo checks are not judged again (the heading says so). Nothing is written: the
designer edits the data file and runs the check again."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from generator.engine.report import bounded
from generator.engine.verdict import Exact, Verdict
from generator.games.deck.balance import exact_fraction
from generator.games.deck.counting import NotExact
from generator.games.deck.legal import cell_text
from generator.games.deck.loaded import LoadedDeck, Rows, copies
from generator.games.deck.spec import DrawCheck

MOST_STEP = 3
"""The most copies one row's count changes by (a single change)."""

SHOWN = 3
"""The most changes a note names, per component."""

TRIED = 64
"""Moves of one copy judged in full, the most helpful first (by the sum of what each of its two row changes
alone does to the failing checks)."""

MAX_COUNT = 1000
"""A row's count stays within 0..MAX_COUNT (the data rule)."""

MAX_TRIALS = 600
"""The most changed decks judged for one component (a deck of 5,000 rows would otherwise mean 30,000): past
it the search stops, and the note says so."""

MAX_WORK = 150_000
"""The most card x check evaluations the search spends on one component (each changed deck judges every card
of it against every exact check: about 2 s): a deck of many cards gets fewer trials. Counted, not timed, so
the notes are the same on every machine."""


class _Spent(Exception):
    """The search spent its budget (MAX_TRIALS, MAX_WORK); its argument: the changed decks judged."""


@dataclass(frozen=True)
class Change:
    """New counts for some rows of one component: (row index, count) each; a move lists the row that gives
    the copy first."""

    counts: tuple[tuple[int, int], ...]


Found = list[tuple[Change, dict[int, Fraction]]]
"""Changes that make every exact check hold, each with the new value of every exact check."""


def count_fixes(deck: LoadedDeck, failing: Sequence[int]) -> list[str]:
    """The lines of `BalanceReport.fixes` for each component with a failing exact check (`failing`: indices
    into game.balance.draws): a heading, then one line per change of the `count` column that makes every
    exact draw check hold; or one line saying that none of those tried does."""
    notes: list[str] = []
    for s in searches(deck, failing):
        notes += _note(deck, s)
    return notes


@dataclass(frozen=True)
class Search:
    """What the search found for one component: the changes (each with every exact check's new value), the
    exact checks it judged, and how many changed decks it judged when it stopped at its budget (or None)."""

    component: str
    rows: Rows
    exact: list[tuple[int, DrawCheck]]
    found: Found
    some_sampled: bool
    spent: int | None


def searches(deck: LoadedDeck, failing: Sequence[int]) -> list[Search]:
    """The search for each component with a failing exact check that has a `count` column."""
    draws = deck.spec.balance.draws
    out: list[Search] = []
    for component in dict.fromkeys(draws[n].component for n in failing):
        rows = deck.rows.get(component)
        if rows is None or "count" not in rows.table.columns:
            continue
        checks = [(n, c) for n, c in enumerate(draws) if c.component == component]
        exact = [(n, c) for n, c in checks if _value(deck, c) is not None]
        found, spent = _search(
            deck, component, rows, exact, [n for n in failing if draws[n].component == component]
        )
        out.append(Search(component, rows, exact, found, len(exact) < len(checks), spent))
    return out


def _value(deck: LoadedDeck, check: DrawCheck) -> Fraction | None:
    """The exact value of a check on `deck`; None where no exact method applies or the deck cannot hold the
    check's hand."""
    try:
        return Fraction(exact_fraction(deck, check)[0])
    except (NotExact, ValueError, ZeroDivisionError):
        return None


def _holds(n: int, check: DrawCheck, value: Fraction) -> bool:
    """Whether `value` meets the check's bound, judged as the check judges an exact value."""
    ev = Exact(float(value), fraction=value)
    return bounded(check.name, ev, check.bound, f"game.balance.draws[{n}].bound").verdict is Verdict.HOLDS


def with_counts(deck: LoadedDeck, component: str, rows: Rows, counts: dict[int, int]) -> LoadedDeck:
    """`deck` with some rows of `component` holding other counts."""
    new = tuple({**row, "count": counts[i]} if i in counts else row for i, row in enumerate(rows.rows))
    return LoadedDeck(deck.spec, {**deck.rows, component: Rows(rows.table, new, rows.lines)}, deck.assets)


def _gap(n: int, check: DrawCheck, value: Fraction) -> Fraction:
    """How far `value` lies outside the check's bound (0 inside): what a change should shrink."""
    lo, hi = check.bound.min, check.bound.max
    if lo is not None and value < Fraction(lo):
        return Fraction(lo) - value
    if hi is not None and value > Fraction(hi):
        return value - Fraction(hi)
    return Fraction(0)


class _Trials:
    """Changed decks of one component, judged and counted against the search's budget."""

    def __init__(
        self,
        deck: LoadedDeck,
        component: str,
        rows: Rows,
        exact: list[tuple[int, DrawCheck]],
        failing: list[int],
    ):
        self.deck, self.component, self.rows, self.exact = deck, component, rows, exact
        self.failing = [(n, c) for n, c in exact if n in failing]
        self.judged = 0
        self._gaps: dict[tuple[tuple[int, int], ...], Fraction | None] = {}

    def changed(self, counts: dict[int, int]) -> LoadedDeck:
        """The deck with these counts (_Spent past the budget)."""
        cards = sum(counts.get(i, copies(row)) for i, row in enumerate(self.rows.rows))
        if self.judged == MAX_TRIALS or (self.judged + 1) * cards * len(self.exact) > MAX_WORK:
            raise _Spent(self.judged)
        self.judged += 1
        return with_counts(self.deck, self.component, self.rows, counts)

    def holding(self, counts: dict[int, int]) -> dict[int, Fraction] | None:
        """Every exact check's value with these counts if all hold, else None."""
        trial = self.changed(counts)
        values: dict[int, Fraction] = {}
        for n, c in self.exact:
            v = _value(trial, c)
            if v is None or not _holds(n, c, v):
                return None
            values[n] = v
        return values

    def gap(self, counts: dict[int, int]) -> Fraction | None:
        """How far the failing checks lie outside their bounds with these counts, in all (kept: the moves
        across count_by ask again what the moves within it asked)."""
        key = tuple(sorted(counts.items()))
        if key not in self._gaps:
            self._gaps[key] = self._gap(counts)
        return self._gaps[key]

    def _gap(self, counts: dict[int, int]) -> Fraction | None:
        trial = self.changed(counts) if counts else self.deck
        total = Fraction(0)
        for n, c in self.failing:
            v = _value(trial, c)
            if v is None:
                return None
            total += _gap(n, c, v)
        return total


def _count_by(deck: LoadedDeck, component: str, rows: Rows) -> tuple[Any, dict[str, dict[str, int]]]:
    """The component's `game.rules` entry (or None) and the copies per value it fixes, for the fields that
    are columns of its data."""
    rule = deck.spec.rules.get(component) if deck.spec.rules else None
    return rule, {f: want for f, want in (rule.count_by if rule else {}).items() if f in rows.table.columns}


def _search(
    deck: LoadedDeck,
    component: str,
    rows: Rows,
    exact: list[tuple[int, DrawCheck]],
    failing: list[int],
) -> tuple[Found, int | None]:
    """The changes that make every exact check of the component hold, smallest first (at most SHOWN): within
    the rules' count_by when a move there does, else moves that change count_by too; and how many changed
    decks were judged when the search stopped at its budget (MAX_TRIALS, MAX_WORK), or None."""
    rule, by = _count_by(deck, component, rows)
    fixed = list(by)
    trials = _Trials(deck, component, rows, exact, failing)
    found: Found = []
    try:
        if (rule is None or rule.total is None) and not fixed:
            _singles(trials, found)
        if not found:
            _moves(trials, fixed, found)
        if not found and fixed:  # none within the rules: a move that changes count_by with it
            _moves(trials, [], found)
    except _Spent as spent:
        return found, spent.args[0]
    return found, None


def _singles(trials: _Trials, found: Found) -> None:
    """One row's count changed by 1, then 2, then 3 copies: the changes of the smallest step that hold."""
    for step in range(1, MOST_STEP + 1):
        for i, row in enumerate(trials.rows.rows):
            for new in (copies(row) + step, copies(row) - step):
                if 0 <= new <= MAX_COUNT and (values := trials.holding({i: new})) is not None:
                    found.append((Change(((i, new),)), values))
        if found:
            del found[SHOWN:]
            return


def _moves(trials: _Trials, fixed: list[str], found: Found) -> None:
    """One copy moved between two rows alike in every `fixed` field (the rules' totals stay), the TRIED
    moves that help most first; no row in two of the moves found."""
    rows = trials.rows.rows
    base = trials.gap({})
    if base is None:
        return
    gain_up, gain_down = {}, {}  # how much one copy more (less) of a row shrinks the failing checks' gap
    for i, row in enumerate(rows):
        if copies(row) < MAX_COUNT and (after := trials.gap({i: copies(row) + 1})) is not None:
            gain_up[i] = base - after
        if copies(row) > 0 and (after := trials.gap({i: copies(row) - 1})) is not None:
            gain_down[i] = base - after
    pairs = sorted(
        (-(gain_up[a] + gain_down[b]), a, b)
        for a in gain_up
        for b in gain_down
        if a != b and gain_up[a] + gain_down[b] > 0 and all(rows[a].get(f) == rows[b].get(f) for f in fixed)
    )
    used: set[int] = set()
    for _, a, b in pairs[:TRIED]:
        if a in used or b in used:
            continue
        counts = {a: copies(rows[a]) + 1, b: copies(rows[b]) - 1}
        if (values := trials.holding(counts)) is not None:
            found.append((Change(((b, counts[b]), (a, counts[a]))), values))
            used.update((a, b))
            if len(found) == SHOWN:
                return


def _note(deck: LoadedDeck, search: Search) -> list[str]:
    """The lines of one component: the changes found (data file, line, row id, old and new count; the failing
    checks' new values), or that none of those tried makes every check hold."""
    draws = deck.spec.balance.draws
    component, rows, found, spent = search.component, search.rows, search.found, search.spent
    where = rows.table.shown
    if not found and spent is not None:
        return [
            f"what would fix it ({component}): none of the first {spent} changes of {where}'s count column "
            "tried makes every exact draw check hold (the search stops there: the deck is large)"
        ]
    rule, by = _count_by(deck, component, rows)
    fixed = list(by)
    if not found:
        if rule is None or (rule.total is None and not fixed):
            return [
                f"what would fix it ({component}): no change of one row's count in {where} by up to "
                f"{MOST_STEP} copies, nor a move of one copy between two rows, makes every exact draw check "
                "hold"
            ]
        held = " and ".join(
            x
            for x in (
                "its total" if rule.total is not None else "",
                f"its copies per {', '.join(fixed)}" if fixed else "",
            )
            if x
        )
        beyond = f", not even one that changes game.rules.{component}.count_by" if fixed else ""
        return [
            f"what would fix it ({component}): no move of one copy between two rows of {where} makes every "
            f"exact draw check hold{beyond}; game.rules.{component} fixes {held}: change more copies (and "
            "the rules with them) or the bounds, then check again"
        ]
    failed = {n: v for n, c in search.exact if (v := _value(deck, c)) is not None and not _holds(n, c, v)}
    sampled = " (the Monte-Carlo checks not judged again)" if search.some_sampled else ""
    across = any(_by_change(rows, change, by) for change, _ in found)
    notes = [
        f"what would fix it ({component}): each change of {where} below alone makes every exact draw check "
        f"hold{sampled}"
        + (
            f"; no move within game.rules.{component}.count_by does, so each changes it too, as it says:"
            if across
            else ":"
        )
    ]
    for change, values in found:
        moved = "; ".join(f"{draws[n].name}: {_shown(v)} -> {_shown(values[n])}" for n, v in failed.items())
        if len(change.counts) == 2:  # one copy moved: (from row, its count), (to row, its count)
            (b, nb), (a, na) = change.counts
            what = f"move a copy from {_row(rows, b, nb)} to {_row(rows, a, na)}"
        else:
            ((i, new),) = change.counts
            what = f"{_row(rows, i, new)}"
        rules = "; ".join(_by_change(rows, change, by))
        notes.append(f"  {what}: {moved}" + (f"; and count_by.{rules}" if rules else ""))
    return notes


def _by_change(rows: Rows, change: Change, by: dict[str, dict[str, int]]) -> list[str]:
    """How a move changes the copies per value the rules fix (`count_by`): "type: action 16 -> 17, resource
    30 -> 29" per field whose value differs between its two rows; none for a move within the rules."""
    if len(change.counts) != 2:
        return []
    (b, _), (a, _) = change.counts
    out = []
    for field, want in by.items():
        va, vb = cell_text(rows.rows[a], field), cell_text(rows.rows[b], field)
        if va != vb:
            ca, cb = want.get(va, 0), want.get(vb, 0)
            out.append(f"{field}: {va} {ca} -> {ca + 1}, {vb} {cb} -> {cb - 1}")
    return out


def _row(rows: Rows, i: int, new: int) -> str:
    """A row as a change names it: its line (a spreadsheet's row), its id and its count before and after."""
    line = "row" if rows.table.source.lower().endswith(".xlsx") else "line"
    return f"{line} {rows.lines[i]} ({rows.rows[i].get('id', i)}, count {copies(rows.rows[i])} -> {new})"


def _shown(value: Fraction) -> str:
    return f"{float(value):.4g}"
