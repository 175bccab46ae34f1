"""Compiled-kernel support: an optional numba `jit` and a tiny counter-free RNG usable in both paths.

Hot loops are plain functions over numpy arrays. With numba installed they are compiled (cached on disk);
without it, or with PNPKIT_PURE=1, the very same functions run as Python. The RNG below is xorshift64 on a
uint64[1] state array, written with shifts and xors only, so both paths produce the same stream bit for bit.
"""

from __future__ import annotations

import os
import types
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np

from generator.engine import kernelcache as _kernelcache

F = TypeVar("F", bound=Callable[..., Any])

_PACKAGE = Path(__file__).resolve().parents[1]


def kernel_sources(package: Path | None = None) -> list[Path]:
    """The modules compiled code can depend on (`kernelcache.kernel_sources` of this package, or `package`):
    every module with a compiled function, this module, and what they import at module level from the package,
    transitively. Sorted paths."""
    return _kernelcache.kernel_sources(package or _PACKAGE)


def source_salt() -> str:
    """The digest of the modules compiled code can depend on (`kernel_sources`, relative path and bytes):
    numba's own cache key is a function's file and its timestamp, so a kernel whose callee (in another file)
    changed would load stale machine code; caching under this digest makes an edited or upgraded pnpkit
    compile afresh, while an edit of the build, the layout or the CLI (most edits) keeps the compiled
    kernels."""
    return _kernelcache.source_salt(_PACKAGE)


_NOT_WITH_NUMBA = {
    "scipy.linalg": "numba.np.arraymath imports it only to learn whether BLAS is there (0.15 CPU-s)",
    "cffi": "numba's typing imports it (and pycparser, building a C parser) for kernels calling C through "
    "cffi: 0.04 CPU-s",
    "yaml": "numba's configuration imports it to read a .numba_config.yaml in the working folder: 0.02 CPU-s "
    "where there is none",
}
"""What numba loads without, and why (`_import_numba`)."""


def _import_numba() -> types.ModuleType:
    """numba, loaded without what no kernel here needs (_NOT_WITH_NUMBA), before every check's first game.
    cffi and yaml serve numba features pnpkit does not use, so they are hidden while numba and its cffi
    typing load. numba's array functions (numba.np.arraymath) load later, when numba first needs them: to
    compile, or to load a kernel whose cached environment names them (Rummy Cards'); a kernel loaded from
    the cache otherwise needs none of them (`_load_without_refresh`): 0.07 s less before the first game.
    Whenever they load, scipy.linalg is hidden too: arraymath imports it (0.15 s) to learn whether BLAS is
    there, and the answer picks how np.correlate and np.convolve multiply, which no kernel here calls
    (np.dot and numba's other BLAS users import scipy.linalg themselves when they compile). A module
    already imported stays as it is, and a numba that cannot load that way is loaded again as usual."""
    import importlib.abc
    import importlib.util
    import sys

    class Hide(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
            if fullname in _NOT_WITH_NUMBA and not (
                fullname == "yaml" and os.path.isfile(".numba_config.yaml")
            ):
                raise ImportError(f"{fullname} is not loaded with numba (pnpkit engine.kernel)")

    hide = Hide()

    class HideForArraymath(importlib.abc.MetaPathFinder):
        """Loads numba.np.arraymath, whenever it is first imported, with `hide` in force (then steps
        aside)."""

        def find_spec(self, fullname: str, path: object = None, target: object = None) -> Any:
            if fullname != "numba.np.arraymath":
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(fullname)
            loader: Any = spec.loader if spec is not None else None
            if loader is None or not hasattr(loader, "exec_module"):
                return spec
            exec_module = loader.exec_module

            def exec_hidden(module: types.ModuleType) -> None:
                sys.meta_path.insert(0, hide)
                try:
                    exec_module(module)
                finally:
                    sys.meta_path.remove(hide)

            loader.exec_module = exec_hidden
            return spec

    sys.meta_path.insert(0, hide)
    try:
        import numba.core.typing.cffi_utils
    except ImportError:  # numba missing, or one that needs a hidden module to load: tried again below
        pass
    finally:
        sys.meta_path.remove(hide)
    import numba

    if "numba.np.arraymath" not in sys.modules:
        sys.meta_path.insert(0, HideForArraymath())
    return numba


def _checked_version(version: str) -> bool:
    """Whether numba `version` is one the private options and patches here were checked on (0.59-0.69)."""
    try:
        major, minor = (int(x) for x in version.split(".")[:2])
    except ValueError:
        return False
    return (0, 59) <= (major, minor) < (0, 70)


try:  # numba is the optional `fast` extra
    if os.environ.get("PNPKIT_PURE") == "1":
        raise ImportError("pure mode requested")
    _kernelcache.salted_cache_dir(_PACKAGE)  # before numba reads its configuration
    _numba = _import_numba()

    HAVE_NUMBA = True
    from generator.engine.numba_locator import register as _register_locator

    _register_locator()
except ImportError:  # pragma: no cover - exercised by the pure-mode subprocess test
    _numba = None  # type: ignore[assignment]
    HAVE_NUMBA = False


def _fast_flag_compare() -> None:
    """Make numba's compiler flags (`TargetConfig`) compare and hash in a fraction of the time, with the same
    results. numba looks up every typed call of an overloaded function (`min`, `np.zeros`, an array method)
    in a cache keyed by the flags in force, and its `__eq__` and `__hash__` build a dict of every option (22
    property reads) each time: 5-7 % of a kit's compile CPU (Raindrops: 87,000 comparisons and 43,000
    hashes, 15 and 12 us each). Two flags of the same class are equal when every option either sets is
    equal (the others are the class's defaults); numba's hash is that of the sorted option names (it sorts
    the dict's keys), the same for every flags object of a class, so it is computed once per class. Applied
    only on the numba versions it was checked on (`NRT_OFF`'s range); tests/engine/test_kernel_flags.py
    compares both with numba's own."""
    from numba.core.targetconfig import TargetConfig

    numba_eq: Any = TargetConfig.__eq__
    hashes: dict[type, int] = {}

    def __eq__(self: Any, other: Any) -> bool:
        if type(self) is not type(other):
            return bool(numba_eq(self, other))
        mine, theirs = self._values, other._values
        options = self.options
        for name in mine.keys() | theirs.keys():
            default = options[name].default
            if mine.get(name, default) != theirs.get(name, default):
                return False
        return True

    def __hash__(self: Any) -> int:
        cls = type(self)
        if cls not in hashes:
            hashes[cls] = hash(tuple(sorted(cls.options)))
        return hashes[cls]

    config: Any = TargetConfig
    config._numba_eq = numba_eq  # numba's own two, for the test
    config._numba_hash = TargetConfig.__hash__
    config.__eq__ = __eq__
    config.__hash__ = __hash__


def _one_signature(dispatcher: Any) -> Any:
    """Make a compiled function compile one version per argument *types*, not per constant: a call from
    compiled code with a constant argument (`f(x, 0)`, `g(True)`) would otherwise compile a version of `f` for
    the literal value (`Literal[int](0)`) beside the plain `int64` one. Those versions ran no faster here but
    cost a third or more of each kit's compile time (Rummy's `_search` was compiled three times). The
    arguments are widened to their plain types before the dispatcher compiles, and the call casts the
    constant."""
    from numba.core import types

    get = dispatcher.get_call_template
    plain: Callable[[Any], Any] = types.unliteral

    def get_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
        return get(tuple(plain(a) for a in args), {k: plain(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


_OPTIONS: dict[str, Any] = {"nogil": True, "no_cfunc_wrapper": True}
"""Every kernel function releases the GIL and has no C-callable wrapper (numba builds one per function for
first-class function use, which pnpkit never makes: 11 % of the Raindrops compile)."""


@cache
def _step_dispatcher() -> type:
    """numba's CPU dispatcher for a step compiled for compiled callers only. Numba gives every compiled
    function a CPython wrapper that unboxes each argument from Python objects; for the steps over NamedTuples
    of 20-40 arrays (`jit_noref`) those wrappers were 40 % of the Raindrops compile (51 -> 28 CPU-s without
    them), and a step is nearly always called from compiled code only. So a step is compiled without the
    wrapper, and a call from Python (a test of one step, a reference policy asking a compiled helper) goes to
    a twin of the same function compiled with it, made on the first such call. The twin is cached under a name
    of its own, so neither ever loads the other's machine code (without a wrapper, a Python call would jump to
    address 0)."""
    from numba.core.registry import CPUDispatcher

    class StepDispatcher(CPUDispatcher):
        _python_twin: Any = None

        def add_overload(self, cres: Any) -> None:
            """Keep a compiled version for compiled callers, out of the table Python calls are looked up
            in."""
            self.overloads[tuple(cres.signature.args)] = cres

        def _compile_for_args(self, *args: Any, **kws: Any) -> Any:
            """A Python call whose types are not in the table: the twin's version for them, entered in the
            table, so the next such call goes straight to it."""
            if self._python_twin is None:
                self._python_twin = _twin(self.py_func, self.targetoptions)
            entry = self._python_twin._compile_for_args(*args, **kws)
            for (
                sig,
                cres,
            ) in self._python_twin.overloads.items():  # `_insert`: numba's C base class, unstubbed
                self._insert([a._code for a in sig], cres.entry_point, cres.objectmode)  # type: ignore[attr-defined]
            return entry

    return StepDispatcher


def _twin(fn: Callable[..., Any], targetoptions: dict[str, Any]) -> Any:
    """`fn` compiled with its CPython wrapper, as a function of its own (same code, globals and defaults)
    whose qualified name, and so its cache file, differs from the step's."""
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = f"{fn.__qualname__}__from_python"
    copy.__module__ = fn.__module__
    copy.__kwdefaults__ = fn.__kwdefaults__
    options = {k: v for k, v in targetoptions.items() if k not in ("no_cpython_wrapper", "nopython")}
    return _one_signature(_numba.njit(cache=True, **options)(copy))


def _njit(fn: F, *, step: bool = False, **options: Any) -> F:
    """`numba.njit(cache=True, **_OPTIONS, **options)`, compiling one version per argument types. A `step` is
    compiled without the CPython wrapper; a call from Python goes to its twin (`_step_dispatcher`): the
    dispatcher is made as numba.njit makes it, with the class swapped."""
    if not step:
        return cast(F, _one_signature(_numba.njit(cache=True, **_OPTIONS, **options)(fn)))
    targetoptions = {"nopython": True, **_OPTIONS, "no_cpython_wrapper": True, **options}
    disp = _step_dispatcher()(py_func=fn, locals={}, targetoptions=targetoptions)
    disp.enable_caching()
    return cast(F, _one_signature(disp))


def jit(fn: F) -> F:
    """Compile `fn` with numba (nopython, cached) when available; otherwise return it unchanged.

    Either way `fn.py_func` is the uncompiled Python function.
    """
    if HAVE_NUMBA:
        return _njit(fn)  # a Dispatcher, called exactly like fn
    fn.py_func = fn  # type: ignore[attr-defined]
    return fn


def py_func(fn: F) -> F:
    """The uncompiled Python function behind a `jit`/`jit_noref`/`jit_inline` function, typed as `fn` itself
    (`.py_func` is set on both paths, but a Dispatcher's attribute is not visible to the type checker)."""
    return cast(F, getattr(fn, "py_func"))  # noqa: B009 (the checker cannot see a Dispatcher's attribute)


def _nrt_off_supported() -> bool:
    """numba's `_nrt=False` (no reference counting) is a private option; use it only on versions it was
    measured on, so a future numba that drops it falls back to plain `jit` (same results, ~15% slower)."""
    return HAVE_NUMBA and _checked_version(_numba.__version__)


def _load_without_refresh() -> None:
    """Load a cached kernel without numba's full refresh of its CPU target. numba's `Cache.load_overload`
    refreshes the target before every load: it imports numba's lowering library (its implementations of
    lists, dicts, sets, random numbers, array functions), installs their registries, refreshes the typing
    context and scans the installed packages for numba extensions: 0.08-0.15 s before each check's first
    game, while one core waits for it. A kernel loaded from the cache is machine code, already linked with
    everything it calls: it needs numba's runtime (NRT), which is still initialised before each load here,
    and none of the lowering or typing registries. A cache miss compiles, and numba's compiler refreshes
    both contexts itself before typing (as it does on its first call into a lowering it lacks), so a compile
    sees every registry. Applied only on the numba versions it was checked on (`NRT_OFF`'s range);
    tests/engine/test_kernel_cache.py plays loaded kernels in a fresh process and compares their games."""
    from numba.core.caching import Cache
    from numba.core.runtime.nrt import rtsys

    numba_load: Any = Cache.load_overload

    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        rtsys.initialize(target_context)  # what the refresh does first: the runtime compiled code calls
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    cache: Any = Cache
    cache._numba_load_overload = numba_load  # numba's own, for the test
    cache.load_overload = load_overload


NRT_OFF = _nrt_off_supported()
if NRT_OFF:
    _fast_flag_compare()
    _load_without_refresh()


def jit_noref(fn: F) -> F:
    """`jit` for the steps of hot loops that allocate nothing (every array is passed in): compiled without
    numba's reference counting, which costs two atomic operations per array argument per call, and as a step
    for compiled callers (`_step_dispatcher`: a call from Python compiles a twin with the CPython wrapper)."""
    return _noref(fn, step=True)


def jit_noref_entry(fn: F) -> F:
    """`jit_noref` for a function Python calls as well (the one an entry point's Python function calls per
    game, a planner step its tests ask directly): one version, with the CPython wrapper, instead of a step and
    a twin (a twin of Ripple Rush's `play_loop` recompiles everything it calls: 9 s)."""
    return _noref(fn, step=False)


def _noref(fn: F, *, step: bool) -> F:
    if NRT_OFF:
        # `_nrt` is a private njit option, absent from numba's published overloads;
        # NRT_OFF limits it to the versions where it exists.
        return _njit(fn, step=step, _nrt=False)
    if HAVE_NUMBA:
        return _njit(fn, step=step)
    return jit(fn)


def jit_merged(fn: F) -> F:
    """`jit` for a function with a single compiled call site, inlined there by numba: its body is typed and
    optimised as part of its caller's, once. A compiled function links the machine code of everything it
    calls and optimises it again, so each level of a call tree compiles the whole tree below it once more;
    merging a function into its only caller removes a level (the caller no longer links it). A call from
    Python compiles it as a function of its own, as `jit` does."""
    if HAVE_NUMBA:
        return _njit(fn, inline="always")
    return jit(fn)


def jit_inline(fn: F) -> F:
    """`jit_noref`, and inlined into compiled callers (small, hot decision functions)."""
    if NRT_OFF:
        # private `_nrt` option, as in jit_noref: not in numba's published overloads
        return _njit(fn, _nrt=False, inline="always")
    if HAVE_NUMBA:
        return _njit(fn, inline="always")
    return jit(fn)


_PARTS: list[str] = []
"""The registered compile parts (`compile_part`), as MODULE:FUNCTION, in the order registered."""


def compile_part(fn: F) -> F:
    """Register `fn` (called with no arguments) as one part of its game's kernels that compiles apart from
    the others: it compiles a set of compiled functions for the argument types the game's entry point calls
    them with (`compile_for`), sharing as little as possible with the game's other parts. `compile_parts`
    compiles a game's parts at once, each but the first in a process of its own."""
    _PARTS.append(f"{fn.__module__}:{fn.__qualname__}")
    return fn


def registered_parts(package: str) -> list[str]:
    """The registered compile parts (MODULE:FUNCTION) of the modules in `package` (a dotted name)."""
    return [p for p in _PARTS if p.startswith(f"{package}.")]


def compile_for(fn: Callable[..., Any], *args: Any) -> None:
    """Compile `fn` (a `jit` function) for the numba types of `args` without calling it; nothing without
    numba. The types are those a compiled caller passing such values has (numba's `typeof`), so the version
    compiled here, and cached on disk, is the one a compiled caller loads instead of compiling it again."""
    if HAVE_NUMBA:
        fn.compile(tuple(_numba.typeof(a) for a in args))  # type: ignore[attr-defined]


_STARTED: dict[str, list[Any]] = {}
"""The helper processes `start_parts` started, by package, until `compile_parts` waits for them."""


def _helpers(parts: list[str]) -> list[Any]:
    """A process per part (`python -m generator.engine.compile_part PART`), started now."""
    import subprocess
    import sys

    # the helpers import this very package (and the game's), wherever it was imported from here
    path = os.pathsep.join(p for p in (str(_PACKAGE.parent), os.environ.get("PYTHONPATH")) if p)
    return [
        subprocess.Popen(
            [sys.executable, "-m", "generator.engine.compile_part", part],
            env={**os.environ, "PYTHONPATH": path},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for part in parts
    ]


def _stop(helpers: list[Any]) -> None:
    """Kill the helpers still running (and reap them)."""
    for proc in helpers:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _stop_started() -> None:
    """At exit: the helpers `start_parts` started that no `compile_parts` waited for (the command failed
    before its warm-up)."""
    for helpers in _STARTED.values():
        _stop(helpers)
    _STARTED.clear()


def start_parts(package: str) -> None:
    """Start the helper processes of `package`'s parts but the first (`compile_parts`) now, before the work
    that precedes the warm-up (a check's static checks, which compile kernels of their own), so that they
    compile meanwhile; the next `compile_parts(package)` runs the first part and waits for them. Those still
    running when the process exits are killed. Nothing happens where `compile_parts` would do nothing, or
    when they were started already."""
    parts = registered_parts(package)
    if not HAVE_NUMBA or len(parts) < 2 or (os.cpu_count() or 1) < 2 or package in _STARTED:
        return
    import atexit

    if not _STARTED:
        atexit.register(_stop_started)
    _STARTED[package] = _helpers(parts[1:])


def compile_parts(package: str, *, timeout: float = 600.0) -> None:
    """Compile the registered parts of `package` (a game's, `registered_parts`) at the same time: the first
    in this process, each other one in a process of its own (`python -m generator.engine.compile_part`;
    started now, or earlier by `start_parts`), so that a game whose kernels compile one after another on one
    core compiles on two. numba writes what a process compiles to its disk cache (NUMBA_CACHE_DIR, shared),
    and a compiled function whose callee another process cached loads the callee instead of compiling it.
    Returns when every part is done; a part that fails, or runs past `timeout` seconds, is left to the
    caller's compile (it compiles what is missing), so this only ever saves time. Nothing happens without
    numba, with fewer than two parts or on one CPU."""
    parts = registered_parts(package)
    if not HAVE_NUMBA or len(parts) < 2 or (os.cpu_count() or 1) < 2:
        return
    import subprocess
    import time

    helpers = _STARTED.pop(package, None) or _helpers(parts[1:])
    try:
        run_part(parts[0])
        deadline = time.monotonic() + timeout
        for proc in helpers:
            try:
                proc.wait(timeout=max(deadline - time.monotonic(), 0.0))
            except subprocess.TimeoutExpired:
                pass
    finally:
        _stop(helpers)


def run_part(part: str) -> None:
    """Call the registered compile part MODULE:FUNCTION (its module imported first, which registers it);
    ValueError when no such part is registered."""
    import importlib

    module, _, name = part.partition(":")
    target: Any = importlib.import_module(module)
    if part not in _PARTS:
        raise ValueError(f"{part}: not a registered compile part")
    for attr in name.split("."):
        target = getattr(target, attr)
    target()


_SHIFT_A = np.uint64(13)
_SHIFT_B = np.uint64(7)
_SHIFT_C = np.uint64(17)
_SHIFT_11 = np.uint64(11)
_TWO_53 = float(2**53)


def seed_state(seed: np.random.SeedSequence | int) -> np.ndarray:
    """A fresh uint64[1] RNG state from a SeedSequence (or int); never zero."""
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    s = ss.generate_state(1, dtype=np.uint64)
    if s[0] == 0:
        s[0] = np.uint64(0x9E3779B97F4A7C15)
    return s


@jit
def rng_next(state: np.ndarray) -> np.uint64:
    """Advance the xorshift64 state and return the next 64-bit value."""
    x = state[0]
    x ^= x << _SHIFT_A
    x ^= x >> _SHIFT_B
    x ^= x << _SHIFT_C
    state[0] = x
    return x  # type: ignore[no-any-return]


@jit
def rand_below(state: np.ndarray, n: int) -> np.int64:
    """A uniform integer in 0..n-1 (n >= 1); bias below 2**-50 for game-sized n."""
    return np.int64(rng_next(state) % np.uint64(n))  # signed: uint64 - int64 would silently become float


@jit_inline
def rand_below_inline(state: np.ndarray, n: int) -> np.int64:
    """`rand_below` (the same xorshift64 step and draw, so the same stream) inlined into its caller without
    reference counting: `rand_below` counts a reference to the state array on every call, a few per cent of a
    hot loop that draws at every step (a Peak Dice game)."""
    x = state[0]
    x ^= x << _SHIFT_A
    x ^= x >> _SHIFT_B
    x ^= x << _SHIFT_C
    state[0] = x
    return np.int64(x % np.uint64(n))


@jit
def rand_unit(state: np.ndarray) -> float:
    """A uniform float in [0, 1)."""
    return float(rng_next(state) >> _SHIFT_11) / _TWO_53


@jit
def shuffle_inplace(state: np.ndarray, arr: np.ndarray) -> None:
    """Fisher-Yates shuffle of a 1-D array in place."""
    for i in range(arr.shape[0] - 1, 0, -1):
        j = rand_below(state, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
