"""The one protocol every game's reference rules speak (OpenSpiel's shape, simplified for pnpkit).

A game is built once from a validated spec section and a player count (the plugin's `new_game()(spec,
players)`). All chance comes from the numpy Generator given to `new_state`: the state may keep it (dice rolled
later, a bag drawn from) but nothing else is random. `apply` checks the action again and raises RuleViolation
for an illegal one; it returns the state after the action and may reuse the one it was given (Raindrops does,
for speed), so a caller treats its argument as consumed. The end is an `Outcome`, never a magic number.

Compiled kernels keep their own seeded streams; they are checked against these rules by replay tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

import numpy as np

S = TypeVar("S")
A = TypeVar("A")


@runtime_checkable
class Outcome(Protocol):
    """How a finished game ended: final scores by seat and the winning seats (ties share)."""

    @property
    def scores(self) -> Sequence[int]:
        """Final score of each seat (a game scoring penalties reports them as its rules count them)."""
        ...

    @property
    def winners(self) -> Sequence[int]:
        """The winning seats, ascending (more than one on a shared win)."""
        ...


class Game(Protocol[S, A]):
    """One variant's reference rules for a fixed number of seats."""

    @property
    def players(self) -> int:
        """How many seats play."""
        ...

    def new_state(self, rng: np.random.Generator) -> S:
        """A game at its start, every random draw to come taken from `rng`."""
        ...

    def to_move(self, state: S) -> int | None:
        """The seat that acts next (None once the game is over)."""
        ...

    def legal_actions(self, state: S) -> Sequence[A]:
        """Every action the seat to move may take, in a fixed order (empty once the game is over)."""
        ...

    def apply(self, state: S, action: A) -> S:
        """The state after `action`; RuleViolation if it is not legal. The argument may be reused."""
        ...

    def outcome(self, state: S) -> Outcome:
        """How the finished game ended (RuleViolation before the end)."""
        ...


def is_game(obj: Any) -> bool:
    """Whether `obj` has every method and attribute of the Game protocol."""
    return isinstance(getattr(obj, "players", None), int) and all(
        callable(getattr(obj, name, None))
        for name in ("new_state", "to_move", "legal_actions", "apply", "outcome")
    )


__all__ = ["Game", "Outcome", "is_game"]
