"""Balance statistics checked against hand-derived values, numpy and scipy on known data."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from generator.engine.stats import (
    Z95,
    average_ranks,
    average_ranks_rows,
    hist_mean_sd,
    hist_percentiles,
    mean_ci,
    spearman,
    wilson,
)


def test_z95_is_the_normal_quantile() -> None:
    assert Z95 == pytest.approx(sps.norm.ppf(0.975), abs=1e-12)


def test_wilson_by_hand_with_z_2() -> None:
    # closed form: (s + z^2/2 +- z sqrt(s(n-s)/n + z^2/4)) / (n + z^2); s=8, n=10, z=2 -> (10 +- 2 sqrt(2.6))
    # / 14
    p, low, high = wilson(8, 10, confidence=2 * sps.norm.cdf(2.0) - 1)  # the confidence whose z is 2
    assert p == 0.8
    assert low == pytest.approx((10 - 2 * math.sqrt(2.6)) / 14, abs=1e-12)
    assert high == pytest.approx((10 + 2 * math.sqrt(2.6)) / 14, abs=1e-12)


def test_wilson_zero_successes_upper_end_by_hand() -> None:
    # s = 0: the interval is [0, z^2 / (n + z^2)]
    p, low, high = wilson(0, 10)
    assert (p, low) == (0.0, 0.0)
    assert high == pytest.approx(Z95**2 / (10 + Z95**2), abs=1e-12)
    p, low, high = wilson(10, 10)
    assert (p, high) == (1.0, 1.0)
    assert low == pytest.approx(10 / (10 + Z95**2), abs=1e-12)


@given(n=st.integers(1, 5000), frac=st.floats(0, 1))
@settings(max_examples=60, deadline=None)
def test_wilson_matches_scipy(n: int, frac: float) -> None:
    k = round(frac * n)
    ci = sps.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    p, low, high = wilson(k, n)
    assert p == k / n
    assert low == pytest.approx(ci.low, abs=1e-9)
    assert high == pytest.approx(ci.high, abs=1e-9)
    assert 0.0 <= low <= p <= high <= 1.0


def test_wilson_empty_is_nan() -> None:
    assert all(math.isnan(x) for x in wilson(0, 0))


def test_mean_ci_matches_numpy() -> None:
    data = np.array([3, 7, 7, 2, 9, 4, 4, 4, 8, 1], dtype=float)
    mean, sd, low, high = mean_ci(data.sum(), (data**2).sum(), len(data))
    assert mean == pytest.approx(data.mean(), abs=1e-12)
    assert sd == pytest.approx(data.std(ddof=1), abs=1e-12)
    half = sps.norm.ppf(0.975) * data.std(ddof=1) / math.sqrt(len(data))
    assert (low, high) == (
        pytest.approx(data.mean() - half, abs=1e-9),
        pytest.approx(data.mean() + half, abs=1e-9),
    )
    assert all(math.isnan(x) for x in mean_ci(0, 0, 0))


hist_st = st.lists(st.integers(0, 30), min_size=1, max_size=25).filter(lambda h: sum(h) > 0)


@given(
    hist=hist_st,
    offset=st.integers(-10, 10),
    qs=st.lists(
        st.one_of(st.integers(0, 100), st.sampled_from([2.5, 12.5, 33.3, 97.5])), min_size=1, max_size=6
    ),
)
@settings(max_examples=100, deadline=None)
def test_hist_percentiles_match_numpy_on_expanded_data(hist: list[int], offset: int, qs: list[float]) -> None:
    """Nearest rank = numpy's inverted_cdf (Hyndman & Fan definition 1) on the values written out."""
    data = np.repeat(np.arange(len(hist)) + offset, hist)
    got = hist_percentiles(np.array(hist), qs, offset=offset)
    expected = [float(np.percentile(data, q, method="inverted_cdf")) for q in qs]
    assert got == expected


def test_hist_percentiles_exact_ranks() -> None:
    # values 1..100 once each: the q-th percentile is q (q=7 once came out as 8 through 7/100*100 =
    # 7.000...01)
    hist = np.array([0] + [1] * 100)
    assert hist_percentiles(hist, [1, 7, 29, 50, 57, 100]) == [1.0, 7.0, 29.0, 50.0, 57.0, 100.0]
    assert hist_percentiles(hist, [0]) == [1.0]


def test_hist_percentiles_edges() -> None:
    assert all(math.isnan(x) for x in hist_percentiles(np.zeros(4), [50, 90]))
    with pytest.raises(ValueError, match="percentile must be in 0..100, got 101"):
        hist_percentiles(np.ones(3), [101])


@given(hist=hist_st.filter(lambda h: sum(h) > 1), offset=st.integers(-10, 10))
@settings(max_examples=60, deadline=None)
def test_hist_mean_sd_matches_numpy(hist: list[int], offset: int) -> None:
    data = np.repeat(np.arange(len(hist)) + offset, hist).astype(float)
    mean, sd = hist_mean_sd(np.array(hist), offset=offset)
    assert mean == pytest.approx(data.mean(), abs=1e-9)
    assert sd == pytest.approx(data.std(ddof=1), abs=1e-9)


def test_hist_mean_sd_empty_is_nan() -> None:
    assert all(math.isnan(x) for x in hist_mean_sd(np.zeros(5)))


def test_spearman_by_hand() -> None:
    assert spearman([1, 2, 3, 4], [10, 20, 30, 45]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # ranks x = 1,2,3,4,5 ; y = 2,1,4,3,5 -> d^2 = 1+1+1+1+0 = 4; rho = 1 - 6*4 / (5*24) = 0.8
    assert spearman([1, 2, 3, 4, 5], [20, 10, 40, 30, 50]) == pytest.approx(0.8)
    assert math.isnan(spearman([1], [2]))


def test_spearman_is_scipys_to_the_last_bit() -> None:
    """The rank correlation is computed without scipy.stats (its import cost a Raindrops check 0.3-0.5 s):
    it must equal scipy's exactly, ties, constant columns, NaN and lists included."""
    import warnings

    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(7)
    for trial in range(600):
        n = int(rng.integers(2, 40))
        x = rng.integers(0, 4, n).astype(float) if trial % 2 else rng.normal(size=n)
        y = np.round(x * 0.3 + rng.normal(size=n), 1) if trial % 3 else rng.integers(0, 3, n).astype(float)
        if trial % 50 == 0:
            x[-1] = np.nan
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = float(stats.spearmanr(x, y).statistic)
        got = spearman(list(x), list(y))
        assert (math.isnan(want) and math.isnan(got)) or got == want, (x, y, got, want)


def test_ranks_are_scipys_rankdata() -> None:
    """The bootstrap of a rank correlation ranks its replicates without scipy.stats: the same floats as
    scipy.stats.rankdata, ties, NaN rows and wide rows (ranked one at a time) included."""
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(11)
    for trial in range(300):
        shape = (int(rng.integers(1, 30)), 300 if trial % 60 == 0 else int(rng.integers(1, 30)))
        a = rng.integers(0, 4, shape).astype(float) if trial % 2 else rng.normal(size=shape)
        if trial % 7 == 0:
            a[0, -1] = np.nan
        np.testing.assert_array_equal(average_ranks_rows(a), stats.rankdata(a, axis=1))
        if not np.isnan(a[-1]).any():
            np.testing.assert_array_equal(average_ranks(a[-1]), stats.rankdata(a[-1]))
