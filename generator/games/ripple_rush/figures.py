"""What the printed Ripple Rush kit takes from the rules: generated sheet variants (and, as they move here
from the composer, every figure the printed rules show)."""

from __future__ import annotations

from typing import Any


def print_data(spec: Any, seed: int) -> dict[str, Any]:
    """What the printed kit needs that is generated: the accepted sheet variants (none unless asked)."""
    if spec.variants.count <= 0:
        return {"variants": []}
    from generator.games.ripple_rush.variants import generate_variants  # self-play: only when variants are asked

    return {"variants": [v for v in generate_variants(spec, seed) if v.accepted][: spec.variants.count]}
