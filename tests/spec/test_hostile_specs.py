"""Every spec case of issue 12 (hostile and broken input) as a regression test: a located message, no crash,
and the decisions on full-width digits and CR line endings."""

import shutil
from pathlib import Path

import pytest

from generator.contract.load import load_kit
from generator.errors import SpecError
from tests.spec.kitedit import edit, line_of

ROOT = Path(__file__).resolve().parents[2]


def copy(tmp_path: Path, kit: str) -> Path:
    dst = tmp_path / kit
    shutil.copytree(ROOT / "layouts" / kit, dst)
    return dst


def problems(kit: Path) -> list[str]:
    with pytest.raises(SpecError) as e:
        load_kit(kit)
    return [str(p).replace(str(kit / "kit.yaml"), "KIT") for p in e.value.problems]


@pytest.mark.parametrize(
    "value,expected",
    [
        ("-7", "expected greater than or equal to 0; got -7"),
        ("-1", "expected greater than or equal to 0; got -1"),
        ("1000000", "expected less than or equal to 99; got 1000000"),
        ("1000000000000", "expected a whole number of at most 1,000,000,000 in size; got 1000000000000"),
    ],
)
def test_peak_dice_die_face_values_are_capped_like_a_face(tmp_path, value, expected):
    kit = copy(tmp_path, "peak_dice")
    edit(
        kit,
        "- {colour: red,    values: [1, 2, 3, 4, 5, 6]}",
        f"- {{colour: red,    values: [1, 2, {value}, 4, 5, 6]}}",
    )
    assert problems(kit) == [f"KIT:{line_of(kit, 'colour: red,')}: game.dice[2].values[2]: {expected}"]


@pytest.mark.parametrize(
    "old,new,key,expected",
    [
        (
            "path_markers: 8",
            "path_markers: 1000000000000",
            "game.path_markers",
            "expected a whole number of at most 1,000,000,000 in size; got 1000000000000",
        ),
        (
            "path_markers: 8",
            "path_markers: 1000",
            "game.path_markers",
            "expected less than or equal to 100; got 1000",
        ),
        (
            "samples: 200",
            "samples: 1000000",
            "game.memory_cards.difficulty.samples",
            "expected less than or equal to 2000; got 1000000",
        ),
        (
            "reserve_slots: 2",
            "reserve_slots: 1000000",
            "game.rules.reserve_slots",
            "expected less than or equal to 100; got 1000000",
        ),
        (
            "points: {min: 2, max: 7,",
            "points: {min: 2, max: 100000000000000000000,",
            "game.memory_cards.points.max",
            "expected a whole number of at most 1,000,000,000 in size; got 100000000000000000000",
        ),
    ],
)
def test_raindrops_integers_have_caps(tmp_path, old, new, key, expected):
    kit = copy(tmp_path, "raindrops")
    edit(kit, old, new)
    assert problems(kit) == [f"KIT:{line_of(kit, new)}: {key}: {expected}"]


def test_nesting_400_deep_is_located(tmp_path):
    kit = copy(tmp_path, "ripple_rush")
    edit(kit, "  rows: 8", "  rows: 8\n  deep: " + "[" * 400 + "]" * 400)
    assert problems(kit) == [f"KIT:{line_of(kit, 'deep:')}: nested more than 40 levels deep; refusing"]


def test_margin_of_310_digits_is_located(tmp_path):
    kit = copy(tmp_path, "ripple_rush")
    edit(kit, "margin: 5mm", "margin: " + "9" * 310 + "mm")
    assert problems(kit) == [
        f"KIT:{line_of(kit, 'margin:')}: a number of 310 digits; numbers in a kit have at most 39"
    ]


def test_full_width_digits_in_a_length_mean_the_same(tmp_path):
    """Decision: a length typed with full-width digits (Japanese IME) is the same length."""
    kit = copy(tmp_path, "ripple_rush")
    edit(kit, "margin: 5mm", "margin: \uff15mm")
    assert load_kit(kit).print.margin == load_kit(ROOT / "layouts" / "ripple_rush").print.margin


def test_full_width_digits_as_a_bare_number_are_refused(tmp_path):
    """YAML reads a full-width number as text; strict models refuse text for a number, with a located
    message."""
    kit = copy(tmp_path, "ripple_rush")
    edit(kit, "  rows: 8", "  rows: \uff18")
    assert problems(kit) == [
        f"KIT:{line_of(kit, 'rows:')}: game.rows: expected a valid integer; got '\uff18'"
    ]


@pytest.mark.parametrize("ending", ["\r", "\r\n"])
def test_cr_line_endings_mean_the_same_and_keep_line_numbers(tmp_path, ending):
    """Decision: old-Mac CR and Windows CRLF endings are line breaks (YAML says so); errors keep their
    lines."""
    kit = copy(tmp_path, "ripple_rush")
    edit(kit, "  rows: 8", "  rows: eight")
    line = line_of(kit, "rows: eight")
    p = kit / "kit.yaml"
    p.write_bytes(p.read_bytes().replace(b"\n", ending.encode()))
    assert problems(kit) == [f"KIT:{line}: game.rows: expected a valid integer; got 'eight'"]


@pytest.mark.parametrize(
    "old,new,key,expected",
    [
        ("  rows: 8", '  rows: "8"', "game.rows", "expected a valid integer; got '8'"),
        ("  seed: 20200601", "  seed: true", "kit.seed", "expected a valid integer; got True"),
        ("  seed: 20200601", "  seed: '12'", "kit.seed", "expected a valid integer; got '12'"),
    ],
)
def test_strings_and_booleans_are_not_coerced_into_numbers(tmp_path, old, new, key, expected):
    kit = copy(tmp_path, "ripple_rush")
    edit(kit, old, new)
    assert problems(kit) == [f"KIT:{line_of(kit, new.strip())}: {key}: {expected}"]


def test_raindrops_window_columns_as_text_is_refused(tmp_path):
    kit = copy(tmp_path, "raindrops")
    edit(kit, "window: {columns: 6,", 'window: {columns: "3",')
    assert problems(kit) == [
        f"KIT:{line_of(kit, 'window:')}: game.window.columns: expected a valid integer; got '3'"
    ]


@pytest.mark.parametrize(
    "kit_name,old,new,key,expected",
    [
        (
            "raindrops",
            "size: {width: 66mm, height: 88mm}",
            "size: {width: 0mm, height: 0mm}",
            "components.memory_cards.size.width",
            "expected a length in 5..420mm; got '0mm'",
        ),
        (
            "raindrops",
            "size: {width: 25mm, height: 25mm}",
            "size: {width: 25mm, height: 0.0000001mm}",
            "components.thunder_tokens.size.height",
            "expected a length in 5..420mm; got '0.0000001mm'",
        ),
        (
            "ripple_rush",
            "margin: 5mm",
            "margin: -40mm",
            "print.margin",
            "expected a length in 0..40mm; got '-40mm'",
        ),
        (
            "ripple_rush",
            "gutter: 0mm",
            "gutter: -10mm",
            "print.gutter",
            "expected a length in 0..30mm; got '-10mm'",
        ),
        (
            "ripple_rush",
            "back_offset: {x: 0mm,",
            "back_offset: {x: 900mm,",
            "print.back_offset.x",
            "expected a length in -10..10mm; got '900mm'",
        ),
    ],
)
def test_lengths_have_physical_bounds(tmp_path, kit_name, old, new, key, expected):
    kit = copy(tmp_path, kit_name)
    edit(kit, old, new)
    found = problems(kit)
    assert f"KIT:{line_of(kit, new)}: {key}: {expected}" in found


def test_long_values_are_truncated_and_control_characters_escaped(tmp_path):
    kit = copy(tmp_path, "ripple_rush")
    edit(kit, "  rows: 8", '  rows: "\\e[31m' + "x" * 200_000 + '"')
    (message,) = problems(kit)
    assert len(message) < 200
    assert "\x1b" not in message and "\\x1b[31m" in message
    assert message.endswith("...")


def test_no_union_model_names_in_key_paths(tmp_path):
    kit = copy(tmp_path, "peak_dice")
    edit(kit, "- {colour: yellow, values: [1, 2, 3, 4, 5, 6]}", "- {}")
    found = problems(kit)
    assert found and all("FacedDie" not in p and "PlainDie" not in p for p in found)
    assert f"KIT:{line_of(kit, '- {}')}: game.dice[3].faces: required key is missing" in found


def test_what_validates_builds(tmp_path):
    """A spec at the caps of the issue's crashing fields builds (die faces 0 and 99, many path markers)."""
    from generator.pipeline import build

    kit = copy(tmp_path, "peak_dice")
    edit(
        kit,
        "- {colour: red,    values: [1, 2, 3, 4, 5, 6]}",
        "- {colour: red,    values: [0, 2, 3, 4, 5, 99]}",
    )
    load_kit(kit)
    result = build([kit], out=tmp_path / "out", langs=["en"])
    assert result.files


def test_piece_larger_than_the_paper_is_located_at_its_size(tmp_path):
    from generator.pipeline import verify_layout

    kit = copy(tmp_path, "raindrops")
    edit(kit, "size: {width: 66mm, height: 88mm}", "size: {width: 400mm, height: 400mm}")
    with pytest.raises(SpecError) as e:
        verify_layout([load_kit(kit)], langs=["en"])
    (p,) = e.value.problems
    assert (p.line, p.key) == (line_of(kit, "width: 400mm"), "components.memory_cards.size")
    assert "400.0 x 400.0 mm card does not fit on a4" in p.message


def test_a_component_id_with_brackets_is_located_not_a_crash(tmp_path):
    """Found by the fuzzer (a flipped byte): key paths are parsed back from text, and a user key may hold
    '['."""
    kit = copy(tmp_path, "ripple_rush")
    edit(kit, "  number_cards:", "  number[cards:")
    from generator.pipeline import check_kit

    found = [str(p).replace(str(kit / "kit.yaml"), "KIT") for p in check_kit(load_kit(kit))]
    assert found == [
        (
            f"KIT:{line_of(kit, 'number[cards:')}: components.number[cards: expected one of "
            "score_sheet, number_cards, goal_cards, rules; got 'number[cards'"
        )
    ]
