"""Spec errors: every problem at once, each as FILE:LINE: key.path: expected ...; got VALUE."""

import shutil
from pathlib import Path

import pytest

from generator.contract.load import load_kit
from generator.errors import SpecError
from tests.spec.kitedit import edit, line_of

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def kit_copy(tmp_path):
    dst = tmp_path / "rr"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", dst)
    return dst


def test_shipped_kit_loads():
    kit = load_kit(ROOT / "layouts" / "ripple_rush")
    assert kit.game_id == "ripple_rush"
    assert kit.print.bleed == pytest.approx(3 * 72 / 25.4)


def test_every_problem_reported_at_once_with_file_line_key_and_value(kit_copy):
    edit(kit_copy, "numbers: {min: 1, max: 25}", "numbers: {min: 1, max: many}")
    edit(kit_copy, "  bleed: 3mm", "  bleed: 3")
    edit(kit_copy, "languages: [en, ja, es, de, fr]", "languages: [en, ja, xx]")
    edit(kit_copy, "    size: poker\n  goal_cards", "    size: poker\n    colour: red\n  goal_cards")
    with pytest.raises(SpecError) as e:
        load_kit(kit_copy)
    shown = kit_copy / "kit.yaml"
    lines = [str(p).replace(str(shown), "KIT") for p in e.value.problems]
    assert lines == [
        f"KIT:{line_of(kit_copy, 'languages:')}: kit.languages[2]: expected a language or locale Babel "
        f"knows, such as en, de, fr or pt_BR; got 'xx'",
        f"KIT:{line_of(kit_copy, '  bleed:')}: print.bleed: expected a length with a unit (mm, cm, in, pt), "
        f"got 3",
        f"KIT:{line_of(kit_copy, 'max: many')}: game.numbers.max: expected a valid integer; got 'many'",
        f"KIT:{line_of(kit_copy, 'colour: red')}: components.number_cards.colour: unknown key (not part of "
        f"the spec); got 'red'",
    ]
    assert str(e.value).startswith("4 problems in ")


def test_unknown_game_kind(kit_copy):
    edit(kit_copy, "kind: ripple_rush", "kind: chess")
    with pytest.raises(SpecError) as e:
        load_kit(kit_copy)
    (p,) = e.value.problems
    assert p.key == "game.kind" and p.line == line_of(kit_copy, "kind: chess")
    # every registered game: the built-ins, then entry points (the test process registers tests/plugins/*)
    from generator.contract import BUILTIN, game_ids

    assert game_ids()[:5] == list(BUILTIN) == ["ripple_rush", "peak_dice", "raindrops", "rummy_cards", "deck"]
    assert p.message == f"expected one of {', '.join(game_ids())}; got 'chess'"


def test_yaml_syntax_error_has_a_line(kit_copy):
    edit(kit_copy, "rows: 8", "rows: [8")
    with pytest.raises(SpecError) as e:
        load_kit(kit_copy)
    assert e.value.problems[0].line is not None
    assert "YAML syntax" in e.value.problems[0].message


def test_yaml_python_tags_are_refused(kit_copy):
    edit(kit_copy, "rows: 8", "rows: !!python/object/apply:os.system ['echo pwned']")
    with pytest.raises(SpecError) as e:
        load_kit(kit_copy)
    assert "tags are not allowed" in str(e.value) or "YAML syntax" in str(e.value)


def test_oversized_spec_is_refused(kit_copy):
    (kit_copy / "kit.yaml").write_text("# " + "x" * (600 * 1024), encoding="utf-8")
    with pytest.raises(SpecError, match="the limit is"):
        load_kit(kit_copy)


def test_alias_bomb_is_refused(kit_copy):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    for i in range(1, 7):
        prev = chr(ord("a") + i - 1)
        cur = chr(ord("a") + i)
        bomb += (
            f"{cur}: &{cur} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, "
            f"*{prev}, *{prev}]\n"
        )
    (kit_copy / "kit.yaml").write_text(bomb, encoding="utf-8")
    with pytest.raises(SpecError, match="YAML nodes"):
        load_kit(kit_copy)


def test_missing_catalog_is_a_located_problem(kit_copy):
    (kit_copy / "locales" / "es.po").unlink()
    with pytest.raises(SpecError) as e:
        load_kit(kit_copy)
    (p,) = e.value.problems
    assert (p.line, p.key) == (line_of(kit_copy, "languages:"), "kit.languages[2]")
    assert p.message == "no catalog for language 'es': expected locales/es.po in the kit folder"


def test_copies_are_capped(kit_copy):
    edit(kit_copy, "copies: 2", "copies: 5000")
    with pytest.raises(SpecError) as e:
        load_kit(kit_copy)
    assert "components.score_sheet.copies: expected less than or equal to 50; got 5000" in str(
        e.value
    ) or "less than or equal to 50" in str(e.value)


def test_a_folder_of_kits_names_them_and_another_file_is_not_a_kit(tmp_path, kit_copy):
    """`pnpkit build layouts` (the folder of several kits) names the kits in it; a file other than kit.yaml is
    refused as it is, never replaced by the kit.yaml beside it."""
    with pytest.raises(SpecError) as e:
        load_kit(tmp_path)
    (problem,) = e.value.problems
    assert problem.message == "no kit.yaml in this folder; its folder rr is a kit: name it instead"
    shutil.copytree(kit_copy, tmp_path / "aa")
    (tmp_path / "notes").mkdir()
    with pytest.raises(SpecError) as e:
        load_kit(tmp_path)
    assert e.value.problems[0].message.endswith("; its folders aa, rr are kits: name them instead")
    (kit_copy / "variant.yaml").write_text(
        (kit_copy / "kit.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    with pytest.raises(SpecError) as e:
        load_kit(kit_copy / "variant.yaml")
    (problem,) = e.value.problems
    assert problem.message == "expected a kit folder (holding kit.yaml) or its kit.yaml; got a file"
    assert problem.file.endswith("variant.yaml")
    assert load_kit(kit_copy / "kit.yaml").meta.id == "ripple_rush"
    with pytest.raises(SpecError) as e:
        load_kit(kit_copy / "locales")
    assert e.value.problems[0].message == "no kit.yaml in this folder"
