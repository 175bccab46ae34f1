"""From measured evidence to a statistical verdict: an interval at any error rate, and
HOLDS / FAILS / UNDECIDED.

A tolerance carries its EVIDENCE (what was counted, not a finished interval): a proportion (successes of n,
optionally scaled, e.g. a seat's win share times the player count), a mean (n, mean, sd), a difference of two
means, a rank correlation (rho, n), the extreme of several of those (largest minus smallest rate, largest over
smallest, largest distance from a fair value), or an exact value. This module turns evidence into a two-sided
interval at a given alpha and names the method:

- proportion: Wilson score interval (the arithmetic of statsmodels `proportion_confint`, method "wilson");
- mean: Student t interval; difference of means: Welch t interval (scipy.special `stdtrit`, what `t.ppf`
  calls);
- rank correlation: Fisher z with the Bonett-Wright standard error sqrt((1 + rho^2 / 2) / (n - 3));
- extreme of k parts: each part's interval at alpha / k (Bonferroni), then the range of the extreme over the
  box of part intervals (exact interval arithmetic, so the joint coverage carries over);
- exact: the value itself (no sampling noise).

`decide(low, high, minimum, maximum)`: HOLDS when the interval lies inside the allowed range, FAILS when it
lies entirely outside, UNDECIDED otherwise. The sequential driver (engine/sequential.py) chooses alpha so that
the verdicts are simultaneous over every tolerance of a kit and every planned look.

The quantiles come from scipy.special, imported when an interval is first asked for (an exact value needs
none), not from scipy.stats or statsmodels (pandas): importing those took 0.8 s of every `pnpkit check`. A
check imports scipy.special while its workers play the first games (`load_quantiles`); its dry runs, whose
reports are thrown away, take rough quantiles from the standard library (`rough_quantiles`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Literal


class Verdict(str, Enum):
    """The decision for one tolerance."""

    HOLDS = "HOLDS"
    FAILS = "FAILS"
    UNDECIDED = "UNDECIDED"


@dataclass(frozen=True)
class Proportion:
    """successes out of n trials (successes may be fractional: shared wins split); the measured value is
    scale * successes / n + shift (e.g. a seat's win share x players, or share - 1/players)."""

    successes: float
    n: float
    scale: float = 1.0
    shift: float = 0.0

    def estimate(self) -> float:
        """The measured value."""
        return self.scale * (self.successes / self.n) + self.shift if self.n > 0 else math.nan


@dataclass(frozen=True)
class Mean:
    """A sample mean: n observations, their mean and sample sd."""

    n: float
    mean: float
    sd: float

    def estimate(self) -> float:
        """The measured value."""
        return self.mean if self.n > 0 else math.nan

    @classmethod
    def of(cls, x: Sequence[float] | object) -> Mean:
        """From observations: their count, mean (nan for none) and sample sd (0 for fewer than two)."""
        import numpy as np

        xa = np.asarray(x, dtype=np.float64)
        n = xa.size
        return cls(n, float(xa.mean()) if n else math.nan, float(xa.std(ddof=1)) if n > 1 else 0.0)

    @classmethod
    def per_table(cls, scores: Sequence[Sequence[float]] | object) -> Mean:
        """Mean score per player from a games x seats array, one observation per game (the table's average):
        the players of one game are not independent."""
        import numpy as np

        return cls.of(np.asarray(scores, dtype=np.float64).mean(axis=1))


@dataclass(frozen=True)
class MeanDifference:
    """Mean of `a` minus mean of `b` (independent samples)."""

    a: Mean
    b: Mean

    def estimate(self) -> float:
        """The measured value."""
        return self.a.estimate() - self.b.estimate()


@dataclass(frozen=True)
class RankCorrelation:
    """Spearman's rho over n pairs."""

    rho: float
    n: int

    def estimate(self) -> float:
        """The measured value."""
        return self.rho


@dataclass(frozen=True)
class Ratio:
    """A ratio of two per-game totals, sum(x) / sum(y) over n games (e.g. a score part's share of all points):
    the per-game means, variances and covariance of x and y, for the delta method."""

    n: float
    mean_x: float
    mean_y: float
    var_x: float
    var_y: float
    cov_xy: float

    @classmethod
    def of(cls, x: Sequence[float] | object, y: Sequence[float] | object) -> Ratio:
        """From per-game arrays x and y (same length)."""
        import numpy as np

        xa = np.asarray(x, dtype=np.float64)
        ya = np.asarray(y, dtype=np.float64)
        n = xa.size
        if n < 2:
            return cls(
                n, float(xa.mean()) if n else math.nan, float(ya.mean()) if n else math.nan, 0.0, 0.0, 0.0
            )
        c = np.cov(xa, ya, ddof=1)
        return cls(n, float(xa.mean()), float(ya.mean()), float(c[0, 0]), float(c[1, 1]), float(c[0, 1]))

    def estimate(self) -> float:
        """The measured value."""
        return self.mean_x / self.mean_y if self.n > 0 and self.mean_y != 0 else math.nan


@dataclass(frozen=True)
class RankCorrelationOfMeans:
    """Spearman's rho between fixed values x (e.g. printed card points) and measured per-item estimates
    (e.g. each card's mean drops to complete), with each estimate's standard error. The noise is in the
    estimates, so the interval comes from a parametric bootstrap of them (seeded, so deterministic): each
    replicate redraws every estimate from N(estimate, se^2) and recomputes rho; the interval is normal on the
    Fisher z of the replicates."""

    x: tuple[float, ...]
    estimates: tuple[float, ...]
    ses: tuple[float, ...]
    replicates: int = 2000

    def estimate(self) -> float:
        """The measured value."""
        from generator.engine.stats import spearman

        if len(self.x) < 3:
            return math.nan
        return spearman(self.x, self.estimates)


ExtremeKind = Literal["range", "ratio", "max_distance"]


@dataclass(frozen=True)
class Extreme:
    """A statistic of several parts: "range" = largest - smallest, "ratio" = largest / smallest,
    "max_distance" = largest |part - centre|."""

    kind: ExtremeKind
    parts: tuple[Proportion | Mean, ...]
    centre: float = 0.0

    def estimate(self) -> float:
        """The measured value."""
        v = [p.estimate() for p in self.parts]
        if not v or any(math.isnan(x) for x in v):
            return math.nan
        if self.kind == "range":
            return max(v) - min(v)
        if self.kind == "ratio":
            return max(v) / min(v) if min(v) > 0 else math.inf
        return max(abs(x - self.centre) for x in v)


@dataclass(frozen=True)
class Exact:
    """A value without sampling noise (counted over every case, or fixed by the spec)."""

    value: float
    fraction: Fraction | None = None
    """The value as an exact rational where one was counted (decided against exact bounds unrounded)."""
    shown: str = ""
    """How a report writes the value, e.g. "624 / 2,598,960 (0.0240 %)" (empty: the float)."""

    def estimate(self) -> float:
        """The measured value."""
        return self.value


Evidence = (
    Proportion | Mean | MeanDifference | RankCorrelation | RankCorrelationOfMeans | Ratio | Extreme | Exact
)

METHODS: dict[type, str] = {
    Proportion: "Wilson score",
    Mean: "t",
    MeanDifference: "Welch t",
    RankCorrelation: "Fisher z (Bonett-Wright SE)",
    RankCorrelationOfMeans: "parametric bootstrap of the estimates, normal on Fisher z",
    Ratio: "ratio of means (delta method, t)",
    Exact: "exact",
}


def method(ev: Evidence) -> str:
    """The name of the interval method used for this evidence."""
    if isinstance(ev, Extreme):
        inner = sorted({METHODS[type(p)] for p in ev.parts})
        return f"{ev.kind} of {len(ev.parts)} ({', '.join(inner)}; Bonferroni over parts)"
    return METHODS[type(ev)]


_ROUGH: ContextVar[bool] = ContextVar("rough_quantiles", default=False)


@contextmanager
def rough_quantiles() -> Iterator[None]:
    """Within this block every quantile is the standard normal's, from the standard library (no scipy
    import; a t quantile is taken as the normal one). Only for reports nobody reads: a check's dry run builds
    its report to learn which games it asks for, and with rough quantiles it needs no scipy, so the first
    games start 0.2 s sooner; the real reports are built with scipy's quantiles."""
    token = _ROUGH.set(True)
    try:
        yield
    finally:
        _ROUGH.reset(token)


def _rough_quantile(p: float) -> float:
    from statistics import NormalDist

    if not 0.0 < p < 1.0:  # scipy's answers at and past the ends (nan stays nan)
        return -math.inf if p == 0.0 else math.inf if p == 1.0 else math.nan
    return NormalDist().inv_cdf(p)


def load_quantiles() -> None:
    """Import scipy.special now, not when the first interval is asked for: a check calls this while its
    workers play the first games, when this process would otherwise wait."""
    import scipy.special  # noqa: F401


def _t_quantile(p: float, df: float) -> float:
    """The p quantile of Student's t with df degrees of freedom (scipy's `t.ppf`)."""
    if _ROUGH.get():
        return _rough_quantile(p)
    from scipy.special import stdtrit

    return float(stdtrit(df, p))


def _normal_quantile(p: float) -> float:
    """The p quantile of the standard normal (scipy's `norm.ppf`)."""
    if _ROUGH.get():
        return _rough_quantile(p)
    from scipy.special import ndtri

    return float(ndtri(p))


def wilson_interval(successes: float, n: float, alpha: float) -> tuple[float, float]:
    """The two-sided 1 - alpha Wilson score interval of successes / n, clipped to [0, 1]: statsmodels'
    `proportion_confint(method="wilson")`, operation for operation, so the bounds are the same floats."""
    crit = -_normal_quantile(alpha / 2)
    q = successes / n
    crit2 = crit**2
    denom = 1 + crit2 / n
    center = (q + crit2 / (2 * n)) / denom
    dist = crit * math.sqrt(q * (1.0 - q) / n + crit2 / (4.0 * n**2))
    dist /= denom
    return min(max(center - dist, 0.0), 1.0), min(max(center + dist, 0.0), 1.0)


def _t_half(sd: float, n: float, alpha: float) -> float:
    if n < 2:
        return math.inf
    return _t_quantile(1 - alpha / 2, n - 1) * sd / math.sqrt(n)


def interval(ev: Evidence, alpha: float) -> tuple[float, float]:
    """Two-sided 1 - alpha interval of the evidence's measured value; (nan, nan) when nothing was measured."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if isinstance(ev, Exact):
        return (ev.value, ev.value)
    if isinstance(ev, Proportion):
        if ev.n <= 0:
            return (math.nan, math.nan)
        k = min(max(ev.successes, 0.0), ev.n)
        lo, hi = wilson_interval(k, ev.n, alpha)
        p = k / ev.n
        lo, hi = min(p, max(0.0, float(lo))), max(p, min(1.0, float(hi)))  # rounding never excludes p
        x, y = ev.scale * lo + ev.shift, ev.scale * hi + ev.shift
        return (min(x, y), max(x, y))
    if isinstance(ev, Mean):
        if ev.n <= 0:
            return (math.nan, math.nan)
        h = _t_half(ev.sd, ev.n, alpha)
        return (ev.mean - h, ev.mean + h)
    if isinstance(ev, MeanDifference):
        a, b = ev.a, ev.b
        if a.n < 2 or b.n < 2:
            return (-math.inf, math.inf) if a.n > 0 and b.n > 0 else (math.nan, math.nan)
        va, vb = a.sd**2 / a.n, b.sd**2 / b.n
        se = math.sqrt(va + vb)
        d = a.mean - b.mean
        if se == 0:
            return (d, d)
        df = (va + vb) ** 2 / ((va**2 / (a.n - 1) if va else 0.0) + (vb**2 / (b.n - 1) if vb else 0.0))
        h = _t_quantile(1 - alpha / 2, df) * se
        return (d - h, d + h)
    if isinstance(ev, Ratio):
        if ev.n < 2 or ev.mean_y == 0:
            return (math.nan, math.nan) if ev.n == 0 else (-math.inf, math.inf)
        r = ev.mean_x / ev.mean_y
        var = max(0.0, ev.var_x - 2 * r * ev.cov_xy + r * r * ev.var_y) / (ev.n * ev.mean_y**2)
        h = _t_quantile(1 - alpha / 2, ev.n - 1) * math.sqrt(var)
        return (r - h, r + h)
    if isinstance(ev, RankCorrelationOfMeans):
        return _bootstrap_rank(ev, alpha)
    if isinstance(ev, RankCorrelation):
        if ev.n <= 3 or math.isnan(ev.rho):
            return (-1.0, 1.0) if not math.isnan(ev.rho) else (math.nan, math.nan)
        r = min(max(ev.rho, -0.999999), 0.999999)
        se = math.sqrt((1 + r * r / 2) / (ev.n - 3))
        z = math.atanh(r)
        q = _normal_quantile(1 - alpha / 2)
        return (math.tanh(z - q * se), math.tanh(z + q * se))
    # Extreme: each part at alpha / k, then exact interval arithmetic over the box of part intervals
    k = len(ev.parts)
    if k == 0:
        return (math.nan, math.nan)
    ivs = [interval(p, alpha / k) for p in ev.parts]
    if any(math.isnan(lo) or math.isnan(hi) for lo, hi in ivs):
        return (math.nan, math.nan)
    los = [lo for lo, _ in ivs]
    his = [hi for _, hi in ivs]
    if ev.kind == "range":
        return (max(0.0, max(los) - min(his)), max(his) - min(los))
    if ev.kind == "ratio":
        lo_r = max(1.0, max(los) / min(his)) if min(his) > 0 else math.inf
        hi_r = max(his) / min(los) if min(los) > 0 else math.inf
        return (lo_r, hi_r)
    c = ev.centre
    near = [0.0 if lo <= c <= hi else min(abs(lo - c), abs(hi - c)) for lo, hi in ivs]
    far = [max(abs(lo - c), abs(hi - c)) for lo, hi in ivs]
    return (max(near), max(far))


def _bootstrap_rank(ev: RankCorrelationOfMeans, alpha: float) -> tuple[float, float]:
    import numpy as np

    from generator.engine.stats import average_ranks, average_ranks_rows

    k = len(ev.x)
    if k < 4:
        return (math.nan, math.nan)
    rng = np.random.default_rng(np.random.SeedSequence([0x52484F, k, ev.replicates]))
    est = np.asarray(ev.estimates, dtype=np.float64)
    se = np.asarray(ev.ses, dtype=np.float64)
    draws = est[None, :] + rng.standard_normal((ev.replicates, k)) * se[None, :]
    x = np.asarray(ev.x, dtype=np.float64)
    rx = np.full(k, np.nan) if np.isnan(x).any() else average_ranks(x)  # scipy.stats.rankdata's ranks
    ry = average_ranks_rows(draws)
    rx = (rx - rx.mean()) / (rx.std() or 1.0)
    ry = (ry - ry.mean(axis=1, keepdims=True)) / np.where(
        ry.std(axis=1, keepdims=True) > 0, ry.std(axis=1, keepdims=True), 1.0
    )
    rho = np.clip((ry * rx[None, :]).mean(axis=1), -0.999999, 0.999999)
    z = np.arctanh(rho)
    centre = float(z.mean())  # the replicates' own centre: the observed rho may sit at +-1 with few items
    q = _normal_quantile(1 - alpha / 2)
    sd = float(z.std(ddof=1))
    return (math.tanh(centre - q * sd), math.tanh(centre + q * sd))


def decide(low: float, high: float, minimum: float | None, maximum: float | None) -> Verdict:
    """HOLDS: [low, high] inside [minimum, maximum]; FAILS: entirely outside; else UNDECIDED."""
    if math.isnan(low) or math.isnan(high):
        return Verdict.UNDECIDED
    if (minimum is not None and high < minimum) or (maximum is not None and low > maximum):
        return Verdict.FAILS
    if (minimum is None or low >= minimum) and (maximum is None or high <= maximum):
        return Verdict.HOLDS
    return Verdict.UNDECIDED


def games_to_decide(
    estimate: float, low: float, high: float, minimum: float | None, maximum: float | None, games: int
) -> int | None:
    """Rough games per setting an undecided tolerance needs: the interval's half width shrinks like
    1/sqrt(games), and it must shrink below the distance from the estimate to the nearest bound.
    None when the estimate sits exactly on a bound (no finite number of games decides it)."""
    edges = [b for b in (minimum, maximum) if b is not None]
    if not edges or any(math.isnan(x) for x in (estimate, low, high)) or games <= 0:
        return None
    d = min(abs(estimate - b) for b in edges)
    h = max(high - estimate, estimate - low)
    if d <= 0 or not math.isfinite(h):
        return None
    return max(games, math.ceil(games * (h / d) ** 2))


def bonferroni_alpha(confidence: float, tolerances: int, looks: int) -> float:
    """Per-interval alpha so that all `tolerances` x `looks` intervals hold together with `confidence`."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return (1 - confidence) / max(1, tolerances * looks)


def planned_looks(first: int, cap: int) -> list[int]:
    """Games per setting at each look: first, 2 x first, 4 x first, ... and cap (never beyond cap)."""
    if first < 1:
        raise ValueError(f"first batch must be >= 1 game, got {first}")
    looks = [first]
    while looks[-1] < cap:
        looks.append(min(cap, looks[-1] * 2))
    return looks


def combine_means(parts: Sequence[Mean]) -> Mean:
    """Pool independent samples into one Mean (n-weighted mean, pooled sd about the grand mean)."""
    n = sum(p.n for p in parts)
    if n <= 0:
        return Mean(0, math.nan, math.nan)
    m = sum(p.n * p.mean for p in parts) / n
    ss = sum((p.n - 1) * p.sd**2 + p.n * (p.mean - m) ** 2 for p in parts)
    return Mean(n, m, math.sqrt(ss / max(1.0, n - 1)))
