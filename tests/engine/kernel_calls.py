"""What a compiled function's body calls, as numba types it: the helper of the compile-part tests."""

from __future__ import annotations

from functools import cache
from typing import Any

from generator.engine.kernel import py_func


class _Typed(Exception):
    """Ends the pipeline of `calls` once its body is typed, carrying the type map and the call types."""

    def __init__(self, typemap: Any, calltypes: Any):
        super().__init__("typed")
        self.typemap = typemap
        self.calltypes = calltypes


@cache
def _type_only() -> Any:
    """numba's untyped passes and its type inference, then a stop carrying what they found (made once: each
    pass class is registered with numba's pass registry)."""
    from numba.core import compiler, compiler_machinery, typed_passes

    @compiler_machinery.register_pass(mutates_CFG=False, analysis_only=True)
    class _Stop(compiler_machinery.AnalysisPass):  # type: ignore[misc]
        _name = "pnpkit_test_stop_after_typing"

        def __init__(self) -> None:
            compiler_machinery.AnalysisPass.__init__(self)

        def run_pass(self, state: Any) -> bool:
            raise _Typed(state.typemap, state.calltypes)

    class _TypeOnly(compiler.CompilerBase):  # type: ignore[misc]
        def define_pipelines(self) -> list[Any]:
            pm = compiler.DefaultPassBuilder.define_untyped_pipeline(self.state)
            pm.add_pass(typed_passes.NopythonTypeInference, "nopython frontend")
            pm.add_pass(_Stop, "stop after typing")
            pm.finalize()
            return [pm]

    return _TypeOnly


def calls(fn: Any, argtypes: tuple[Any, ...]) -> dict[str, set[tuple[Any, ...]]]:
    """The compiled functions `fn`'s body calls for `argtypes`, with the argument types of each call, by
    function name, as numba's own compile sees them: its untyped passes first, so a function merged into
    its caller (`jit_merged`, inline="always") is inlined as the real compile inlines it, and its calls are
    the caller's. Nothing is lowered, and no merged function is compiled on its own (typing a call to one
    compiled it: about 7 CPU-s for each of Rummy Cards' and Raindrops' merged trees); a called function
    that is not merged is typed by its dispatcher, which loads it from numba's cache when it is there."""
    from numba.core import compiler, types

    own = fn._compiler  # the dispatcher's compiler: its target, options (flags) and locals, as it compiles
    flags = compiler.Flags()
    own.targetdescr.options.parse_as_flags(flags, own.targetoptions)
    try:
        compiler.compile_extra(
            own.targetdescr.typing_context,
            own.targetdescr.target_context,
            py_func(fn),
            argtypes,
            None,
            flags,
            own.locals,
            pipeline_class=_type_only(),
        )
    except _Typed as typed:
        typemap, calltypes = typed.typemap, typed.calltypes
    else:  # pragma: no cover - the pipeline always ends in _Stop
        raise AssertionError("the typing pipeline did not stop after typing")
    out: dict[str, set[tuple[Any, ...]]] = {}
    for expr, sig in calltypes.items():
        callee = typemap.get(expr.func.name) if getattr(expr, "op", None) == "call" else None
        if isinstance(callee, types.Dispatcher):
            args = tuple(types.unliteral(a) for a in sig.args)
            out.setdefault(callee.dispatcher.py_func.__name__, set()).add(args)
    return out
