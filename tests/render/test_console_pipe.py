"""Issue 26 item 5: "The terminal output stays readable when piped at 80 columns": `pnpkit check KIT | cat`
with COLUMNS=80 keeps every line within 80 characters, cuts nothing, and names every tolerance with its
verdict."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.clirun import pnpkit_process

ROOT = Path(__file__).resolve().parents[2]
RR = ROOT / "layouts" / "ripple_rush"


def check_at_80(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`pnpkit check ARGS...` in a fresh interpreter, piped at 80 columns (no colour: FORCE_COLOR unset)."""
    return pnpkit_process("check", *args, cwd=cwd, env={"COLUMNS": "80", "FORCE_COLOR": ""}, timeout=600)


def test_check_piped_at_80_columns(tmp_path: Path) -> None:
    kit = tmp_path / "rr"
    shutil.copytree(RR, kit)
    y = kit / "kit.yaml"
    text = y.read_text(encoding="utf-8")
    start = text.index("    max_games:")
    y.write_text(text[:start] + "    max_games: 60" + text[text.index("\n", start) :], encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="80")
    env.pop("FORCE_COLOR", None)
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator",
            "check",
            str(kit),
            "--games",
            "60",
            "--workers",
            "1",
            "--json",
            str(tmp_path / "r.json"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode in (0, 1, 3), r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) > 80
    wrote = f"wrote {tmp_path / 'r.json'}"  # a path is printed whole, never cut at 80 columns
    too_long = [line for line in lines if len(line) > 80 and line != wrote]
    assert too_long == [] and lines[-1] == wrote
    assert "…" not in r.stdout  # nothing cut with an ellipsis
    tolerances = json.loads((tmp_path / "r.json").read_text())["reports"][0]["tolerances"]
    for t in tolerances:  # each name whole on one line with its verdict, its interval whole on the next
        at = next((i for i, line in enumerate(lines) if t["name"] in line and t["verdict"] in line), None)
        assert at is not None, t["name"]
        assert lines[at + 1].strip().startswith("measured ") and (t["low"] is None or ".." in lines[at + 1])
    # the data tables keep their numbers whole: "Scores per player count and policy" is split by columns
    assert any(line.startswith("Scores per player count and policy (1 of ") for line in lines)
    assert any("unplaceable share" in line for line in lines)


def test_a_table_of_text_columns_wraps_within_80_columns_and_cuts_nothing(tmp_path: Path) -> None:
    """A data kit's draw checks: four text columns (no number column to split the table by) wider than 80
    columns together wrap inside their cells; every line fits and every word of every cell is there."""
    from rich.cells import cell_len

    r = check_at_80(str(ROOT / "layouts" / "harvest_deck"), "--json", str(tmp_path / "r.json"), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    table = lines[lines.index(next(x for x in lines if x.startswith("Draw checks"))) :]
    wrote = f"wrote {tmp_path / 'r.json'}"  # a path is printed whole, never cut at 80 columns
    assert lines[-1] == wrote
    assert all(cell_len(line) <= 80 for line in lines[:-1]), [x for x in lines if cell_len(x) > 80]
    words = " ".join(cell.strip() for line in table for cell in line.strip("│┃").split("│")).split()
    draws = json.loads((tmp_path / "r.json").read_text())["reports"][0]["tables"][0]
    for row in draws["rows"]:
        for cell in row:
            assert all(w in words for w in str(cell).split()), (cell, table)


def test_a_japanese_tolerance_wraps_by_terminal_columns(tmp_path: Path) -> None:
    """A designer's own check named in Japanese, failing: its sentence wraps at 80 columns of the terminal (a
    Japanese character takes two), between phrases."""
    from rich.cells import cell_len

    kit = tmp_path / "deck"
    shutil.copytree(ROOT / "layouts" / "harvest_deck", kit)
    y = kit / "kit.yaml"
    name = "5枚の手札で合計コストが8以下になる確率は、序盤の手番で動けるかどうかを左右する大切な指標です"
    text = y.read_text(encoding="utf-8").replace('"a 5-card hand costs at most 8 to play"', f'"{name}"')
    y.write_text(
        text.replace(
            "        limit: 8\n        bound: {min: 0.8}", "        limit: 8\n        bound: {min: 0.9}"
        )
    )
    r = check_at_80(str(kit), cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    lines = r.stdout.splitlines()
    assert all(cell_len(line) <= 80 for line in lines), [x for x in lines if cell_len(x) > 80]
    start = next(i for i, line in enumerate(lines) if line.startswith("✗ 5枚の手札"))
    assert "".join(line.strip() for line in lines[start : start + 3]).startswith(f"✗ {name}")
