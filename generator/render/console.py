"""Balance reports on the terminal: rich tables of tolerance verdicts (failures first) and of every Table,
and a progress bar for self-play that stays silent when output is not a terminal."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.segment import Segment
from rich.table import Column
from rich.table import Table as RichTable
from rich.text import Text

from generator.engine.report import BalanceReport, Table, Tolerance
from generator.render.columns import wrap_columns
from generator.render.html_report import verdict_line, verdict_sort_key
from generator.render.report_svg import fmt_value

FAIL_STYLE = "bold red"
PASS_STYLE = "green"
UNDECIDED_STYLE = "yellow"
STYLES = {"FAILS": FAIL_STYLE, "UNDECIDED": UNDECIDED_STYLE, "HOLDS": None}


def _interval(t: Tolerance) -> str:
    return "" if t.low is None or t.high is None else f"{fmt_value(t.low)}..{fmt_value(t.high)}"


TOLERANCE_COLUMNS = ("check", "measured", "interval", "allowed", "games", "spec key", "verdict")


def _tolerance_rows(report: BalanceReport) -> list[tuple[str, ...]]:
    """The cells of the tolerance table: failed, undecided, holding; spec order within."""
    return [
        (
            t.name,
            t.shown or fmt_value(t.measured),
            _interval(t),
            t.allowed(),
            str(t.games or ""),
            t.spec_key,
            t.verdict.value,
        )
        for t in sorted(report.tolerances, key=verdict_sort_key)
    ]


def _tolerance_table(report: BalanceReport) -> RichTable:
    table = RichTable(title=Text(f"{report.kit or report.game}: balance tolerances"), title_justify="left")
    for name in TOLERANCE_COLUMNS:
        left = name in ("check", "spec key", "verdict")
        table.add_column(name, justify="left" if left else "right")
    for cells in _tolerance_rows(report):  # the last cell is the verdict, which picks the row's style
        table.add_row(*(Text(c) if i in (0, 5) else c for i, c in enumerate(cells)), style=STYLES[cells[-1]])
    return table


def _table_cannot_fit(report: BalanceReport, width: int) -> bool:
    """Whether the tolerance table is surely wider than `width` unwrapped: one row's cells, each with its
    padding of 2, and the 8 rules between and around them already are. (The table's widest unwrapped form is
    at least that; measuring it, on every check, costs more than the rest of printing the verdicts.)"""
    return any(
        sum(cell_len(c) for c in cells) + 2 * len(cells) + len(cells) + 1 > width
        for cells in _tolerance_rows(report)
    )


VERDICT_WIDTH = len("UNDECIDED")


def _tolerance_list(report: BalanceReport, width: int) -> list[Text]:
    """The tolerances for a narrow console (a pipe is 80 columns): failed first, a heading for each run of the
    same spec key and bound, then per tolerance its verdict and name on one line and its figures on the next;
    nothing cut, numbers never split."""
    out = [
        Text(
            f"{report.kit or report.game}: {len(report.tolerances)} balance "
            f"{'tolerance' if len(report.tolerances) == 1 else 'tolerances, failed first'}",
            style="bold",
        )
    ]
    heading = None
    indent = " " * (VERDICT_WIDTH + 4)
    for t in sorted(report.tolerances, key=verdict_sort_key):
        if (t.spec_key, t.allowed()) != heading:
            heading = (t.spec_key, t.allowed())
            out += [
                Text(line, style="dim")
                for line in _wrap(f"{t.spec_key or '(no spec key)'}: allowed {t.allowed()}", width, "", "  ")
            ]
        style = STYLES[t.verdict.value] or ""
        name = _wrap(t.name, width, f"  {t.verdict.value:<{VERDICT_WIDTH}}  ", indent)
        out += [Text(line, style=style) for line in name]
        interval = f", interval {_interval(t)}" if _interval(t) else ""
        games = f", {t.games} games" if t.games else ""
        out += [
            Text(line)
            for line in _wrap(
                f"measured {t.shown or fmt_value(t.measured)}{interval}{games}", width, indent, indent
            )
        ]
    return out


def _wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    """`text` in lines of at most `width` terminal columns (`columns.wrap_columns`: between words, inside
    Japanese between phrases; a number is never split from its unit)."""
    return wrap_columns(text, max(width, len(first) + 20), first, rest) or [first.rstrip()]


def _is_numeric(t: Table, i: int) -> bool:
    return bool(t.rows) and all(
        isinstance(r[i], (int, float)) and not isinstance(r[i], bool) for r in t.rows if i < len(r)
    )


def _data_tables(t: Table, width: int) -> list[RichTable | _FixedTable]:
    """One rich table for `t`, or, when its columns do not fit `width`, several: each repeats the row label
    columns (the first and the text columns right after it) and takes as many of the others as fit, so no
    cell is cut or wrapped."""
    cells = [[fmt_value(v) for v in row] for row in t.rows]
    natural = [
        max([cell_len(name), *(cell_len(r[i]) for r in cells if i < len(r))])
        for i, name in enumerate(t.columns)
    ]
    keys = 1
    while keys < len(t.columns) and not _is_numeric(t, keys):
        keys += 1
    keys = min(keys, len(t.columns))

    def needed(cols: Sequence[int]) -> int:
        return (
            sum(natural[i] for i in cols) + 3 * len(cols) + 1
        )  # the heavy-head box: 2 padding + 1 rule each

    rest = list(range(keys, len(t.columns)))
    groups: list[list[int]] = []
    if needed(range(len(t.columns))) <= width or not rest:
        groups = [list(range(len(t.columns)))]
    else:
        for i in rest:
            if groups and needed([*range(keys), *groups[-1], i]) <= width:
                groups[-1].append(i)
            else:
                groups.append([i])
        groups = [[*range(keys), *g] for g in groups]
    plain = all(_plain(c) for row in cells for c in row)
    out: list[RichTable | _FixedTable] = []
    for k, cols in enumerate(groups):
        title = t.title if len(groups) == 1 else f"{t.title} ({k + 1} of {len(groups)})"
        table = RichTable(title=Text(title), title_justify="left")
        fits = needed(cols) <= width
        for i in cols:
            numeric = _is_numeric(t, i)
            table.add_column(
                Text(t.columns[i]),
                justify="right" if numeric else "left",
                # a column of text too wide for the line wraps between its words (a table of text columns
                # only, such as a deck's draw checks, cannot be split by columns); a number is never broken
                min_width=natural[i] if fits or numeric else None,
                # a table that fits takes each column's widest cell, which rich would measure again
                width=natural[i] if fits else None,
                no_wrap=fits or numeric,
                overflow="fold",
            )
        rows = [[row[i] if i < len(row) else "" for i in cols] for row in cells]
        if fits and plain:
            out.append(_FixedTable(table, rows))
            continue
        for row in rows:
            table.add_row(*map(Text, row))
        out.append(table)
    return out


def _plain(cell: str) -> bool:
    """Whether a cell is one line of text that rich prints as it is (no control character, no line break)."""
    return cell.isprintable()


class _FixedTable:
    """A data table whose columns each have a fixed width (their widest cell) and whose cells are plain
    one-line text, printed as rich prints it: rich draws the title, the header and the edges (`head`: the
    same columns and no rows), and each body row is its cells padded to their column's width between the
    box's rules, one line of unstyled text. Rich measured and rendered every cell again (a tenth of a second
    of Raindrops' check for its card tables)."""

    def __init__(self, head: RichTable, rows: list[list[str]]):
        self.head = head
        self.rows = rows

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        head = self.head
        *top, bottom = console.render_lines(head, options, pad=False, new_lines=True)
        for line in top:
            yield from line
        assert head.box is not None and head.show_edge  # a rich Table's default: edges drawn
        safe = console.safe_box if head.safe_box is None else head.safe_box
        box = head.box.substitute(options, safe=safe)  # what rich draws on this console
        widths = [c.width or 0 for c in head.columns]
        right = [c.justify == "right" for c in head.columns]
        for n, row in enumerate(self.rows):
            cells = [
                " " * (w - cell_len(c)) + c if r else c + " " * (w - cell_len(c))
                for c, w, r in zip(row, widths, right, strict=True)
            ]
            last = n == len(self.rows) - 1
            left, mid, end = (
                (box.foot_left, box.foot_vertical, box.foot_right)
                if last
                else (box.mid_left, box.mid_vertical, box.mid_right)
            )
            yield Segment(left + mid.join(f" {c} " for c in cells) + end)
            yield Segment.line()
        yield from bottom

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.head)


def print_report(report: BalanceReport, console: Console) -> None:
    """Print one kit's verdict, its tolerances (failures first, in red, with their sentences), then every
    table of the report. Every line fits the console (80 columns in a pipe): the tolerance table becomes a
    list and a wide data table is split by columns when they would not fit."""
    width = console.width
    failed = sorted((t for t in report.tolerances if not t.ok), key=verdict_sort_key)
    line, state = verdict_line(report)
    head = Text(f"{report.kit or report.game}: ", style="bold")
    head.append(line, style={"fail": FAIL_STYLE, "pass": PASS_STYLE}.get(state, UNDECIDED_STYLE))
    console.print(head)
    looks = f" (looks at {', '.join(map(str, report.looks))})" if report.looks else ""
    played = (
        f"{report.games_per_setting} games per setting{looks} · seed {report.seed} · "
        f"verdicts at {report.confidence * 100:.6g}% together"
    )
    exact = "every verdict exact: counted over every case, no games played"
    details = f"game {report.game} · {exact if report.all_exact else played}"
    for text in _wrap(details, width, "  ", "  "):
        console.print(Text(text, style="dim"), soft_wrap=True)
    if report.tolerances:
        verdicts = None if _table_cannot_fit(report, width) else _tolerance_table(report)
        if (
            verdicts
            and Measurement.get(console, console.options.update_width(10**4), verdicts).maximum <= width
        ):
            console.print(verdicts)
        else:
            for row in _tolerance_list(report, width):
                console.print(row, soft_wrap=True)
    for t in failed:
        mark = "✗ " if t.failed else "? "
        for text in _wrap(t.describe(), width, mark, "  "):
            console.print(Text(text, style=STYLES[t.verdict.value] or ""), soft_wrap=True)
    for fix in report.fixes:  # what would make them hold, right after them
        lead = fix[: len(fix) - len(fix.lstrip(" "))]
        for text in _wrap(fix.strip(" "), width, lead, lead + "  "):
            console.print(text, soft_wrap=True, highlight=False, markup=False)
    for table in report.tables:
        for part in _data_tables(table, width):
            console.print(part)
    for note in report.notes:
        for text in _wrap(note, width, "", "  "):
            console.print(Text(text, style="dim"), soft_wrap=True)


def new_progress(console: Console, unit: str = "ETA") -> Progress:
    """The one look of pnpkit's progress bars: description, bar, done/total, elapsed, `unit`, time remaining;
    cleared when done."""
    # the description gives way first (cut with an ellipsis); counts and times keep their width at 80 columns
    description = TextColumn(
        "[bold]{task.description}", table_column=Column(ratio=1, no_wrap=True, overflow="ellipsis")
    )
    return Progress(
        description,
        BarColumn(bar_width=20),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn(unit),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        expand=True,
    )


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
                prog.reset(
                    task, total=total, description=f"{label} {step}" if isinstance(step, str) else label
                )
                return
            prog.advance(task, step if isinstance(step, (int, float)) else 1)
            if isinstance(step, str):
                prog.update(task, description=f"{label} {step}")

        yield advance


@contextmanager
def progress_bar(
    console: Console, total: int, *, description: str = "self-play"
) -> Iterator[Callable[[int], None]]:
    """A context manager giving `advance(n)` for games done: a rich progress bar on a terminal, silent
    otherwise (pipes, CI logs, tests)."""
    if not console.is_terminal or total <= 0:
        yield lambda n: None
        return
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    with progress:
        task = progress.add_task(description, total=total)

        def advance(n: int) -> None:
            progress.advance(task, n)

        yield advance
