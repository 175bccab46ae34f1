"""Every figure the printed kit shows, computed here from the spec by the rules so the layout never restates a
rule: the sheet's shape (rows, circles, peak lines, circles to fill), the dice counts, the sum range per
colour, a legal example row, a scored example column, the miss boxes' values and the penalties."""

from __future__ import annotations

from typing import Any

from generator.games.peak_dice.rules import miss_cost, miss_penalty, second_lowest
from generator.games.peak_dice.spec import WHITE, PeakDiceGame
from generator.games.peak_dice.tables import achievable_sums

EXAMPLE_OFFSETS = (-2, -1, -2, 1)
"""Shape of the example column around the middle sum (gives the seed's 9, 10, 9, 12 for six d6)."""


def colour_sums(spec: PeakDiceGame, row: int) -> list[int]:
    """Every sum the dice can give for row `row`'s colour, ascending."""
    index = {c.id: i for i, c in enumerate(spec.colours)}
    index[WHITE] = len(spec.colours)
    faces = [[(index.get(f.colour, -1), f.value) for f in die.expanded()] for die in spec.dice]
    return sorted(achievable_sums(faces, row, len(spec.colours)))


def example_column(spec: PeakDiceGame) -> list[int]:
    """A column for the scoring example: values around the middle of the first row's sums."""
    sums = colour_sums(spec, 0)
    mid = sums[len(sums) // 2] if sums else 0
    return [max(0, mid + EXAMPLE_OFFSETS[i % len(EXAMPLE_OFFSETS)]) for i in range(len(spec.colours))]


def example_row(spec: PeakDiceGame, row: int = 0) -> list[int]:
    """Legal values for a whole row: strictly rising up to the peak, strictly falling after it ([] if
    none)."""
    sums = colour_sums(spec, row)
    n, peak = spec.row_length, spec.peaks()[row]
    if len(sums) < max(peak, n - peak + 1):
        return []
    top = len(sums) - 1
    rising = [sums[round(i * top / max(1, peak - 1))] if peak > 1 else sums[top] for i in range(peak)]
    falling = (
        [round((top - 1) - i * (top - 1) / max(1, n - peak - 1)) for i in range(n - peak)] if n > peak else []
    )
    return rising + [sums[i] for i in falling]


def rule_figures(spec: PeakDiceGame) -> dict[str, Any]:
    """Everything above, for the printed rules summary and sheet (template_context passes each key to the
    rule texts)."""
    sums = colour_sums(spec, 0)
    column = example_column(spec)
    peaks = spec.peaks()
    cap = spec.miss_boxes if spec.rules.miss_track_full == "capped" else None
    coloured = sum(1 for d in spec.dice if all(f.colour != WHITE for f in d.expanded()))
    white = sum(1 for d in spec.dice if all(f.colour == WHITE for f in d.expanded()))
    return {
        "rows": len(spec.colours),
        "others": len(spec.colours) - 1,
        "row_length": spec.row_length,
        "circles_total": spec.row_length * len(spec.colours),
        "peaks": list(peaks),
        "peak_after": peaks[0],
        "peak_uniform": len(set(peaks)) == 1,
        "falling": spec.row_length - peaks[0],
        "dice_count": len(spec.dice),
        "coloured_dice": coloured,
        "white_dice": white,
        "mixed_dice": len(spec.dice) - coloured - white,
        "rerolls": spec.rerolls,
        "players_min": spec.players.min,
        "players_max": spec.players.max,
        "sum_min": sums[0] if sums else 0,
        "sum_max": sums[-1] if sums else 0,
        "miss_boxes": spec.miss_boxes,
        "miss_box_values": [miss_cost(k, cap) for k in range(1, spec.miss_boxes + 1)],
        "miss_max": miss_penalty(spec.miss_boxes),
        "miss_examples": [miss_penalty(k) for k in range(1, min(3, spec.miss_boxes) + 1)],
        "miss_next": [miss_cost(spec.miss_boxes + k) for k in (1, 2)],
        "example_column": column,
        "example_score": second_lowest(column, spec.rules.column_score == "second_lowest_distinct")
        if column
        else 0,
        "example_row": example_row(spec, 0),
    }


def print_data(spec: Any, seed: int) -> dict[str, Any]:
    """What the printed kit needs from the rules: the figures the rules text and examples show, and the
    accepted sheet variants (none unless variants.count > 0)."""
    out: dict[str, Any] = {"figures": rule_figures(spec), "variants": []}
    if spec.variants.count > 0:
        from generator.games.peak_dice.variants import generate_variants

        out["variants"] = [v for v in generate_variants(spec, seed) if v.accepted][: spec.variants.count]
    return out
