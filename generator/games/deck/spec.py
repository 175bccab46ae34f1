"""The `game:` section of a data kit (`game.kind: deck`, docs/deck-kind.md): where each component's rows come
from and their field types, the shared face templates, the declared rules and the draw checks.

These models only validate what kit.yaml says and hold no file's content. The rows and the art files are read
in the load phase by generator/games/deck/files.py (the plugin's `with_files` hook), through the kit folder's
one door, into a record of their own beside the section (generator/games/deck/loaded.py: `LoadedDeck`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field, StrictInt, field_validator, model_validator

from generator.games.deck.algebra import ExactBound, ExactNumber, HandCondition, Turns
from generator.spec.base import MAX_GAMES, MAX_PIECES, MAX_SMALL, SequentialCheck, SpecModel
from generator.spec.tables import FieldType
from generator.spec.template import (
    FaceTemplate,
    TemplateChoice,
    resolve_extends,
)

MAX_COUNT = MAX_PIECES
"""Copies of one row (the `count` column)."""
MAX_DECK = 5_000
"""Cards in one component (the sum of counts)."""


class PlayerRange(SpecModel):
    """How many people the deck is dealt to."""

    min: StrictInt = Field(ge=1, le=8, description="Fewest players.")
    max: StrictInt = Field(ge=1, le=8, description="Most players.")

    @model_validator(mode="after")
    def _ordered(self) -> PlayerRange:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}")
        return self


class DeckComponent(SpecModel):
    """One component's data and look."""

    kind: Literal["cards", "sheet"] = Field(
        "cards",
        description=(
            "cards: one face per copy of each row (`count` copies), imposed N-up with backs; sheet: one "
            "face per copy "
            "of the component (score pads, boards), whose grid rows take the data rows"
        ),
    )
    data: str | list[dict[str, Any]] | None = Field(
        None,
        description=(
            "the rows: a file in the kit folder (data/cards.csv or data/cards.xlsx: first sheet, values "
            "only) or a "
            "list of mappings written here; cards need columns id and count"
        ),
    )
    fields: dict[str, FieldType] = Field(
        default_factory=dict,
        max_length=100,
        description=(
            "declared column types (text, int, number, bool): a cell of the wrong type is a located error; "
            "undeclared columns are text; count is always int"
        ),
    )
    template: str | TemplateChoice = Field(
        description=(
            "a template name from game.templates, or {by: field, cases: {value: template}, default: template}"
        )
    )
    backs: Literal["one", "per_row"] | None = Field(
        None,
        description=(
            "one: the cards are shuffled into one face-down pile, so every row must print the same back "
            "(a back that differs is a warning); per_row: the cards lie face up or in piles apart, so a back "
            "may tell them apart (no warning); left out: one when the deck is dealt or drawn "
            "(game.deal, balance.draws), else per_row"
        ),
    )

    def template_for(self, row: Mapping[str, Any]) -> str | None:
        """The name of the template a row is drawn with (None: its `by` value has no case and no default)."""
        if isinstance(self.template, str):
            return self.template
        value = row.get(self.template.by)
        return self.template.cases.get("" if value is None else str(value), self.template.default)


class ComponentRules(SpecModel):
    """Declared legality of one component's rows, checked by `pnpkit validate` (every row that breaks one is
    named with its file and row)."""

    total: StrictInt | None = Field(None, ge=0, le=MAX_DECK, description="the sum of count over all rows")
    required: list[str] = Field(default_factory=list, description="fields every row must fill")
    values: dict[str, list[str]] = Field(default_factory=dict, description="allowed values of a field")
    count_by: dict[str, dict[str, StrictInt]] = Field(
        default_factory=dict, description=("copies per field value, e.g. {suit: {hearts: 13, spades: 13}}")
    )
    refs: dict[str, str] = Field(
        default_factory=dict,
        description=("a field naming another component's id: {field: component}; an unknown id is an error"),
    )


class Condition(SpecModel):
    """One part of a hand_has check: at least `at_least` cards of the hand meet `where`."""

    where: str = Field(
        max_length=500, description="condition over a card's fields, e.g. \"type == 'resource'\""
    )
    at_least: StrictInt = Field(1, ge=0, le=MAX_SMALL, description="cards of the hand that must meet it")


class DrawCheck(SpecModel):
    """A property of a random draw from one component, and its bound.

    - hand_has: P(a `hand`-card draw holds at least `at_least` cards where `where` is true), or every
      condition of `all_of` at once -- exact (multivariate hypergeometric over the cells the conditions cut
      the deck into, counted with exact integers);
    - share: the largest share of the deck held by one value of `field` -- exact;
    - expected_sum: the expected sum of `field` over a `hand`-card draw -- exact;
    - sum_at_most: P(the sum of `field` over a `hand`-card draw <= `limit`) -- exact (dynamic programming);
    - hand: P(a `hand`-card draw, or the cards seen by a turn (`turns`), meets the condition `has`) -- exact
      (games/deck/algebra.py, counting.py), sampled only where no exact method applies (the report says so).
    Every exact value is a fraction, judged against a bound read exactly (1/4165, 0.5)."""

    name: str = Field(max_length=120, description="what the check says, for the report")
    kind: Literal["hand_has", "share", "expected_sum", "sum_at_most", "hand"] = Field(
        description="the property"
    )
    component: str = Field(description="the component whose cards are drawn")
    hand: StrictInt | None = Field(None, ge=1, le=MAX_SMALL, description="cards drawn")
    where: str | None = Field(None, max_length=500, description="condition over a card's fields (hand_has)")
    at_least: StrictInt = Field(1, ge=0, le=MAX_SMALL, description="cards that must meet `where` (hand_has)")
    all_of: list[Condition] = Field(
        default_factory=list,
        max_length=4,
        description=(
            "hand_has with several conditions that must all hold (instead of where / at_least), e.g. a "
            "resource "
            "and an action in the same hand; cards may meet more than one"
        ),
    )
    field: str | None = Field(None, description="the field measured (share, expected_sum, sum_at_most)")
    limit: ExactNumber | None = Field(None, description="the sum's bound (sum_at_most), read exactly")
    has: HandCondition | None = Field(None, description="the condition on the hand (hand): see Conditions")
    turns: Turns | None = Field(
        None,
        description=(
            "instead of hand: the cards seen by a turn, {opening, per_turn, turn, on: play | draw} (hand)"
        ),
    )
    bound: ExactBound = Field(
        description="the range the value must lie in, {min, max}; ends read exactly (1/4165, 0.5)"
    )

    @model_validator(mode="after")
    def _shape(self) -> DrawCheck:
        """The keys each kind of check needs and those it may not have (legal.py checks them on the data)."""
        kind = self.kind
        if kind != "hand" and (self.turns is not None or self.has is not None):
            raise ValueError(f"has and turns belong to a hand check, not {kind}")
        if kind not in ("share", "hand") and self.hand is None:
            raise ValueError(f"a {kind} check needs hand (cards drawn)")
        if kind == "hand_has" and bool(self.where) == bool(self.all_of):
            raise ValueError("a hand_has check needs where (one condition) or all_of (several), not both")
        if kind not in ("hand", "hand_has") and not self.field:
            raise ValueError(f"a {kind} check needs field")
        if kind == "sum_at_most" and self.limit is None:
            raise ValueError("a sum_at_most check needs limit")
        return self


class DeckBalance(SequentialCheck):
    """The draw checks `pnpkit check` judges."""

    games: StrictInt = Field(
        2000,
        ge=1,
        le=MAX_GAMES,
        description=("Monte-Carlo draws per look (only a hand condition with no exact method)"),
    )
    draws: list[DrawCheck] = Field(default_factory=list, max_length=50, description="the draw properties")


class Deal(SpecModel):
    """The reference 'game' of a deck, for the Game protocol: shuffle, then deal `hand` cards to each seat."""

    component: str = Field(description="the component dealt")
    hand: StrictInt = Field(ge=1, le=MAX_SMALL, description="cards dealt to each seat")
    players: PlayerRange = Field(description="seats the deal is for")


class DeckGame(SpecModel):
    """A data kit's game section."""

    kind: Literal["deck"] = Field(description="The game: a deck of data rows and declarative templates.")
    decks: dict[str, DeckComponent] = Field(
        min_length=1,
        max_length=20,
        description=("per component id (a key of components:), its rows and template"),
    )
    templates: dict[str, FaceTemplate] = Field(
        min_length=1, max_length=50, description="shared face templates"
    )
    rules: dict[str, ComponentRules] = Field(
        default_factory=dict, description="declared legality per component"
    )
    deal: Deal | None = Field(
        None,
        description=(
            "the deal the Game protocol plays (and the transcript shows); a kit of sheets only (a score pad) "
            "leaves it out"
        ),
    )
    balance: DeckBalance = Field(default_factory=DeckBalance, description="draw checks")

    @field_validator("templates")
    @classmethod
    def _extends(cls, v: dict[str, FaceTemplate]) -> dict[str, FaceTemplate]:
        """Each template with the one it `extends` merged in (an unknown parent or a cycle is an error)."""
        return resolve_extends(v)

    def shuffled(self, component: str) -> bool:
        """Whether a card component's cards lie in one face-down pile whose backs must not tell them apart:
        its `backs: one`, or, left out, a component the deal deals or a draw check draws from."""
        comp = self.decks[component]
        if comp.kind != "cards" or comp.backs == "per_row":
            return False
        if comp.backs == "one":
            return True
        dealt = self.deal is not None and self.deal.component == component
        return dealt or any(check.component == component for check in self.balance.draws)


__all__ = ["DeckGame", "DrawCheck"]
