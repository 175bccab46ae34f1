"""numpy's Generator over MT19937 in compiled code: the kernel's own stream, seeded per game as
`game_rng` seeds numpy, drawing what `random()`, `integers(n)` and `shuffle` draw."""

from __future__ import annotations

import numpy as np

from generator.engine.kernel import jit

MT_N = 624
"""MT19937 state words; the state array has one more slot for the index."""


# ----------------------------------------------------------------------------- numpy's Generator over MT19937
@jit
def mt_seed(mt: np.ndarray, lo: int, hi: int) -> None:
    """MT19937 seeded by init_by_array with the 32-bit words lo (and hi when it is not 0) of a 64-bit game
    seed."""
    mt[0] = 19650218
    for i in range(1, MT_N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
    nkey = 2 if hi != 0 else 1
    i = 1
    j = 0
    for _ in range(max(MT_N, nkey)):
        key = lo if j == 0 else hi
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key + j) & 0xFFFFFFFF
        i += 1
        j += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
        if j >= nkey:
            j = 0
    for _ in range(MT_N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
        i += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
    mt[0] = 0x80000000
    mt[MT_N] = MT_N


@jit
def mt_next(mt: np.ndarray) -> int:
    """The next 32-bit word (genrand_uint32; numpy's MT19937 next_uint32)."""
    if mt[MT_N] >= MT_N:
        for k in range(MT_N):
            y = (mt[k] & 0x80000000) | (mt[(k + 1) % MT_N] & 0x7FFFFFFF)
            v = mt[(k + 397) % MT_N] ^ (y >> 1)
            if y & 1:
                v ^= 0x9908B0DF
            mt[k] = v
        mt[MT_N] = 0
    y = mt[mt[MT_N]]
    mt[MT_N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y  # type: ignore[no-any-return]


@jit
def mt_random(mt: np.ndarray) -> float:
    """`Generator.random()` on MT19937 (numpy's mt19937_next_double, also CPython's `random()`): 53 bits from
    two words."""
    a = mt_next(mt) >> 5
    b = mt_next(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@jit
def mt_below(mt: np.ndarray, n: int) -> int:
    """`Generator.integers(n)` for 1 <= n < 2**31: Lemire's multiply-and-reject on one 32-bit word per try
    (numpy's buffered_bounded_lemire_uint32); n = 1 draws nothing."""
    if n <= 1:
        return 0
    m = mt_next(mt) * n
    left = m & 0xFFFFFFFF
    if left < n:
        threshold = (0xFFFFFFFF - (n - 1)) % n
        while left < threshold:
            m = mt_next(mt) * n
            left = m & 0xFFFFFFFF
    return m >> 32


@jit
def mt_interval(mt: np.ndarray, top: int) -> int:
    """numpy's random_interval(top): a uniform integer in 0..top by masked rejection on 32-bit words."""
    if top == 0:
        return 0
    mask = top
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    v = mt_next(mt) & mask
    while v > top:
        v = mt_next(mt) & mask
    return v


@jit
def mt_shuffle(mt: np.ndarray, arr: np.ndarray, n: int) -> None:
    """`Generator.shuffle` of arr[:n] (Fisher-Yates from the end, j = random_interval(i))."""
    for i in range(n - 1, 0, -1):
        j = mt_interval(mt, i)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t


def game_rng(lo: int, hi: int) -> np.random.Generator:
    """The numpy Generator whose draws `play_games` makes for game (lo, hi): MT19937 in the state `mt_seed`
    gives. The reference rules and policies take it (sim.FullGames' reference path, the replay tests)."""
    mt = np.zeros(MT_N + 1, dtype=np.int64)
    mt_seed(mt, lo, hi)
    bits = np.random.MT19937()
    bits.state = {
        "bit_generator": "MT19937",
        "state": {"key": mt[:MT_N].astype(np.uint32), "pos": int(mt[MT_N])},
    }
    return np.random.Generator(bits)
