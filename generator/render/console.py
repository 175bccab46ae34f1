"""Balance reports on the terminal: rich tables of tolerance verdicts (failures first) and of every Table,
and a progress bar for self-play that stays silent when output is not a terminal."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Column
from rich.table import Table as RichTable
from rich.text import Text

from generator.engine.report import BalanceReport, Table, Tolerance
from generator.render.html_report import fmt_value, verdict_line, verdict_sort_key

FAIL_STYLE = "bold red"
PASS_STYLE = "green"
UNDECIDED_STYLE = "yellow"
STYLES = {"FAILS": FAIL_STYLE, "UNDECIDED": UNDECIDED_STYLE, "HOLDS": None}


def _bound(t: Tolerance) -> str:
    lo = "" if t.minimum is None else f"{t.minimum:g}"
    hi = "" if t.maximum is None else f"{t.maximum:g}"
    return f"{lo}..{hi}" if lo or hi else "any"


def _interval(t: Tolerance) -> str:
    return "" if t.low is None or t.high is None else f"{fmt_value(t.low)}..{fmt_value(t.high)}"


def _tolerance_table(report: BalanceReport) -> RichTable:
    table = RichTable(title=Text(f"{report.kit or report.game}: balance tolerances"), title_justify="left")
    table.add_column("check")
    table.add_column("measured", justify="right")
    table.add_column("interval", justify="right")
    table.add_column("allowed", justify="right")
    table.add_column("games", justify="right")
    table.add_column("spec key")
    table.add_column("verdict")
    for t in sorted(report.tolerances, key=verdict_sort_key):  # failed, undecided, holding; spec order within
        table.add_row(Text(t.name), fmt_value(t.measured), _interval(t), _bound(t), str(t.games or ""),
                      Text(t.spec_key), t.verdict.value, style=STYLES[t.verdict.value])
    return table


def _data_table(t: Table) -> RichTable:
    table = RichTable(title=Text(t.title), title_justify="left")
    for i, name in enumerate(t.columns):
        numeric = bool(t.rows) and all(isinstance(r[i], (int, float)) and not isinstance(r[i], bool)
                                       for r in t.rows if i < len(r))
        table.add_column(Text(name), justify="right" if numeric else "left")
    for row in t.rows:
        table.add_row(*(Text(fmt_value(v)) for v in row))
    return table


def print_report(report: BalanceReport, console: Console) -> None:
    """Print one kit's verdict, its tolerance table (failures first, in red, with their sentences), then
    every table of the report."""
    failed = sorted((t for t in report.tolerances if not t.ok), key=verdict_sort_key)
    head = Text(f"{report.kit or report.game}", style="bold")
    looks = f" (looks at {', '.join(map(str, report.looks))})" if report.looks else ""
    head.append(f"  game {report.game} · {report.games_per_setting} games per setting{looks} · seed {report.seed} · "
                f"verdicts at {report.confidence * 100:.6g}% together  ", style="dim")
    line, state = verdict_line(report)
    head.append(line, style={"fail": FAIL_STYLE, "pass": PASS_STYLE}.get(state, UNDECIDED_STYLE))
    console.print(head, soft_wrap=True)
    if report.tolerances:
        console.print(_tolerance_table(report))
    for t in failed:
        # soft_wrap keeps each sentence on one line so logs and CI output can be searched for it
        mark = "✗ " if t.failed else "? "
        console.print(Text(mark + t.describe(), style=STYLES[t.verdict.value] or ""), soft_wrap=True)
    for table in report.tables:
        console.print(_data_table(table))
    for note in report.notes:
        console.print(Text(note, style="dim"), soft_wrap=True)


def new_progress(console: Console, unit: str = "ETA") -> Progress:
    """The one look of pnpkit's progress bars: description, bar, done/total, elapsed, `unit`, time remaining;
    cleared when done."""
    # the description gives way first (cut with an ellipsis); counts and times keep their width at 80 columns
    description = TextColumn("[bold]{task.description}", table_column=Column(ratio=1, no_wrap=True, overflow="ellipsis"))
    return Progress(description, BarColumn(bar_width=20), MofNCompleteColumn(), TimeElapsedColumn(),
                    TextColumn(unit), TimeRemainingColumn(), console=console, transient=True, expand=True)


@contextmanager
def progress_for(console: Console, total: int | None, label: str) -> Iterator[Callable[..., None]]:
    """The bar of a long command (build, check) as one callback, silent when `console` is not a terminal:
    `advance(n)` counts n done; `advance("phase")` counts one and names the phase; `advance("phase", total=N)`
    starts the phase at 0 of N (so the bar shows done/total and the time remaining of that phase)."""
    if not console.is_terminal:
        yield lambda *a, **k: None
        return
    with new_progress(console) as prog:
        task = prog.add_task(label, total=total)

        def advance(step: Any = 1, *, total: int | None = None, **_: Any) -> None:
            if total is not None:  # a phase announces its total: the bar restarts at 0 of total, with an ETA
                prog.reset(task, total=total, description=f"{label} {step}" if isinstance(step, str) else label)
                return
            prog.advance(task, step if isinstance(step, (int, float)) else 1)
            if isinstance(step, str):
                prog.update(task, description=f"{label} {step}")

        yield advance


@contextmanager
def progress_bar(console: Console, total: int, *, description: str = "self-play") -> Iterator[Callable[[int], None]]:
    """A context manager giving `advance(n)` for games done: a rich progress bar on a terminal, silent
    otherwise (pipes, CI logs, tests)."""
    if not console.is_terminal or total <= 0:
        yield lambda n: None
        return
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                        TimeElapsedColumn(), TimeRemainingColumn(), console=console, transient=True)
    with progress:
        task = progress.add_task(description, total=total)

        def advance(n: int) -> None:
            progress.advance(task, n)

        yield advance
