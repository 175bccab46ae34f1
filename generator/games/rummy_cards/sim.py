"""Fast self-play: one round as a compiled kernel over card counts and table melds, and the Simulation.

The round mirrors the reference rules + policies exactly (same solver turn, same random-legal play list), so a
kernel round replays through `Game.apply` card for card (tested): the kernel draws its own xorshift stream
(engine/kernel.py), the reference its numpy Generator, so the replay deals the kernel's logged deck order
(Workspace.order) and makes the random-legal seat's logged choice (Workspace.choices). play_round takes the
static Setup and the Workspace it writes (NamedTuples); its result and the solver's out array are read by the
named RES_* / OUT_* indices.
The table is kept as layout rows [type, length, entries...] (entry = kind * 8 + source, see solver_state.py)
in the reference table's meld order; counts for the solver are recomputed from it after every lay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from generator.engine.kernel import (
    compile_for,
    compile_part,
    jit,
    jit_merged,
    py_func,
    seed_state,
    shuffle_inplace,
)
from generator.engine.runner import Tally
from generator.games.rummy_cards.sim_random import _lay, _random_lay, _random_turn, random_plays
from generator.games.rummy_cards.sim_score import _score_round
from generator.games.rummy_cards.sim_setup import (
    LOG_DRAW,
    LOG_PASS,
    RES_EXHAUSTED,
    RES_GIVEUPS,
    RES_RETRIEVALS,
    RES_SIZE,
    RES_TURNS,
    RES_WINNER,
    RES_WINNERS,
    Setup,
    Workspace,
)
from generator.games.rummy_cards.solver import opening_points_bound, solve_turn, table_cards
from generator.games.rummy_cards.solver_decode import decode
from generator.games.rummy_cards.solver_retrieval import CAND_F, MAX_CANDIDATES, _greedy_incumbent
from generator.games.rummy_cards.solver_search import workspaces
from generator.games.rummy_cards.solver_state import (
    MAX_MELDS,
    MOVE_F,
    MOVE_H,
    OUT_BEST,
    OUT_EXACT,
    OUT_GIVEUPS,
    OUT_MELDS,
    OUT_RETRIEVED,
    OUT_SIZE,
    SolverWorkspace,
    new_workspace,
)

NO_RANDOM = -1
ROTATE_RANDOM = -2  # one random-legal seat, seat g % players in round g of a chunk


def round_workspace(setup: Setup, rounds: int, log_turns: int = 1) -> Workspace:
    """A Workspace for `rounds` rounds of `setup`, logging the first `log_turns` turns of each."""
    P, T = setup.players, setup.thresholds.shape[0]
    size = setup.n_colours * setup.n_numbers * setup.copies + setup.n_jokers
    return Workspace(
        workspaces(setup.n_colours, setup.n_numbers),
        np.zeros((rounds, P), np.int64),
        np.zeros((rounds, P, T), np.int64),
        np.zeros(log_turns, np.int64),
        np.full((log_turns, 2), -1, np.int64),
        np.zeros(size, np.int64),
    )


@jit
def _deal_round(rng: np.ndarray, setup: Setup, order: np.ndarray, hand: np.ndarray, hj: np.ndarray) -> int:
    """Game.deal: the deck shuffled into `order`, hand_size cards to each seat in turn; returns the pile's
    top."""
    K = setup.n_colours * setup.n_numbers
    size = K * setup.copies + setup.n_jokers
    for i in range(size):
        order[i] = i
    shuffle_inplace(rng, order)
    for i in range(setup.players * setup.hand_size):
        c = order[i]
        p = i // setup.hand_size
        if c >= K * setup.copies:
            hj[p] += 1
        else:
            hand[p, c // setup.copies] += 1
    return setup.players * setup.hand_size


@jit
def _cards_held(hand: np.ndarray, hj: np.ndarray, p: int) -> int:
    """How many cards seat p holds (jokers included)."""
    n = hj[p]
    for k in range(hand.shape[1]):
        n += hand[p, k]
    return n  # type: ignore[no-any-return]


STAT_GIVEUPS, STAT_RETRIEVALS, STAT_NEXT_KNOWN = range(3)
"""Slots of play_round's per-round counters: solver give-ups, joker retrievals, and the turn's next_known
(1: an optimum laid, the next search lays nothing; 2: nothing laid, if nothing is drawn)."""


@jit
def _opening_need(p: int, forced: bool, setup: Setup, first_possible: np.ndarray) -> int:
    """The fewest opening points seat p's search result is used for this turn (initial_meld, or a lower
    meld threshold it has not reached yet)."""
    need = setup.initial_meld
    for t in range(setup.thresholds.shape[0]):
        if not forced and first_possible[p, t] < 0 and setup.thresholds[t] < need:
            need = setup.thresholds[t]
    return need


@jit
def _finder_lay(
    p: int,
    turn: int,
    forced: bool,
    setup: Setup,
    tab: np.ndarray,
    ntab: int,
    hand: np.ndarray,
    hj: np.ndarray,
    opened: np.ndarray,
    first_possible: np.ndarray,
    layout: np.ndarray,
    res: np.ndarray,
    stats: np.ndarray,
) -> tuple[bool, int, int]:
    """The meld finder's search result (res, layout) taken: counters and first_possible noted, the melds laid
    when they count (MeldFinder.choose); returns (laid, the row they were laid from, the table's meld
    count)."""
    best = res[OUT_BEST]
    stats[STAT_GIVEUPS] += res[OUT_GIVEUPS]
    pts = best >> 8 if best > 0 else 0
    if opened[p] == 0 and not forced:
        for t in range(setup.thresholds.shape[0]):
            if first_possible[p, t] < 0 and pts >= setup.thresholds[t]:
                first_possible[p, t] = turn // setup.players + 1
    if not (best > 0 and (best & 255) > 0 and (opened[p] == 1 or pts >= setup.initial_meld)):
        return False, 0, ntab
    if res[OUT_RETRIEVED] >= 0:
        stats[STAT_RETRIEVALS] += 1
    base = ntab if opened[p] == 0 else 0
    _lay(layout, res[OUT_MELDS], tab, base, hand, hj, p)
    opened[p] = 1
    return True, base, base + res[OUT_MELDS]


@jit
def _lay_after_opening(
    p: int,
    base: int,
    tab: np.ndarray,
    ntab: int,
    hand: np.ndarray,
    hj: np.ndarray,
    layout: np.ndarray,
    spare: np.ndarray,
    res: np.ndarray,
    stats: np.ndarray,
) -> int:
    """rules.opening_turn may_add_after_opening: the search of the rest of the hand against the table before
    this turn (res, layout) laid there, the opening melds tab[base:ntab] kept after it; the meld count."""
    stats[STAT_GIVEUPS] += res[OUT_GIVEUPS]
    if not (res[OUT_BEST] > 0 and (res[OUT_BEST] & 255) > 0):
        return ntab
    if res[OUT_RETRIEVED] >= 0:
        stats[STAT_RETRIEVALS] += 1
    n_open = ntab - base
    for mi in range(n_open):
        for i in range(tab.shape[1]):
            spare[mi, i] = tab[base + mi, i]
    _lay(layout, res[OUT_MELDS], tab, 0, hand, hj, p)
    for mi in range(n_open):
        for i in range(tab.shape[1]):
            tab[res[OUT_MELDS] + mi, i] = spare[mi, i]
    return res[OUT_MELDS] + n_open  # type: ignore[no-any-return]


@jit_merged
def play_round(rng: np.ndarray, setup: Setup, ws: Workspace, g: int, random_seat: int) -> np.ndarray:
    """Play round g (meld finders; the seat `random_seat` plays random-legal, -1 none) into ws (see
    Workspace). Returns the result array (RES_* indices)."""
    players = setup.players
    C = setup.n_colours
    N = setup.n_numbers
    K = C * N
    size = K * setup.copies + setup.n_jokers
    draw_only_when_unable = not setup.draw_by_choice
    end_on_empty = not setup.end_all_pass
    first_possible = ws.first_possible[g]
    log = ws.log
    order = ws.order
    hand = np.zeros((players, K), np.int64)
    hj = np.zeros(players, np.int64)
    top = _deal_round(rng, setup, order, hand, hj)
    t_real = np.zeros(K, np.int64)
    t_jrun = np.zeros(K, np.int64)
    t_jgrp = np.zeros(K, np.int64)
    opened = np.zeros(players, np.int64)
    # a meld finder whose own last turn proves that its next table search lays nothing (solver.solve_turn's
    # known_nothing), forgotten once anybody lays
    known = np.zeros(players, np.bool_)
    width = 2 + max(N, C)
    tab = np.zeros((MAX_MELDS, width), np.int64)
    layout = np.zeros((MAX_MELDS, width), np.int64)
    spare = np.zeros((MAX_MELDS, width), np.int64)
    res = np.zeros(OUT_SIZE, np.int64)
    stats = np.zeros(3, np.int64)
    ntab = 0
    first_possible[:, :] = -1
    passes = 0
    turn = 0
    winner = -1
    while True:
        if end_on_empty and top >= size:
            break  # rules.exhausted_end last_card_drawn: the pile's last card is drawn (Game.is_over)
        p = turn % players
        stats[STAT_NEXT_KNOWN] = 0
        before = _cards_held(hand, hj, p)
        # the random-legal seat whose list holds Draw alone under rules.draw only_when_unable asks the meld
        # finder whether any turn lays a card (Game.solver_lay): if one does, that lay is listed alone
        forced = False
        n_plays = 0
        if p == random_seat:
            n_plays = random_plays(
                -1, tab, ntab, hand[p], hj[p], opened[p] == 1, C, N, setup.num_min, setup.initial_meld
            )
            forced = draw_only_when_unable and n_plays == 1
        if p == random_seat and not forced:
            ntab = _random_turn(
                rng, p, turn, n_plays, setup, tab, ntab, hand, hj, opened, t_real, t_jrun, t_jgrp, ws.choices
            )
        else:
            if forced and turn < ws.choices.shape[0]:
                ws.choices[turn, 0] = 0  # Game.legal_actions lists one play: the finder's lay, else Draw
                ws.choices[turn, 1] = 1
            need = _opening_need(p, forced, setup, first_possible)
            if opened[p] == 0 and opening_points_bound(hand[p], hj[p], C, N, setup.num_min) < need:
                res[OUT_BEST] = (
                    0  # no opening can reach `need` (nor a listed lay): the search could only say so
                )
                res[OUT_MELDS] = 0
                res[OUT_RETRIEVED] = -1
                res[OUT_GIVEUPS] = 0
            else:
                solve_turn(
                    t_real,
                    t_jrun,
                    t_jgrp,
                    hand[p],
                    hj[p],
                    opened[p] == 0,
                    True,
                    opened[p] == 1 and known[p] and not forced,
                    C,
                    N,
                    setup.num_min,
                    setup.joker_penalty,
                    layout,
                    res,
                    ws.solver,
                )
                if opened[p] == 1 and res[OUT_EXACT] == 1 and not forced:
                    if not (res[OUT_BEST] > 0 and (res[OUT_BEST] & 255) > 0):
                        stats[STAT_NEXT_KNOWN] = 2
                    elif res[OUT_RETRIEVED] < 0:
                        stats[STAT_NEXT_KNOWN] = 1
            laid, base, ntab = _finder_lay(
                p, turn, forced, setup, tab, ntab, hand, hj, opened, first_possible, layout, res, stats
            )
            if laid:
                if base > 0 and setup.add_after_opening and not forced:
                    # the rest of the hand goes to the table found before this turn (no retrieval)
                    table_cards(tab, base, C, N, t_real, t_jrun, t_jgrp)
                    solve_turn(
                        t_real,
                        t_jrun,
                        t_jgrp,
                        hand[p],
                        hj[p],
                        False,
                        not setup.retrieval_next_turn,
                        False,
                        C,
                        N,
                        setup.num_min,
                        setup.joker_penalty,
                        layout,
                        res,
                        ws.solver,
                    )
                    ntab = _lay_after_opening(p, base, tab, ntab, hand, hj, layout, spare, res, stats)
                table_cards(tab, ntab, C, N, t_real, t_jrun, t_jgrp)
            elif (
                draw_only_when_unable
                and res[OUT_GIVEUPS] > 0
                and random_plays(
                    -1, tab, ntab, hand[p], hj[p], opened[p] == 1, C, N, setup.num_min, setup.initial_meld
                )
                > 1
            ):
                # the solver gave up but a listed lay exists: drawing is not allowed (MeldFinder.choose). Only
                # after a give-up: an exact search that lays nothing (or opens below initial_meld) leaves no
                # listed lay, each being a lay the search weighs (0 of 5,400 rounds of every rule and seat
                # mix)
                ntab = _random_lay(1, p, setup, tab, ntab, hand, hj, opened, t_real, t_jrun, t_jgrp)
        left = _cards_held(hand, hj, p)
        laid_cards = before - left
        if laid_cards > 0:
            passes = 0
            if turn < log.shape[0]:
                log[turn] = laid_cards
            known[:] = False  # the table changed
            known[p] = stats[STAT_NEXT_KNOWN] == 1
        elif top < size:
            c = order[top]
            top += 1
            if c >= K * setup.copies:
                hj[p] += 1
            else:
                hand[p, c // setup.copies] += 1
            known[p] = False
            passes = 0
            if turn < log.shape[0]:
                log[turn] = LOG_DRAW
        else:
            passes += 1
            known[p] = stats[STAT_NEXT_KNOWN] == 2  # the same search again
            if turn < log.shape[0]:
                log[turn] = LOG_PASS
        turn += 1
        if left == 0:
            winner = p
            break
        if passes >= players or turn >= setup.max_turns:
            break
    out = np.zeros(RES_SIZE, np.int64)
    _score_round(setup, hand, hj, winner, ws.scores[g], out)
    out[RES_TURNS] = turn
    out[RES_GIVEUPS] = stats[STAT_GIVEUPS]
    out[RES_RETRIEVALS] = stats[STAT_RETRIEVALS]
    return out


@jit
def play_rounds(rng: np.ndarray, setup: Setup, ws: Workspace, seats: np.ndarray, results: np.ndarray) -> None:
    """Rounds g = 0..len(seats)-1 in one compiled call (the Setup/Workspace tuples are unboxed once per chunk,
    not once per round): results[g] = play_round(rng, setup, ws, g, seats[g]), play_round merged into this
    loop (`jit_merged`: compiled once, as part of it)."""
    for g in range(seats.shape[0]):
        out = play_round(rng, setup, ws, g, seats[g])
        for i in range(RES_SIZE):  # not `results[g] = out`: an array copy compiles a shape-error message
            results[g, i] = out[i]


@dataclass(frozen=True)
class RummySimulation:
    """Picklable self-play job: `players` meld finders, parameters copied from the spec; random_seat
    NO_RANDOM (-1), a seat index, or ROTATE_RANDOM (one random-legal seat, rotating round by round)."""

    players: int
    n_colours: int
    n_numbers: int
    num_min: int
    copies: int
    jokers: int
    hand_size: int
    initial_meld: int
    joker_penalty: int
    thresholds: tuple[int, ...]
    max_turns: int
    random_seat: int = NO_RANDOM
    rules: tuple[int, ...] = (0, 0, 0, 1, 0, 0, 0, 0, 0)  # rules_code(spec.rules); the RummyRules defaults

    def setup(self) -> Setup:
        """The kernel's Setup of this job."""
        draw, lowest, tie, add, next_turn, all_pass, each, lower_first, plus = self.rules
        return Setup(
            self.players,
            self.n_colours,
            self.n_numbers,
            self.num_min,
            self.copies,
            self.jokers,
            self.hand_size,
            self.initial_meld,
            self.joker_penalty,
            self.max_turns,
            np.array(self.thresholds, np.int64),
            draw == 1,
            lowest == 1,
            tie == 1,
            add == 1,
            next_turn == 1,
            all_pass == 1,
            each == 1,
            lower_first == 1,
            plus == 1,
        )

    def play(self, seed: np.random.SeedSequence, games: int) -> Tally:
        """Play `games` rounds from `seed`; per-round arrays under games.*."""
        rng = seed_state(seed)
        setup = self.setup()
        ws = round_workspace(setup, games)
        seat = np.array(
            [
                g % self.players if self.random_seat == ROTATE_RANDOM else self.random_seat
                for g in range(games)
            ],
            np.int64,
        ).reshape(games)
        results = np.zeros((games, RES_SIZE), np.int64)
        play_rounds(rng, setup, ws, seat, results)
        winner, exhausted = results[:, RES_WINNER].copy(), results[:, RES_EXHAUSTED].copy()
        turns, winners = results[:, RES_TURNS].copy(), results[:, RES_WINNERS].copy()
        giveups = np.array([results[:, RES_GIVEUPS].sum()], np.int64)
        retrievals = np.array([results[:, RES_RETRIEVALS].sum()], np.int64)
        return {
            "games.winner": winner,
            "games.winners": winners,
            "games.exhausted": exhausted,
            "games.turns": turns,
            "games.scores": ws.scores,
            "games.first_possible": ws.first_possible,
            "games.random_seat": seat,
            "solver_giveups": giveups,
            "joker_retrievals": retrievals,
        }


def logged_round(
    sim: RummySimulation,
    seed: int | np.random.SeedSequence,
    random_seat: int = NO_RANDOM,
    log_turns: int | None = None,
) -> tuple[np.ndarray, Workspace]:
    """One round of `sim`'s setup from the kernel stream seed_state(seed), every turn logged (log_turns,
    default max_turns): the result (RES_*) and the Workspace holding its deal, log, choices, scores (row
    0)."""
    setup = sim.setup()
    ws = round_workspace(setup, 1, sim.max_turns if log_turns is None else log_turns)
    result = np.zeros((1, RES_SIZE), np.int64)
    # through play_rounds, the entry point the checks compile, rather than play_round compiled on its own
    play_rounds(seed_state(seed), setup, ws, np.array([random_seat], np.int64), result)
    return result[0], ws


def rules_code(rules: object) -> tuple[int, ...]:
    """The kernel's codes for a RummyRules, in Setup's order, each 1 for the setting named: draw by_choice,
    exhausted_winner lowest_total, exhausted_tie tie_break, opening_turn may_add_after_opening,
    opening_retrieval next_turn, exhausted_end all_pass, exhausted_tie_pay each_winner,
    exhausted_tie_remainder lower_total_first, exhausted_below_winner scores_plus."""
    r: Any = rules
    return (
        int(r.draw == "by_choice"),
        int(r.exhausted_winner == "lowest_total"),
        int(r.exhausted_tie == "tie_break"),
        int(r.opening_turn == "may_add_after_opening"),
        int(r.opening_retrieval == "next_turn"),
        int(r.exhausted_end == "all_pass"),
        int(r.exhausted_tie_pay == "each_winner"),
        int(r.exhausted_tie_remainder == "lower_total_first"),
        int(r.exhausted_below_winner == "scores_plus"),
    )


def simulation_from_spec(spec: object, players: int, random_seat: int = NO_RANDOM) -> RummySimulation:
    """The self-play job for a validated RummyCardsGame at a player count."""
    from generator.games.rummy_cards.spec import measured_thresholds  # here: the kernels import no spec

    s: Any = spec  # RummyCardsGame; typed loosely to keep this module free of the spec import cycle
    return RummySimulation(
        players,
        len(s.colours),
        s.numbers.max - s.numbers.min + 1,
        s.numbers.min,
        s.copies,
        s.jokers,
        s.hand_size,
        s.initial_meld,
        s.joker_penalty,
        measured_thresholds(s),
        s.balance.max_turns,
        random_seat,
        rules_code(s.rules),
    )


def _sample_round(players: int = 2) -> tuple[Setup, dict[str, np.ndarray]]:
    """A Setup of the seed's deck and the arrays play_round passes its steps, by the names it gives them
    (only their types matter: the compile parts compile for them)."""
    setup = RummySimulation(players, 4, 13, 1, 2, 2, 14, 30, 30, (30,), 200).setup()
    C, N, T = setup.n_colours, setup.n_numbers, setup.thresholds.shape[0]
    K = C * N
    melds = np.zeros((MAX_MELDS, 2 + max(N, C)), np.int64)
    return setup, {
        "rng": seed_state(0),
        "order": np.zeros(K * setup.copies + setup.n_jokers, np.int64),
        "hand": np.zeros((players, K), np.int64),
        "hj": np.zeros(players, np.int64),
        "counts": np.zeros(K, np.int64),
        "opened": np.zeros(players, np.int64),
        "first_possible": np.zeros((1, players, T), np.int64)[0],
        "scores": np.zeros((1, players), np.int64)[0],
        "choices": np.full((1, 2), -1, np.int64),
        "tab": melds,
        "layout": melds.copy(),
        "spare": melds.copy(),
        "res": np.zeros(OUT_SIZE, np.int64),
        "stats": np.zeros(3, np.int64),
        "out": np.zeros(RES_SIZE, np.int64),
    }


def _workspace_sample(C: int, N: int) -> SolverWorkspace:
    """A SolverWorkspace of the search's types, tiny and made without compiled code (new_workspace's Python
    body, an empty move table of move_table's types), so that a compile part has it at once."""
    moves = np.zeros((16, MOVE_F, MOVE_H, 1), np.int64)
    return SolverWorkspace(
        *py_func(new_workspace)(C, N, 1),
        np.zeros((16, MOVE_F, MOVE_H, 2), np.int64),
        moves,
        moves,
        moves.astype(np.int32),
        moves,
    )


@compile_part
def compile_turn_steps() -> None:
    """Compile part: the search's workspace (`workspaces`, called by round_workspace), play_round's steps
    besides the meld finder's search (the deal, the random-legal seat's turns, laying, scoring), and the
    search's steps that come late in its compile (decoding, the greedy retrieval), for the types their
    callers pass. The first part: run in the process that compiles play_rounds after."""
    setup, a = _sample_round()
    C, N, hand, hj, tab, t = setup.n_colours, setup.n_numbers, a["hand"], a["hj"], a["tab"], a["counts"]
    i, no = 0, False  # an int64 and a bool argument
    workspaces(C, N)
    compile_for(decode, t, t, t, np.zeros(N, np.int64), C, N, a["layout"])
    cand = np.zeros((MAX_CANDIDATES, CAND_F), np.int64)
    compile_for(_greedy_incumbent, i, hand[0], cand, i, a["layout"], a["res"], C, N, setup.num_min)
    compile_for(_deal_round, a["rng"], setup, a["order"], hand, hj)
    compile_for(_cards_held, hand, hj, i)
    compile_for(random_plays, i, tab, i, hand[0], hj[0], no, C, N, setup.num_min, setup.initial_meld)
    compile_for(_random_turn, a["rng"], i, i, i, setup, tab, i, hand, hj, a["opened"], t, t, t, a["choices"])
    compile_for(_opening_need, i, no, setup, a["first_possible"])
    compile_for(opening_points_bound, hand[0], hj[0], C, N, setup.num_min)
    fp, layout, res, stats = a["first_possible"], a["layout"], a["res"], a["stats"]
    compile_for(_finder_lay, i, i, no, setup, tab, i, hand, hj, a["opened"], fp, layout, res, stats)
    compile_for(table_cards, tab, i, C, N, t, t, t)
    compile_for(_lay_after_opening, i, i, tab, i, hand, hj, layout, a["spare"], res, stats)
    compile_for(_random_lay, i, i, setup, tab, i, hand, hj, a["opened"], t, t, t)
    compile_for(_score_round, setup, hand, hj, i, a["scores"], a["out"])


@compile_part
def compile_search() -> None:
    """Compile part: the meld finder's turn (solver.solve_turn and everything it calls) for the types
    play_round calls it with."""
    setup, a = _sample_round()
    C, N, t, no = setup.n_colours, setup.n_numbers, a["counts"], False
    ws = _workspace_sample(C, N)
    hand, hj = a["hand"], a["hj"]
    compile_for(
        solve_turn,
        t,
        t,
        t,
        hand[0],
        hj[0],
        no,
        no,
        no,
        C,
        N,
        setup.num_min,
        setup.joker_penalty,
        a["layout"],
        a["res"],
        ws,
    )


@dataclass(frozen=True)
class MatchResult:
    """A match of several rounds: per-round scores, the running totals after each round, the final totals
    and the match winners (highest total; players level on it share the win, the seed names no tie-break)."""

    round_scores: tuple[tuple[int, ...], ...]
    running_totals: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]


def match_from_scores(round_scores: np.ndarray) -> MatchResult:
    """Running totals and winners from a (rounds, players) array of zero-sum round scores (the score pad)."""
    sc = np.asarray(round_scores, np.int64)
    run_tot = np.cumsum(sc, axis=0)
    totals = tuple(int(x) for x in run_tot[-1])
    best = max(totals)
    return MatchResult(
        tuple(tuple(int(x) for x in r) for r in sc),
        tuple(tuple(int(x) for x in r) for r in run_tot),
        totals,
        tuple(p for p, t in enumerate(totals) if t == best),
    )


def play_match(spec: object, players: int, seed: int, rounds: int | None = None) -> MatchResult:
    """A seeded match of meld finders: spec.rules.rounds rounds (or `rounds`), all from one RNG stream (each
    round a fresh shuffle and deal, seat 0 first), added up as on the score pad."""
    n = rounds if rounds is not None else spec.rules.rounds  # type: ignore[attr-defined]
    t = simulation_from_spec(spec, players).play(np.random.SeedSequence(seed), n)
    return match_from_scores(t["games.scores"])
