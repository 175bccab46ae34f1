"""The exact meld finder: a dynamic programme over numbers x colours that lays the most points (then cards).

Cards are counted by kind (colour * n_numbers + number index). Table cards are `forced` (every one must be on
the table again at the end), hand cards are optional; hand jokers are wildcards; table jokers arrive as
forced cards of the kind they are locked to (they keep their role, see rules.py). Per colour the state holds
two run slots with lengths 0, 1, 2 or 3+ (two copies -> at most two parallel runs); cards not in runs go to
groups of their number, which exist iff 3m <= total <= colours*m for some m >= the largest per-colour count.
A run of 6+ is two runs of 3+, so slots never need longer memory. Exact on these rules; a position that
needs three parallel runs of one colour (only possible with a locked joker) is reported as -2 (give up).

The objective is points * 256 + cards, with a laid joker worth `joker_value` points (or, when negative, the
number it stands for: the initial-meld count). `decode` turns the optimal decisions into melds.
"""

from __future__ import annotations

import numpy as np

from generator.engine.kernel import jit

CAP = 8192
HSIZE = 16384
HMASK = HSIZE - 1
MAX_MELDS = 64
GIVE_UP = -2
INFEASIBLE = -1
# layout entry = kind * 4 + source
SRC_TABLE, SRC_TABLE_JOKER, SRC_HAND, SRC_HAND_JOKER = 0, 1, 2, 3
RUN, GROUP = 0, 1


@jit
def new_workspace(n_colours: int, n_numbers: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Reusable arrays for solve_counts (allocate once per simulation, not per call)."""
    n_layers = n_numbers * (n_colours + 1) + 1
    return (np.empty((n_layers, CAP), np.int64), np.empty((n_layers, CAP), np.int64),
            np.empty((n_layers, CAP), np.int32), np.empty((n_layers, CAP), np.int32),
            np.zeros(HSIZE, np.int32), np.empty(CAP, np.int64))


@jit
def solve_counts(forced: np.ndarray, hand: np.ndarray, hand_jokers: int, n_colours: int, n_numbers: int,
                 num_min: int, joker_value: int, decisions: np.ndarray, keys: np.ndarray, score: np.ndarray,
                 parent: np.ndarray, dec: np.ndarray, htab: np.ndarray, hpos: np.ndarray) -> int:
    """Best objective (points*256+cards laid from hand), decisions[layer] filled along the optimum; -1/-2.

    keys..hpos come from new_workspace; htab must be all zero on entry and is left all zero.
    """
    C = n_colours
    N = n_numbers
    n_layers = N * (C + 1) + 1
    count = np.zeros(n_layers, np.int64)
    keys[0, 0] = 0
    score[0, 0] = 0
    parent[0, 0] = -1
    dec[0, 0] = 0
    count[0] = 1
    L = 0
    for v in range(N):
        num = num_min + v
        jv = joker_value if joker_value >= 0 else num
        for c in range(C + 1):
            nxt = L + 1
            for si in range(count[L]):
                key = keys[L, si]
                sc = score[L, si]
                slots = key & 0xFFFFFFFF
                used = (key >> 32) & 0xF
                sumg = (key >> 36) & 0x3F
                maxg = (key >> 42) & 0x7
                jr = hand_jokers - used
                if c < C:
                    a = (slots >> (4 * c)) & 3
                    b = (slots >> (4 * c + 2)) & 3
                    k = c * N + v
                    f = forced[k]
                    h = hand[k]
                    for ea in range(2):
                        if ea == 0 and (a == 1 or a == 2):
                            continue
                        for eb in range(2):
                            if eb == 0 and (b == 1 or b == 2):
                                continue
                            if a == b and ea < eb:
                                continue
                            for fa in range(ea + 1):
                                for fb in range(eb + 1):
                                    if a == b and ea == 1 and eb == 1 and fa < fb:
                                        continue
                                    jn = fa + fb
                                    if jn > jr:
                                        continue
                                    r = ea - fa + eb - fb
                                    if r > f + h:
                                        continue
                                    lo = f - r if f > r else 0
                                    hi = f + h - r
                                    if hi > 3:
                                        hi = 3
                                    na = (a + 1 if a < 3 else 3) if ea == 1 else 0
                                    nb = (b + 1 if b < 3 else 3) if eb == 1 else 0
                                    sw = 0
                                    if na < nb:
                                        na, nb = nb, na
                                        sw = 1
                                    nslots = (slots & ~(15 << (4 * c))) | ((na | (nb << 2)) << (4 * c))
                                    for g in range(lo, hi + 1):
                                        laid = r + g - f
                                        gain = laid * (num * 256 + 1) + jn * (jv * 256 + 1)
                                        mg = maxg if maxg > g else g
                                        nkey = nslots | ((used + jn) << 32) | ((sumg + g) << 36) | (mg << 42)
                                        d = ea | (fa << 1) | (eb << 2) | (fb << 3) | (g << 4) | (sw << 6)
                                        # insert / improve
                                        hh = (nkey ^ (nkey >> 13) ^ (nkey >> 29) ^ (nkey >> 41)) & HMASK
                                        while True:
                                            idx = htab[hh]
                                            if idx == 0:
                                                n = count[nxt]
                                                if n >= CAP:
                                                    for q in range(count[nxt]):
                                                        htab[hpos[q]] = 0
                                                    return GIVE_UP
                                                keys[nxt, n] = nkey
                                                score[nxt, n] = sc + gain
                                                parent[nxt, n] = si
                                                dec[nxt, n] = d
                                                htab[hh] = n + 1
                                                hpos[n] = hh
                                                count[nxt] = n + 1
                                                break
                                            if keys[nxt, idx - 1] == nkey:
                                                if sc + gain > score[nxt, idx - 1]:
                                                    score[nxt, idx - 1] = sc + gain
                                                    parent[nxt, idx - 1] = si
                                                    dec[nxt, idx - 1] = d
                                                break
                                            hh = (hh + 1) & HMASK
                else:
                    for jg in range(jr + 1):
                        T = sumg + jg
                        if T > 0:
                            m = (T + C - 1) // C
                            if maxg > m:
                                m = maxg
                            if 3 * m > T:
                                continue
                        nkey = slots | ((used + jg) << 32)
                        gain = jg * (jv * 256 + 1)
                        hh = (nkey ^ (nkey >> 13) ^ (nkey >> 29) ^ (nkey >> 41)) & HMASK
                        while True:
                            idx = htab[hh]
                            if idx == 0:
                                n = count[nxt]
                                if n >= CAP:
                                    for q in range(count[nxt]):
                                        htab[hpos[q]] = 0
                                    return GIVE_UP
                                keys[nxt, n] = nkey
                                score[nxt, n] = sc + gain
                                parent[nxt, n] = si
                                dec[nxt, n] = jg
                                htab[hh] = n + 1
                                hpos[n] = hh
                                count[nxt] = n + 1
                                break
                            if keys[nxt, idx - 1] == nkey:
                                if sc + gain > score[nxt, idx - 1]:
                                    score[nxt, idx - 1] = sc + gain
                                    parent[nxt, idx - 1] = si
                                    dec[nxt, idx - 1] = jg
                                break
                            hh = (hh + 1) & HMASK
            for n in range(count[nxt]):
                htab[hpos[n]] = 0
            L = nxt
    best = -1
    bi = -1
    for si in range(count[L]):
        slots = keys[L, si] & 0xFFFFFFFF
        ok = True
        for c in range(C):
            a = (slots >> (4 * c)) & 3
            b = (slots >> (4 * c + 2)) & 3
            if a == 1 or a == 2 or b == 1 or b == 2:
                ok = False
                break
        if ok and score[L, si] > best:
            best = score[L, si]
            bi = si
    if bi < 0:
        return INFEASIBLE
    i = bi
    for lay in range(L, 0, -1):
        decisions[lay - 1] = dec[lay, i]
        i = parent[lay, i]
    return best


@jit
def _emit(layout: np.ndarray, n: int, kind: int, entries: np.ndarray, length: int) -> int:
    layout[n, 0] = kind
    layout[n, 1] = length
    for i in range(length):
        layout[n, 2 + i] = entries[i]
    return n + 1


@jit
def decode(decisions: np.ndarray, table_real: np.ndarray, table_joker: np.ndarray, n_colours: int,
           n_numbers: int, layout: np.ndarray) -> int:
    """Melds of the optimum into layout rows [type, length, entries...]; entry = kind*4+source. Returns count.

    Cards of one kind are taken in the order table cards, table jokers locked to that kind, hand cards.
    Group jokers take the lowest colour missing among the real cards of their group.
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
        for c in range(C + 1):
            d = decisions[lay]
            lay += 1
            if c < C:
                k = c * N + v
                for s in range(2):
                    e = (d >> (2 * s)) & 1
                    fj = (d >> (2 * s + 1)) & 1
                    if e == 1:
                        if fj == 1:
                            ent = k * 4 + SRC_HAND_JOKER
                        else:
                            p = placed[k]
                            placed[k] = p + 1
                            src = SRC_TABLE if p < table_real[k] else (SRC_TABLE_JOKER if p < table_real[k] + table_joker[k] else SRC_HAND)
                            ent = k * 4 + src
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
                for i in range(g):
                    p = placed[k]
                    placed[k] = p + 1
                    src = SRC_TABLE if p < table_real[k] else (SRC_TABLE_JOKER if p < table_real[k] + table_joker[k] else SRC_HAND)
                    gcol[c, gcnt[c]] = k * 4 + src
                    gcnt[c] += 1
            else:
                jg = d
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
                    grp[small, glen[small]] = -1
                    glen[small] += 1
                for gi in range(m):
                    # a group joker stands for the lowest colour missing among the real cards
                    miss = -1
                    for cc in range(C):
                        present = False
                        for j in range(glen[gi]):
                            ent = grp[gi, j]
                            if ent >= 0 and (ent & 3) != SRC_TABLE_JOKER and (ent >> 2) // N == cc:
                                present = True
                        if not present:
                            miss = cc
                            break
                    for j in range(glen[gi]):
                        ent = grp[gi, j]
                        if ent < 0:
                            tmp[j] = (miss * N + v) * 4 + SRC_HAND_JOKER
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


@jit
def joker_locks(layout: np.ndarray, n_melds: int, n_colours: int, n_numbers: int, locks: np.ndarray) -> None:
    """Add to locks[kind] the kind each joker on the laid-out table stands for (runs: its place; groups:
    the lowest colour missing among the group's real cards)."""
    N = n_numbers
    for mi in range(n_melds):
        length = layout[mi, 1]
        for j in range(length):
            ent = layout[mi, 2 + j]
            src = ent & 3
            if src != SRC_TABLE_JOKER and src != SRC_HAND_JOKER:
                continue
            k = ent >> 2
            if layout[mi, 0] == RUN:
                locks[k] += 1
            else:
                v = k % N
                miss = 0
                for cc in range(n_colours):
                    present = False
                    for jj in range(length):
                        e2 = layout[mi, 2 + jj]
                        s2 = e2 & 3
                        if s2 != SRC_TABLE_JOKER and s2 != SRC_HAND_JOKER and (e2 >> 2) // N == cc:
                            present = True
                    if not present:
                        miss = cc
                        break
                locks[miss * N + v] += 1
