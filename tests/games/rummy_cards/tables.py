"""Random valid Rummy tables for solver tests."""

from __future__ import annotations

import numpy as np


def random_table(rng: np.random.Generator, melds: int, C: int, N: int) -> np.ndarray:
    """Card counts of a valid table: up to `melds` random runs (3-5 places) and groups (3-C colours), 2 copies
    at most (a meld that would need a third copy is skipped)."""
    t = np.zeros(C * N, np.int64)
    for _ in range(melds):
        if rng.integers(2):
            c, length = int(rng.integers(C)), int(rng.integers(3, min(5, N) + 1))
            s = int(rng.integers(N - length + 1))
            kinds = [c * N + v for v in range(s, s + length)]
        else:
            v = int(rng.integers(N))
            kinds = [c * N + v for c in sorted(rng.permutation(C)[: int(rng.integers(3, C + 1))])]
        if all(t[k] < 2 for k in kinds):
            t[kinds] += 1
    return t
