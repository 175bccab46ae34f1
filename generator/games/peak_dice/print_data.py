"""Generated, language-independent data the printed Peak Dice kit needs: the accepted sheet variants."""

from __future__ import annotations

from typing import Any

from generator.spec.games.peak_dice import PeakDiceGame


def print_data(spec: PeakDiceGame, seed: int) -> dict[str, Any]:
    """{"variants": [...]}: the accepted generated sheets (peak per row, printed code), none when
    `variants.count` is 0. Seeded, computed once per build and shared by every language."""
    if spec.variants.count <= 0:
        return {"variants": []}
    from generator.games.peak_dice.variants import generate_variants

    return {"variants": [v for v in generate_variants(spec, seed) if v.accepted]}


__all__ = ["print_data"]
