"""Evidence -> interval -> verdict: each method against scipy / hand-derived values, the three verdicts, and
the family-wise error rate of the simultaneous intervals (simulated)."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from scipy import stats as sps

from generator.engine.report import Tolerance, bounded
from generator.engine.verdict import (
    Exact,
    Extreme,
    Mean,
    MeanDifference,
    Proportion,
    RankCorrelation,
    RankCorrelationOfMeans,
    Ratio,
    Verdict,
    bonferroni_alpha,
    combine_means,
    decide,
    games_to_decide,
    interval,
    method,
    planned_looks,
)
from generator.spec.base import Bound


def test_proportion_is_wilson_and_scales() -> None:
    ci = sps.binomtest(37, 120).proportion_ci(confidence_level=0.99, method="wilson")
    lo, hi = interval(Proportion(37, 120), 0.01)
    assert (lo, hi) == pytest.approx((ci.low, ci.high), abs=1e-9)
    # a seat's share x players: the interval scales with it; share - 1/3 shifts it
    assert interval(Proportion(37, 120, scale=3.0), 0.01) == pytest.approx(
        (3 * ci.low, 3 * ci.high), abs=1e-9
    )
    assert interval(Proportion(37, 120, shift=-1 / 3), 0.01) == pytest.approx(
        (ci.low - 1 / 3, ci.high - 1 / 3)
    )
    assert method(Proportion(1, 2)) == "Wilson score"


def test_mean_is_student_t() -> None:
    x = np.random.default_rng(1).normal(40, 7, size=57)
    want = sps.t.interval(0.999, len(x) - 1, loc=x.mean(), scale=sps.sem(x))
    assert interval(Mean(len(x), float(x.mean()), float(x.std(ddof=1))), 0.001) == pytest.approx(
        want, abs=1e-9
    )


def test_mean_difference_is_welch() -> None:
    rng = np.random.default_rng(2)
    a, b = rng.normal(50, 9, 80), rng.normal(44, 4, 45)
    want = sps.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
    got = interval(MeanDifference(Mean(80, a.mean(), a.std(ddof=1)), Mean(45, b.mean(), b.std(ddof=1))), 0.05)
    assert got == pytest.approx((want.low, want.high), abs=1e-9)


def test_rank_correlation_fisher_z_bonett_wright_by_hand() -> None:
    # rho 0.6, n 28: z = atanh(0.6) = 0.693147; se = sqrt((1 + 0.18) / 25) = 0.217256; z95 = 1.959964
    lo, hi = interval(RankCorrelation(0.6, 28), 0.05)
    assert lo == pytest.approx(math.tanh(0.6931472 - 1.959964 * 0.2172556), abs=1e-6)
    assert hi == pytest.approx(math.tanh(0.6931472 + 1.959964 * 0.2172556), abs=1e-6)


def test_ratio_of_means_delta_method_by_hand() -> None:
    x = np.array([3.0, 5, 4, 6, 2, 5])
    y = np.array([10.0, 12, 11, 14, 9, 12])
    r = Ratio.of(x, y)
    R = x.mean() / y.mean()
    var = (x.var(ddof=1) - 2 * R * np.cov(x, y)[0, 1] + R * R * y.var(ddof=1)) / (6 * y.mean() ** 2)
    h = sps.t.ppf(0.975, 5) * math.sqrt(var)
    assert r.estimate() == pytest.approx(R)
    assert interval(r, 0.05) == pytest.approx((R - h, R + h))


def test_extreme_uses_bonferroni_parts_and_box_arithmetic() -> None:
    parts = (Proportion(30, 100), Proportion(50, 100), Proportion(40, 100))
    a = [interval(p, 0.01 / 3) for p in parts]
    lo, hi = interval(Extreme("range", parts), 0.01)
    assert (lo, hi) == pytest.approx((max(0.0, a[1][0] - a[0][1]), a[1][1] - a[0][0]))
    lo, hi = interval(Extreme("ratio", parts), 0.01)
    assert hi == pytest.approx(a[1][1] / a[0][0])
    lo, hi = interval(Extreme("max_distance", parts, 0.4), 0.01)
    assert lo == pytest.approx(max(0.4 - a[0][1], a[1][0] - 0.4, 0.0))
    assert hi == pytest.approx(max(abs(x - 0.4) for iv in a for x in iv))
    assert Extreme("max_distance", parts, 0.4).estimate() == pytest.approx(0.1)


def test_bootstrap_rank_correlation_shrinks_with_precision_and_is_deterministic() -> None:
    x = tuple(float(v) for v in range(20))
    est = tuple(float(v) + 3.0 * math.sin(v) for v in range(20))
    wide = interval(RankCorrelationOfMeans(x, est, (2.0,) * 20), 0.01)
    narrow = interval(RankCorrelationOfMeans(x, est, (0.2,) * 20), 0.01)
    assert wide == interval(RankCorrelationOfMeans(x, est, (2.0,) * 20), 0.01)  # seeded: same bytes
    assert wide[0] < narrow[0] <= 1.0 and narrow[1] <= 1.0
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


def test_exact_and_empty() -> None:
    assert interval(Exact(3.0), 0.01) == (3.0, 3.0)
    assert all(math.isnan(v) for v in interval(Proportion(0, 0), 0.01))
    assert decide(math.nan, math.nan, 0, 1) is Verdict.UNDECIDED


@pytest.mark.parametrize(
    ("lo", "hi", "want"),
    [
        (0.2, 0.3, Verdict.HOLDS),
        (0.05, 0.09, Verdict.FAILS),
        (0.5, 0.6, Verdict.FAILS),
        (0.09, 0.2, Verdict.UNDECIDED),
        (0.3, 0.45, Verdict.UNDECIDED),
        (0.1, 0.4, Verdict.HOLDS),
    ],
)
def test_decide(lo: float, hi: float, want: Verdict) -> None:
    assert decide(lo, hi, 0.1, 0.4) is want


def test_one_sided_bounds() -> None:
    assert decide(3.5, 9.0, 3.0, None) is Verdict.HOLDS
    assert decide(-1.0, 2.9, 3.0, None) is Verdict.FAILS
    assert decide(0.0, 0.02, None, 0.01) is Verdict.UNDECIDED


def test_games_to_decide_scales_with_the_square() -> None:
    # half width 0.04 at 1000 games, 0.02 from the bound: needs (0.04 / 0.02)^2 = 4x the games
    assert games_to_decide(0.38, 0.34, 0.42, 0.1, 0.4, 1000) == 4000
    assert games_to_decide(0.40, 0.36, 0.44, 0.1, 0.4, 1000) is None  # on the bound: never
    t = bounded("seat", Proportion(780, 2000), Bound(min=0.25, max=0.40), "k")
    assert t.verdict is Verdict.UNDECIDED and t.estimate_needed() is None  # games unknown (0)


def test_alpha_and_looks() -> None:
    assert bonferroni_alpha(0.99, 73, 4) == pytest.approx(0.01 / 292)
    assert planned_looks(200, 2000) == [200, 400, 800, 1600, 2000]
    assert planned_looks(500, 500) == [500]
    with pytest.raises(ValueError):
        planned_looks(0, 10)


def test_combine_means_matches_pooled_sample() -> None:
    rng = np.random.default_rng(5)
    a, b = rng.normal(1, 2, 40), rng.normal(3, 1, 60)
    both = np.concatenate([a, b])
    m = combine_means([Mean(40, a.mean(), a.std(ddof=1)), Mean(60, b.mean(), b.std(ddof=1))])
    assert (m.n, m.mean, m.sd) == pytest.approx((100, both.mean(), both.std(ddof=1)))


def test_tolerance_json_names_verdict_method_and_evidence() -> None:
    t = Tolerance(
        "row 1", Proportion(30, 100), 0.1, 0.5, "game.balance.rows", ("2p greedy",), alpha=0.001, games=100
    )
    j = t.to_json()
    assert (
        j["verdict"] == "HOLDS" and j["method"] == "Wilson score" and j["confidence"] == pytest.approx(0.999)
    )
    assert j["evidence"] == {"kind": "Proportion", "successes": 30, "n": 100, "scale": 1.0, "shift": 0.0}
    assert j["settings"] == ["2p greedy"] and j["games"] == 100


def test_family_wise_error_rate_is_kept_where_point_estimates_are_not() -> None:
    """20 tolerances whose true value (0.52) lies just OUTSIDE the allowed 0.40..0.50, 300 simulated kits:
    with simultaneous intervals at confidence 0.9, a kit where any of them wrongly HOLDS must be rare (<=
    10%); comparing the point estimate with the bound instead says HOLDS by chance in most kits."""
    rng = np.random.default_rng(11)
    m, kits, n = 20, 300, 400
    alpha = bonferroni_alpha(0.90, m, 1)
    wrong_ci = wrong_point = 0
    for _ in range(kits):
        k = rng.binomial(n, 0.52, size=m)
        holds = [decide(*interval(Proportion(float(x), n), alpha), 0.40, 0.50) is Verdict.HOLDS for x in k]
        wrong_ci += any(holds)
        wrong_point += any(0.40 <= x / n <= 0.50 for x in k)
    assert wrong_ci / kits <= 0.10
    assert wrong_point / kits > 0.5


# ---------------------------------------------------------- the same floats without scipy.stats / statsmodels


@pytest.mark.parametrize(
    "successes,n,alpha",
    [
        (0, 1, 0.05),
        (1, 1, 0.05),
        (37, 200, 0.05),
        (50.5, 101, 1e-4),
        (3, 1_000_000, 0.001),
        (999_999, 1_000_000, 0.3),
        (7, 9, 0.5),
    ],
)
def test_wilson_interval_is_statsmodels_to_the_bit(successes, n, alpha):
    from statsmodels.stats.proportion import proportion_confint

    from generator.engine.verdict import wilson_interval

    lo, hi = proportion_confint(successes, n, alpha=alpha, method="wilson")
    assert wilson_interval(successes, n, alpha) == (float(lo), float(hi))


@pytest.mark.parametrize("p,df", [(0.975, 1), (0.975, 3.7), (0.9995, 199), (0.6, 1e6)])
def test_t_and_normal_quantiles_are_scipy_stats_to_the_bit(p, df):
    from scipy import stats

    from generator.engine.verdict import _normal_quantile, _t_quantile

    assert _t_quantile(p, df) == float(stats.t.ppf(p, df))
    assert _normal_quantile(p) == float(stats.norm.ppf(p))


def test_an_exact_value_loads_no_statistics_library():
    """A deck kit's check decides exact draw values: verdict.py alone loads neither scipy nor statsmodels."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    code = (
        "import sys; from generator.engine.verdict import Exact, decide, interval; "
        "lo, hi = interval(Exact(0.5), 0.05); decide(lo, hi, 0.4, 0.6); "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'scipy', 'statsmodels', 'pandas'}))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert r.stdout == "[]\n"


def test_rough_quantiles_need_no_scipy_and_are_the_normal_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """A check's dry run builds its throwaway report with the standard library's normal quantiles: with
    scipy.special unimportable the intervals are still built inside `rough_quantiles`, close to scipy's
    normal ones (t taken as normal), and the ends answer as scipy does; outside the block scipy is used."""
    from generator.engine import verdict

    monkeypatch.setitem(sys.modules, "scipy.special", None)  # importing it now raises ImportError
    with verdict.rough_quantiles():
        low, high = verdict.wilson_interval(30, 100, 0.01)
        t = verdict._t_quantile(0.975, 5)
        ends = [verdict._normal_quantile(p) for p in (0.0, 1.0)]
    monkeypatch.undo()
    assert (low, high) == pytest.approx(verdict.wilson_interval(30, 100, 0.01), rel=1e-12)
    assert t == pytest.approx(sps.norm.ppf(0.975), rel=1e-12) and t != pytest.approx(sps.t.ppf(0.975, 5))
    assert ends == [-math.inf, math.inf]
    monkeypatch.setitem(sys.modules, "scipy.special", None)
    with pytest.raises(ImportError):  # the block is over: scipy's quantiles again
        verdict._normal_quantile(0.5)
