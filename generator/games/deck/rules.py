"""The reference 'game' of a deck, behind pnpkit's Game protocol (generator/engine/game.py): a deck has no
turns of its own, so its rules are the deal every draw check reasons about. The deck (every row `count` times,
in the data's order) is shuffled with the state's generator; seats take one card each in turn until every
seat holds `deal.hand`. The score of a seat is the number of cards it holds; every seat ties."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generator.errors import RuleViolation
from generator.games.deck.loaded import LoadedDeck, copies

if TYPE_CHECKING:
    import numpy as np

DRAW = "draw"


def deck_cards(deck: LoadedDeck, component: str) -> list[dict[str, Any]]:
    """Every card of a card component: each row repeated `count` times, in the data's order."""
    return [row for row in deck.rows[component].rows for _ in range(copies(row))]


@dataclass(frozen=True)
class State:
    """A deal in progress: the shuffled order (card indices), the cards dealt so far and the hands."""

    order: tuple[int, ...]
    dealt: int
    hands: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Outcome:
    """Cards held per seat; every seat is a winner (a deal has no winner of its own)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


class Deal:
    """The deal of one kit for a fixed number of seats."""

    def __init__(self, deck: LoadedDeck, players: int):
        spec = deck.spec
        low, high = (1, 1) if spec.deal is None else (spec.deal.players.min, spec.deal.players.max)
        if not low <= players <= high:
            raise RuleViolation(f"the deal is for {low}..{high} players; got {players}")
        self.deck, self.players = deck, players
        # a kit of sheets only (no deal) deals no card: its game ends before it starts
        self.hand = 0 if spec.deal is None else spec.deal.hand
        self.cards: list[dict[str, Any]] = [] if spec.deal is None else deck_cards(deck, spec.deal.component)
        if self.hand * players > len(self.cards):
            raise RuleViolation(f"{players} hands of {self.hand} need more than the {len(self.cards)} cards")

    def new_state(self, rng: np.random.Generator) -> State:
        """The deck shuffled by `rng`; nobody holds a card."""
        order = tuple(int(i) for i in rng.permutation(len(self.cards)))
        return State(order, 0, ((),) * self.players)

    def to_move(self, state: State) -> int | None:
        """The seat that takes the next card (None once every hand is full)."""
        if state.dealt >= self.hand * self.players:
            return None
        return state.dealt % self.players

    def legal_actions(self, state: State) -> tuple[str, ...]:
        """Draw, until the deal is done."""
        return () if self.to_move(state) is None else (DRAW,)

    def apply(self, state: State, action: str) -> State:
        """The seat to move takes the top card."""
        seat = self.to_move(state)
        if seat is None or action != DRAW:
            raise RuleViolation(
                f"{action!r} is not legal now; legal: {', '.join(self.legal_actions(state)) or 'none'}"
            )
        hands = list(state.hands)
        hands[seat] = hands[seat] + (state.order[state.dealt],)
        return State(state.order, state.dealt + 1, tuple(hands))

    def outcome(self, state: State) -> Outcome:
        """Cards per seat; all seats share the 'win'."""
        if self.to_move(state) is not None:
            raise RuleViolation("the deal is not finished")
        return Outcome(tuple(len(h) for h in state.hands), tuple(range(self.players)))


def new_game(deck: LoadedDeck, players: int) -> Deal:
    """The reference deal for `players` seats (RuleViolation outside the kit's range)."""
    return Deal(deck, players)
