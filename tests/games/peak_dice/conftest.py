"""Fixtures: the shipped Peak Dice kit's game section (tests/games/shipped.py) plus explicit overrides."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from generator.games.peak_dice.spec import PeakDiceGame
from tests.games.shipped import game_section, game_spec

D6 = [1, 2, 3, 4, 5, 6]
"""The faces of a standard die, for tests that build their own dice."""


def default_section() -> dict[str, Any]:
    """The shipped kit's game section as plain data (a fresh copy)."""
    return game_section("peak_dice")


def make_spec(
    overrides: Mapping[str, Any] | None = None, *, rules: Mapping[str, str] | None = None, **changes: Any
) -> PeakDiceGame:
    """The shipped spec with dotted keys replaced (`{"variants.count": 2}`), whole top-level keys replaced
    (`dice=[...]`) and, with `rules`, those house-rule switches set (the others stay as shipped)."""
    dotted = {**changes, **{f"rules.{k}": v for k, v in (rules or {}).items()}, **(overrides or {})}
    spec: PeakDiceGame = game_spec("peak_dice", dotted)
    return spec


@pytest.fixture
def spec() -> PeakDiceGame:
    """The shipped Peak Dice spec."""
    return make_spec()
