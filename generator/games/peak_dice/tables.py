"""The static data of one Peak Dice sheet and dice set, as plain numpy arrays the kernel and the rules share.

A die is a list of faces, a face a (colour, value). Colour index r < rows is a row colour; index `rows` is
white. A colour's sum is the values of the faces showing that colour plus the values of all white faces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from generator.games.peak_dice.spec import WHITE, PeakDiceGame

if TYPE_CHECKING:
    from generator.games.peak_dice.planner import PlannerParams


@dataclass(frozen=True, eq=False)
class Tables:
    """Arrays built once from a validated spec (legal colours assumed; see `legal_problems`).

    Only what the games read: the miss track's length (spec.miss_boxes) is the balance check's business, so
    sheets that differ in it alone make equal simulations, whose games a CachingExecutor plays once (a tune
    walking the box counts, the check of a kit and of the same kit with one box fewer)."""

    colour_ids: tuple[str, ...]
    row_length: int
    peaks: np.ndarray
    """int64[rows]: the peak line sits after this many circles."""
    dice_colour: np.ndarray
    """int64[dice, max_faces]: colour index of each face (rows = white); padding faces are never rolled."""
    dice_value: np.ndarray
    """int64[dice, max_faces]: value of each face."""
    dice_faces: np.ndarray
    """int64[dice]: number of faces of each die."""
    cnt_lt: np.ndarray
    """int64[rows, max_sum + 2]: cnt_lt[r, v] = how many distinct achievable sums of colour r are below v."""
    totals: np.ndarray
    """int64[rows]: how many distinct sums colour r can show."""
    mass_lt: np.ndarray
    """float64[rows, max_sum + 2]: mass_lt[r, v] = probability that a fresh roll's colour-r sum is below v."""
    rerolls: int
    step_b_optional: bool
    """House rule: B may be declined when a colour fits (spec.rules.step_b == "optional")."""
    miss_cap: int
    """House rule: -1, every miss costs more; else a full track (this many boxes) costs no more."""
    final_turn_miss: bool
    """House rule: the active player's miss is still taken when another sheet filled up in C."""
    distinct_columns: bool
    """House rule: a column scores its second lowest distinct value (else counting equal values)."""
    b_full_plays_c: bool
    """House rule: a sheet filled in step B still lets every player play step C
    (spec.rules.sheet_full_in_b)."""
    plan_v: np.ndarray
    """float64[open rows - 1, rows, row_length + 1, max_sum + 1]: the planner's row values
    (planner.plan_table)."""
    plan_q: np.ndarray
    """float64[open rows - 1, rows, row_length + 1, max_sum + 1]: the planner's value of writing v next."""
    planner: PlannerParams
    """The planner's exchange rates (miss value, re-roll sets, the price of a write that ruins its row)."""

    @property
    def rows(self) -> int:
        """Number of coloured rows."""
        return len(self.colour_ids)

    @property
    def dice(self) -> int:
        """Number of dice."""
        return int(self.dice_faces.shape[0])

    def colour_name(self, index: int) -> str:
        """Colour id of an index (the white index gives "white")."""
        return WHITE if index == self.rows else self.colour_ids[index]

    def achievable(self, row: int) -> list[int]:
        """The distinct sums colour `row` can show, ascending."""
        c = self.cnt_lt[row]
        return [v for v in range(c.shape[0] - 1) if c[v + 1] > c[v]]


def achievable_sums(faces_per_die: Sequence[Sequence[tuple[int, int]]], colour: int, white: int) -> set[int]:
    """Every sum colour `colour` can show: each die adds its face value when the face is that colour or
    white."""
    sums = {0}
    for faces in faces_per_die:
        contrib = {v if c in (colour, white) else 0 for c, v in faces}
        sums = {s + x for s in sums for x in contrib}
    return sums


def sum_distribution(
    faces_per_die: Sequence[Sequence[tuple[int, int]]], colour: int, white: int, size: int
) -> np.ndarray:
    """Probability of every colour sum 0..size-1 for one fresh roll (faces equally likely)."""
    dist = np.zeros(size, dtype=np.float64)
    dist[0] = 1.0
    for faces in faces_per_die:
        nxt = np.zeros(size, dtype=np.float64)
        for c, v in faces:
            x = v if c in (colour, white) else 0
            nxt[x:] += dist[: size - x] / len(faces)
        dist = nxt
    return dist


def build_tables(spec: PeakDiceGame, peaks: Sequence[int] | None = None, planner: Any = None) -> Tables:
    """Arrays for the kernel from a spec whose colours are legal; `peaks` overrides the spec's (variants),
    `planner` (a planner.PlannerParams) the planner's default exchange rates."""
    from generator.games.peak_dice.planner import DEFAULT_PARAMS, plan_arrays  # loads the kernel (numba)

    ids = tuple(c.id for c in spec.colours)
    index = {cid: i for i, cid in enumerate(ids)}
    white = len(ids)
    index[WHITE] = white
    faces = [[(index[f.colour], f.value) for f in d.expanded()] for d in spec.dice]
    max_faces = max(len(f) for f in faces)
    dcol = np.zeros((len(faces), max_faces), dtype=np.int64)
    dval = np.zeros((len(faces), max_faces), dtype=np.int64)
    nf = np.zeros(len(faces), dtype=np.int64)
    for d, fl in enumerate(faces):
        nf[d] = len(fl)
        for k, (c, v) in enumerate(fl):
            dcol[d, k] = c
            dval[d, k] = v
    max_sum = int(sum(max(v for _, v in fl) for fl in faces))
    cnt = np.zeros((len(ids), max_sum + 2), dtype=np.int64)
    totals = np.zeros(len(ids), dtype=np.int64)
    mass = np.zeros((len(ids), max_sum + 2), dtype=np.float64)
    for r in range(len(ids)):
        dist = sum_distribution(faces, r, white, max_sum + 1)
        mass[r, 1:] = np.cumsum(dist)
        ach = achievable_sums(faces, r, white)
        mark = np.zeros(max_sum + 2, dtype=np.int64)
        for v in ach:
            mark[v + 1] = 1
        cnt[r] = np.cumsum(mark)
        totals[r] = len(ach)
    pk = np.asarray(list(peaks) if peaks is not None else list(spec.peaks()), dtype=np.int64)
    params = planner if planner is not None else DEFAULT_PARAMS
    plan_v, plan_q = plan_arrays(pk, spec.row_length, mass, params)
    return Tables(
        ids,
        spec.row_length,
        pk,
        dcol,
        dval,
        nf,
        cnt,
        totals,
        mass,
        spec.rerolls,
        spec.rules.step_b == "optional",
        spec.miss_boxes if spec.rules.miss_track_full == "capped" else -1,
        spec.rules.final_turn_miss == "taken",
        spec.rules.column_score == "second_lowest_distinct",
        spec.rules.sheet_full_in_b == "step_c_played",
        plan_v,
        plan_q,
        params,
    )
