"""The Rummy kernel's data: the deck and rules as arrays (`Setup`), a round's `Workspace` and the
slots of a round's result."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from generator.games.rummy_cards.solver_state import (
    SolverWorkspace,
)


class Setup(NamedTuple):
    """The static round as play_round reads it (never writes): the deck, the hand, the thresholds and the
    rule choices (rules_code), copied from the spec by `RummySimulation.setup`."""

    players: int
    n_colours: int
    n_numbers: int
    num_min: int
    copies: int
    n_jokers: int
    hand_size: int
    initial_meld: int
    joker_penalty: int
    max_turns: int
    thresholds: np.ndarray
    """balance.meld_thresholds (int64): first_possible's columns."""
    draw_by_choice: bool
    """rules.draw by_choice (else a player who can lay may not draw)."""
    lowest_total: bool
    """rules.exhausted_winner lowest_total (else fewest cards)."""
    tie_break: bool
    """rules.exhausted_tie tie_break (else level players share the win)."""
    add_after_opening: bool
    """rules.opening_turn may_add_after_opening."""
    retrieval_next_turn: bool
    """rules.opening_retrieval next_turn (else a joker may be retrieved once the initial melds are down)."""
    end_all_pass: bool
    """rules.exhausted_end all_pass (else the round ends when the pile's last card is drawn)."""
    tie_pay_each: bool
    """rules.exhausted_tie_pay each_winner (else losers pay once against the lowest winner's total)."""
    remainder_lower_total: bool
    """rules.exhausted_tie_remainder lower_total_first (else seat order)."""
    below_scores_plus: bool
    """rules.exhausted_below_winner scores_plus (else a loser below the winner's total scores 0)."""


class Workspace(NamedTuple):
    """What play_round writes: per round g the scores and first_possible rows; per turn (up to the log's
    length, round by round overwritten) what happened and the random-legal choice; the deal of the last
    round; and the solver's reusable arrays. `round_workspace` sizes it."""

    solver: SolverWorkspace
    scores: np.ndarray
    """(rounds, players): the round's zero-sum scores."""
    first_possible: np.ndarray
    """(rounds, players, thresholds): own turn the meld finder could first open at thresholds[t], -1 never."""
    log: np.ndarray
    """(turns,): cards laid, LOG_DRAW or LOG_PASS."""
    choices: np.ndarray
    """(turns, 2): the random-legal seat's (index into Game.legal_actions, how many it lists); -1
    elsewhere."""
    order: np.ndarray
    """(deck size,): the round's shuffled deck (Game.deal's order)."""


LOG_DRAW = -1
LOG_PASS = -2
RES_WINNER = 0
"""play_round's result[RES_WINNER]: the first winner (-1 none)."""
RES_EXHAUSTED = 1
"""result[RES_EXHAUSTED]: 1 when the round ended without a player going out (rules.exhausted_end;
max_turns)."""
RES_TURNS = 2
RES_GIVEUPS = 3
"""result[RES_GIVEUPS]: solver searches that gave up (the player drew)."""
RES_RETRIEVALS = 4
"""result[RES_RETRIEVALS]: turns that retrieved a table joker."""
RES_WINNERS = 5
"""result[RES_WINNERS]: the winners as a seat bit mask."""
RES_SIZE = 6
