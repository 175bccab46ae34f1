"""From the search's decisions back to melds: the optimal path traced through the layers and written
to the layout."""

from __future__ import annotations

import numpy as np

from generator.engine.kernel import jit, jit_inline
from generator.games.rummy_cards.solver_state import (
    DEC_COLOUR,
    DEC_GROUP_JOKERS,
    GROUP,
    RUN,
    SRC_HAND,
    SRC_HAND_JOKER,
    SRC_TABLE,
    SRC_TABLE_JOKER,
    SolverWorkspace,
)


@jit_inline
def _trace_back(ws: SolverWorkspace, L: int, si: int, decisions: np.ndarray) -> None:
    """Final step: decisions[0:L] = the decisions of the layers along the path to state si of layer L."""
    i = si
    for lay in range(L, 0, -1):
        decisions[lay - 1] = ws.dec[lay, i]
        i = ws.parent[lay, i]


@jit
def _emit(layout: np.ndarray, n: int, kind: int, entries: np.ndarray, length: int) -> int:
    layout[n, 0] = kind
    layout[n, 1] = length
    for i in range(length):
        layout[n, 2 + i] = entries[i]
    return n + 1


@jit
def decode(
    decisions: np.ndarray,
    table_real: np.ndarray,
    table_joker: np.ndarray,
    group_jokers: np.ndarray,
    n_colours: int,
    n_numbers: int,
    layout: np.ndarray,
) -> int:
    """Melds of the optimum into layout rows [type, length, entries...]; entry = kind*8+source. Returns count.

    Cards of one kind are taken in the order table cards, table jokers locked to that kind, hand cards.
    Group jokers take the lowest colour missing among the real cards of their group; at number index v the
    first group_jokers[v] of them are the table's (SRC_TABLE_JOKER), the rest the hand's.
    """
    C = n_colours
    N = n_numbers
    run_buf = np.zeros((C, 2, N), np.int64)
    run_len = np.zeros((C, 2), np.int64)
    gcol = np.zeros((C, 4), np.int64)  # group entries per colour at this number
    gcnt = np.zeros(C, np.int64)
    placed = np.zeros(C * N, np.int64)
    grp = np.zeros((16, 8), np.int64)
    glen = np.zeros(16, np.int64)
    tmp = np.zeros(N + 8, np.int64)
    nm = 0
    lay = 0
    for v in range(N):
        for c in range(C):
            gcnt[c] = 0
        jg_v = 0
        for pos in range(C + 1):
            d = 0
            if pos < C:
                d = decisions[lay]
                lay += 1
                if pos == C - 1:
                    jg_v = d >> DEC_GROUP_JOKERS
                c = (d >> DEC_COLOUR) & 15
                k = c * N + v
                for s in range(2):
                    e = (d >> (2 * s)) & 1
                    fj = (d >> (2 * s + 1)) & 1
                    tj = (d >> (7 + s)) & 1
                    if e == 1:
                        if fj == 1:
                            ent = k * 8 + (SRC_TABLE_JOKER if tj == 1 else SRC_HAND_JOKER)
                        else:
                            p = placed[k]
                            placed[k] = p + 1
                            src = (
                                SRC_TABLE
                                if p < table_real[k]
                                else (SRC_TABLE_JOKER if p < table_real[k] + table_joker[k] else SRC_HAND)
                            )
                            ent = k * 8 + src
                        run_buf[c, s, run_len[c, s]] = ent
                        run_len[c, s] += 1
                    elif run_len[c, s] > 0:
                        for i in range(run_len[c, s]):
                            tmp[i] = run_buf[c, s, i]
                        nm = _emit(layout, nm, RUN, tmp, run_len[c, s])
                        run_len[c, s] = 0
                if (d >> 6) & 1 == 1:
                    for i in range(N):
                        t = run_buf[c, 0, i]
                        run_buf[c, 0, i] = run_buf[c, 1, i]
                        run_buf[c, 1, i] = t
                    t = run_len[c, 0]
                    run_len[c, 0] = run_len[c, 1]
                    run_len[c, 1] = t
                g = (d >> 4) & 3
                for _i in range(g):
                    p = placed[k]
                    placed[k] = p + 1
                    src = (
                        SRC_TABLE
                        if p < table_real[k]
                        else (SRC_TABLE_JOKER if p < table_real[k] + table_joker[k] else SRC_HAND)
                    )
                    gcol[c, gcnt[c]] = k * 8 + src
                    gcnt[c] += 1
            else:
                jg = jg_v
                total = jg
                maxg = 0
                for cc in range(C):
                    total += gcnt[cc]
                    if gcnt[cc] > maxg:
                        maxg = gcnt[cc]
                if total == 0:
                    continue
                m = (total + C - 1) // C
                if maxg > m:
                    m = maxg
                for i in range(m):
                    glen[i] = 0
                i = 0
                for cc in range(C):
                    for j in range(gcnt[cc]):
                        grp[i % m, glen[i % m]] = gcol[cc, j]
                        glen[i % m] += 1
                        i += 1
                for j in range(jg):
                    small = 0
                    for gi in range(1, m):
                        if glen[gi] < glen[small]:
                            small = gi
                    grp[small, glen[small]] = -2 if j < group_jokers[v] else -1
                    glen[small] += 1
                for gi in range(m):
                    # a group joker stands for the lowest colour missing among the real cards
                    miss = -1
                    for cc in range(C):
                        present = False
                        for j in range(glen[gi]):
                            ent = grp[gi, j]
                            if ent >= 0 and (ent & 7) != SRC_TABLE_JOKER and (ent >> 3) // N == cc:
                                present = True
                        if not present:
                            miss = cc
                            break
                    for j in range(glen[gi]):
                        ent = grp[gi, j]
                        if ent < 0:
                            tmp[j] = (miss * N + v) * 8 + (SRC_TABLE_JOKER if ent == -2 else SRC_HAND_JOKER)
                        else:
                            tmp[j] = ent
                    nm = _emit(layout, nm, GROUP, tmp, glen[gi])
    for c in range(C):
        for s in range(2):
            if run_len[c, s] > 0:
                for i in range(run_len[c, s]):
                    tmp[i] = run_buf[c, s, i]
                nm = _emit(layout, nm, RUN, tmp, run_len[c, s])
    return nm
