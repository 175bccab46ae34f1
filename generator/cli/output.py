"""What the commands print: lines to stdout (through rich on a terminal), progress bars and spinners on
stderr, numbers and durations in words. rich is loaded only when a terminal shows it."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

MAX_LINE = 400
"""The most characters of one line of a message (longer ones are cut, with '...')."""


@cache
def console(stderr: bool = False) -> Console:
    """The rich console of stdout (or stderr), made on first use (rich is not loaded for --help)."""
    from rich.console import Console

    return Console(stderr=stderr)


def clean(message: str) -> str:
    """A message safe for a terminal: control characters escaped, every line at most MAX_LINE characters."""
    out = []
    for line in message.split("\n"):
        line = "".join(
            ch if ch.isprintable() or ch in " \t" else ch.encode("unicode_escape").decode("ascii")
            for ch in line
        )
        out.append(line if len(line) <= MAX_LINE else line[: MAX_LINE - 3] + "...")
    return "\n".join(out)


def is_terminal(stderr: bool = False) -> bool:
    """Whether rich treats stdout (or stderr) as a terminal -- TTY_COMPATIBLE, then FORCE_COLOR, then isatty
    -- answered without loading rich (a build into a pipe or a file prints plain lines and loads no rich)."""
    compatible = os.environ.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "1"
    force = os.environ.get("FORCE_COLOR")
    if force is not None:
        return force != ""
    stream = sys.stderr if stderr else sys.stdout
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def say(text: str) -> None:
    """One line to stdout: through rich on a terminal, as it is otherwise (no markup, emoji codes or wrapping
    applied to file names)."""
    if is_terminal():
        console().print(text, highlight=False, soft_wrap=True, markup=False, emoji=False)
    else:
        sys.stdout.write(f"{text}\n")


def say_wrapped(text: str, indent: int) -> None:
    """One line to stdout, wrapped at the terminal's width (COLUMNS, else 80; `wrap_columns`); later lines
    indented."""
    width = max(40, shutil.get_terminal_size().columns)
    lead = len(text) - len(text.lstrip(" "))
    from generator.render.columns import wrap_columns

    for line in wrap_columns(text.strip(" "), width, " " * lead, " " * indent):
        say(line)


def warn(message: str) -> None:
    """A warning on stderr, in the one style (`warning: ...`)."""
    sys.stderr.write(f"warning: {message}\n")


def warn_all(messages: list[str]) -> None:
    """Every warning of a command, in order."""
    for message in messages:
        warn(message)


@contextmanager
def progress(total: int | None, label: str) -> Iterator[Callable[..., None]]:
    """A rich progress bar on a terminal (done/total, elapsed, ETA); silent otherwise."""
    if not is_terminal(stderr=True) or not console(stderr=True).is_terminal:
        yield lambda *a, **k: None
        return
    from generator.render.console import progress_for

    with progress_for(console(stderr=True), total, label) as advance:
        yield advance


@contextmanager
def spinner(label: str) -> Iterator[None]:
    """A spinner with the time elapsed on a terminal (stderr); nothing otherwise."""
    if not is_terminal(stderr=True):
        yield
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=console(stderr=True),
        transient=True,
    ) as bar:
        bar.add_task(label, total=None)
        yield


def count(n: int, word: str, plural: str | None = None) -> str:
    """`1 component`, `2 components`."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def duration(seconds: float) -> str:
    """A time span in the unit that reads best: `45 s`, `12 min`, `3 h`, `9 days`."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.0f} h"
    days = seconds / 86400
    return f"{days:.0f} days" if days < 1e6 else f"{days:.1e} days"


def clip_number(n: int) -> str:
    """A number as typed, its digits cut after 24 (`123456...(5000 digits)`)."""
    text = str(n)
    return text if len(text) <= 24 else f"{text[:6]}...({len(text)} digits)"


def megabytes(size: int) -> str:
    """A size in MB, one decimal."""
    return f"{size / 1e6:.1f} MB"


def ago(seconds: float) -> str:
    """How long ago, in words."""
    return "just now" if seconds < 60 else f"{duration(seconds)} ago"


def timings(t: dict[str, float]) -> str:
    """The phases' seconds: `1.23 s (load 0.10, check 0.20, ...)`."""
    phases = ", ".join(f"{name} {seconds:.2f}" for name, seconds in t.items())
    return f"{sum(t.values()):.2f} s ({phases})"
