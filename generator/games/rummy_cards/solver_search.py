"""The table search: layers of states over numbers x colours, each colour layer's moves, the
boundary's dominance pass, and resuming a search from a number index."""

from __future__ import annotations

import numpy as np

from generator.engine.kernel import jit, jit_inline, jit_noref
from generator.games.rummy_cards.solver_decode import _trace_back
from generator.games.rummy_cards.solver_state import (
    CAP,
    DEAD_RUN_CUT,
    DEC_COLOUR,
    DEC_GROUP_JOKERS,
    GIVE_UP,
    INFEASIBLE,
    LOOK_AHEAD,
    MAX_TRANSITIONS,
    MOVE_F,
    MOVE_H,
    PRUNE_AT,
    TJ_MASK,
    TJ_SHIFT,
    SolverWorkspace,
    _grow,
    _hash,
    _lookup,
    new_workspace,
)

_MOVES: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []


def workspaces(n_colours: int, n_numbers: int) -> SolverWorkspace:
    """The CAP workspace with the move table (built once per process: 2 ms, and searches only read it)."""
    if not _MOVES:
        _MOVES.append(move_table())
    return SolverWorkspace(*new_workspace(n_colours, n_numbers, CAP), *_MOVES[0])


def _slot_dominators() -> tuple[np.ndarray, np.ndarray]:
    """For each colour's slot pair code (a | b << 2, a >= b), the other pair codes that dominate it.

    One slot x dominates y when every continuation that is valid from y is valid from x, with the same cards:
    x == y, x == 3+ (it may end now or go on), or x == 2 and y == 1 (both must take the next card; then 2 is
    3+ while 1 is 2, which must take one more). A pair dominates another when its slots dominate the other's
    under one of the two matchings."""

    def sdom(x: int, y: int) -> bool:
        return x == y or x == 3 or (x == 2 and y == 1)

    doms = np.full((16, 16), -1, np.int64)
    n_doms = np.zeros(16, np.int64)
    for a in range(4):
        for b in range(a + 1):
            for x in range(4):
                for y in range(x + 1):
                    if (x, y) != (a, b) and ((sdom(x, a) and sdom(y, b)) or (sdom(x, b) and sdom(y, a))):
                        doms[a | (b << 2), n_doms[a | (b << 2)]] = x | (y << 2)
                        n_doms[a | (b << 2)] += 1
    return doms, n_doms


SLOT_DOMS, N_SLOT_DOMS = _slot_dominators()
SLOT_DOM_MASK = np.array(
    [sum(1 << int(d) for d in SLOT_DOMS[c, : N_SLOT_DOMS[c]]) for c in range(16)], np.int64
)
"""Per pair code, the bit set of the codes that dominate it."""


@jit_noref
def _prune_dominated(
    L: int,
    n: int,
    c_lo: int,
    c_hi: int,
    keys: np.ndarray,
    score: np.ndarray,
    dec: np.ndarray,
    htab: np.ndarray,
    hmask: int,
    present: np.ndarray,
) -> None:
    """Mark (dec = -1) every state of layer L that another state dominates with a score at least as high:
    the same key but fewer hand jokers used, or the same key but one colour's run slots dominating
    (SLOT_DOMS: a 3+ slot for any slot, a 2 for a 1).

    Exact: a spare hand joker may be laid later or kept (laying is optional); from a dominating slot every
    continuation of the dominated one is still open with the same gains. Dominance is a strict order on
    distinct keys (more spare jokers, or slots strictly higher), so there are no cycles and every dead
    state has a live dominator."""
    for c in range(c_lo, c_hi):  # per colour, the pair codes some live state of the layer has
        present[c] = 0
    for si in range(n):
        if dec[L, si] >= 0:
            slots = keys[L, si] & 0xFFFFFFFF
            for c in range(c_lo, c_hi):
                present[c] |= 1 << ((slots >> (4 * c)) & 15)
    for si in range(n):
        key = keys[L, si]
        sc = score[L, si]
        slots = key & 0xFFFFFFFF
        used = (key >> 32) & 0xF
        for u in range(used):  # fewer hand jokers used: the spare ones may still be laid, or kept
            j = _lookup(keys, L, htab, hmask, key - ((used - u) << 32))
            if j >= 0 and score[L, j] >= sc:
                dec[L, si] = -1
                break
        if dec[L, si] < 0:
            continue
        for c in range(c_lo, c_hi):
            code = (slots >> (4 * c)) & 15
            if SLOT_DOM_MASK[code] & present[c] == 0:
                continue  # no state of the layer has a dominating pair for this colour: no lookup can hit
            base = key & ~(15 << (4 * c))
            for t in range(N_SLOT_DOMS[code]):
                d = SLOT_DOMS[code, t]
                if (present[c] >> d) & 1 == 0:
                    continue
                j = _lookup(keys, L, htab, hmask, base | (d << (4 * c)))
                if j >= 0 and score[L, j] >= sc:
                    dec[L, si] = -1
                    break
            if dec[L, si] < 0:
                break


@jit
def _groups_possible(low: int, maxg: int, span: int, C: int) -> bool:
    """Whether some total T in low..low+span of group cards at one number, with one colour already holding
    maxg of them, splits into groups of 3..C distinct colours: 3 * max(ceil(T / C), maxg) <= T."""
    t = max(low, 3 * maxg)
    while t <= low + span:
        if 3 * ((t + C - 1) // C) <= t:
            return True
        t += 1
    return False


@jit
def _transitions(
    a: int,
    b: int,
    f: int,
    h: int,
    code_out: np.ndarray,
    g_out: np.ndarray,
    laid_out: np.ndarray,
    dec_out: np.ndarray,
    lim_out: np.ndarray,
) -> int:
    """The moves of one colour at one number from run slots (a, b), with f table and h hand cards of the kind:
    each slot ends or takes the kind (a real card, else a table or hand joker), g real cards go to groups.
    Per move: the new slot pair code, g, the hand cards it lays, the decision bits and the limit (table run
    jokers | hand jokers << 8) the state must have free. Returns the number of moves (move_table lists
    them)."""
    n = 0
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
                    for ta in range(fa + 1):
                        for tb in range(fb + 1):
                            if a == b and ea == 1 and eb == 1 and fa == fb and ta < tb:
                                continue
                            jn = fa - ta + fb - tb
                            r = ea - fa + eb - fb
                            if r > f + h:
                                continue
                            lo = f - r if f > r else 0
                            hi = min(f + h - r, 3)
                            na = (a + 1 if a < 3 else 3) if ea == 1 else 0
                            nb = (b + 1 if b < 3 else 3) if eb == 1 else 0
                            sw = 0
                            if na < nb:
                                na, nb = nb, na
                                sw = 1
                            for g in range(lo, hi + 1):
                                code_out[n] = na | (nb << 2)
                                g_out[n] = g
                                laid_out[n] = r + g - f
                                dec_out[n] = (
                                    ea
                                    | (fa << 1)
                                    | (eb << 2)
                                    | (fb << 3)
                                    | (g << 4)
                                    | (sw << 6)
                                    | (ta << 7)
                                    | (tb << 8)
                                )
                                lim_out[n] = (ta + tb) | (jn << 8)
                                n += 1
    return n


@jit
def move_table() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every colour layer's moves, listed once per process: for each slot pair code ab and f < MOVE_F table,
    h < MOVE_H hand cards of the kind, _transitions' moves in its order, less those another move of the list
    dominates: the same group cards, hand jokers and table jokers, at least the hand cards laid, and a pair
    of slots that dominates (SLOT_DOMS; both children have one parent, so the dominated one is never better).
    Colour-independent: the search shifts the pair code and table jokers to the colour's bits."""
    mv_n = np.zeros((16, MOVE_F, MOVE_H, 2), np.int64)
    mv_add = np.zeros((16, MOVE_F, MOVE_H, MAX_TRANSITIONS), np.int64)
    mv_hand = np.zeros((16, MOVE_F, MOVE_H, MAX_TRANSITIONS), np.int64)
    mv_dec = np.zeros((16, MOVE_F, MOVE_H, MAX_TRANSITIONS), np.int32)
    mv_lim = np.zeros((16, MOVE_F, MOVE_H, MAX_TRANSITIONS), np.int64)
    codes = np.empty(MAX_TRANSITIONS, np.int64)
    g = np.empty(MAX_TRANSITIONS, np.int64)
    laid = np.empty(MAX_TRANSITIONS, np.int64)
    dec = np.empty(MAX_TRANSITIONS, np.int32)
    lim = np.empty(MAX_TRANSITIONS, np.int64)
    for a in range(4):
        for b in range(a + 1):
            ab = a | (b << 2)
            for f in range(MOVE_F):
                for h in range(MOVE_H):
                    n = _transitions(a, b, f, h, codes, g, laid, dec, lim)
                    k = 0
                    for qq in range(2 * n):  # moves without jokers first: a search without any stops there
                        q = qq % n
                        if (qq < n) == (lim[q] != 0):
                            continue
                        code = codes[q]
                        dominated = False
                        for o in range(n):
                            if o == q or g[o] != g[q] or lim[o] != lim[q] or laid[o] < laid[q]:
                                continue
                            oc = codes[o]
                            if oc == code:
                                dominated = o < q  # the same move twice: keep the first
                            else:
                                for t in range(N_SLOT_DOMS[code]):
                                    if SLOT_DOMS[code, t] == oc:
                                        dominated = True
                            if dominated:
                                break
                        if dominated:
                            continue
                        mv_add[ab, f, h, k] = code | ((lim[q] >> 8) << 32) | (g[q] << 36)
                        mv_hand[ab, f, h, k] = laid[q]
                        mv_dec[ab, f, h, k] = dec[q]
                        mv_lim[ab, f, h, k] = lim[q]
                        k += 1
                        if lim[q] == 0:
                            mv_n[ab, f, h, 1] = k
                    mv_n[ab, f, h, 0] = k
    return mv_n, mv_add, mv_hand, mv_dec, mv_lim


@jit
def solve_counts(
    forced: np.ndarray,
    hand: np.ndarray,
    hand_jokers: int,
    run_jokers: np.ndarray,
    group_jokers: np.ndarray,
    n_colours: int,
    n_numbers: int,
    num_min: int,
    joker_value: int,
    decisions: np.ndarray,
    ws: SolverWorkspace,
) -> int:
    """Best objective (points*256+cards laid from hand), decisions[layer] filled along the optimum; -1/-2.

    Table jokers are forced wildcards of their set's kind (the seed lets sets holding a joker be added to,
    split and taken from): run_jokers[c] of them must end in runs of colour c (at most MAX_FREE_RUN_JOKERS),
    group_jokers[v] in groups of number index v; they earn nothing (they are not laid from the hand).

    ws: workspaces() (any new_workspace as a SolverWorkspace); its htab's index column must be all zero on
    entry and is left so (htab holds [state index + 1, key] per slot: a probe reads one cache line, not the
    layer's keys too).
    """
    return resume_counts(
        forced,
        hand,
        hand_jokers,
        run_jokers,
        group_jokers,
        n_colours,
        n_numbers,
        num_min,
        joker_value,
        decisions,
        ws,
        0,
    )


@jit
def resume_counts(
    forced: np.ndarray,
    hand: np.ndarray,
    hand_jokers: int,
    run_jokers: np.ndarray,
    group_jokers: np.ndarray,
    n_colours: int,
    n_numbers: int,
    num_min: int,
    joker_value: int,
    decisions: np.ndarray,
    ws: SolverWorkspace,
    start: int,
    prune_at: int = PRUNE_AT,
    dead_run_cut: bool = DEAD_RUN_CUT,
) -> int:
    """solve_counts, keeping the workspace's layers for number indexes below `start` - LOOK_AHEAD (0: a fresh
    search).

    The caller guarantees that the workspace holds a completed search of an input equal to this one at every
    number index below `start` (hand_jokers, run_jokers, group_jokers and the other arguments equal too):
    a layer depends only on the layers before it and the input at its own number and the LOOK_AHEAD next
    ones (the dead-run cut), so the result, the decisions and every tie are those of a fresh search.
    prune_at and dead_run_cut are PRUNE_AT and DEAD_RUN_CUT unless a test varies them.

    The steps: per number, its colours in order (_colour_order); per colour, a layer of states from the last
    (_colour_layer: the moves, each new state through _offer, the number's last colour closing its groups in
    _close_groups), at a number boundary less the dominated states (_prune_dominated); at the end the best
    complete state (_best_boundary) and the decisions that lead to it (_trace_back).
    """
    return _search(
        forced,
        hand,
        hand_jokers,
        run_jokers,
        group_jokers,
        n_colours,
        n_numbers,
        num_min,
        joker_value,
        decisions,
        ws,
        start,
        prune_at,
        dead_run_cut,
        np.empty(n_colours, np.int64),
        np.empty(n_colours, np.int64),
        np.empty(16, np.int64),
    )


@jit_noref
def _search(
    forced: np.ndarray,
    hand: np.ndarray,
    hand_jokers: int,
    run_jokers: np.ndarray,
    group_jokers: np.ndarray,
    C: int,
    N: int,
    num_min: int,
    joker_value: int,
    decisions: np.ndarray,
    ws: SolverWorkspace,
    start: int,
    prune_at: int,
    dead_run_cut: bool,
    order: np.ndarray,
    present: np.ndarray,
    short: np.ndarray,
) -> int:
    """resume_counts' search, its steps inlined (_prune_dominated aside, once a number) and nothing allocated,
    so it compiles without reference counting: a search takes tens of microseconds, and a call per layer
    (+8%) or counted references per state (5x, the steps inlined into resume_counts) showed. order, present,
    short: scratch arrays of C, C and 16 entries."""
    keys, score, parent, dec, htab, hpos, count = (
        ws.keys,
        ws.score,
        ws.parent,
        ws.dec,
        ws.htab,
        ws.hpos,
        ws.counts,
    )
    start = max(start - LOOK_AHEAD, 0)  # the layers below read the input up to LOOK_AHEAD numbers on
    if start == 0:
        keys[0, 0] = 0
        score[0, 0] = 0
        parent[0, 0] = -1
        dec[0, 0] = 0
        count[0] = 1
    L = start * C
    for v in range(start, N):
        num = num_min + v
        jv = joker_value if joker_value >= 0 else num
        _colour_order(forced, hand, v, C, N, order)
        for pos in range(C):
            c = order[pos]
            last = pos == C - 1  # the last colour's layer also closes the number's groups
            room = _group_room(forced, hand, order, pos, v, C, N)
            _run_shortfall(forced, hand, c, v, N, short)
            hmask = _colour_layer(
                ws,
                L,
                c,
                v,
                last,
                forced,
                hand,
                hand_jokers,
                run_jokers[c],
                group_jokers[v],
                room,
                short,
                num * 256 + 1,
                jv * 256 + 1,
                C,
                N,
                dead_run_cut,
            )
            if hmask < 0:
                return GIVE_UP
            L += 1
            if last and count[L] > prune_at:
                _prune_dominated(L, count[L], 0, C, keys, score, dec, htab, hmask, present)
            for n in range(count[L]):
                htab[hpos[n], 0] = 0
    bi = _best_boundary(ws, L, run_jokers, C)
    if bi < 0:
        return INFEASIBLE
    _trace_back(ws, L, bi, decisions)
    return int(score[L, bi])


@jit_inline
def _colour_order(forced: np.ndarray, hand: np.ndarray, v: int, C: int, N: int, order: np.ndarray) -> None:
    """Number step: order = the colours, fewest cards of number index v (table + hand) first, ties by colour.

    Fewer cards, fewer moves: the layers before the number's last grow less. The order depends on this
    number's input only (resume_counts stays exact)."""
    for pos in range(C):
        order[pos] = pos
    for pos in range(1, C):
        q = pos
        while q > 0 and (
            forced[order[q - 1] * N + v] + hand[order[q - 1] * N + v]
            > forced[order[q] * N + v] + hand[order[q] * N + v]
        ):
            order[q - 1], order[q] = order[q], order[q - 1]
            q -= 1


@jit_inline
def _group_room(
    forced: np.ndarray, hand: np.ndarray, order: np.ndarray, pos: int, v: int, C: int, N: int
) -> int:
    """Colour step: at most how many more cards can join number index v's groups from the colours after
    order[pos] (hand jokers aside): each colour's cards of the number, at most 3 (a copy per group)."""
    room = 0
    for p2 in range(pos + 1, C):
        room += min(forced[order[p2] * N + v] + hand[order[p2] * N + v], 3)
    return room


@jit_inline
def _run_shortfall(forced: np.ndarray, hand: np.ndarray, c: int, v: int, N: int, short: np.ndarray) -> None:
    """Colour step (the dead-run cut): short[ab] = the jokers that colour c's runs of 1 or 2 in slot pair code
    ab need at least to reach 3, for the places v + 1 and v + 2 with too few cards (table or hand)."""
    have1 = forced[c * N + v + 1] + hand[c * N + v + 1] if v + 1 < N else 0
    have2 = forced[c * N + v + 2] + hand[c * N + v + 2] if v + 2 < N else 0
    for ab in range(16):
        sa = ab & 3
        sb = ab >> 2
        need1 = (1 if sa == 1 or sa == 2 else 0) + (1 if sb == 1 or sb == 2 else 0)
        need2 = (1 if sa == 1 else 0) + (1 if sb == 1 else 0)
        short[ab] = max(need1 - have1, 0) + max(need2 - have2, 0)


@jit_inline
def _colour_layer(
    ws: SolverWorkspace,
    L: int,
    c: int,
    v: int,
    last: bool,
    forced: np.ndarray,
    hand: np.ndarray,
    hand_jokers: int,
    run_jokers_c: int,
    gjv: int,
    room: int,
    short: np.ndarray,
    unit: int,
    junit: int,
    C: int,
    N: int,
    dead_run_cut: bool,
) -> int:
    """Colour step: layer L + 1 from layer L's live states by colour c's moves at number index v (each run
    slot ends or takes the kind, the other cards go to the number's groups; the number's last colour also
    closes them, _close_groups). Returns the layer's hash mask, or -1 past the workspace's row (give up).

    unit / junit: a laid card's / hand joker's objective; gjv the number's table group jokers; room and
    short: _group_room's and _run_shortfall's."""
    keys, score, dec, count = ws.keys, ws.score, ws.dec, ws.counts
    mv_n, mv_add, mv_hand, mv_dec, mv_lim = ws.mv_n, ws.mv_add, ws.mv_hand, ws.mv_dec, ws.mv_lim
    full_mask = ws.htab.shape[0] - 1
    count[L + 1] = 0
    # the layer's hash table starts near the size the last layer needed and doubles past half full:
    # a small search probes a few cache-resident slots, not a table sized for CAP
    hmask = 255
    while hmask < full_mask and hmask + 1 < 2 * count[L]:
        hmask = 2 * hmask + 1
    fi = forced[c * N + v]
    hi = min(hand[c * N + v], MOVE_H - 1)
    tsh = TJ_SHIFT + 2 * c
    # more table cards of the kind than runs and groups can take: no move, the layer stays empty
    for si in range(count[L] if fi < MOVE_F else 0):
        if dec[L, si] < 0:
            continue  # dominated (see _prune_dominated)
        key = keys[L, si]
        sc = score[L, si]
        sumg = (key >> 36) & 0x3F
        maxg = (key >> 42) & 0x7
        jr = hand_jokers - ((key >> 32) & 0xF)
        tfree = run_jokers_c - ((key >> tsh) & 3)
        ab = (key >> (4 * c)) & 15  # (a, b) of this colour
        base = key & ~(15 << (4 * c)) & ~(7 << 42)
        if last:
            base &= ~(0x3F << 36)  # the boundary key holds no group counts
        n_moves = mv_n[ab, fi, hi, 0] if tfree > 0 or jr > 0 else mv_n[ab, fi, hi, 1]
        for q in range(n_moves):
            lim = mv_lim[ab, fi, hi, q]
            jn = lim >> 8
            if (lim & 255) > tfree or jn > jr:
                continue
            a0 = mv_add[ab, fi, hi, q]
            if dead_run_cut and short[a0 & 15] > tfree - (lim & 255) + jr - jn:
                continue  # a run of 1 or 2 that cannot reach 3: a dead end
            g = (a0 >> 36) & 0x3F
            mg = max(maxg, g)
            val = sc + mv_hand[ab, fi, hi, q] * unit + jn * junit
            d = mv_dec[ab, fi, hi, q] | (c << DEC_COLOUR)
            nkey = base + ((a0 & 15) << (4 * c)) + ((lim & 255) << tsh)
            if last:
                nkey += ((a0 >> 32) & 0xF) << 32  # the hand jokers the move's runs use
                hmask = _close_groups(
                    ws, L + 1, si, nkey, val, d, sumg + g, mg, gjv, jr - jn, junit, C, hmask
                )
            elif sumg + g + gjv > 0 and not _groups_possible(sumg + g + gjv, mg, room + jr - jn, C):
                continue  # number v's groups can no longer be completed: a dead end
            else:
                hmask = _offer(ws, L + 1, (nkey + (a0 & ~15)) | (mg << 42), val, si, d, hmask)
            if hmask < 0:
                return -1
    return hmask


@jit_inline
def _close_groups(
    ws: SolverWorkspace,
    nxt: int,
    si: int,
    nkey: int,
    val: int,
    d: int,
    real: int,
    maxg: int,
    gjv: int,
    spare: int,
    junit: int,
    C: int,
    hmask: int,
) -> int:
    """Last-colour step: one move's boundary states of layer nxt, one per count jh <= spare of hand jokers
    joining the number's groups with its gjv table group jokers, where they close (_groups_close). Returns
    the hash mask, or -1 (give up)."""
    for jh in range(spare + 1):
        jg = jh + gjv
        if _groups_close(real, jg, maxg, C):
            hmask = _offer(
                ws, nxt, nkey + (jh << 32), val + jh * junit, si, d | (jg << DEC_GROUP_JOKERS), hmask
            )
            if hmask < 0:
                return -1
    return hmask


@jit_inline
def _groups_close(real: int, jokers: int, maxg: int, C: int) -> bool:
    """Rule step: a number's `real` group cards (at most maxg of one colour) and `jokers` group jokers make
    groups of 3..C distinct colours, each holding a real card (the rules refuse a meld of jokers only), or
    are none: m = max(ceil(T / C), maxg) groups of the T cards, 3 * m <= T, m <= real."""
    total = real + jokers
    if total == 0:
        return True
    m = (total + C - 1) // C
    if maxg > m:
        m = maxg
    return 3 * m <= total and m <= real


@jit_inline
def _offer(ws: SolverWorkspace, nxt: int, nkey: int, val: int, si: int, d: int, hmask: int) -> int:
    """State step: layer nxt reaches key nkey from state si by decision d with value val: a new state, or the
    state of that key keeps the higher value (the first on a tie). Returns the hash mask (doubled past half
    full), or -1 when the layer is full (give up; its hash slots are cleared)."""
    keys, htab, hpos, count = ws.keys, ws.htab, ws.hpos, ws.counts
    hh = _hash(nkey) & hmask
    while True:
        idx = htab[hh, 0]
        if idx == 0:
            n = count[nxt]
            if n >= keys.shape[1]:
                for q in range(n):
                    htab[hpos[q], 0] = 0
                return -1
            keys[nxt, n] = nkey
            ws.score[nxt, n] = val
            ws.parent[nxt, n] = si
            ws.dec[nxt, n] = d
            htab[hh, 0] = n + 1
            htab[hh, 1] = nkey
            hpos[n] = hh
            count[nxt] = n + 1
            if 2 * (n + 1) > hmask and hmask < htab.shape[0] - 1:
                return _grow(keys, nxt, n + 1, htab, hpos, hmask)
            return hmask
        if htab[hh, 1] == nkey:
            if val > ws.score[nxt, idx - 1]:
                ws.score[nxt, idx - 1] = val
                ws.parent[nxt, idx - 1] = si
                ws.dec[nxt, idx - 1] = d
            return hmask
        hh = (hh + 1) & hmask


@jit_inline
def _best_boundary(ws: SolverWorkspace, L: int, run_jokers: np.ndarray, C: int) -> int:
    """Final step: the best live state of the last layer L that is a valid table (no run slot of 1 or 2 open,
    every table run joker placed), the first on a tie; -1 when there is none."""
    target = 0
    for c in range(C):
        target |= run_jokers[c] << (TJ_SHIFT + 2 * c)
    best = -1
    bi = -1
    for si in range(ws.counts[L]):
        if ws.dec[L, si] < 0:
            continue
        key = ws.keys[L, si]
        ok = (key & TJ_MASK) == target
        for c in range(C):
            a = (key >> (4 * c)) & 3
            b = (key >> (4 * c + 2)) & 3
            if a == 1 or a == 2 or b == 1 or b == 2:
                ok = False
                break
        if ok and ws.score[L, si] > best:
            best = ws.score[L, si]
            bi = si
    return bi


@jit
def solve_exact(
    forced: np.ndarray,
    hand: np.ndarray,
    hand_jokers: int,
    run_jokers: np.ndarray,
    group_jokers: np.ndarray,
    n_colours: int,
    n_numbers: int,
    num_min: int,
    joker_value: int,
    decisions: np.ndarray,
    ws: SolverWorkspace,
) -> int:
    """A fresh solve_counts in the CAP workspace (-2 only past CAP states in a layer)."""
    return resume_counts(
        forced,
        hand,
        hand_jokers,
        run_jokers,
        group_jokers,
        n_colours,
        n_numbers,
        num_min,
        joker_value,
        decisions,
        ws,
        0,
    )


@jit
def _card_gain(kind: int, n_numbers: int, num_min: int) -> int:
    return (num_min + kind % n_numbers) * 256 + 1
