"""Backend-neutral balance results: tables, charts and tolerance verdicts that the CLI prints as a rich
table, dumps as JSON and draws as a self-contained HTML report. Games fill these; they never print."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Tolerance:
    """One balance tolerance from the spec and what was measured against it."""

    name: str
    """What is bounded, e.g. "row 3 completion rate (4 players, greedy)"."""
    measured: float
    low: float | None
    """Lower end of the measured value's 95% interval, when it has one."""
    high: float | None
    minimum: float | None
    """Bound from the spec (None = unbounded)."""
    maximum: float | None
    spec_key: str = ""
    """Where the bound lives in kit.yaml, e.g. "game.balance.goal_completion"."""

    @property
    def ok(self) -> bool:
        """The measured value lies within [minimum, maximum]."""
        if math.isnan(self.measured):
            return False
        if self.minimum is not None and self.measured < self.minimum:
            return False
        if self.maximum is not None and self.measured > self.maximum:
            return False
        return True

    def describe(self) -> str:
        """A sentence for a failed tolerance: measured value, interval, bound, spec key."""
        iv = f" (95% CI {self.low:.3g}..{self.high:.3g})" if self.low is not None and self.high is not None else ""
        lo = "-inf" if self.minimum is None else f"{self.minimum:g}"
        hi = "inf" if self.maximum is None else f"{self.maximum:g}"
        where = f" [{self.spec_key}]" if self.spec_key else ""
        return f"{self.name}: measured {self.measured:.4g}{iv}, allowed {lo}..{hi}{where}"


@dataclass(frozen=True)
class Table:
    """A titled table: column names and rows of plain values (str, int, float)."""

    title: str
    columns: list[str]
    rows: list[list[Any]]


@dataclass(frozen=True)
class Histogram:
    """Integer-valued distributions to draw as bars; series[label] = (offset, counts)."""

    title: str
    series: dict[str, tuple[int, list[int]]]
    x_label: str = ""


@dataclass(frozen=True)
class Bars:
    """Labelled values with optional 95% intervals, e.g. completion rate per row or win share per seat."""

    title: str
    labels: list[str]
    values: list[float]
    lows: list[float] | None = None
    highs: list[float] | None = None
    reference: float | None = None
    """A line to draw across the bars (e.g. the fair win share 1/n)."""
    y_label: str = ""


@dataclass
class BalanceReport:
    """Everything `pnpkit check` shows for one kit."""

    kit: str
    game: str
    games_per_setting: int
    seed: int
    tables: list[Table] = field(default_factory=list)
    charts: list[Histogram | Bars] = field(default_factory=list)
    tolerances: list[Tolerance] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)
    """Every measured figure, nested, JSON-able (floats, ints, strings, lists, dicts)."""
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every tolerance holds."""
        return all(t.ok for t in self.tolerances)

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict with every figure, table and verdict (stable key order)."""
        return {
            "kit": self.kit,
            "game": self.game,
            "games_per_setting": self.games_per_setting,
            "seed": self.seed,
            "ok": self.ok,
            "tolerances": [dict(asdict(t), ok=t.ok) for t in self.tolerances],
            "figures": self.figures,
            "tables": [asdict(t) for t in self.tables],
            "notes": list(self.notes),
        }
