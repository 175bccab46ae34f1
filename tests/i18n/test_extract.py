"""`pnpkit i18n extract`: a .pot whose entries say where each text id prints."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from PIL import Image

from generator.contract.load import load_kit
from generator.pipeline.extract import extract, to_pot
from generator.pipeline.load import with_tool_catalogs
from generator.spec.catalogs import strict_problems
from tests.clirun import pnpkit

ROOT = Path(__file__).resolve().parents[2]


def _entries(text: str) -> dict[str, list[str]]:
    cat = read_po(text.splitlines(keepends=True))
    return {m.id: list(m.auto_comments) for m in cat if m.id}


def test_every_id_is_listed_with_its_english_text_and_places():
    kit = load_kit(ROOT / "layouts" / "sprout_sheet")
    pot = to_pot(kit, extract(kit))
    assert strict_problems(pot, "sprout_sheet.pot") == []
    entries = _entries(pot)
    assert set(entries) == set(with_tool_catalogs(kit)["en"].messages)
    assert entries["goal.back"] == [  # a back per kind of goal (they lie face up): row, star, column
        "en: Goal card",
        "prints on: goals (Goal cards), face goal-back",
        "prints on: goals (Goal cards), face goal-back-star-3",
        "prints on: goals (Goal cards), face goal-back-column-2",
    ]
    assert entries["goal.low"][:2] == ["en: Fill {{ n }} of the rows 1 to 3.", "variables: n"]
    assert "prints on: goals (Goal cards), face row-low" in entries["goal.low"]
    # a wrapped rules paragraph is traced back from its lines
    assert "prints on: rules (Rules summary), face rules" in entries["rules.setup"]


def test_a_string_the_settings_never_print_says_so():
    kit = load_kit(ROOT / "layouts" / "ripple_rush")
    entries = _entries(to_pot(kit, extract(kit)))
    used, unused = (
        ("rules.round.any", "rules.round.seat")
        if kit.game.rules.announced_order == "any"
        else ("rules.round.seat", "rules.round.any")
    )
    assert "prints on: rules (Rules summary), face rules" in entries[used]
    assert any(c.startswith("prints on: nothing with this kit.yaml") for c in entries[unused])


def test_hostile_english_text_cannot_break_the_template():
    kit = load_kit(ROOT / "layouts" / "sprout_sheet")
    entries = extract(kit)
    entries[0].english = 'line one\nmsgid "injected"\r\n#, fuzzy\\'
    pot = to_pot(kit, entries)
    assert strict_problems(pot, "x.pot") == []
    assert "injected" not in _entries(pot)


def test_the_cli_writes_the_pot_and_refuses_bad_input(tmp_path):
    run = pnpkit("i18n", "extract", "layouts/sprout_sheet", "--out", str(tmp_path), cwd=ROOT)
    assert run.returncode == 0, run.stderr
    pot = tmp_path / "sprout_sheet" / "sprout_sheet.pot"
    assert f"wrote {pot}" in run.stdout
    entries = _entries(pot.read_text(encoding="utf-8"))
    picture = next(c for c in entries["goal.back"] if c.startswith("picture: ")).removeprefix("picture: ")
    with Image.open(pot.parent / picture) as im:  # the goal card's back, upright, at 100 dpi, with what bleed
        # the sheet gives it past its outer cuts (at most the kit's 3 mm a side)
        bleed = 2 * 3 / 25.4 * 100
        assert round(124.72 * 100 / 72) <= im.width <= round(124.72 * 100 / 72 + bleed)
        assert round(178.58 * 100 / 72) <= im.height <= round(178.58 * 100 / 72 + bleed)
        assert im.width / im.height == pytest.approx(124.72 / 178.58, rel=0.05)
        rgb = im.convert("RGB")
        assert rgb.getpixel((5, 5)) == (0x3D, 0x7A, 0x3A)  # the back's green, not a blank page
    setup = next(c for c in entries["rules.setup"] if c.startswith("picture: ")).removeprefix("picture: ")
    with Image.open(pot.parent / setup) as im:  # a band of the rules sheet, not the whole sheet
        assert im.width > 500 and im.height < 200
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for args in (["layouts/no_such_kit"], ["layouts/sprout_sheet", "--out", str(blocker)]):
        run = pnpkit("i18n", "extract", *args, cwd=ROOT)  # in this process (tests/clirun.py)
        assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert blocker.read_text() == "x"


def test_the_cli_takes_a_shipped_kits_id_from_any_folder(tmp_path):
    """As every other command does: `pnpkit i18n extract sprout_sheet` in a folder without layouts/."""
    run = pnpkit(
        "i18n", "extract", "sprout_sheet", "--no-pictures", "--out", str(tmp_path / "o"), cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "o" / "sprout_sheet" / "sprout_sheet.pot").is_file()
    run = pnpkit("i18n", "extract", "no_such_kit", "--out", str(tmp_path / "o"), cwd=tmp_path)
    assert run.returncode == 1 and "no such kit folder, nor a shipped kit id" in run.stderr


def test_same_kit_same_bytes(tmp_path):
    from generator.pipeline.extract import write_pictures

    kit = load_kit(ROOT / "layouts" / "sprout_sheet")
    made = []
    for name in ("a", "b"):
        entries = extract(kit)
        write_pictures(entries, tmp_path / name)
        made.append(
            (to_pot(kit, entries), {p.name: p.read_bytes() for p in sorted((tmp_path / name).iterdir())})
        )
    assert made[0] == made[1] and len(made[0][1]) > 10
