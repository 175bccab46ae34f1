"""Rummy Cards' compile parts (kernel.compile_part) compile what play_rounds calls, for the very types it
calls it with: a part that compiled another signature would leave the real one to the final compile (no
time saved) and cost its own compile on top."""

from __future__ import annotations

from typing import Any

import pytest

from generator.engine.kernel import HAVE_NUMBA, registered_parts
from generator.games.rummy_cards import sim, solver
from tests.engine.kernel_calls import calls

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="numba not installed (or PNPKIT_PURE=1)")


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
    from_round = calls(sim.play_round, round_types)
    assert from_round == {name: asked[name] for name in from_round}  # every step, each as it is called
    (turn_types,) = from_round["solve_turn"]
    from_turn = calls(solver.solve_turn, turn_types)  # _best_retrieval's tree is merged into solve_turn
    for name in ("decode", "_greedy_incumbent"):  # compiled by the first part, before the search needs them
        called = from_turn.get(name, set())
        assert called and called <= asked[name], name
