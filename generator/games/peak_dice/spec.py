"""The `game:` section of a Peak Dice kit: coloured rows, peak lines, miss track, the dice (a die is a list of
faces, a face a colour and a value), player counts, balance tolerances and generated sheet variants.
Shapes only; cross-field legality is `generator.games.peak_dice.legal_problems`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal, Union

from pydantic import Field, StrictFloat, StrictInt, StrictStr

from generator.spec.base import (
    MAX_BUILD_GAMES,
    MAX_GAMES,
    MAX_TURNS,
    Bound,
    HexColour,
    SequentialCheck,
    SpecId,
    SpecModel,
)

Pattern = Literal["stripes", "dots", "cross", "waves", "solid"]
PolicyName = Literal["random", "greedy", "reroll", "planner", "planner_keep"]

WHITE = "white"
"""The colour id of white faces: they count towards every colour's sum."""


class RowColour(SpecModel):
    """One colour = one sheet row (top to bottom in list order), printed with a black-and-white-safe
    pattern."""

    id: SpecId = Field(description="Identifier used by dice faces and catalogs.")
    colour: HexColour = Field(description='Print colour as "#rrggbb".')
    pattern: Pattern = Field(description="Fill pattern that tells the row apart without colour.")
    symbol: StrictStr | None = Field(
        None, max_length=2, description="Optional glyph printed at the row's start."
    )


class Face(SpecModel):
    """One face of a die: its colour (a row colour id or "white") and its value."""

    colour: StrictStr = Field(description='Row colour id, or "white" (counts for every colour).')
    value: StrictInt = Field(ge=0, le=99, description="Number on the face.")


class PlainDie(SpecModel):
    """Compact form: a die whose faces all carry one colour."""

    colour: StrictStr = Field(description='Row colour id, or "white".')
    values: list[Annotated[StrictInt, Field(ge=0, le=99)]] = Field(
        min_length=1, description="Face values, e.g. [1, 2, 3, 4, 5, 6] (0..99, like a face's value)."
    )

    def expanded(self) -> tuple[Face, ...]:
        """The faces this compact die stands for."""
        return tuple(Face(colour=self.colour, value=v) for v in self.values)


class FacedDie(SpecModel):
    """General form: a die whose faces may carry different colours."""

    faces: list[Face] = Field(min_length=1, description="Every face with its own colour and value.")

    def expanded(self) -> tuple[Face, ...]:
        """The faces of the die."""
        return tuple(self.faces)


Die = Union[PlainDie, FacedDie]


class PlayerRange(SpecModel):
    """Supported player counts, inclusive."""

    min: StrictInt = Field(ge=1, le=8, description="Fewest players.")
    max: StrictInt = Field(ge=1, le=8, description="Most players.")


class PeakDiceBalance(SequentialCheck):
    """Self-play settings and the tolerances `pnpkit check` holds the measured figures to."""

    games: StrictInt = Field(
        ge=1, le=MAX_GAMES, description="Games per player count unless `pnpkit check --games` overrides."
    )
    policy: PolicyName = Field(description="Policy every seat plays in the main self-play tables.")
    turn_limit: StrictInt = Field(
        ge=1,
        le=MAX_TURNS,
        description="Self-play safeguard: a game still running after this many turns is stopped and counted.",
    )
    seat_win_share_gap: Bound = Field(
        description="Each seat's win share minus the fair share 1/players (ties split), every player count."
    )
    miss_box_overflow: Bound = Field(
        description="Share of games in which some player needs more miss boxes "
        "than the sheet has (a sheet defect above 0.001)."
    )
    game_turns: Bound = Field(description="Mean game length in turns, every player count.")
    miss_turn_share: Bound = Field(description="Share of turns in which the active player took a miss.")
    score_mean: Bound = Field(description="Mean final score per player, every player count.")
    stalled_share: Bound = Field(
        description="Share of games that ended because no sheet could be completed "
        "any more (or hit turn_limit)."
    )
    reroll_gain: Bound = Field(
        description="Mean score of a re-rolling policy minus its never-re-rolling twin, "
        "in points (3 players, all seats alike): planner minus planner_keep "
        "when the policy is a planner, else reroll minus greedy."
    )


class PeakDiceVariants(SpecModel):
    """Generated sheets whose peak line sits at a different position per row."""

    count: StrictInt = Field(ge=0, le=100, description="How many variants to generate.")
    peak_positions: list[StrictInt] = Field(
        min_length=1, description="Positions the peak line may take (after the n-th circle)."
    )
    players: StrictInt = Field(ge=1, le=8, description="Player count whose expected score is compared.")
    games: StrictInt = Field(
        ge=1, le=MAX_BUILD_GAMES, description="Self-play games per sheet to estimate its expected score."
    )
    score_tolerance: StrictFloat | StrictInt = Field(
        ge=0,
        description="Largest allowed difference between a "
        "variant's expected score and the default "
        "sheet's, in points.",
    )


class PeakDiceRules(SpecModel):
    """House-rule switches: readings of the rulebook players could dispute. Each default is the seed's most
    literal reading; `pnpkit check --report` shows what flipping each one does to balance."""

    step_b: Literal["compulsory", "optional"] = Field(
        "compulsory",
        description="Step B when a colour can be written. compulsory (default, the seed: "
        "「4色のうちいずれか1色"
        "を選び…書き込みます」, a pass only when 「4色すべて選ぶことができない」): the active player "
        "must write one. optional: the active player may write nothing in B even then (and risk "
        "the miss).",
    )
    miss_track_full: Literal["keep_counting", "capped"] = Field(
        "keep_counting",
        description="A miss when every box of the miss track is crossed (the seed is silent on a full "
        "track). "
        "keep_counting (default, the seed: 「ミスするたびに失点が増えます」, every miss costs more): "
        "the player notes it beside the track, the k-th miss costs k. capped: a full track costs "
        "no more; the penalty is at most the boxes' total.",
    )
    final_turn_miss: Literal["skipped", "taken"] = Field(
        "skipped",
        description="When another player's sheet fills up in step C of a turn in which the active player "
        "wrote "
        "nothing. skipped (default, the seed: the game ends 「即座に」, at once, before the miss is "
        "checked): no miss. taken: the active player still crosses a miss box, then the game ends.",
    )
    sheet_full_in_b: Literal["game_ends", "step_c_played"] = Field(
        "game_ends",
        description="When the active player fills the last circle of their sheet in step B. game_ends "
        "(default, "
        "the seed: 「いずれかのプレイヤーが4つの列のスペースをすべて埋めた場合、即座にゲームを終了しま"
        "す」, at once, so nobody plays that turn's step C; a sheet filled in step C ends the game once "
        "the step is over, as every player writes in C together: 「手番プレイヤーを含むすべてのプレイヤー"
        "は…それぞれ選んで」). step_c_played: the turn is finished first, every player still plays "
        "step C, then the game ends.",
    )
    column_score: Literal["second_lowest_distinct", "second_lowest"] = Field(
        "second_lowest_distinct",
        description="The score of a full column. second_lowest_distinct (default, the only reading that fits "
        "the seed's 「2番目に低い数値」 and its example 9, 10, 9, 12 -> 10): equal numbers count once "
        "(all equal: that number). second_lowest: equal numbers count separately (9, 10, 9, 12 -> 9).",
    )


class PeakDiceGame(SpecModel):
    """Peak Dice: roll coloured and white dice, write colour sums rising to a peak and falling after it."""

    kind: Literal["peak_dice"] = Field(description="Game id (discriminator).")
    colours: list[RowColour] = Field(min_length=1, description="Row colours, top to bottom.")
    row_length: StrictInt = Field(ge=1, le=35, description="Circles per row.")
    peak_after: StrictInt | list[StrictInt] = Field(
        description="The thick peak line sits after this circle: one value for every row, or one per row."
    )
    miss_boxes: StrictInt = Field(ge=0, le=30, description="Boxes on the miss track (the k-th is worth -k).")
    dice: list[Die] = Field(
        min_length=1, description="The dice: {colour, values} or {faces: [{colour, value}]}."
    )
    players: PlayerRange = Field(description="Supported player counts.")
    rerolls: StrictInt = Field(ge=0, le=5, description="Re-rolls of any subset the active player may take.")
    rules: PeakDiceRules = Field(
        default_factory=PeakDiceRules, description="House-rule switches (disputed readings of the rulebook)."
    )
    balance: PeakDiceBalance = Field(description="Self-play settings and tolerances.")
    variants: PeakDiceVariants = Field(description="Generated sheet variants.")

    def peaks(self) -> tuple[int, ...]:
        """The peak position of every row (the single value repeated, or the list as given)."""
        if isinstance(self.peak_after, int):
            return tuple(self.peak_after for _ in self.colours)
        return tuple(self.peak_after)


def players(spec: PeakDiceGame) -> Sequence[int]:
    """The player counts of a kit's game section, ascending (the plugin record's `players`)."""
    return range(spec.players.min, spec.players.max + 1)
