"""Static legality of a Peak Dice spec: every problem at once, each with its key under `game:`."""

from __future__ import annotations

from generator.games.peak_dice.spec import WHITE, PeakDiceGame, PlainDie
from generator.games.peak_dice.tables import achievable_sums


def row_fill_problem(name: str, length: int, peak: int, sums: list[int]) -> str | None:
    """Why a row of `length` circles with the peak after circle `peak` cannot be filled from `sums`."""
    need = max(peak - 1, length - peak)
    if len(sums) - 1 >= need:
        return None
    span = f"{sums[0]}..{sums[-1]}" if sums else "nothing"
    return (
        f"row {name}: {length} circles with the peak after circle {peak} need a peak value with {peak - 1} "
        f"smaller values before it and {length - peak} after it, i.e. {need + 1} different sums, but the "
        f"{name} sum can only be {span} ({len(sums)} different values)"
    )


def legal_problems(spec: PeakDiceGame) -> list[tuple[str, str]]:
    """Every cross-field problem of the spec as (key path under game:, message)."""
    out: list[tuple[str, str]] = []
    ids = [c.id for c in spec.colours]
    seen: set[str] = set()
    for i, cid in enumerate(ids):
        if cid == WHITE:
            out.append(
                (f"colours[{i}].id", "'white' is reserved for white faces (they count for every colour)")
            )
        elif cid in seen:
            out.append((f"colours[{i}].id", f"colour '{cid}' is listed twice"))
        seen.add(cid)
    if len(ids) < 2:
        out.append(
            (
                "colours",
                f"a column scores its second lowest value, so the sheet needs at least 2 rows; "
                f"got {len(ids)}",
            )
        )
    length = spec.row_length
    peaks_ok = True
    if isinstance(spec.peak_after, list):
        if len(spec.peak_after) != len(ids):
            out.append(
                (
                    "peak_after",
                    f"expected one peak position per row ({len(ids)} rows); got {len(spec.peak_after)}",
                )
            )
            peaks_ok = False
        for i, pk in enumerate(spec.peak_after):
            if not 1 <= pk <= length:
                out.append((f"peak_after[{i}]", f"expected a circle number in 1..{length}; got {pk}"))
                peaks_ok = False
    elif not 1 <= spec.peak_after <= length:
        out.append(("peak_after", f"expected a circle number in 1..{length}; got {spec.peak_after}"))
        peaks_ok = False
    known = set(ids) | {WHITE}
    allowed = ", ".join(ids + [WHITE])
    colours_ok = True
    for d, die in enumerate(spec.dice):
        faces = die.expanded()
        if isinstance(die, PlainDie):
            if die.colour not in known:
                out.append((f"dice[{d}].colour", f"expected one of {allowed}; got '{die.colour}'"))
                colours_ok = False
        else:
            for k, f in enumerate(faces):
                if f.colour not in known:
                    out.append(
                        (f"dice[{d}].faces[{k}].colour", f"expected one of {allowed}; got '{f.colour}'")
                    )
                    colours_ok = False
        if isinstance(die, PlainDie):
            for k, v in enumerate(die.values):
                if not 0 <= v <= 99:
                    out.append((f"dice[{d}].values[{k}]", f"expected a face value in 0..99; got {v}"))
                    colours_ok = False
    if colours_ok and peaks_ok and len(set(ids)) == len(ids):
        index = {cid: i for i, cid in enumerate(ids)}
        index[WHITE] = len(ids)
        coded = [[(index[f.colour], f.value) for f in die.expanded()] for die in spec.dice]
        for r, cid in enumerate(ids):
            sums = sorted(achievable_sums(coded, r, len(ids)))
            why = row_fill_problem(cid, length, spec.peaks()[r], sums)
            if why:
                out.append((f"peak_after[{r}]" if isinstance(spec.peak_after, list) else "peak_after", why))
    if spec.players.min > spec.players.max:
        out.append(("players", f"min {spec.players.min} is above max {spec.players.max}"))
    if spec.players.min < 2:
        out.append(("players.min", f"step C and the win need at least 2 players; got {spec.players.min}"))
    var = spec.variants
    for i, pk in enumerate(var.peak_positions):
        if not 1 <= pk <= length:
            out.append(
                (f"variants.peak_positions[{i}]", f"expected a circle number in 1..{length}; got {pk}")
            )
    if not spec.players.min <= var.players <= spec.players.max:
        out.append(
            (
                "variants.players",
                f"expected a player count in {spec.players.min}..{spec.players.max}; got {var.players}",
            )
        )
    return out
