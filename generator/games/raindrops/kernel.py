"""The fast path: whole Raindrops games, greedy and random seats, in one compiled call per chunk.

The reference is `rules.Raindrops` played by `policies.GreedyPolicy` and `policies.RandomPolicy`
(`sim.FullGames`); this module plays the very same games, choice for choice and draw for draw, over plain
numpy arrays, so it compiles with numba (`generator.engine.kernel.jit`) and runs as Python with PNPKIT_PURE=1
or through `py_func`.

Same games, not merely similar ones: the kernel keeps its own stream, MT19937 seeded by `init_by_array` from
each game's 64-bit seed, and draws from it what numpy's `Generator` draws (`random()`, `integers(n)`,
`shuffle`); `game_rng(lo, hi)` hands the reference rules and policies a numpy Generator over the very same
stream. tests/games/raindrops/test_kernel.py proves the tallies identical to `FullGames` on its Python and its
reference path under every house-rule setting.

What the greedy policy decides here, in the reference's order (see policies.GreedyPolicy.choose):
set-up keeps the cards of highest points per drop; the special action and path come from `best_drop` (the
same compiled search); the thunder token of highest value is kept; a short bonus offer is always refilled
(so `bonus_refill` cannot change a greedy seat's game); the bonus tile of highest points + half the open
drops of its colours is taken; placements follow `_best_placement_reference` (first strict maximum in
`placements` order); the display card of highest points per drop (else the deck top) is taken; the reserve
keeps the tiles that fit a held card best. A random seat makes RandomPolicy's draws: one uniform pick among
the legal actions of a single-kind phase; the special action, drop path and placement
by the counts of RandomPolicy's fast mode (`rand_special`, `_paths`, `_rand_placement`). The special action
(which ones a window allows, what each does) is policies.special_at / do_special, shared with the policies.

Layout: columns as in `best_drop` (col_tiles/col_flip[column, stack index from the bottom], col_len); a card's
cells are bits in `card_cells` order; colours are `game.bit` bits; scalars live in `sc` (indices S_*).
Boundary: `play_games` takes the static arrays as one `Setup` NamedTuple and adds to one `Tallies`; each game
is a sequence of named steps over one `Workspace` (see "the game" below).

The kernel's modules: `kernel_rng` (the MT19937 stream), `kernel_tables` (Setup, Tallies, Workspace and the
slots of their arrays), `kernel_drop` (special action, window refill, drop, thunder, bonus tiles),
`kernel_place` (placements, cards completed and taken, cloud tokens), `kernel_choice` (the seats' choices);
this one plays the games and scores them.
"""

from __future__ import annotations

import numpy as np

from generator.engine.kernel import jit, jit_merged, jit_noref, jit_noref_entry, py_func
from generator.games.raindrops.kernel_drop import _refill_window, drop_step
from generator.games.raindrops.kernel_place import _hold, cloud_tokens, end_placement, placements
from generator.games.raindrops.kernel_rng import MT_N, mt_below, mt_seed, mt_shuffle
from generator.games.raindrops.kernel_tables import (
    ACT_OVER_B,
    MODE_GAP,
    MODE_GREEDY,
    N_SC,
    PART_BONUS,
    PART_CARDS,
    PART_CLOUDS,
    PART_INCOMPLETE,
    PART_THUNDER,
    R_CAP,
    R_COLUMNS,
    R_DEALT,
    R_DISPLAY,
    R_DROP_REFILL,
    R_FINAL_CLOUDS,
    R_FINAL_FRESH_USABLE,
    R_KEPT,
    R_MAXCELLS,
    R_NCOLOURS,
    R_OFFER,
    S_BAGN,
    S_BSH,
    S_CUR,
    S_DECKH,
    S_DISPN,
    S_FINAL,
    S_OFFN,
    S_THN,
    S_TRIGGER,
    S_TURN,
    TRIGGER_NONE,
    Setup,
    Tallies,
    Workspace,
)
from generator.games.raindrops.policies import (
    DROP_PATH,
)
from generator.games.raindrops.state import MARKER_START


# ------------------------------------------------------------------------------------ the game
# `play_games` plays each game as named steps: `new_state`, `deal`, then `play_turns` (per turn `drop_step`,
# `placements`, `end_placement`, `cloud_tokens`, `end_turn`) and `score_game`. Each step reads Setup and
# writes the Workspace; each is compiled on its own without reference counting (`jit_noref`), so passing the
# Workspace costs nothing. Inlining them at numba's level (`jit_inline`) ran 10-14 % faster but took 146 CPU s
# to compile against 50, and every source edit recompiles: compile time is paid by every developer and every
# CI run. Only the two levels above the steps, `play_game` and `play_turns`, are merged (`jit_merged`) into
# `play_chunk`: small bodies, and each compiled level links and optimises the steps' machine code again.
def workspace(players: int, setup: Setup) -> Workspace:
    """The Workspace of games of `players` seats with this setup. Python, not compiled: numpy makes the same
    arrays (C-contiguous, writable, so the same numba types) once per chunk, and compiling it took 2 CPU-s
    (56 allocations and the boxing of their NamedTuple) of every first check."""
    rules = setup.rules
    i64 = np.int64
    P = players
    C = rules[R_COLUMNS]
    cap = rules[R_CAP]
    rows = 2 * cap
    ncol = rules[R_NCOLOURS]
    NT = setup.tile_ids.shape[0]
    NB = max(setup.bonus_ids.shape[0], 1)
    NTH = max(setup.thunder_ids.shape[0], 1)
    NC = setup.card_ids.shape[0]
    T = setup.cstack.shape[0]
    H = max(rules[R_DEALT], rules[R_KEPT]) + 2
    return Workspace(
        np.zeros(N_SC, dtype=i64),
        np.zeros(NT, dtype=i64),
        np.zeros((P, NT), dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros((P, setup.bpts.shape[0]), dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros((P, H), dtype=i64),
        np.zeros((P, H), dtype=i64),
        np.zeros((P, H), dtype=i64),
        np.zeros(NT, dtype=i64),
        np.zeros(NB, dtype=i64),
        np.zeros(ncol, dtype=i64),
        np.zeros((ncol, ncol), dtype=i64),
        np.zeros(ACT_OVER_B + 1, dtype=i64),
        np.zeros(NT + 1, dtype=i64),
        # bag, discard, window, bonus stack and offer, thunder ring, cloud heads, deck, display
        np.zeros(NT, dtype=i64),
        np.zeros(NT, dtype=i64),
        np.zeros((C, cap), dtype=i64),
        np.zeros((C, cap), dtype=i64),
        np.zeros(C, dtype=i64),
        np.zeros(NB, dtype=i64),
        np.zeros(NB, dtype=i64),
        np.zeros(NTH, dtype=i64),
        np.zeros(T, dtype=i64),
        np.zeros(NC, dtype=i64),
        np.zeros(NC + P, dtype=i64),
        # greedy, marker, turns, used_bon, hsince, hnt, hnb, htiles, comp_n, comp, comp_after, have, points
        np.zeros(P, dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros((P, H), dtype=i64),
        np.zeros((P, H), dtype=i64),
        np.zeros((P, H), dtype=i64),
        np.zeros((P, H, rules[R_MAXCELLS]), dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros((P, NC), dtype=i64),
        np.zeros((P, NC), dtype=i64),
        np.zeros((P, T), dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros(P, dtype=i64),
        # scratch
        np.zeros(setup.cond.shape[1], dtype=i64),
        np.zeros(setup.ma.shape[0], dtype=np.float64),
        np.zeros(setup.thunder_draw.shape[0] + 1, dtype=np.float64),
        np.zeros(DROP_PATH + rows, dtype=i64),
        np.zeros(64, dtype=i64),
        np.zeros(NTH, dtype=i64),
        np.zeros((C, cap), dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros(P, dtype=i64),
        np.zeros((rows, C), dtype=i64),
        np.zeros((rows, C), dtype=i64),
        np.zeros((5, rows), dtype=i64),
        np.zeros(rows, dtype=np.float64),
    )


def play_games(
    lo: np.ndarray,
    hi: np.ndarray,
    players: int,
    turn_limit: int,
    mode: int,
    setup: Setup,
    tally: Tallies,
    *,
    pure: bool = False,
) -> None:
    """Play game g from `game_rng(lo[g], hi[g])` for every g, seats by `mode` (MODES), and add it to
    `tally`: a Workspace (`workspace`) and an MT19937 array made here, then `play_chunk` (its Python function
    when `pure`)."""
    ws = workspace(players, setup)
    mt = np.zeros(MT_N + 1, dtype=np.int64)
    fn = py_func(play_chunk) if pure else play_chunk
    fn(mt, lo, hi, mode, turn_limit, setup, ws, tally)


@jit_noref_entry  # called from Python, once per chunk
def play_chunk(
    mt: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    mode: int,
    turn_limit: int,
    setup: Setup,
    ws: Workspace,
    tally: Tallies,
) -> None:
    """`play_game` for every g in the chunk. Compiled without reference counting, as are the steps it calls:
    it allocates nothing (`play_games` makes the Workspace), and `play_game` and `play_turns` are merged into
    it (`jit_merged`), so the steps' machine code is linked and optimised once, here, not again at each level
    of play_games > play_game > play_turns (two thirds of the final compile)."""
    for g in range(lo.shape[0]):
        play_game(mt, lo[g], hi[g], g, mode, turn_limit, setup, ws, tally)


@jit_merged  # into play_chunk; a call from Python (the pure path's play_chunk) compiles it on its own
def play_game(
    mt: np.ndarray,
    lo: int,
    hi: int,
    g: int,
    mode: int,
    turn_limit: int,
    setup: Setup,
    ws: Workspace,
    tally: Tallies,
) -> None:
    """Game g: its seats by `mode`, `new_state`, `deal`, `play_turns`, `score_game`."""
    P = ws.greedy.shape[0]
    gseat = g % P if mode == MODE_GAP else -1
    for p in range(P):
        ws.greedy[p] = 1 if (mode == MODE_GREEDY or p == gseat) else 0
    new_state(mt, lo, hi, setup, ws)
    deal(mt, setup, ws)
    over = play_turns(mt, turn_limit, g, setup, ws, tally)
    score_game(g, gseat, over, setup, ws, tally)


@jit_noref
def new_state(mt: np.ndarray, lo: int, hi: int, setup: Setup, ws: Workspace) -> None:
    """`Raindrops.new_state` before the deal: the game's stream seeded, the bag, bonus stack, thunder stack
    and deck shuffled in that order, every board emptied, the window filled, the bonus offer revealed."""
    sc = ws.sc
    NT = setup.tile_ids.shape[0]
    NB = setup.bonus_ids.shape[0]
    NTH = setup.thunder_ids.shape[0]
    NC = setup.card_ids.shape[0]
    mt_seed(mt, lo, hi)
    sc[:] = 0
    for i in range(NT):
        ws.bag[i] = setup.tile_ids[i]
    mt_shuffle(mt, ws.bag, NT)
    sc[S_BAGN] = NT
    for i in range(NB):
        ws.bstack[i] = setup.bonus_ids[i]
    mt_shuffle(mt, ws.bstack, NB)
    for i in range(NTH):
        ws.ring[i] = setup.thunder_ids[i]
    mt_shuffle(mt, ws.ring, NTH)
    sc[S_THN] = NTH
    ws.chead[:] = 0
    for i in range(NC):
        ws.deck[i] = setup.card_ids[i]
    mt_shuffle(mt, ws.deck, NC)
    ws.col_len[:] = 0
    ws.res_n[:] = 0
    ws.bres[:, :] = 0
    ws.used_bon[:] = 0
    ws.held_n[:] = 0
    ws.comp_n[:] = 0
    ws.have[:, :] = 0
    ws.cloud_pts[:] = 0
    ws.thunder_pts[:] = 0
    ws.marker[:] = MARKER_START
    ws.turns[:] = 0
    _refill_window(mt, setup, ws)
    k = min(setup.rules[R_OFFER], NB)
    for i in range(k):
        ws.offer[i] = ws.bstack[i]
    sc[S_OFFN] = k
    sc[S_BSH] = k


@jit_noref
def deal(mt: np.ndarray, setup: Setup, ws: Workspace) -> None:
    """The set-up: each seat in turn is dealt cards_dealt cards, shows one in the display (greedy: the fewest
    points per drop, lowest id among equals; random: a uniform pick) and keeps the others; then the display is
    filled from the deck."""
    sc, deck, greedy, c_ratio = ws.sc, ws.deck, ws.greedy, setup.c_ratio
    dealt_n = setup.rules[R_DEALT]
    kept = setup.rules[R_KEPT]
    NC = setup.card_ids.shape[0]
    for p in range(greedy.shape[0]):
        nd = min(dealt_n, NC - sc[S_DECKH])
        show = -1
        if greedy[p]:
            for i in range(nd):
                c = deck[sc[S_DECKH] + i]
                if show < 0 or c_ratio[c] < c_ratio[show] or (c_ratio[c] == c_ratio[show] and c < show):
                    show = c
        elif nd > 0:
            show = deck[sc[S_DECKH] + mt_below(mt, nd)]
        for i in range(nd):
            c = deck[sc[S_DECKH] + i]
            if c != show and ws.held_n[p] < kept:
                _hold(p, c, 0, 0, ws)
        sc[S_DECKH] += nd
        if nd > 0:
            ws.display[sc[S_DISPN]] = show
            sc[S_DISPN] += 1
    _refill_display(setup, ws)


@jit_noref
def _refill_display(setup: Setup, ws: Workspace) -> None:
    """`Raindrops._refill_display`: cards from the deck until the display holds `display` cards."""
    sc = ws.sc
    NC = setup.card_ids.shape[0]
    while sc[S_DISPN] < setup.rules[R_DISPLAY] and sc[S_DECKH] < NC:
        ws.display[sc[S_DISPN]] = ws.deck[sc[S_DECKH]]
        sc[S_DISPN] += 1
        sc[S_DECKH] += 1


@jit_merged  # into play_game
def play_turns(mt: np.ndarray, turn_limit: int, g: int, setup: Setup, ws: Workspace, tally: Tallies) -> bool:
    """The turns from seat 0's first: True when the final placement ends the game, False when turn_limit turns
    have begun first."""
    sc = ws.sc
    P = ws.greedy.shape[0]
    sc[S_CUR] = 0
    sc[S_TURN] = 1
    ws.turns[0] = 1
    if setup.rules[R_DROP_REFILL] == 0:
        _refill_window(mt, setup, ws)
    while sc[S_TURN] <= turn_limit:
        cur = sc[S_CUR]
        final = sc[S_FINAL] != 0
        if not final:
            drop_step(mt, cur, setup, ws)
        placements(mt, cur, final, setup, ws)
        if not final:
            end_placement(cur, setup, ws)
        if not final or setup.rules[R_FINAL_CLOUDS] != 0:
            cloud_tokens(cur, g, setup, ws, tally)
        if not final:
            end_turn(mt, setup, ws)
        elif cur + 1 < P:
            sc[S_CUR] = cur + 1
        else:
            return True
    return False


@jit_noref
def end_turn(mt: np.ndarray, setup: Setup, ws: Workspace) -> None:
    """`Raindrops._end_turn` after the cloud tokens: the display refilled; once the end is triggered, after
    the last seat's turn the final placement begins at seat 0 (final_last_turn_card "usable": cards taken last
    turn may be used); else the next seat's turn begins (`_begin_turn`)."""
    sc = ws.sc
    P = ws.greedy.shape[0]
    _refill_display(setup, ws)
    if sc[S_TRIGGER] != TRIGGER_NONE and sc[S_CUR] == P - 1:
        sc[S_CUR] = 0
        sc[S_FINAL] = 1
        if setup.rules[R_FINAL_FRESH_USABLE] != 0:
            for q in range(P):
                for s in range(ws.held_n[q]):
                    ws.hfresh[q, s] = 0
        return
    cur = (sc[S_CUR] + 1) % P
    sc[S_CUR] = cur
    sc[S_TURN] += 1
    ws.turns[cur] += 1
    if setup.rules[R_DROP_REFILL] == 0:
        _refill_window(mt, setup, ws)
    for s in range(ws.held_n[cur]):
        ws.hfresh[cur, s] = 0


@jit_noref
def score_game(g: int, gseat: int, over: bool, setup: Setup, ws: Workspace, tally: Tallies) -> None:
    """`Raindrops.score` of every board (parts A to E), `winners`, and game g added to the tally."""
    totals, card_pts, won, comp, comp_n = ws.totals, ws.card_pts, ws.won, ws.comp, ws.comp_n
    P = totals.shape[0]
    for p in range(P):
        a = 0
        for i in range(comp_n[p]):
            a += setup.c_pts[comp[p, i]]
        b = ws.used_bon[p]
        for q in range(ws.bres.shape[1]):
            b += ws.bres[p, q] * setup.bpts[q]
        e = 0
        for s in range(ws.held_n[p]):
            e = max(e, ws.hnt[p, s] + ws.hnb[p, s])
        tally.parts[g, PART_CARDS] += a
        tally.parts[g, PART_BONUS] += b
        tally.parts[g, PART_CLOUDS] += ws.cloud_pts[p]
        tally.parts[g, PART_THUNDER] += ws.thunder_pts[p]
        tally.parts[g, PART_INCOMPLETE] += e
        totals[p] = a + b + ws.cloud_pts[p] + ws.thunder_pts[p] + e
        card_pts[p] = a
    nwin, tie = winners(totals, card_pts, won)
    tally.ties[tie] += 1
    for p in range(P):
        if won[p]:
            tally.wins[p] += 1.0 / nwin
    rounds = 0
    for p in range(P):
        for i in range(comp_n[p]):
            tally.card_held[comp[p, i]] += 1
            tally.card_done[comp[p, i]] += 1
            tally.card_turns[comp[p, i]] += ws.comp_after[p, i]
        for s in range(ws.held_n[p]):
            tally.card_held[ws.hcard[p, s]] += 1
            tally.card_turns[ws.hcard[p, s]] += ws.turns[p] - ws.hsince[p, s]
        rounds = max(rounds, ws.turns[p])
    if gseat >= 0:
        if won[gseat]:
            tally.greedy_wins[0] += 1.0 / nwin
        others = 0
        for q in range(P):
            if q != gseat:
                others += totals[q]
        tally.margin[g] = totals[gseat] - others / max(1, P - 1)
    tally.turns[g] = ws.sc[S_TURN]
    tally.rounds[g] = rounds
    tally.trigger[g] = ws.sc[S_TRIGGER] if over else 0


TIE_TOTAL = 0
"""`winners`' tie kinds, the index into the `ties` tally: one highest total ("total" in rules.Outcome) ..."""
TIE_CARDS = 1
"""... tied totals decided by card points ("cards") ..."""
TIE_SHARED = 2
"""... still tied: the win is shared ("shared")."""


@jit
def winners(totals: np.ndarray, card_pts: np.ndarray, won: np.ndarray) -> tuple[int, int]:
    """`rules.decide` on arrays: won[p] = 1 for each winning seat (highest total; a tie broken by card points
    A; still tied: shared), 0 for the others; returns (how many won, TIE_* kind). The balance credits
    1 / (how many won) to each winner."""
    n = totals.shape[0]
    best = totals[0]
    for p in range(1, n):
        best = max(best, totals[p])
    ntop = 0
    best_a = -1
    for p in range(n):
        if totals[p] == best:
            ntop += 1
            best_a = max(best_a, card_pts[p])
    nwin = 0
    for p in range(n):
        won[p] = 1 if totals[p] == best and (ntop == 1 or card_pts[p] == best_a) else 0
        nwin += won[p]
    tie = TIE_TOTAL if ntop == 1 else (TIE_CARDS if nwin == 1 else TIE_SHARED)
    return nwin, tie
