"""The picklable Simulation: spec numbers as plain tuples, one compiled call per chunk, tallies out."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from generator.engine.kernel import py_func, seed_state
from generator.engine.runner import Tally
from generator.games.ripple_rush import kernel as K
from generator.games.ripple_rush import kernel_board
from generator.games.ripple_rush.spec import RippleRushGame

POLICY_CODES: dict[str, int] = {
    "random": kernel_board.POLICY_RANDOM,
    "greedy": kernel_board.POLICY_GREEDY,
    "strong": kernel_board.POLICY_STRONG,
}
POLICY_NAMES: dict[int, str] = {v: k for k, v in POLICY_CODES.items()}


@dataclass(frozen=True)
class Setup:
    """The rule numbers the kernel needs, taken from a (legal) spec."""

    cols: int
    rows: int
    nmin: int
    nmax: int
    rounds: int
    bkind: tuple[int, ...]
    """Per row from the BOTTOM: 0 = number bonus, 1 = suit bonus."""
    bval: tuple[int, ...]
    """Per row from the bottom: the number, or the suit's column index."""
    revealed: int
    goal_points: int
    x_any: bool = False
    """House rule: an X bonus may write numbers outside nmin..nmax (rules.x_bonus_numbers ==
    "any_integer")."""
    any_order: bool = True
    """House rule: announced cards are taken in any order (rules.announced_order == "any"), else seat
    order."""

    def params(self, players: int) -> K.Params:
        """The kernel's view of these rules for `players` seats."""
        return K.Params(
            players,
            self.cols,
            self.rows,
            self.nmin,
            self.nmax,
            self.rounds,
            np.array(self.bkind, dtype=np.int64),
            np.array(self.bval, dtype=np.int64),
            self.revealed,
            self.goal_points,
            self.x_any,
            self.any_order,
        )

    @classmethod
    def from_spec(cls, spec: RippleRushGame, bonuses: tuple[int | str, ...] | None = None) -> Setup:
        """Read the spec (optionally with another bonus order, top row first)."""
        index = {s.id: i for i, s in enumerate(spec.suits)}
        bon = tuple(spec.bonuses) if bonuses is None else bonuses
        kinds = []
        vals = []
        for b in reversed(bon):
            if isinstance(b, str):
                kinds.append(1)
                vals.append(index[b])
            else:
                kinds.append(0)
                vals.append(int(b))
        return cls(
            len(spec.suits),
            spec.rows,
            spec.numbers.min,
            spec.numbers.max,
            spec.cards_per_player,
            tuple(kinds),
            tuple(vals),
            spec.goals.revealed,
            spec.goals.points,
            spec.rules.x_bonus_numbers == "any_integer",
            spec.rules.announced_order == "any",
        )


@dataclass(frozen=True)
class RippleRushSim:
    """Self-play of one setting: a player count and the policies seated (rotated per game when mixed)."""

    setup: Setup
    players: int
    policies: tuple[str, ...]
    rotate: bool = True
    record: bool = False
    pure: bool = False
    """Run the uncompiled Python functions (same results, for the equivalence test)."""
    every_seating: bool = False
    """Mixed tables: game g of a chunk seats the policies by the (g mod S)-th of the S seatings that use as
    many of them as the table allows (all of them, each at least once, when players >= policies), so every
    seat plays every policy equally often against every mix (`rotate` alone keeps seats p and p + k alike)."""

    def play(self, seed: np.random.SeedSequence, games: int) -> Tally:
        """Play `games` games from `seed`; per-game arrays under games.*, counters summed."""
        s = self.setup
        P = self.players
        rng = seed_state(seed)
        score = np.zeros((games, P), dtype=np.int64)
        colsdone = np.zeros((games, P), dtype=np.int64)
        seatpol = np.zeros((games, P), dtype=np.int64)
        rows_done = np.zeros(s.rows, dtype=np.int64)
        fired = np.zeros(s.rows, dtype=np.int64)
        used = np.zeros(s.rows, dtype=np.int64)
        counts = np.zeros(kernel_board.N_COUNTS, dtype=np.int64)
        if self.record:
            rec = K.Record(
                True,
                np.zeros(
                    (games * P * s.rounds * (P + 2 * s.rows) + 16, kernel_board.LOG_WIDTH), dtype=np.int64
                ),
                np.zeros(1, dtype=np.int64),
                np.zeros((games, P * s.rounds), dtype=np.int64),
                np.zeros((games, max(s.revealed, 1)), dtype=np.int64),
            )
        else:
            rec = K.Record(
                False,
                np.zeros((1, kernel_board.LOG_WIDTH), dtype=np.int64),
                np.zeros(1, dtype=np.int64),
                np.zeros((1, 1), dtype=np.int64),
                np.zeros((1, 1), dtype=np.int64),
            )
        mix = np.array([POLICY_CODES[p] for p in self.policies], dtype=np.int64)
        fn = py_func(K.play_loop) if self.pure else K.play_loop
        ws = K.workspace(P, s.cols, s.rows, s.nmin, s.nmax)
        prm = s.params(P)
        if self.every_seating and mix.shape[0] >= 2 and not self.record:
            table = seatings(mix.shape[0], P)
            which = np.arange(games) % len(table)
            for a, seating in enumerate(table):
                idx = np.nonzero(which == a)[0]
                if idx.size == 0:
                    continue
                part = K.Tallies(
                    np.zeros((idx.size, P), dtype=np.int64),
                    np.zeros((idx.size, P), dtype=np.int64),
                    np.zeros((idx.size, P), dtype=np.int64),
                    rows_done,
                    fired,
                    used,
                    counts,
                )
                fn(rng, idx.size, mix[np.array(seating, dtype=np.int64)], False, prm, part, rec, ws)
                score[idx], colsdone[idx], seatpol[idx] = part.score, part.colsdone, part.seatpol
        else:
            fn(
                rng,
                games,
                mix,
                self.rotate,
                prm,
                K.Tallies(score, colsdone, seatpol, rows_done, fired, used, counts),
                rec,
                ws,
            )
        out: Tally = {
            "games.score": score,
            "games.colsdone": colsdone,
            "games.policy": seatpol,
            "rows_done": rows_done[::-1].copy(),
            "bonus_fired": fired[::-1].copy(),
            "bonus_used": used[::-1].copy(),
            "counts": counts,
        }
        if self.record:
            n = int(rec.nlog[0])
            if n > rec.log.shape[0]:
                raise RuntimeError(f"decision log overflow: {n} > {rec.log.shape[0]}")
            out["games.decks"] = rec.decks
            out["games.goals"] = rec.goal_log
            out["log"] = rec.log[:n]
        return out


def seatings(policies: int, players: int) -> list[tuple[int, ...]]:
    """Every seating (policy index per seat) that uses min(policies, players) distinct policies, in
    lexicographic order. The set is closed under relabelling the policies, so over a full cycle each seat
    plays each policy equally often."""
    k = min(policies, players)
    return [t for t in itertools.product(range(policies), repeat=players) if len(set(t)) == k]


def winners(score: np.ndarray, colsdone: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per game: winners mask [G, P], whether the tie-break decided, whether the win is shared.

    Highest score wins; among tied top scores the most completed columns; still tied: shared win.
    """
    top = score.max(axis=1, keepdims=True)
    cand = score == top
    cols = np.where(cand, colsdone, -1)
    best = cols.max(axis=1, keepdims=True)
    win = cand & (cols == best)
    n_cand = cand.sum(axis=1)
    n_win = win.sum(axis=1)
    decided = (n_cand > 1) & (n_win < n_cand)
    shared = n_win > 1
    return win, decided, shared
