"""The `game:` section of a data kit (`game.kind: deck`, docs/deck-kind.md): where each component's rows come
from and their field types, the shared face templates, the declared rules and the draw checks.

The rows themselves are read when the kit loads (`with_files`, called by generator/spec/kit.py for any game
model that has it): files are confined to the kit folder and read with the caps of generator/spec/tables.py,
and a cell that is not of its declared type is a located error `data/cards.csv:17: column cost: ...`."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, PrivateAttr, StrictInt, field_validator

from generator.errors import Problem, SpecError
from generator.games.deck.algebra import ExactBound, ExactNumber, HandCondition, Turns
from generator.spec.assets import MAX_ASSETS, MAX_RASTER_BYTES, MAX_SVG_BYTES, Asset, probe
from generator.spec.base import MAX_GAMES, MAX_PIECES, MAX_SMALL, SequentialCheck, SpecModel
from generator.spec.paths import read_bytes, resolve_inside
from generator.spec.tables import (
    MAX_ROWS,
    FieldType,
    Table,
    convert_cell,
    inline_table,
    path_problem,
    read_table,
)
from generator.spec.template import (
    AnyElement,
    FaceTemplate,
    IconElement,
    ImageElement,
    RepeatElement,
    TemplateChoice,
    fill_path,
    resolve_extends,
)
from generator.spec.template import path_problem as asset_path_problem

MAX_COUNT = MAX_PIECES
"""Copies of one row (the `count` column)."""
MAX_DECK = 5_000
"""Cards in one component (the sum of counts)."""


class PlayerRange(SpecModel):
    """How many people the deck is dealt to."""

    min: StrictInt = Field(ge=1, le=8, description="Fewest players.")
    max: StrictInt = Field(ge=1, le=8, description="Most players.")


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
      (games/deck/algebra.py), sampled only where no exact method applies (the report says so).
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


@dataclass(frozen=True)
class Rows:
    """One component's typed rows: the table they came from, and per row its fields (localized columns such as
    `name@ja` kept as they are)."""

    table: Table
    rows: tuple[dict[str, Any], ...]
    lines: tuple[int, ...]

    def problem(self, i: int, key: str, message: str) -> Problem:
        """A problem located at row i."""
        return self.table.problem(self.lines[i], key, message)


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

    _rows: dict[str, Rows] = PrivateAttr(default_factory=dict)
    _assets: dict[str, Asset] = PrivateAttr(default_factory=dict)

    def rows(self, component: str) -> Rows:
        """The typed rows of a component (read when the kit loaded)."""
        return self._rows[component]

    def assets(self) -> dict[str, Asset]:
        """Every file the templates' image and icon elements draw, by path as written (decoded when the kit
        loaded)."""
        return self._assets

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        """The section as data, with each table's content digest (a build key changes when a data file
        does)."""
        out = super().model_dump(**kwargs)
        out["data_digests"] = {k: r.table.digest for k, r in sorted(self._rows.items())}
        if (
            self._assets
        ):  # the art the faces draw, by content (absent without art, so those kits keep their keys)
            out["asset_digests"] = {k: a.sha256 for k, a in sorted(self._assets.items())}
        return out

    def with_files(
        self, root: Path, shown: Callable[[str], str], key_line: Callable[[str], int | None], display: str
    ) -> DeckGame:
        """This section with every component's rows read from the kit folder and typed; SpecError with every
        problem (file and row) otherwise."""
        problems: list[Problem] = []
        loaded: dict[str, Rows] = {}
        for cid, comp in self.decks.items():
            try:
                if comp.data is None:
                    table = inline_table([], display, lambda i: None)
                elif isinstance(comp.data, str):
                    key = f"game.decks.{cid}.data"
                    why = path_problem(comp.data)
                    if why is None:
                        try:
                            if (
                                resolve_inside(
                                    root, root / comp.data, display, f"the data file {comp.data!r}"
                                )
                                is None
                            ):
                                why = f"no such file in the kit folder: {comp.data!r}"
                        except SpecError as e:
                            why = e.problems[0].message
                    if why is not None:  # refused before anything is opened: located in kit.yaml
                        raise SpecError([Problem(display, key_line(key), key, why)])
                    table = read_table(root, comp.data, shown(comp.data))
                else:
                    if len(comp.data) > MAX_ROWS:
                        raise SpecError(
                            [
                                Problem(
                                    display,
                                    key_line(f"game.decks.{cid}.data"),
                                    f"game.decks.{cid}.data",
                                    f"{len(comp.data):,} rows; the limit is {MAX_ROWS:,}",
                                )
                            ]
                        )
                    line_of = functools.partial(_row_line, key_line, f"game.decks.{cid}.data")
                    table = inline_table(comp.data, display, line_of)
            except SpecError as e:
                problems.extend(e.problems)
                continue
            typed, bad = _typed(table, comp, cid, display, key_line)
            problems += bad
            loaded[cid] = typed
        if problems:
            raise SpecError(problems)
        assets, problems = _resolve_assets(self, loaded, root, display, key_line)
        if problems:
            raise SpecError(problems)
        copy = self.model_copy()
        copy._rows = loaded
        copy._assets = assets
        return copy


def _art_elements(elements: list[AnyElement] | None, key: str) -> Iterator[tuple[str, str]]:
    """(key, src) of every image and SVG icon element of a face, repeated ones included."""
    for j, el in enumerate(elements or []):
        at = f"{key}[{j}]"
        inner = el.element if isinstance(el, RepeatElement) else el
        if isinstance(el, RepeatElement):
            at += ".element"
        if isinstance(inner, (ImageElement, IconElement)) and inner.src is not None:
            yield f"{at}.src", inner.src


def _resolve_assets(
    game: DeckGame, loaded: dict[str, Rows], root: Path, display: str, key_line: Callable[[str], int | None]
) -> tuple[dict[str, Asset], list[Problem]]:
    """Every file an image or icon element names for any row its template is used by, resolved inside the kit
    folder, read once (capped) and decoded by generator/spec/assets.py. A problem names the data row (file and
    line) and the template key; a file that fails is reported once per key."""
    assets: dict[str, Asset] = {}
    failed: dict[str, str] = {}
    problems: list[Problem] = []
    reported: set[tuple[str, str]] = set()

    def load(shown: str) -> Asset:
        if shown in failed:
            raise ValueError(failed[shown])
        if shown not in assets:
            try:
                if len(assets) >= MAX_ASSETS:
                    raise ValueError(f"over {MAX_ASSETS} art files in one kit")
                why = asset_path_problem(shown)
                if why:
                    raise ValueError(why)
                try:
                    real = resolve_inside(root, root / shown, display, f"the art {shown!r}")
                    if real is None:
                        raise ValueError(f"no such file in the kit folder: {shown!r}")
                    limit = MAX_SVG_BYTES if shown.lower().endswith(".svg") else MAX_RASTER_BYTES
                    data = read_bytes(real, display, limit, shown)
                except SpecError as e:
                    raise ValueError(e.problems[0].message) from None
                try:
                    assets[shown] = probe(data, shown)
                except ValueError as e:
                    raise ValueError(f"{shown}: {e}") from None
            except ValueError as e:
                failed[shown] = str(e)
                raise
        return assets[shown]

    for cid, comp in game.decks.items():
        rows = loaded[cid]
        # a sheet's face sees no row's fields; a card component's each row's
        faces: list[tuple[dict[str, Any], int | None]] = (
            [({}, None)] if comp.kind == "sheet" else [(row, i) for i, row in enumerate(rows.rows)]
        )
        for fields, at in faces:

            def problem(key: str, message: str, at: int | None = at, rows: Rows = rows) -> Problem:
                return (
                    Problem(display, key_line(key), key, message)
                    if at is None
                    else rows.problem(at, key, message)
                )

            name = comp.template_for(fields)
            tpl = game.templates.get(name) if name is not None else None
            if tpl is None:
                continue  # the composer names a row without a template
            for side, elements in (("front", tpl.front), ("back", tpl.back)):
                for key, src in _art_elements(elements, f"game.templates.{name}.{side}"):
                    try:
                        shown = fill_path(src, fields)
                    except KeyError as e:
                        col = e.args[0]
                        what = (
                            "a sheet's face has no row fields"
                            if comp.kind == "sheet"
                            else f"the row has no column {col!r}"
                        )
                        message = f"{src!r} names {{{col}}}, but {what}"
                        if (message, key) not in reported:
                            reported.add((message, key))
                            problems.append(problem(key, message))
                        continue
                    if shown is None:
                        continue
                    try:
                        load(shown)
                    except ValueError as e:
                        if (shown, key) not in reported:
                            reported.add((shown, key))
                            problems.append(problem(key, str(e)))
    return assets, problems


def _typed(
    table: Table, comp: DeckComponent, cid: str, display: str, key_line: Callable[[str], int | None]
) -> tuple[Rows, list[Problem]]:
    problems: list[Problem] = []
    kinds: dict[str, FieldType] = {"count": "int", **comp.fields}
    if comp.kind == "cards":
        for need in ("id", "count"):
            if need not in table.columns:
                problems.append(
                    table.problem(
                        1,
                        f"column {need}",
                        f"required by a card component ({cid}); "
                        f"columns are {', '.join(table.columns) or 'none'}",
                    )
                )
    for name in comp.fields:
        base = name.split("@")[0]
        if name not in table.columns and not any(c.split("@")[0] == base for c in table.columns):
            problems.append(
                Problem(
                    display,
                    key_line(f"game.decks.{cid}.fields.{name}"),
                    f"game.decks.{cid}.fields.{name}",
                    f"no such column in {table.shown}",
                )
            )
    rows: list[dict[str, Any]] = []
    for row in table.rows:
        out: dict[str, Any] = {}
        bad_cells: set[str] = set()
        for col, cell in row.cells.items():
            kind = kinds.get(col, kinds.get(col.split("@")[0], "text"))
            value, why = convert_cell(cell, kind)
            if value is None and kind == "text":
                value = (
                    ""  # an empty text cell is the empty string (docs/deck-kind.md), as a template tests it
                )
            if why:
                problems.append(table.problem(row.line, f"column {col}", why))
                bad_cells.add(col)
            out[col] = value
        if comp.kind == "cards" and "count" in out and "count" not in bad_cells:  # one message per bad cell
            n = out["count"]
            if n is None:
                problems.append(
                    table.problem(row.line, "column count", "expected an integer; got an empty cell")
                )
            elif not 0 <= n <= MAX_COUNT:
                problems.append(table.problem(row.line, "column count", f"expected 0..{MAX_COUNT}; got {n}"))
        rows.append(out)
    if comp.kind == "cards" and not problems:
        total = sum(int(r.get("count") or 0) for r in rows)
        if total > MAX_DECK:
            problems.append(
                table.problem(None, "column count", f"{total:,} cards in all; the limit is {MAX_DECK:,}")
            )
    return Rows(table, tuple(rows), tuple(r.line for r in table.rows)), problems


def players(spec: DeckGame) -> Sequence[int]:
    """The player counts of a kit's game section, ascending (the plugin record's `players`); a kit with no
    deal
    (sheets only) is played by one."""
    if spec.deal is None:
        return range(1, 2)
    return range(spec.deal.players.min, spec.deal.players.max + 1)


__all__ = ["DeckGame", "DrawCheck", "Rows", "players"]


def _row_line(key_line: Callable[[str], int | None], key: str, i: int) -> int | None:
    """The kit.yaml line of row `i` of the inline table at `key`."""
    return key_line(f"{key}[{i}]")
