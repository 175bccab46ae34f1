"""Locale catalogs (gettext .po via Babel) -> frozen {text id: template} mappings."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

from babel.messages.pofile import PoFileError, read_po

from generator.errors import Problem, SpecError

MAX_CATALOG_BYTES = 512 * 1024


@dataclass(frozen=True)
class Catalog:
    """One language's strings: text id -> Jinja2 template text; lines for error messages."""

    lang: str
    path: str
    messages: Mapping[str, str]
    lines: Mapping[str, int]


def read_catalog(path: Path, display: str, lang: str) -> Catalog:
    """Read a .po file whose msgids are text ids and msgstrs the translations (fuzzy entries ignored)."""
    if not path.is_file():
        raise SpecError([Problem(display, None, "", f"missing catalog for language {lang!r}")])
    size = path.stat().st_size
    if size > MAX_CATALOG_BYTES:
        raise SpecError([Problem(display, None, "", f"catalog is {size} bytes; the limit is {MAX_CATALOG_BYTES}")])
    try:
        with path.open("rb") as fh:
            cat = read_po(fh, locale=lang, abort_invalid=True)
    except (PoFileError, ValueError) as e:
        raise SpecError([Problem(display, None, "", f"cannot parse the catalog: {e}")]) from None
    messages: dict[str, str] = {}
    lines: dict[str, int] = {}
    problems = []
    for m in cat:
        if not m.id or m.fuzzy:
            continue
        if not isinstance(m.id, str) or not isinstance(m.string, str):
            problems.append(Problem(display, m.lineno, str(m.id), "plural entries are not used; write plural(n, ...) in the template"))
            continue
        if m.string:
            messages[m.id] = m.string
            lines[m.id] = m.lineno or 0
    if problems:
        raise SpecError(problems)
    return Catalog(lang, display, MappingProxyType(messages), MappingProxyType(lines))
