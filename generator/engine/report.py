"""Backend-neutral balance results: tables, charts and tolerance verdicts that the CLI prints as a rich
table, dumps as JSON and draws as a self-contained HTML report. Games fill these; they never print."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from generator.engine.verdict import Evidence, Exact, Verdict, decide, games_to_decide, interval, method


@dataclass(frozen=True)
class Tolerance:
    """One balance tolerance from the spec, the evidence measured against it and the verdict it gives.

    The verdict is a statistical decision (engine/verdict.py): the evidence's interval at `alpha` inside the
    bound HOLDS, entirely outside FAILS, else UNDECIDED. `alpha` is set by the sequential driver so that all
    of a kit's intervals over all planned looks hold together; a report built by hand uses its own `alpha`."""

    name: str
    """What is bounded, e.g. "row 3 completion rate (4 players, greedy)"."""
    evidence: Evidence
    """What was counted (successes of n, a mean and sd, a rank correlation...), not a finished interval."""
    minimum: float | None
    """Bound from the spec (None = unbounded)."""
    maximum: float | None
    spec_key: str = ""
    """Where the bound lives in kit.yaml, e.g. "game.balance.goal_completion"."""
    settings: tuple[str, ...] = ()
    """The self-play settings the evidence comes from (empty: every one); playing more of them decides it."""
    alpha: float = 0.01
    """Error rate of this one interval (two-sided)."""
    games: int = 0
    """Games per setting behind the evidence (0 = not recorded)."""
    look: int = 1
    """The look (1 = first batch) at which this verdict was taken."""
    needed_games: int | None = None
    """For an UNDECIDED verdict: rough games per setting the estimate needs to decide it."""
    exact_minimum: Fraction | None = None
    """The bound as written, exactly (1/4165, 0.5 as 1/2): exact values are judged by it, not by a float."""
    exact_maximum: Fraction | None = None

    @property
    def measured(self) -> float:
        """The point estimate."""
        return float(self.evidence.estimate())

    @cached_property
    def _interval(self) -> tuple[float, float]:
        return interval(self.evidence, self.alpha)

    @property
    def shown(self) -> str | None:
        """How an exact value is written ("624 / 2,598,960 (0.0240 %)"); None: a float to format."""
        return self.evidence.shown if isinstance(self.evidence, Exact) and self.evidence.shown else None

    @property
    def low(self) -> float | None:
        """Lower end of the interval (None for exact values)."""
        return None if isinstance(self.evidence, Exact) else self._interval[0]

    @property
    def high(self) -> float | None:
        """Upper end of the interval (None for exact values)."""
        return None if isinstance(self.evidence, Exact) else self._interval[1]

    @property
    def confidence(self) -> float:
        """Confidence level of this interval, 1 - alpha."""
        return 1.0 - self.alpha

    @property
    def method(self) -> str:
        """How the interval was computed."""
        return method(self.evidence)

    @property
    def verdict(self) -> Verdict:
        """HOLDS, FAILS or UNDECIDED."""
        ev = self.evidence
        if (
            isinstance(ev, Exact) and ev.fraction is not None
        ):  # exact value, exact ends: no rounding either side

            def end(exact: Fraction | None, bound: float | None) -> Fraction | None:
                return exact if exact is not None else None if bound is None else Fraction(bound)

            lo_b, hi_b = end(self.exact_minimum, self.minimum), end(self.exact_maximum, self.maximum)
            inside = (lo_b is None or ev.fraction >= lo_b) and (hi_b is None or ev.fraction <= hi_b)
            return Verdict.HOLDS if inside else Verdict.FAILS
        lo, hi = self._interval
        return decide(lo, hi, self.minimum, self.maximum)

    @property
    def ok(self) -> bool:
        """The tolerance HOLDS."""
        return self.verdict is Verdict.HOLDS

    @property
    def failed(self) -> bool:
        """The tolerance FAILS."""
        return self.verdict is Verdict.FAILS

    def estimate_needed(self) -> int | None:
        """Rough games per setting to decide this tolerance (None when decided or not estimable)."""
        if self.verdict is not Verdict.UNDECIDED:
            return None
        lo, hi = self._interval
        return games_to_decide(self.measured, lo, hi, self.minimum, self.maximum, self.games)

    def allowed(self) -> str:
        """The allowed range as a reader says it: "0.08..0.8", "at least 0.6", "at most 3" or "any value"
        (an exact bound as written in the spec, every digit kept)."""
        lo = hi = ""
        if self.minimum is not None:
            lo = exact_text(self.exact_minimum) if self.exact_minimum is not None else f"{self.minimum:g}"
        if self.maximum is not None:
            hi = exact_text(self.exact_maximum) if self.exact_maximum is not None else f"{self.maximum:g}"
        if lo and hi:
            return f"{lo}..{hi}"
        return f"at least {lo}" if lo else f"at most {hi}" if hi else "any value"

    def describe(self) -> str:
        """A sentence: verdict, measured value, interval with its level and method, bound, spec key."""
        where = f" [{self.spec_key}]" if self.spec_key else ""
        if self.low is not None and self.high is not None:
            iv = f" ({_level(self.confidence)} {self.method} interval {self.low:.4g}..{self.high:.4g})"
        else:
            iv = " (exact)"
        games = f" after {self.games} games per setting" if self.games else ""
        more = ""
        if self.verdict is Verdict.UNDECIDED:
            n = self.needed_games if self.needed_games is not None else self.estimate_needed()
            more = f"; about {n} games per setting would decide it" if n else "; sits on its bound"
        shown = self.shown or f"{self.measured:.4g}"
        return (
            f"{self.name}: {self.verdict.value}{games}: measured {shown}{iv}, allowed {self.allowed()}{where}"
            f"{more}"
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict: verdict, estimate, interval, method, bound, games and the evidence."""
        ev = asdict(self.evidence)
        ev["kind"] = type(self.evidence).__name__
        if ev.get("fraction") is not None:  # exact rationals as their text, "1/4165"
            ev["fraction"] = str(ev["fraction"])
        return {
            "name": self.name,
            "verdict": self.verdict.value,
            "ok": self.ok,
            "measured": self.measured,
            "low": self.low,
            "high": self.high,
            "confidence": self.confidence,
            "method": self.method,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "spec_key": self.spec_key,
            "settings": list(self.settings),
            "games": self.games,
            "look": self.look,
            "needed_games": self.needed_games if self.needed_games is not None else self.estimate_needed(),
            **(
                {
                    "exact_minimum": None if self.exact_minimum is None else str(self.exact_minimum),
                    "exact_maximum": None if self.exact_maximum is None else str(self.exact_maximum),
                }
                if self.exact_minimum is not None or self.exact_maximum is not None
                else {}
            ),
            "evidence": ev,
        }


def exact_text(v: Fraction) -> str:
    """An exact bound as a reader wrote it: a decimal where it has one (0.9, 0.0025), else the fraction
    (1/4165)."""
    den, twos, fives = v.denominator, 0, 0
    while den % 2 == 0:
        den, twos = den // 2, twos + 1
    while den % 5 == 0:
        den, fives = den // 5, fives + 1
    places = max(twos, fives)
    if den != 1 or places > 30:
        return str(v)
    if places == 0:
        return str(v.numerator)
    scaled = abs(v.numerator) * 10**places // v.denominator
    whole, frac = divmod(scaled, 10**places)
    return f"{'-' if v < 0 else ''}{whole}.{frac:0{places}d}".rstrip("0").rstrip(".")


def _level(confidence: float) -> str:
    """A confidence level as a short percentage, e.g. 0.9999 -> "99.99%"."""
    return f"{confidence * 100:.6g}%"


def bounded(
    name: str, evidence: Evidence, bound: Any, spec_key: str, settings: tuple[str, ...] = ()
) -> Tolerance:
    """THE way games build a tolerance: a spec Bound (anything with .min / .max), the evidence measured
    against it, the spec key it lives under and the settings the evidence came from. Ends written exactly
    (Fraction) are kept as they are for exact evidence, and as floats for every reader of minimum /
    maximum."""
    lo, hi = bound.min, bound.max
    return Tolerance(
        name,
        evidence,
        None if lo is None else float(lo),
        None if hi is None else float(hi),
        spec_key,
        tuple(settings),
        exact_minimum=lo if isinstance(lo, Fraction) else None,
        exact_maximum=hi if isinstance(hi, Fraction) else None,
    )


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


@dataclass(frozen=True)
class Headline:
    """The small standard summary every game gives per player count (`check --report` compares the house-rule
    switches with it): what a reader asks first of a game at that count."""

    policy: str
    """The policy at every seat of the games measured (e.g. "greedy")."""
    score_mean: float
    """Mean score (of the player named by `score_label` when the mean of all would say nothing)."""
    seat_shares: Sequence[float]
    """Each seat's win share on like tables (the same policy at every seat), seat 0 first."""
    game_length: float
    """Mean length of a game, in `length_unit`."""
    length_unit: str
    """What `game_length` counts ("turns", "rounds", "turns per round")."""
    score_label: str = ""
    """Whose score `score_mean` is if not all players' (e.g. "winner's round score"); empty: all players'."""

    def to_json(self) -> dict[str, Any]:
        """The JSON-able fields (score_label only when set)."""
        out: dict[str, Any] = {
            "policy": self.policy,
            "score_mean": self.score_mean,
            "seat_shares": list(self.seat_shares),
            "game_length": self.game_length,
            "length_unit": self.length_unit,
        }
        if self.score_label:
            out["score_label"] = self.score_label
        return out


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
    fixes: list[str] = field(default_factory=list)
    """What would make the failing tolerances hold, as the game can tell (a data kit: changes of its cards'
    counts, games/deck/fixes.py): lines shown right after the failures, a heading line first. In the JSON
    only when there are some."""

    confidence: float = 0.99
    """Family-wise confidence of all the verdicts together (the spec's balance.confidence)."""
    looks: list[int] = field(default_factory=list)
    """Games per setting at each look taken (the sequential plan as played)."""
    headline: dict[str, Headline] = field(default_factory=dict)
    """Per player count ("2", "3", ...): the standard summary every game fills."""
    switches: list[dict[str, Any]] = field(default_factory=list)
    """`check --report`: the effect of flipping each house-rule switch (filled by engine/switches.py for the
    HTML report only; not in the JSON, which stays the same for a seed with or without --report)."""

    @property
    def all_exact(self) -> bool:
        """Whether every verdict rests on counted evidence (`Exact`): no game was sampled for any of them, so
        the games per setting, the seed and the confidence say nothing about them."""
        return bool(self.tolerances) and all(isinstance(t.evidence, Exact) for t in self.tolerances)

    @property
    def verdict(self) -> Verdict:
        """FAILS if any tolerance fails, else UNDECIDED if any is undecided, else HOLDS."""
        vs = {t.verdict for t in self.tolerances}
        if Verdict.FAILS in vs:
            return Verdict.FAILS
        if Verdict.UNDECIDED in vs:
            return Verdict.UNDECIDED
        return Verdict.HOLDS

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
            "verdict": self.verdict.value,
            "confidence": self.confidence,
            "looks": list(self.looks),
            "tolerances": [t.to_json() for t in self.tolerances],
            "headline": {n: h.to_json() for n, h in self.headline.items()},
            "figures": self.figures,
            "tables": [asdict(t) for t in self.tables],
            "notes": list(self.notes),
            **({"fixes": list(self.fixes)} if self.fixes else {}),
        }
