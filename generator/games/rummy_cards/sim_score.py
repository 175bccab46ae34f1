"""Scoring a Rummy round in the kernel: going out, and the round whose pile ran out (winners,
payments)."""

from __future__ import annotations

import numpy as np

from generator.engine.kernel import jit
from generator.games.rummy_cards.sim_setup import RES_EXHAUSTED, RES_WINNER, RES_WINNERS, Setup


@jit
def _score_round(
    setup: Setup, hand: np.ndarray, hj: np.ndarray, winner: int, scores: np.ndarray, out: np.ndarray
) -> None:
    """The round's zero-sum scores (rules.score_round) and out[RES_WINNER, RES_EXHAUSTED, RES_WINNERS]."""
    players = setup.players
    N = setup.n_numbers
    totals = np.zeros(players, np.int64)
    sizes = np.zeros(players, np.int64)
    for q in range(players):
        totals[q] = hj[q] * setup.joker_penalty
        sizes[q] = hj[q]
        for k in range(hand.shape[1]):
            totals[q] += hand[q, k] * (setup.num_min + k % N)
            sizes[q] += hand[q, k]
    exhausted = 0
    mask = 0
    if winner >= 0:
        s = 0
        for q in range(players):
            if q != winner:
                scores[q] = -totals[q]
                s += totals[q]
        scores[winner] = s
        mask = 1 << winner
    else:  # score_exhausted in rules.py
        exhausted = 1
        mask = _exhausted_winners(setup, totals, sizes)
        _pay_exhausted(setup, totals, mask, scores)
        winner = -1
        for q in range(players):
            if (mask >> q) & 1:
                winner = q
                break
    out[RES_WINNER] = winner
    out[RES_EXHAUSTED] = exhausted
    out[RES_WINNERS] = mask


@jit
def _exhausted_winners(setup: Setup, totals: np.ndarray, sizes: np.ndarray) -> int:
    """rules.exhausted_winner / exhausted_tie: the winners of a round nobody went out of, as a seat bit
    mask."""
    players = setup.players
    fewest_cards_wins = not setup.lowest_total
    first = sizes if fewest_cards_wins else totals
    other = totals if fewest_cards_wins else sizes
    best_first = first[0]
    for q in range(1, players):
        best_first = min(best_first, first[q])
    n_tied = 0
    best_other = -1
    for q in range(players):
        if first[q] == best_first:
            n_tied += 1
            if best_other < 0 or other[q] < best_other:
                best_other = other[q]
    mask = 0
    for q in range(players):
        if first[q] == best_first and (not setup.tie_break or n_tied == 1):
            mask |= 1 << q
    if mask == 0:  # tie-break: the other measure, then the lower seat
        for q in range(players):
            if first[q] == best_first and other[q] == best_other:
                mask = 1 << q
                break
    return mask


@jit
def _pay_exhausted(setup: Setup, totals: np.ndarray, mask: int, scores: np.ndarray) -> None:
    """rules.exhausted_tie_pay, _remainder, _below_winner: what the losers pay the winners (mask)."""
    players = setup.players
    clamp_below = not setup.below_scores_plus
    for q in range(players):
        scores[q] = 0
    n_win = 0
    ref = -1
    for q in range(players):
        if (mask >> q) & 1:
            n_win += 1
            if ref < 0 or totals[q] < ref:
                ref = totals[q]
    if setup.tie_pay_each:  # each loser pays every winner against that winner's total
        for q in range(players):
            if not (mask >> q) & 1:
                for w in range(players):
                    if (mask >> w) & 1:
                        d = totals[q] - totals[w]
                        if clamp_below and d < 0:
                            d = 0
                        scores[q] -= d
                        scores[w] += d
        return
    pot = 0
    for q in range(players):
        if not (mask >> q) & 1:
            d = totals[q] - ref
            if clamp_below and d < 0:
                d = 0
            scores[q] = -d
            pot += d
    share = pot // n_win
    rest = pot - share * n_win
    given = np.zeros(players, np.bool_)
    for q in range(players):
        if (mask >> q) & 1:
            scores[q] = share
    for _ in range(rest):  # one point each: seat order, or the lower total first
        taker = -1
        for q in range(players):
            if (
                (mask >> q) & 1
                and not given[q]
                and (taker < 0 or (setup.remainder_lower_total and totals[q] < totals[taker]))
            ):
                taker = q
        given[taker] = True
        scores[taker] += 1
