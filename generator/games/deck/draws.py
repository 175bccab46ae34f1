"""Exact draw probabilities of a deck: a hand of n cards drawn without replacement from N, of which K meet a
condition, holds X of them with X ~ Hypergeometric(N, K, n), counted in exact integers (C(K, k) C(N - K, n -
k) hands of C(N, n)) and divided once, so each probability is the float nearest the exact fraction and no
statistics library is loaded for a check; means of sums are n times the deck's mean. `monte_carlo_sum` is the
seeded sampler for properties without a closed form here."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy only where a draw is sampled or averaged: a deck check stays light
    import numpy as np

    from generator.engine.runner import Tally


def hand_distribution(deck: int, marked: int, hand: int) -> list[float]:
    """P(X = k) for k = 0..hand: k of the `marked` cards in a `hand`-card draw from `deck` cards."""
    hands = math.comb(deck, hand)
    return [
        float(Fraction(_hands_with(deck, marked, hand, k), hands)) if hands else math.nan
        for k in range(hand + 1)
    ]


def _hands_with(deck: int, marked: int, hand: int, k: int) -> int:
    """How many `hand`-card hands from `deck` cards hold exactly k of the `marked` ones."""
    return math.comb(marked, k) * math.comb(deck - marked, hand - k) if 0 <= k <= hand else 0


def p_at_least(deck: int, marked: int, hand: int, at_least: int) -> float:
    """P(X >= at_least): at least that many marked cards in the hand (exact)."""
    if at_least <= 0:
        return 1.0
    hands = math.comb(deck, hand)
    if not hands:
        return math.nan
    return float(Fraction(sum(_hands_with(deck, marked, hand, k) for k in range(at_least, hand + 1)), hands))


def p_all_of(cells: dict[tuple[bool, ...], int], hand: int, at_least: Sequence[int]) -> float:
    """P(a `hand`-card draw holds, for every condition j, at least at_least[j] cards meeting it), exact: the
    deck is cut into cells by which conditions a card meets (`cells[truths] = cards`); the number of hands
    with x_c cards from cell c is the product of C(size_c, x_c) (multivariate hypergeometric), summed by
    dynamic programming over the cells with each condition's count saturated at its threshold, in exact
    integers."""
    k = len(at_least)
    ways: dict[tuple[int, tuple[int, ...]], int] = {(0, (0,) * k): 1}
    for truths, size in sorted(cells.items()):
        nxt: dict[tuple[int, tuple[int, ...]], int] = {}
        for (drawn, got), w in ways.items():
            for x in range(0, min(size, hand - drawn) + 1):
                key = (
                    drawn + x,
                    tuple(
                        min(g + (x if t else 0), need)
                        for g, t, need in zip(got, truths, at_least, strict=True)
                    ),
                )
                nxt[key] = nxt.get(key, 0) + w * math.comb(size, x)
        ways = nxt
    total = sum(cells.values())
    good = sum(
        w
        for (drawn, got), w in ways.items()
        if drawn == hand and all(g >= need for g, need in zip(got, at_least, strict=True))
    )
    return good / math.comb(total, hand)


def expected_sum(values: Sequence[float], hand: int) -> float:
    """The expected sum of a field over a `hand`-card draw from the cards' values (exact: linearity)."""
    import numpy as np

    return hand * float(np.mean(values)) if len(values) else 0.0


def largest_share(values: Sequence[str]) -> tuple[str, float]:
    """The value held by the most cards and its share of the deck."""
    counts: dict[str, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    best = max(sorted(counts), key=lambda k: counts[k])
    return best, counts[best] / len(values)


@dataclass(frozen=True)
class SumSampler:
    """A picklable Simulation (generator.engine.runner): draws `hand` cards per game, counts sums <= limit."""

    values: tuple[float, ...]
    hand: int
    limit: float

    def play(self, seed: np.random.SeedSequence, games: int) -> Tally:
        """`games` seeded hands; the number whose sum is at most the limit."""
        import numpy as np

        rng = np.random.default_rng(seed)
        vals = np.asarray(self.values, dtype=np.float64)
        keys = rng.random((games, len(vals)))
        hands = (
            np.argpartition(keys, self.hand - 1, axis=1)[:, : self.hand]
            if self.hand < len(vals)
            else np.tile(np.arange(len(vals)), (games, 1))
        )
        sums = vals[hands].sum(axis=1)
        return {"hits": np.array([int((sums <= self.limit + 1e-9).sum())], dtype=np.int64)}
