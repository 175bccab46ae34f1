"""Rows of data a kit reads from its folder: `data/<name>.csv`, `.xlsx` (values only) or inline YAML rows.

A table is input like a spec: the file is resolved and confined to the kit folder (generator/spec/paths.py, as
catalogs and fonts are), read with caps, and every problem is located `FILE:ROW: column NAME: ...`. The caps
are documented here and in docs/deck-kind.md:

- a data file is at most MAX_DATA_BYTES (8 MiB) on disk; an .xlsx at most MAX_XLSX_UNZIPPED (64 MiB)
  unpacked, each member at most MAX_XLSX_RATIO times its packed size (a zip bomb is refused before openpyxl
  reads it), and no external links (`xl/externalLinks/`) or macros (`vbaProject.bin`);
- at most MAX_ROWS (5,000) rows, MAX_COLUMNS (100) columns and MAX_CELL (2,000) characters in a cell;
- CSV is UTF-8 (a byte-order mark is dropped; any other encoding is a located error naming the byte);
  a row with more or fewer cells than the header is an error naming its line;
- an .xlsx cell holding a formula is refused (pnpkit reads values only: paste the values).

Cells reach the game as text (CSV), or the scalar the sheet or YAML holds; typing them is `convert_cell`."""

from __future__ import annotations

import csv
import hashlib
import io
import math
import re
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from generator.errors import Problem, SpecError
from generator.spec.fonts import check_font_path
from generator.spec.paths import read_bytes, resolve_inside

MAX_DATA_BYTES = 8 * 1024 * 1024
MAX_XLSX_UNZIPPED = 64 * 1024 * 1024
MAX_XLSX_RATIO = 200
MAX_ROWS = 5_000
MAX_COLUMNS = 100
MAX_CELL = 2_000
SUFFIXES = (".csv", ".xlsx")
_COLUMN = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}(@[a-z]{2,3}(_[A-Za-z]{2,4})?)?")

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
"""Control characters a cell may not hold (tab and line breaks are left to the text layout)."""

Cell = str | int | float | bool | None
FieldType = Literal["text", "int", "number", "bool"]


@dataclass(frozen=True)
class Row:
    """One data row: its line (the file's row number, header = 1; for inline rows the index from 1) and
    cells."""

    line: int
    cells: Mapping[str, Cell]


@dataclass(frozen=True)
class Table:
    """A read table: where it came from (as written in kit.yaml and as shown in messages), columns and
    rows."""

    source: str
    shown: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    digest: str
    """sha256 of the bytes read (or of the inline rows): a build key changes when the data does."""

    def problem(self, line: int | None, key: str, message: str) -> Problem:
        """A problem located in this table."""
        return Problem(self.shown, line, key, message)


def _clip(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def path_problem(source: str) -> str | None:
    """Why a data path written in kit.yaml is refused before it is opened (absolute, '..', wrong suffix)."""
    why = check_font_path(source)
    if why is not None:
        return why.replace(
            "a TrueType font file (.ttf, or .otf with TrueType outlines)", "a data file (.csv, .xlsx)"
        )
    if not source.lower().endswith(SUFFIXES):
        return f"expected a .csv or .xlsx file inside the kit folder (e.g. data/cards.csv); got {source!r}"
    return None


def read_table(root: Path, source: str, shown: str) -> Table:
    """The rows of the data file `source` (relative to the kit folder `root`); `shown` names it in
    messages."""
    why = path_problem(source)
    if why:
        raise SpecError([Problem(shown, None, "", why)])
    real = resolve_inside(root, root / source, shown, f"the data file {source!r}")
    if real is None:
        raise SpecError([Problem(shown, None, "", f"no such file in the kit folder: {source!r}")])
    data = read_bytes(real, shown, MAX_DATA_BYTES, f"the data file {source!r}")
    digest = hashlib.sha256(data).hexdigest()
    if source.lower().endswith(".xlsx"):
        header, body = _xlsx_rows(data, shown)
    else:
        header, body = _csv_rows(data, shown)
    return _table(source, shown, header, body, digest)


def inline_table(
    rows: Sequence[Mapping[str, Any]], shown: str, first_line: Callable[[int], int | None]
) -> Table:
    """A table from rows written in kit.yaml (a list of mappings); `first_line(i)` is row i's line there."""
    columns: list[str] = []
    for r in rows:
        for k in r:
            if k not in columns:
                columns.append(str(k))
    body = []
    for i, r in enumerate(rows):
        line = first_line(i) or i + 1
        body.append((line, [r.get(c) for c in columns]))
    digest = hashlib.sha256(
        repr([sorted((str(k), repr(v)) for k, v in r.items()) for r in rows]).encode()
    ).hexdigest()
    return _table("", shown, (columns, 1), body, digest)


def _table(
    source: str, shown: str, header: tuple[list[str], int], body: list[tuple[int, list[Cell]]], digest: str
) -> Table:
    names, head_line = header
    problems: list[Problem] = []
    if len(names) > MAX_COLUMNS:
        raise SpecError([Problem(shown, head_line, "", f"{len(names)} columns; the limit is {MAX_COLUMNS}")])
    seen: set[str] = set()
    for n in names:
        if not _COLUMN.fullmatch(n):
            problems.append(
                Problem(
                    shown,
                    head_line,
                    f"column {_clip(n)}",
                    "expected a column name of letters, "
                    "digits and _ (a letter first), optionally @lang (e.g. name@ja)",
                )
            )
        elif n in seen:
            problems.append(Problem(shown, head_line, f"column {n}", "the column name repeats"))
        seen.add(n)
    if len(body) > MAX_ROWS:
        problems.append(Problem(shown, None, "", f"{len(body):,} rows or more; the limit is {MAX_ROWS:,}"))
    rows = []
    for line, cells in body[:MAX_ROWS]:
        if len(cells) != len(names):
            problems.append(
                Problem(shown, line, "", f"expected {len(names)} cells like the header; got {len(cells)}")
            )
            continue
        for n, c in zip(names, cells, strict=True):
            if isinstance(c, str) and len(c) > MAX_CELL:
                problems.append(
                    Problem(
                        shown,
                        line,
                        f"column {n}",
                        f"a cell of {len(c):,} characters; the limit is {MAX_CELL:,}",
                    )
                )
            elif isinstance(c, str) and (bad := _CONTROL.search(c)):
                problems.append(
                    Problem(
                        shown,
                        line,
                        f"column {n}",
                        f"a control character U+{ord(bad.group()):04X} "
                        f"in {_clip(c)}: it cannot be printed; delete it",
                    )
                )
        rows.append(Row(line, dict(zip(names, cells, strict=True))))
    if problems:
        raise SpecError(problems[:50])
    return Table(source, shown, tuple(names), tuple(rows), digest)


def _csv_rows(data: bytes, shown: str) -> tuple[tuple[list[str], int], list[tuple[int, list[Cell]]]]:
    if data.startswith(b"\xff\xfe") or data.startswith(b"\xfe\xff"):
        raise SpecError([Problem(shown, 1, "", "UTF-16 text; save the file as UTF-8 CSV")])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise SpecError(
            [
                Problem(
                    shown,
                    line,
                    "",
                    f"not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start:,}); "
                    "save the file as UTF-8 CSV",
                )
            ]
        ) from None
    if "\0" in text:
        line = text[: text.index("\0")].count("\n") + 1
        raise SpecError([Problem(shown, line, "", "a NUL character: not a text file")])
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[tuple[int, list[Cell]]] = []
    header: list[str] | None = None
    head_line = 1
    read_to = 0
    try:
        for cells in reader:
            line, read_to = read_to + 1, reader.line_num  # a quoted cell may span lines: name the first
            if header is None:
                if not any(c.strip() for c in cells):
                    continue
                header, head_line = [c.strip() for c in cells], line
                continue
            if not any(c.strip() for c in cells):
                continue  # blank lines separate groups of rows in hand-written files
            rows.append((line, list(cells)))
            if len(rows) > MAX_ROWS:
                break
    except csv.Error as e:
        raise SpecError([Problem(shown, reader.line_num, "", f"not valid CSV ({e})")]) from None
    if header is None:
        raise SpecError([Problem(shown, 1, "", "no header row (expected column names, e.g. id,count,name)")])
    for sep, what in ((";", "semicolons"), ("\t", "tabs")):
        if any(sep in h for h in header):
            raise SpecError(
                [
                    Problem(
                        shown,
                        head_line,
                        "",
                        f"the header {_clip(','.join(header), 60)} holds {what}: "
                        f"the file looks separated by {what} (as some spreadsheet programs save CSV); "
                        "pnpkit reads comma-separated CSV: save it with commas, or as .xlsx",
                    )
                ]
            )
    return (header, head_line), rows


csv.field_size_limit(MAX_DATA_BYTES)


def _xlsx_check(data: bytes, shown: str) -> None:
    """Refuse a zip bomb, external links and macros before openpyxl parses anything."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError) as e:
        raise SpecError([Problem(shown, None, "", f"not an .xlsx workbook ({e})")]) from None
    total = 0
    for info in zf.infolist():
        name = info.filename
        if name.startswith("xl/externalLinks/"):
            raise SpecError(
                [
                    Problem(
                        shown,
                        None,
                        "",
                        "the workbook links to other files (external links); "
                        "pnpkit reads only the kit folder: paste the values",
                    )
                ]
            )
        if name.endswith("vbaProject.bin"):
            raise SpecError([Problem(shown, None, "", "the workbook holds macros; save it as a plain .xlsx")])
        total += info.file_size
        if info.file_size > MAX_XLSX_RATIO * max(info.compress_size, 1) and info.file_size > 1024 * 1024:
            raise SpecError(
                [
                    Problem(
                        shown,
                        None,
                        "",
                        f"{name} unpacks {info.file_size:,} bytes from "
                        f"{info.compress_size:,} (a zip bomb?); the limit is "
                        f"{MAX_XLSX_RATIO} times",
                    )
                ]
            )
        if total > MAX_XLSX_UNZIPPED:
            raise SpecError(
                [
                    Problem(
                        shown,
                        None,
                        "",
                        f"the workbook unpacks to over {MAX_XLSX_UNZIPPED:,} bytes; "
                        f"the limit is {MAX_XLSX_UNZIPPED:,}",
                    )
                ]
            )


def _xlsx_rows(data: bytes, shown: str) -> tuple[tuple[list[str], int], list[tuple[int, list[Cell]]]]:
    wb = _xlsx_open(data, shown)
    header: list[str] | None = None
    head_line = 1
    rows: list[tuple[int, list[Cell]]] = []
    line = 0
    try:
        sheets = wb.worksheets
        if not sheets:
            raise SpecError(
                [
                    Problem(
                        shown,
                        None,
                        "",
                        "the workbook has no sheet pnpkit can read (the rows are read from the first sheet)",
                    )
                ]
            )
        for line, cells in enumerate(sheets[0].iter_rows(max_col=MAX_COLUMNS + 1), 1):
            if line > MAX_ROWS + head_line:  # rows as stored, blank ones included: the cap bounds the work
                raise SpecError(
                    [
                        Problem(
                            shown,
                            line,
                            "",
                            f"over {MAX_ROWS:,} rows stored in the sheet (blank rows "
                            f"count); the limit is {MAX_ROWS:,}: delete the rows "
                            "below the data",
                        )
                    ]
                )
            values = _xlsx_values(cells, line, shown)
            if header is None:
                if values:
                    header, head_line = [str(v).strip() if v is not None else "" for v in values], line
                continue
            if not values:
                continue
            values += [None] * (len(header) - len(values))
            rows.append((line, values))
            if len(rows) > MAX_ROWS:
                break
    except SpecError:
        raise
    except Exception as e:  # a damaged sheet (a shared string out of range, a NaN cell, a relationship that
        # points outside the package) fails inside openpyxl's reader, row by row
        raise SpecError(
            [
                Problem(
                    shown,
                    line + 1 if line else None,
                    "",
                    f"a sheet openpyxl cannot read ({type(e).__name__}: {_clip(str(e), 80)})",
                )
            ]
        ) from None
    finally:
        wb.close()
    if header is None:
        raise SpecError([Problem(shown, 1, "", "no header row (expected column names, e.g. id,count,name)")])
    return (header, head_line), rows


def _xlsx_open(data: bytes, shown: str) -> Any:
    """The workbook, read only, values and formulas as stored, links not followed (checked first by
    `_xlsx_check`); SpecError when openpyxl cannot read it."""
    _xlsx_check(data, shown)
    import warnings

    from openpyxl import load_workbook

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return load_workbook(io.BytesIO(data), read_only=True, data_only=False, keep_links=False)
    except Exception as e:  # openpyxl raises many types for a damaged workbook
        raise SpecError(
            [Problem(shown, None, "", f"not an .xlsx workbook openpyxl can read ({type(e).__name__})")]
        ) from None


def _xlsx_values(cells: Any, line: int, shown: str) -> list[Cell]:
    """One sheet row's values, trailing blanks dropped; SpecError for a formula or a number that is not
    finite."""
    values: list[Cell] = []
    for cell in cells:
        v = cell.value
        col = getattr(cell, "column_letter", "?")
        if getattr(cell, "data_type", "") == "f" or (isinstance(v, str) and v.startswith("=")):
            raise SpecError(
                [
                    Problem(
                        shown,
                        line,
                        f"cell {col}{line}",
                        f"a formula ({_clip(v)}); pnpkit reads values only: paste the values",
                    )
                ]
            )
        if isinstance(v, float) and not math.isfinite(v):
            raise SpecError([Problem(shown, line, f"cell {col}{line}", f"expected a finite number; got {v}")])
        if v is not None and not isinstance(v, (str, int, float, bool)):
            v = str(v)
        values.append(v)
    while values and values[-1] in (None, ""):
        values.pop()
    return values


_INT = re.compile(r"[+-]?[0-9]{1,9}")
_NUMBER = re.compile(r"[+-]?([0-9]{1,9}(\.[0-9]*)?|\.[0-9]+)")


def convert_cell(value: Cell, kind: FieldType) -> tuple[Any, str | None]:
    """(the cell as `kind`, None) or (None, why not): 'expected an integer; got 'x''. Empty cells are None."""
    if value is None or (isinstance(value, str) and value.strip() == ""):
        return None, None
    if kind == "text":
        if isinstance(value, float) and value.is_integer():
            return str(int(value)), None
        return (value.strip() if isinstance(value, str) else str(value)), None
    if kind == "bool":
        if isinstance(value, bool):
            return value, None
        text = str(value).strip().lower()
        if text in ("yes", "true", "1", "y"):
            return True, None
        if text in ("no", "false", "0", "n"):
            return False, None
        return None, f"expected yes or no; got {_clip(value)}"
    if isinstance(value, bool):
        return None, f"expected {'an integer' if kind == 'int' else 'a number'}; got {_clip(value)}"
    if kind == "int":
        if isinstance(value, int):
            return value, None
        if isinstance(value, float) and value.is_integer() and abs(value) < 1e9:
            return int(value), None
        if isinstance(value, str) and _INT.fullmatch(value.strip()):
            return int(value.strip()), None
        return None, f"expected an integer; got {_clip(value)}"
    if isinstance(value, (int, float)):
        return float(value), None
    if isinstance(value, str) and _NUMBER.fullmatch(value.strip()):
        return float(value.strip()), None
    return None, f"expected a number; got {_clip(value)}"


__all__ = [
    "MAX_CELL",
    "MAX_COLUMNS",
    "MAX_DATA_BYTES",
    "MAX_ROWS",
    "MAX_XLSX_UNZIPPED",
    "Row",
    "Table",
    "convert_cell",
    "inline_table",
    "read_table",
]
