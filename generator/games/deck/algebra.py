"""Exact draw algebra of a deck (docs/deck-kind.md, "Conditions"): conditions on a hand -- counts of cards
meeting a `where`, `same` / `distinct` / `run` over a field's values, sums of a field, and `all_of` / `any_of`
/ `none_of` of these -- and the exact number of hands that meet one, in integers.

The exact count is generator/games/deck/counting.py (a dynamic program over the deck's multiset).

Numbers in a condition or bound are exact: an int, a fraction written "1/4165", or a decimal read from its
text ("0.5" is 1/2, never the float 0.49999...)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, PlainSerializer, StrictInt, model_validator

from generator.spec.base import MAX_SMALL, SpecModel

MAX_EXPONENT = 30
"""Exact numbers lie within 1e-30..1e30 in size (a count, a sum or a probability; never a float overflow)."""
_NUMBER = re.compile(r"^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$")
_RATIO = re.compile(r"^\s*[-+]?\d+\s*/\s*\d+\s*$")


def parse_exact(v: Any) -> Fraction:
    """An exact number from a spec: an int, a fraction "a/b", a decimal string, or a YAML float read back from
    the text it was written as (its `text` when the loader kept it, else the shortest decimal that reads back
    to the same float -- the written decimal for up to 15 significant digits). ValueError otherwise."""
    if isinstance(v, Fraction):
        return v
    if isinstance(v, bool) or v is None:
        raise ValueError(f"expected a number, a fraction such as 1/4165 or a decimal such as 0.5; got {v!r}")
    if isinstance(v, int):
        if abs(v) > 10**MAX_EXPONENT:
            raise ValueError(f"a number between 1e-{MAX_EXPONENT} and 1e{MAX_EXPONENT}; got {v}")
        return Fraction(v)
    if isinstance(v, float):
        text = getattr(v, "text", None)
        if not math.isfinite(v):
            raise ValueError(f"expected a finite number; got {v!r}")
        return parse_exact(text if isinstance(text, str) else repr(v))
    if isinstance(v, str) and len(v) <= 60 and (_NUMBER.match(v) or _RATIO.match(v)):
        if _RATIO.match(v) and int(v.split("/")[1]) == 0:
            raise ValueError(f"a fraction over 0; got {v!r}")
        exponent = re.search(r"[eE]([-+]?\d+)", v)
        if exponent and abs(int(exponent.group(1))) > MAX_EXPONENT:
            raise ValueError(f"a number between 1e-{MAX_EXPONENT} and 1e{MAX_EXPONENT}; got {v!r}")
        out = Fraction(v.replace(" ", ""))
        if abs(out) > 10**MAX_EXPONENT:
            raise ValueError(f"a number between 1e-{MAX_EXPONENT} and 1e{MAX_EXPONENT}; got {v!r}")
        return out
    shown = v if not isinstance(v, str) or len(v) <= 60 else v[:57] + "..."
    raise ValueError(f"expected a number, a fraction such as 1/4165 or a decimal such as 0.5; got {shown!r}")


def fraction_text(v: Fraction) -> str:
    """A fraction as the spec writes it: "3" or "1/4165"."""
    return str(v)


ExactNumber = Annotated[Fraction, BeforeValidator(parse_exact), PlainSerializer(fraction_text)]
"""A number read exactly (see parse_exact), dumped as its text."""


class ExactBound(SpecModel):
    """The range an exact value must lie in; either end may be omitted. Ends are read exactly (1/4165, 0.5):
    a value equal to an end lies inside."""

    min: ExactNumber | None = Field(
        None, description="the least allowed value (a number, a fraction or a decimal)"
    )
    max: ExactNumber | None = Field(None, description="the largest allowed value")

    @model_validator(mode="after")
    def _ordered(self) -> ExactBound:
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(
                f"min {float(self.min):g} is above max {float(self.max):g}: no value can lie in the range"
            )
        return self


LEAF_KEYS = ("where", "same", "distinct", "run", "sum")
GROUP_KEYS = ("all_of", "any_of", "none_of")
RANGE_KEYS = ("at_least", "at_most", "exactly", "between")


class HandCondition(SpecModel):
    """A condition on a hand: exactly one of where / same / distinct / run / sum / all_of / any_of / none_of,
    with a range (at_least, at_most, exactly or between) where it counts."""

    where: str | None = Field(
        None,
        max_length=500,
        description=(
            "cards meeting this condition over a card's fields, e.g. \"type == 'land'\": their number is in "
            "the range"
        ),
    )
    same: str | None = Field(
        None,
        max_length=100,
        description=(
            "a field: some value of it is held by a number of cards in the range (same: rank, exactly: 4 is "
            "four of "
            "a kind; same: suit, at_least: 5 a flush); with `values`, exactly that many values are; a range "
            "with 0 "
            "counts the deck's values the hand lacks"
        ),
    )
    distinct: str | None = Field(
        None,
        max_length=100,
        description=(
            "a field: the number of different values of it in the hand is in the range (no range: all cards "
            "differ)"
        ),
    )
    run: str | None = Field(
        None,
        max_length=100,
        description=("a field: the hand holds `length` consecutive values of `order` (a straight)"),
    )
    sum: str | None = Field(
        None,
        max_length=100,
        description=(
            "a numeric field: its sum over the hand is in the range (exact, by dynamic programming)"
        ),
    )
    all_of: list[HandCondition] | None = Field(
        None, max_length=12, description="every condition listed holds"
    )
    any_of: list[HandCondition] | None = Field(None, max_length=12, description="at least one listed holds")
    none_of: list[HandCondition] | None = Field(None, max_length=12, description="no condition listed holds")
    at_least: ExactNumber | None = Field(None, description="the count (or sum) is at least this")
    at_most: ExactNumber | None = Field(None, description="the count (or sum) is at most this")
    exactly: ExactNumber | None = Field(None, description="the count (or sum) is exactly this")
    between: list[ExactNumber] | None = Field(
        None,
        min_length=2,
        max_length=2,
        description=("[low, high]: the count (or sum) lies in low..high, both included"),
    )
    values: StrictInt | None = Field(
        None,
        ge=0,
        le=MAX_SMALL,
        description=(
            "same: exactly this many values of the field meet the range (two pair: same: rank, exactly: 2, "
            "values: 2); "
            "default: at least one"
        ),
    )
    length: StrictInt | None = Field(None, ge=1, le=MAX_SMALL, description="run: how many consecutive values")
    order: list[str | int] | None = Field(
        None,
        min_length=1,
        max_length=200,
        description=(
            "run: the field's values in order; a value may be listed at both ends (an ace high and low: [A, "
            "2, ..., "
            "K, A]); default: the field's numbers in increasing order"
        ),
    )

    @model_validator(mode="after")
    def _one_kind(self) -> HandCondition:
        kinds = [k for k in LEAF_KEYS + GROUP_KEYS if getattr(self, k) is not None]
        if len(kinds) != 1:
            got = ", ".join(kinds) if kinds else "none"
            raise ValueError(
                f"a condition needs exactly one of {', '.join(LEAF_KEYS + GROUP_KEYS)}; got {got}"
            )
        kind = kinds[0]
        ranges = [k for k in RANGE_KEYS if getattr(self, k) is not None]
        if kind in GROUP_KEYS:
            if getattr(self, kind) == []:
                raise ValueError(f"{kind}: expected at least one condition; got an empty list")
            extra = ranges + [k for k in ("values", "length", "order") if getattr(self, k) is not None]
            if extra:
                raise ValueError(f"{kind} takes a list of conditions, not {', '.join(extra)}")
            return self
        if kind == "run":
            if ranges:
                raise ValueError(f"run takes length (and order), not {', '.join(ranges)}")
            if self.length is None:
                raise ValueError("run needs length (how many consecutive values)")
        elif self.length is not None or self.order is not None:
            raise ValueError(f"length and order belong to run, not {kind}")
        if self.values is not None and kind != "same":
            raise ValueError(f"values belongs to same, not {kind}")
        if kind != "distinct" and kind != "run" and not ranges:
            raise ValueError(f"{kind} needs a range: at_least, at_most, exactly or between")
        if len(ranges) > 1 and ("exactly" in ranges or "between" in ranges):
            raise ValueError(
                f"give one of exactly / between, or at_least and at_most; got {', '.join(ranges)}"
            )
        lo, hi = self.range()
        if lo is not None and hi is not None and lo > hi:
            raise ValueError(f"the range {lo}..{hi} is empty")
        if kind != "sum":
            for k in ranges:
                ends = self.between if k == "between" else [getattr(self, k)]
                for e in ends or []:
                    if e.denominator != 1 or e < 0:
                        raise ValueError(f"{k}: a number of cards is a whole number >= 0; got {e}")
        return self

    def kind(self) -> str:
        """Which key the condition uses."""
        return next(k for k in LEAF_KEYS + GROUP_KEYS if getattr(self, k) is not None)

    def range(self) -> tuple[Fraction | None, Fraction | None]:
        """(low, high) of the range, None where open."""
        if self.exactly is not None:
            return self.exactly, self.exactly
        if self.between is not None:
            return self.between[0], self.between[1]
        return self.at_least, self.at_most

    def children(self) -> list[HandCondition]:
        """The listed conditions of all_of / any_of / none_of (none for a leaf)."""
        return self.all_of or self.any_of or self.none_of or []


HandCondition.model_rebuild()


class Mulligan(SpecModel):
    """A declared mulligan rule: an opening hand that does not meet `keep` is shuffled back and a new one
    drawn, at most `times` times; the last hand is kept whatever it holds."""

    keep: HandCondition = Field(description="the condition an opening hand must meet to be kept")
    times: StrictInt = Field(1, ge=1, le=7, description="mulligans allowed")
    rule: Literal["redraw", "smaller"] = Field(
        "redraw",
        description=(
            "redraw: a new hand of the same size (a free mulligan); smaller: one card fewer at each mulligan"
        ),
    )


class Turns(SpecModel):
    """Cards seen by a turn: an opening hand, then cards drawn each turn; the player on the play skips the
    first turn's draw (as the published land-count tables count); optionally a declared mulligan rule."""

    opening: StrictInt = Field(ge=1, le=MAX_SMALL, description="cards in the opening hand")
    per_turn: StrictInt = Field(1, ge=0, le=MAX_SMALL, description="cards drawn each turn")
    turn: StrictInt = Field(
        ge=1, le=MAX_SMALL, description="the turn by which the hand is looked at (1 = first turn)"
    )
    on: Literal["play", "draw"] = Field(
        description="play: no draw on the first turn; draw: a draw every turn"
    )
    mulligan: Mulligan | None = Field(
        None,
        description=(
            "the mulligan rule: an opening hand that does not meet `keep` is shuffled back and redrawn"
        ),
    )

    def later(self) -> int:
        """Cards drawn after the opening hand, by the end of the turn's draw."""
        return self.per_turn * (self.turn - (1 if self.on == "play" else 0))

    def seen(self) -> int:
        """Cards seen by the end of the turn's draw (without a mulligan)."""
        return self.opening + self.later()

    def sizes(self) -> list[int]:
        """The opening hand's size at each try: the first, then after each mulligan."""
        if self.mulligan is None:
            return [self.opening]
        step = 1 if self.mulligan.rule == "smaller" else 0
        return [self.opening - step * m for m in range(self.mulligan.times + 1)]


def walk(cond: HandCondition, key: str) -> Iterator[tuple[str, HandCondition]]:
    """(dotted key, condition) of the condition and every condition inside it."""
    yield key, cond
    kind = cond.kind()
    if kind in GROUP_KEYS:
        for i, c in enumerate(cond.children()):
            yield from walk(c, f"{key}.{kind}[{i}]")


def value_text(v: Any) -> str:
    """A field's value as conditions compare it: its text ('' for an empty cell; 10, not 10.0, for whole
    numbers)."""
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def number_of(v: Any) -> Fraction:
    """A summed cell as an exact number: an int, or a float as the shortest decimal that reads back to it (the
    decimal a data file wrote); an empty cell is 0. Data cells are numbers of any size (not spec bounds)."""
    if v is None or v == "":
        return Fraction(0)
    if isinstance(v, float) and math.isfinite(v):
        return Fraction(repr(v))
    if isinstance(v, int) and not isinstance(v, bool):
        return Fraction(v)
    return parse_exact(v)


def default_order(values: Sequence[Any]) -> list[str] | None:
    """A run's default order: the field's values in increasing numeric order (None if some are not
    numbers)."""
    try:
        nums = sorted(
            {
                parse_exact(v) if not isinstance(v, str) else parse_exact(v.strip())
                for v in values
                if v is not None and v != ""
            }
        )
    except ValueError:
        return None
    return [value_text(int(n) if n.denominator == 1 else float(n)) for n in nums]


def draw_problems(
    has: HandCondition | None,
    hand: int | None,
    turns: Turns | None,
    key: str,
    size: int,
    columns: Sequence[str],
    rows: Sequence[dict[str, Any]],
    row_at: Callable[[int], str],
    where_problem: Callable[[str], str | None],
) -> list[tuple[str, str]]:
    """(key, message) for every problem of a `hand` check: its hand size against the deck, and every field a
    condition names (a column; numbers for a sum; a run's order values of the field)."""
    out = _size_problems(hand, turns, key, size)
    if has is None:
        out.append((key, "a hand check needs has (the condition on the hand)"))
        return out
    conditions = [(has, f"{key}.has")]
    if turns is not None and turns.mulligan is not None:
        conditions.append((turns.mulligan.keep, f"{key}.turns.mulligan.keep"))
    for at, cond in (pair for top, base in conditions for pair in walk(top, base)):
        kind = cond.kind()
        if kind in GROUP_KEYS:
            continue
        if kind == "where":
            why = where_problem(str(cond.where))
            if why:
                out.append((f"{at}.where", why))
            continue
        field = str(getattr(cond, kind))
        if field not in columns:
            out.append(
                (f"{at}.{kind}", f"expected a column of the deck ({', '.join(columns)}); got {field!r}")
            )
        elif kind == "sum":
            out += _sum_problems(at, field, rows, row_at)
        elif kind == "run":
            out += _run_problems(at, cond, field, rows)
    return out


def _size_problems(hand: int | None, turns: Turns | None, key: str, size: int) -> list[tuple[str, str]]:
    """A hand check's draw: a hand or turns (not both), no more cards than the deck holds, a mulligan that
    leaves a card."""
    out: list[tuple[str, str]] = []
    if (hand is None) == (turns is None):
        out.append((key, "a hand check needs hand (cards drawn) or turns (cards seen by a turn), not both"))
    seen = hand if hand is not None else turns.seen() if turns is not None else 0
    if seen > size:
        what = (
            f"a hand of {seen}"
            if hand is not None
            else f"{seen} cards seen by turn {turns.turn if turns else 0}"
        )
        out.append(
            (f"{key}.{'hand' if hand is not None else 'turns'}", f"the deck holds {size} cards; got {what}")
        )
    if turns is not None and turns.mulligan is not None and min(turns.sizes()) < 1:
        out.append(
            (
                f"{key}.turns.mulligan.times",
                f"{turns.mulligan.times} smaller mulligans of an opening hand of "
                f"{turns.opening} leave no card",
            )
        )
    return out


def _sum_problems(
    at: str, field: str, rows: Sequence[dict[str, Any]], row_at: Callable[[int], str]
) -> list[tuple[str, str]]:
    """The first row whose summed field is not a number."""
    for i, row in enumerate(rows):
        v = row.get(field)
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
            return [
                (
                    f"{at}.sum",
                    f"{row_at(i)}: column {field}: expected a number (declare it int or "
                    f"number in fields); got {v!r}",
                )
            ]
    return []


def _run_problems(
    at: str, cond: HandCondition, field: str, rows: Sequence[dict[str, Any]]
) -> list[tuple[str, str]]:
    """A run's order: given or numeric, made of values of the field, no shorter than the run."""
    have = {value_text(r.get(field)) for r in rows}
    order = [value_text(v) for v in cond.order] if cond.order else default_order([r.get(field) for r in rows])
    if order is None:
        return [
            (
                f"{at}.order",
                f"the values of {field} are not all numbers; give order (e.g. [A, 2, ..., K, A])",
            )
        ]
    out: list[tuple[str, str]] = []
    unknown = [v for v in order if v not in have]
    if unknown:
        out.append(
            (
                f"{at}.order",
                f"{unknown[0]!r} is not a value of {field} (values: {', '.join(sorted(have)[:20])})",
            )
        )
    if cond.length is not None and cond.length > len(order):
        out.append((f"{at}.length", f"a run of {cond.length} in an order of {len(order)} values"))
    return out


# ---------------------------------------------------------------- direct evaluation (sampling, tests' oracle)


def holds(
    cond: HandCondition,
    hand: Sequence[dict[str, Any]],
    where: Callable[[str, dict[str, Any]], bool],
    deck: Sequence[dict[str, Any]] = (),
) -> bool:
    """Whether a concrete hand meets the condition (`where(expr, card)` evaluates a where; a run without an
    order follows the numbers of `deck`, the cards the hand came from)."""
    kind = cond.kind()
    if kind == "all_of":
        return all(holds(c, hand, where, deck) for c in cond.children())
    if kind == "any_of":
        return any(holds(c, hand, where, deck) for c in cond.children())
    if kind == "none_of":
        return not any(holds(c, hand, where, deck) for c in cond.children())
    lo, hi = cond.range()

    def inside(x: Fraction | int) -> bool:
        return (lo is None or x >= lo) and (hi is None or x <= hi)

    if kind == "where":
        assert cond.where is not None
        return inside(sum(1 for card in hand if where(cond.where, card)))
    if kind == "sum":
        return inside(sum((number_of(card.get(str(cond.sum))) for card in hand), Fraction(0)))
    field = str(getattr(cond, kind))
    counts: dict[str, int] = {
        value_text(card.get(field)): 0 for card in deck
    }  # a value the hand lacks: 0 cards
    for card in hand:
        v = value_text(card.get(field))
        counts[v] = counts.get(v, 0) + 1
    if kind == "same":
        n = sum(1 for c in counts.values() if inside(c))
        return n >= 1 if cond.values is None else n == cond.values
    if kind == "distinct":
        held = sum(1 for c in counts.values() if c > 0)
        return held == len(hand) if lo is None and hi is None else inside(held)
    order = (
        [value_text(v) for v in cond.order]
        if cond.order
        else default_order([c.get(field) for c in deck]) or []
    )
    streak = 0
    for v in order:
        streak = streak + 1 if counts.get(v, 0) > 0 else 0
        if streak >= int(cond.length or 0):
            return True
    return False


def fraction_shown(good: int, total: int) -> str:
    """ "624 / 2,598,960 (0.0240 %)": the count, the total and the percentage to three significant figures."""
    pct = Fraction(good * 100, total) if total else Fraction(0)
    return f"{good:,} / {total:,} ({_pct(pct)} %)"


def _pct(p: Fraction) -> str:
    if p == 0:
        return "0"
    digits = max(1, 3 - math.floor(math.log10(float(p))) - 1)
    return f"{float(p):.{min(digits, 12)}f}"
