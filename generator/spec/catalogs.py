"""Locale catalogs (gettext .po) -> frozen {text id: template} mappings, parsed strictly.

Babel's reader is lenient (an unterminated string is cut short, a repeated msgid silently wins, the header's
charset picks the decoding). Catalogs come from strangers, so a strict pass runs first and every problem is
reported at its line: the file must be UTF-8 (a BOM is allowed; the header charset, if given, must say
UTF-8), every line must be blank, a comment, a keyword with one complete quoted string, or a quoted
continuation, and no msgid may repeat (per msgctxt).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from babel.messages.pofile import PoFileError, read_po

from generator.errors import Problem, SpecError
from generator.spec.paths import read_bytes, resolve_inside

MAX_CATALOG_BYTES = 512 * 1024
PSEUDO = "qps"
"""The pseudo-locale (generator/i18n/pseudo.py): English lengthened and accented; any kit can be built in
it."""
_QUOTED = r'"(?:[^"\\]|\\.)*"'
_KEYWORD_RE = re.compile(rf"^(msgctxt|msgid|msgid_plural|msgstr|msgstr\[\d+\])[ \t]+({_QUOTED})[ \t]*$")
_CONTINUATION_RE = re.compile(rf"^({_QUOTED})[ \t]*$")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
_CHARSET_RE = re.compile(r"charset\s*=\s*([^\s;]+)", re.IGNORECASE)


@dataclass(frozen=True)
class Catalog:
    """One language's strings: text id -> Jinja2 template text; lines for error messages."""

    lang: str
    path: str
    messages: Mapping[str, str]
    lines: Mapping[str, int]
    header: Mapping[str, tuple[str, int]] = field(default_factory=lambda: MappingProxyType({}))
    """The header's fields (name -> value, line), e.g. X-Form-Of-Address (docs/translating.md)."""


def _unquote(quoted: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), "\\" + m.group(1)), quoted[1:-1])


def strict_problems(text: str, display: str) -> list[Problem]:
    """Every line-level problem of a .po text: bad lines, unterminated strings, repeated msgids, charset."""
    problems: list[Problem] = []
    seen: dict[tuple[str, str], int] = {}
    entries: list[tuple[str, int, dict[str, str]]] = []  # (keyword being continued, line, fields)
    current: dict[str, str] | None = None
    key = ""
    for lineno, raw in enumerate(_lines(text), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            continue
        m = _KEYWORD_RE.match(line)
        if m:
            key = m.group(1)
            if key in ("msgctxt", "msgid") and (
                current is None
                or "msgstr" in current
                or "msgstr[0]" in current
                or (key == "msgid" and "msgid" in current)
            ):
                current = {}
                entries.append((key, lineno, current))
            if current is None:
                problems.append(Problem(display, lineno, "", f"{key} without a msgid before it"))
                current = {}
            current[key] = _unquote(m.group(2))
            continue
        m = _CONTINUATION_RE.match(line)
        if m and current is not None and key:
            current[key] = current.get(key, "") + _unquote(m.group(1))
            continue
        if line.count('"') % 2 == 1 or (line.startswith(("msg", '"')) and not line.endswith('"')):
            why = 'unterminated string (a closing " is missing)'
        else:
            why = "expected msgid, msgstr, a quoted continuation or a # comment"
        problems.append(Problem(display, lineno, "", f"{why}; got {_clip(raw)}"))
    for _, lineno, fields in entries:
        if "msgid" not in fields:
            problems.append(Problem(display, lineno, "", "entry without a msgid"))
            continue
        ident = (fields.get("msgctxt", ""), fields["msgid"])
        if ident in seen:
            problems.append(
                Problem(
                    display,
                    lineno,
                    fields["msgid"] or "(header)",
                    f"msgid repeats the entry at line {seen[ident]}; each text id appears once",
                )
            )
        else:
            seen[ident] = lineno
        if fields["msgid"] == "" and "msgctxt" not in fields:
            m = _CHARSET_RE.search(fields.get("msgstr", ""))
            if m and m.group(1).strip().lower() not in ("utf-8", "utf8"):
                problems.append(
                    Problem(
                        display,
                        lineno,
                        "charset",
                        f"expected UTF-8 (catalogs are UTF-8 text); got {_clip(m.group(1))}",
                    )
                )
    return problems


def header_fields(text: str) -> dict[str, tuple[str, int]]:
    """The fields of a .po header (the msgstr of the first `msgid ""`): name -> (value, line of the field)."""
    fields: dict[str, tuple[str, int]] = {}
    state = ""  # "" before the header, "id" in its msgid, "str" in its msgstr
    for lineno, raw in enumerate(_lines(text), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            if state == "str":
                break
            continue
        m = _KEYWORD_RE.match(line)
        if m:
            if state == "" and m.group(1) == "msgid" and m.group(2) == '""':
                state = "id"
            elif state == "id" and m.group(1) == "msgstr":
                state = "str"
                chunk = _unquote(m.group(2))
                if chunk:
                    _header_line(chunk, lineno, fields)
            else:
                break
            continue
        m = _CONTINUATION_RE.match(line)
        if m and state == "str":
            _header_line(_unquote(m.group(1)), lineno, fields)
        elif not m or state != "id":
            break
    return fields


def _header_line(chunk: str, lineno: int, fields: dict[str, tuple[str, int]]) -> None:
    for part in chunk.split("\n"):
        name, sep, value = part.partition(":")
        if sep and name.strip():
            fields.setdefault(name.strip(), (value.strip(), lineno))


def _lines(text: str) -> list[str]:
    """The lines of a .po text: cut at LF, CR LF or CR only (str.splitlines also cuts at U+2028, NEL and
    form feeds, which a quoted string may hold)."""
    lines = re.split("\r\n|\r|\n", text)
    return lines[:-1] if lines and lines[-1] == "" else lines


def _control_characters(text: str) -> str:
    """Control characters of a translation other than line breaks (\\n, \\r), in order of first appearance."""
    return "".join(
        dict.fromkeys(ch for ch in text if unicodedata.category(ch) == "Cc" and ch not in "\n\r\x85")
    )


def _clip(text: str, limit: int = 60) -> str:
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def parse_catalog(data: bytes, display: str, lang: str) -> Catalog:
    """A catalog from the bytes of a .po file, strictly checked (every problem located)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise SpecError(
            [
                Problem(
                    display,
                    line,
                    "",
                    f"not UTF-8 text ({e.reason} at byte {e.start}); save the catalog as UTF-8",
                )
            ]
        ) from None
    problems = strict_problems(text, display)
    if problems:
        raise SpecError(problems)
    try:
        cat = read_po([line + "\n" for line in _lines(text)], locale=lang, abort_invalid=True)
    except (PoFileError, ValueError, LookupError) as e:
        raise SpecError(
            [Problem(display, None, "", f"cannot parse the catalog: {_clip(str(e), 120)}")]
        ) from None
    messages: dict[str, str] = {}
    lines: dict[str, int] = {}
    for m in cat:
        if not m.id or m.fuzzy:
            continue
        if not isinstance(m.id, str) or not isinstance(m.string, str):
            problems.append(
                Problem(
                    display,
                    m.lineno,
                    str(m.id),
                    "plural entries are not used; write plural(n, ...) in the template",
                )
            )
            continue
        bad = _control_characters(m.string)
        if bad:
            codes = ", ".join(f"U+{ord(ch):04X}" for ch in bad)
            problems.append(
                Problem(
                    display,
                    m.lineno,
                    m.id,
                    f"control character {codes} cannot be printed "
                    f"(a line break is \\n); got {_clip(m.string)}",
                )
            )
            continue
        if m.string:
            messages[m.id] = m.string
            lines[m.id] = m.lineno or 0
    if problems:
        raise SpecError(problems)
    return Catalog(
        lang,
        display,
        MappingProxyType(messages),
        MappingProxyType(lines),
        MappingProxyType(header_fields(text)),
    )


def read_catalog(path: Path, display: str, lang: str, root: Path | None = None) -> Catalog:
    """Read a .po file whose msgids are text ids and msgstrs the translations (fuzzy entries ignored).

    With `root` (the resolved kit folder), the file must resolve inside it and be a regular file.
    """
    what = f"the {lang} catalog"
    if root is not None:
        real = resolve_inside(root, path, display, what)
    else:
        real = path if path.is_file() else None
    if real is None or not real.is_file():
        raise SpecError([Problem(display, None, "", f"missing catalog for language {lang!r}")])
    return parse_catalog(read_bytes(real, display, MAX_CATALOG_BYTES, what), display, lang)


_LONE = re.compile(r"(?<!\{)\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}(?!\})")
"""`{name}` that is not part of a `{{ name }}` expression."""
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.DOTALL)


def lone_placeholders(catalog: Catalog) -> list[str]:
    """One warning per catalog string holding a lone `{name}` (it prints as written: values go in as
    `{{ name }}`): 'FILE:LINE: MSGID: ...', in catalog order."""
    out = []
    for tid, text in sorted(catalog.messages.items(), key=lambda kv: (catalog.lines.get(kv[0], 0), kv[0])):
        outside = _JINJA.sub(" ", text)  # what Jinja prints as written
        found = list(dict.fromkeys(m.group(0) for m in _LONE.finditer(outside)))
        if found:
            names = ", ".join(found[:5])
            fixed = ", ".join("{{ " + _LONE.fullmatch(f).group(1) + " }}" for f in found[:5])  # type: ignore[union-attr]
            out.append(
                f"{catalog.path}:{catalog.lines.get(tid, 0)}: {tid}: {names} prints as written (a lone "
                f"placeholder); write {fixed}"
            )
    return out
