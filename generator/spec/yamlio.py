"""Read YAML safely with the line of every key and item, as plain Python data plus a line map."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from generator.errors import Problem, SpecError
from generator.spec.paths import read_bytes

MAX_SPEC_BYTES = 512 * 1024
MAX_NODES = 50_000
Loc = tuple[str | int, ...]
_PLAIN_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map")}


MAX_DEPTH = 40
MAX_DIGITS = 40
_LONG_NUMBER_RE = re.compile(rf"(?<![\w.])[-+]?\d[\d_]{{{MAX_DIGITS - 1},}}")


def read_yaml(path: Path, display: str) -> tuple[Any, dict[Loc, int]]:
    """Parse a YAML file into plain dicts/lists/scalars and {key path: 1-based line}.

    The round-trip loader builds no Python objects from tags (it is safe on untrusted input); tags,
    anchors used as bombs, oversized files, nesting deeper than MAX_DEPTH and numbers longer than
    MAX_DIGITS digits are refused with a located message. The caller resolves `path` (see spec.paths).
    """
    data = read_bytes(path, display, MAX_SPEC_BYTES, "the file")
    return parse_yaml(data, display)


def parse_yaml(data: bytes, display: str) -> tuple[Any, dict[Loc, int]]:
    """read_yaml on bytes already read."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise SpecError(
            [Problem(display, line, "", f"not UTF-8 text ({e.reason} at byte {e.start})")]
        ) from None
    problems = _shape_problems(text, display)
    if problems:
        raise SpecError(problems)
    # imported here: a rebuild that reuses the last parse (generator.buildkeys.Memo) loads no ruamel
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        raw = yaml.load(text)
    except MarkedYAMLError as e:
        mark_line = e.problem_mark.line + 1 if e.problem_mark is not None else None
        what = (e.problem or str(e)).strip()
        raise SpecError([Problem(display, mark_line, "", f"YAML syntax: {clip(what, 120)}")]) from None
    except YAMLError as e:
        raise SpecError([Problem(display, None, "", f"YAML syntax: {clip(str(e), 120)}")]) from None
    except RecursionError:
        raise SpecError([Problem(display, None, "", f"nested more than {MAX_DEPTH} levels deep")]) from None
    lines: dict[Loc, int] = {}
    counter = [0]
    data_out = _plain(raw, (), lines, counter, display, text.splitlines())
    return data_out, lines


def _shape_problems(text: str, display: str) -> list[Problem]:
    """Nesting deeper than MAX_DEPTH (the YAML parser recurses) and over-long numbers, at their line."""
    problems: list[Problem] = []
    indents: list[int] = []
    flow = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        body = line.lstrip(" ")
        if not body or body.startswith("#"):
            continue
        if flow == 0:
            indent = len(line) - len(body)
            while indents and indents[-1] >= indent:
                indents.pop()
            indents.append(indent)
        depth = len(indents) + len(re.findall(r"(?:^|\s)- ", body))
        quote = ""
        for ch in body:
            if quote:
                if ch == quote:
                    quote = ""
            elif ch in "'\"":
                quote = ch
            elif ch == "#":
                break
            elif ch in "[{":
                flow += 1
                if flow + depth > MAX_DEPTH:
                    break
            elif ch in "]}":
                flow = max(0, flow - 1)
        if flow + depth > MAX_DEPTH:
            problems.append(
                Problem(display, lineno, "", f"nested more than {MAX_DEPTH} levels deep; refusing")
            )
            return problems
        m = _LONG_NUMBER_RE.search(body)
        if m:
            problems.append(
                Problem(
                    display,
                    lineno,
                    "",
                    f"a number of {len(m.group(0))} digits; numbers in a kit have at most {MAX_DIGITS - 1}",
                )
            )
    return problems


def clip(text: str, limit: int = 80) -> str:
    """`text` cut to `limit` characters (with ...), control characters escaped: safe to print in a message."""
    out = "".join(
        ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
        for ch in text[: limit + 1]
    )
    return out if len(out) <= limit else out[: limit - 3] + "..."


class DecimalFloat(float):
    """A YAML float whose written decimal the float does not hold (more digits than a float keeps): the float,
    with `text` as written, so a reader that wants the exact number (games/deck's exact bounds) has it."""

    text: str

    def __new__(cls, value: float, text: str) -> DecimalFloat:
        out = super().__new__(cls, value)
        out.text = text
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        return (DecimalFloat, (float(self), self.text))


_DECIMAL_RE = re.compile(r"[-+]?(\d[\d_]*(\.[\d_]*)?|\.[\d_]+)([eE][-+]?\d+)?")


def _float(node: float, at: tuple[int, int] | None, source: list[str]) -> float:
    """A float scalar: the float, or a DecimalFloat where the text written says more than the float holds."""
    from fractions import Fraction

    value = float(node)
    if at is None or not 0 <= at[0] < len(source) or not math.isfinite(value):
        return value
    m = _DECIMAL_RE.match(source[at[0]], at[1])
    if m is None:
        return value
    written = m.group(0).replace("_", "")
    try:
        if float(written) != value or Fraction(written) == Fraction(repr(value)):
            return value
    except (ValueError, ZeroDivisionError):
        return value
    return DecimalFloat(value, written)


def _plain(
    node: Any,
    loc: Loc,
    lines: dict[Loc, int],
    counter: list[int],
    display: str,
    source: list[str] | None = None,
) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    counter[0] += 1
    if counter[0] > MAX_NODES:
        raise SpecError(
            [
                Problem(
                    display,
                    lines.get(loc),
                    _dotted(loc),
                    f"more than {MAX_NODES} YAML nodes (aliases expanding?); refusing",
                )
            ]
        )
    tag = getattr(node, "tag", None)
    tag_value = getattr(tag, "value", None) if tag is not None else None
    if tag_value and str(tag_value) not in _PLAIN_TAGS:
        raise SpecError(
            [Problem(display, lines.get(loc), _dotted(loc), f"YAML tags are not allowed; got {tag_value!r}")]
        )
    if isinstance(node, CommentedMap):
        out: dict[str, Any] = {}
        for k, v in node.items():
            key = str(k)
            child = loc + (key,)
            try:
                lines[child] = node.lc.key(k)[0] + 1
            except (KeyError, TypeError, AttributeError):
                lines[child] = lines.get(loc, 1)
            if isinstance(v, float) and not isinstance(v, bool) and source is not None:
                out[key] = _float(v, _position(node.lc.value, k), source)
                continue
            out[key] = _plain(v, child, lines, counter, display, source)
        return out
    if isinstance(node, CommentedSeq):
        items = []
        for i, v in enumerate(node):
            child = loc + (i,)
            try:
                lines[child] = node.lc.item(i)[0] + 1
            except (KeyError, TypeError, AttributeError):
                lines[child] = lines.get(loc, 1)
            if isinstance(v, float) and source is not None:
                items.append(_float(v, _position(node.lc.item, i), source))
                continue
            items.append(_plain(v, child, lines, counter, display, source))
        return items
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    return str(node)


def _position(where: Any, key: Any) -> tuple[int, int] | None:
    """(line, column), 0-based, of a mapping's value or a sequence's item, None if the parser kept none."""
    try:
        line, col = where(key)
        return int(line), int(col)
    except (KeyError, TypeError, AttributeError, ValueError):
        return None


def _dotted(loc: Loc) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out


def dotted(loc: Loc) -> str:
    """("game", "bonuses", 3) -> "game.bonuses[3]"."""
    return _dotted(loc)


def parse_dotted(path: str) -> Loc:
    """ "game.bonuses[3]" -> ("game", "bonuses", 3). Only trailing [digits] are indices: a user key such as
    "number[cards" stays one key."""
    out: list[str | int] = []
    for part in path.split("."):
        if not part:
            continue
        m = re.fullmatch(r"(.*?)((?:\[\d+\])*)", part)
        head, idx = (m.group(1), m.group(2)) if m else (part, "")
        if head:
            out.append(head)
        out.extend(int(i) for i in re.findall(r"\[(\d+)\]", idx))
    return tuple(out)


def line_of(lines: dict[Loc, int], loc: Loc) -> int | None:
    """The line of `loc`, or of its nearest ancestor that has one."""
    while loc:
        if loc in lines:
            return lines[loc]
        loc = loc[:-1]
    return None
