"""The digest's default values as a spec fixture (the shipped kit.yaml holds the same)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from generator.games.ripple_rush.spec import RippleRushGame

DEFAULT: dict[str, Any] = {
    "kind": "ripple_rush",
    "suits": [
        {"id": "blue", "colour": "#1f6fd1", "symbol": "circle"},
        {"id": "red", "colour": "#d62d3a", "symbol": "square"},
        {"id": "green", "colour": "#2e9e44", "symbol": "hexagon"},
        {"id": "orange", "colour": "#f08a00", "symbol": "triangle"},
    ],
    "numbers": {"min": 1, "max": 25},
    "rows": 8,
    "bonuses": [5, 10, "blue", "red", "green", "orange", 15, 20],
    "cards_per_player": 20,
    "players": {"min": 1, "max": 5},
    "goals": {"points": 3, "revealed": 2},
    "balance": {
        "games": 10000,
        "policies": ["random", "greedy", "strong"],
        "reference_policy": "greedy",
        "goal_completion": {"min": 0.10, "max": 0.80},
        "goal_spread": {"max": 3.0},
        "unplaceable_share": {"max": 0.30},
        "tie_rate": {"max": 0.10},
        "seat_win_share": {"min": 0.85, "max": 1.15},
        "skill_gap": {"min": 3.0},
    },
    "variants": {"count": 0, "tolerance": 0.05, "shuffle": "bonuses", "seed_offset": 1000, "games": 4000,
                 "players": 4, "max_attempts": 30},
}


def make_spec(**changes: Any) -> RippleRushGame:
    """The default spec with top-level keys replaced."""
    d = copy.deepcopy(DEFAULT)
    d.update(changes)
    return RippleRushGame.model_validate(d)


@pytest.fixture
def spec() -> RippleRushGame:
    """The digest's default spec."""
    return make_spec()
