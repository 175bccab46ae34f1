"""Rows from CSV, .xlsx and inline YAML: typed, localized, confined and capped; bad data is one located line,
exit 1, nothing written (issue 25)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.contract.load import load_kit
from generator.errors import SpecError
from generator.games.deck.layout import localized
from generator.spec.tables import MAX_ROWS, read_table
from tests.clirun import Ran
from tests.clirun import pnpkit as run_cli
from tests.games.deck.helpers import KIT, ROOT, deck


def pnpkit(*args: str, cwd: Path = ROOT) -> Ran:
    """`pnpkit ARGS...` in this process (tests/clirun.py): these tests read its exit code and messages, which
    are the command's own, not the interpreter's (a fresh one cost each command about 0.6 CPU-s)."""
    return run_cli(*args, cwd=cwd)


@pytest.fixture
def kit(tmp_path: Path) -> Path:
    dst = tmp_path / "harvest_deck"
    shutil.copytree(KIT, dst)
    return dst


def _set_cell(kit: Path, line: int, column: str, value: str) -> None:
    path = kit / "data" / "cards.csv"
    lines = path.read_text(encoding="utf-8").split("\n")
    head = lines[0].split(",")
    cells = lines[line - 1].split(",")
    cells[head.index(column)] = value
    lines[line - 1] = ",".join(cells)
    path.write_text("\n".join(lines), encoding="utf-8")


def test_a_bad_cell_is_one_located_line_exit_1_nothing_written(kit, tmp_path):
    _set_cell(kit, 17, "cost", "x")
    out = tmp_path / "out"
    r = pnpkit("build", str(kit), "--out", str(out))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.splitlines()[1:] == [
        f"  {kit / 'data' / 'cards.csv'}:17: column cost: expected an integer; got 'x'"
    ]
    assert not out.exists()


def test_a_duplicate_id_is_located_by_validate(kit):
    _set_cell(kit, 9, "id", "wheat-2")
    r = pnpkit("validate", str(kit))
    assert r.returncode == 1
    assert (
        f"game.decks.cards.data: {kit / 'data' / 'cards.csv'}:9: column id: 'wheat-2' repeats row 3"
        in r.stderr
    )


def test_a_million_rows_stop_at_the_row_cap(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "big.csv").write_bytes(b"id,count\n" + b"a,1\n" * 10**6)
    with pytest.raises(SpecError) as e:
        read_table(tmp_path, "data/big.csv", "data/big.csv")
    assert [str(p) for p in e.value.problems] == [
        f"data/big.csv: {MAX_ROWS + 1:,} rows or more; the limit is {MAX_ROWS:,}"
    ]


def test_bom_and_crlf_are_read(tmp_path):
    (tmp_path / "t.csv").write_bytes(b"\xef\xbb\xbfid,count\r\na,2\r\n")
    t = read_table(tmp_path, "t.csv", "t.csv")
    assert (
        t.columns == ("id", "count") and t.rows[0].cells == {"id": "a", "count": "2"} and t.rows[0].line == 2
    )


def test_xlsx_gives_the_same_rows_as_csv(kit):
    import csv

    from openpyxl import Workbook

    rows = list(csv.reader((kit / "data" / "cards.csv").open(encoding="utf-8")))
    wb = Workbook()
    for r in rows:
        wb.active.append([int(c) if c.isdigit() else c for c in r])
    wb.save(kit / "data" / "cards.xlsx")
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    from_csv = load_kit(kit).game.rows["cards"].rows
    (kit / "kit.yaml").write_text(text.replace("data/cards.csv", "data/cards.xlsx"), encoding="utf-8")
    assert load_kit(kit).game.rows["cards"].rows == from_csv


def test_inline_rows_are_typed():
    spec = deck([{"id": "a", "count": 2, "cost": "3"}])
    assert spec.rows["cards"].rows == ({"id": "a", "count": 2, "cost": 3},)


def test_a_missing_translation_falls_back_to_english_with_a_warning():
    warned: list[str] = []
    row = {"id": "a", "name": "Wheat", "name@ja": "小麦", "name@es": None}
    assert localized(row, "ja", "data/cards.csv:2", warned.append)["name"] == "小麦"
    assert localized(row, "es", "data/cards.csv:2", warned.append)["name"] == "Wheat"
    assert localized(row, "de", "data/cards.csv:2", warned.append)["name"] == "Wheat"
    assert warned == [
        "data/cards.csv:2: column name@es: no es translation; using English",
        "data/cards.csv:2: column name@de: no de translation; using English",
    ]


def test_each_broken_rule_is_one_located_line(kit):
    """One copy too many of wheat-1 breaks the total and the count per type: two lines, each naming kit.yaml's
    rule and the data file (and rows)."""
    _set_cell(kit, 2, "count", "3")
    r = pnpkit("validate", str(kit))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    data = kit / "data" / "cards.csv"
    lines = r.stderr.splitlines()[1:]
    assert len(lines) == 2
    assert lines[0].endswith(f"game.rules.cards.total: {data}: 51 cards in all; expected 50")
    assert lines[1].endswith(
        f"game.rules.cards.count_by.type: {data} (rows 2, 3, 4, 5, 6, 7, 8, 9 ...): type "
        "'resource': 31 cards; expected 30"
    )
    assert all(line.startswith(f"  {kit / 'kit.yaml'}:") for line in lines)
