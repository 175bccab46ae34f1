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
    """What the printed kit needs from the rules: the figures the rules text and examples show, and the
    accepted sheet variants (none unless variants.count > 0)."""
    from generator.games.peak_dice.figures import rule_figures

    out: dict[str, Any] = {"figures": rule_figures(spec), "variants": []}
    if spec.variants.count > 0:
        from generator.games.peak_dice.variants import generate_variants

        out["variants"] = [v for v in generate_variants(spec, seed) if v.accepted][: spec.variants.count]
    return out
