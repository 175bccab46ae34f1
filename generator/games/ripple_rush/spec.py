"""The `game:` section of a Ripple Rush kit: suits, number range, sheet rows and bonuses, deck, goals,
balance tolerances and generated sheet variants. Shapes only; cross-field legality is
`generator.games.ripple_rush.legal_problems`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal, Union

from pydantic import Field, StrictInt, StrictStr, field_validator

from generator.spec.base import (
    MAX_BUILD_GAMES,
    MAX_GAMES,
    MAX_PIECES,
    MAX_POINTS,
    MAX_SEED,
    MAX_SMALL,
    Bound,
    HexColour,
    SequentialCheck,
    SpecId,
    SpecModel,
)

Symbol = Literal["circle", "square", "hexagon", "triangle", "diamond", "star"]
PolicyName = Literal["random", "greedy", "strong"]


class Suit(SpecModel):
    """One suit: a colour AND a symbol (colour-blind safe); its order is the column order on the sheet."""

    id: SpecId = Field(description="Identifier used by bonuses and catalogs.")
    colour: HexColour = Field(description='Print colour as "#rrggbb".')
    symbol: Symbol = Field(description="Symbol printed with the colour.")


class NumberRange(SpecModel):
    """The numbers on the cards of every suit, inclusive."""

    min: StrictInt = Field(ge=1, le=999, description="Smallest card number.")
    max: StrictInt = Field(ge=1, le=999, description="Largest card number.")


class PlayerRange(SpecModel):
    """Supported player counts, inclusive."""

    min: StrictInt = Field(ge=1, le=16, description="Fewest players (1 = solo).")
    max: StrictInt = Field(ge=1, le=16, description="Most players.")


class Goals(SpecModel):
    """Advanced-game goal cards: one per sheet row; some are revealed at set-up."""

    points: StrictInt = Field(
        ge=0, le=MAX_POINTS, description="Points for each revealed goal whose row is completely filled."
    )
    revealed: StrictInt = Field(
        ge=0, le=MAX_SMALL, description="Goal cards revealed at set-up (0 = basic game)."
    )


class RippleRushBalance(SequentialCheck):
    """Self-play settings and the tolerances `pnpkit check` holds the measured figures to."""

    games: StrictInt = Field(
        ge=1, le=MAX_GAMES, description="Games per setting (player count x policy) unless the CLI overrides."
    )
    policies: list[PolicyName] = Field(
        min_length=1,
        description="Policies played in self-play, each at every player count; random and greedy or strong "
        "among them (skill_gap compares the two).",
    )
    reference_policy: PolicyName = Field(
        description="Policy whose figures the tolerances below are checked against."
    )
    goal_completion: Bound = Field(
        description="Share of player-games completing each row (= each goal card), every player count."
    )
    goal_spread: Bound = Field(
        description="Completion rate of the easiest row divided by that of the hardest."
    )
    unplaceable_share: Bound = Field(
        description="Share of drawn cards that could not be written by their drawer."
    )
    tie_rate: Bound = Field(description="Share of multiplayer games ending in a shared win.")
    seat_win_share: Bound = Field(description="Each seat's win share divided by the fair share 1/players.")
    skill_gap: Bound = Field(
        description="Mean score of the strongest policy minus that of random, in points."
    )

    @field_validator("policies")
    @classmethod
    def _distinct(cls, v: list[str]) -> list[str]:
        if len(set(v)) != len(v):
            raise ValueError(f"policies must be distinct, got {v}")
        return v


class RippleRushVariants(SpecModel):
    """Generated sheet variants (shuffled row bonuses), screened by expected score against the default
    sheet."""

    count: StrictInt = Field(
        ge=0, le=MAX_SMALL, description="How many accepted variants to generate (0 = none)."
    )
    tolerance: float = Field(
        gt=0, lt=1, description="Allowed relative difference of expected score from the default sheet."
    )
    shuffle: Literal["bonuses"] = Field(description="What is shuffled per sheet.")
    seed_offset: StrictInt = Field(
        ge=0, le=MAX_SEED, description="Added to the run seed so variant draws differ from balance runs."
    )
    games: StrictInt = Field(
        ge=1, le=MAX_BUILD_GAMES, description="Games used to measure each variant's expected score."
    )
    players: StrictInt = Field(ge=1, le=8, description="Player count at which expected scores are measured.")
    max_attempts: StrictInt = Field(
        ge=1, le=MAX_PIECES, description="Candidate sheets tried at most, accepted or not."
    )


Bonus = Union[StrictInt, StrictStr]


class RippleRushRules(SpecModel):
    """House-rule switches: readings of the rulebook players could dispute. Each default is the seed's most
    literal reading; `pnpkit check --report` shows what flipping each one does to balance."""

    x_bonus_numbers: Literal["card_range", "any_integer"] = Field(
        "card_range",
        description="What a coloured X bonus lets you write (the seed: "
        "「その色の列の任意のスペースに任意の数字を"
        "書き込むことができます」, 'any number'). card_range (default, the literal reading for a deck "
        "numbered numbers.min..numbers.max): any whole number of the cards' range that fits the "
        "column. any_integer: any whole number that fits, also below or above the cards' range "
        "(e.g. -1 or 26), so an X can fill a cell below the column's smallest card or above its "
        "largest.",
    )
    announced_order: Literal["any", "seat"] = Field(
        "any",
        description="In which order a player takes the announced cards of the others (the seed: "
        "「全員が他のプレイ"
        "ヤーが書き込めなかった数字を書き込みます(任意)」, no order named). any (default, the literal "
        "reading): each player picks which announced card to write next, or stops. seat: each "
        "announced card is offered in the announcers' seat order, to take or decline.",
    )


class RippleRushGame(SpecModel):
    """Ripple Rush rules parameters, validated from the `game:` section of kit.yaml."""

    kind: Literal["ripple_rush"] = Field(description="Discriminator: this section describes Ripple Rush.")
    suits: list[Suit] = Field(min_length=1, max_length=8, description="Suits in column order, left to right.")
    numbers: NumberRange = Field(description="Card numbers of every suit (deck = suits x numbers).")
    rows: StrictInt = Field(
        ge=1, le=16, description="Rows of the sheet; numbers ascend from the bottom of a column to its top."
    )
    bonuses: list[Annotated[Bonus, Field()]] = Field(
        description="Row bonus, top row first: a number (write it in any column) or a suit id (write any "
        "number in that column)."
    )
    cards_per_player: StrictInt = Field(
        ge=1, le=MAX_SMALL, description="Cards in the deck per player = rounds played."
    )
    players: PlayerRange = Field(description="Supported player counts.")
    goals: Goals = Field(description="Advanced-game goal cards.")
    rules: RippleRushRules = Field(
        default_factory=RippleRushRules,
        description="House-rule switches (disputed readings of the rulebook).",
    )
    balance: RippleRushBalance = Field(description="Balance self-play settings and tolerances.")
    variants: RippleRushVariants = Field(description="Generated sheet variants for variety or tournaments.")


def players(spec: RippleRushGame) -> Sequence[int]:
    """The player counts of a kit's game section, ascending (the plugin record's `players`)."""
    return range(spec.players.min, spec.players.max + 1)
