"""Read YAML safely with the line of every key and item, as plain Python data plus a line map."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from generator.errors import Problem, SpecError

MAX_SPEC_BYTES = 512 * 1024
MAX_NODES = 50_000
Loc = tuple[str | int, ...]
_PLAIN_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map")}


def read_yaml(path: Path, display: str) -> tuple[Any, dict[Loc, int]]:
    """Parse a YAML file into plain dicts/lists/scalars and {key path: 1-based line}.

    The round-trip loader builds no Python objects from tags (it is safe on untrusted input); tags,
    anchors used as bombs and oversized files are refused with a located message.
    """
    try:
        size = path.stat().st_size
    except OSError as e:
        raise SpecError([Problem(display, None, "", f"cannot read the file ({e.strerror})")]) from None
    if size > MAX_SPEC_BYTES:
        raise SpecError([Problem(display, None, "", f"file is {size} bytes; the limit is {MAX_SPEC_BYTES}")])
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise SpecError([Problem(display, None, "", f"not UTF-8 text ({e.reason} at byte {e.start})")]) from None
    try:
        raw = yaml.load(text)
    except MarkedYAMLError as e:
        line = e.problem_mark.line + 1 if e.problem_mark is not None else None
        what = (e.problem or str(e)).strip()
        raise SpecError([Problem(display, line, "", f"YAML syntax: {what}")]) from None
    except YAMLError as e:
        raise SpecError([Problem(display, None, "", f"YAML syntax: {e}")]) from None
    lines: dict[Loc, int] = {}
    counter = [0]
    data = _plain(raw, (), lines, counter, display)
    return data, lines


def _plain(node: Any, loc: Loc, lines: dict[Loc, int], counter: list[int], display: str) -> Any:
    counter[0] += 1
    if counter[0] > MAX_NODES:
        raise SpecError([Problem(display, lines.get(loc), _dotted(loc), f"more than {MAX_NODES} YAML nodes (aliases expanding?); refusing")])
    tag = getattr(node, "tag", None)
    tag_value = getattr(tag, "value", None) if tag is not None else None
    if tag_value and str(tag_value) not in _PLAIN_TAGS:
        raise SpecError([Problem(display, lines.get(loc), _dotted(loc), f"YAML tags are not allowed; got {tag_value!r}")])
    if isinstance(node, CommentedMap):
        out: dict[str, Any] = {}
        for k, v in node.items():
            key = str(k)
            child = loc + (key,)
            try:
                lines[child] = node.lc.key(k)[0] + 1
            except (KeyError, TypeError, AttributeError):
                lines[child] = lines.get(loc, 1)
            out[key] = _plain(v, child, lines, counter, display)
        return out
    if isinstance(node, CommentedSeq):
        items = []
        for i, v in enumerate(node):
            child = loc + (i,)
            try:
                lines[child] = node.lc.item(i)[0] + 1
            except (KeyError, TypeError, AttributeError):
                lines[child] = lines.get(loc, 1)
            items.append(_plain(v, child, lines, counter, display))
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
    """"game.bonuses[3]" -> ("game", "bonuses", 3)."""
    out: list[str | int] = []
    for part in path.replace("]", "").split("."):
        if not part:
            continue
        head, *idx = part.split("[")
        if head:
            out.append(head)
        out.extend(int(i) for i in idx)
    return tuple(out)


def line_of(lines: dict[Loc, int], loc: Loc) -> int | None:
    """The line of `loc`, or of its nearest ancestor that has one."""
    while loc:
        if loc in lines:
            return lines[loc]
        loc = loc[:-1]
    return None
