"""Fixtures: the digest's default Peak Dice spec as a dict (the same values as the shipped kit.yaml)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from generator.games.peak_dice.spec import PeakDiceGame

D6 = [1, 2, 3, 4, 5, 6]

DEFAULT_GAME: dict[str, Any] = {
    "kind": "peak_dice",
    "colours": [
        {"id": "purple", "colour": "#7b3fa0", "pattern": "stripes", "symbol": "▲"},
        {"id": "blue", "colour": "#2f6fd0", "pattern": "dots", "symbol": "●"},
        {"id": "red", "colour": "#d03a2f", "pattern": "cross", "symbol": "✚"},
        {"id": "yellow", "colour": "#e8b81f", "pattern": "waves", "symbol": "◆"},
    ],
    "row_length": 9,
    "peak_after": 5,
    "miss_boxes": 11,
    "dice": [
        {"colour": "purple", "values": D6},
        {"colour": "blue", "values": D6},
        {"colour": "red", "values": D6},
        {"colour": "yellow", "values": D6},
        {"colour": "white", "values": D6},
        {"colour": "white", "values": D6},
    ],
    "players": {"min": 2, "max": 4},
    "rerolls": 1,
    "rules": {"step_b": "compulsory", "miss_track_full": "keep_counting", "final_turn_miss": "skipped",
              "column_score": "second_lowest_distinct"},
    "balance": {
        "games": 2000,
        "policy": "planner",
        "turn_limit": 300,
        "seat_win_share_gap": {"min": -0.05, "max": 0.05},
        "miss_box_overflow": {"max": 0.001},
        "game_turns": {"min": 30, "max": 50},
        "miss_turn_share": {"max": 0.2},
        "score_mean": {"min": 60},
        "stalled_share": {"max": 0.01},
        "reroll_gain": {"min": 20},
    },
    "variants": {"count": 6, "peak_positions": [3, 4, 5, 6, 7], "players": 3, "games": 2000,
                 "score_tolerance": 3},
}


def make_spec(**changes: Any) -> PeakDiceGame:
    """The default spec with top-level keys replaced."""
    d = copy.deepcopy(DEFAULT_GAME)
    d.update(changes)
    return PeakDiceGame.model_validate(d)


@pytest.fixture
def spec() -> PeakDiceGame:
    """The default Peak Dice spec."""
    return make_spec()
