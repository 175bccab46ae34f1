"""A Rummy turn as steps for the one Game protocol (generator/engine/game.py): build, lift,
form and end a turn, and the melds a hand can form."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from generator.errors import RuleViolation
from generator.games.rummy_cards.rules import (
    MELD_MIN,
    Deck,
    Draw,
    Game,
    Lay,
    Meld,
    Outcome,
    State,
    meld_roles,
)
from generator.games.rummy_cards.spec import RummyCardsGame

# ---- the one Game protocol (generator/engine/game.py): a turn as steps
# --------------------------------------- A Rummy turn may rearrange the whole table, so its full list of
# actions is far too long to list. The protocol object offers each turn as Game.legal_actions' whole-turn
# plays (Draw, one new meld, one card added to a table meld) plus BuildTurn, which builds any other turn step
# by step: lift table melds apart (in table order), form new melds from the lifted cards and the hand, end the
# turn (Game.apply checks it as one Lay) or reset to the start of the turn. Every legal turn is reachable:
# lift every table meld, then form the final table meld by meld (which of two identical cards from the same
# place, and the order of a group's cards, are fixed: they change nothing).


@dataclass(frozen=True)
class BuildTurn:
    """Build this turn step by step (Lift, Form, EndTurn, ResetTurn) instead of one of the whole-turn
    plays."""


@dataclass(frozen=True)
class Lift:
    """Take table meld `index` apart: its cards lie loose and must be back on the table, in valid melds, when
    the turn ends. Only before the turn's first Form, and in table order (index >= the last lifted index)."""

    index: int


@dataclass(frozen=True)
class Form:
    """Put a new valid meld on the table (after the others) from loose table cards and the hand."""

    meld: Meld


@dataclass(frozen=True)
class EndTurn:
    """End the built turn with the table as it stands (legal when no card is loose and the lay is legal)."""


@dataclass(frozen=True)
class ResetTurn:
    """Undo every step of the built turn: back to the start of the turn (the whole-turn plays again)."""


Step = Draw | Lay | BuildTurn | Lift | Form | EndTurn | ResetTurn


@dataclass(frozen=True)
class TurnState:
    """A round (the reference State at the start of the current turn) and the turn being built, if any."""

    round: State
    building: bool = False
    table: tuple[Meld, ...] = ()
    """The table as it stands within the built turn."""
    loose: tuple[int, ...] = ()
    """Lifted table cards not yet formed into a meld again, sorted."""
    hand: tuple[int, ...] = ()
    """The hand of the seat to move as it stands within the built turn."""
    lift_from: int = 0
    """The lowest table index a Lift may take (-1: a meld was formed, no more lifting)."""


def _start(state: State) -> TurnState:
    return TurnState(state)


@dataclass
class TurnGame:
    """Rummy Cards through the one Game protocol (`new_game`): the reference rules of `game`, each turn
    offered as whole-turn plays or built step by step (see the module's protocol section). Chance: the
    shuffle, from the numpy Generator given to `new_state`."""

    game: Game

    @property
    def players(self) -> int:
        """How many seats play."""
        return self.game.players

    def new_state(self, rng: np.random.Generator) -> TurnState:
        """A shuffled deck dealt out (every card order from `rng`)."""
        return _start(self.game.new_round(rng))

    def to_move(self, state: TurnState) -> int | None:
        """The seat to move; None once the round is over."""
        return None if self.game.is_over(state.round) else state.round.current

    def legal_actions(self, state: TurnState) -> list[Step]:
        """Outside a built turn: Game.legal_actions (Draw under the draw rule, the simple lays), then
        BuildTurn. In a built turn: ResetTurn, EndTurn (when legal), Lift (before the first Form), every
        Form."""
        g = self.game
        if g.is_over(state.round):
            return []
        if not state.building:
            return [*g.legal_actions(state.round), BuildTurn()]
        out: list[Step] = [ResetTurn()]
        if not state.loose and state.table != state.round.table:
            try:
                g.check_lay(state.round, state.table)
                out.append(EndTurn())
            except RuleViolation:
                pass
        if state.lift_from >= 0:
            out += [Lift(i) for i in range(state.lift_from, len(state.table))]
        out += [Form(m) for m in formable_melds(g.deck, state.loose, state.hand)]
        return out

    def apply(self, state: TurnState, action: Step) -> TurnState:
        """The state after `action`; RuleViolation if it is not legal now."""
        g = self.game
        if g.is_over(state.round):
            raise RuleViolation("the round is over")
        if isinstance(action, (Draw, Lay)):
            if state.building:
                raise RuleViolation("a built turn ends with EndTurn (or ResetTurn first)")
            return _start(g.apply(state.round, action))
        if isinstance(action, BuildTurn):
            if state.building:
                raise RuleViolation("the turn is already being built")
            return TurnState(state.round, True, state.round.table, (), state.round.hands[state.round.current])
        if not state.building:
            raise RuleViolation(f"{type(action).__name__} only inside a built turn (BuildTurn first)")
        if isinstance(action, ResetTurn):
            return _start(state.round)
        if isinstance(action, EndTurn):
            if state.loose:
                raise RuleViolation(
                    f"{len(state.loose)} lifted card(s) are not on the table again "
                    f"(first {g.deck.name(state.loose[0])})"
                )
            return _start(g.apply(state.round, Lay(state.table)))
        if isinstance(action, Lift):
            if state.lift_from < 0:
                raise RuleViolation("no lifting after a meld was formed this turn")
            if not state.lift_from <= action.index < len(state.table):
                raise RuleViolation(
                    f"lift {action.index}: expected a table index in "
                    f"{state.lift_from}..{len(state.table) - 1}"
                )
            m = state.table[action.index]
            return TurnState(
                state.round,
                True,
                state.table[: action.index] + state.table[action.index + 1 :],
                tuple(sorted(state.loose + m.cards)),
                state.hand,
                action.index,
            )
        if isinstance(action, Form):
            meld_roles(g.deck, action.meld)  # RuleViolation naming what is wrong with the meld
            cards = action.meld.cards
            loose, hand = set(state.loose), set(state.hand)
            if len(set(cards)) != len(cards):
                raise RuleViolation("a meld holds each card once")
            for c in cards:
                if c not in loose and c not in hand:
                    raise RuleViolation(
                        f"card {g.deck.name(c)} is neither loose on the table nor in the hand"
                    )
            return TurnState(
                state.round,
                True,
                state.table + (action.meld,),
                tuple(c for c in state.loose if c not in cards),
                tuple(c for c in state.hand if c not in cards),
                -1,
            )
        raise RuleViolation(f"not a Rummy Cards action: {action!r}")

    def outcome(self, state: TurnState) -> Outcome:
        """The finished round's Outcome (RuleViolation before the end)."""
        return self.game.outcome(state.round)


def formable_melds(deck: Deck, loose: Sequence[int], hand: Sequence[int]) -> list[Meld]:
    """Every valid meld of loose table cards and hand cards, one per choice that changes anything: per card
    kind the lowest loose and the lowest hand card of it; each loose joker by itself (its set kind matters),
    hand jokers lowest first. Runs (colour, first, last place, per place a card or a joker), then groups
    (number, colour subset, its cards' sources, then jokers: loose jokers first, ascending ids)."""
    C, N = len(deck.colours), deck.n_numbers
    reals: dict[int, list[int]] = {}
    for src in (loose, hand):
        first: dict[int, int] = {}
        for c in sorted(src):
            if not deck.is_joker(c):
                first.setdefault(deck.kind(c), c)
        for k, c in first.items():
            reals.setdefault(k, []).append(c)
    loose_j = sorted(c for c in loose if deck.is_joker(c))
    hand_j = sorted(c for c in hand if deck.is_joker(c))
    out: list[Meld] = []

    def runs(kinds: list[int], i: int, cards: list[int], lj: tuple[int, ...], hj: int, real: bool) -> None:
        if i == len(kinds):
            if real:
                js = iter(hand_j)
                out.append(Meld("run", tuple(next(js) if c < 0 else c for c in cards)))
            return
        for c in reals.get(kinds[i], ()):
            runs(kinds, i + 1, cards + [c], lj, hj, True)
        for j in lj:
            runs(kinds, i + 1, cards + [j], tuple(x for x in lj if x != j), hj, real)
        if hj < len(hand_j):
            runs(kinds, i + 1, cards + [-1], lj, hj + 1, real)

    for col in range(C):
        for s in range(N):
            for e in range(s + MELD_MIN - 1, N):
                kinds = [col * N + v for v in range(s, e + 1)]
                if sum(k not in reals for k in kinds) > len(loose_j) + len(hand_j):
                    continue
                runs(kinds, 0, [], tuple(loose_j), 0, False)
    joker_sets = [tuple(x for b, x in enumerate(loose_j) if (m >> b) & 1) for m in range(1 << len(loose_j))]
    for v in range(N):
        options: list[list[int]] = [reals.get(col * N + v, []) for col in range(C)]
        for mask in range(1, 1 << C):
            cols = [col for col in range(C) if (mask >> col) & 1]
            if any(not options[col] for col in cols):
                continue
            picks: list[tuple[int, ...]] = [()]
            for col in cols:
                picks = [p + (c,) for p in picks for c in options[col]]
            for lj in joker_sets:
                for k in range(len(hand_j) + 1):
                    n = len(cols) + len(lj) + k
                    if n < MELD_MIN or n > C:
                        continue
                    out += [Meld("group", p + lj + tuple(hand_j[:k])) for p in picks]
    return out


def new_game(spec: RummyCardsGame, players: int) -> TurnGame:
    """The reference rules of `spec` for `players` seats behind the one Game protocol (RuleViolation for a
    player count outside spec.players)."""
    return TurnGame(Game(spec, players))
