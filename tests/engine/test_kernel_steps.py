"""A `jit_noref` step is compiled for compiled callers only, without numba's CPython wrapper (which unboxes every
argument from Python objects: for steps over NamedTuples of 20-40 arrays, 40 % of the Raindrops compile); a call
from Python goes to a twin compiled with the wrapper, cached under a name of its own."""

from __future__ import annotations

import pytest

from generator.engine.kernel import HAVE_NUMBA, jit, jit_noref

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="numba not installed (or PNPKIT_PURE=1)")


@jit_noref
def _step(a, b):  # type: ignore[no-untyped-def]
    return a * 10 + b


@jit
def _caller(a):  # type: ignore[no-untyped-def]
    return _step(a, 1) + _step(1, a)


def _has_wrapper(dispatcher) -> bool:  # type: ignore[no-untyped-def]
    (sig,) = dispatcher.signatures
    cres = dispatcher.overloads[sig]
    return bool(cres.library.get_pointer_to_function(cres.fndesc.llvm_cpython_wrapper_name))


def test_a_step_compiled_for_a_compiled_caller_has_no_cpython_wrapper():
    assert _caller(3) == 31 + 13
    _caller.recompile()  # typed afresh (not loaded from the disk cache): it asks for its callees
    assert not _has_wrapper(_step)
    assert _has_wrapper(_caller)  # an entry point (`jit`) keeps its wrapper


def test_a_step_called_from_python_runs_its_twin_which_has_the_wrapper():
    assert _step(4, 2) == 42 == _step.py_func(4, 2)
    assert _has_wrapper(_step._python_twin)
    assert _step._python_twin.py_func.__qualname__ == "_step__from_python"


def test_the_step_and_its_twin_are_cached_in_files_of_their_own():
    _step(1, 1)
    names = {d._cache._cache_file._index_name for d in (_step, _step._python_twin)}
    assert len(names) == 2
