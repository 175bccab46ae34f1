"""Joker retrieval: a table joker freed by the card it stands for, then the best meld it can join
(exact search on small tables, a greedy incumbent and a candidate search otherwise)."""

from __future__ import annotations

import numpy as np

from generator.engine.kernel import jit, jit_merged
from generator.games.rummy_cards.solver_decode import decode
from generator.games.rummy_cards.solver_search import _card_gain, resume_counts, solve_exact
from generator.games.rummy_cards.solver_state import (
    EXACT_RETRIEVAL_TABLE,
    GIVE_UP,
    GROUP,
    OUT_BEST,
    OUT_GIVEUPS,
    OUT_MELDS,
    OUT_RETRIEVED,
    RUN,
    SRC_FREED_JOKER,
    SRC_HAND,
    SRC_TABLE_JOKER,
    SolverWorkspace,
    is_joker_entry,
)

MAX_CANDIDATES = 2048  # candidate melds for the freed joker per retrieved kind (a 4 x 13 deck has fewer)
CAND_TYP, CAND_A, CAND_B, CAND_E, CAND_J, CAND_GAIN = range(6)
"""Columns of a candidate meld row: RUN (colour, first place, last place, the joker's place) or GROUP (number
index, mask of the hand's colours, -, -), then the objective its hand cards add."""
CAND_F = 6


@jit_merged
def _best_retrieval(
    t_real: np.ndarray,
    t_jrun: np.ndarray,
    t_jgrp: np.ndarray,
    t_lock: np.ndarray,
    rj: np.ndarray,
    gj: np.ndarray,
    forced: np.ndarray,
    hand: np.ndarray,
    hand_jokers: int,
    C: int,
    N: int,
    num_min: int,
    joker_penalty: int,
    layout: np.ndarray,
    out: np.ndarray,
    decisions: np.ndarray,
    ws: SolverWorkspace,
) -> None:
    """Improve out/layout by retrieving one table joker, exactly over this family of plays: a run (group)
    joker standing for kind k is replaced by a hand card of kind k (the replacement then sits wherever the
    table search puts it, as a forced card); the freed joker goes into a new meld of itself and 2+ other hand
    cards (no card of kind k, no hand joker, no table card: the seed's new set); the rest of the hand and the
    table (the other table jokers in sets of their kinds) are rearranged by the exact search.

    Bounds keep it cheap: a kind k without a candidate meld costs nothing; a greedy incumbent (the best table
    with the joker swapped for the card, the joker in the richest candidate of cards left over) costs no
    search and is usually optimal; then candidates go by gain, most first, one search each (resumed from the
    search without the replacement card below the candidate's lowest number), and stop once their gain plus
    that search (an upper bound: the search is monotone in the hand) cannot beat the best. (A relaxation
    with the freed joker as one more hand joker used to come first, to skip a kind or to certify its optimum:
    the extra joker made it 6x the states of the searches it could spare, a fifth of the meld finder's
    time; issue 16.)
    Not searched: retrieving both jokers in one turn and (for a group joker) replacing it by a missing colour
    other than the lowest one. (A freed joker joining table cards is not a new set: illegal.)

    The steps: whether any joker is retrievable (_retrievable); per joker, its inputs without it
    (_without_joker) and the candidate melds of the freed joker (_candidate_melds); the greedy incumbent
    (_greedy_incumbent); the exact searches (_search_candidates); the best written to the layout.
    """
    K = C * N
    if not _retrievable(t_jrun, t_jgrp, hand):
        return  # no hand card is the card a table joker stands for (the usual case): spare the allocations
    n_table_jokers = t_jrun.sum() + t_jgrp.sum()
    table_size = n_table_jokers + t_real.sum()
    everything = hand_jokers * (joker_penalty * 256 + 1)  # the objective of laying the whole hand: a bound
    for k in range(K):
        everything += hand[k] * _card_gain(k, N, num_min)
    rj2, gj2, lock2, forced2, hand2 = rj.copy(), gj.copy(), t_lock.copy(), forced.copy(), hand.copy()
    cand = np.zeros((MAX_CANDIDATES, CAND_F), np.int64)
    best_meld = np.zeros(CAND_F, np.int64)
    best_dec = np.zeros(N * C, np.int64)
    best_kf = -1  # the retrieved joker, coded as out[OUT_RETRIEVED]
    greedy = False
    for kf in range(2 * K):
        fam = kf // K  # 0: a run joker, 1: a group joker
        k = kf % K
        if (t_jrun[k] if fam == 0 else t_jgrp[k]) == 0 or hand[k] == 0 or out[OUT_BEST] >= everything:
            continue
        _without_joker(fam, k, N, rj, gj, t_lock, forced, rj2, gj2, lock2, forced2)
        hand2[k] -= 1
        nc = _candidate_melds(k, hand2, C, N, num_min, cand)
        if nc > 0 and best_kf < 0 and not greedy and n_table_jokers == 1:
            greedy = _greedy_incumbent(kf, hand, cand, nc, layout, out, C, N, num_min)
        if nc > 0 and table_size <= EXACT_RETRIEVAL_TABLE:
            best_kf = _search_candidates(
                kf,
                cand,
                nc,
                forced2,
                hand2,
                hand_jokers,
                rj2,
                gj2,
                C,
                N,
                num_min,
                joker_penalty,
                decisions,
                ws,
                out,
                best_kf,
                best_meld,
                best_dec,
            )
        hand2[k] += 1
    if best_kf < 0:
        return
    _without_joker(best_kf // K, best_kf % K, N, rj, gj, t_lock, forced, rj2, gj2, lock2, forced2)
    nm = decode(best_dec, t_real, lock2, gj2, C, N, layout)  # the replacement card decodes as a hand card
    _write_meld(layout, nm, best_meld, C, N)
    out[OUT_MELDS] = nm + 1
    out[OUT_RETRIEVED] = best_kf


@jit
def _retrievable(t_jrun: np.ndarray, t_jgrp: np.ndarray, hand: np.ndarray) -> bool:
    """Retrieval step: some hand card is the card a table joker (run or group) stands for."""
    for k in range(hand.shape[0]):
        if hand[k] > 0 and t_jrun[k] + t_jgrp[k] > 0:
            return True
    return False


@jit
def _candidate_melds(k: int, hand: np.ndarray, C: int, N: int, num_min: int, cand: np.ndarray) -> int:
    """Retrieval step: cand rows = every new meld of a freed joker with 2+ hand cards, none of kind k (runs of
    colour c over places s..e with the joker at jp; groups of number v, the hand's colours in a mask, the
    joker as the lowest missing colour), in this order; returns how many (at most MAX_CANDIDATES)."""
    nc = 0
    for c in range(C):
        for s in range(N):
            for e in range(s + 2, N):
                for jp in range(s, e + 1):
                    ok = True
                    gain = 0
                    for v in range(s, e + 1):
                        kk = c * N + v
                        if v != jp:
                            if kk == k or hand[kk] == 0:
                                ok = False
                                break
                            gain += _card_gain(kk, N, num_min)
                    if ok and nc < MAX_CANDIDATES:
                        _set_candidate(cand[nc], RUN, c, s, e, jp, gain)
                        nc += 1
    for v in range(N):
        for mask in range(1, 1 << C):
            n_col = 0
            ok = True
            gain = 0
            for c in range(C):
                kk = c * N + v
                if (mask >> c) & 1:
                    n_col += 1
                    if kk == k or hand[kk] == 0:
                        ok = False
                        break
                    gain += _card_gain(kk, N, num_min)
            if ok and n_col >= 2 and n_col + 1 <= C and nc < MAX_CANDIDATES:
                _set_candidate(cand[nc], GROUP, v, mask, 0, 0, gain)
                nc += 1
    return nc


@jit
def _set_candidate(row: np.ndarray, typ: int, a: int, b: int, e: int, jp: int, gain: int) -> None:
    """One candidate meld row (see CAND_TYP)."""
    row[CAND_TYP] = typ
    row[CAND_A] = a
    row[CAND_B] = b
    row[CAND_E] = e
    row[CAND_J] = jp
    row[CAND_GAIN] = gain


@jit
def _greedy_incumbent(
    kf: int,
    hand: np.ndarray,
    cand: np.ndarray,
    nc: int,
    layout: np.ndarray,
    out: np.ndarray,
    C: int,
    N: int,
    num_min: int,
) -> bool:
    """Retrieval step without a search: keep the best table, swap the joker kf (coded as out[OUT_RETRIEVED])
    for the unlaid hand card of its kind, and put it in the richest candidate (the first of equals) made only
    of cards that table leaves in the hand; out/layout updated. Whether there was one."""
    k = kf % (C * N)
    g_row, g_pos = _greedy_slot(layout, out[OUT_MELDS], k, C, N)
    if g_row < 0:
        return False
    unlaid = hand.copy()
    for mi in range(out[OUT_MELDS]):
        for jj in range(layout[mi, 1]):
            if (layout[mi, 2 + jj] & 7) == SRC_HAND:
                unlaid[layout[mi, 2 + jj] >> 3] -= 1
    if unlaid[k] == 0:
        return False
    unlaid[k] -= 1
    bg = -1
    for i in range(nc):
        if (bg < 0 or cand[i, CAND_GAIN] > cand[bg, CAND_GAIN]) and _fits(cand[i], unlaid, C, N):
            bg = i
    if bg < 0:
        return False
    out[OUT_BEST] += _card_gain(k, N, num_min) + cand[bg, CAND_GAIN]
    layout[g_row, 2 + g_pos] = k * 8 + SRC_HAND
    _write_meld(layout, out[OUT_MELDS], cand[bg], C, N)
    out[OUT_MELDS] += 1
    out[OUT_RETRIEVED] = kf
    return True


@jit_merged
def _search_candidates(
    kf: int,
    cand: np.ndarray,
    nc: int,
    forced2: np.ndarray,
    hand2: np.ndarray,
    hand_jokers: int,
    rj2: np.ndarray,
    gj2: np.ndarray,
    C: int,
    N: int,
    num_min: int,
    jv: int,
    decisions: np.ndarray,
    ws: SolverWorkspace,
    out: np.ndarray,
    best_kf: int,
    best_meld: np.ndarray,
    best_dec: np.ndarray,
) -> int:
    """Retrieval step, exact: the joker kf replaced by the hand's card (forced2, hand2 without it), each
    candidate meld with the table search of what is left, richest first, while its gain plus the search
    without it (a bound) can beat out[OUT_BEST]. A better one updates out[OUT_BEST], best_meld and best_dec;
    returns the best joker so far (kf or best_kf)."""
    bound = solve_exact(forced2, hand2, hand_jokers, rj2, gj2, C, N, num_min, jv, decisions, ws)
    if bound == GIVE_UP:
        out[OUT_GIVEUPS] += 1
        return best_kf
    bound = max(bound, 0)
    repl = _card_gain(kf % (C * N), N, num_min)
    order = np.argsort(-cand[:nc, CAND_GAIN], kind="mergesort")
    # A candidate's search differs from the bound's only from the candidate's lowest number on, so it
    # resumes from the bound's layers below it; `valid`: the workspace holds the bound's layers below it.
    valid = N
    for oi in range(nc):
        m = cand[order[oi]]
        if repl + m[CAND_GAIN] + bound <= out[OUT_BEST]:
            break
        low = m[CAND_B] if m[CAND_TYP] == RUN else m[CAND_A]
        _take(m, hand2, C, N, -1)
        r = resume_counts(
            forced2, hand2, hand_jokers, rj2, gj2, C, N, num_min, jv, decisions, ws, min(low, valid)
        )
        _take(m, hand2, C, N, 1)
        valid = low
        if r == GIVE_UP:
            out[OUT_GIVEUPS] += 1
            valid = 0  # the layers past the one that overflowed are stale
        if r >= 0 and repl + m[CAND_GAIN] + r > out[OUT_BEST]:
            out[OUT_BEST] = repl + m[CAND_GAIN] + r
            best_kf = kf
            best_meld[:] = m
            best_dec[:] = decisions
    return best_kf


@jit
def _without_joker(
    fam: int,
    k: int,
    N: int,
    rj: np.ndarray,
    gj: np.ndarray,
    t_lock: np.ndarray,
    forced: np.ndarray,
    rj2: np.ndarray,
    gj2: np.ndarray,
    lock2: np.ndarray,
    forced2: np.ndarray,
) -> None:
    """rj2/gj2/lock2/forced2 = the search inputs once a run (fam 0) or group (fam 1) joker standing for kind k
    has been replaced by a real card of kind k (which must then be on the table: forced)."""
    rj2[:] = rj
    gj2[:] = gj
    lock2[:] = t_lock
    forced2[:] = forced
    if fam == 0 and t_lock[k] > 0:
        lock2[k] -= 1  # a locked joker's place is already a forced card of kind k
    elif fam == 0:
        rj2[k // N] -= 1
        forced2[k] += 1
    else:
        gj2[k % N] -= 1
        forced2[k] += 1


@jit
def _greedy_slot(layout: np.ndarray, nm: int, k: int, C: int, N: int) -> tuple[int, int]:
    """Row and place of a table joker locked to kind k that a real card of kind k may replace, or (-1, -1)."""
    for mi in range(nm):
        for jj in range(layout[mi, 1]):
            ent = layout[mi, 2 + jj]
            if (ent & 7) != SRC_TABLE_JOKER or (ent >> 3) != k:
                continue
            if layout[mi, 0] == RUN:
                return mi, jj
            clash = False
            for q in range(layout[mi, 1]):
                e2 = layout[mi, 2 + q]
                if not is_joker_entry(e2) and (e2 >> 3) // N == k // N:
                    clash = True
            if not clash:
                return mi, jj
    return -1, -1


@jit
def _fits(m: np.ndarray, hand: np.ndarray, C: int, N: int) -> bool:
    """The candidate meld's hand cards are all in `hand`."""
    if m[CAND_TYP] == RUN:
        for v in range(m[CAND_B], m[CAND_E] + 1):
            if v != m[CAND_J] and hand[m[CAND_A] * N + v] == 0:
                return False
    else:
        for c in range(C):
            if (m[CAND_B] >> c) & 1 and hand[c * N + m[CAND_A]] == 0:
                return False
    return True


@jit
def _write_meld(layout: np.ndarray, row: int, m: np.ndarray, C: int, N: int) -> None:
    """Layout row for a candidate meld with the freed joker (a group's joker: the lowest missing colour)."""
    a, b = m[CAND_A], m[CAND_B]
    if m[CAND_TYP] == RUN:
        layout[row, 0] = RUN
        layout[row, 1] = m[CAND_E] - b + 1
        for v in range(b, m[CAND_E] + 1):
            layout[row, 2 + v - b] = (a * N + v) * 8 + (SRC_FREED_JOKER if v == m[CAND_J] else SRC_HAND)
    else:
        i = 0
        miss = -1
        for c in range(C):
            if (b >> c) & 1:
                layout[row, 2 + i] = (c * N + a) * 8 + SRC_HAND
                i += 1
            elif miss < 0:
                miss = c
        layout[row, 0] = GROUP
        layout[row, 1] = i + 1
        layout[row, 2 + i] = (miss * N + a) * 8 + SRC_FREED_JOKER


@jit
def _take(m: np.ndarray, hand: np.ndarray, C: int, N: int, delta: int) -> None:
    """Add delta to the hand counts of a candidate meld's hand cards."""
    if m[CAND_TYP] == RUN:
        for v in range(m[CAND_B], m[CAND_E] + 1):
            if v != m[CAND_J]:
                hand[m[CAND_A] * N + v] += delta
    else:
        for c in range(C):
            if (m[CAND_B] >> c) & 1:
                hand[c * N + m[CAND_A]] += delta
