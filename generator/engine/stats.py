"""Statistics for balance reports: intervals, percentiles from histograms, rank correlation."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

Z95 = 1.959963984540054


def wilson(successes: float, n: float, confidence: float = 0.95) -> tuple[float, float, float]:
    """Share and its Wilson score interval (statsmodels' `proportion_confint` arithmetic, the one the verdicts
    use, without importing statsmodels and pandas): (p, low, high); (nan, nan, nan) when n == 0."""
    if n <= 0:
        return (math.nan, math.nan, math.nan)
    from generator.engine.verdict import wilson_interval

    p = successes / n
    low, high = wilson_interval(successes, n, 1.0 - confidence)
    # clamp so that rounding never puts p outside its own interval (0/n must give low == 0 exactly)
    return (p, min(p, max(0.0, float(low))), max(p, min(1.0, float(high))))


def mean_ci(total: float, total_sq: float, n: float, z: float = Z95) -> tuple[float, float, float, float]:
    """Mean, sd and the mean's 95% interval from running sums: (mean, sd, low, high)."""
    if n <= 0:
        return (math.nan, math.nan, math.nan, math.nan)
    mean = total / n
    var = max(0.0, total_sq / n - mean * mean) * (n / (n - 1) if n > 1 else 1.0)
    sd = math.sqrt(var)
    half = z * sd / math.sqrt(n)
    return (mean, sd, mean - half, mean + half)


def hist_percentiles(hist: np.ndarray, qs: Sequence[float], offset: int = 0) -> list[float]:
    """Percentiles (0..100) of integer values given as a histogram (hist[i] = count of value i + offset)."""
    hist = np.asarray(hist, dtype=np.int64)
    n = int(hist.sum())
    if n == 0:
        return [math.nan for _ in qs]
    cum = np.cumsum(hist)
    out = []
    for q in qs:
        if not 0 <= q <= 100:
            raise ValueError(f"percentile must be in 0..100, got {q}")
        # nearest rank; q * n / 100 (not q / 100 * n) so that e.g. q=7, n=100 gives rank 7, not 8
        rank = max(1, math.ceil(round(q * n / 100.0, 9)))
        out.append(float(int(np.searchsorted(cum, rank)) + offset))
    return out


def hist_mean_sd(hist: np.ndarray, offset: int = 0) -> tuple[float, float]:
    """Mean and sample sd of integer values given as a histogram."""
    hist = np.asarray(hist, dtype=np.float64)
    n = hist.sum()
    if n == 0:
        return (math.nan, math.nan)
    values = np.arange(hist.shape[0]) + offset
    mean = float((hist * values).sum() / n)
    var = float((hist * (values - mean) ** 2).sum() / max(1.0, n - 1))
    return (mean, math.sqrt(var))


def average_ranks(a: np.ndarray) -> np.ndarray:
    """Ranks 1..n of a 1-D array, tied values sharing the average of their ranks (scipy.stats.rankdata's
    'average': the same float values, as every rank is a whole or half number)."""
    order = np.argsort(a, kind="stable")
    s = a[order]
    starts = np.flatnonzero(np.concatenate(([True], s[:-1] != s[1:])))
    counts = np.diff(starts, append=a.size)
    ranks = np.empty(a.size, dtype=np.float64)
    ranks[order] = np.repeat(starts + 1 + (counts - 1) / 2, counts)
    return ranks


def average_ranks_rows(a: np.ndarray) -> np.ndarray:
    """`average_ranks` of each row of a 2-D array, a row holding a NaN ranked NaN throughout (as
    scipy.stats.rankdata(a, axis=1) ranks them), by one sort of every row: a tie group spanning sorted places
    i..j gets (i + j) / 2 + 1, exact in floats. (Counting smaller and equal elements took a row x row cube:
    0.04 s for the 2,000 replicates of 54 memory cards at every look of a Raindrops check.)"""
    a = np.asarray(a, dtype=np.float64)
    rows, n = a.shape
    if a.size == 0:
        return a.copy()
    order = np.argsort(a, axis=1)  # any order within a tie group: its places share one rank
    s = np.take_along_axis(a, order, axis=1)
    place = np.broadcast_to(np.arange(n), (rows, n))
    starts = np.ones((rows, n), dtype=bool)  # a sorted place that opens a tie group
    starts[:, 1:] = s[:, 1:] != s[:, :-1]
    ends = np.ones((rows, n), dtype=bool)  # one that closes it
    ends[:, :-1] = starts[:, 1:]
    first = np.maximum.accumulate(np.where(starts, place, 0), axis=1)
    last = np.minimum.accumulate(np.where(ends, place, n - 1)[:, ::-1], axis=1)[:, ::-1]
    ranks = np.empty((rows, n), dtype=np.float64)
    np.put_along_axis(ranks, order, (first + last) / 2 + 1, axis=1)
    ranks[np.isnan(a).any(axis=1)] = np.nan
    return ranks


def spearman(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float:
    """Spearman rank correlation (average ranks for ties), computed as scipy.stats.spearmanr computes it
    (ranks of the two columns, numpy's correlation matrix) to the last bit, without importing scipy.stats
    (0.3-0.5 s of a Raindrops check); NaN for fewer than 2 pairs, a constant input or a NaN in either."""
    if len(x) < 2:
        return math.nan
    a = np.column_stack((np.asarray(x, dtype=float), np.asarray(y, dtype=float)))
    if (a[:, 0][0] == a[:, 0]).all() or (a[:, 1][0] == a[:, 1]).all() or np.isnan(a).any():
        return math.nan
    ranked = np.apply_along_axis(average_ranks, 0, a)
    return float(np.corrcoef(ranked, rowvar=False)[1, 0])
