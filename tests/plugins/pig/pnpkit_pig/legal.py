"""Static legality of a Pig kit: every problem at once, each with its key under `game:`."""

from __future__ import annotations

from pnpkit_pig.spec import PigGame


def legal_problems(spec: PigGame) -> list[tuple[str, str]]:
    """(dotted key under game, message) for every rule the section's shape cannot state."""
    out: list[tuple[str, str]] = []
    if spec.bust_face > spec.die_sides:
        sides = spec.die_sides
        out.append(
            ("bust_face", f"expected a face of the {sides}-sided die (1..{sides}); got {spec.bust_face}")
        )
    if spec.players.min > spec.players.max:
        out.append(("players", f"min {spec.players.min} is above max {spec.players.max}"))
    if spec.players.min < 2:
        out.append(("players.min", f"a race needs at least 2 players; got {spec.players.min}"))
    if spec.sheet_rows * spec.players.max > 160:
        boxes = f"{spec.sheet_rows} lines x {spec.players.max} players"
        out.append(("sheet_rows", f"{boxes} do not fit a sheet (at most 160 boxes)"))
    return out
