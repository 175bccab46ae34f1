"""Raindrops' compile parts (kernel.compile_part) compile what play_games' tree calls, for the very types it
calls it with: a part that compiled another signature would leave the real one to the final compile (no time
saved) and cost its own compile on top."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from generator.engine.kernel import HAVE_NUMBA, registered_parts
from generator.games.raindrops import kernel, kernel_parts, kernel_tables
from tests.engine.kernel_calls import calls
from tests.games.raindrops.test_rules_fixtures import PARAMS, bag84, bonus28, clouds12, deck54, thunder10

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="numba not installed (or PNPKIT_PURE=1)")

STEPS = ("new_state", "deal", "play_turns", "score_game")
"""What play_game calls: play_turns is merged into play_game and play_game into play_chunk, compiled after
the parts, the others by them (the Workspace is made in Python: `kernel.workspace`)."""
TURN_STEPS = ("_refill_window", "drop_step", "placements", "end_placement", "cloud_tokens", "end_turn")


def _asked(monkeypatch: pytest.MonkeyPatch) -> dict[str, set[tuple[Any, ...]]]:
    """The compiled functions the parts compile and the argument types of each (compile_for only records)."""
    import numba

    asked: dict[str, set[tuple[Any, ...]]] = {}

    def record(fn: Any, *args: Any) -> None:
        asked.setdefault(fn.py_func.__name__, set()).add(tuple(numba.typeof(a) for a in args))

    monkeypatch.setattr(kernel_parts, "compile_for", record)
    kernel_parts.compile_game_steps()
    kernel_parts.compile_placement_steps()
    return asked


def _real_types(players: int) -> tuple[Any, ...]:
    """The argument types sim.FullGames' call of play_games passes `play_chunk` (a Setup of the seed game,
    its Workspace and Tallies)."""
    import numba

    from generator.games.raindrops.kernel_rng import MT_N

    tb = kernel_tables.tables_for(PARAMS, bag84(), deck54(), bonus28(), clouds12(), thunder10())
    i64, f64 = np.zeros(3, np.int64), np.zeros(3, np.float64)
    tally = kernel_tables.Tallies(
        f64,
        i64,
        np.zeros((3, 5), np.int64),
        i64,
        i64,
        i64,
        np.zeros((3, 4), np.int64),
        i64,
        i64,
        i64,
        f64,
        f64,
    )
    ws = kernel.workspace(players, tb)
    mt = np.zeros(MT_N + 1, np.int64)
    return tuple(numba.typeof(a) for a in (mt, i64, i64, 1, 2000, tb, ws, tally))


def test_the_parts_are_registered_in_order_the_game_steps_first():
    assert registered_parts("generator.games.raindrops") == [
        "generator.games.raindrops.kernel_parts:compile_game_steps",
        "generator.games.raindrops.kernel_parts:compile_placement_steps",
    ]


def test_the_parts_compile_every_step_with_the_types_play_games_passes(monkeypatch):
    asked = _asked(monkeypatch)
    called = calls(kernel.play_chunk, _real_types(3))  # play_game and play_turns are merged into it
    assert set(called) == (set(STEPS) - {"play_turns"}) | set(TURN_STEPS)
    assert called == {name: asked[name] for name in called}  # every step, each exactly as it is called
    assert set(asked) == set(called)  # and nothing besides


def test_a_part_compiles_for_the_types_of_any_player_count(monkeypatch):
    """The seat count is a value, not a type: the parts' two seats stand for the kit's 2 to 4."""
    asked = _asked(monkeypatch)
    for players in (2, 4):
        assert calls(kernel.play_chunk, _real_types(players))["new_state"] == asked["new_state"]
