"""Policies: the meld finder (exact solver every turn) and a random-legal player, over the reference rules."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.games.rummy_cards.rules import Action, Draw, Game, Lay, Meld, State, meld_roles
from generator.games.rummy_cards.solver import solve_turn
from generator.games.rummy_cards.solver_search import workspaces
from generator.games.rummy_cards.solver_state import (
    GROUP,
    MAX_MELDS,
    OUT_BEST,
    OUT_MELDS,
    OUT_RETRIEVED,
    OUT_SIZE,
    SRC_FREED_JOKER,
    SRC_HAND,
    SRC_HAND_JOKER,
    SRC_TABLE,
    SRC_TABLE_JOKER,
    SolverWorkspace,
)


@dataclass(frozen=True)
class Play:
    """What the solver found: points and cards laid from the hand, the table it leads to (None: nothing) and
    the table joker it retrieves, if any."""

    points: int
    cards: int
    table: tuple[Meld, ...] | None
    retrieved_joker: int | None = None


def table_counts(
    game: Game, table: tuple[Meld, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[int, list[int]], list[tuple[int, bool, int]]]:
    """Per kind: real table cards, run jokers and group jokers standing for it (a group joker: the lowest
    missing colour); the real cards' ids by kind; and every table joker as (id, is_group, kind)."""
    d = game.deck
    real = np.zeros(d.n_kinds, np.int64)
    jrun = np.zeros(d.n_kinds, np.int64)
    jgrp = np.zeros(d.n_kinds, np.int64)
    real_ids: dict[int, list[int]] = {}
    jokers: list[tuple[int, bool, int]] = []
    for m in table:
        for c, r in zip(m.cards, meld_roles(d, m)):
            if d.is_joker(c):
                k = min(r)
                (jrun if m.kind == "run" else jgrp)[k] += 1
                jokers.append((c, m.kind == "group", k))
            else:
                k = d.kind(c)
                real[k] += 1
                real_ids.setdefault(k, []).append(c)
    for v in real_ids.values():
        v.sort()
    return real, jrun, jgrp, real_ids, sorted(jokers)


def find_best_play(
    game: Game, hand: tuple[int, ...], table: tuple[Meld, ...], opening: bool, retrieval: bool = True
) -> Play:
    """The exact best lay (solver.solve_turn): opening -> new melds from the hand only, most points (jokers =
    their card); otherwise the whole table rearranged with the hand, joker retrieval included, most penalty
    points (joker = joker_penalty), then cards. A table joker stays in a set of its kind (run colour, group
    number) unless retrieved."""
    d = game.deck
    C, N, K = len(d.colours), d.n_numbers, d.n_kinds
    hand_counts = np.zeros(K, np.int64)
    hand_ids: dict[int, list[int]] = {}
    hand_jokers = [c for c in hand if d.is_joker(c)]
    for c in hand:
        if not d.is_joker(c):
            hand_counts[d.kind(c)] += 1
            hand_ids.setdefault(d.kind(c), []).append(c)
    real = np.zeros(K, np.int64)
    jrun = np.zeros(K, np.int64)
    jgrp = np.zeros(K, np.int64)
    real_ids: dict[int, list[int]] = {}
    table_jokers: list[tuple[int, bool, int]] = []
    if not opening:
        real, jrun, jgrp, real_ids, table_jokers = table_counts(game, table)
    layout = np.zeros((MAX_MELDS, 2 + max(N, C)), np.int64)
    out = np.zeros(OUT_SIZE, np.int64)
    solve_turn(
        real,
        jrun,
        jgrp,
        hand_counts,
        len(hand_jokers),
        opening,
        retrieval,
        False,
        C,
        N,
        d.num_min,
        game.spec.joker_penalty,
        layout,
        out,
        _workspaces(C, N),
    )
    best, nm, retrieved = int(out[OUT_BEST]), int(out[OUT_MELDS]), int(out[OUT_RETRIEVED])
    if best <= 0 or best & 255 == 0:
        return Play(0, 0, None)
    freed = -1
    if retrieved >= 0:  # the table joker of that kind standing for that card
        is_group, k = retrieved >= K, retrieved % K
        freed = next(j for j, g, kk in table_jokers if g == is_group and kk == k)
    # the other table jokers by their set's kind: ("run", colour) or ("group", number index)
    family_pool: dict[tuple[int, int], list[int]] = {}
    for j, g, kk in table_jokers:
        if j != freed:
            family_pool.setdefault((int(g), kk % N if g else kk // N), []).append(j)
    pools = {
        SRC_TABLE: {k: list(v) for k, v in real_ids.items()},
        SRC_HAND: {k: list(v) for k, v in hand_ids.items()},
    }
    jokers = sorted(hand_jokers)
    melds = []
    for i in range(nm):
        is_group_row = layout[i, 0] == GROUP
        cards: list[int] = []
        for e in layout[i, 2 : 2 + layout[i, 1]]:
            k, src = int(e) >> 3, int(e) & 7
            if src == SRC_HAND_JOKER:
                cards.append(jokers.pop(0))
            elif src == SRC_FREED_JOKER:
                cards.append(freed)
            elif src == SRC_TABLE_JOKER:
                cards.append(family_pool[(int(is_group_row), k % N if is_group_row else k // N)].pop(0))
            else:
                cards.append(pools[src][k].pop(0))
        melds.append(Meld("group" if is_group_row else "run", tuple(cards)))
    new_table = (table + tuple(melds)) if opening else tuple(melds)
    return Play(best >> 8, best & 255, new_table, freed if freed >= 0 else None)


_WS: dict[tuple[int, int], SolverWorkspace] = {}


def _workspaces(C: int, N: int) -> SolverWorkspace:
    """Solver workspaces, allocated once per process and deck shape (the search leaves them reusable)."""
    if (C, N) not in _WS:
        _WS[(C, N)] = workspaces(C, N)
    return _WS[(C, N)]


@dataclass(frozen=True)
class MeldFinder:
    """Lays the most it can every turn (the initial meld as soon as it reaches the threshold), else draws."""

    name: str = "meld_finder"

    def choose(self, game: Game, state: State, rng: np.random.Generator) -> Action:
        """The solver's best lay, or Draw (deterministic: `rng` is not drawn from)."""
        p = state.current
        opening = not state.opened[p]
        play = find_best_play(game, state.hands[p], state.table, opening)
        if play.table is None or (opening and play.points < game.spec.initial_meld):
            acts = game.legal_actions(state)  # the draw rule may forbid drawing (a solver give-up only)
            return acts[0] if acts and isinstance(acts[0], Lay) else Draw()
        if opening and state.table and game.spec.rules.opening_turn == "may_add_after_opening":
            # the opening melds stay as laid; the rest of the hand goes to the table of before (a joker
            # retrieval too unless rules.opening_retrieval is next_turn)
            opening_melds = play.table[len(state.table) :]
            laid = {c for m in opening_melds for c in m.cards}
            rest = tuple(c for c in state.hands[p] if c not in laid)
            more = find_best_play(
                game,
                rest,
                state.table,
                opening=False,
                retrieval=game.spec.rules.opening_retrieval == "after_opening_melds",
            )
            if more.table is not None:
                return Lay(more.table + opening_melds)
        return Lay(play.table)


@dataclass(frozen=True)
class RandomLegal:
    """Picks uniformly among `Game.legal_actions` (draw, one new meld, one card added to a table meld; under
    rules.draw only_when_unable no Draw while a turn lays a card, the meld finder's lay listed alone when none
    of the others is; the list is documented there) with the explicit seeded numpy Generator; the kernel's
    `random_plays` is the same list, its solver turn the same lay (the kernel draws its own stream: its replay
    tests follow the kernel's logged choice)."""

    name: str = "random"

    def choose(self, game: Game, state: State, rng: np.random.Generator) -> Action:
        """A uniformly random listed legal action."""
        acts = game.legal_actions(state)
        return acts[int(rng.integers(len(acts)))]


POLICIES = {"meld_finder": MeldFinder(), "random": RandomLegal()}
