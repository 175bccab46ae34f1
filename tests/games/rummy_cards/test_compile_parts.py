"""Rummy Cards' compile parts (kernel.compile_part) compile what play_rounds calls, for the very types it
calls it with: a part that compiled another signature would leave the real one to the final compile (no
time saved) and cost its own compile on top."""

from __future__ import annotations

from typing import Any

import pytest

from generator.engine.kernel import HAVE_NUMBA, py_func, registered_parts
from generator.games.rummy_cards import sim, solver, solver_retrieval

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="numba not installed (or PNPKIT_PURE=1)")


def _calls(fn: Any, argtypes: tuple[Any, ...]) -> dict[str, set[tuple[Any, ...]]]:
    """The compiled functions `fn`'s body calls (numba's type inference of its Python body for `argtypes`)
    and the argument types of each call, by function name."""
    from numba.core import compiler, typed_passes, types
    from numba.core.registry import cpu_target

    interp = compiler.run_frontend(py_func(fn))
    typemap, _, calltypes, _ = typed_passes.type_inference_stage(
        cpu_target.typing_context, cpu_target.target_context, interp, argtypes, None
    )
    calls: dict[str, set[tuple[Any, ...]]] = {}
    for expr, sig in calltypes.items():
        callee = typemap.get(expr.func.name) if getattr(expr, "op", None) == "call" else None
        if isinstance(callee, types.Dispatcher):
            args = tuple(types.unliteral(a) for a in sig.args)
            calls.setdefault(callee.dispatcher.py_func.__name__, set()).add(args)
    return calls


def _asked(monkeypatch: pytest.MonkeyPatch) -> dict[str, set[tuple[Any, ...]]]:
    """The compiled functions the rummy parts compile and the argument types of each, the parts run with
    compile_for only recording (workspaces aside, which they call)."""
    import numba

    asked: dict[str, set[tuple[Any, ...]]] = {}

    def record(fn: Any, *args: Any) -> None:
        asked.setdefault(fn.py_func.__name__, set()).add(tuple(numba.typeof(a) for a in args))

    monkeypatch.setattr(sim, "compile_for", record)
    sim.compile_turn_steps()
    sim.compile_search()
    return asked


def test_the_parts_are_registered_in_order_the_turn_steps_first():
    assert registered_parts("generator.games.rummy_cards") == [
        "generator.games.rummy_cards.sim:compile_turn_steps",
        "generator.games.rummy_cards.sim:compile_search",
    ]


def test_the_parts_compile_every_step_play_round_calls_with_its_argument_types(monkeypatch):
    import numba

    asked = _asked(monkeypatch)
    setup, a = sim._sample_round()
    ws = sim.round_workspace(setup, 1)
    round_types = (numba.typeof(a["rng"]), numba.typeof(setup), numba.typeof(ws), numba.int64, numba.int64)
    from_round = _calls(sim.play_round, round_types)
    assert from_round == {name: asked[name] for name in from_round}  # every step, each as it is called
    (turn_types,) = from_round["solve_turn"]
    from_turn = _calls(solver.solve_turn, turn_types)
    (retrieval_types,) = from_turn["_best_retrieval"]  # merged into solve_turn: its calls are solve_turn's
    from_retrieval = _calls(solver_retrieval._best_retrieval, retrieval_types)
    for name in ("decode", "_greedy_incumbent"):  # compiled by the first part, before the search needs them
        called = from_turn.get(name, set()) | from_retrieval.get(name, set())
        assert called and called <= asked[name], name
