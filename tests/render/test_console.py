"""The terminal report: failed tolerances first, in red, with their sentence; every table; a quiet progress bar."""

from __future__ import annotations

import io

from rich.console import Console

from generator.engine.report import BalanceReport, Table, Tolerance
from generator.engine.runner import run
from generator.engine.toy import DiceRace
from generator.render.console import print_report, progress_bar

PASSING = Tolerance("seat 1 win share (3 players)", 0.34, 0.31, 0.37, 0.25, 0.40, "game.balance.first_seat")
FAILING = Tolerance("row 3 completion rate [bold]4p[/bold]", 0.042, 0.031, 0.055, 0.10, 0.90,
                    "game.balance.row_completion")


def report() -> BalanceReport:
    return BalanceReport(kit="ripple_rush", game="ripple_rush", games_per_setting=2000, seed=42,
                         tables=[Table("Scores by player count", ["players", "mean", "sd"],
                                       [[2, 48.125, 6.5], [3, float("nan"), 7.25]])],
                         tolerances=[PASSING, FAILING], notes=["greedy policy"])


def render(r: BalanceReport, *, colour: bool = False, width: int = 160) -> str:
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=colour, color_system="standard" if colour else None,
                      legacy_windows=False)
    print_report(r, console)
    return buf.getvalue()


def test_failed_tolerance_sentence_is_printed() -> None:
    out = render(report(), width=60)  # narrow: the sentence must still be on one line
    assert FAILING.describe() in out
    assert "row 3 completion rate [bold]4p[/bold]: measured 0.042 (95% CI 0.031..0.055), allowed 0.1..0.9" in out
    assert PASSING.describe() not in out  # only failures get a sentence
    assert "1 of 2 tolerances failed" in out


def test_failed_rows_come_first() -> None:
    lines = render(report()).splitlines()
    fail_row = next(i for i, l in enumerate(lines) if "row 3 completion" in l and "FAIL" in l)
    pass_row = next(i for i, l in enumerate(lines) if "seat 1 win share" in l and "pass" in l)
    assert fail_row < pass_row
    assert "0.031..0.055" in lines[fail_row] and "0.1..0.9" in lines[fail_row]
    assert "game.balance.row_completion" in lines[fail_row]


def test_failed_rows_are_red() -> None:
    out = render(report(), colour=True)
    red = "\x1b[1;31m"
    fail_line = next(l for l in out.splitlines() if "FAIL" in l)
    pass_line = next(l for l in out.splitlines() if "seat 1 win share" in l)
    assert red in fail_line
    assert red not in pass_line
    assert red + "✗ " + FAILING.describe() in out


def test_tables_are_printed() -> None:
    out = render(report())
    assert "Scores by player count" in out
    assert "48.12" in out and "–" in out  # 4 significant digits; NaN as a dash
    assert "greedy policy" in out


def test_all_hold() -> None:
    r = report()
    r.tolerances.remove(FAILING)
    out = render(r)
    assert "all 1 tolerances hold" in out and "FAIL" not in out and "✗" not in out


def test_progress_bar_is_silent_off_terminal() -> None:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=False)
    with progress_bar(console, 300) as advance:
        run(DiceRace(players=2, target=10), 300, 0, chunk_size=100, progress=advance)
    assert buf.getvalue() == ""


def test_progress_bar_counts_games_on_a_terminal() -> None:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=100, color_system=None)
    with progress_bar(console, 300, description="toy") as advance:
        run(DiceRace(players=2, target=10), 300, 0, chunk_size=100, progress=advance)
    out = buf.getvalue()
    assert "toy" in out
    assert "300/300" in out
