"""A tiny dice race used to test and time the engine room (a test fixture: it lives in tests/, not in the
package).

Rules: `players` seats take turns in seat order; a turn rolls one die of `sides` faces and moves that many
steps; rolling the top face earns one extra roll (at most `max_rerolls` per turn). The first seat to reach
`target` wins at once. Seat 0 moves first, so the race is deliberately a little unfair: a balance report has
something to show.

The tally has summed histograms and counts plus per-game arrays ("games.*", concatenated across chunks).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.engine.kernel import jit, rand_below, seed_state
from generator.engine.runner import Tally


@jit
def _race(
    state: np.ndarray,
    games: int,
    players: int,
    target: int,
    sides: int,
    max_rerolls: int,
    max_turns: int,
    wins: np.ndarray,
    turns_hist: np.ndarray,
    pos_hist: np.ndarray,
    rolls_hist: np.ndarray,
    games_turns: np.ndarray,
    games_winner: np.ndarray,
) -> None:
    """Play `games` races, adding into the histogram arrays and writing one entry per game."""
    pos = np.zeros(players, dtype=np.int64)
    for g in range(games):
        for p in range(players):
            pos[p] = 0
        winner = -1
        turn = 0
        while winner < 0 and turn < max_turns:
            seat = turn % players
            rerolls = 0
            while True:
                roll = rand_below(state, sides) + 1
                rolls_hist[roll] += 1
                pos[seat] += roll
                if pos[seat] >= target:
                    pos[seat] = target
                    winner = seat
                    break
                if roll == sides and rerolls < max_rerolls:
                    rerolls += 1
                else:
                    break
            turn += 1
        if winner >= 0:
            wins[winner] += 1
        for p in range(players):
            pos_hist[p, pos[p]] += 1
        turns_hist[turn] += 1
        games_turns[g] = turn
        games_winner[g] = winner


@dataclass(frozen=True)
class DiceRace:
    """A picklable Simulation of the dice race; `pure=True` runs the uncompiled kernel (same stream)."""

    players: int = 3
    target: int = 30
    sides: int = 6
    max_rerolls: int = 1
    pure: bool = False

    def __post_init__(self) -> None:
        if self.players < 1 or self.target < 1 or self.sides < 1 or self.max_rerolls < 0:
            raise ValueError(f"bad dice race: {self!r}")

    @property
    def max_turns(self) -> int:
        """A turn always moves at least one step, so seat 0 has arrived by this many turns."""
        return self.players * self.target

    def play(self, seed: np.random.SeedSequence, games: int) -> Tally:
        """Play `games` races from `seed`; return wins per seat, histograms and per-game arrays."""
        state = seed_state(seed)
        wins = np.zeros(self.players, dtype=np.int64)
        turns_hist = np.zeros(self.max_turns + 1, dtype=np.int64)
        pos_hist = np.zeros((self.players, self.target + 1), dtype=np.int64)
        rolls_hist = np.zeros(self.sides + 1, dtype=np.int64)
        games_turns = np.zeros(games, dtype=np.int64)
        games_winner = np.zeros(games, dtype=np.int64)
        kernel = _race.py_func if self.pure else _race  # type: ignore[attr-defined]
        kernel(
            state,
            games,
            self.players,
            self.target,
            self.sides,
            self.max_rerolls,
            self.max_turns,
            wins,
            turns_hist,
            pos_hist,
            rolls_hist,
            games_turns,
            games_winner,
        )
        return {
            "games": np.array([games], dtype=np.int64),
            "wins": wins,
            "turns_hist": turns_hist,
            "pos_hist": pos_hist,
            "rolls_hist": rolls_hist,
            "games.turns": games_turns,
            "games.winner": games_winner,
        }
