"""The reference rules of Peak Dice: readable Python, immutable states, every action re-checked.

A turn: (A) the active player rolls every die (a chance node), then may re-roll any subset `rerolls` times;
(B) the active player writes the sum of one legal colour (that colour's faces + all white faces) in that
colour's row, or passes (when no colour is legal, or when `rules.step_b` is "optional"); (C) every player,
the active one first, may write one colour other than the one chosen in B (any of them if none was) in its
row (the seed's C is simultaneous, so every player writes in C even when a sheet fills up during it). If
the active player wrote nothing in B and C, they check the next miss box (the k-th is worth -k; with
`rules.miss_track_full` "capped" a full track costs no more). The game ends at once when a sheet is full
(「即座にゲームを終了します」): after B, before anyone's step C (with `rules.sheet_full_in_b` "step_c_played"
every player still plays that turn's C first), or after C: with `rules.final_turn_miss` "skipped", the
default, before the active player's miss is checked; self-play also stops a game in which no sheet can be
completed any more ("stalled") or that reaches the spec's turn limit. A full column scores its second lowest
value, equal values counting once (`rules.column_score` "second_lowest_distinct") or separately
("second_lowest").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal, Union

import numpy as np

from generator.errors import RuleViolation
from generator.games.peak_dice import GAME
from generator.games.peak_dice.spec import PeakDiceGame
from generator.games.peak_dice.tables import Tables, build_tables

RULESET_VERSION = GAME.ruleset  # the plugin record holds the version (generator/games/peak_dice/__init__.py)
"""Bump when a rule changes (it moves balance); the CHANGELOG has a Rules section.
1.1: house-rule switches (step B compulsory by default, full miss track, miss at a C-step end, column
score); a bad colour index in step C is named as such."""

Phase = Literal["roll", "reroll", "reroll_roll", "b", "c", "over"]
EndReason = Literal["sheet_full", "stalled", "turn_limit"]


@dataclass(frozen=True)
class Roll:
    """Chance: the faces (indices into each die's face list) of the dice being rolled, in dice order."""

    faces: tuple[int, ...]


@dataclass(frozen=True)
class Reroll:
    """The active player re-rolls these dice (ascending indices); empty = keep the roll."""

    dice: tuple[int, ...]


@dataclass(frozen=True)
class Write:
    """A player writes the current sum of `colour` (a row index) in the next circle of that row."""

    player: int
    colour: int


@dataclass(frozen=True)
class Pass:
    """A player writes nothing in this step."""

    player: int


Action = Union[Roll, Reroll, Write, Pass]


@dataclass(frozen=True)
class State:
    """One moment of a game; never mutated (apply returns a new State)."""

    sheets: tuple[tuple[tuple[int, ...], ...], ...]
    """sheets[player][row] = values written so far, left to right."""
    misses: tuple[int, ...]
    active: int
    turn: int
    phase: Phase
    faces: tuple[int, ...]
    rerolls_left: int
    pending: tuple[int, ...] = ()
    """Dice chosen for a re-roll whose outcome is still to come."""
    chosen: int = -1
    """Colour written in step B (-1: none)."""
    wrote: bool = False
    """The active player wrote something this turn."""
    c_next: int = 0
    """Step C: the next player is (active + c_next) % players."""
    end: EndReason | None = None


@dataclass(frozen=True)
class Outcome:
    """The end of a game: scores and how they were made, the winners and why the game ended."""

    scores: tuple[int, ...]
    column_scores: tuple[tuple[int | None, ...], ...]
    """Per player, per column: the second lowest value (distinct or not, per `rules.column_score`), or None
    for an incomplete column."""
    penalties: tuple[int, ...]
    winners: tuple[int, ...]
    tie_break: str
    end: EndReason


def second_lowest(values: Sequence[int], distinct: bool = True) -> int:
    """The column score. distinct (default): the second lowest DISTINCT value, equal values counting once
    (the seed's example 9, 10, 9, 12 -> 10: the two 9s are one lowest value; all equal -> that value).
    Not distinct (the house rule "second_lowest"): the second of the sorted values (9, 10, 9, 12 -> 9)."""
    if len(values) < 2:
        raise ValueError(f"a column needs at least 2 values, got {len(values)}")
    if not distinct:
        return sorted(values)[1]
    ordered = sorted(set(values))
    return ordered[1] if len(ordered) > 1 else ordered[0]


def miss_penalty(misses: int, cap: int | None = None) -> int:
    """Sum of the checked miss boxes, the k-th worth k: 1, 3, 6, 10, ...; with `cap` (a full track costs no
    more) only the first `cap` misses count."""
    counted = misses if cap is None else min(misses, cap)
    return counted * (counted + 1) // 2


def miss_cost(k: int, cap: int | None = None) -> int:
    """What the k-th miss adds to the penalty (k; nothing past a capped track's `cap` boxes): the number
    printed in the k-th miss box."""
    return miss_penalty(k, cap) - miss_penalty(k - 1, cap)


class Game:
    """Static rules of one Peak Dice sheet and dice set, built once from a validated spec."""

    def __init__(
        self,
        spec: PeakDiceGame,
        players: int,
        peaks: Sequence[int] | None = None,
        tables: Tables | None = None,
    ):
        if not spec.players.min <= players <= spec.players.max:
            raise RuleViolation(
                f"this kit plays {spec.players.min}..{spec.players.max} players, got {players}"
            )
        self.spec = spec
        self.players = players
        self.tables = tables if tables is not None else build_tables(spec, peaks)
        self.peaks = tuple(int(x) for x in self.tables.peaks)
        self.row_length = spec.row_length
        self.rows = len(spec.colours)
        self.turn_limit = spec.balance.turn_limit
        self.step_b_optional = spec.rules.step_b == "optional"
        self.miss_cap: int | None = spec.miss_boxes if spec.rules.miss_track_full == "capped" else None
        self.final_turn_miss = spec.rules.final_turn_miss == "taken"
        self.distinct_columns = spec.rules.column_score == "second_lowest_distinct"
        self.b_full_plays_c = spec.rules.sheet_full_in_b == "step_c_played"
        self._achievable = [self.tables.achievable(r) for r in range(self.rows)]

    # -- reading the dice ------------------------------------------------------------------------------
    def colour_name(self, colour: int) -> str:
        """The colour id of a row index."""
        return self.tables.colour_ids[colour]

    def face(self, die: int, face: int) -> tuple[str, int]:
        """Colour id and value of one face."""
        t = self.tables
        return (t.colour_name(int(t.dice_colour[die, face])), int(t.dice_value[die, face]))

    def sums(self, faces: Sequence[int]) -> tuple[int, ...]:
        """Every colour's sum: faces showing that colour plus all white faces."""
        t = self.tables
        out = [0] * self.rows
        for d, k in enumerate(faces):
            c, v = int(t.dice_colour[d, k]), int(t.dice_value[d, k])
            for r in range(self.rows):
                if c == self.rows or c == r:
                    out[r] += v
        return tuple(out)

    # -- writing -----------------------------------------------------------------------------------------
    def write_problem(self, row_values: Sequence[int], row: int, value: int) -> str | None:
        """Why `value` cannot go in the next circle of a row holding `row_values` (None if it can)."""
        n = len(row_values)
        name = self.colour_name(row)
        peak = self.peaks[row]
        if n >= self.row_length:
            return f"row {name} is full ({self.row_length} circles)"
        if n == 0:
            return None
        last = row_values[-1]
        if n < peak and value <= last:
            return (
                f"circle {n + 1} of row {name} is before the peak line (after circle {peak}), so it must be "
                f"above {last} (circle {n}); got {value}"
            )
        if n >= peak and value >= last:
            return (
                f"circle {n + 1} of row {name} is after the peak line (after circle {peak}), so it must be "
                f"below {last} (circle {n}); got {value}"
            )
        return None

    def can_write(self, row_values: Sequence[int], row: int, value: int) -> bool:
        """`value` may go in the next circle of the row."""
        return self.write_problem(row_values, row, value) is None

    def row_completable(self, row_values: Sequence[int], row: int) -> bool:
        """The row can still be filled with sums the dice can show."""
        ach = self._achievable[row]
        n, pk, length = len(row_values), self.peaks[row], self.row_length
        if n >= length:
            return True
        if n == 0:
            return len(ach) - 1 >= max(pk - 1, length - pk)
        last = row_values[-1]
        if n < pk:
            return sum(1 for v in ach if v > last) >= pk - n and len(ach) - 1 >= length - pk
        return sum(1 for v in ach if v < last) >= length - n

    def is_full(self, sheet: Sequence[Sequence[int]]) -> bool:
        """Every circle of every row is filled."""
        return all(len(r) == self.row_length for r in sheet)

    def legal_colours(self, state: State, player: int, forbidden: int = -1) -> list[int]:
        """Colours whose current sum the player may write (row order), leaving out `forbidden`."""
        sums = self.sums(state.faces)
        return [
            r
            for r in range(self.rows)
            if r != forbidden and self.can_write(state.sheets[player][r], r, sums[r])
        ]

    # -- playing -----------------------------------------------------------------------------------------
    def initial_state(self) -> State:
        """Empty sheets, seat 0 to roll."""
        empty = tuple(tuple(() for _ in range(self.rows)) for _ in range(self.players))
        return State(
            sheets=empty,
            misses=(0,) * self.players,
            active=0,
            turn=1,
            phase="roll",
            faces=(0,) * self.tables.dice,
            rerolls_left=self.spec.rerolls,
        )

    def actor(self, state: State) -> int | None:
        """The player to decide now, or None at a chance node or at the end."""
        if state.phase in ("reroll", "b"):
            return state.active
        if state.phase == "c":
            return (state.active + state.c_next) % self.players
        return None

    def dice_to_roll(self, state: State) -> tuple[int, ...]:
        """At a chance node: the dice whose faces the next Roll gives."""
        if state.phase == "roll":
            return tuple(range(self.tables.dice))
        if state.phase == "reroll_roll":
            return state.pending
        return ()

    def legal_actions(self, state: State) -> list[Action]:
        """Every decision the actor may take (empty at chance nodes and at the end)."""
        p = self.actor(state)
        if p is None:
            return []
        if state.phase == "reroll":
            n = self.tables.dice
            return [Reroll(tuple(d for d in range(n) if m >> d & 1)) for m in range(2**n)]
        forbidden = state.chosen if state.phase == "c" else -1
        colours = self.legal_colours(state, p, forbidden)
        out: list[Action] = [Write(p, c) for c in colours]
        if state.phase == "c" or self.step_b_optional or not colours:
            out.append(Pass(p))
        return out

    def apply(self, state: State, action: Action) -> State:
        """The state after `action`; raises RuleViolation naming the row, circle and numbers in the way."""
        if state.phase == "over":
            raise RuleViolation(f"the game is over ({state.end}); got {action}")
        if state.phase in ("roll", "reroll_roll"):
            return self._apply_roll(state, action)
        p = self.actor(state)
        assert p is not None
        if state.phase == "reroll":
            if not isinstance(action, Reroll):
                raise RuleViolation(f"player {p} must choose dice to re-roll (or none); got {action}")
            dice = action.dice
            if list(dice) != sorted(set(dice)) or any(not 0 <= d < self.tables.dice for d in dice):
                raise RuleViolation(
                    f"re-roll needs distinct ascending dice in 0..{self.tables.dice - 1}; got {list(dice)}"
                )
            if not dice:
                return replace(state, phase="b", rerolls_left=0)
            return replace(state, phase="reroll_roll", pending=dice, rerolls_left=state.rerolls_left - 1)
        if not isinstance(action, (Write, Pass)) or action.player != p:
            raise RuleViolation(f"step {state.phase.upper()}: player {p} is to write or pass; got {action}")
        if state.phase == "b":
            return self._apply_b(state, action)
        return self._apply_c(state, action)

    def _apply_roll(self, state: State, action: Action) -> State:
        dice = self.dice_to_roll(state)
        if not isinstance(action, Roll) or len(action.faces) != len(dice):
            raise RuleViolation(f"expected the faces of dice {list(dice)}; got {action}")
        faces = list(state.faces)
        for d, k in zip(dice, action.faces):
            if not 0 <= k < int(self.tables.dice_faces[d]):
                raise RuleViolation(f"die {d} has {int(self.tables.dice_faces[d])} faces; got face {k}")
            faces[d] = k
        if state.phase == "roll":
            nxt: Phase = "reroll" if state.rerolls_left > 0 else "b"
        else:
            nxt = "reroll" if state.rerolls_left > 0 else "b"
        return replace(state, faces=tuple(faces), phase=nxt, pending=())

    def _write(self, state: State, player: int, colour: int) -> State:
        if not 0 <= colour < self.rows:
            raise RuleViolation(f"colour index must be in 0..{self.rows - 1}; got {colour}")
        value = self.sums(state.faces)[colour]
        row = state.sheets[player][colour]
        why = self.write_problem(row, colour, value)
        if why is not None:
            raise RuleViolation(f"player {player} cannot write {value}: {why}")
        sheet = list(state.sheets[player])
        sheet[colour] = row + (value,)
        sheets = list(state.sheets)
        sheets[player] = tuple(sheet)
        return replace(state, sheets=tuple(sheets))

    def _apply_b(self, state: State, action: Write | Pass) -> State:
        if isinstance(action, Pass):
            legal = self.legal_colours(state, state.active)
            if legal and not self.step_b_optional:
                names = ", ".join(self.colour_name(c) for c in legal)
                raise RuleViolation(f"step B: player {state.active} must write a legal colour ({names})")
            return replace(state, phase="c", c_next=0, chosen=-1)
        s = self._write(state, action.player, action.colour)
        s = replace(s, chosen=action.colour, wrote=True, phase="c", c_next=0)
        if self.is_full(s.sheets[s.active]) and not self.b_full_plays_c:  # 「即座に」: nobody plays step C
            return replace(s, phase="over", end="sheet_full")
        return s

    def _apply_c(self, state: State, action: Write | Pass) -> State:
        s = state
        if isinstance(action, Write):
            if not 0 <= action.colour < self.rows:
                # checked first: after a passed step B `chosen` is -1, and -1 would name the last colour
                raise RuleViolation(
                    f"step C: player {action.player}: colour index must be in "
                    f"0..{self.rows - 1}; got {action.colour}"
                )
            if action.colour == state.chosen:
                raise RuleViolation(
                    f"step C: player {action.player} cannot write "
                    f"{self.colour_name(action.colour)}, the colour the active player chose in B"
                )
            s = self._write(state, action.player, action.colour)
            if action.player == state.active:
                s = replace(s, wrote=True)
        if s.c_next + 1 < self.players:
            return replace(s, c_next=s.c_next + 1)
        return self._end_turn(s)

    def _end_turn(self, s: State) -> State:
        filled = any(self.is_full(sh) for sh in s.sheets)
        if not s.wrote and (self.final_turn_miss or not filled):  # 「即座に」: a filled sheet ends it first
            misses = list(s.misses)
            misses[s.active] += 1
            s = replace(s, misses=tuple(misses))
        if any(self.is_full(sh) for sh in s.sheets):
            return replace(s, phase="over", end="sheet_full")
        if not any(all(self.row_completable(row, r) for r, row in enumerate(sh)) for sh in s.sheets):
            return replace(s, phase="over", end="stalled")
        if s.turn >= self.turn_limit:
            return replace(s, phase="over", end="turn_limit")
        return replace(
            s,
            active=(s.active + 1) % self.players,
            turn=s.turn + 1,
            phase="roll",
            rerolls_left=self.spec.rerolls,
            pending=(),
            chosen=-1,
            wrote=False,
            c_next=0,
        )

    # -- scoring -----------------------------------------------------------------------------------------
    def column_scores(self, sheet: Sequence[Sequence[int]]) -> tuple[int | None, ...]:
        """The score of every complete column, its second lowest value (None where a circle is empty)."""
        out: list[int | None] = []
        for i in range(self.row_length):
            if all(len(row) > i for row in sheet):
                out.append(second_lowest([row[i] for row in sheet], self.distinct_columns))
            else:
                out.append(None)
        return tuple(out)

    def score(self, sheet: Sequence[Sequence[int]], misses: int) -> int:
        """Complete columns' scores minus the miss penalty."""
        return sum(c for c in self.column_scores(sheet) if c is not None) - miss_penalty(
            misses, self.miss_cap
        )

    def outcome(self, state: State) -> Outcome:
        """Scores and winners of a finished game (highest score wins; tied players share the win)."""
        if state.phase != "over" or state.end is None:
            raise RuleViolation(f"the game is not over (turn {state.turn}, step {state.phase})")
        cols = tuple(self.column_scores(sh) for sh in state.sheets)
        pens = tuple(miss_penalty(m, self.miss_cap) for m in state.misses)
        scores = tuple(sum(c for c in cs if c is not None) - pen for cs, pen in zip(cols, pens))
        top = max(scores)
        winners = tuple(i for i, s in enumerate(scores) if s == top)
        tie = "none" if len(winners) == 1 else "shared: the rules name no tie-break"
        return Outcome(scores, cols, pens, winners, tie, state.end)


@dataclass
class Table:
    """A game in progress behind the Game protocol: the rules' immutable State and the numpy Generator every
    roll to come is drawn from (the state owns its chance; apply consumes the Table it is given)."""

    state: State
    rng: np.random.Generator


class PeakDice:
    """The reference rules behind the one Game protocol (generator/engine/game.py): chance nodes (the roll
    and every re-roll) are resolved inside `new_state` and `apply` with the Table's numpy Generator, so
    `to_move` names a seat at every decision and None only at the end."""

    def __init__(self, spec: PeakDiceGame, players: int):
        self.rules = Game(spec, players)
        self.players = players

    def roll(self, state: State, rng: np.random.Generator) -> Roll:
        """The chance outcome of the dice to roll now (dice order, one uniform face each; the same draws as
        policies.roll, so a seed plays the same game through either)."""
        faces = self.rules.tables.dice_faces
        return Roll(tuple(int(rng.integers(int(faces[d]))) for d in self.rules.dice_to_roll(state)))

    def _settle(self, state: State, rng: np.random.Generator) -> State:
        """Resolve chance nodes until a player decides or the game is over."""
        while state.phase in ("roll", "reroll_roll"):
            state = self.rules.apply(state, self.roll(state, rng))
        return state

    def new_state(self, rng: np.random.Generator) -> Table:
        """Empty sheets, seat 0's first roll already on the table."""
        return Table(self._settle(self.rules.initial_state(), rng), rng)

    def to_move(self, table: Table) -> int | None:
        """The seat that decides next (None once the game is over)."""
        return self.rules.actor(table.state)

    def legal_actions(self, table: Table) -> list[Action]:
        """Every re-roll, write or pass the seat to move may take (empty at the end)."""
        return self.rules.legal_actions(table.state)

    def apply(self, table: Table, action: Action) -> Table:
        """The Table after `action` and the rolls it leads to; RuleViolation if the action is illegal."""
        if isinstance(action, Roll):
            raise RuleViolation(f"the dice are rolled by the game, not chosen; got {action}")
        table.state = self._settle(self.rules.apply(table.state, action), table.rng)
        return table

    def outcome(self, table: Table) -> Outcome:
        """Scores and winners of the finished game (RuleViolation before the end)."""
        return self.rules.outcome(table.state)


def new_game(spec: PeakDiceGame, players: int) -> PeakDice:
    """The reference rules of this spec for `players` seats (RuleViolation outside the spec's player
    range)."""
    return PeakDice(spec, players)
