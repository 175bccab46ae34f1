"""The `game:` section of a Pig kit: the die, the target, the seats and the balance tolerances (shapes only;
cross-field legality is `pnpkit_pig.legal`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field, StrictInt

from generator.spec.base import MAX_GAMES, MAX_POINTS, MAX_TURNS, Bound, SequentialCheck, SpecModel


class PlayerRange(SpecModel):
    """How many people may play."""

    min: StrictInt = Field(ge=1, le=8, description="Fewest players.")
    max: StrictInt = Field(ge=1, le=8, description="Most players.")


class PigBalance(SequentialCheck):
    """Self-play settings and the tolerances `pnpkit check` judges."""

    games: StrictInt = Field(
        ge=1, le=MAX_GAMES, description="First batch of self-play games per player count."
    )
    hold_at: StrictInt = Field(
        ge=1, le=MAX_POINTS, description="Policy of every seat: hold once the turn total reaches this."
    )
    seat_win_share_gap: Bound = Field(description="Largest distance of a seat's win share from 1/players.")
    game_rounds: Bound = Field(description="Mean game length in rounds (a round = every seat's turn).")


class PigGame(SpecModel):
    """A Pig kit's game section."""

    kind: Literal["pig"] = Field(description="The game: Pig.")
    die_sides: StrictInt = Field(6, ge=2, le=20, description="Faces of the die, numbered 1..die_sides.")
    bust_face: StrictInt = Field(1, ge=1, le=20, description="The face that ends a turn and loses its total.")
    target: StrictInt = Field(
        ge=1, le=MAX_POINTS, description="The first player to bank this many points wins."
    )
    players: PlayerRange = Field(description="Player counts the kit is for.")
    turn_limit: StrictInt = Field(
        200, ge=1, le=MAX_TURNS, description="Safety stop: after this many turns the highest score wins."
    )
    sheet_rows: StrictInt = Field(20, ge=4, le=40, description="Turn lines on the printed score sheet.")
    balance: PigBalance = Field(description="Self-play settings and tolerances.")


def players(spec: PigGame) -> Sequence[int]:
    """The player counts of a kit's game section, ascending (the plugin record's `players`)."""
    return range(spec.players.min, spec.players.max + 1)
