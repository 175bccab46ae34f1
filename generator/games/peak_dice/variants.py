"""Generated sheet variants: the peak line at a different position per row, accepted only when the sheet's
expected score stays within the spec's tolerance of the default sheet's."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from generator.engine.runner import run
from generator.games.peak_dice.legal import row_fill_problem
from generator.games.peak_dice.sim import Simulation
from generator.games.peak_dice.spec import PeakDiceGame
from generator.games.peak_dice.tables import build_tables

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Variant:
    """One generated sheet: its printed code, peak position per row, expected score, verdict."""

    code: str
    peaks: tuple[int, ...]
    expected_score: float
    accepted: bool
    reason: str
    """Why it was rejected, or how far it is from the default ("" never)."""


def variant_code(peaks: tuple[int, ...]) -> str:
    """The code printed on the sheet: "PD-" and one base-36 digit per row (the peak position)."""
    return "PD-" + "".join(DIGITS[p] for p in peaks)


def expected_score(spec: PeakDiceGame, peaks: tuple[int, ...], seed: int) -> float:
    """Mean final score per player in self-play on a sheet with these peaks."""
    v = spec.variants
    sim = Simulation(build_tables(spec, peaks), (spec.balance.policy,) * v.players, spec.balance.turn_limit)
    tally = run(sim, v.games, seed)
    return float(tally["games.scores"].mean())


def generate_variants(spec: PeakDiceGame, seed: int) -> list[Variant]:
    """`variants.count` distinct sheets with random peaks from `variants.peak_positions` (never the default),
    each simulated with the same seed as the default sheet (common random numbers)."""
    v = spec.variants
    default = spec.peaks()
    rows = len(default)
    positions = sorted(set(v.peak_positions))
    rng = np.random.default_rng(seed)
    possible = len(positions) ** rows - (1 if all(p in positions for p in default) else 0)
    chosen: list[tuple[int, ...]] = []
    while len(chosen) < min(v.count, possible):
        peaks = tuple(int(positions[i]) for i in rng.integers(0, len(positions), size=rows))
        if peaks != default and peaks not in chosen:
            chosen.append(peaks)
    base = expected_score(spec, default, seed) if chosen else math.nan
    tables = build_tables(spec)
    out = []
    for peaks in chosen:
        why = [
            row_fill_problem(tables.colour_ids[r], spec.row_length, peaks[r], tables.achievable(r))
            for r in range(rows)
        ]
        problems = [w for w in why if w]
        if problems:
            out.append(Variant(variant_code(peaks), peaks, math.nan, False, problems[0]))
            continue
        e = expected_score(spec, peaks, seed)
        diff = e - base
        ok = abs(diff) <= v.score_tolerance
        out.append(
            Variant(
                variant_code(peaks),
                peaks,
                e,
                ok,
                f"expected score {e:.2f} vs default {base:.2f}: {diff:+.2f} "
                f"({'within' if ok else 'outside'} ±{v.score_tolerance:g})",
            )
        )
    return out
