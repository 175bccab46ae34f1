"""Generated sheet variants: row bonuses shuffled per sheet (seeded), each measured under the reference
policy against the default sheet with common random numbers, accepted within the spec's tolerance."""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

from generator.engine.runner import Executor, run
from generator.games.ripple_rush.sim import RippleRushSim, Setup
from generator.games.ripple_rush.spec import RippleRushGame

_B36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Variant:
    """One generated sheet: its printed code, bonus order (top row first), expected score and verdict."""

    code: str
    bonuses: tuple[int | str, ...]
    expected_score: float
    ratio: float
    """expected_score / expected score of the default sheet."""
    accepted: bool


def variant_code(index: int, bonuses: tuple[int | str, ...]) -> str:
    """A short printable code, e.g. 'V3-7K2': the candidate number and a checksum of the bonus order."""
    h = zlib.crc32(",".join(str(b) for b in bonuses).encode("utf-8")) % (36**3)
    tail = "".join(_B36[(h // 36**k) % 36] for k in (2, 1, 0))
    return f"V{index}-{tail}"


def expected_score(
    spec: RippleRushGame, bonuses: tuple[int | str, ...], seed: int, executor: Executor | None = None
) -> float:
    """Mean score per player of the reference policy on a sheet with these bonuses."""
    v = spec.variants
    sim = RippleRushSim(Setup.from_spec(spec, bonuses), v.players, (spec.balance.reference_policy,))
    t = run(sim, v.games, seed, executor)
    return float(t["games.score"].mean())


def generate_variants(spec: RippleRushGame, seed: int, executor: Executor | None = None) -> list[Variant]:
    """Shuffle the row bonuses into distinct sheets until `variants.count` are accepted (or attempts run out);
    every candidate is returned, accepted or not, in the order drawn."""
    v = spec.variants
    if v.count == 0:
        return []
    base = tuple(spec.bonuses)
    common = seed + v.seed_offset  # the same games for every sheet: differences come from the sheet alone
    ref = expected_score(spec, base, common, executor)
    rng = np.random.default_rng(seed + v.seed_offset)
    seen = {base}
    out: list[Variant] = []
    accepted = 0
    tries = 0
    while accepted < v.count and tries < v.max_attempts:
        tries += 1
        cand = tuple(base[i] for i in rng.permutation(len(base)))
        if cand in seen:
            continue
        seen.add(cand)
        e = expected_score(spec, cand, common, executor)
        ratio = e / ref if ref else float("nan")
        ok = abs(ratio - 1.0) <= v.tolerance
        accepted += ok
        out.append(Variant(variant_code(len(out) + 1, cand), cand, e, ratio, ok))
    return out
