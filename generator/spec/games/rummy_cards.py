"""The `game:` section of a Rummy Cards kit: colours and symbols, numbers, copies, jokers, the declared deck
total, deal size, initial meld threshold, joker penalty, player counts, the score pad and balance tolerances.
Shapes only; cross-field legality (deck arithmetic, distinct colours, pad columns) is
`generator.games.rummy_cards.legal_problems`."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictInt

from generator.spec.base import Bound, SpecModel

Symbol = Literal["sun", "moon", "star", "heart", "drop", "leaf", "diamond", "club"]


class RummyColour(SpecModel):
    """One card colour with a symbol printed beside the number (colour-blind safe)."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="Identifier used by catalogs and transcripts.")
    colour: str = Field(pattern=r"^#[0-9a-fA-F]{6}$", description="Print colour as \"#rrggbb\".")
    symbol: Symbol = Field(description="Symbol printed with the colour; distinct per colour.")


class RummyNumbers(SpecModel):
    """The card numbers of every colour, inclusive; runs never wrap from max to min."""

    min: StrictInt = Field(ge=1, le=99, description="Smallest card number (its value in points).")
    max: StrictInt = Field(ge=1, le=99, description="Largest card number (its value in points).")


class RummyPlayers(SpecModel):
    """Supported player counts, inclusive."""

    min: StrictInt = Field(ge=2, le=8, description="Fewest players.")
    max: StrictInt = Field(ge=2, le=8, description="Most players.")


class RummyScorePad(SpecModel):
    """The printed score pad: one row per round, per player a + and a - column."""

    players: StrictInt = Field(ge=2, le=8, description="Player column pairs on the pad; must equal players.max.")
    rounds: StrictInt = Field(ge=1, le=40, description="Round rows on one pad sheet.")


class RummyBalance(SpecModel):
    """Self-play settings and the tolerances `pnpkit check` holds the measured figures to."""

    games: StrictInt = Field(ge=1, description="Rounds played per player count unless the CLI overrides.")
    confidence: float = Field(0.99, gt=0.5, lt=1, description="Family-wise confidence of the verdicts: the chance that every HOLDS / FAILS verdict of the kit is right together (all tolerances, all looks); 0.99 = at most 1 false alarm in 100 checks.")
    max_games: StrictInt | None = Field(None, ge=1, description="Most games per setting the check plays while a tolerance is UNDECIDED (batches double from `games`; default 8 x games).")
    meld_thresholds: list[StrictInt] = Field(min_length=1, description="Initial-meld thresholds whose 'turns until possible' are measured (each <= initial_meld, measured before opening).")
    turns_to_initial_meld: Bound = Field(description="Mean own turns until the spec's initial meld is possible, every player count.")
    seat_win_share: Bound = Field(description="Each seat's round-win share divided by the fair share 1/players.")
    round_length: Bound = Field(description="Mean turns per round (all players' turns), every player count.")
    exhausted_share: Bound = Field(description="Share of rounds ending with an exhausted draw pile, every player count.")
    winner_margin: Bound = Field(description="Mean round score of the winner minus that of the best loser, in points.")
    max_turns: StrictInt = Field(ge=10, description="Safety cap on turns per round in self-play (a round reaching it is scored as exhausted).")


class RummyCardsGame(SpecModel):
    """Rules and components of Rummy Cards (a rummy with number cards), after seed 004."""

    kind: Literal["rummy_cards"] = Field(description="Game discriminator.")
    colours: list[RummyColour] = Field(min_length=2, description="Card colours in print and sort order.")
    numbers: RummyNumbers = Field(description="Card numbers per colour.")
    copies: StrictInt = Field(ge=1, le=4, description="Copies of every colour-number card.")
    jokers: StrictInt = Field(ge=0, le=8, description="Jokers in the deck.")
    total_cards: StrictInt = Field(ge=1, description="Declared deck size; must equal colours x numbers x copies + jokers.")
    hand_size: StrictInt = Field(ge=1, le=40, description="Cards dealt to each player (the seed is silent; 14 as in the classic tile game).")
    initial_meld: StrictInt = Field(ge=0, description="Points the first lay must reach from own cards (jokers count as the card they stand for).")
    joker_penalty: StrictInt = Field(ge=0, description="Points a joker left in hand costs at round end.")
    players: RummyPlayers = Field(description="Supported player counts.")
    score_pad: RummyScorePad = Field(description="Printed score pad.")
    balance: RummyBalance = Field(description="Self-play settings and tolerances.")
