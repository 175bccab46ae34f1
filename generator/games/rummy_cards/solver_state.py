"""The meld finder's constants, its CAP workspace and the hash table of a layer's states."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from generator.engine.kernel import jit, jit_inline

HASH_MUL = 0x7FEB352D  # odd, < 2**31: a 32-bit value times it stays below 2**63 (no int64 overflow)
CAP = 32768  # states per layer (about 45 MB of workspace for 4 colours x 13 numbers)
MAX_MELDS = 64
ROW_PAD = 40  # see new_workspace
PRUNE_AT = 0  # boundary layers of more states than this get the dominance pass (all; resume_counts' prune_at)
GIVE_UP = -2
INFEASIBLE = -1
# layout entry = kind * 8 + source; a retrieved table joker is SRC_FREED_JOKER at the kind it now stands for
SRC_TABLE, SRC_TABLE_JOKER, SRC_HAND, SRC_HAND_JOKER, SRC_FREED_JOKER = 0, 1, 2, 3, 4
EXACT_RETRIEVAL_TABLE = 50  # the exact retrieval search runs on tables of at most this many cards
RUN, GROUP = 0, 1
# key bits 46.. : per colour, how many of the table's run jokers of that colour the state has placed (2 bits)
TJ_SHIFT = 46
TJ_MASK = 0xFFFF << TJ_SHIFT
MAX_FREE_RUN_JOKERS = 3  # more table run jokers of one colour than this stay locked to their kinds
LOOK_AHEAD = 2  # a colour layer of number v reads the cards of numbers v + 1 and v + 2 (the dead-run cut)
DEAD_RUN_CUT = True  # the dead-run cut (see the module text); resume_counts' dead_run_cut turns it off


@jit
def new_workspace(
    n_colours: int, n_numbers: int, cap: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Reusable arrays for solve_counts with room for `cap` (+ ROW_PAD) states per layer (allocate once per
    simulation): keys, score, parent, dec per layer, the hash table and its used slots, the state count per
    layer."""
    n_layers = n_numbers * n_colours + 1
    hsize = 1
    while hsize < 2 * cap:
        hsize *= 2
    # rows of cap + ROW_PAD entries: rows a power of two apart would all fall in the same cache sets, and a
    # search touches the first few hundred entries of several rows of four arrays at once
    row = cap + ROW_PAD
    return (
        np.empty((n_layers, row), np.int64),
        np.empty((n_layers, row), np.int64),
        np.empty((n_layers, row), np.int32),
        np.empty((n_layers, row), np.int32),
        np.zeros((hsize, 2), np.int64),
        np.empty(row, np.int64),
        np.zeros(n_layers, np.int64),
    )


class SolverWorkspace(NamedTuple):
    """The search's reusable arrays (new_workspace) and its move table (move_table): solve_counts,
    resume_counts, solve_exact and solve_turn take the tuple (one argument instead of twelve arrays)."""

    keys: np.ndarray
    score: np.ndarray
    parent: np.ndarray
    dec: np.ndarray
    htab: np.ndarray
    hpos: np.ndarray
    counts: np.ndarray
    mv_n: np.ndarray
    """(16, MOVE_F, MOVE_H, 2): moves of a colour layer from slot pair code ab with f table and h hand cards;
    [..., 1]: how many of them, listed first, use no joker."""
    mv_add: np.ndarray
    """(16, MOVE_F, MOVE_H, MAX_TRANSITIONS): the new pair code | hand jokers << 32 | group cards << 36."""
    mv_hand: np.ndarray
    """Hand cards the move lays (r + g - f), the gain's unit count."""
    mv_dec: np.ndarray
    """The move's decision bits (see _transitions)."""
    mv_lim: np.ndarray
    """Table run jokers placed | hand jokers used << 8."""


OUT_BEST = 0
"""solve_turn's out[OUT_BEST]: the objective (points * 256 + cards; <= 0 nothing)."""
OUT_MELDS = 1
"""out[OUT_MELDS]: the melds written to the layout."""
OUT_RETRIEVED = 2
"""out[OUT_RETRIEVED]: the retrieved table joker (the kind it stood for, + n_kinds for a group joker) or
-1."""
OUT_GIVEUPS = 3
"""out[OUT_GIVEUPS]: searches that gave up (past CAP)."""
OUT_EXACT = 4
"""out[OUT_EXACT]: 1 when the table search (not the retrieval's) was exact (it did not give up, or was
known)."""
OUT_SIZE = 5


@jit_inline
def _lookup(keys: np.ndarray, L: int, htab: np.ndarray, hmask: int, nkey: int) -> int:
    """Index of nkey in layer L (its hash table must be live), or -1."""
    hh = _hash(nkey) & hmask
    while True:
        idx = htab[hh, 0]
        if idx == 0:
            return -1
        if htab[hh, 1] == nkey:
            return int(idx - 1)
        hh = (hh + 1) & hmask


@jit
def _hash(key: int) -> int:
    """Multiplicative hash of a state key (its two 32-bit halves folded), well mixed in the low bits; the
    product stays below 2**63, so the compiled and the pure path compute it alike and without overflow."""
    x = (key ^ (key >> 32)) & 0xFFFFFFFF
    return (x * HASH_MUL) >> 15


@jit
def _grow(keys: np.ndarray, L: int, n: int, htab: np.ndarray, hpos: np.ndarray, hmask: int) -> int:
    """Rehash layer L's n states into a table twice as large (same state indexes); returns the new mask."""
    for q in range(n):
        htab[hpos[q], 0] = 0
    mask = 2 * hmask + 1
    for q in range(n):
        key = keys[L, q]
        hh = _hash(key) & mask
        while htab[hh, 0] != 0:
            hh = (hh + 1) & mask
        htab[hh, 0] = q + 1
        htab[hh, 1] = key
        hpos[q] = hh
    return mask


DEC_COLOUR = 12  # a colour layer's decision holds its colour from this bit (colours are ordered per number)
DEC_GROUP_JOKERS = 16  # the last colour layer's decision holds the number's group jokers from this bit
MAX_TRANSITIONS = 64  # moves of one colour layer from one (a, b): at most 36 + 2 * 12 + 4


MOVE_F = 6  # table cards of one kind the move table covers: two run slots and at most 3 group cards take 5
MOVE_H = 6  # hand cards of one kind the move table covers (a 6th could only stay in the hand)


@jit
def is_joker_entry(ent: int) -> bool:
    """A layout entry that is a joker (from the table, the hand, or retrieved)."""
    src = ent & 7
    return src == SRC_TABLE_JOKER or src == SRC_HAND_JOKER or src == SRC_FREED_JOKER
