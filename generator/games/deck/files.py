"""The load phase of a data kit (`game.kind: deck`): every component's rows and every art file its templates
name, read from the kit folder through the one door (generator/spec/paths.py: confined to the folder, capped,
recorded for the build's key) and checked: a cell not of its declared type, a missing file or a refused
picture is a located error `data/cards.csv:17: column cost: ...`. The models of generator/games/deck/spec.py
only validate what kit.yaml says; this module is the plugin's `with_files` hook: it returns what it read as a
record of its own, a `LoadedDeck` (generator/games/deck/loaded.py), the game the deck's hooks receive."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from generator.errors import Problem, SpecError
from generator.games.deck.loaded import LoadedDeck, Rows, copies
from generator.games.deck.spec import MAX_COUNT, MAX_DECK, DeckComponent, DeckGame
from generator.spec.assets import MAX_ASSETS, MAX_RASTER_BYTES, MAX_SVG_BYTES, Asset, probe
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
from generator.spec.template import AnyElement, IconElement, ImageElement, RepeatElement, fill_path
from generator.spec.template import path_problem as asset_path_problem

KeyLine = Callable[[str], int | None]


def load_files(
    game: DeckGame, root: Path, shown: Callable[[str], str], key_line: KeyLine, display: str
) -> LoadedDeck:
    """The section with every component's rows read from the kit folder and typed, and every art file its
    templates draw decoded, as one record; SpecError with every problem (file and row) otherwise."""
    problems: list[Problem] = []
    loaded: dict[str, Rows] = {}
    for cid, comp in game.decks.items():
        try:
            table = _table(cid, comp, root, shown, key_line, display)
        except SpecError as e:
            problems.extend(e.problems)
            continue
        typed, bad = _typed(table, comp, cid, display, key_line)
        problems += bad
        loaded[cid] = typed
    if problems:
        raise SpecError(problems)
    assets, problems = _resolve_assets(game, loaded, root, display, key_line)
    if problems:
        raise SpecError(problems)
    return LoadedDeck(game, loaded, assets)


def _table(
    cid: str, comp: DeckComponent, root: Path, shown: Callable[[str], str], key_line: KeyLine, display: str
) -> Table:
    """A component's rows as written: none, a file of the kit folder (refused before it is opened when its
    path is bad) or the inline list."""
    key = f"game.decks.{cid}.data"
    if comp.data is None:
        return inline_table([], display, lambda i: None)
    if isinstance(comp.data, str):
        why = path_problem(comp.data)
        if why is None:
            try:
                if resolve_inside(root, root / comp.data, display, f"the data file {comp.data!r}") is None:
                    why = f"no such file in the kit folder: {comp.data!r}"
            except SpecError as e:
                why = e.problems[0].message
        if why is not None:  # refused before anything is opened: located in kit.yaml
            raise SpecError([Problem(display, key_line(key), key, why)])
        return read_table(root, comp.data, shown(comp.data))
    if len(comp.data) > MAX_ROWS:
        raise SpecError(
            [Problem(display, key_line(key), key, f"{len(comp.data):,} rows; the limit is {MAX_ROWS:,}")]
        )
    return inline_table(comp.data, display, functools.partial(_row_line, key_line, key))


def _art_elements(elements: list[AnyElement] | None, key: str) -> Iterator[tuple[str, str]]:
    """(key, src) of every image and SVG icon element of a face, repeated ones included."""
    for j, el in enumerate(elements or []):
        at = f"{key}[{j}]"
        inner = el.element if isinstance(el, RepeatElement) else el
        if isinstance(el, RepeatElement):
            at += ".element"
        if isinstance(inner, (ImageElement, IconElement)) and inner.src is not None:
            yield f"{at}.src", inner.src


class _ArtFiles:
    """The art files a kit's templates name, each resolved inside the kit folder, read once through the door
    (capped) and decoded by generator/spec/assets.py; a file that fails keeps its reason."""

    def __init__(self, root: Path, display: str):
        self.root, self.display = root, display
        self.assets: dict[str, Asset] = {}
        self.failed: dict[str, str] = {}

    def problem(self, shown: str) -> str | None:
        """Why the file `shown` cannot be drawn (None: it is read and decoded, in `assets`)."""
        if shown not in self.assets and shown not in self.failed:
            found = self._read(shown)
            if isinstance(found, Asset):
                self.assets[shown] = found
            else:
                self.failed[shown] = found
        return self.failed.get(shown)

    def _read(self, shown: str) -> Asset | str:
        if len(self.assets) >= MAX_ASSETS:
            return f"over {MAX_ASSETS} art files in one kit"
        why = asset_path_problem(shown)
        if why:
            return why
        try:
            real = resolve_inside(self.root, self.root / shown, self.display, f"the art {shown!r}")
            if real is None:
                return f"no such file in the kit folder: {shown!r}"
            limit = MAX_SVG_BYTES if shown.lower().endswith(".svg") else MAX_RASTER_BYTES
            data = read_bytes(real, self.display, limit, shown)
        except SpecError as e:
            return e.problems[0].message
        try:
            return probe(data, shown)
        except ValueError as e:  # probe's refusal of the file's content
            return f"{shown}: {e}"


def _resolve_assets(
    game: DeckGame, loaded: dict[str, Rows], root: Path, display: str, key_line: KeyLine
) -> tuple[dict[str, Asset], list[Problem]]:
    """Every file an image or icon element names for any row its template is used by, read once. A problem
    names the data row (file and line) and the template key; a file that fails is reported once per key."""
    files = _ArtFiles(root, display)
    problems: list[Problem] = []
    reported: set[tuple[str, str]] = set()
    for cid, comp in game.decks.items():
        rows = loaded[cid]
        # a sheet's face sees no row's fields; a card component's each row's
        faces: list[tuple[dict[str, Any], int | None]] = (
            [({}, None)] if comp.kind == "sheet" else [(row, i) for i, row in enumerate(rows.rows)]
        )
        for fields, at in faces:
            for key, message in _face_art_problems(game, comp, fields, files):
                if (message, key) in reported:
                    continue
                reported.add((message, key))
                problems.append(
                    Problem(display, key_line(key), key, message)
                    if at is None
                    else rows.problem(at, key, message)
                )
    return files.assets, problems


def _face_art_problems(
    game: DeckGame, comp: DeckComponent, fields: dict[str, Any], files: _ArtFiles
) -> Iterator[tuple[str, str]]:
    """(template key, why) for each art file the face of a row (or a sheet) names that cannot be drawn."""
    name = comp.template_for(fields)
    tpl = game.templates.get(name) if name is not None else None
    if tpl is None:
        return  # the composer names a row without a template
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
                yield key, f"{src!r} names {{{col}}}, but {what}"
                continue
            why = None if shown is None else files.problem(shown)
            if why is not None:
                yield key, why


def _typed(
    table: Table, comp: DeckComponent, cid: str, display: str, key_line: KeyLine
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
        total = sum(copies(r) for r in rows)
        if total > MAX_DECK:
            problems.append(
                table.problem(None, "column count", f"{total:,} cards in all; the limit is {MAX_DECK:,}")
            )
    return Rows(table, tuple(rows), tuple(r.line for r in table.rows)), problems


def _row_line(key_line: KeyLine, key: str, i: int) -> int | None:
    """The kit.yaml line of row `i` of the inline table at `key`."""
    return key_line(f"{key}[{i}]")
