"""Peak Dice: a roll-and-write whose rows rise to a peak line and fall after it (rules in rules.py).

Names are imported on first use (PEP 562): `pnpkit build` and `validate` need only the legal checks and
must not pay for numba and the simulation kernels."""

from __future__ import annotations

from typing import Any

from generator.games.lazy import lazy_getattr

GAME_ID = "peak_dice"

_WHERE = {
    "balance_report": "balance", "legal_problems": "legal",
    "GREEDY": "policies", "PLANNER": "policies", "PLANNER_KEEP": "policies", "POLICIES": "policies", "RANDOM": "policies", "REROLL": "policies", "Policy": "policies",
    "play_reference": "policies", "PlannerParams": "planner", "DEFAULT_PARAMS": "planner",
    "RULESET_VERSION": "rules", "Game": "rules", "Outcome": "rules", "Pass": "rules", "Reroll": "rules",
    "Roll": "rules", "State": "rules", "Write": "rules", "miss_penalty": "rules", "second_lowest": "rules",
    "Simulation": "sim", "Tables": "tables", "build_tables": "tables", "transcript": "transcript",
    "Variant": "variants", "generate_variants": "variants",
}

__all__ = ["GAME_ID", "print_data", *_WHERE]


__getattr__ = lazy_getattr(__name__, _WHERE, globals())


def print_data(spec: Any, seed: int) -> dict[str, Any]:
    """Generated data the printed kit needs: the accepted sheet variants (none unless variants.count > 0)."""
    if spec.variants.count <= 0:
        return {"variants": []}
    from generator.games.peak_dice.variants import generate_variants

    return {"variants": [v for v in generate_variants(spec, seed) if v.accepted][: spec.variants.count]}
