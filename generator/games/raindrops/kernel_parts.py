"""Raindrops' compile parts (`kernel.compile_part`): the full-game kernel's call tree (`kernel.play_games`)
split where it separates, so that `kernel.compile_parts` compiles it on two cores at once.

Measured with numba's compile events on an empty cache (CPU seconds, each including its callees): play_games
29.6 = play_game 24.7 (= play_turns 17.3, new_state 2.2, deal 0.7, score_game 1.0, its own 3.5), workspace
1.9 and its own 3. play_turns is drop_step 5.3, placements 8.1, end_placement 0.7, cloud_tokens and end_turn
(under 0.5 each) and its own 3. So the first part (the checking process) compiles the game's set-up and
the drop step, about 11 CPU-s after the static checks (which compile the card-difficulty kernels, 3 CPU-s),
and the second (a helper process, started before the static checks: `kernel.start_parts`) the placement
steps and the scoring, about 10 CPU-s and its start-up; the level above them (`play_chunk`, with play_game
and play_turns merged into it: the steps' machine code linked once, about 4 CPU-s, where the three levels
play_games > play_game > play_turns took 10) compiles after, in this process, loading both.

Only the types matter: the sample Setup, Workspace and Tallies are tiny arrays of the dtypes and dimensions
`kernel_tables.tables` and `sim.FullGames` make (tests/games/raindrops/test_compile_parts.py checks every step
against the types play_turns and play_game call it with)."""

from __future__ import annotations

from typing import Any

import numpy as np

from generator.engine.kernel import compile_for, compile_part

_SETUP_FLOAT = ("c_ratio", "c_per", "means")
_SETUP_2D = ("cstack", "cond", "c_col", "c_pi", "c_pj", "covers")
_TALLY_FLOAT = ("wins", "greedy_wins", "margin")
_TALLY_2D = ("parts", "clouds")


def _sample() -> dict[str, Any]:
    """The arguments play_game passes its steps, by name: the MT19937 state, a Setup, a Workspace of two seats
    (made by `workspace`), Tallies, an int64 and a bool."""
    from generator.games.raindrops.kernel import workspace
    from generator.games.raindrops.kernel_rng import MT_N
    from generator.games.raindrops.kernel_tables import Setup, Tallies

    def arr(
        name: str, floats: tuple[str, ...], two_d: tuple[str, ...], *, covers: bool = False
    ) -> np.ndarray:
        dtype = np.int8 if covers else np.float64 if name in floats else np.int64
        return np.zeros((2, 2) if name in two_d else 18, dtype=dtype)

    setup = Setup(*(arr(f, _SETUP_FLOAT, _SETUP_2D, covers=f == "covers") for f in Setup._fields))
    tally = Tallies(*(arr(f, _TALLY_FLOAT, _TALLY_2D) for f in Tallies._fields))
    ws = workspace(2, setup)
    return {"mt": np.zeros(MT_N + 1, np.int64), "setup": setup, "ws": ws, "tally": tally, "i": 0, "no": False}


@compile_part
def compile_game_steps() -> None:
    """Compile part: a game's set-up (`new_state`, `deal`, `_refill_window`), the drop step
    and the end of a turn, for the types play_games, play_game and play_turns pass. The first part: run
    in the process that compiles play_chunk after."""
    from generator.games.raindrops.kernel import deal, end_turn, new_state
    from generator.games.raindrops.kernel_drop import _refill_window, drop_step

    a = _sample()
    mt, setup, ws, i = a["mt"], a["setup"], a["ws"], a["i"]
    compile_for(new_state, mt, i, i, setup, ws)
    compile_for(deal, mt, setup, ws)
    compile_for(_refill_window, mt, setup, ws)
    compile_for(drop_step, mt, i, setup, ws)
    compile_for(end_turn, mt, setup, ws)


@compile_part
def compile_placement_steps() -> None:
    """Compile part: a turn's placement steps (`placements`, `end_placement`, `cloud_tokens`) for the types
    play_turns passes them, and the scoring (`score_game`) for play_game's."""
    from generator.games.raindrops.kernel import score_game
    from generator.games.raindrops.kernel_place import cloud_tokens, end_placement, placements

    a = _sample()
    mt, setup, ws, tally, i, no = a["mt"], a["setup"], a["ws"], a["tally"], a["i"], a["no"]
    compile_for(placements, mt, i, no, setup, ws)
    compile_for(end_placement, i, setup, ws)
    compile_for(cloud_tokens, i, i, setup, ws, tally)
    compile_for(score_game, i, i, no, setup, ws, tally)
