"""`all_python()`: every compiled kernel function of pnpkit runs as its Python function, in this process.

A game's `pure=True` path calls the Python function of its entry point only; everything that calls, being a
compiled function called from Python, compiles a version of its own for that call (a step's twin with the
CPython wrapper, a merged function on its own): 1-4 CPU-s a test, for code no command ever compiles. Inside
`all_python()` each module's global name of a compiled function is its Python function, so the whole call
tree runs uncompiled, as PNPKIT_PURE=1 runs it, and nothing compiles: a compile asked for inside is an
error, so a call the swap missed cannot go unseen."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from generator.engine.kernel import HAVE_NUMBA

ROOT = Path(__file__).resolve().parents[2]


def _compiled(obj: object) -> bool:
    from numba.core.dispatcher import Dispatcher

    return isinstance(obj, Dispatcher)


@contextmanager
def all_python() -> Iterator[None]:
    """Within the block, every compiled function a `generator` module names is its Python function (and
    any compile is an AssertionError). Run the compiled side first: a compile inside would see Python
    functions where it expects compiled ones."""
    if not HAVE_NUMBA:  # PNPKIT_PURE=1 or no numba: every kernel is a Python function already
        yield
        return
    from numba.core.dispatcher import Dispatcher

    swapped: list[tuple[dict[str, Any], str, Any]] = []
    for name, module in list(sys.modules.items()):
        if not (name == "generator" or name.startswith("generator.")) or module is None:
            continue
        namespace = vars(module)
        for attr, value in list(namespace.items()):
            if _compiled(value):
                swapped.append((namespace, attr, value))
    own_py_func = set()  # a Python function's `py_func` is itself, as PNPKIT_PURE=1 makes it (`jit`)
    for namespace, attr, value in swapped:
        namespace[attr] = value.py_func
        if not hasattr(value.py_func, "py_func"):
            value.py_func.py_func = value.py_func
            own_py_func.add(value.py_func)

    def refuse(self: Any, *args: Any, **kws: Any) -> Any:
        raise AssertionError(f"{self.py_func.__qualname__} compiled inside all_python(): a call not swapped")

    classes = {Dispatcher, *(type(value) for _, _, value in swapped)}
    refused = [
        (cls, cls.__dict__["_compile_for_args"]) for cls in classes if "_compile_for_args" in cls.__dict__
    ]
    for cls, _ in refused:
        cls._compile_for_args = refuse
    try:
        yield
    finally:
        for cls, method in refused:
            cls._compile_for_args = method
        for namespace, attr, value in swapped:
            namespace[attr] = value
        for fn in own_py_func:
            del fn.py_func


def pure_process(code: str) -> str:
    """What `python -c code` prints in a process of its own under PNPKIT_PURE=1, started in the checkout's
    root: every kernel a Python function from the start (the mode is read before numba would be imported,
    which only a new process can honour)."""
    r = subprocess.run(
        [sys.executable, "-c", code],
        env=dict(os.environ, PNPKIT_PURE="1"),
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return r.stdout
