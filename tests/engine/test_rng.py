"""The engine's draws: `rand_below_inline` (inlined into hot loops, without reference counting) draws the very
stream `rand_below` does, compiled and as plain Python."""

from __future__ import annotations

import numpy as np

from generator.engine.kernel import jit, py_func, rand_below, rand_below_inline, seed_state


@jit
def _draws(state, n, out, inline):  # type: ignore[no-untyped-def]
    for i in range(out.shape[0]):
        out[i] = rand_below_inline(state, n) if inline else rand_below(state, n)


def test_the_inlined_draw_is_the_engines_stream():
    for n in (1, 2, 6, 1000, 2**40):
        engine, inlined = np.zeros(300, np.int64), np.zeros(300, np.int64)
        a, b = seed_state(7), seed_state(7)
        _draws(a, n, engine, False)
        _draws(b, n, inlined, True)
        assert engine.tolist() == inlined.tolist() and a[0] == b[0]
        c = seed_state(7)
        assert [int(py_func(rand_below_inline)(c, n)) for _ in range(300)] == engine.tolist()
