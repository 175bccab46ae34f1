"""Policies for the reference rules. They call the very decision functions the compiled kernel uses, so the
readable game and the fast self-play play alike:

- random: uniform over the legal writes (and Pass where a write is optional);
- greedy: writes each number where it splits its gap evenly (linear interpolation of numbers over cells),
  with a pull towards completing rows; takes optional writes that fit well;
- strong: an expectation over the cards nobody has seen yet: for each cell, the expected number of cells
  that remain fillable in the column's gaps given the draws left, plus the value of unlocking a bonus/goal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

import numpy as np

from generator.engine.kernel import seed_state
from generator.games.ripple_rush import kernel_board, kernel_choice
from generator.games.ripple_rush.rules import PASS, Action, Cell, Decision, Game, State, Write


class _KernelView(TypedDict):
    """The arrays and counts the kernel's decision functions take (see `_arrays`)."""

    sheet: np.ndarray
    rowfill: np.ndarray
    isgoal: np.ndarray
    unseen: np.ndarray
    u_total: int
    left: int


@dataclass(frozen=True)
class Policy:
    """A named policy; `choose` picks an action for the pending decision, drawing (random only) from the
    caller's numpy Generator."""

    name: str
    code: int

    def choose(self, game: Game, state: State, rng: np.random.Generator) -> Action:
        """The action for the pending decision; a random policy's draws come from `rng` (greedy and strong
        draw nothing)."""
        d = game.to_decide(state)
        if d is None:
            raise ValueError("the game is over")
        ks = _kernel_stream(rng, self.code)
        a = _arrays(game, state, d.player)
        if d.kind == "bonus":
            return _choose_bonus(self.code, game, d, ks, a)
        if d.card is None:  # announced cards in any order: the kernel's choice over the open cards
            return _choose_announced(self.code, game, d, ks, a)
        return _choose_number(self.code, game, d, ks, a)


def _choose_bonus(code: int, game: Game, d: Decision, ks: np.ndarray, a: _KernelView) -> Action:
    """A row bonus: a suit bonus writes any number in its suit, a number bonus the number in any suit."""
    p = d.player
    b = game.bonuses[d.row - 1]
    if isinstance(b, str):
        c = game.suits.index(b)
        h, n = kernel_choice.decide_suit(
            code,
            ks,
            a["sheet"],
            a["rowfill"],
            p,
            c,
            game.rows,
            len(game.suits),
            game.nmin,
            game.nmax,
            a["isgoal"],
            game.goal_points,
            a["unseen"],
            a["u_total"],
            a["left"],
            game.x_any_integer,
        )
        return PASS if h < 0 else Write(Cell(c, game.rows - int(h)), int(n))
    c, h = kernel_choice.decide_number(
        code,
        ks,
        a["sheet"],
        a["rowfill"],
        p,
        -1,
        b,
        game.rows,
        len(game.suits),
        game.nmin,
        game.nmax,
        a["isgoal"],
        game.goal_points,
        a["unseen"],
        a["u_total"],
        a["left"],
        True,
    )
    return PASS if c < 0 else Write(Cell(int(c), game.rows - int(h)), b)


def _choose_announced(code: int, game: Game, d: Decision, ks: np.ndarray, a: _KernelView) -> Action:
    """Announced cards taken in any order: which open card, and where."""
    p = d.player
    ksuit = np.array([k.suit for k in d.cards], dtype=np.int64)
    knum = np.array([k.number for k in d.cards], dtype=np.int64)
    kopen = np.ones(len(d.cards), dtype=np.bool_)
    k, c, h = kernel_choice.announced_choice(
        code,
        ks,
        a["sheet"],
        a["rowfill"],
        p,
        ksuit,
        knum,
        kopen,
        game.rows,
        len(game.suits),
        game.nmin,
        game.nmax,
        a["isgoal"],
        game.goal_points,
        a["unseen"],
        a["u_total"],
        a["left"],
    )
    return PASS if k < 0 else Write(Cell(int(c), game.rows - int(h)), d.cards[int(k)].number)


def _choose_number(code: int, game: Game, d: Decision, ks: np.ndarray, a: _KernelView) -> Action:
    """A card (own or announced): where its number goes, or a pass."""
    assert d.card is not None
    p = d.player
    c, h = kernel_choice.decide_number(
        code,
        ks,
        a["sheet"],
        a["rowfill"],
        p,
        d.card.suit,
        d.card.number,
        game.rows,
        len(game.suits),
        game.nmin,
        game.nmax,
        a["isgoal"],
        game.goal_points,
        a["unseen"],
        a["u_total"],
        a["left"],
        d.kind == "announced",
    )
    return PASS if c < 0 else Write(Cell(int(c), game.rows - int(h)), d.card.number)


def _arrays(game: Game, state: State, player: int) -> _KernelView:
    """The kernel's view of a state: sheets bottom-up, row fill counts, goal rows, unseen cards."""
    cols = len(game.suits)
    sheet = np.zeros((game.players, cols, game.rows), dtype=np.int64)
    for p, sh in enumerate(state.sheets):
        for c, col in enumerate(sh):
            sheet[p, c, :] = col[::-1]
    rowfill = (sheet != 0).sum(axis=1).astype(np.int64)
    isgoal = np.zeros(game.rows, dtype=np.int64)
    for r in state.goals:
        isgoal[game.rows - r] = 1
    span = game.nmax - game.nmin + 1
    unseen = np.ones((cols, span), dtype=np.int64)
    seen = state.deck[: state.round * game.players]
    for card in seen:
        unseen[card.suit, card.number - game.nmin] = 0
    return {
        "sheet": sheet,
        "rowfill": rowfill,
        "isgoal": isgoal,
        "unseen": unseen,
        "u_total": cols * span - len(seen),
        "left": game.rounds - state.round,
    }


def _kernel_stream(rng: np.random.Generator, code: int) -> np.ndarray:
    """The kernel decision functions' own stream (xorshift64 state) for one decision, seeded from the caller's
    Generator: only the random policy draws, so only it takes a number from `rng`."""
    if code != kernel_board.POLICY_RANDOM:
        return np.ones(1, dtype=np.uint64)  # never drawn from (a fresh one all the same: no shared state)
    return seed_state(int(rng.integers(1, 2**63)))


RANDOM = Policy("random", kernel_board.POLICY_RANDOM)
GREEDY = Policy("greedy", kernel_board.POLICY_GREEDY)
STRONG = Policy("strong", kernel_board.POLICY_STRONG)
POLICIES: dict[str, Policy] = {p.name: p for p in (RANDOM, GREEDY, STRONG)}
