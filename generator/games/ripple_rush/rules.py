"""Ripple Rush reference rules: readable, immutable states, every action re-checked by `apply`.

User-facing rows are numbered 1..rows from the TOP (goal card k shows row k); numbers ascend from the bottom
of a column to its top, so a number must be larger than every number in a row with a larger row number and
smaller than every number in a row with a smaller row number.

A round, as the rulebook orders it: (a) every player draws one card; (b) players who cannot write theirs
announce it; (c) in seat order the others write their own card (mandatory, choice of cell), each write's row
bonus resolved at once (cascading); (d) in seat order every player may write each announced card of the
others. Sheets are personal, so the seat order only fixes the order of decisions.
A decision with no legal write is skipped (an unusable bonus is lost, an unwritable announced card ignored).

House-rule switches (`spec.rules`): `announced_order` "any" (the seed names no order) makes step (d) one
decision per player over the announced cards still open: write any one of them (then its bonus cascade,
then the decision again with the rest) or stop; "seat" offers each announced card on its own, announcers
in seat order. `x_bonus_numbers` "any_integer" lets an X bonus write whole numbers outside the cards'
range. The sheet stores an empty cell as 0, so 0 itself is never written: only the order of numbers
matters, and -1 does what 0 would.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, Union

import numpy as np

from generator.errors import RuleViolation
from generator.games.ripple_rush import GAME
from generator.games.ripple_rush.spec import RippleRushGame

RULESET_VERSION = (
    GAME.ruleset
)  # the plugin record holds the version (generator/games/ripple_rush/__init__.py)
"""1.1: house-rule switches (X bonus numbers, order of announced cards, default: any order), off-sheet
writes and impossible goal rows are RuleViolations."""

Sheet = tuple[tuple[int, ...], ...]
"""sheet[column][row - 1]: the number written (0 = empty), rows from the top."""


@dataclass(frozen=True, order=True)
class Card:
    """A number card: suit (column index) and number."""

    suit: int
    number: int


@dataclass(frozen=True, order=True)
class Cell:
    """A sheet cell: column (suit index) and row (1 = top)."""

    column: int
    row: int


@dataclass(frozen=True, order=True)
class Write:
    """Write `number` in `cell`."""

    cell: Cell
    number: int


@dataclass(frozen=True, order=True)
class Pass:
    """Decline an optional write (an announced card or a row bonus)."""


PASS = Pass()
Action = Union[Write, Pass]


@dataclass(frozen=True)
class Decision:
    """Who must decide what: own card, an announced card, or the bonus of a completed row."""

    player: int
    kind: Literal["own", "announced", "bonus"]
    card: Card | None = None
    """The card to write (own, or announced in seat order); None for a bonus or an any-order choice."""
    row: int = 0
    """For a bonus: the completed row whose bonus this is."""
    cards: tuple[Card, ...] = ()
    """Announced cards in any order: the cards still open to this player, any one of which may be written."""


@dataclass(frozen=True)
class State:
    """A position: sheets, the dealt deck, revealed goal rows, the round and the decisions pending."""

    sheets: tuple[Sheet, ...]
    deck: tuple[Card, ...]
    goals: tuple[int, ...]
    round: int
    """Rounds started so far (1 = first round in progress)."""
    drawn: tuple[Card, ...] = ()
    announced: tuple[int, ...] = ()
    agenda: tuple[Decision, ...] = ()


@dataclass(frozen=True)
class SheetScore:
    """One sheet's score: longest run per column, goals completed, total, completed columns."""

    runs: tuple[int, ...]
    goals_completed: tuple[int, ...]
    total: int
    completed_columns: int


@dataclass(frozen=True)
class Outcome:
    """The end of a game: scores, winners (seats, 0-based) and how the winner was decided."""

    scores: tuple[int, ...]
    details: tuple[SheetScore, ...]
    winners: tuple[int, ...]
    tie_break_used: bool
    """Top scores were tied and completed columns separated them (at least partly)."""
    shared: bool


@dataclass(frozen=True)
class Game:
    """Static rules of one Ripple Rush variant for a player count, built once from a validated spec."""

    suits: tuple[str, ...]
    nmin: int
    nmax: int
    rows: int
    bonuses: tuple[int | str, ...]
    rounds: int
    players: int
    goal_points: int
    goals_revealed: int
    x_any_integer: bool = False
    """An X bonus may write whole numbers outside nmin..nmax (spec.rules.x_bonus_numbers == "any_integer")."""
    announced_any_order: bool = True
    """Announced cards are taken in any order (spec.rules.announced_order == "any"), else in seat order."""
    _suit_index: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_spec(
        cls, spec: RippleRushGame, players: int, bonuses: Sequence[int | str] | None = None
    ) -> Game:
        """The rules of `spec` for `players` players (optionally with another bonus order, top row first)."""
        if not spec.players.min <= players <= spec.players.max:
            raise RuleViolation(f"{players} players: this kit is for {spec.players.min}..{spec.players.max}")
        ids = tuple(s.id for s in spec.suits)
        return cls(
            ids,
            spec.numbers.min,
            spec.numbers.max,
            spec.rows,
            tuple(spec.bonuses if bonuses is None else bonuses),
            spec.cards_per_player,
            players,
            spec.goals.points,
            spec.goals.revealed,
            spec.rules.x_bonus_numbers == "any_integer",
            spec.rules.announced_order == "any",
            {s: i for i, s in enumerate(ids)},
        )

    # -- naming -----------------------------------------------------------------------------------------
    def card_name(self, card: Card) -> str:
        """'blue 15'."""
        return f"{self.suits[card.suit]} {card.number}"

    def cell_name(self, cell: Cell) -> str:
        """'blue row 3' ('column 7 row 3' for a column the sheet does not have)."""
        if not 0 <= cell.column < len(self.suits):
            return f"column {cell.column} row {cell.row}"
        return f"{self.suits[cell.column]} row {cell.row}"

    def has_cell(self, cell: Cell) -> bool:
        """Whether `cell` is on the sheet (columns 0..suits-1, rows 1..rows)."""
        return 0 <= cell.column < len(self.suits) and 1 <= cell.row <= self.rows

    def bonus_name(self, row: int) -> str:
        """'10' or 'X(blue)' for the bonus printed on `row`."""
        b = self.bonuses[row - 1]
        return f"X({b})" if isinstance(b, str) else str(b)

    # -- set-up -----------------------------------------------------------------------------------------
    def full_deck(self) -> tuple[Card, ...]:
        """Every card of the box: suits x numbers."""
        return tuple(Card(s, n) for s in range(len(self.suits)) for n in range(self.nmin, self.nmax + 1))

    @property
    def deck_size(self) -> int:
        """Cards dealt for this game: one per player per round."""
        return self.rounds * self.players

    def goal_max(self) -> int:
        """The most goal points one sheet can score: every revealed goal row completely filled."""
        return self.goal_points * self.goals_revealed

    def empty_sheet(self) -> Sheet:
        """A blank sheet."""
        return tuple((0,) * self.rows for _ in self.suits)

    def deal(
        self, deck: Sequence[Card], goals: Sequence[int], sheets: Sequence[Sheet] | None = None
    ) -> State:
        """A game dealt with `deck` (draw order: round by round, seat by seat) and revealed goal rows."""
        need = self.deck_size
        if len(deck) != need:
            raise RuleViolation(
                f"deck holds {len(deck)} cards, {self.players} players need "
                f"{self.rounds} x {self.players} = {need}"
            )
        if len(set(deck)) != len(deck):
            raise RuleViolation("deck holds a card twice")
        for r in goals:
            if not 1 <= r <= self.rows:
                raise RuleViolation(f"goal row {r}: the sheet has rows 1..{self.rows}")
        if len(set(goals)) != len(goals):
            raise RuleViolation(
                f"goal rows {tuple(goals)}: each row has one goal card, a row cannot be revealed twice"
            )
        if len(goals) not in (0, self.goals_revealed):
            raise RuleViolation(
                f"{len(goals)} goal rows revealed: this game reveals {self.goals_revealed} "
                f"(or none in the basic game)"
            )
        sh = tuple(sheets) if sheets is not None else tuple(self.empty_sheet() for _ in range(self.players))
        return self._settle(State(sh, tuple(deck), tuple(goals), 0))

    def new_state(self, rng: np.random.Generator) -> State:
        """Shuffle the box, deal rounds x players cards and reveal goal cards, from `rng` (the Game protocol's
        start: every random draw of a game happens here)."""
        box = list(self.full_deck())
        order = rng.permutation(len(box))
        deck = [box[i] for i in order[: self.deck_size]]
        goals = sorted(int(r) + 1 for r in rng.permutation(self.rows)[: self.goals_revealed])
        return self.deal(deck, goals)

    # -- the placement rule -------------------------------------------------------------------------------
    def legal_rows(self, sheet: Sheet, column: int, number: int, any_number: bool = False) -> tuple[int, ...]:
        """Rows (1 = top) where `number` may be written in `column`: empty, below every smaller-above...
        i.e. larger than every number lower in the column and smaller than every number higher up.
        `any_number`: an any_integer X bonus, so numbers outside nmin..nmax are allowed (0 never: empty)."""
        col = sheet[column]
        if number in col or number == 0 or (not any_number and not self.nmin <= number <= self.nmax):
            return ()
        out = []
        for r in range(1, self.rows + 1):
            if col[r - 1] != 0:
                continue
            above = [v for v in col[: r - 1] if v]
            below = [v for v in col[r:] if v]
            if all(v > number for v in above) and all(v < number for v in below):
                out.append(r)
        return tuple(out)

    def legal_cells(
        self, sheet: Sheet, column: int, number: int, any_number: bool = False
    ) -> tuple[Cell, ...]:
        """Cells where `number` may go in `column`."""
        return tuple(Cell(column, r) for r in self.legal_rows(sheet, column, number, any_number))

    def x_numbers(self, sheet: Sheet, column: int) -> tuple[int, ...]:
        """Numbers an X bonus may try in `column`: the cards' range, or with any_integer also `rows` whole
        numbers beyond the column's smallest and largest (only the order matters, so more add no choice)."""
        if not self.x_any_integer:
            return tuple(range(self.nmin, self.nmax + 1))
        written = [v for v in sheet[column] if v]
        lo = min([self.nmin, *written]) - self.rows - 1
        hi = max([self.nmax, *written]) + self.rows + 1
        return tuple(n for n in range(lo + 1, hi) if n != 0)

    def why_illegal(self, sheet: Sheet, cell: Cell, number: int, any_number: bool = False) -> str | None:
        """Why `number` may not go in `cell` (naming the cell and the numbers in the way), or None."""
        where = self.cell_name(cell)
        if not self.has_cell(cell):
            return (
                f"there is no cell column {cell.column}, row {cell.row} on a "
                f"{len(self.suits)}x{self.rows} sheet"
            )
        if any_number and number == 0:
            return "0 marks an empty cell on this sheet; write -1 instead (only the order of numbers matters)"
        if not any_number and not self.nmin <= number <= self.nmax:
            return f"{number} is not a number of this game ({self.nmin}..{self.nmax})"
        col = sheet[cell.column]
        if col[cell.row - 1] != 0:
            return f"{where} already holds {col[cell.row - 1]}"
        if number in col:
            r = col.index(number) + 1
            return f"{self.suits[cell.column]} {number} is already written in row {r}"
        above = [(r, v) for r, v in enumerate(col[: cell.row - 1], start=1) if v and v < number]
        below = [(r, v) for r, v in enumerate(col[cell.row :], start=cell.row + 1) if v and v > number]
        if above or below:
            parts = [f"{v} in row {r} above it is smaller" for r, v in above]
            parts += [f"{v} in row {r} below it is larger" for r, v in below]
            return (
                f"cannot write {number} in {where}: "
                + "; ".join(parts)
                + " (numbers must ascend from the bottom of a column to its top)"
            )
        return None

    def can_write(self, sheet: Sheet, decision: Decision) -> bool:
        """Whether the decision has at least one legal write."""
        if decision.kind == "bonus":
            b = self.bonuses[decision.row - 1]
            if isinstance(b, str):
                c = self._suit_index[b]
                return any(self.legal_rows(sheet, c, n, self.x_any_integer) for n in self.x_numbers(sheet, c))
            return any(self.legal_rows(sheet, c, b) for c in range(len(self.suits)))
        if decision.card is None:
            return any(self.legal_rows(sheet, k.suit, k.number) for k in decision.cards)
        return bool(self.legal_rows(sheet, decision.card.suit, decision.card.number))

    # -- play ---------------------------------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        """No decision pending and every round played."""
        return not state.agenda and state.round >= self.rounds

    def to_decide(self, state: State) -> Decision | None:
        """The pending decision, or None at the end."""
        return state.agenda[0] if state.agenda else None

    def to_move(self, state: State) -> int | None:
        """The seat of the pending decision (None at the end): the Game protocol's view of `to_decide`."""
        return state.agenda[0].player if state.agenda else None

    def legal_actions(self, state: State) -> list[Action]:
        """Every legal action of the pending decision, sorted (Pass first where it is allowed)."""
        d = self.to_decide(state)
        if d is None:
            return []
        sheet = state.sheets[d.player]
        acts: list[Action] = []
        if d.kind == "bonus":
            acts.append(PASS)
            b = self.bonuses[d.row - 1]
            if isinstance(b, str):
                c = self._suit_index[b]
                for n in self.x_numbers(sheet, c):
                    acts += [Write(cell, n) for cell in self.legal_cells(sheet, c, n, self.x_any_integer)]
            else:
                for c in range(len(self.suits)):
                    acts += [Write(cell, b) for cell in self.legal_cells(sheet, c, b)]
            return acts
        if d.card is None:  # announced cards in any order: write any one still open, or stop
            acts.append(PASS)
            writes = [
                Write(cell, k.number) for k in d.cards for cell in self.legal_cells(sheet, k.suit, k.number)
            ]
            return acts + sorted(writes)
        if d.kind == "announced":
            acts.append(PASS)
        acts += [Write(cell, d.card.number) for cell in self.legal_cells(sheet, d.card.suit, d.card.number)]
        return acts

    def apply(self, state: State, action: Action) -> State:
        """The state after `action`; raises RuleViolation (naming cell and numbers in the way) if illegal."""
        d = self.to_decide(state)
        if d is None:
            raise RuleViolation("the game is over; no action is possible")
        sheet = state.sheets[d.player]
        who = f"player {d.player + 1}"
        rest = state.agenda[1:]
        if isinstance(action, Pass):
            if d.kind == "own":
                assert d.card is not None
                rows = ", ".join(str(r) for r in self.legal_rows(sheet, d.card.suit, d.card.number))
                raise RuleViolation(
                    f"{who} must write {self.card_name(d.card)}: it fits in "
                    f"{self.suits[d.card.suit]} row(s) {rows}"
                )
            return self._settle(replace(state, agenda=rest))
        if not isinstance(action, Write):
            raise RuleViolation(f"not an action: {action!r}")
        cell, n = action.cell, action.number
        if not self.has_cell(cell):
            # checked first: a negative column would otherwise index a suit from the end and be misnamed
            raise RuleViolation(
                f"{who}: there is no cell column {cell.column}, row {cell.row} on a "
                f"{len(self.suits)}x{self.rows} sheet (columns 0..{len(self.suits) - 1}, "
                f"rows 1..{self.rows})"
            )
        any_number = False
        later: tuple[Decision, ...] = ()
        if d.kind == "announced" and d.card is None:
            open_cards = [k for k in d.cards if (k.suit, k.number) == (cell.column, n)]
            if not open_cards:
                names = ", ".join(self.card_name(k) for k in d.cards)
                raise RuleViolation(
                    f"{who} may write one of the announced cards {names}; "
                    f"{self.suits[cell.column]} {n} is not one of them"
                )
            left = tuple(k for k in d.cards if k != open_cards[0])
            later = (replace(d, cards=left),) if left else ()
        elif d.kind in ("own", "announced"):
            assert d.card is not None
            if n != d.card.number:
                raise RuleViolation(f"{who} is writing {self.card_name(d.card)}, not {n}")
            if cell.column != d.card.suit:
                raise RuleViolation(
                    f"{self.card_name(d.card)} goes in the {self.suits[d.card.suit]} column, "
                    f"not in {self.cell_name(cell)}"
                )
        else:
            b = self.bonuses[d.row - 1]
            if isinstance(b, str):
                if cell.column != self._suit_index[b]:
                    raise RuleViolation(
                        f"bonus X({b}) of row {d.row} is written in the {b} column, "
                        f"not in {self.cell_name(cell)}"
                    )
                any_number = self.x_any_integer
            elif n != b:
                raise RuleViolation(f"bonus of row {d.row} is the number {b}, not {n}")
        why = self.why_illegal(sheet, cell, n, any_number)
        if why:
            raise RuleViolation(f"{who}: {why}")
        col = list(sheet[cell.column])
        col[cell.row - 1] = n
        new_sheet = sheet[: cell.column] + (tuple(col),) + sheet[cell.column + 1 :]
        sheets = state.sheets[: d.player] + (new_sheet,) + state.sheets[d.player + 1 :]
        rest = later + rest  # any-order announced cards: the rest come back after this write's bonuses
        if all(c[cell.row - 1] != 0 for c in new_sheet):
            rest = (Decision(d.player, "bonus", row=cell.row),) + rest
        return self._settle(replace(state, sheets=sheets, agenda=rest))

    def _settle(self, state: State) -> State:
        """Drop decisions without a legal write; start rounds until one exists or the game ends."""
        while True:
            while state.agenda and not self.can_write(state.sheets[state.agenda[0].player], state.agenda[0]):
                state = replace(state, agenda=state.agenda[1:])
            if state.agenda or state.round >= self.rounds:
                return state
            state = self._start_round(state)

    def _start_round(self, state: State) -> State:
        t = state.round
        drawn = state.deck[t * self.players : (t + 1) * self.players]
        announced = tuple(
            p
            for p in range(self.players)
            if not self.legal_rows(state.sheets[p], drawn[p].suit, drawn[p].number)
        )
        agenda = [Decision(p, "own", drawn[p]) for p in range(self.players) if p not in announced]
        if self.announced_any_order:
            agenda += [
                Decision(p, "announced", cards=tuple(drawn[q] for q in announced if q != p))
                for p in range(self.players)
                if any(q != p for q in announced)
            ]
        else:
            agenda += [
                Decision(p, "announced", drawn[q]) for p in range(self.players) for q in announced if q != p
            ]
        return replace(state, round=t + 1, drawn=drawn, announced=announced, agenda=tuple(agenda))

    # -- scoring ------------------------------------------------------------------------------------------
    def score_sheet(self, sheet: Sheet, goals: Sequence[int]) -> SheetScore:
        """Longest run of filled cells per column, plus goal points for revealed goal rows completely
        filled."""
        runs = []
        for col in sheet:
            best = run = 0
            for v in col:
                run = run + 1 if v else 0
                best = max(best, run)
            runs.append(best)
        done = tuple(r for r in goals if all(col[r - 1] for col in sheet))
        full = sum(1 for col in sheet if all(col))
        return SheetScore(tuple(runs), done, sum(runs) + self.goal_points * len(done), full)

    def outcome(self, state: State) -> Outcome:
        """Scores and winners: highest total; ties broken by completed columns; still tied, a shared win."""
        if not self.is_over(state):
            raise RuleViolation(f"the game is not over (round {state.round} of {self.rounds})")
        details = tuple(self.score_sheet(s, state.goals) for s in state.sheets)
        scores = tuple(d.total for d in details)
        top = max(scores)
        cand = [p for p, s in enumerate(scores) if s == top]
        best_cols = max(details[p].completed_columns for p in cand)
        win = tuple(p for p in cand if details[p].completed_columns == best_cols)
        return Outcome(scores, details, win, len(cand) > 1 and len(win) < len(cand), len(win) > 1)


def new_game(spec: RippleRushGame, players: int) -> Game:
    """The reference rules of `spec` for `players` seats, as the one Game protocol
    (`generator.engine.game.Game`: new_state(rng), to_move, legal_actions, apply, outcome); RuleViolation for
    a player count outside the kit's players.min..players.max."""
    return Game.from_spec(spec, players)
