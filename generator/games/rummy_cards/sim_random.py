"""The random-legal seat of the Rummy kernel: its plays listed and one picked uniformly."""

from __future__ import annotations

import numpy as np

from generator.engine.kernel import jit, rand_below
from generator.games.rummy_cards.sim_setup import Setup
from generator.games.rummy_cards.solver import table_cards
from generator.games.rummy_cards.solver_state import (
    GROUP,
    RUN,
    SRC_HAND,
    SRC_HAND_JOKER,
    is_joker_entry,
)


@jit
def _hand_jokers_on_table(tab: np.ndarray, ntab: int) -> int:
    """How many jokers the table's melds hold that came from a hand (random plays move them from hand to
    table)."""
    n = 0
    for mi in range(ntab):
        for i in range(tab[mi, 1]):
            if (tab[mi, 2 + i] & 7) == SRC_HAND_JOKER:
                n += 1
    return n


@jit
def random_plays(
    act: int,
    tab: np.ndarray,
    ntab: int,
    hand: np.ndarray,
    hj: int,
    opened: bool,
    n_colours: int,
    n_numbers: int,
    num_min: int,
    initial_meld: int,
) -> int:
    """The random-legal player's play list, in the order of `Game.legal_actions`: 0 draw; new runs (colour,
    first place, last place; each place the hand's card, else a joker); new groups (number, colour subset,
    jokers); opened players: single-card additions to table melds (run low end, high end: the card, then a
    joker; group: each missing colour, then a joker). Unopened players: only new melds worth initial_meld.

    act < 0: returns how many plays there are. Otherwise applies play `act` to tab/hand (returns the new
    table meld count; a new meld is appended, an addition changes its meld in place).
    """
    C = n_colours
    N = n_numbers
    n = 1  # draw
    for c in range(C):
        for s in range(N):
            for e in range(s + 2, N):
                j = 0
                val = 0
                for v in range(s, e + 1):
                    if hand[c * N + v] == 0:
                        j += 1
                    val += num_min + v
                if j > hj or j == e - s + 1 or (not opened and val < initial_meld):
                    continue
                if n == act:
                    tab[ntab, 0] = RUN
                    tab[ntab, 1] = e - s + 1
                    for v in range(s, e + 1):
                        k = c * N + v
                        if hand[k] > 0:
                            hand[k] -= 1
                            tab[ntab, 2 + v - s] = k * 8 + SRC_HAND
                        else:
                            tab[ntab, 2 + v - s] = k * 8 + SRC_HAND_JOKER
                    return ntab + 1
                n += 1
    for v in range(N):
        for mask in range(1, 1 << C):
            size = 0
            ok = True
            miss = -1
            for c in range(C):
                if (mask >> c) & 1:
                    size += 1
                    if hand[c * N + v] == 0:
                        ok = False
                elif miss < 0:
                    miss = c
            if not ok:
                continue
            for j in range(0, min(hj, C - size) + 1):
                if size + j < 3 or (not opened and (num_min + v) * (size + j) < initial_meld):
                    continue
                if n == act:
                    tab[ntab, 0] = GROUP
                    tab[ntab, 1] = size + j
                    i = 0
                    for c in range(C):
                        if (mask >> c) & 1:
                            hand[c * N + v] -= 1
                            tab[ntab, 2 + i] = (c * N + v) * 8 + SRC_HAND
                            i += 1
                    for q in range(j):
                        tab[ntab, 2 + i + q] = (miss * N + v) * 8 + SRC_HAND_JOKER
                    return ntab + 1
                n += 1
    if not opened:
        return n
    for mi in range(ntab):
        length = tab[mi, 1]
        k0 = tab[mi, 2] >> 3
        if tab[mi, 0] == RUN:
            c = k0 // N
            s = k0 % N
            e = s + length - 1
            for end in range(2):
                v = s - 1 if end == 0 else e + 1
                if v < 0 or v >= N:
                    continue
                k = c * N + v
                for joker in range(2):
                    if (joker == 0 and hand[k] == 0) or (joker == 1 and hj == 0):
                        continue
                    if n == act:
                        ent = k * 8 + (SRC_HAND_JOKER if joker == 1 else SRC_HAND)
                        if joker == 0:
                            hand[k] -= 1
                        if end == 0:
                            for i in range(length, 0, -1):
                                tab[mi, 2 + i] = tab[mi, 1 + i]
                            tab[mi, 2] = ent
                        else:
                            tab[mi, 2 + length] = ent
                        tab[mi, 1] = length + 1
                        return ntab
                    n += 1
        elif length < C:
            v = k0 % N
            miss = -1
            for c in range(C):
                present = False
                for i in range(length):
                    ent = tab[mi, 2 + i]
                    if not is_joker_entry(ent) and (ent >> 3) // N == c:
                        present = True
                if present:
                    continue
                if miss < 0:
                    miss = c
                if hand[c * N + v] == 0:
                    continue
                if n == act:
                    hand[c * N + v] -= 1
                    tab[mi, 2 + length] = (c * N + v) * 8 + SRC_HAND
                    tab[mi, 1] = length + 1
                    return ntab
                n += 1
            if hj > 0:
                if n == act:
                    tab[mi, 2 + length] = (miss * N + v) * 8 + SRC_HAND_JOKER
                    tab[mi, 1] = length + 1
                    return ntab
                n += 1
    return n


@jit
def _lay(
    layout: np.ndarray, nmelds: int, tab: np.ndarray, base: int, hand: np.ndarray, hj: np.ndarray, p: int
) -> None:
    """The solver's melds layout[:nmelds] laid as table rows base.., their hand cards leaving seat p's
    hand."""
    for mi in range(nmelds):
        for i in range(tab.shape[1]):
            tab[base + mi, i] = layout[mi, i]
        for j in range(layout[mi, 1]):
            e = layout[mi, 2 + j]
            if (e & 7) == SRC_HAND:
                hand[p, e >> 3] -= 1
            elif (e & 7) == SRC_HAND_JOKER:
                hj[p] -= 1


@jit
def _random_lay(
    act: int,
    p: int,
    setup: Setup,
    tab: np.ndarray,
    ntab: int,
    hand: np.ndarray,
    hj: np.ndarray,
    opened: np.ndarray,
    t_real: np.ndarray,
    t_jrun: np.ndarray,
    t_jgrp: np.ndarray,
) -> int:
    """Seat p makes play `act` of its random-legal list (a lay); returns the table's meld count."""
    C, N = setup.n_colours, setup.n_numbers
    j_before = _hand_jokers_on_table(tab, ntab)
    ntab = random_plays(
        act, tab, ntab, hand[p], hj[p], opened[p] == 1, C, N, setup.num_min, setup.initial_meld
    )
    hj[p] -= _hand_jokers_on_table(tab, ntab) - j_before
    opened[p] = 1
    table_cards(tab, ntab, C, N, t_real, t_jrun, t_jgrp)
    return ntab


@jit
def _random_turn(
    rng: np.ndarray,
    p: int,
    turn: int,
    n_plays: int,
    setup: Setup,
    tab: np.ndarray,
    ntab: int,
    hand: np.ndarray,
    hj: np.ndarray,
    opened: np.ndarray,
    t_real: np.ndarray,
    t_jrun: np.ndarray,
    t_jgrp: np.ndarray,
    choices: np.ndarray,
) -> int:
    """The random-legal seat's pick among its n_plays listed plays (logged in choices); returns the meld
    count."""
    if not setup.draw_by_choice and n_plays > 1:
        pick = rand_below(rng, n_plays - 1)  # Draw is not listed (Game.legal_actions)
        act = 1 + pick
        listed = n_plays - 1
    else:
        pick = rand_below(rng, n_plays)
        act = pick
        listed = n_plays
    if turn < choices.shape[0]:
        choices[turn, 0] = pick
        choices[turn, 1] = listed
    if act > 0:
        ntab = _random_lay(int(act), p, setup, tab, ntab, hand, hj, opened, t_real, t_jrun, t_jgrp)
    return ntab
