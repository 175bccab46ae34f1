"""Ripple Rush spec fixtures: the shipped kit.yaml's game section plus explicit overrides
(tests/games/shipped.py), so a test plays the kit users get and no hand copy of its defaults can drift."""

from __future__ import annotations

from typing import Any

import pytest

from generator.games.ripple_rush.spec import RippleRushGame
from tests.games.shipped import game_spec


def make_spec(**changes: Any) -> RippleRushGame:
    """The shipped spec with top-level keys of the game section replaced (a key the kit lacks is refused)."""
    spec: RippleRushGame = game_spec("ripple_rush", changes)
    return spec


@pytest.fixture
def spec() -> RippleRushGame:
    """The shipped kit's spec."""
    return make_spec()
