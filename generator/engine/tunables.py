"""Tunable parameters: what a game lets `pnpkit tune` change in a kit, typed, with the legal range each keeps.

A game declares a tuple of `Tunable` (its plugin's `tunables` reference); the tune pipeline
(generator/tuning.py) searches those the kit's `tune:` section or `--param` names, and every candidate must
still validate and pass the game's legal checks. This module is data and small pure helpers only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["int", "float", "choice", "permutation"]


@dataclass(frozen=True)
class Tunable:
    """One parameter a search may change.

    `path` is the dotted key in kit.yaml (e.g. "game.miss_boxes"); for "int" and "float" kinds `low..high` is
    the legal range (inclusive) a search may ask within; "choice" picks one of `choices`; "permutation"
    reorders the list found at `path` (its items are the kit's own)."""

    name: str
    """A short name for people, e.g. "miss boxes"."""
    path: str
    kind: Kind
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] = ()
    doc: str = ""

    def __post_init__(self) -> None:
        if self.kind in ("int", "float") and (self.low is None or self.high is None or self.low > self.high):
            raise ValueError(f"tunable {self.path}: an {self.kind} range needs low <= high")
        if self.kind == "choice" and len(self.choices) < 2:
            raise ValueError(f"tunable {self.path}: a choice needs at least two choices")

    @property
    def keys(self) -> tuple[str, ...]:
        """The path as kit.yaml keys."""
        return tuple(self.path.split("."))

    def describe(self) -> str:
        """The legal range in words, e.g. "integer in 0..30" or "one of compulsory, optional"."""
        if self.kind == "int":
            return f"an integer in {int(self.low or 0)}..{int(self.high or 0)}"
        if self.kind == "float":
            return f"a number in {self.low:g}..{self.high:g}"
        if self.kind == "choice":
            return "one of " + ", ".join(str(c) for c in self.choices)
        return "a reordering of the kit's list"


@dataclass(frozen=True)
class Space:
    """The search range of one tunable for one tune: a sub-range of its legal range, or some choices."""

    tunable: Tunable
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] = ()

    @property
    def path(self) -> str:
        return self.tunable.path

    @property
    def kind(self) -> Kind:
        return self.tunable.kind


def find(tunables: Sequence[Tunable], path: str) -> Tunable | None:
    """The tunable at `path` ("game." may be omitted), or None."""
    want = path if path.startswith("game.") else f"game.{path}"
    for t in tunables:
        if t.path == want:
            return t
    return None


def distance(space: Sequence[Space], original: dict[str, Any], values: dict[str, Any]) -> float:
    """How far a candidate lies from the original kit: one per changed parameter plus, for ranges, the change
    as a share of the searched range (so fewer changes always beat smaller ones; among one change, smaller
    wins); for permutations the share of items that moved."""
    out = 0.0
    for s in space:
        old, new = original[s.path], values[s.path]
        if old == new:
            continue
        out += 1.0
        if s.kind in ("int", "float") and s.low is not None and s.high is not None:
            span = max(float(s.high) - float(s.low), 1e-12)
            out += min(1.0, abs(float(new) - float(old)) / span)
        elif s.kind == "permutation":
            out += sum(a != b for a, b in zip(old, new)) / max(1, len(old))
    return out


__all__ = ["Kind", "Space", "Tunable", "distance", "find"]
