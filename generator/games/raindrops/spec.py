"""The `game:` section of a Raindrops kit: components, memory-card generation, rule figures, balance bounds.

Every value comes from the kit's YAML (the digest's defaults live in `layouts/raindrops/kit.yaml`); nothing
here has a default except the house-rule switches of `Rules`, whose model defaults are the seed's literal
reading (the shipped kit.yaml states them too). Validators check the shape of a value; cross-field legality
(counts against the seed's component table, colour ids that exist, coverable patterns) is
`generator.games.raindrops.legal_problems`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from pydantic import Field, field_validator

from generator.spec.base import (
    MAX_GAMES,
    MAX_PIECES,
    MAX_POINTS,
    MAX_SEED,
    MAX_SMALL,
    MAX_TURNS,
    Bound,
    IntKey,
    SequentialCheck,
    SpecModel,
)

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_ID = re.compile(r"^[a-z][a-z0-9_]*$")


def _check_id(v: str) -> str:
    if not _ID.match(v):
        raise ValueError(
            f"expected an id of lower-case letters, digits and _ starting with a letter; got {v!r}"
        )
    return v


class Colour(SpecModel):
    """One raindrop colour: its id, printed colour and its own drop shape (for colour-blind play)."""

    id: str = Field(description="Colour id used everywhere else in the spec (e.g. orange).")
    colour: str = Field(description="Printed colour as #rrggbb.")
    shape: Literal["drop", "round", "diamond", "star"] = Field(
        description="Drop shape printed for this colour, so colours can be told apart without colour vision."
    )

    _id = field_validator("id")(_check_id)

    @field_validator("colour")
    @classmethod
    def _hex(cls, v: str) -> str:
        if not _HEX.match(v):
            raise ValueError(f"expected a colour written #rrggbb; got {v!r}")
        return v.lower()


class Window(SpecModel):
    """The tilted window board: columns of tiles stacked vertically (each tile shows 2 symbol rows)."""

    columns: int = Field(ge=1, le=12, description="Number of tile columns on the window.")
    tiles_per_column: int = Field(ge=1, le=8, description="Tiles one column holds (a tile is 2 symbol rows).")


class TileKind(SpecModel):
    """A kind of raindrop tile in the bag: its two halves and how many there are."""

    a: str | list[str] = Field(
        description="First half (top when vertical): a colour id, or two ids for a wild half."
    )
    b: str | list[str] = Field(description="Second half: a colour id, or two ids for a wild half.")
    count: int = Field(ge=0, le=MAX_PIECES, description="Number of tiles of this kind in the bag.")


class Bag(SpecModel):
    """The cloth bag of raindrop tiles."""

    tiles: list[TileKind] = Field(
        min_length=1, description="Tile kinds with their counts (seed: 84 tiles in all)."
    )


class BonusKind(SpecModel):
    """Bonus tiles of one colour (or wild): one raindrop each, with the points printed on each tile."""

    colour: str = Field(
        description="Colour id of the single raindrop, or 'wild' (a wild raindrop: see "
        "game.rules.wild_bonus for what it matches)."
    )
    points: list[int] = Field(
        min_length=1, description="Points printed on each tile of this kind (one entry per tile)."
    )
    pairs: list[list[str]] | None = Field(
        None,
        description="Wild kind only: the two colours printed on each wild tile (one pair per entry of "
        "points). Needed when game.rules.wild_bonus is two_colours; not drawn with all_colours.",
    )

    @field_validator("points")
    @classmethod
    def _nonneg(cls, v: list[int]) -> list[int]:
        if any(p < 0 for p in v):
            raise ValueError(f"expected points >= 0; got {v}")
        return v


class BonusTiles(SpecModel):
    """The bonus tiles (seed: 28)."""

    kinds: list[BonusKind] = Field(
        min_length=1, description="Bonus tile kinds; their tiles add up to the seed's 28."
    )
    offer: int = Field(ge=1, le=MAX_SMALL, description="Bonus tiles face up in the offer.")


class CloudType(SpecModel):
    """One stack of cloud tokens: its symbol, the condition to take a token, and each token's points."""

    id: str = Field(description="Cloud type id; memory cards show this symbol at the bottom left.")
    condition: dict[str, int] = Field(
        description="Completed non-cat cards needed per cloud symbol, e.g. {rain: 2, fog: 1}."
    )
    points: list[int] = Field(
        min_length=1, description="Points of each token in the stack, top (gold border) first."
    )

    _id = field_validator("id")(_check_id)

    @field_validator("condition")
    @classmethod
    def _positive(cls, v: dict[str, int]) -> dict[str, int]:
        if not v or any(n < 1 for n in v.values()):
            raise ValueError(f"expected at least one symbol, each needed 1 or more times; got {v}")
        return v


class CloudTokens(SpecModel):
    """Cloud tokens (seed: 12), sorted by type into stacks."""

    types: list[CloudType] = Field(min_length=1, description="Cloud token types; one stack each.")


class ThunderValue(SpecModel):
    """Thunder tokens showing one hidden value."""

    value: int = Field(ge=0, le=MAX_POINTS, description="Points on the hidden face.")
    count: int = Field(ge=0, le=MAX_PIECES, description="Tokens with this value.")


class ThunderTokens(SpecModel):
    """Thunder tokens (seed: 10), face down in one stack."""

    values: list[ThunderValue] = Field(min_length=1, description="Value split of the thunder tokens.")


class Grid(SpecModel):
    """The drop grid printed on a memory card."""

    rows: int = Field(ge=1, le=4, description="Rows of drop cells on a card.")
    columns: int = Field(ge=1, le=4, description="Columns of drop cells on a card.")


class CellRange(SpecModel):
    """How many drops a pattern has (even: every drop is covered by half a tile)."""

    min: int = Field(ge=2, le=16, description="Fewest drops on a card.")
    max: int = Field(ge=2, le=16, description="Most drops on a card.")


class CardPoints(SpecModel):
    """How printed points follow measured difficulty."""

    min: int = Field(ge=0, le=MAX_POINTS, description="Points of the easiest cloud card.")
    max: int = Field(ge=0, le=MAX_POINTS, description="Points of the hardest cloud card.")
    cat_bonus: int = Field(
        ge=0, le=MAX_POINTS, description="Extra points on a cat card (it shows no cloud symbol)."
    )
    refit: dict[IntKey, int] | None = Field(
        None,
        description="Points by card id fitted to full-game play (written by `pnpkit check --refit`); "
        "they replace the difficulty-derived points of those cards.",
    )


class Difficulty(SpecModel):
    """How `build` measures a card's difficulty: solo drops under the reference policy, seeded."""

    policy: Literal["greedy_cover"] = Field(
        description="Reference policy: take the drop path that covers most cells of the card (see "
        "difficulty.py)."
    )
    samples: int = Field(
        ge=1, le=2000, description="Seeded solo games per card at build time (points are set from these)."
    )
    max_drops: int = Field(
        ge=1,
        le=MAX_PIECES,
        description="A solo game stops unfinished after this many drops (counted as max).",
    )


class MemoryCards(SpecModel):
    """The memory-card deck, generated from `seed`."""

    count: int = Field(ge=1, le=MAX_PIECES, description="Memory cards in the deck (seed: 54).")
    grid: Grid = Field(description="Drop grid printed on a card.")
    cells: CellRange = Field(description="Drops per pattern.")
    cats: int = Field(ge=0, le=MAX_PIECES, description="Cat cards (no cloud symbol, more points).")
    connected: bool = Field(
        description="Whether the drops of a pattern form one orthogonally connected group."
    )
    points: CardPoints = Field(description="Points rule.")
    difficulty: Difficulty = Field(description="Difficulty measurement for points.")


class Rules(SpecModel):
    """Figures of the seed's rules (used by the rules engine)."""

    players: list[int] = Field(min_length=1, description="Supported player counts.")
    cards_dealt: int = Field(ge=1, le=MAX_SMALL, description="Memory cards dealt to each player at set-up.")
    cards_kept: int = Field(
        ge=1, le=MAX_SMALL, description="Memory cards a player keeps face up on the board."
    )
    display: int = Field(ge=1, le=MAX_SMALL, description="Memory cards in the display under the window.")
    reserve_slots: int = Field(ge=0, le=MAX_SMALL, description="Raindrop tiles a player may keep in reserve.")
    bonus_max_tiles: int = Field(
        ge=1, le=MAX_SMALL, description="A drop taking this many tiles or fewer earns a bonus tile."
    )
    end_cards: int = Field(
        ge=1, le=MAX_PIECES, description="The game ends when a player completes this many memory cards."
    )
    end_bag_empties: int = Field(
        ge=1, le=MAX_SMALL, description="... or when the bag empties this many times."
    )
    thunder_draw: list[int] = Field(
        min_length=1,
        description="Thunder tokens drawn for 1, 2, ... tiles taken from the bottom row (keep one).",
    )

    # house-rule switches (issue 11): each default is the seed's most literal reading
    bag_empties: Literal["last_tile_drawn", "tile_needed"] = Field(
        "last_tile_drawn",
        description="When the bag 'empties' (it counts toward end_bag_empties and the discards go back in): "
        "last_tile_drawn = the moment its last tile is drawn (the seed's words 「袋が空になると」, literal); "
        "tile_needed = only when a tile is next needed and the bag has none.",
    )
    window_refill: Literal["drop_step", "next_turn"] = Field(
        "drop_step",
        description="When the window is refilled from the bag: drop_step = at the end of the drop step of "
        "the "
        "player who dropped (the seed's step 2: 「その後、袋から引いた新しい雨粒タイルでボードを埋めます」, "
        "and its example refills within the dropping player's turn, literal), so a bag emptied by "
        "the last seat's drop ends the game after that round; next_turn = at the start of the next "
        "player's turn (「ターン順で次のプレイヤーが…補充します」 read as the next player's own turn), "
        "so that emptying counts in the next round and every player plays one more turn.",
    )
    final_last_turn_card: Literal["usable", "not_usable"] = Field(
        "usable",
        description="In the placement after the last round "
        "(「その後、各プレイヤーはリザーブの雨粒とボーナスタイルを記憶"
        "カードに置いて完成させることができます」): usable = reserve tiles may go on every held card, also "
        "one taken in the player's last turn (the wait 「この時点で、取ったばかりの記憶カードにタイルを置く"
        "ことはできません。次のターンまで待つ必要があります」 holds only within that turn, and the final "
        "placement names no exception, literal); not_usable = a card taken in the last turn stays "
        "unusable, as there is no next turn.",
    )
    final_clouds: Literal["earned", "not_earned"] = Field(
        "earned",
        description="Whether cards completed in the placement after the last round earn cloud tokens: earned "
        "= "
        "yes, when the player ends the placement (the seed: 「シンボルが一致したら、ただちにそのトークン"
        "を獲得します」, literal); not_earned = no, cloud tokens are taken only in step 4 of a turn. "
        "(With final_last_turn_card: not_usable this was the former final_placement: "
        "older_cards_no_clouds.)",
    )
    bonus_per_tile: Literal["one_half", "both_halves"] = Field(
        "one_half",
        description="Bonus tiles laid over one raindrop tile: one_half = at most one, changing one of its "
        "two "
        "symbols (the seed: 「そのシンボル1つを変更し」, literal); both_halves = one on each half.",
    )
    wild_bonus: Literal["two_colours", "all_colours"] = Field(
        "two_colours",
        description="What a wild bonus tile matches: two_colours = the two colours printed on it, like a "
        "wild "
        "raindrop (the seed: 「描かれている2つのシンボルのいずれかに一致」, literal; needs "
        "bonus_tiles.kinds[].pairs); all_colours = every colour.",
    )
    bonus_refill: Literal["by_choice", "always"] = Field(
        "by_choice",
        description="Before taking a bonus tile from an offer that shows fewer than bonus_tiles.offer: "
        "by_choice "
        "= the player may refill it from the stack (the seed: 「4枚にすることができます」, literal); "
        "always = it is always refilled first.",
    )


class PartShares(SpecModel):
    """Share of all points scored that comes from each score part (greedy self-play, all seats)."""

    cards: Bound = Field(description="(A) completed memory cards.")
    bonus: Bound = Field(description="(B) bonus tiles, unused points and +1 per used tile.")
    clouds: Bound = Field(description="(C) cloud tokens.")
    thunder: Bound = Field(description="(D) thunder tokens.")
    incomplete: Bound = Field(description="(E) tiles on one incomplete card.")


class PlayBalance(SpecModel):
    """Bounds on full games played by the greedy policy in every seat (and greedy against random)."""

    games: int = Field(
        ge=1,
        le=MAX_GAMES,
        description="Most full games per player count and mode: the check plays the first batch "
        "(`balance.games`, or --games) and doubles it while a full-game tolerance is UNDECIDED, "
        "up to this.",
    )

    turn_limit: int = Field(
        ge=1,
        le=MAX_TURNS,
        description="Safety stop: a game still running after this many turns (all "
        "players together) is stopped and counted as 'limit'.",
    )
    seat_advantage: Bound = Field(
        description="Largest |win share of a seat - 1/players| (shared wins split)."
    )
    rounds: Bound = Field(description="Mean game length in rounds (turns per player).")
    cards_trigger_share: Bound = Field(
        description="Share of games ended by a 10th completed card (the rest: the bag emptied again)."
    )
    limit_share: Bound = Field(description="Share of games stopped by turn_limit (should be 0).")
    parts: PartShares = Field(description="Score composition bounds.")
    greedy_win_share: Bound = Field(
        description="Win share of one greedy player against random players (the policy gap; fair is "
        "1/players)."
    )
    points_speed_spearman: Bound = Field(
        description="Rank correlation of printed card points with turns a card is held per completion in "
        "play "
        "(harder cards should give more points)."
    )
    cloud_take_spread: Bound = Field(
        description="Largest minus smallest take rate (tokens taken per player per game) over cloud types."
    )
    refit_total_tolerance: float = Field(
        ge=0, le=1, description="`check --refit` keeps the deck's total points within this share of today's."
    )


class Balance(SequentialCheck):
    """Tolerances for `pnpkit check` (card level; the full-game bounds are added by the rules engine)."""

    points_difficulty_spearman: Bound = Field(
        description="Rank correlation of printed points with difficulty re-measured at check time."
    )
    cloud_reach_spread: Bound = Field(
        description="Largest minus smallest rate at which the cloud conditions are met after "
        "`cloud_reach_cards`."
    )
    cloud_reach_cards: int = Field(
        ge=1, le=MAX_PIECES, description="Completed memory cards assumed for cloud reachability."
    )
    unfinished_share: Bound = Field(
        description="Share of solo card games that hit difficulty.max_drops unfinished (over all cards)."
    )
    games: int = Field(
        ge=1,
        le=MAX_GAMES,
        description="Solo games per memory card for the card-level checks (CLI --games overrides).",
    )
    play: PlayBalance | None = Field(
        None, description="Full-game self-play bounds; omit to skip full-game checks."
    )


class RaindropsGame(SpecModel):
    """Raindrops: tile collection and pattern building (2-4 players)."""

    kind: Literal["raindrops"] = Field(description="Game id.")
    seed: int = Field(
        ge=0,
        le=MAX_SEED,
        description="Seed of the memory-card generator (and of the build-time difficulty sample).",
    )
    colours: list[Colour] = Field(min_length=2, description="Raindrop colours.")
    window: Window = Field(description="Window board.")
    bag: Bag = Field(description="Raindrop tiles in the bag.")
    bonus_tiles: BonusTiles = Field(description="Bonus tiles.")
    cloud_tokens: CloudTokens = Field(description="Cloud tokens.")
    thunder_tokens: ThunderTokens = Field(description="Thunder tokens.")
    player_boards: int = Field(ge=1, le=MAX_SMALL, description="Player boards (seed: 4).")
    action_markers: int = Field(
        ge=1, le=MAX_SMALL, description="Action markers (seed: 4, one with the start arrow)."
    )
    path_markers: int = Field(
        ge=0, le=MAX_SMALL, description="Glass beads marking a path (seed: 8, optional)."
    )
    memory_cards: MemoryCards = Field(description="Memory-card deck.")
    rules: Rules = Field(description="Rule figures from the seed.")
    balance: Balance = Field(description="Balance tolerances.")


def players(spec: RaindropsGame) -> Sequence[int]:
    """The player counts of a kit's game section, ascending (the plugin record's `players`)."""
    return sorted(set(spec.rules.players))
