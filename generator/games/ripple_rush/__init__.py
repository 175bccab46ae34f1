"""Ripple Rush: flip-and-write, 1-5 players; reference rules, policies, compiled self-play, balance and
generated sheet variants, all driven by the kit spec (`generator.spec.games.ripple_rush.RippleRushGame`).

Names are imported on first use (PEP 562) so that `pnpkit build` and `validate`, which need only the legal
checks, do not load numba and the simulation kernels."""

from __future__ import annotations

from typing import Any

from generator.games.lazy import lazy_getattr

GAME_ID = "ripple_rush"

_WHERE = {
    "balance_report": "balance", "legal_problems": "legal",
    "GREEDY": "policies", "POLICIES": "policies", "RANDOM": "policies", "STRONG": "policies", "Policy": "policies",
    "new_rng": "policies",
    "PASS": "rules", "RULESET_VERSION": "rules", "Action": "rules", "Card": "rules", "Cell": "rules",
    "Decision": "rules", "Game": "rules", "Outcome": "rules", "Pass": "rules", "SheetScore": "rules",
    "State": "rules", "Write": "rules",
    "RippleRushSim": "sim", "Setup": "sim", "transcript": "transcript", "Variant": "variants",
    "generate_variants": "variants",
}

__all__ = ["GAME_ID", "print_data", *_WHERE]


__getattr__ = lazy_getattr(__name__, _WHERE, globals())


def print_data(spec: Any, seed: int) -> dict[str, Any]:
    """What the printed kit needs that is generated: the accepted sheet variants (none unless asked)."""
    if spec.variants.count <= 0:
        return {"variants": []}
    from generator.games.ripple_rush.variants import generate_variants

    return {"variants": [v for v in generate_variants(spec, seed) if v.accepted][: spec.variants.count]}
