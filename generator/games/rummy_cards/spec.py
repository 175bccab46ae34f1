"""The `game:` section of a Rummy Cards kit: colours and symbols, numbers, copies, jokers, the declared deck
total, deal size, initial meld threshold, joker penalty, player counts, the score pad and balance tolerances.
Shapes only; cross-field legality (deck arithmetic, distinct colours, pad columns) is
`generator.games.rummy_cards.legal_problems`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field, StrictInt

from generator.spec.base import (
    MAX_GAMES,
    MAX_PIECES,
    MAX_POINTS,
    MAX_TURNS,
    Bound,
    HexColour,
    SequentialCheck,
    SpecId,
    SpecModel,
)

Symbol = Literal["sun", "moon", "star", "heart", "drop", "leaf", "diamond", "club"]


class RummyColour(SpecModel):
    """One card colour with a symbol printed beside the number (colour-blind safe)."""

    id: SpecId = Field(description="Identifier used by catalogs and transcripts.")
    colour: HexColour = Field(description='Print colour as "#rrggbb".')
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

    players: StrictInt = Field(
        ge=2, le=8, description="Player column pairs on the pad; must equal players.max."
    )
    rounds: StrictInt = Field(ge=1, le=40, description="Round rows on one pad sheet.")


class RummyBalance(SequentialCheck):
    """Self-play settings and the tolerances `pnpkit check` holds the measured figures to."""

    games: StrictInt = Field(
        ge=1, le=MAX_GAMES, description="Rounds played per player count unless the CLI overrides."
    )
    meld_thresholds: list[StrictInt] = Field(
        min_length=1,
        description="Initial-meld thresholds whose 'turns until possible' are measured before opening; "
        "initial_meld itself is always measured, one above it cannot be (the report says so).",
    )
    turns_to_initial_meld: Bound = Field(
        description="Mean own turns until the spec's initial meld is possible, every player count."
    )
    seat_win_share: Bound = Field(
        description="Each seat's round-win share divided by the fair share 1/players."
    )
    round_length: Bound = Field(description="Mean turns per round (all players' turns), every player count.")
    exhausted_share: Bound = Field(
        description="Share of rounds ending with an exhausted draw pile, every player count."
    )
    winner_margin: Bound = Field(
        description="Mean round score of the winner minus that of the best loser, in points."
    )
    max_turns: StrictInt = Field(
        ge=10,
        le=MAX_TURNS,
        description="Safety cap on turns per round in self-play (a round reaching it is scored as "
        "exhausted).",
    )


class RummyRules(SpecModel):
    """House-rule switches where a player could read seed 004 two ways; defaults are its most literal
    reading."""

    draw: Literal["only_when_unable", "by_choice"] = Field(
        "only_when_unable",
        description="When a player may draw. only_when_unable (the seed: "
        "「カードを置けない場合は、いずれかの山から"
        "裏向きのカードを引かなければなりません」): a player who can lay may not draw instead; by_choice: "
        "a player may always draw instead of laying. 'Can lay' is any legal turn that lays a card (an "
        "opening spread over several melds, a rearrangement, a joker retrieval), decided by the exact "
        "meld finder; the meld finder lays whenever it can either way.",
    )
    opening_turn: Literal["may_add_after_opening", "own_melds_only"] = Field(
        "may_add_after_opening",
        description="The turn of the initial meld. may_add_after_opening (the seed: "
        "「プレイヤーは、最初の40点を"
        "出した後、テーブル上の既存の組み合わせにカードを追加することができます」, after the first 40 "
        "points are out, with no word of a next turn; its 「次の手番を待って」 is about the cards that "
        "complete the total, which are played from the next turn because they were just drawn): once "
        "the initial melds are down (new melds from the hand, worth the threshold) the player may in "
        "the same turn add to and rearrange the other table melds (joker retrieval: "
        "opening_retrieval); own_melds_only (the classic tile game): only new melds from the hand that "
        "turn, the table from the next turn.",
    )
    opening_retrieval: Literal["after_opening_melds", "next_turn"] = Field(
        "after_opening_melds",
        description="Joker retrieval on the turn of the initial meld (with opening_turn "
        "may_add_after_opening; "
        "own_melds_only touches no table meld that turn). after_opening_melds (the seed forbids it "
        "only before the first set is down: 「プレイヤーは、最初のセットを置く前にジョーカーを回収する"
        "ことはできません」): once the initial melds are down the player may retrieve a table joker in "
        "the same turn, as an opened player (the exact card from the hand, the joker into a new set "
        "with 2+ hand cards; neither counts towards the initial meld); next_turn: not before the next "
        "turn (every table joker stays in a set of its kind).",
    )
    exhausted_end: Literal["last_card_drawn", "all_pass"] = Field(
        "last_card_drawn",
        description="When a round nobody wins by going out ends. last_card_drawn (the seed: "
        "「どのプレイヤーも"
        "「Rummikub」をする前に、ポーチの中のすべてのタイルが使用されているという稀なケースでは」, the "
        "case where every card of the pile has been used): at the end of the turn that draws the "
        "pile's last card; all_pass (the classic tile game): play goes on without drawing, a player "
        "who does not lay passes, and the round ends when every player has passed in a row.",
    )
    exhausted_winner: Literal["fewest_cards", "lowest_total"] = Field(
        "fewest_cards",
        description="Who wins a round whose draw pile ran out. fewest_cards (the seed: "
        "「自分のラックの数が最も少ない"
        "プレイヤー」, the fewest cards on the rack); lowest_total: the lowest card value in hand. "
        "Either way each loser scores -(own total - winner's total) (exhausted_below_winner).",
    )
    exhausted_tie: Literal["share", "tie_break"] = Field(
        "share",
        description="A tie for the exhausted-pile win. share (the seed names no tie-break): every tied "
        "player "
        "wins (how the losers pay them: exhausted_tie_pay, exhausted_tie_remainder); tie_break: the "
        "other measure (lowest total / fewest cards), then the lower seat.",
    )
    exhausted_tie_pay: Literal["lowest_winner", "each_winner"] = Field(
        "lowest_winner",
        description="How losers pay tied winners holding different totals (exhausted_tie share). "
        "lowest_winner "
        "(the seed's sentence once per loser: 「負けたプレイヤーは、自分のタイルの合計値を足して、そこから"
        "勝ったプレイヤーの合計値を引きます」, the winning total being the lowest among the tied "
        "winners): each loser pays own total - that total once and the winners split the sum "
        "(exhausted_tie_remainder); each_winner: each loser pays every tied winner own total - that "
        "winner's total, as if each had won alone (nothing to split).",
    )
    exhausted_tie_remainder: Literal["seat_order", "lower_total_first"] = Field(
        "seat_order",
        description="A sum the tied winners cannot split evenly (exhausted_tie share, exhausted_tie_pay "
        "lowest_winner; the seed names no split): the remainder, fewer points than winners, goes one "
        "point each to the tied winners in seat_order (turn order from the round's first player) or "
        "lower_total_first (the lower hand total first, then turn order); the pad's plus still equals "
        "its minus.",
    )
    exhausted_below_winner: Literal["scores_zero", "scores_plus"] = Field(
        "scores_zero",
        description="A loser whose hand total is below the winner's (possible with exhausted_winner "
        "fewest_cards). scores_zero (the seed: 「この結果は、マイナス分として採点されます」 and "
        "「これらの合計は、プラス量として勝者に得点されます」, the loser's result is a minus and the "
        "winner's sum a plus; 「勝者以外のすべてのプレイヤーは、カードの点数の合計をマイナスポイントと"
        "して受け取る」): the loser scores 0 and pays nothing; scores_plus: the loser scores the "
        "difference as plus points and the winner's plus shrinks by as much (it may turn minus).",
    )
    rounds: StrictInt = Field(
        12,
        ge=1,
        le=40,
        description="Rounds in a match (a figure, not a switch); running totals on the score pad, the "
        "highest "
        "total wins the match (the seed: 「試合終了後、全員が自分のプラス点を加算し、マイナス点を"
        "減算します」).",
    )


class RummyCardsGame(SpecModel):
    """Rules and components of Rummy Cards (a rummy with number cards), after seed 004."""

    kind: Literal["rummy_cards"] = Field(description="Game discriminator.")
    colours: list[RummyColour] = Field(min_length=2, description="Card colours in print and sort order.")
    numbers: RummyNumbers = Field(description="Card numbers per colour.")
    copies: StrictInt = Field(ge=1, le=4, description="Copies of every colour-number card.")
    jokers: StrictInt = Field(ge=0, le=8, description="Jokers in the deck.")
    total_cards: StrictInt = Field(
        ge=1, le=MAX_PIECES, description="Declared deck size; must equal colours x numbers x copies + jokers."
    )
    hand_size: StrictInt = Field(
        ge=1,
        le=40,
        description="Cards dealt to each player (the seed is silent; 14 as in the classic tile game).",
    )
    initial_meld: StrictInt = Field(
        ge=0,
        le=MAX_POINTS,
        description="Points the first lay must reach from own cards (jokers count as the card they stand "
        "for).",
    )
    joker_penalty: StrictInt = Field(
        ge=0, le=MAX_POINTS, description="Points a joker left in hand costs at round end."
    )
    players: RummyPlayers = Field(description="Supported player counts.")
    score_pad: RummyScorePad = Field(description="Printed score pad.")
    balance: RummyBalance = Field(description="Self-play settings and tolerances.")
    rules: RummyRules = Field(
        default_factory=RummyRules, description="House-rule switches and the match length."
    )


def measured_thresholds(spec: RummyCardsGame) -> tuple[int, ...]:
    """The opening thresholds whose turns until possible self-play measures: those of balance.meld_thresholds
    at or below initial_meld, and initial_meld, once each, lowest first. turns_to_initial_meld is judged at
    initial_meld, so a spec whose list leaves it out (a raised initial meld, or a tune over it) still has that
    tolerance judged. A threshold above it cannot be measured: a player opens at initial_meld, before
    reaching it (`unmeasured_thresholds`; the report says so)."""
    return tuple(
        sorted({*(t for t in spec.balance.meld_thresholds if t <= spec.initial_meld), spec.initial_meld})
    )


def unmeasured_thresholds(spec: RummyCardsGame) -> list[int]:
    """The thresholds of balance.meld_thresholds above initial_meld, which self-play cannot measure."""
    return sorted({t for t in spec.balance.meld_thresholds if t > spec.initial_meld})


def players(spec: RummyCardsGame) -> Sequence[int]:
    """The player counts of a kit's game section, ascending (the plugin record's `players`)."""
    return range(spec.players.min, spec.players.max + 1)
