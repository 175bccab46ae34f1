"""Exact draw algebra of a deck (docs/deck-kind.md, "Conditions"): conditions on a hand -- counts of cards
meeting a `where`, `same` / `distinct` / `run` over a field's values, sums of a field, and `all_of` / `any_of`
/ `none_of` of these -- and the exact number of hands that meet one, in integers.

The count is a dynamic program over the deck's multiset, never an enumeration of hands: the cards are cut into
classes by everything the condition reads (a field's value, a `where`'s truth, a summed value); the classes
are grouped by the values of one "primary" field (the one a `run` or `same` reads), and the groups are taken
one at a time in the run's declared order. The state holds only what the condition needs -- cards drawn so
far, capped counts per value of the other fields, capped counts of `where` cards, capped sums, and per primary
field how many of its values have reached each count (a finished group is never looked at again) -- and a
choice of x_c cards from a class of size s_c weighs C(s_c, x_c). A hand of n from N is one of C(N, n) equally
likely hands, so the probability is an exact `Fraction`. When the deck is the same for every value of a
secondary field (a suit of a standard deck), that field's counts are kept sorted: the condition cannot tell
the values apart.

Numbers in a condition or bound are exact: an int, a fraction written "1/4165", or a decimal read from its
text ("0.5" is 1/2, never the float 0.49999...)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, PlainSerializer, StrictInt, model_validator

from generator.spec.base import MAX_SMALL, SpecModel

MAX_STATES = 200_000
"""States of the dynamic program past which a condition is sampled instead (the report says so)."""
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


# ---------------------------------------------------------------- the exact count


@dataclass(frozen=True)
class Count:
    """Hands meeting a condition out of all hands (both exact integers)."""

    good: int
    total: int

    @property
    def value(self) -> Fraction:
        """The probability, exact."""
        return Fraction(self.good, self.total)


class NotExact(Exception):
    """The condition has no exact method here (the caller samples it and says so)."""


@dataclass(frozen=True)
class _Leaf:
    kind: str
    field: str
    lo: Fraction | None
    hi: Fraction | None
    values: int | None = None
    length: int = 0
    order: tuple[str, ...] = ()
    scope: str = "all"

    def inside(self, x: Fraction | int) -> bool:
        return (self.lo is None or x >= self.lo) and (self.hi is None or x <= self.hi)

    def count_cap(self) -> int:
        """The count past which nothing the leaf asks changes."""
        if self.hi is not None:
            return int(self.hi) + 1
        return int(self.lo) if self.lo is not None else 1


def _leaves(cond: HandCondition, hand: int, out: list[_Leaf], scope: str = "all") -> Any:
    """The tree with leaves replaced by their index in `out` (each leaf reading the cards of `scope`)."""
    kind = cond.kind()
    if kind in GROUP_KEYS:
        return (kind, [_leaves(c, hand, out, scope) for c in cond.children()])
    lo, hi = cond.range()
    if kind == "distinct" and lo is None and hi is None:
        lo = hi = Fraction(hand)
    leaf = _Leaf(
        kind,
        str(getattr(cond, kind)),
        lo,
        hi,
        cond.values,
        int(cond.length or 0),
        tuple(value_text(v) for v in cond.order or ()),
        scope,
    )
    out.append(leaf)
    return len(out) - 1


def _truth(tree: Any, facts: Sequence[bool]) -> bool:
    if isinstance(tree, int):
        return facts[tree]
    kind, parts = tree
    got = [_truth(p, facts) for p in parts]
    return all(got) if kind == "all_of" else any(got) if kind == "any_of" else not any(got)


def count_hands(
    cards: Sequence[dict[str, Any]],
    cond: HandCondition,
    hand: int,
    where: Callable[[str, dict[str, Any]], bool],
) -> Count:
    """The exact number of `hand`-card hands from `cards` (one dict per card, copies repeated) meeting `cond`,
    over C(len(cards), hand). NotExact when no exact method applies (two runs over different fields or orders,
    or more than MAX_STATES states)."""
    return _count(cards, [(cond, "all")], 0, hand, where)


def count_kept(
    cards: Sequence[dict[str, Any]],
    keep: HandCondition,
    cond: HandCondition,
    opening: int,
    later: int,
    where: Callable[[str, dict[str, Any]], bool],
) -> Count:
    """Draws of an `opening` hand and then `later` more cards where the opening hand meets `keep` and all the
    cards seen meet `cond`, over C(N, opening) C(N - opening, later): the two draws counted together,
    exactly."""
    return _count(cards, [(keep, "open"), (cond, "all")], opening, opening + later, where)


def with_mulligans(
    cards: Sequence[dict[str, Any]],
    cond: HandCondition,
    turns: Turns,
    where: Callable[[str, dict[str, Any]], bool],
) -> Fraction:
    """P(the cards seen by the turn meet `cond`) under the turns' mulligan rule, exactly: each try m is
    reached when every earlier opening hand failed `keep`; a try before the last ends the mulligans when its
    opening hand meets `keep` (counted with the later draws in one dynamic program), the last is kept whatever
    it holds."""
    later = turns.later()
    sizes = turns.sizes()
    if turns.mulligan is None:
        return count_hands(cards, cond, turns.seen(), where).value
    keep = turns.mulligan.keep
    reach = Fraction(1)
    out = Fraction(0)
    for m, size in enumerate(sizes):
        if m == len(sizes) - 1:
            out += reach * count_hands(cards, cond, size + later, where).value
            break
        out += reach * count_kept(cards, keep, cond, size, later, where).value
        reach *= 1 - count_hands(cards, keep, size, where).value
    return out


@dataclass
class _Plan:
    """What the dynamic programme of one count tracks: the leaves of the conditions, the primary field (whose
    values are the groups the cards are taken in), and per tracked (scope, field) of the other leaves -- same
    / distinct (q), where (w) and sum (s) -- its cap and where a card's class holds its value."""

    opening: int
    hand: int
    leaves: list[_Leaf]
    trees: list[Any]
    primary: str | None
    q_keys: list[tuple[str, str]]
    q_values: dict[str, list[str]]
    q_fields: list[str]
    w_keys: list[tuple[str, str]]
    w_exprs: list[str]
    s_keys: list[tuple[str, str]]
    s_fields: list[str]
    q_cap: list[int]
    w_cap: list[int]
    s_cap: list[Fraction | None]
    p_leaves: list[int]
    p_caps: dict[int, int]

    @cached_property
    def q_index(self) -> dict[str, dict[str, int]]:
        """Per secondary field, each value's index in `q_values`."""
        return {f: {v: i for i, v in enumerate(vs)} for f, vs in self.q_values.items()}

    def empty(self) -> tuple[Any, ...]:
        """The q, w and s parts of a state before any card is taken."""
        return (
            tuple((0,) * len(self.q_values[f]) for _, f in self.q_keys),
            (0,) * len(self.w_keys),
            (Fraction(0),) * len(self.s_keys),
        )

    def card_class(
        self, card: dict[str, Any], where: Callable[[str, dict[str, Any]], bool]
    ) -> tuple[Any, ...]:
        """A card's class: (primary value, secondary value indices, where truths, summed values)."""
        return (
            value_text(card.get(self.primary)) if self.primary else "",
            tuple(self.q_index[f][value_text(card.get(f))] for f in self.q_fields),
            tuple(where(w, card) for w in self.w_exprs),
            tuple(number_of(card.get(f)) for f in self.s_fields),
        )


def _plan(
    cards: Sequence[dict[str, Any]], conds: list[tuple[HandCondition, str]], opening: int, hand: int
) -> _Plan:
    """The leaves of `conds` and what the count must track of them (NotExact for runs that disagree)."""
    leaves: list[_Leaf] = []
    trees = [_leaves(c, opening if scope == "open" else hand, leaves, scope) for c, scope in conds]
    runs = [lf for lf in leaves if lf.kind == "run"]
    if len({(lf.field, lf.order) for lf in runs}) > 1:
        raise NotExact("runs over different fields or orders")
    grouped = [lf.field for lf in leaves if lf.kind in ("same", "distinct", "run")]
    primary: str | None = None
    if runs:
        primary = runs[0].field
    elif grouped:
        primary = max(sorted(set(grouped)), key=lambda f: len({value_text(c.get(f)) for c in cards}))
    size_of = {"open": opening, "all": hand}
    q_keys = sorted(
        {(lf.scope, lf.field) for lf in leaves if lf.kind in ("same", "distinct") and lf.field != primary}
    )
    w_keys = sorted({(lf.scope, lf.field) for lf in leaves if lf.kind == "where"})
    s_keys = sorted({(lf.scope, lf.field) for lf in leaves if lf.kind == "sum"})
    q_fields = sorted({f for _, f in q_keys})

    def cap(key: tuple[str, str], kinds: tuple[str, ...]) -> int:
        return min(
            size_of[key[0]],
            max(lf.count_cap() for lf in leaves if (lf.scope, lf.field) == key and lf.kind in kinds),
        )

    p_leaves = [
        i for i, lf in enumerate(leaves) if lf.field == primary and lf.kind in ("same", "distinct", "run")
    ]
    return _Plan(
        opening,
        hand,
        leaves,
        trees,
        primary,
        q_keys,
        {f: sorted({value_text(c.get(f)) for c in cards}) for f in q_fields},
        q_fields,
        w_keys,
        sorted({f for _, f in w_keys}),
        s_keys,
        sorted({f for _, f in s_keys}),
        [cap(k, ("same", "distinct")) for k in q_keys],
        [cap(k, ("where",)) for k in w_keys],
        [_sum_cap(cards, leaves, k) for k in s_keys],
        p_leaves,
        {
            i: (int(leaves[i].values or 0) + 1 if leaves[i].values is not None else 1)
            if leaves[i].kind == "same"
            else leaves[i].count_cap()
            for i in p_leaves
            if leaves[i].kind != "run"
        },
    )


def _sum_cap(cards: Sequence[dict[str, Any]], leaves: list[_Leaf], key: tuple[str, str]) -> Fraction | None:
    """The sum past which nothing a sum leaf of `key` asks changes (None: a negative value can bring it
    back)."""
    if min((number_of(c.get(key[1])) for c in cards), default=Fraction(0)) < 0:
        return None
    ends = [lf for lf in leaves if lf.kind == "sum" and (lf.scope, lf.field) == key]
    return max((lf.hi + 1 if lf.hi is not None else (lf.lo or Fraction(0))) for lf in ends)


def _group_moves(plan: _Plan, members: list[tuple[tuple[Any, ...], int]]) -> dict[tuple[Any, ...], int]:
    """(opening cards, all cards, q counts added, where counts added, sums added) -> ways, for one group."""
    q_of = [plan.q_fields.index(f) for _, f in plan.q_keys]
    w_of = [plan.w_exprs.index(f) for _, f in plan.w_keys]
    s_of = [plan.s_fields.index(f) for _, f in plan.s_keys]
    q_open = [scope == "open" for scope, _ in plan.q_keys]
    w_open = [scope == "open" for scope, _ in plan.w_keys]
    s_open = [scope == "open" for scope, _ in plan.s_keys]
    opening, hand = plan.opening, plan.hand
    moves: dict[tuple[Any, ...], int] = {(0, 0, *plan.empty()): 1}
    for (_, qs, ws, ss), size in members:
        nxt: dict[tuple[Any, ...], int] = {}
        for (xo, xa, qd, wd, sd), ways in moves.items():
            for ko in range(0, min(size, opening - xo) + 1):
                for kl in range(0, min(size - ko, hand - opening - (xa - xo)) + 1):
                    ka = ko + kl
                    q2 = tuple(
                        tuple(
                            min(plan.q_cap[i], n + ((ko if q_open[i] else ka) if j == qs[q_of[i]] else 0))
                            for j, n in enumerate(qd[i])
                        )
                        for i in range(len(plan.q_keys))
                    )
                    w2 = tuple(
                        min(plan.w_cap[i], wd[i] + ((ko if w_open[i] else ka) if ws[w_of[i]] else 0))
                        for i in range(len(plan.w_keys))
                    )
                    s2 = tuple(
                        sd[i] + (ko if s_open[i] else ka) * ss[s_of[i]] for i in range(len(plan.s_keys))
                    )
                    key = (xo + ko, xa + ka, q2, w2, s2)
                    nxt[key] = nxt.get(key, 0) + ways * math.comb(size, ko) * math.comb(size - ko, kl)
        moves = nxt
    return moves


@dataclass
class _Walk:
    """The run the primary field is walked along and the memos of one count's steps."""

    recurring: list[str]
    walks: dict[str, list[str | int]]
    symmetric: bool
    q_memo: dict[tuple[Any, Any], Any]
    p_memo: dict[tuple[Any, int, int, str], Any]


def _advance(
    plan: _Plan,
    walk: _Walk,
    states: dict[tuple[Any, ...], int],
    value: str,
    moves: dict[tuple[Any, ...], int],
    rest: int,
) -> dict[tuple[Any, ...], int]:
    """The states after one group (the cards of one primary value) is taken, `rest` cards left after it."""
    nxt: dict[tuple[Any, ...], int] = {}
    for (do, da, qv, wv, sv, pv), ways in states.items():
        for (xo, xa, qd, wd, sd), mw in moves.items():
            o2, a2 = do + xo, da + xa
            if o2 > plan.opening or a2 > plan.hand or a2 + rest < plan.hand:
                continue
            q2 = walk.q_memo.get((qv, qd))
            if q2 is None:
                q2 = tuple(
                    tuple(min(plan.q_cap[i], a + b) for a, b in zip(qv[i], qd[i], strict=True))
                    for i in range(len(plan.q_keys))
                )
                if walk.symmetric:  # the values are interchangeable: sort them (jointly over the scopes)
                    q2 = tuple(zip(*sorted(zip(*q2, strict=True)), strict=True)) if q2 and q2[0] else q2
                walk.q_memo[(qv, qd)] = q2
            w2 = (
                tuple(min(plan.w_cap[i], a + b) for i, (a, b) in enumerate(zip(wv, wd, strict=True)))
                if plan.w_keys
                else wv
            )
            s2 = (
                tuple(_cap_sum(a + b, plan.s_cap[i]) for i, (a, b) in enumerate(zip(sv, sd, strict=True)))
                if plan.s_keys
                else sv
            )
            p2 = walk.p_memo.get((pv, xo, xa, value))
            if p2 is None:
                p2 = tuple(
                    _step(
                        plan.leaves[i],
                        plan.p_caps.get(i, 0),
                        st,
                        xo if plan.leaves[i].scope == "open" else xa,
                        walk.walks.get(value, []),
                        walk.recurring,
                        value,
                    )
                    for i, st in zip(plan.p_leaves, pv, strict=True)
                )
                walk.p_memo[(pv, xo, xa, value)] = p2
            nxt[(o2, a2, q2, w2, s2, p2)] = nxt.get((o2, a2, q2, w2, s2, p2), 0) + ways * mw
    return nxt


def _good(plan: _Plan, states: dict[tuple[Any, ...], int]) -> int:
    """The ways of the final states (every card drawn) whose facts meet every condition."""
    good = 0
    for (do, da, qv, wv, sv, pv), ways in states.items():
        if do != plan.opening or da != plan.hand:
            continue
        facts = [
            _fact(
                lf,
                i,
                plan.primary,
                plan.p_leaves,
                pv,
                dict(zip(plan.q_keys, qv, strict=True)),
                dict(zip(plan.w_keys, wv, strict=True)),
                dict(zip(plan.s_keys, sv, strict=True)),
            )
            for i, lf in enumerate(plan.leaves)
        ]
        if all(_truth(tree, facts) for tree in plan.trees):
            good += ways
    return good


def _count(
    cards: Sequence[dict[str, Any]],
    conds: list[tuple[HandCondition, str]],
    opening: int,
    hand: int,
    where: Callable[[str, dict[str, Any]], bool],
) -> Count:
    """Draws of `hand` cards whose first `opening` form the opening hand (0: one draw), meeting every
    condition in its scope: "open" reads the opening hand, "all" every card drawn. The cards are taken group
    by group (one value of the primary field each); a state counts what the conditions need of the cards taken
    so far."""
    total = math.comb(len(cards), opening) * math.comb(len(cards) - opening, hand - opening)
    plan = _plan(cards, conds, opening, hand)
    classes: dict[tuple[Any, ...], int] = {}
    for c in cards:
        key = plan.card_class(c, where)
        classes[key] = classes.get(key, 0) + 1
    runs = [lf for lf in plan.leaves if lf.kind == "run"]
    run = runs[0] if runs else None
    groups, seq = _groups(classes, plan.primary, run, cards)
    recurring, walks = _run_walks((run.order or tuple(seq)) if run is not None else ())
    symmetric = len(plan.q_fields) == 1 and _symmetric(groups, len(plan.q_values[plan.q_fields[0]]))
    walk = _Walk(recurring, walks, symmetric, {}, {})
    remaining = [0] * (len(groups) + 1)
    for gi in range(len(groups) - 1, -1, -1):
        remaining[gi] = remaining[gi + 1] + sum(n for _, n in groups[gi][1])
    start_p = tuple(
        ((False, 0, (False,) * len(recurring)) if plan.leaves[i].kind == "run" else 0) for i in plan.p_leaves
    )
    states: dict[tuple[Any, ...], int] = {(0, 0, *plan.empty(), start_p): 1}
    for gi, (value, members) in enumerate(groups):
        states = _advance(plan, walk, states, value, _group_moves(plan, members), remaining[gi + 1])
        if len(states) > MAX_STATES:
            raise NotExact(f"more than {MAX_STATES:,} states")
    return Count(_good(plan, states), total)


def _groups(
    classes: dict[tuple[Any, ...], int],
    primary: str | None,
    run: _Leaf | None,
    cards: Sequence[dict[str, Any]],
) -> tuple[list[tuple[str, list[tuple[tuple[Any, ...], int]]]], list[str]]:
    """The classes grouped by the primary field's value, in processing order: a run's order first (a value no
    card has is an empty group), then the rest; without a primary field every class is its own group."""
    by_value: dict[str, list[tuple[tuple[Any, ...], int]]] = {}
    for key, n in sorted(classes.items(), key=lambda kv: repr(kv[0])):
        by_value.setdefault(key[0], []).append((key, n))
    if primary is None:
        return [("", [kv]) for kv in sorted(classes.items(), key=lambda kv: repr(kv[0]))], []
    seq: list[str] = []
    for v in run.order if run and run.order else ():
        if v not in seq:
            seq.append(v)
    if run is not None and not run.order:
        seq = default_order([c.get(primary) for c in cards]) or []
        if not seq:
            raise NotExact(f"run over {primary}: its values are not numbers; give order")
    seq += [v for v in sorted(by_value) if v not in seq]
    return [(v, by_value.get(v, [])) for v in seq], seq


def _run_walks(run_order: tuple[str, ...]) -> tuple[list[str], dict[str, list[str | int]]]:
    """The values a run's order lists more than once (their presence is remembered), and per value the order
    positions walked after its group: the value itself, then the repeats that follow it."""
    recurring = sorted({v for v in run_order if run_order.count(v) > 1})
    walks: dict[str, list[str | int]] = {}
    seen: set[str] = set()
    pos = 0
    while pos < len(run_order):
        v = run_order[pos]
        steps: list[str | int] = [v]
        seen.add(v)
        pos += 1
        while pos < len(run_order) and run_order[pos] in seen:
            steps.append(recurring.index(run_order[pos]))
            pos += 1
        walks.setdefault(v, steps)
    return recurring, walks


def _fact(
    lf: _Leaf,
    i: int,
    primary: str | None,
    p_leaves: list[int],
    pv: tuple[Any, ...],
    qv: dict[tuple[str, str], tuple[int, ...]],
    wv: dict[tuple[str, str], int],
    sv: dict[tuple[str, str], Fraction],
) -> bool:
    """Whether leaf i holds in a final state."""
    at = (lf.scope, lf.field)
    if lf.kind == "where":
        return lf.inside(wv[at])
    if lf.kind == "sum":
        return lf.inside(sv[at])
    if lf.field == primary:
        st = pv[p_leaves.index(i)]
        if lf.kind == "run":
            return bool(st[0])
        if lf.kind == "same":
            return bool(st >= 1 if lf.values is None else st == lf.values)
        return lf.inside(st)
    vec = qv[at]
    if lf.kind == "same":
        n = sum(1 for c in vec if lf.inside(c))
        return n >= 1 if lf.values is None else n == lf.values
    return lf.inside(sum(1 for c in vec if c > 0))


def _cap_sum(s: Fraction, cap: Fraction | None) -> Fraction:
    return s if cap is None else min(s, cap)


def _step(
    leaf: _Leaf, cap: int, st: Any, x: int, walk_: list[str | int], recurring: list[str], value: str
) -> Any:
    """A primary-field leaf's state after its group for `value` put x cards in the hand."""
    if leaf.kind == "same":
        return min(cap, st + (1 if leaf.inside(x) else 0))
    if leaf.kind == "distinct":
        return min(cap, st + (1 if x > 0 else 0))
    found, streak, mem = st
    if found:
        return st
    mem = tuple((x > 0) if v == value else m for v, m in zip(recurring, mem, strict=True))
    for step in walk_:
        present = x > 0 if isinstance(step, str) else mem[step]
        streak = streak + 1 if present else 0
        if streak >= leaf.length:
            return (True, 0, (False,) * len(recurring))
    return (False, streak, mem)


def _symmetric(groups: list[tuple[str, list[tuple[tuple[Any, ...], int]]]], n_values: int) -> bool:
    """Every group holds, for everything else a class records, the same number of cards of each value of the
    one secondary field: its values are interchangeable and its counts may be kept sorted."""
    for _, members in groups:
        rest: dict[tuple[Any, ...], dict[int, int]] = {}
        for (_, qs, ws, ss), n in members:
            rest.setdefault((ws, ss), {})[qs[0]] = n
        for per in rest.values():
            if len(per) != n_values or len(set(per.values())) != 1:
                return False
    return True


def fraction_shown(good: int, total: int) -> str:
    """ "624 / 2,598,960 (0.0240 %)": the count, the total and the percentage to three significant figures."""
    pct = Fraction(good * 100, total) if total else Fraction(0)
    return f"{good:,} / {total:,} ({_pct(pct)} %)"


def _pct(p: Fraction) -> str:
    if p == 0:
        return "0"
    digits = max(1, 3 - math.floor(math.log10(float(p))) - 1)
    return f"{float(p):.{min(digits, 12)}f}"
