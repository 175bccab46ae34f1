"""The shipped data kits built end to end: one CSV cell changed is found on the printed page (text read back
with pdfplumber) and in the Tabletop Simulator sheet (pixels); the exact draw checks hold."""

from __future__ import annotations

import csv
from pathlib import Path
from types import SimpleNamespace

import pdfplumber
import pytest
from PIL import Image
from typer.testing import CliRunner

from generator.cli import app
from generator.engine.verdict import Verdict
from generator.games.deck.balance import balance_report
from tests.games.deck.helpers import shipped
from tests.games.deck.test_data import _set_cell, kit  # noqa: F401  (kit is a fixture)

runner = CliRunner()


def pnpkit(*args: str) -> SimpleNamespace:
    """`pnpkit ARGS` run in this process (typer's CliRunner): its exit status, stdout and stderr. What these
    tests read is the command's behaviour, not a process's (tests/games/deck/test_data.py starts real ones,
    a second or more of imports each)."""
    result = runner.invoke(app, list(args))
    return SimpleNamespace(returncode=result.exit_code, stdout=result.stdout, stderr=result.stderr)


def test_a_changed_cell_is_printed_and_exported(kit, tmp_path):  # noqa: F811
    _set_cell(kit, 2, "name", "Zyzzyva")
    _set_cell(kit, 2, "colour", "#00ff00")
    out = tmp_path / "out"
    r = pnpkit("build", str(kit), "--out", str(out), "--lang", "en")
    assert r.returncode == 0, r.stderr
    with pdfplumber.open(out / "harvest_deck" / "en" / "cards-a4.pdf") as pdf:
        first = pdf.pages[0].extract_text(char_dir_rotated="btt")
        rest = "".join(p.extract_text(char_dir_rotated="btt") or "" for p in pdf.pages[1:])
    assert first.count("Zyzzyva") == 2 and "Zyzzyva" not in rest  # wheat-1: count 2, the first two slots
    r = pnpkit("export", str(kit), "--tts", "--lang", "en", "--out", str(tmp_path / "exp"))
    assert r.returncode == 0, r.stderr
    tts = tmp_path / "exp" / "harvest_deck" / "en" / "tts"
    ids = [row["id"] for row in csv.DictReader((tts / "cards.csv").open())]
    assert ids[:2] == ["wheat-1", "wheat-1"]
    sheet = Image.open(tts / "cards-sheet-1.png").convert("RGB")
    cols = 10  # TTS sheets are 10 wide
    w = sheet.width // cols
    h = round(w * 88.9 / 63.5)  # poker cards
    # slot 0: the changed colour at the foot of the frame (its gradient starts there); slot 2: wheat-2's own
    foot = [sheet.getpixel((x, h - 3)) for x in (2, 2 * w + 2)]
    assert max(abs(a - b) for a, b in zip(foot[0], (0, 255, 0), strict=True)) < 24, foot
    assert max(abs(a - b) for a, b in zip(foot[1], (0, 255, 0), strict=True)) > 60, foot
    assert sheet.getpixel((w // 2, int(h * 0.45))) == (0, 255, 0)  # slot 0: the icon is tinted with it too
    assert sheet.getpixel((2 * w + w // 2, int(h * 0.45))) != (0, 255, 0)


@pytest.mark.parametrize("kit_name", ["harvest_deck"])
def test_every_shipped_draw_check_holds_exactly(kit_name):
    rep = balance_report(shipped(), games=2000, seed=1)
    exact = [t for t in rep.tolerances if t.evidence.__class__.__name__ == "Exact"]
    assert len(exact) == len(rep.tolerances) == 6 and all(t.verdict == Verdict.HOLDS for t in rep.tolerances)


def test_japanese_names_come_from_their_column(tmp_path):
    out = tmp_path / "out"
    r = pnpkit(
        "build",
        str(Path(shipped.__code__.co_filename).parents[3] / "layouts" / "harvest_deck"),
        "--out",
        str(out),
        "--lang",
        "ja",
    )
    assert r.returncode == 0, r.stderr
    with pdfplumber.open(out / "harvest_deck" / "ja" / "cards-a4.pdf") as pdf:
        # 8 cards a page: wheat and rice take a gutter between them (7 sheets, fronts and backs)
        assert "小麦" in pdf.pages[0].extract_text(char_dir_rotated="btt") and len(pdf.pages) == 14


def test_an_incremental_build_redraws_the_cards_when_the_csv_changes(kit, tmp_path):  # noqa: F811
    """The data's content digest is part of the build key (the door's recorded reads, Kit.game_files): a CSV
    edit is not 'unchanged'."""
    out = tmp_path / "out"
    assert pnpkit("build", str(kit), "--out", str(out), "--lang", "en").returncode == 0
    again = pnpkit("build", str(kit), "--out", str(out), "--lang", "en")
    assert (
        "(0 parts drawn, 5 unchanged)" in again.stdout
    )  # 3 components, the calibration sheet, the checklist
    _set_cell(kit, 5, "name", "Spelt")
    edited = pnpkit("build", str(kit), "--out", str(out), "--lang", "en")
    assert "(5 parts drawn, 0 unchanged)" in edited.stdout  # the build key covers the whole game section
    with pdfplumber.open(out / "harvest_deck" / "en" / "cards-a4.pdf") as pdf:
        assert "Spelt" in pdf.pages[0].extract_text(char_dir_rotated="btt")
