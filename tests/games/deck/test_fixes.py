"""What would fix a data kit's failing draw check (games/deck/fixes.py): the check's notes name changes of
the data's count column, and a change named does make every exact draw check hold, the kit's rules kept."""

from __future__ import annotations

import json
import random
import re
import shutil
from fractions import Fraction
from math import comb
from pathlib import Path

from generator.engine.verdict import Verdict
from generator.games.deck.balance import balance_report
from tests.clirun import pnpkit
from tests.games.deck.helpers import KIT, deck
from tests.kitcopy import edit

ROW = r"line (\d+) \(([\w-]+), count (\d+) -> (\d+)\)"
MOVE = re.compile(f"move a copy from {ROW} to {ROW}")


def _notes(tmp_path: Path, kit: Path) -> tuple[int, list[str]]:
    """The check's exit code and what would fix it, as its JSON says (none: [])."""
    out = tmp_path / f"{kit.name}.json"
    r = pnpkit("check", str(kit), "--json", str(out), cwd=tmp_path)
    return r.returncode, json.loads(out.read_text(encoding="utf-8"))["reports"][0].get("fixes", [])


def _harvest(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of Harvest Hands in tmp_path with one edit of its kit.yaml (a bound)."""
    kit = tmp_path / "harvest"
    shutil.copytree(KIT, kit)
    edit(kit / "kit.yaml", old, new)
    return kit


COST = "        limit: 8\n        bound: {min: 0.8}"
"""The bound of "a 5-card hand costs at most 8 to play" (0.8703): raised to 0.9 it fails."""

ACTION = "        where: \"type == 'action'\"\n        at_least: 1\n        bound: {min: 0.8}"
"""The bound of "a 5-card opening hand holds an action" (0.8687)."""


def _set_count(csv: Path, line: int, row_id: str, old: int, new: int) -> None:
    lines = csv.read_text(encoding="utf-8").split("\n")
    cells = lines[line - 1].split(",")
    assert cells[0] == row_id and cells[1] == str(old), lines[line - 1]
    cells[1] = str(new)
    lines[line - 1] = ",".join(cells)
    csv.write_text("\n".join(lines), encoding="utf-8")


def test_a_move_named_for_a_failing_check_makes_the_kit_hold_again(tmp_path):
    """Harvest Hands with "a 5-card hand costs at most 8" raised to 0.9 (it is 0.8703): its rules fix the
    total (50) and the copies per type, so the fix is one copy moved between two rows of one type; applied
    to the CSV, the check passes and the rules still hold."""
    kit = _harvest(tmp_path, COST, COST.replace("0.8}", "0.9}"))
    code, notes = _notes(tmp_path, kit)
    assert code == 1 and notes[0].startswith("what would fix it (cards): each change of "), notes
    moves = [MOVE.search(n) for n in notes[1:]]
    assert moves and all(moves), notes
    rows = {m.group(2) for m in moves if m} | {m.group(6) for m in moves if m}
    assert len(rows) == 2 * len(moves)  # alternatives: no row in two of them
    m = moves[0]
    assert m is not None
    csv = kit / "data" / "cards.csv"
    _set_count(csv, int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4)))
    _set_count(csv, int(m.group(5)), m.group(6), int(m.group(7)), int(m.group(8)))
    code, notes = _notes(tmp_path, kit)
    assert code == 0 and notes == [], notes


def test_when_the_rules_fix_what_a_check_counts_the_note_says_so(tmp_path):
    """ "A 5-card opening hand holds an action" depends only on the 16 actions in 50 cards, which the rules
    fix (count_by type): no move of a copy between rows of one type changes it, and one more action (17 of
    50: 1 - C(33,5)/C(50,5) = 0.888) does not reach 0.9 either."""
    kit = _harvest(tmp_path, ACTION, ACTION.replace("0.8}", "0.9}"))
    code, notes = _notes(tmp_path, kit)
    fix = [n for n in notes if n.startswith("what would fix it")]
    assert code == 1 and len(fix) == 1, notes
    assert "no move of one copy between two rows of " in fix[0]
    assert "not even one that changes game.rules.cards.count_by" in fix[0]
    assert "game.rules.cards fixes its total and its copies per type" in fix[0]


def _rows(a: int) -> list[dict[str, object]]:
    return [
        {"id": "a", "count": a, "type": "x", "cost": 1},
        {"id": "b", "count": 4, "type": "y", "cost": 1},
        {"id": "c", "count": 4, "type": "y", "cost": 1},
    ]


def _x_in_two(at_least: float) -> dict[str, object]:
    return {
        "draws": [
            {
                "name": "two cards hold an x",
                "kind": "hand_has",
                "component": "cards",
                "hand": 2,
                "where": "type == 'x'",
                "at_least": 1,
                "bound": {"min": at_least},
            }
        ]
    }


def test_without_rules_the_smallest_change_of_one_row_is_named_and_holds():
    """2 x in 10 cards: an x among 2 cards is 1 - C(8,2)/C(10,2) = 17/45 (0.378), below 0.45. One more a
    gives 1 - C(8,2)/C(11,2) = 27/55 (0.491); one b or c fewer only 1 - C(7,2)/C(9,2) = 15/36: the note
    names a 2 -> 3 alone."""
    assert Fraction(comb(10, 2) - comb(8, 2), comb(10, 2)) < Fraction(45, 100)
    failing = balance_report(deck(_rows(2), balance=_x_in_two(0.45)), games=10, seed=1)
    assert failing.tolerances[0].verdict is Verdict.FAILS
    fix = failing.fixes
    assert len(fix) == 2 and re.search(
        r"line \d+ \(a, count 2 -> 3\): two cards hold an x: 0.3778 -> 0.4909", fix[1]
    )
    fixed = balance_report(deck(_rows(3), balance=_x_in_two(0.45)), games=10, seed=1)
    assert fixed.tolerances[0].verdict is Verdict.HOLDS and not any(
        "what would fix" in n for n in fixed.notes
    )


def test_no_change_tried_is_said_when_none_holds():
    """An x among 2 cards at least 0.9 needs far more than 3 more copies of a: the note says none of the
    changes tried makes it hold."""
    rep = balance_report(deck(_rows(2), balance=_x_in_two(0.9)), games=10, seed=1)
    assert rep.tolerances[0].verdict is Verdict.FAILS
    assert len(rep.fixes) == 1 and "no change of one row's count" in rep.fixes[0], rep.fixes
    assert "by up to 3 copies, nor a move of one copy" in rep.fixes[0]


def test_tune_of_a_data_kit_points_at_the_checks_notes(tmp_path):
    r = pnpkit("tune", str(KIT), "--out", str(tmp_path))
    assert (
        r.returncode == 1
        and "declares no tunable parameters (a data kit's balance is its cards' counts" in (r.stderr)
    ), r.stderr
    assert not any(tmp_path.iterdir())  # nothing written


def test_a_large_deck_stops_the_search_at_its_trial_budget_and_says_so():
    """400 rows: one copy more or less of each, by 1 to 3, would be 2,400 decks of 400 cards to judge; the
    search stops at its budget of card evaluations (MAX_WORK) and says how many it judged."""
    from generator.games.deck.fixes import MAX_WORK

    rows = [{"id": f"r{i}", "count": 1, "type": "x" if i == 0 else "y", "cost": 1} for i in range(400)]
    rep = balance_report(deck(rows, balance=_x_in_two(0.9)), games=10, seed=1)
    assert rep.tolerances[0].verdict is Verdict.FAILS
    said = [m for n in rep.fixes if (m := re.search(r"none of the first (\d+) changes", n))]
    assert said, rep.fixes
    tried = int(said[0].group(1))  # one exact check; a changed deck holds 397..403 cards
    assert tried * 397 <= MAX_WORK < (tried + 1) * 403


def test_a_spreadsheet_row_is_named_by_its_row_number(tmp_path):
    """The same kit from an .xlsx: the note names spreadsheet rows, and the first move applied to those
    rows (openpyxl) makes the check pass."""
    import csv

    from openpyxl import Workbook, load_workbook

    kit = _harvest(tmp_path, COST, COST.replace("0.8}", "0.9}"))
    wb = Workbook()
    for r in csv.reader((kit / "data" / "cards.csv").open(encoding="utf-8")):
        wb.active.append([int(c) if c.isdigit() else c for c in r])
    wb.save(kit / "data" / "cards.xlsx")
    edit(kit / "kit.yaml", "data: data/cards.csv", "data: data/cards.xlsx")
    code, notes = _notes(tmp_path, kit)
    m = re.search(f"move a copy from {ROW.replace('line', 'row')} to {ROW.replace('line', 'row')}", notes[1])
    assert code == 1 and m, notes
    book = load_workbook(kit / "data" / "cards.xlsx")
    sheet = book.active
    for row, rid, old, new in ((m.group(1), m.group(2), m.group(3), m.group(4)), m.groups()[4:]):
        assert sheet.cell(int(row), 1).value == rid and sheet.cell(int(row), 2).value == int(old)
        sheet.cell(int(row), 2).value = int(new)
    book.save(kit / "data" / "cards.xlsx")
    code, notes = _notes(tmp_path, kit)
    assert code == 0, notes


def test_the_fixes_follow_the_failures_in_the_terminal_the_html_report_and_the_preview(tmp_path):
    """Where a designer reads a check: the terminal (right after the failed tolerance, before the tables),
    the HTML report and the preview's check panel (serve's verdict tables)."""
    from generator.serve import _verdicts

    kit = _harvest(tmp_path, COST, COST.replace("0.8}", "0.9}"))
    html, doc = tmp_path / "r.html", tmp_path / "r.json"
    r = pnpkit(
        "check", str(kit), "--report", str(html), "--json", str(doc), cwd=tmp_path, env={"COLUMNS": "100"}
    )
    assert r.returncode == 1
    out = r.stdout
    assert out.index("✗ a 5-card hand costs at most 8 to play") < out.index("what would fix it (cards)")
    assert out.index("what would fix it (cards)") < out.index("Draw checks")
    assert re.search(r"^  move a copy from line \d+ ", out, re.M)
    page = html.read_text(encoding="utf-8")
    assert '<section class="fixes"><h3>What would fix it</h3>\n<p>(cards): each change of ' in page
    assert "<li>move a copy from line" in page
    panel = _verdicts(json.loads(doc.read_text(encoding="utf-8")))
    assert panel[0]["fixes"][0].startswith("what would fix it (cards)") and len(panel[0]["fixes"]) == 4


def test_every_change_named_holds_when_made_and_keeps_the_rules():
    """The property below over 24 random decks, half under rules that fix the counts: most get a change."""
    found = [_changes_named_hold(seed) for seed in range(24)]
    assert sum(1 for n in found[0::2] if n) >= 6 and sum(1 for n in found[1::2] if n) >= 6, found


def _changes_named_hold(seed: int) -> int:
    """Random small decks and a bound just out of reach: every change the search names, made to the rows,
    makes every draw check hold (judged by the check itself); a move keeps the total and the copies per
    type when the rules fix them; a single change is the smallest step that holds."""
    from generator.games.deck.fixes import searches, with_counts

    rng = random.Random(seed)
    rows = [
        {"id": f"r{i}", "count": rng.randint(1, 4), "type": rng.choice("xyz"), "cost": rng.randint(0, 3)}
        for i in range(6)
    ]
    ruled = seed % 2 == 1
    counts: dict[str, int] = {}
    for r in rows:
        counts[str(r["type"])] = counts.get(str(r["type"]), 0) + int(r["count"])  # type: ignore[call-overload]
    rules = (
        {"rules": {"cards": {"total": sum(counts.values()), "count_by": {"type": counts}}}} if ruled else {}
    )
    checks = {
        "draws": [
            {
                "name": "cheap",
                "kind": "sum_at_most",
                "component": "cards",
                "hand": 2,
                "field": "cost",
                "limit": 2,
                "bound": {"min": 0},
            },
            {
                "name": "an x",
                "kind": "hand_has",
                "component": "cards",
                "hand": 2,
                "where": "type == 'x'",
                "at_least": 1,
                "bound": {"min": 0},
            },
        ]
    }
    base = balance_report(deck(rows, balance=checks, **rules), games=10, seed=1)
    value = base.tolerances[0].evidence.fraction
    checks["draws"][0]["bound"] = {"min": str(value + Fraction(1, 50))}  # just out of reach
    spec = deck(rows, balance=checks, **rules)
    rep = balance_report(spec, games=10, seed=1)
    assert rep.tolerances[0].verdict is Verdict.FAILS and rep.fixes
    (found,) = searches(spec, [0])
    steps: set[int] = set()
    for change, _ in found.found:
        changed = with_counts(spec, "cards", found.rows, dict(change.counts))
        after = balance_report(changed, games=10, seed=1)
        assert all(t.verdict is Verdict.HOLDS for t in after.tolerances), change
        new = [int(r["count"]) for r in changed.rows["cards"].rows]  # type: ignore[call-overload]
        if ruled:  # the total stays; the copies per type too, unless the line says how they change
            assert sum(new) == sum(counts.values()) and len(change.counts) == 2
            per = {t: sum(n for n, r in zip(new, rows) if r["type"] == t) for t in counts}
            said = [line for line in rep.fixes[1:] if f"({rows[change.counts[1][0]]['id']}, count" in line]
            assert per == counts or (said and "; and count_by.type: " in said[0]), (per, counts, rep.fixes)
        else:
            steps.add(max(abs(n - int(r["count"])) for n, r in zip(new, rows)))  # type: ignore[call-overload]
    assert len(steps) <= 1  # singles: all of the one smallest step that holds
    return len(found.found)


def test_a_move_across_the_rules_says_how_count_by_changes_and_holds_when_both_are_made(tmp_path):
    """ "Holds an action" at 0.88: no move within a type changes it; one copy moved from a resource to an
    action gives 1 - C(33,5)/C(50,5) = 0.888. The note says how count_by changes with it; made to the CSV
    and to kit.yaml's rules, the check passes."""
    assert 1 - Fraction(comb(33, 5), comb(50, 5)) > Fraction(88, 100)
    kit = _harvest(tmp_path, ACTION, ACTION.replace("0.8}", "0.88}"))
    yaml = kit / "kit.yaml"
    code, fixes = _notes(tmp_path, kit)
    assert code == 1 and "no move within game.rules.cards.count_by does, so each changes it too" in fixes[0]
    m = MOVE.search(fixes[1])
    by = re.search(r"and count_by\.type: (\w+) (\d+) -> (\d+), (\w+) (\d+) -> (\d+)$", fixes[1])
    assert m and by, fixes
    csv = kit / "data" / "cards.csv"
    _set_count(csv, int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4)))
    _set_count(csv, int(m.group(5)), m.group(6), int(m.group(7)), int(m.group(8)))
    for value, old, new in ((by.group(1), by.group(2), by.group(3)), (by.group(4), by.group(5), by.group(6))):
        edit(yaml, f"{value}: {old}", f"{value}: {new}")
    code, fixes = _notes(tmp_path, kit)
    assert code == 0 and fixes == [], fixes
