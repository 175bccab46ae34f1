"""Colour-vision and greyscale safety (issue 26 item 4): pairs of game colours that look alike under simulated
protanopia, deuteranopia, tritanopia or in greyscale AND share their mark fail validate; alike pairs with
different marks are notes."""

import shutil
from pathlib import Path

import pytest

from generator.contract.load import load_kit
from generator.pipeline import check_kit
from generator.spec.colours import (
    SIMULATIONS,
    ColourSafety,
    Swatch,
    check_palette,
    delta_e,
    measure,
    simulate,
    to_grey,
)
from tests.clirun import pnpkit
from tests.spec.kitedit import edit, line_of

ROOT = Path(__file__).resolve().parents[2]
KITS = ("ripple_rush", "rummy_cards", "raindrops", "peak_dice")


def _copy(tmp_path: Path, kit: str) -> Path:
    dst = tmp_path / kit
    shutil.copytree(ROOT / "layouts" / kit, dst)
    return dst


def test_red_and_green_look_alike_to_a_deuteranope_only():
    # a green of about the red's lightness: far apart in normal vision, close under deuteranopia
    red, green = "#d1262f", "#558828"
    assert delta_e((209, 38, 47), (85, 136, 40)) > 40
    assert delta_e(simulate(red, "deuteranopia"), simulate(green, "deuteranopia")) < 6
    assert delta_e(simulate(red, "tritanopia"), simulate(green, "tritanopia")) > 20


def test_greyscale_keeps_lightness_and_is_neutral():
    assert to_grey((255, 255, 255)) == 255 and to_grey((0, 0, 0)) == 0
    assert to_grey((128, 128, 128)) in (127, 128, 129)
    assert to_grey((255, 255, 0)) > to_grey((0, 0, 255)) + 100  # yellow prints light, blue dark
    g = simulate("#1f6fd1", "greyscale")
    assert g[0] == g[1] == g[2]


def test_every_pair_under_every_simulation_is_measured():
    sw = [Swatch("a", "#ff0000", "x"), Swatch("b", "#00ff00", "y"), Swatch("c", "#0000ff", "z")]
    ms = measure(sw)
    assert len(ms) == 3 * len(SIMULATIONS)
    assert {m.simulation for m in ms} == {"protanopia", "deuteranopia", "tritanopia", "greyscale"}


@pytest.mark.parametrize("kit", KITS)
def test_shipped_kits_have_no_alike_pair_sharing_a_mark(kit):
    loaded = load_kit(ROOT / "layouts" / kit)
    result = check_palette(loaded.game, loaded.style.colour_safety)
    assert result.measures, "the game's colours were found"
    assert result.errors == []


def test_shipped_ripple_rush_blue_and_red_are_a_note_in_greyscale():
    # blue #1f6fd1 and red #d62d3a print the same grey (ΔE00 0.4): the circle and square tell them apart
    loaded = load_kit(ROOT / "layouts" / "ripple_rush")
    result = check_palette(loaded.game, ColourSafety())
    notes = {(m.a.id, m.b.id, m.simulation) for m in result.notes}
    assert ("blue", "red", "greyscale") in notes


def test_two_colours_alike_under_deuteranopia_with_the_same_symbol_fail(tmp_path):
    kit = _copy(tmp_path, "rummy_cards")
    edit(
        kit, '{id: black,  colour: "#222222", symbol: club}', '{id: black,  colour: "#558828", symbol: heart}'
    )
    problems = [p for p in check_kit(load_kit(kit)) if p.key.endswith(".colour")]
    assert len(problems) == 1, problems
    p = problems[0]
    assert p.line == line_of(kit, "id: red,")
    assert p.key == "game.colours[3].colour"
    assert "black (#558828) and red (#d1262f)" in p.message and "both marked heart" in p.message
    assert "deuteranopia ΔE00 4.6" in p.message


def test_the_threshold_is_the_spec_s(tmp_path):
    kit = _copy(tmp_path, "rummy_cards")
    edit(
        kit, '{id: black,  colour: "#222222", symbol: club}', '{id: black,  colour: "#558828", symbol: heart}'
    )
    edit(kit, "\ngame:", "\nstyle: {colour_safety: {min_delta_e: 3}}\n\ngame:")
    assert not [p for p in check_kit(load_kit(kit)) if p.key.endswith(".colour")]


def test_validate_names_both_colours_and_the_simulation(tmp_path):
    kit = _copy(tmp_path, "ripple_rush")
    # red turned a green of its lightness: a deuteranope sees two greens, both drawn as hexagons
    edit(
        kit,
        '{id: red,    colour: "#d62d3a", symbol: square}',
        '{id: red,    colour: "#558828", symbol: square}',
    )
    edit(
        kit,
        '{id: green,  colour: "#2e9e44", symbol: hexagon}',
        '{id: green,  colour: "#d62d3a", symbol: square}',
    )
    r = pnpkit("validate", str(kit), cwd=ROOT)  # in this process (tests/clirun.py): its message is the point
    assert r.returncode == 1
    assert "red (#558828) and green (#d62d3a)" in r.stderr
    assert "deuteranopia ΔE00" in r.stderr and "Traceback" not in r.stderr


def test_alike_pairs_with_different_marks_are_report_notes():
    from generator.spec.colours import colour_notes

    notes = colour_notes(load_kit(ROOT / "layouts" / "ripple_rush"))
    assert any(
        n.startswith("colours blue (#1f6fd1) and red (#d62d3a) look alike under greyscale (ΔE00 0.4)")
        and n.endswith("their marks circle and square tell them apart")
        for n in notes
    ), notes
