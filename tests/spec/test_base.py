"""Shared pieces of generator/spec/base.py that several games' checks use."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from generator.spec.base import HexColour, SpecId, SpecModel, repeats


def test_repeats_names_each_later_copy_and_its_first_occurrence() -> None:
    assert list(repeats(["a", "b", "a", "c", "b", "a"])) == [(2, 0), (4, 1), (5, 0)]
    assert list(repeats([])) == [] and list(repeats(["x", "y"])) == []


class _Entry(SpecModel):
    id: SpecId
    colour: HexColour


@pytest.mark.parametrize(
    ("id_", "colour"), [("Blue", "#1f6fd1"), ("1st", "#1f6fd1"), ("blue", "blue"), ("blue", "#1f6fd")]
)
def test_spec_id_and_hex_colour_refuse_bad_values(id_: str, colour: str) -> None:
    with pytest.raises(ValidationError):
        _Entry(id=id_, colour=colour)


def test_spec_id_and_hex_colour_keep_good_values() -> None:
    e = _Entry(id="deep_blue2", colour="#1F6fd1")
    assert (e.id, e.colour) == ("deep_blue2", "#1F6fd1")
