"""Base pieces for spec models: frozen models that forbid unknown keys, and lengths parsed to points."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt, WithJsonSchema, model_validator

from generator.spec.choices import MAX_GAMES as MAX_GAMES
from generator.spec.choices import MAX_SEED as MAX_SEED
from generator.units import MM, parse_length


class SpecModel(BaseModel):
    """Every spec model: frozen, unknown keys are errors, no coercion of strings into numbers."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, populate_by_name=True, allow_inf_nan=False
    )


def _length(v: Any) -> float:
    if isinstance(v, (int, float)) and not isinstance(v, bool) and v == 0:
        return 0.0
    return parse_length(v)


_DIGITS = (
    r"[\d\uff10-\uff19]"  # \d is ASCII in an editor's (ECMA) regex; validate also takes full-width digits
)
LENGTH_PATTERN = rf"^\s*-?{_DIGITS}+(\.{_DIGITS}+)?\s*(mm|cm|in|pt)\s*$"
"""What `parse_length` accepts, as a JSON Schema pattern (its range is checked by validate, not the
schema)."""
LENGTH_JSON: dict[str, Any] = {
    "anyOf": [
        {"type": "string", "pattern": LENGTH_PATTERN, "maxLength": 40},
        {"const": 0, "description": "0 needs no unit"},
    ]
}
"""The JSON Schema of a Length as written in kit.yaml (the models hold points, a number: `pnpkit schema`
describes the YAML an editor checks, so every length type carries this)."""


Length = Annotated[float, BeforeValidator(_length), WithJsonSchema(LENGTH_JSON)]
"""A length written with a unit ("63.5mm", "2.5in", "12pt") and held in points."""


def bounded_length(low_mm: float, high_mm: float) -> Callable[[Any], float]:
    """The validator of a Length that must lie in low_mm..high_mm (physical bounds: a negative margin or a 900
    mm offset is a typo, not a printer). The message speaks millimetres whatever unit was written."""

    def check(v: Any) -> float:
        points = _length(v)
        if not low_mm * MM - 1e-9 <= points <= high_mm * MM + 1e-9:
            shown = v if isinstance(v, str) and len(v) <= 40 else f"{points / MM:.6g}mm"
            raise ValueError(f"expected a length in {low_mm:g}..{high_mm:g}mm; got {shown!r}")
        return points

    return check


SpecId = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
"""An id other parts of the spec name (a colour, a suit): lower-case letters, digits and _, a letter first."""
HexColour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]
"""A print colour written "#rrggbb"."""


class Bound(SpecModel):
    """A tolerance range for a measured figure; either end may be omitted."""

    min: float | None = None
    max: float | None = None

    @model_validator(mode="after")
    def _ordered(self) -> Bound:
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min:g} is above max {self.max:g}: no value can lie in the range")
        return self


# Caps on the integers of a spec (issue 12): MAX_SEED and MAX_GAMES live in generator/spec/choices.py, which
# the CLI shares; the others are the spec's own.
MAX_BUILD_GAMES = 20_000
"""Self-play games run during `build` (variant scoring, difficulty samples): the build stays interactive."""
MAX_TURNS = 100_000
"""Self-play safety stops (turn limits): far above any real game, still a bounded loop."""
MAX_PIECES = 1_000
"""Printed pieces of one kind (tiles, tokens, cards, markers): 1,000 is dozens of pages already."""
MAX_POINTS = 10_000
"""A point value printed on a piece or used in scoring (fits every int32 sum of a game)."""
MAX_SMALL = 100
"""Small rule figures (slots, hand sizes, offers, attempts per variant): a player cannot handle more."""
MAX_ANY_INT = 10**9
"""Any other whole number in a spec (a safety net for fields without their own cap; seeds excepted)."""


def _int_key(v: Any) -> Any:
    if isinstance(v, str) and v.lstrip("-").isdigit() and v.isascii():
        return int(v)
    return v


IntKey = Annotated[int, BeforeValidator(_int_key)]
"""A mapping key that is a whole number (YAML keys reach the models as text; strict mode would refuse
them)."""


class SequentialCheck(SpecModel):
    """The settings every game's `balance:` section shares: how sure the verdicts must be and how far the
    check may extend play while a tolerance is UNDECIDED (a game's balance model inherits them)."""

    confidence: float = Field(
        0.99,
        gt=0.5,
        lt=1,
        description="Family-wise confidence of the verdicts: the chance that every HOLDS / FAILS verdict of "
        "the kit is right together (all tolerances, all looks); 0.99 = at most 1 false alarm in "
        "100 checks.",
    )
    max_games: StrictInt | None = Field(
        None,
        ge=1,
        le=MAX_GAMES,
        description="Most games per setting the check plays while a tolerance is UNDECIDED (batches double "
        "from `games`; default 8 x games).",
    )


def repeats(values: Iterable[Hashable]) -> Iterator[tuple[int, int]]:
    """For each value that already came earlier in `values`: (its index, the index of its first occurrence),
    in order. The cross-field checks use it for ids, colours and symbols that must be distinct."""
    first: dict[Hashable, int] = {}
    for i, v in enumerate(values):
        if v in first:
            yield i, first[v]
        else:
            first[v] = i
