"""Fast self-play: one round of meld finders as a compiled kernel over card counts, and the Simulation.

The round mirrors the reference rules + MeldFinder exactly (same deal from the same RNG stream, same solver,
same decode, same joker locks), so a kernel round replays through `Game.apply` card for card (tested).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.engine.kernel import jit, seed_state, shuffle_inplace
from generator.engine.runner import Tally
from generator.games.rummy_cards.solver import (MAX_MELDS, SRC_HAND, SRC_HAND_JOKER, decode, joker_locks,
                                                 new_workspace, solve_counts)


@jit
def play_round(rng: np.ndarray, players: int, n_colours: int, n_numbers: int, num_min: int, copies: int,
               n_jokers: int, hand_size: int, initial_meld: int, joker_penalty: int, thresholds: np.ndarray,
               max_turns: int, ws_keys: np.ndarray, ws_score: np.ndarray, ws_parent: np.ndarray,
               ws_dec: np.ndarray, ws_htab: np.ndarray, ws_hpos: np.ndarray, scores: np.ndarray,
               first_possible: np.ndarray, log: np.ndarray) -> np.ndarray:
    """Play one round; fills scores[p], first_possible[p, t] (own turn, -1 never) and log[turn] = cards
    laid (-1 draw, -2 pass). Returns [winner, exhausted(0/1), turns, solver give-ups]."""
    C = n_colours
    N = n_numbers
    K = C * N
    size = K * copies + n_jokers
    order = np.arange(size)
    shuffle_inplace(rng, order)
    hand = np.zeros((players, K), np.int64)
    hj = np.zeros(players, np.int64)
    for i in range(players * hand_size):
        c = order[i]
        p = i // hand_size
        if c >= K * copies:
            hj[p] += 1
        else:
            hand[p, c // copies] += 1
    top = players * hand_size
    t_real = np.zeros(K, np.int64)
    t_jok = np.zeros(K, np.int64)
    zeros = np.zeros(K, np.int64)
    opened = np.zeros(players, np.int64)
    decisions = np.zeros(N * (C + 1), np.int64)
    layout = np.zeros((MAX_MELDS, 2 + max(N, C)), np.int64)
    for p in range(players):
        for t in range(thresholds.shape[0]):
            first_possible[p, t] = -1
    passes = 0
    turn = 0
    giveups = 0
    winner = -1
    while True:
        p = turn % players
        laid_cards = 0
        if opened[p] == 0:
            best = solve_counts(zeros, hand[p], hj[p], C, N, num_min, -1, decisions, ws_keys, ws_score,
                                ws_parent, ws_dec, ws_htab, ws_hpos)
            if best == -2:
                giveups += 1
            pts = best >> 8 if best > 0 else 0
            for t in range(thresholds.shape[0]):
                if first_possible[p, t] < 0 and pts >= thresholds[t]:
                    first_possible[p, t] = turn // players + 1
            if best > 0 and (best & 255) > 0 and pts >= initial_meld:
                nm = decode(decisions, zeros, zeros, C, N, layout)
                joker_locks(layout, nm, C, N, t_jok)
                for mi in range(nm):
                    for j in range(layout[mi, 1]):
                        e = layout[mi, 2 + j]
                        if (e & 3) == SRC_HAND:
                            hand[p, e >> 2] -= 1
                            t_real[e >> 2] += 1
                            laid_cards += 1
                        elif (e & 3) == SRC_HAND_JOKER:
                            hj[p] -= 1
                            laid_cards += 1
                opened[p] = 1
        else:
            forced = t_real + t_jok
            best = solve_counts(forced, hand[p], hj[p], C, N, num_min, joker_penalty, decisions, ws_keys,
                                ws_score, ws_parent, ws_dec, ws_htab, ws_hpos)
            if best == -2:
                giveups += 1
            if best > 0 and (best & 255) > 0:
                nm = decode(decisions, t_real, t_jok, C, N, layout)
                for k in range(K):
                    t_jok[k] = 0
                joker_locks(layout, nm, C, N, t_jok)
                for mi in range(nm):
                    for j in range(layout[mi, 1]):
                        e = layout[mi, 2 + j]
                        if (e & 3) == SRC_HAND:
                            hand[p, e >> 2] -= 1
                            t_real[e >> 2] += 1
                            laid_cards += 1
                        elif (e & 3) == SRC_HAND_JOKER:
                            hj[p] -= 1
                            laid_cards += 1
        if laid_cards > 0:
            passes = 0
            if turn < log.shape[0]:
                log[turn] = laid_cards
        elif top < size:
            c = order[top]
            top += 1
            if c >= K * copies:
                hj[p] += 1
            else:
                hand[p, c // copies] += 1
            passes = 0
            if turn < log.shape[0]:
                log[turn] = -1
        else:
            passes += 1
            if turn < log.shape[0]:
                log[turn] = -2
        turn += 1
        left = hj[p]
        for k in range(K):
            left += hand[p, k]
        if left == 0:
            winner = p
            break
        if passes >= players or turn >= max_turns:
            break
    totals = np.zeros(players, np.int64)
    sizes = np.zeros(players, np.int64)
    for q in range(players):
        totals[q] = hj[q] * joker_penalty
        sizes[q] = hj[q]
        for k in range(K):
            totals[q] += hand[q, k] * (num_min + k % N)
            sizes[q] += hand[q, k]
    exhausted = 0
    if winner >= 0:
        s = 0
        for q in range(players):
            if q != winner:
                scores[q] = -totals[q]
                s += totals[q]
        scores[winner] = s
    else:
        exhausted = 1
        winner = 0
        for q in range(1, players):
            if totals[q] < totals[winner] or (totals[q] == totals[winner] and sizes[q] < sizes[winner]):
                winner = q
        s = 0
        for q in range(players):
            if q != winner:
                scores[q] = -(totals[q] - totals[winner])
                s += totals[q] - totals[winner]
        scores[winner] = s
    out = np.zeros(4, np.int64)
    out[0] = winner
    out[1] = exhausted
    out[2] = turn
    out[3] = giveups
    return out


@dataclass(frozen=True)
class RummySimulation:
    """Picklable self-play job: `players` meld finders, parameters copied from the spec."""

    players: int
    n_colours: int
    n_numbers: int
    num_min: int
    copies: int
    jokers: int
    hand_size: int
    initial_meld: int
    joker_penalty: int
    thresholds: tuple[int, ...]
    max_turns: int

    def play(self, seed: np.random.SeedSequence, games: int) -> Tally:
        """Play `games` rounds from `seed`; per-round arrays under games.*."""
        rng = seed_state(seed)
        ws = new_workspace(self.n_colours, self.n_numbers)
        P, T = self.players, len(self.thresholds)
        thr = np.array(self.thresholds, np.int64)
        winner = np.zeros(games, np.int64)
        exhausted = np.zeros(games, np.int64)
        turns = np.zeros(games, np.int64)
        scores = np.zeros((games, P), np.int64)
        first = np.zeros((games, P, T), np.int64)
        giveups = np.zeros(1, np.int64)
        log = np.zeros(1, np.int64)
        for g in range(games):
            res = play_round(rng, P, self.n_colours, self.n_numbers, self.num_min, self.copies, self.jokers,
                             self.hand_size, self.initial_meld, self.joker_penalty, thr, self.max_turns, *ws,
                             scores[g], first[g], log)
            winner[g], exhausted[g], turns[g] = res[0], res[1], res[2]
            giveups[0] += res[3]
        return {"games.winner": winner, "games.exhausted": exhausted, "games.turns": turns,
                "games.scores": scores, "games.first_possible": first, "solver_giveups": giveups}


def simulation_from_spec(spec: object, players: int) -> RummySimulation:
    """The self-play job for a validated RummyCardsGame at a player count."""
    s = spec  # RummyCardsGame; typed loosely to keep this module free of the spec import cycle
    return RummySimulation(players, len(s.colours), s.numbers.max - s.numbers.min + 1, s.numbers.min,  # type: ignore[attr-defined]
                           s.copies, s.jokers, s.hand_size, s.initial_meld, s.joker_penalty,  # type: ignore[attr-defined]
                           tuple(s.balance.meld_thresholds), s.balance.max_turns)  # type: ignore[attr-defined]
