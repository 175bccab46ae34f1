"""One tree of errors: every failure a user can cause is a KitError with a message meant for them."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


def meant(name: str, known: Iterable[str]) -> str | None:
    """The known name a user most likely meant by `name`: the same letters in another case, the one name it
    begins, or the closest by difflib; None when nothing is close (`pnpkit check my_kt` -> my_kit)."""
    names = list(known)
    low = name.lower()
    same = [k for k in names if k.lower() == low] or [k for k in names if low and k.lower().startswith(low)]
    if len(same) == 1:
        return same[0]
    close = difflib.get_close_matches(low, [k.lower() for k in names], n=1, cutoff=0.6)
    return next((k for k in names if close and k.lower() == close[0]), None)


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """ "; did you mean my_kit?" after a refused name when `meant` finds one, else ""."""
    guess = meant(name, known)
    return f"; did you mean {guess}?" if guess is not None else ""


class KitError(Exception):
    """Base of every error the CLI turns into a message and exit code 1."""


@dataclass(frozen=True)
class Problem:
    """One located problem in a spec: file, line, dotted key path, message."""

    file: str
    line: int | None
    key: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


class SpecError(KitError):
    """A spec (YAML, catalog) is malformed or illegal; carries every problem found, not just the first."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = tuple(problems)
        n = len(self.problems)
        files = sorted({p.file for p in self.problems})
        where = ", ".join(files) if len(files) <= 3 else f"{len(files)} files"  # each line names its file
        head = f"{n} problem{'s' if n != 1 else ''} in {where}" if n else "spec problems"
        super().__init__(head + "\n" + "\n".join(f"  {p}" for p in self.problems))


class OptionError(KitError):
    """A command-line option names something the kit does not have (a language it does not ship): a usage
    error the CLI turns into exit code 2, like the option checks click makes before a kit is read."""


class RuleViolation(KitError):
    """An action broke a game rule (raised by `apply`, never by `legal_actions`)."""


class LayoutError(KitError):
    """The spec is valid but cannot be laid out (a card larger than the paper, a string that does not fit)."""


class LocatedLayoutError(LayoutError):
    """A layout problem whose message already names FILE[:LINE] for each line (e.g. the catalog line of a text
    that runs past its box): the build passes it on as it is."""


class RenderError(KitError):
    """Writing the output failed (missing glyph, unwritable folder)."""
