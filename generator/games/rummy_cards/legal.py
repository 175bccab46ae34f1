"""Static legality of a Rummy Cards spec: deck arithmetic, distinct colours, pad columns, deal size.

Light on purpose (`pnpkit validate` imports it): the spec model only, no numba, no solver, no kernel."""

from __future__ import annotations

from generator.games.rummy_cards.spec import RummyCardsGame
from generator.spec.base import repeats


def legal_problems(spec: RummyCardsGame) -> list[tuple[str, str]]:
    """Deck arithmetic, distinct colours/symbols/ids, number range, players, pad columns, deal size."""
    out: list[tuple[str, str]] = []
    nc = len(spec.colours)
    nn = spec.numbers.max - spec.numbers.min + 1
    if nn < 3:
        out.append(
            (
                "numbers",
                f"range {spec.numbers.min}..{spec.numbers.max} has {nn} numbers; runs need at least 3",
            )
        )
    numbered = nc * max(nn, 0) * spec.copies
    total = numbered + spec.jokers
    if total != spec.total_cards:
        out.append(
            (
                "total_cards",
                f"{nc} colours x {max(nn, 0)} numbers x {spec.copies} copies = {numbered}, "
                f"+ {spec.jokers} jokers = {total}, but total_cards says {spec.total_cards}",
            )
        )
    for key, values in (
        ("id", [c.id for c in spec.colours]),
        ("colour", [c.colour.lower() for c in spec.colours]),
        ("symbol", [c.symbol for c in spec.colours]),
    ):
        for i, j in repeats(values):
            out.append(
                (
                    f"colours[{i}].{key}",
                    f"expected a {key} distinct from the other colours; "
                    f"got {values[i]!r}, already used by colours[{j}]",
                )
            )
    if nc < 3:
        out.append(("colours", f"groups need 3 distinct colours; got {nc} colours"))
    if spec.players.min > spec.players.max:
        out.append(("players", f"range {spec.players.min}..{spec.players.max} is empty"))
    if spec.score_pad.players != spec.players.max:
        out.append(
            (
                "score_pad.players",
                f"expected {spec.players.max} player columns (players.max); got {spec.score_pad.players}",
            )
        )
    dealt = spec.players.max * spec.hand_size
    if dealt >= total:
        out.append(
            (
                "hand_size",
                f"{spec.players.max} players x {spec.hand_size} cards = {dealt} leaves no draw "
                f"pile from {total} cards",
            )
        )
    if spec.copies > 2:
        out.append(("copies", f"the meld finder supports at most 2 copies per card; got {spec.copies}"))
    if nc > 8:
        out.append(("colours", f"at most 8 colours (one per symbol); got {nc}"))
    return out


__all__ = ["legal_problems"]
