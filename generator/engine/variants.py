"""Re-judging generated sheet variants at check time, out of sample.

A game whose build prints sheet variants accepts each one on the games of the build's seed; `pnpkit check`
plays the default sheet and every accepted variant again, side by side on the same games of a seed stream
the build never used, and bounds each variant's expected score against the default's. The game says how
a variant is compared (a paired difference, a ratio of means), which tolerance bounds it, and the wording."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from generator.engine.report import BalanceReport, Tolerance, bounded
from generator.engine.runner import Executor, Simulation, derived_seed, run
from generator.engine.verdict import Evidence
from generator.spec.base import Bound

VARIANT_STREAM = 0x564152
"""Spawn key of the games that re-judge accepted sheet variants: never the stream that accepted them."""


def variant_stream(seed: int) -> int:
    """The run seed of the re-judging games: SeedSequence([seed, VARIANT_STREAM])."""
    return derived_seed(seed, VARIANT_STREAM)


def rejudge_variants(
    rep: BalanceReport,
    default: Simulation,
    variants: Iterable[tuple[str, Simulation]],
    *,
    games: int,
    seed: int,
    executor: Executor | None,
    progress: Callable[[int], None] | None,
    score: str,
    evidence: Callable[[np.ndarray, np.ndarray], Evidence],
    name: Callable[[str], str],
    bound: Bound,
    spec_key: str,
    accepted_on: str,
    note_tail: str = "",
) -> list[Tolerance]:
    """Play `default` and each (code, simulation) of `variants` for `games` games of the variant stream of
    `seed`; per game the table's mean of the tally's `score` (games x seats) is taken, `evidence(variant,
    default)` compares the two arrays (paired per game), and the variant's tolerance `name(code)` is bounded
    by `bound` (spec key `spec_key`, setting "variants"). The tolerances are appended to `rep`, in order, with
    one note saying which games accepted the variants (`accepted_on`) and which re-judged them; returned
    too."""
    stream = variant_stream(seed)

    def table_means(sim: Simulation) -> np.ndarray:
        means: np.ndarray = (
            run(sim, games, stream, executor, progress=progress)[score].astype(np.float64).mean(axis=1)
        )
        return means

    base = table_means(default)
    out = []
    for code, sim in variants:
        tol = bounded(name(code), evidence(table_means(sim), base), bound, spec_key, ("variants",))
        rep.tolerances.append(tol)
        out.append(tol)
    rep.notes.append(
        f"Sheet variants: accepted at build on {accepted_on}, re-judged here on {games} games of "
        f"another seed stream (spawn key {VARIANT_STREAM:#x}){note_tail}."
    )
    return out
