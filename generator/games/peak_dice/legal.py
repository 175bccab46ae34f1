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
    ids = [c.id for c in spec.colours]
    out = _colour_problems(ids)
    peaks = _peak_problems(spec, ids)
    dice = _dice_problems(spec, ids)
    out += peaks + dice
    if not peaks and not dice and len(set(ids)) == len(ids):
        out += _row_fill_problems(spec, ids)
    out += _player_problems(spec)
    return out


def _colour_problems(ids: list[str]) -> list[tuple[str, str]]:
    """Colour ids: 'white' is reserved, none twice, at least two rows."""
    out: list[tuple[str, str]] = []
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
    return out


def _peak_problems(spec: PeakDiceGame, ids: list[str]) -> list[tuple[str, str]]:
    """Peak positions: one per row, each a circle of the row."""
    out: list[tuple[str, str]] = []
    length = spec.row_length
    if isinstance(spec.peak_after, list):
        if len(spec.peak_after) != len(ids):
            out.append(
                (
                    "peak_after",
                    f"expected one peak position per row ({len(ids)} rows); got {len(spec.peak_after)}",
                )
            )
        for i, pk in enumerate(spec.peak_after):
            if not 1 <= pk <= length:
                out.append((f"peak_after[{i}]", f"expected a circle number in 1..{length}; got {pk}"))
    elif not 1 <= spec.peak_after <= length:
        out.append(("peak_after", f"expected a circle number in 1..{length}; got {spec.peak_after}"))
    return out


def _dice_problems(spec: PeakDiceGame, ids: list[str]) -> list[tuple[str, str]]:
    """Dice: face colours among the rows' colours and white, plain face values in 0..99."""
    out: list[tuple[str, str]] = []
    known = set(ids) | {WHITE}
    allowed = ", ".join(ids + [WHITE])
    for d, die in enumerate(spec.dice):
        faces = die.expanded()
        if isinstance(die, PlainDie):
            if die.colour not in known:
                out.append((f"dice[{d}].colour", f"expected one of {allowed}; got '{die.colour}'"))
        else:
            for k, f in enumerate(faces):
                if f.colour not in known:
                    out.append(
                        (f"dice[{d}].faces[{k}].colour", f"expected one of {allowed}; got '{f.colour}'")
                    )
        if isinstance(die, PlainDie):
            for k, v in enumerate(die.values):
                if not 0 <= v <= 99:
                    out.append((f"dice[{d}].values[{k}]", f"expected a face value in 0..99; got {v}"))
    return out


def _row_fill_problems(spec: PeakDiceGame, ids: list[str]) -> list[tuple[str, str]]:
    """Rows the dice cannot fill: too few different sums for the circles on either side of the peak."""
    out: list[tuple[str, str]] = []
    index = {cid: i for i, cid in enumerate(ids)}
    index[WHITE] = len(ids)
    coded = [[(index[f.colour], f.value) for f in die.expanded()] for die in spec.dice]
    for r, cid in enumerate(ids):
        sums = sorted(achievable_sums(coded, r, len(ids)))
        why = row_fill_problem(cid, spec.row_length, spec.peaks()[r], sums)
        if why:
            out.append((f"peak_after[{r}]" if isinstance(spec.peak_after, list) else "peak_after", why))
    return out


def _player_problems(spec: PeakDiceGame) -> list[tuple[str, str]]:
    """Player counts, and the variants' peak positions and player count."""
    out: list[tuple[str, str]] = []
    length = spec.row_length
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
