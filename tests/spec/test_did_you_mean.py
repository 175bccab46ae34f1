"""An unknown spec key suggests the nearest known key at its place (issue 26 item 7): difflib over the model's
field names, through nested models, list items and the game's own model."""

import shutil
from pathlib import Path

import pytest

from generator.contract.load import load_kit
from generator.errors import SpecError
from generator.spec.kit import KitFile, _keys_at
from tests.spec.kitedit import edit, line_of

ROOT = Path(__file__).resolve().parents[2]


def test_known_keys_follow_fields_and_lists():
    assert "crop_marks" in _keys_at(KitFile, ("print",))
    assert "title" in _keys_at(KitFile, ("components", "rules"))
    assert _keys_at(KitFile, ()) == ["kit", "print", "style", "game", "components", "tune"]


def test_misspelt_keys_suggest_the_nearest(tmp_path):
    kit = tmp_path / "rr"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    edit(kit, "  goals: {points", "  gaols: {points")
    edit(kit, "  crop_marks: true", "  crop_mark: true")
    edit(kit, '{id: blue,   colour: "#1f6fd1"', '{id: blue,   color: "#1f6fd1"')
    edit(kit, "  seed: 20200601", "  sede: 20200601\n  seed: 20200601")
    with pytest.raises(SpecError) as e:
        load_kit(kit)
    by_key = {p.key: p for p in e.value.problems}
    assert by_key["game.gaols"].message.endswith("; did you mean goals?")
    assert by_key["game.gaols"].line == line_of(kit, "gaols:")
    assert by_key["print.crop_mark"].message.endswith("; did you mean crop_marks?")
    assert by_key["game.suits[0].color"].message.endswith("; did you mean colour?")
    assert by_key["kit.sede"].message.endswith("; did you mean seed?")


def test_nothing_is_suggested_for_a_key_unlike_any(tmp_path):
    kit = tmp_path / "rr"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    edit(kit, "  crop_marks: true", "  crop_marks: true\n  zzqx: 1")
    with pytest.raises(SpecError) as e:
        load_kit(kit)
    [p] = e.value.problems
    assert p.key == "print.zzqx" and "did you mean" not in p.message


@pytest.mark.parametrize(
    ("typed", "known", "expected"),
    [
        ("Ripple_Rush", ["peak_dice", "ripple_rush"], "ripple_rush"),  # the same letters in another case
        ("rummy", ["rummy_cards", "raindrops"], "rummy_cards"),  # the one name it begins
        ("ripple_rsh", ["peak_dice", "ripple_rush"], "ripple_rush"),  # a letter dropped
        ("r", ["rummy_cards", "raindrops", "ripple_rush"], None),  # begins three: no guess
        ("chess", ["peak_dice", "ripple_rush"], None),
        ("", ["peak_dice"], None),
    ],
)
def test_a_refused_name_suggests_the_one_meant(typed, known, expected):
    from generator.errors import did_you_mean, meant

    assert meant(typed, known) == expected
    assert did_you_mean(typed, known) == ("" if expected is None else f"; did you mean {expected}?")
