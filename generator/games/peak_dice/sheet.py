"""What every compiled Peak Dice loop shares: the Setup (one sheet, dice set and house rules as arrays), the
Workspace (every player's sheet during a game and the scratch a decision needs) and the sheet's rules
(colour sums, the legal write, whether a row can still be completed, writing a value).

The play loop (kernel.py) and the planner (planner.py) both import this module; neither imports the other's
helpers through it. Sheet state: ws.sheet[p, r, i] is the value in circle i of row r of player p;
ws.filled[p, r] how many circles of that row are filled (left to right, no skipping); ws.misses[p] the
checked miss boxes; ws.dead[p] = 1 once some row of p can no longer be completed with achievable sums.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from generator.engine.kernel import jit_noref

if TYPE_CHECKING:
    from generator.games.peak_dice.tables import Tables

NEG = -1.0e9
"""Utility of a write that is illegal or leaves its row impossible to complete (the planner's gain of an
illegal write; under a compulsory step B a legal write that ruins its row gets planner.doom_gain instead)."""


class Setup(NamedTuple):
    """One sheet, dice set and house rules as the compiled loops read them (see tables.Tables)."""

    peaks: np.ndarray
    """int64[rows]: the peak line sits after this many circles."""
    row_length: int
    dice_colour: np.ndarray
    """int64[dice, max_faces]: colour index of each face (rows = white)."""
    dice_value: np.ndarray
    """int64[dice, max_faces]: value of each face."""
    dice_faces: np.ndarray
    """int64[dice]: number of faces of each die."""
    cnt_lt: np.ndarray
    """int64[rows, max_sum + 2]: how many distinct achievable sums of colour r are below v."""
    totals: np.ndarray
    """int64[rows]: how many distinct sums colour r can show."""
    mass_lt: np.ndarray
    """float64[rows, max_sum + 2]: probability that a fresh roll's colour-r sum is below v."""
    rerolls: int
    step_b_optional: bool
    """House rule: B may be declined when a colour fits."""
    miss_cap: int
    """House rule: -1, every miss costs more; else a full track (this many boxes) costs no more."""
    final_turn_miss: bool
    """House rule: the active player's miss is still taken when a sheet filled up in C."""
    distinct_columns: bool
    """House rule: a column scores its second lowest distinct value (else counting equal values)."""
    b_full_plays_c: bool
    """House rule: a sheet filled in step B still lets every player play step C."""


def setup_of(t: Tables) -> Setup:
    """The kernel's view of a Tables."""
    return Setup(
        t.peaks,
        t.row_length,
        t.dice_colour,
        t.dice_value,
        t.dice_faces,
        t.cnt_lt,
        t.totals,
        t.mass_lt,
        t.rerolls,
        t.step_b_optional,
        t.miss_cap,
        t.final_turn_miss,
        t.distinct_columns,
        t.b_full_plays_c,
    )


class Workspace(NamedTuple):
    """Every player's sheet during a game and the scratch of the decisions, allocated once per chunk (reset
    per game by the play loop) or per decision (the reference policies)."""

    sheet: np.ndarray
    """int64[players, rows, row_length]: the values written."""
    filled: np.ndarray
    """int64[players, rows]: circles filled per row."""
    misses: np.ndarray
    """int64[players]: miss boxes checked."""
    dead: np.ndarray
    """int64[players]: 1 once some row can no longer be completed."""
    done: np.ndarray
    """int64[players]: circles filled on the whole sheet."""
    dirty: np.ndarray
    """int64[players, rows]: 1 when the row was written since its `table` entries were computed."""
    table: np.ndarray
    """float64[players, rows, values]: per row and sum, the policy's value of writing it (greedy: utility,
    planner: gain)."""
    faces: np.ndarray
    """int64[dice]: the face each die shows."""
    sums: np.ndarray
    """int64[rows]: every colour's sum of the faces shown."""
    trial: np.ndarray
    """int64[rows]: the sums of a re-roll outcome being valued."""
    scratch: np.ndarray
    """int64[rows + 2]: the random policy's candidates."""
    column: np.ndarray
    """int64[rows]: one column being scored."""
    best_u: np.ndarray
    """float64[1]: the utility of the colour best_colour returned."""


def workspace(setup: Setup, players: int) -> Workspace:
    """A fresh Workspace for `players` seats (every row dirty). Python, not compiled: numpy makes the same
    arrays (the same numba types) once per chunk or decision, and compiling it took a CPU-second of every
    first check."""
    rows = setup.peaks.shape[0]
    return Workspace(
        np.zeros((players, rows, setup.row_length), dtype=np.int64),
        np.zeros((players, rows), dtype=np.int64),
        np.zeros(players, dtype=np.int64),
        np.zeros(players, dtype=np.int64),
        np.zeros(players, dtype=np.int64),
        np.ones((players, rows), dtype=np.int64),
        np.zeros((players, rows, setup.cnt_lt.shape[1] - 1), dtype=np.float64),
        np.zeros(setup.dice_faces.shape[0], dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows + 2, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
        np.zeros(1, dtype=np.float64),
    )


@jit_noref
def colour_sums(
    dice_colour: np.ndarray, dice_value: np.ndarray, faces: np.ndarray, rows: int, sums: np.ndarray
) -> None:
    """sums[r] = values of faces showing colour r + values of all white faces (white index = rows)."""
    for r in range(rows):
        sums[r] = 0
    for d in range(faces.shape[0]):
        c = dice_colour[d, faces[d]]
        v = dice_value[d, faces[d]]
        if c == rows:
            for r in range(rows):
                sums[r] += v
        else:
            sums[c] += v


@jit_noref
def is_legal_write(
    sheet: np.ndarray, filled: np.ndarray, peaks: np.ndarray, row_length: int, p: int, r: int, v: int
) -> bool:
    """Writing v next in row r of player p: a free circle, rising up to the peak line, falling after it."""
    f = filled[p, r]
    if f >= row_length:
        return False
    if f == 0:
        return True
    a = sheet[p, r, f - 1]
    if f < peaks[r]:
        return v > a  # type: ignore[no-any-return]  # compiled: numpy scalar
    return v < a  # type: ignore[no-any-return]  # compiled: numpy scalar


@jit_noref
def row_completable(
    sheet: np.ndarray,
    filled: np.ndarray,
    peaks: np.ndarray,
    row_length: int,
    cnt_lt: np.ndarray,
    totals: np.ndarray,
    p: int,
    r: int,
) -> bool:
    """Row r of player p can still be filled with achievable sums (rising to the peak, falling after)."""
    f = filled[p, r]
    pk = peaks[r]
    if f >= row_length:
        return True
    if f == 0:
        need = pk - 1 if pk - 1 > row_length - pk else row_length - pk
        return totals[r] - 1 >= need  # type: ignore[no-any-return]  # compiled: numpy scalar
    a = sheet[p, r, f - 1]
    if f < pk:
        # values above a up to the top sum, then row_length - pk values below the top sum
        return totals[r] - cnt_lt[r, a + 1] >= pk - f and totals[r] - 1 >= row_length - pk  # type: ignore[no-any-return]  # compiled: numpy scalar
    return cnt_lt[r, a] >= row_length - f  # type: ignore[no-any-return]  # compiled: numpy scalar


@jit_noref
def do_write(setup: Setup, ws: Workspace, p: int, r: int, v: int) -> None:
    """Write v in the next circle of row r of player p and update the full/dead bookkeeping."""
    ws.sheet[p, r, ws.filled[p, r]] = v
    ws.filled[p, r] += 1
    ws.done[p] += 1
    ws.dirty[p, r] = 1
    if ws.filled[p, r] == setup.row_length:
        for i in range(ws.dirty.shape[1]):
            ws.dirty[p, i] = 1
    if not row_completable(
        ws.sheet, ws.filled, setup.peaks, setup.row_length, setup.cnt_lt, setup.totals, p, r
    ):
        ws.dead[p] = 1


__all__ = [
    "NEG",
    "Setup",
    "Workspace",
    "colour_sums",
    "do_write",
    "is_legal_write",
    "row_completable",
    "setup_of",
    "workspace",
]
