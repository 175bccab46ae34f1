"""The shipped `game:` section as the spec fixture (tests/games/shipped.py: kit.yaml plus explicit overrides)
and spec tests."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pydantic import ValidationError

from generator.games.raindrops.spec import RaindropsGame
from tests.games.shipped import game_section, game_spec

SPEC: dict[str, Any] = game_section("raindrops")
"""The shipped kit's `game:` section (layouts/raindrops/kit.yaml, read by tests/games/shipped.py): no hand
copy."""


def make_spec(**changes: Any) -> RaindropsGame:
    """The shipped spec with top-level keys replaced (deep-copied, so SPEC stays untouched)."""
    spec: RaindropsGame = game_spec("raindrops", changes)
    return spec


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
