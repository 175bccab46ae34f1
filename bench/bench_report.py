"""Printing a balance report on the terminal, the last step of every `pnpkit check`: each shipped kit's
report at its defaults (one check each in this process, not timed), printed `--repeat` times to an 80-column
pipe and to a colour terminal. The baseline, measured in the same run: the same report with every data table
drawn by rich (what `check` did before it drew the tables whose columns fit itself; the text is the same, and
this script says so). Printed per kit: the median milliseconds of each, and their ratio.

    python bench/bench_report.py [--repeat 9] [--kits raindrops,ripple_rush]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

import generator.render.console as terminal
from generator.cli import app
from generator.engine.report import BalanceReport
from generator.pipeline import shipped_kits

_fixed_tables = terminal._data_tables


def _rich_tables(t, width):  # type: ignore[no-untyped-def]
    """Every part as a rich table, its rows as rich cells (the baseline)."""
    parts = []
    for part in _fixed_tables(t, width):
        if isinstance(part, terminal._FixedTable):
            for row in part.rows:
                part.head.add_row(*map(Text, row))
            part = part.head
        parts.append(part)
    return parts


def reports(kits: list[Path]) -> dict[str, BalanceReport]:
    """Each kit's report from `pnpkit check` at its defaults (printed nowhere)."""
    got: list[BalanceReport] = []
    keep = terminal.print_report
    terminal.print_report = lambda rep, console: got.append(rep)  # type: ignore[assignment]
    try:
        out = {}
        for kit in kits:
            got.clear()
            r = CliRunner().invoke(app, ["check", str(kit)])
            if not got:
                raise SystemExit(f"{kit.name}: no report (exit {r.exit_code}): {r.output[-400:]}")
            out[kit.name] = got[0]
        return out
    finally:
        terminal.print_report = keep


def printed(rep: BalanceReport, colour: bool) -> tuple[float, str]:
    """(seconds, text) of one print_report to a new 80-column console."""
    buf = io.StringIO()
    console = Console(file=buf, width=80, force_terminal=colour, color_system="truecolor" if colour else None)
    start = time.perf_counter()
    terminal.print_report(rep, console)
    return time.perf_counter() - start, buf.getvalue()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--kits", default="", help="comma-separated kit ids (default: every shipped kit)")
    args = ap.parse_args()
    wanted = set(filter(None, args.kits.split(",")))
    kits = [k for k in shipped_kits() if not wanted or k.name in wanted]
    for name, rep in reports(kits).items():
        for colour in (False, True):
            times: dict[str, list[float]] = {"quick": [], "rich": []}
            texts: dict[str, str] = {}
            for _ in range(args.repeat):
                for way, tables in (("rich", _rich_tables), ("quick", _fixed_tables)):
                    terminal._data_tables = tables  # type: ignore[assignment]
                    seconds, texts[way] = printed(rep, colour)
                    times[way].append(seconds)
            terminal._data_tables = _fixed_tables
            quick, slow = (statistics.median(times[w]) * 1000 for w in ("quick", "rich"))
            same = "same text" if texts["quick"] == texts["rich"] else "TEXT DIFFERS"
            print(
                f"{name:14s} {'terminal' if colour else 'pipe':8s} {quick:7.1f} ms, rich tables "
                f"{slow:7.1f} ms ({quick / slow:.2f}x; {same})"
            )


if __name__ == "__main__":
    main()
