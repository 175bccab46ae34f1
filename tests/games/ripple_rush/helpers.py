"""Small builders for hand-made positions."""

from __future__ import annotations

from generator.games.ripple_rush.rules import Card, Game

SUIT = {"blue": 0, "red": 1, "green": 2, "orange": 3}


def sheet(game: Game, cols: dict[str, dict[int, int]]) -> tuple[tuple[int, ...], ...]:
    """A sheet from {suit: {row (1 = top): number}}."""
    out = []
    for s in game.suits:
        col = [0] * game.rows
        for r, n in cols.get(s, {}).items():
            col[r - 1] = n
        out.append(tuple(col))
    return tuple(out)


def card(name: str) -> Card:
    """'blue 15' -> Card."""
    s, n = name.split()
    return Card(SUIT[s], int(n))


def deck_starting(game: Game, first: list[str]) -> list[Card]:
    """A full deal whose first cards are `first` (seat by seat, round by round), the rest filler cards."""
    head = [card(x) for x in first]
    rest = [c for c in game.full_deck() if c not in head]
    return head + rest[: game.rounds * game.players - len(head)]
