"""The rules of Pig (John Scarne, 1945), behind pnpkit's Game protocol (generator/engine/game.py).

On your turn roll the die as often as you like, adding each face to your turn total; roll the bust face and
the turn ends with nothing banked; hold (after at least one roll) and the turn total is banked. The first to
bank `target` points wins at once. After `turn_limit` turns the highest score wins (a safety stop)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from generator.errors import RuleViolation
from pnpkit_pig.spec import PigGame

ROLL, HOLD = "roll", "hold"


@dataclass(frozen=True)
class State:
    """A game in progress; `rng` is the game's one source of chance (the die)."""

    scores: tuple[int, ...]
    seat: int
    turn_total: int
    turn: int
    rng: np.random.Generator
    last_roll: int = 0
    over: bool = False


@dataclass(frozen=True)
class Outcome:
    """Final scores by seat and the winning seats (ascending; more than one only at the safety stop)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    turns: int


class Pig:
    """One kit's Pig for a fixed number of seats."""

    def __init__(self, spec: PigGame, players: int):
        if not spec.players.min <= players <= spec.players.max:
            raise RuleViolation(f"Pig for {spec.players.min}..{spec.players.max} players; got {players}")
        self.spec, self.players = spec, players

    def new_state(self, rng: np.random.Generator) -> State:
        """Everyone at 0, seat 0 to roll."""
        return State((0,) * self.players, 0, 0, 0, rng)

    def to_move(self, state: State) -> int | None:
        """The seat whose turn it is (None once someone has won)."""
        return None if state.over else state.seat

    def legal_actions(self, state: State) -> tuple[str, ...]:
        """Roll always; hold only after a roll this turn."""
        if state.over:
            return ()
        return (ROLL, HOLD) if state.turn_total > 0 else (ROLL,)

    def apply(self, state: State, action: str) -> State:
        """Roll the die (chance from the state's rng) or bank the turn total."""
        if action not in self.legal_actions(state):
            raise RuleViolation(f"{action!r} is not legal now; legal: {', '.join(self.legal_actions(state))}")
        if action == ROLL:
            face = int(state.rng.integers(1, self.spec.die_sides + 1))
            if face != self.spec.bust_face:
                return replace(state, turn_total=state.turn_total + face, last_roll=face)
            return self._next_turn(replace(state, last_roll=face), state.scores)
        scores = list(state.scores)
        scores[state.seat] += state.turn_total
        if scores[state.seat] >= self.spec.target:
            return replace(state, scores=tuple(scores), turn_total=0, turn=state.turn + 1, over=True)
        return self._next_turn(state, tuple(scores))

    def _next_turn(self, state: State, scores: tuple[int, ...]) -> State:
        turn = state.turn + 1
        return replace(
            state,
            scores=scores,
            seat=turn % self.players,
            turn_total=0,
            turn=turn,
            over=turn >= self.spec.turn_limit,
        )

    def outcome(self, state: State) -> Outcome:
        """Scores and winners of a finished game."""
        if not state.over:
            raise RuleViolation("the game is not over")
        top = max(state.scores)
        return Outcome(state.scores, tuple(s for s, v in enumerate(state.scores) if v == top), state.turn)


def new_game(spec: PigGame, players: int) -> Pig:
    """The reference rules for `players` seats (RuleViolation outside the kit's player range)."""
    return Pig(spec, players)
