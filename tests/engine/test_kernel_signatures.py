"""A compiled function is compiled once per argument types, not once more for each constant a compiled caller
passes it (numba would otherwise specialise on `Literal[int](0)`, `Literal[bool](True)`: Rummy's `_search` was
compiled three times, and such versions cost a third of the kits' compile time)."""

from __future__ import annotations

import numpy as np
import pytest

from generator.engine.kernel import HAVE_NUMBA, jit, jit_inline, jit_noref


@jit
def _add(a, b):  # type: ignore[no-untyped-def]
    return a + b


@jit_noref
def _pick(flag, a, b):  # type: ignore[no-untyped-def]
    return a if flag else b


@jit_inline  # inlined where it is called: its constants are folded into the caller, not compiled apart
def _twice(a):  # type: ignore[no-untyped-def]
    return 2 * a


@jit
def _calls_with_constants(x):  # type: ignore[no-untyped-def]
    return (
        _add(x, 0)
        + _add(x, 1)
        + _add(x, np.int64(2))
        + _pick(True, x, 0)
        + _pick(False, 0, x)
        + _twice(3)
        + _twice(x)
    )


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba not installed (or PNPKIT_PURE=1)")
def test_constants_from_compiled_callers_compile_no_version_of_their_own():
    assert _calls_with_constants(5) == 5 + 6 + 7 + 5 + 5 + 6 + 10
    # typed afresh (not loaded from the disk cache): it asks for its callees
    _calls_with_constants.recompile()
    assert [str(s) for s in _add.signatures] == ["(int64, int64)"]
    assert [str(s) for s in _pick.signatures] == ["(bool, int64, int64)"]


def test_the_python_path_gives_the_same_answer():
    assert _calls_with_constants.py_func(5) == 5 + 6 + 7 + 5 + 5 + 6 + 10
