"""engine/variants.py: accepted sheet variants re-judged on their own seed stream, paired with the default."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from generator.engine.report import BalanceReport, Tolerance
from generator.engine.runner import Tally
from generator.engine.variants import VARIANT_STREAM, rejudge_variants, variant_stream
from generator.engine.verdict import Evidence, Mean, Ratio
from generator.spec.base import Bound


@dataclass(frozen=True)
class Scores:
    """Two seats score a seeded uniform draw plus `bonus` each game (a sheet that is `bonus` points
    better)."""

    bonus: float = 0.0

    def play(self, seed: np.random.SeedSequence, games: int) -> Tally:
        rng = np.random.default_rng(seed)
        return {"games.scores": rng.integers(0, 10, size=(games, 2)).astype(np.float64) + self.bonus}


def _rejudge(
    rep: BalanceReport, evidence: Callable[[np.ndarray, np.ndarray], Evidence], bound: Bound, seed: int = 7
) -> list[Tolerance]:
    return rejudge_variants(
        rep,
        Scores(),
        [("V-EVEN", Scores()), ("V-PLUS", Scores(3.0))],
        games=50,
        seed=seed,
        executor=None,
        progress=None,
        score="games.scores",
        evidence=evidence,
        name=lambda code: f"variant {code}",
        bound=bound,
        spec_key="game.variants.tol",
        accepted_on="the build's games",
        note_tail=", paired",
    )


def test_variants_are_played_on_the_same_games_of_their_own_stream() -> None:
    rep = BalanceReport("k", "g", 50, 7)
    tols = _rejudge(rep, lambda v, b: Mean.of(v - b), Bound(min=-1, max=1))
    assert rep.tolerances == tols and [t.name for t in tols] == ["variant V-EVEN", "variant V-PLUS"]
    assert all(t.spec_key == "game.variants.tol" and t.settings == ("variants",) for t in tols)
    # same games for default and variant: an identical sheet differs by exactly 0, a 3-point better one by 3
    assert tols[0].measured == 0.0 and tols[1].measured == 3.0
    assert not tols[0].failed and tols[1].failed
    assert rep.notes == [
        f"Sheet variants: accepted at build on the build's games, re-judged here on 50 games of "
        f"another seed stream (spawn key {VARIANT_STREAM:#x}), paired."
    ]


def test_the_stream_is_not_the_seed_and_depends_on_it() -> None:
    assert variant_stream(7) != 7 and variant_stream(7) != variant_stream(8)
    a = _rejudge(BalanceReport("k", "g", 50, 7), Ratio.of, Bound(min=0.5, max=2), seed=7)
    b = _rejudge(BalanceReport("k", "g", 50, 7), Ratio.of, Bound(min=0.5, max=2), seed=8)
    assert a[0].measured == 1.0 and a[1].measured != b[1].measured


def test_mean_of_and_per_table() -> None:
    m = Mean.of([1.0, 2.0, 6.0])
    assert (m.n, m.mean, round(m.sd, 12)) == (3, 3.0, round(float(np.std([1, 2, 6], ddof=1)), 12))
    assert Mean.of([4.0]) == Mean(1, 4.0, 0.0) and Mean.of([]).n == 0 and np.isnan(Mean.of([]).mean)
    assert Mean.per_table([[1, 3], [5, 7], [0, 0]]) == Mean.of([2.0, 6.0, 0.0])
