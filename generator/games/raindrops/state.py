"""Raindrops' rule data: the rule figures (`Params`), the actions a seat takes, the state of a game
in progress, and a game's score and outcome (`decide`: winners and tie-break)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Union

import numpy as np

SPECIALS = ("flip", "swap", "top")
"""Slots of the special-action area, left to right (a fact of the player board)."""
MARKER_START = 2
"""Index in SPECIALS (from 0) of the slot markers start on: the 3rd slot, "top" (set-up step 6 of the
rulebook: 「各プレイヤーは自分のマーカーを表向きにして、プレイヤーボードのスペシャルアクションエリアの
3番目のスロットに置きます。」). The kit prints it counted from 1 (figures.rule_figures: action_start_slot =
3)."""

Cell = tuple[int, int]


@dataclass(frozen=True)
class Params:
    """The rule figures a game needs (from `game.window`, `game.bonus_tiles.offer` and `game.rules`)."""

    columns: int
    tiles_per_column: int
    cards_dealt: int
    cards_kept: int
    display: int
    reserve_slots: int
    bonus_max_tiles: int
    bonus_offer: int
    end_cards: int
    end_bag_empties: int
    thunder_draw: tuple[int, ...]
    bag_empties: str = "last_tile_drawn"
    """House rule (see `game.rules.bag_empties`): "last_tile_drawn" or "tile_needed"."""
    window_refill: str = "drop_step"
    """House rule: "drop_step" (the dropping player's turn refills the window) or "next_turn"."""
    final_last_turn_card: str = "usable"
    """House rule: "usable" (the final placement may use a card taken in the last turn) or "not_usable"."""
    final_clouds: str = "earned"
    """House rule: "earned" (cards completed in the final placement earn cloud tokens) or "not_earned"."""
    bonus_per_tile: str = "one_half"
    """House rule: "one_half" (one bonus tile over a raindrop tile) or "both_halves"."""
    bonus_refill: str = "by_choice"
    """House rule: "by_choice" (the player may refill the bonus offer) or "always"."""

    @property
    def rows(self) -> int:
        """Symbol rows of the window."""
        return 2 * self.tiles_per_column

    @classmethod
    def from_spec(cls, spec: Any) -> Params:
        """Read the figures from a validated `RaindropsGame`."""
        r = spec.rules
        return cls(
            columns=spec.window.columns,
            tiles_per_column=spec.window.tiles_per_column,
            cards_dealt=r.cards_dealt,
            cards_kept=r.cards_kept,
            display=r.display,
            reserve_slots=r.reserve_slots,
            bonus_max_tiles=r.bonus_max_tiles,
            bonus_offer=spec.bonus_tiles.offer,
            end_cards=r.end_cards,
            end_bag_empties=r.end_bag_empties,
            thunder_draw=tuple(r.thunder_draw),
            bag_empties=r.bag_empties,
            window_refill=r.window_refill,
            final_last_turn_card=r.final_last_turn_card,
            final_clouds=r.final_clouds,
            bonus_per_tile=r.bonus_per_tile,
            bonus_refill=r.bonus_refill,
        )


# ----------------------------------------------------------------------------------------------- actions
@dataclass(frozen=True)
class KeepCards:
    """Set-up: put the dealt card with this id into the display, keep the others."""

    to_display: int


@dataclass(frozen=True)
class Special:
    """Move the marker to `kind` and do it: flip (col, idx); swap (col, idx) with (col+1, idx); top (col,
    idx)."""

    kind: str
    col: int
    idx: int


@dataclass(frozen=True)
class NoSpecial:
    """Skip the special action."""


@dataclass(frozen=True)
class Drop:
    """Take the tiles under a path of symbol cells, top row first."""

    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class KeepThunder:
    """Keep this drawn thunder token; the other goes under the stack."""

    token: int


@dataclass(frozen=True)
class TakeBonus:
    """Take this face-up bonus tile."""

    bonus: int


@dataclass(frozen=True)
class Place:
    """Lay raindrop tile `tile` on held card `slot`: half a on cells[0], half b on cells[1]; optional bonus
    tiles laid on half a / half b first to change its colour."""

    tile: int
    slot: int
    cells: tuple[Cell, Cell]
    over_a: int | None = None
    over_b: int | None = None


@dataclass(frozen=True)
class PlaceBonus:
    """Lay bonus tile `bonus` directly on one drop of held card `slot`."""

    bonus: int
    slot: int
    cell: Cell


@dataclass(frozen=True)
class RefillBonus:
    """`bonus_refill: by_choice`: refill the bonus offer from the stack before taking one (True) or not."""

    refill: bool


@dataclass(frozen=True)
class TakeCard:
    """After completing a card: take this display card, or the deck's top card when None."""

    card: int | None


@dataclass(frozen=True)
class EndPlacement:
    """Stop placing; keep these raindrop tiles in reserve, discard the others taken or held."""

    keep: tuple[int, ...]


Action = Union[
    KeepCards,
    Special,
    NoSpecial,
    Drop,
    KeepThunder,
    RefillBonus,
    TakeBonus,
    Place,
    PlaceBonus,
    TakeCard,
    EndPlacement,
]


# ------------------------------------------------------------------------------------------------- state
@dataclass
class Held:
    """A memory card on a player's board and what lies on it."""

    card: int
    covered: dict[Cell, str] = field(default_factory=dict)
    """cell -> "t<tile id>" or "b<bonus id>" (what covers it)."""
    tiles: list[int] = field(default_factory=list)
    bonuses: list[int] = field(default_factory=list)
    fresh: bool = False
    """Taken this turn: not usable until the next turn."""
    since: int = 0
    """The holder's own turn count when the card was taken (0 = dealt at set-up)."""

    def copy(self) -> Held:
        return Held(
            self.card, dict(self.covered), list(self.tiles), list(self.bonuses), self.fresh, self.since
        )


@dataclass
class PlayerState:
    """One player's board."""

    held: list[Held] = field(default_factory=list)
    completed: list[int] = field(default_factory=list)
    reserve: list[int] = field(default_factory=list)
    bonus_reserve: list[int] = field(default_factory=list)
    used_bonuses: list[int] = field(default_factory=list)
    clouds: list[int] = field(default_factory=list)
    thunder: list[int] = field(default_factory=list)
    marker: int = MARKER_START
    dealt: list[int] = field(default_factory=list)
    turns: int = 0
    completed_after: list[int] = field(default_factory=list)
    """Own turns each completed card was held (parallel to `completed`); measures card difficulty in play."""

    def copy(self) -> PlayerState:
        return PlayerState(
            [h.copy() for h in self.held],
            list(self.completed),
            list(self.reserve),
            list(self.bonus_reserve),
            list(self.used_bonuses),
            list(self.clouds),
            list(self.thunder),
            self.marker,
            list(self.dealt),
            self.turns,
            list(self.completed_after),
        )


@dataclass
class State:
    """Everything that changes during a game. Owned by its player loop; `copy()` forks it."""

    players: list[PlayerState]
    columns: list[list[tuple[int, bool]]]
    """Per column, bottom to top: (tile id, flipped)."""
    bag: list[int]
    """Drawn from the end."""
    discard: list[int]
    bonus_stack: list[int]
    bonus_offer: list[int]
    thunder_stack: list[int]
    """Top first."""
    cloud_stacks: dict[str, list[int]]
    deck: list[int]
    """Top first."""
    display: list[int]
    rng: np.random.Generator
    """Every random draw of the game: the bag and stack shuffles, tile orientations, reshuffles."""
    current: int = 0
    phase: str = "setup"
    hand: list[int] = field(default_factory=list)
    drawn_thunder: list[int] = field(default_factory=list)
    taken_count: int = 0
    bag_empties: int = 0
    end_trigger: str | None = None
    """None, "cards" (a 10th card) or "bag" (the bag emptied the last time)."""
    turn: int = 0
    """Turns begun (over all players)."""
    log: list[str] | None = None

    def copy(self) -> State:
        rng = copy.deepcopy(self.rng)  # the fork draws what the original would have drawn
        return State(
            [p.copy() for p in self.players],
            [list(c) for c in self.columns],
            list(self.bag),
            list(self.discard),
            list(self.bonus_stack),
            list(self.bonus_offer),
            list(self.thunder_stack),
            {k: list(v) for k, v in self.cloud_stacks.items()},
            list(self.deck),
            list(self.display),
            rng,
            self.current,
            self.phase,
            list(self.hand),
            list(self.drawn_thunder),
            self.taken_count,
            self.bag_empties,
            self.end_trigger,
            self.turn,
            None if self.log is None else list(self.log),
        )

    def tile_count(self) -> int:
        """Raindrop tiles anywhere: bag, window, discard, hand, reserves and cards (constant)."""
        n = len(self.bag) + sum(len(c) for c in self.columns) + len(self.discard) + len(self.hand)
        for p in self.players:
            n += len(p.reserve) + sum(len(h.tiles) for h in p.held)
        return n


@dataclass(frozen=True)
class Score:
    """One player's score, part by part."""

    cards: int
    """(A) printed points of completed memory cards."""
    bonus: int
    """(B) points on unused bonus tiles + 1 per used bonus tile."""
    clouds: int
    """(C)."""
    thunder: int
    """(D)."""
    incomplete: int
    """(E) tiles on the best incomplete card."""

    @property
    def total(self) -> int:
        """A + B + C + D + E."""
        return self.cards + self.bonus + self.clouds + self.thunder + self.incomplete


@dataclass(frozen=True)
class Outcome:
    """The end of a game: scores by seat part by part, the winning seats and which tie-break decided."""

    parts: tuple[Score, ...]
    winners: tuple[int, ...]
    tie_break: str
    """"total" (one highest total), "cards" (tied total, decided by card points) or "shared"."""
    trigger: str | None
    turns: int

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's total (the Game protocol's scores)."""
        return tuple(s.total for s in self.parts)


def decide(scores: Sequence[Score], trigger: str | None = None, turns: int = 0) -> Outcome:
    """Winners by total; ties broken by card points (A); still tied: shared."""
    best = max(s.total for s in scores)
    top = [i for i, s in enumerate(scores) if s.total == best]
    if len(top) == 1:
        return Outcome(tuple(scores), tuple(top), "total", trigger, turns)
    best_a = max(scores[i].cards for i in top)
    top2 = [i for i in top if scores[i].cards == best_a]
    return Outcome(tuple(scores), tuple(top2), "cards" if len(top2) == 1 else "shared", trigger, turns)
