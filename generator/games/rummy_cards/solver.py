"""The exact meld finder: a dynamic programme over numbers x colours that lays the most points (then cards).

Cards are counted by kind (colour * n_numbers + number index). Table cards are `forced` (every one must be on
the table again at the end), hand cards are optional; hand jokers are wildcards; table jokers are forced
wildcards of their set's kind (a run joker ends in a run of its colour, a group joker in a group of its
number, see rules.py; counted per colour in the state key, per number where the number's groups close). Per
colour the state holds two run slots with lengths 0, 1, 2 or 3+ (two copies -> at most two parallel runs);
cards not in runs go to groups of their number, which exist iff 3m <= total <= colours*m for some m >= the
largest per-colour count, each group holding a number card. A run of 6+ is two runs of 3+, so slots never
need longer memory. Exact on these rules (tests/games/rummy_cards/test_solver_oracle.py checks it against a
brute force), with one gap: with 3+ jokers able to reach one colour's runs (a deck of more than the seed's
2 jokers) a run of jokers only is not refused.

A number is C colour layers; the last one also closes the number's groups, so its states (the number
boundary) hold only run slots, hand jokers used and table run jokers placed. Size (issue 16):
- at every boundary, states that another state dominates with at least the score are dropped
  (`_prune_dominated`): fewer hand jokers used, or one colour's run slots higher in the order 3+ > 2 > 1,
  3+ > 0 (SLOT_DOMS: every continuation of the lower slot stays open from the higher one, with the same
  cards). 80-97% of the boundary states of a big table were dominated so; the pass only looks up pair codes
  some state of the layer holds;
- a colour layer refuses a state whose number can no longer close its groups with the colours still to come
  (`_groups_possible`), and one whose new run of 1 or 2 cannot reach 3: too few cards of its colour at the
  next two numbers (table or hand) and too few jokers left for the gaps (the dead-run cut; half of all
  states before it, 1.7-1.8x on recorded self-play turns). Refusing a state that has no completion changes
  nothing: neither has any state of its key, nor any state it would have dominated, and the states that have
  one come only from such states, the same ones in the same order, so the optimum, its path and every tie
  are the same (test_speed_paths runs the search with the cut on and off; the brute force agrees; tallies
  were identical to before on 29 rule and deck variants). The cut reads LOOK_AHEAD numbers past its layer,
  so resume_counts redoes the LOOK_AHEAD layers below `start`;
- each colour layer reads its moves from a table built once per process (`move_table`), less the moves a
  sibling move dominates, moves without jokers first; colours with fewer cards of the number go first.
Which states are dropped decides ties between equally good plays (a dominated state of equal score goes), so
this is policy: the meld finder lays the same points and cards, the table may be arranged otherwise.
Every search runs in one CAP workspace; only a search past CAP returns -2 (give up: the player draws). None
in the bench's or the check's rounds since the boundary pass (3 in 932 recorded 4-player turns before).

The workspace keeps every layer and its state count, so a search whose input differs from the previous one
only from number index `start` on resumes there (`resume_counts`: the joker retrieval's candidate
searches). `solve_turn` is the meld finder's whole turn, joker retrieval included.

The objective is points * 256 + cards, with a laid joker worth `joker_value` points (or, when negative, the
number it stands for: the initial-meld count). `decode` turns the optimal decisions into melds."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from generator.engine.kernel import jit, jit_inline, jit_noref

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


_MOVES: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []


def workspaces(n_colours: int, n_numbers: int) -> SolverWorkspace:
    """The CAP workspace with the move table (built once per process: 2 ms, and searches only read it)."""
    if not _MOVES:
        _MOVES.append(move_table())
    return SolverWorkspace(*new_workspace(n_colours, n_numbers, CAP), *_MOVES[0])


OUT_BEST = 0
"""solve_turn's out[OUT_BEST]: the objective (points * 256 + cards; <= 0 nothing)."""
OUT_MELDS = 1
"""out[OUT_MELDS]: the melds written to the layout."""
OUT_RETRIEVED = 2
"""out[OUT_RETRIEVED]: the retrieved table joker (the kind it stood for, + n_kinds for a group joker) or -1."""
OUT_GIVEUPS = 3
"""out[OUT_GIVEUPS]: searches that gave up (past CAP)."""
OUT_EXACT = 4
"""out[OUT_EXACT]: 1 when the table search (not the retrieval's) was exact (it did not give up, or was known)."""
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


DEC_COLOUR = 12  # a colour layer's decision holds its colour from this bit (colours are ordered per number)
DEC_GROUP_JOKERS = 16  # the last colour layer's decision holds the number's group jokers from this bit
MAX_TRANSITIONS = 64  # moves of one colour layer from one (a, b): at most 36 + 2 * 12 + 4


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
    jokers | hand jokers << 8) the state must have free. Returns the number of moves (move_table lists them)."""
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


MOVE_F = 6  # table cards of one kind the move table covers: two run slots and at most 3 group cards take 5
MOVE_H = 6  # hand cards of one kind the move table covers (a 6th could only stay in the hand)


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

    ws: workspaces() (any new_workspace as a SolverWorkspace); its htab's index column must be all zero on entry and is left so
    (htab holds [state index + 1, key] per slot: a probe reads one cache line, not the layer's keys too).
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


@jit
def is_joker_entry(ent: int) -> bool:
    """A layout entry that is a joker (from the table, the hand, or retrieved)."""
    src = ent & 7
    return src == SRC_TABLE_JOKER or src == SRC_HAND_JOKER or src == SRC_FREED_JOKER


@jit
def joker_locks(
    layout: np.ndarray,
    n_melds: int,
    n_colours: int,
    n_numbers: int,
    run_locks: np.ndarray,
    group_locks: np.ndarray,
) -> None:
    """Add to run_locks[kind] / group_locks[kind] the kind each run / group joker on the laid-out table stands
    for (runs: its place; groups: the lowest colour missing among the group's real cards)."""
    N = n_numbers
    for mi in range(n_melds):
        length = layout[mi, 1]
        for j in range(length):
            ent = layout[mi, 2 + j]
            if not is_joker_entry(ent):
                continue
            k = ent >> 3
            if layout[mi, 0] == RUN:
                run_locks[k] += 1
            else:
                v = k % N
                miss = 0
                for cc in range(n_colours):
                    present = False
                    for jj in range(length):
                        e2 = layout[mi, 2 + jj]
                        if not is_joker_entry(e2) and (e2 >> 3) // N == cc:
                            present = True
                    if not present:
                        miss = cc
                        break
                group_locks[miss * N + v] += 1


@jit
def table_cards(
    layout: np.ndarray,
    n_melds: int,
    n_colours: int,
    n_numbers: int,
    real: np.ndarray,
    run_locks: np.ndarray,
    group_locks: np.ndarray,
) -> None:
    """Recount a whole laid-out table: real cards per kind, run and group jokers per kind they stand for
    (arrays overwritten)."""
    for k in range(real.shape[0]):
        real[k] = 0
        run_locks[k] = 0
        group_locks[k] = 0
    for mi in range(n_melds):
        for j in range(layout[mi, 1]):
            ent = layout[mi, 2 + j]
            if not is_joker_entry(ent):
                real[ent >> 3] += 1
    joker_locks(layout, n_melds, n_colours, n_numbers, run_locks, group_locks)


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
def opening_points_bound(
    hand: np.ndarray, hand_jokers: int, n_colours: int, n_numbers: int, num_min: int
) -> int:
    """An upper bound on the opening search's points (solve_turn with opening True: new melds of hand cards
    only, a joker counted as the number it stands for), without a search: every hand card that some meld of
    hand cards could hold, at face value (both copies), plus each hand joker at the highest number.

    A card of kind (c, v) in a run sits in a window of 3 consecutive places of colour c whose other places are
    hand cards or jokers; in a group, 3+ distinct colours at number v are the hand's cards or jokers. A card
    passing neither test is in no meld, so the bound never falls below the optimum (tests: test_speed_paths).
    """
    C = n_colours
    N = n_numbers
    total = hand_jokers * (num_min + N - 1)
    for v in range(N):
        colours = 0
        for c in range(C):
            if hand[c * N + v] > 0:
                colours += 1
        for c in range(C):
            k = c * N + v
            if hand[k] == 0:
                continue
            ok = colours + hand_jokers >= 3
            s = v - 2 if v >= 2 else 0
            while not ok and s <= v and s + 2 < N:
                gaps = 0
                for w in range(s, s + 3):
                    if hand[c * N + w] == 0:
                        gaps += 1
                ok = gaps <= hand_jokers
                s += 1
            if ok:
                total += hand[k] * (num_min + v)
    return total


@jit
def _card_gain(kind: int, n_numbers: int, num_min: int) -> int:
    return (num_min + kind % n_numbers) * 256 + 1


@jit
def solve_turn(
    t_real: np.ndarray,
    t_jrun: np.ndarray,
    t_jgrp: np.ndarray,
    hand: np.ndarray,
    hand_jokers: int,
    opening: bool,
    retrieval: bool,
    known_nothing: bool,
    n_colours: int,
    n_numbers: int,
    num_min: int,
    joker_penalty: int,
    layout: np.ndarray,
    out: np.ndarray,
    ws: SolverWorkspace,
) -> None:
    """The meld finder's whole turn: out[OUT_BEST] objective, [OUT_MELDS] melds in layout, [OUT_RETRIEVED]
    retrieved joker (the kind it stood for, + n_kinds for a group joker) or -1, [OUT_GIVEUPS] give-ups; ws the
    search's arrays (workspaces); layout = the new melds (opening) or the whole new table (opened). Objective <= 0: nothing. t_jrun / t_jgrp: the table's run / group jokers by the kind they stand
    for (table_cards); each stays in a set of its kind (run colour / group number) unless retrieved.

    Opening: new melds from the hand only, the most initial-meld points (a joker counts as its card).
    Opened: the whole table rearranged with the hand, the most penalty points laid (joker = joker_penalty),
    then the most cards; also (retrieval True) every joker retrieval (see _best_retrieval), taken when strictly
    better.

    known_nothing (opened only): the caller knows the table search lays nothing, so it is skipped (the
    retrieval still runs); the result is a full search's, a give-up aside. The kernel's meld finders know it
    (sim.play_round) when their last turn's exact table search laid its optimum P without retrieval and
    nobody laid since: a lay Q of the table T + P with the hand H - P would make P + Q a lay of (T, H) worth
    more than P (Q lays a card, and every arrangement of T + P with Q is one of T with P + Q); or when it laid
    nothing and no card was drawn (the same search again). The reference (policies.MeldFinder) searches.
    out[OUT_EXACT]: 1 when the table search was exact (no give-up; a known one counts as exact).
    """
    C = n_colours
    N = n_numbers
    K = C * N
    decisions = np.zeros(N * C, np.int64)
    zeros = np.zeros(K, np.int64)
    zn = np.zeros(N, np.int64)
    out[OUT_RETRIEVED] = -1
    out[OUT_GIVEUPS] = 0
    if opening:
        best = solve_exact(
            zeros, hand, hand_jokers, np.zeros(C, np.int64), zn, C, N, num_min, -1, decisions, ws
        )
        out[OUT_EXACT] = 1
        if best == GIVE_UP:
            out[OUT_GIVEUPS] += 1
            out[OUT_EXACT] = 0
        out[OUT_BEST] = best
        out[OUT_MELDS] = 0
        if best > 0 and (best & 255) > 0:
            out[OUT_MELDS] = decode(decisions, zeros, zeros, zn, C, N, layout)
        return
    rj = np.zeros(C, np.int64)
    gj = np.zeros(N, np.int64)
    t_lock = np.zeros(K, np.int64)
    for k in range(K):
        rj[k // N] += t_jrun[k]
        gj[k % N] += t_jgrp[k]
    for c in range(C):
        if rj[c] > MAX_FREE_RUN_JOKERS:  # beyond the key's counter: these keep their kinds
            for v in range(N):
                t_lock[c * N + v] = t_jrun[c * N + v]
            rj[c] = 0
    forced = t_real + t_lock
    if known_nothing:
        best = 0
    else:
        best = solve_exact(forced, hand, hand_jokers, rj, gj, C, N, num_min, joker_penalty, decisions, ws)
    out[OUT_EXACT] = 1
    if best == GIVE_UP:
        out[OUT_GIVEUPS] += 1
        out[OUT_EXACT] = 0
    if best > 0 and (best & 255) > 0:
        out[OUT_MELDS] = decode(decisions, t_real, t_lock, gj, C, N, layout)
    else:
        best = 0
        out[OUT_MELDS] = 0
    out[OUT_BEST] = best
    if not retrieval:
        return
    _best_retrieval(
        t_real,
        t_jrun,
        t_jgrp,
        t_lock,
        rj,
        gj,
        forced,
        hand,
        hand_jokers,
        C,
        N,
        num_min,
        joker_penalty,
        layout,
        out,
        decisions,
        ws,
    )


MAX_CANDIDATES = 2048  # candidate melds for the freed joker per retrieved kind (a 4 x 13 deck has fewer)
CAND_TYP, CAND_A, CAND_B, CAND_E, CAND_J, CAND_GAIN = range(6)
"""Columns of a candidate meld row: RUN (colour, first place, last place, the joker's place) or GROUP (number
index, mask of the hand's colours, -, -), then the objective its hand cards add."""
CAND_F = 6


@jit
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
    joker standing for kind k is replaced by a hand card of kind k (the replacement then sits wherever the table
    search puts it, as a forced card); the freed joker goes into a new meld of itself and 2+ other hand cards
    (no card of kind k, no hand joker, no table card: the seed's new set); the rest of the hand and the table
    (the other table jokers in sets of their kinds) are rearranged by the exact search.

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


@jit
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
