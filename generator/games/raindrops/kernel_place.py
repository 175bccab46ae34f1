"""The kernel's placements: tiles onto held cards, completed cards, taking a card, cloud tokens."""

from __future__ import annotations

import numpy as np

from generator.engine.kernel import jit_noref
from generator.games.raindrops.difficulty import _popcount
from generator.games.raindrops.kernel_choice import _best_placement, _fit, _pool, _rand_placement
from generator.games.raindrops.kernel_drop import _pop_at
from generator.games.raindrops.kernel_rng import mt_below
from generator.games.raindrops.kernel_tables import (
    ACT_CELL_A,
    ACT_CELL_B,
    ACT_KIND,
    ACT_OVER_A,
    ACT_OVER_B,
    ACT_PIECE,
    ACT_SLOT,
    R_END_CARDS,
    R_RESERVE,
    S_DECKH,
    S_DISCN,
    S_DISPN,
    S_HANDN,
    S_TRIGGER,
    TRIGGER_CARDS,
    TRIGGER_NONE,
    Setup,
    Tallies,
    Workspace,
)


@jit_noref
def _hold(p: int, card: int, fresh: int, since: int, ws: Workspace) -> None:
    """Seat p holds `card` in a new slot, nothing on it."""
    s = ws.held_n[p]
    ws.hcard[p, s] = card
    ws.hcov[p, s] = 0
    ws.hfresh[p, s] = fresh
    ws.hsince[p, s] = since
    ws.hnt[p, s] = 0
    ws.hnb[p, s] = 0
    ws.held_n[p] += 1


# ------------------------------------------------------------------------------------ placements
@jit_noref
def placements(mt: np.ndarray, p: int, final: bool, setup: Setup, ws: Workspace) -> None:
    """Seat p's placement (or final placement): placements chosen one by one (greedy `_best_placement`, random
    `_rand_placement`) and done (`place`, `complete_card`) until the seat ends it."""
    while True:
        if ws.greedy[p]:
            if not _best_placement(p, setup, ws):
                break
        elif _rand_placement(mt, p, final, setup, ws) == 0:
            break
        if place(p, setup, ws):
            complete_card(mt, p, ws.act[ACT_SLOT], final, setup, ws)


@jit_noref
def place(p: int, setup: Setup, ws: Workspace) -> bool:
    """Do the placement in ws.act (`Raindrops._place`, PlaceBonus): the tile leaves the hand (else the
    reserve), the bonus tiles the bonus reserve, and their cells are covered. True when the card is
    complete."""
    sc, hand, act, bres = ws.sc, ws.hand, ws.act, ws.bres
    s = act[ACT_SLOT]
    if act[ACT_KIND] == 1:
        tid = act[ACT_PIECE]
        inhand = _index(hand, sc[S_HANDN], tid)
        if inhand >= 0:
            _pop_at(hand, sc[S_HANDN], inhand)
            sc[S_HANDN] -= 1
        else:
            _pop_at(ws.reserve[p], ws.res_n[p], _index(ws.reserve[p], ws.res_n[p], tid))
            ws.res_n[p] -= 1
        ws.htiles[p, s, ws.hnt[p, s]] = tid
        ws.hnt[p, s] += 1
        for q in range(ACT_OVER_A, ACT_OVER_B + 1):
            if act[q] >= 0:
                bres[p, act[q]] -= 1
                ws.hnb[p, s] += 1
        ws.hcov[p, s] |= (1 << act[ACT_CELL_A]) | (1 << act[ACT_CELL_B])
    else:
        bres[p, act[ACT_PIECE]] -= 1
        ws.hnb[p, s] += 1
        ws.hcov[p, s] |= 1 << act[ACT_CELL_A]
    return _popcount(ws.hcov[p, s]) >= setup.c_n[ws.hcard[p, s]]  # type: ignore[no-any-return]


@jit_noref
def _index(arr: np.ndarray, n: int, x: int) -> int:
    """Where x is among the first n entries of arr (the last place; -1: nowhere)."""
    at = -1
    for i in range(n):
        if arr[i] == x:
            at = i
    return at


@jit_noref
def complete_card(mt: np.ndarray, p: int, s: int, final: bool, setup: Setup, ws: Workspace) -> None:
    """`Raindrops._check_complete` of slot s's full card: its tiles discarded, its bonus tiles counted as
    used, the card scored and its slot freed; outside the final placement the end_cards-th card triggers the
    end and a new card is taken (`take_card`) while the display or the deck has one."""
    sc = ws.sc
    for i in range(ws.hnt[p, s]):
        ws.discard[sc[S_DISCN]] = ws.htiles[p, s, i]
        sc[S_DISCN] += 1
    ws.used_bon[p] += ws.hnb[p, s]
    ws.comp[p, ws.comp_n[p]] = ws.hcard[p, s]
    ws.comp_after[p, ws.comp_n[p]] = ws.turns[p] - ws.hsince[p, s]
    ws.comp_n[p] += 1
    for j in range(s, ws.held_n[p] - 1):
        ws.hcard[p, j] = ws.hcard[p, j + 1]
        ws.hcov[p, j] = ws.hcov[p, j + 1]
        ws.hfresh[p, j] = ws.hfresh[p, j + 1]
        ws.hsince[p, j] = ws.hsince[p, j + 1]
        ws.hnt[p, j] = ws.hnt[p, j + 1]
        ws.hnb[p, j] = ws.hnb[p, j + 1]
        for i in range(ws.htiles.shape[2]):
            ws.htiles[p, j, i] = ws.htiles[p, j + 1, i]
    ws.held_n[p] -= 1
    if final:
        return
    if ws.comp_n[p] >= setup.rules[R_END_CARDS] and sc[S_TRIGGER] == TRIGGER_NONE:
        sc[S_TRIGGER] = TRIGGER_CARDS
    if sc[S_DISPN] > 0 or sc[S_DECKH] < setup.card_ids.shape[0]:
        take_card(mt, p, setup, ws)


@jit_noref
def take_card(mt: np.ndarray, p: int, setup: Setup, ws: Workspace) -> None:
    """A new memory card for seat p, fresh: greedy takes the display card of highest points per drop (lowest
    id among equals), else the deck's top card; random draws among the display and the deck."""
    sc, display, c_ratio = ws.sc, ws.display, setup.c_ratio
    has_deck = sc[S_DECKH] < setup.card_ids.shape[0]
    pick = -1
    if not ws.greedy[p]:
        pick = mt_below(mt, sc[S_DISPN] + (1 if has_deck else 0))
    elif sc[S_DISPN] > 0:
        pick = 0
        for i in range(1, sc[S_DISPN]):
            x = display[i]
            y = display[pick]
            if c_ratio[x] > c_ratio[y] or (c_ratio[x] == c_ratio[y] and x < y):
                pick = i
    if 0 <= pick < sc[S_DISPN]:
        newc = _pop_at(display, sc[S_DISPN], pick)
        sc[S_DISPN] -= 1
    else:
        newc = ws.deck[sc[S_DECKH]]
        sc[S_DECKH] += 1
    _hold(p, newc, 1, ws.turns[p], ws)


@jit_noref
def end_placement(p: int, setup: Setup, ws: Workspace) -> None:
    """EndPlacement outside the final: of the hand and reserve, greedy keeps the reserve_slots tiles of
    highest `_fit` (lowest id among equals), random the tiles `_rand_placement` drew (ws.keep); the rest is
    discarded and the hand emptied."""
    sc, pool, reserve, res_n, keep = ws.sc, ws.pool, ws.reserve, ws.res_n, ws.keep
    n = _pool(p, ws)
    greedy = ws.greedy[p] != 0
    nkeep = min(setup.rules[R_RESERVE], n) if greedy else 0
    res_n[p] = 0
    if not greedy:
        for q in range(keep[0]):
            reserve[p, res_n[p]] = keep[1 + q]
            res_n[p] += 1
            for i in range(n):
                if pool[i] == keep[1 + q]:
                    pool[i] = -1
    for _ in range(nkeep):
        bi = -1
        bv = -1.0
        for i in range(n):
            if pool[i] < 0:
                continue
            v = _fit(pool[i], p, setup, ws)
            if v > bv:
                bv = v
                bi = i
        reserve[p, res_n[p]] = pool[bi]
        res_n[p] += 1
        pool[bi] = -1
    for i in range(n):
        if pool[i] >= 0:
            ws.discard[sc[S_DISCN]] = pool[i]
            sc[S_DISCN] += 1
    sc[S_HANDN] = 0


@jit_noref
def cloud_tokens(p: int, g: int, setup: Setup, ws: Workspace, tally: Tallies) -> None:
    """`Raindrops._take_clouds`: seat p takes the top token of each cloud type it has none of whose condition
    (completed cards per symbol) its completed cards meet."""
    counts, comp, have, chead, cond, c_sym = ws.counts, ws.comp, ws.have, ws.chead, setup.cond, setup.c_sym
    counts[:] = 0
    for i in range(ws.comp_n[p]):
        if c_sym[comp[p, i]] >= 0:
            counts[c_sym[comp[p, i]]] += 1
    for ty in range(setup.cstack.shape[0]):
        if have[p, ty] or chead[ty] >= setup.cstack_n[ty]:
            continue
        ok = True
        for q in range(cond.shape[1]):
            if counts[q] < cond[ty, q]:
                ok = False
        if ok:
            tok = setup.cstack[ty, chead[ty]]
            chead[ty] += 1
            have[p, ty] = 1
            ws.cloud_pts[p] += setup.cpts[tok]
            tally.clouds[g, ty] += 1
