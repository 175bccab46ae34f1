"""Base pieces for spec models: frozen models that forbid unknown keys, and lengths parsed to points."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict

from generator.units import parse_length


class SpecModel(BaseModel):
    """Every spec model: frozen, unknown keys are errors, no coercion of strings into numbers."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=False, populate_by_name=True)


def _length(v: Any) -> float:
    if isinstance(v, (int, float)) and not isinstance(v, bool) and v == 0:
        return 0.0
    return parse_length(v)


Length = Annotated[float, BeforeValidator(_length)]
"""A length written with a unit ("63.5mm", "2.5in", "12pt") and held in points."""


class Bound(SpecModel):
    """A tolerance range for a measured figure; either end may be omitted."""

    min: float | None = None
    max: float | None = None

    def contains(self, value: float) -> bool:
        """True when value lies within the bound."""
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)
