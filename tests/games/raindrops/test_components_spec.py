"""The digest's default `game:` section as a dict fixture (mirrors layouts/raindrops/kit.yaml) and spec tests."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pydantic import ValidationError

from generator.games.raindrops.spec import RaindropsGame

_PLAIN = [("orange", "purple"), ("orange", "green"), ("orange", "blue"),
          ("purple", "green"), ("purple", "blue"), ("green", "blue")]
_COLOURS = ["orange", "purple", "green", "blue"]

SPEC: dict[str, Any] = {
    "kind": "raindrops",
    "seed": 1,
    "colours": [
        {"id": "orange", "colour": "#f08c00", "shape": "drop"},
        {"id": "purple", "colour": "#7b3fa0", "shape": "round"},
        {"id": "green", "colour": "#2f9e44", "shape": "diamond"},
        {"id": "blue", "colour": "#1c7ed6", "shape": "star"},
    ],
    "window": {"columns": 6, "tiles_per_column": 4},
    "bag": {"tiles": [{"a": a, "b": b, "count": 12} for a, b in _PLAIN]
            + [{"a": c, "b": [d, e], "count": 1}
               for c in _COLOURS for d in _COLOURS for e in _COLOURS if c not in (d, e) and d < e]},
    "bonus_tiles": {"offer": 4, "kinds": [{"colour": c, "points": [1, 1, 2, 2, 3, 3]} for c in _COLOURS]
                    + [{"colour": "wild", "points": [1, 1, 1, 1],
                       "pairs": [["orange", "purple"], ["green", "blue"], ["orange", "green"], ["purple", "blue"]]}]},
    "cloud_tokens": {"types": [
        {"id": "umbrella", "condition": {"umbrella": 2, "boots": 1}, "points": [6, 4, 3]},
        {"id": "boots", "condition": {"boots": 2, "frog": 1}, "points": [6, 4, 3]},
        {"id": "frog", "condition": {"frog": 2, "snail": 1}, "points": [6, 4, 3]},
        {"id": "snail", "condition": {"snail": 2, "umbrella": 1}, "points": [6, 4, 3]},
    ]},
    "thunder_tokens": {"values": [{"value": 3, "count": 4}, {"value": 4, "count": 3}, {"value": 5, "count": 3}]},
    "player_boards": 4,
    "action_markers": 4,
    "path_markers": 8,
    "memory_cards": {
        "count": 54,
        "grid": {"rows": 3, "columns": 3},
        "cells": {"min": 4, "max": 8},
        "cats": 6,
        "connected": True,
        "points": {"min": 2, "max": 7, "cat_bonus": 2},
        "difficulty": {"policy": "greedy_cover", "samples": 200, "max_drops": 40},
    },
    "rules": {"players": [2, 3, 4], "cards_dealt": 3, "cards_kept": 2, "display": 4, "reserve_slots": 2,
              "bonus_max_tiles": 3, "end_cards": 10, "end_bag_empties": 2, "thunder_draw": [1, 2]},
    "balance": {
        "points_difficulty_spearman": {"min": 0.85},
        "cloud_reach_spread": {"max": 0.1},
        "cloud_reach_cards": 6,
        "unfinished_share": {"max": 0.02},
        "games": 200,
    },
}


def make_spec(**changes: Any) -> RaindropsGame:
    """The default spec with top-level keys replaced (deep-copied, so SPEC stays untouched)."""
    d = copy.deepcopy(SPEC)
    d.update(copy.deepcopy(changes))
    return RaindropsGame.model_validate(d)


def test_default_spec_validates() -> None:
    spec = make_spec()
    assert spec.kind == "raindrops"
    assert spec.colours[0].colour == "#f08c00"


def test_unknown_key_rejected() -> None:
    with pytest.raises(ValidationError):
        make_spec(window={"columns": 6, "tiles_per_column": 4, "tilt": 3})


def test_bad_colour_and_shape_rejected() -> None:
    colours = copy.deepcopy(SPEC["colours"])
    colours[0]["colour"] = "orange"
    with pytest.raises(ValidationError, match="#rrggbb"):
        make_spec(colours=colours)
    colours = copy.deepcopy(SPEC["colours"])
    colours[0]["shape"] = "heart"
    with pytest.raises(ValidationError):
        make_spec(colours=colours)


def test_no_defaults_in_code() -> None:
    d = copy.deepcopy(SPEC)
    del d["memory_cards"]["cats"]
    with pytest.raises(ValidationError):
        RaindropsGame.model_validate(d)
