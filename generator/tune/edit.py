"""The tuned kit: kit.yaml edited in place, its comments kept and each changed value annotated."""

from __future__ import annotations

import io
import json
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from generator.errors import SpecError
from generator.pipeline import check_kit, load_kits
from generator.spec.paths import read_kit_file
from generator.spec.yamlio import MAX_SPEC_BYTES, parse_yaml
from generator.tune.plan import Plan, get_path


def _yaml_value(v: Any) -> Any:
    from ruamel.yaml.comments import CommentedSeq

    if isinstance(v, list):
        seq = CommentedSeq(v)
        seq.fa.set_flow_style()
        return seq
    return v


def _changes(
    plan: Plan, values: dict[str, Any], budget: dict[str, Any]
) -> list[tuple[tuple[str, ...], Any, Any]]:
    """(kit.yaml keys, old value, new value) of every value the tuned kit changes."""
    out = [
        (s.tunable.keys, plan.original[s.path], values[s.path])
        for s in plan.space
        if values[s.path] != plan.original[s.path]
    ]
    for path, new in sorted(budget.items()):
        keys = tuple(path.split("."))
        old = get_path(plan.raw_game, keys[1:])
        if old != new:
            out.append((keys, old, new))
    return out


def tuned_yaml(plan: Plan, values: dict[str, Any], budget: dict[str, Any] | None = None) -> str:
    """kit.yaml with the changed values (and any game budget the proof raised) written in, each annotated with
    its old value. Each value is replaced in place on its own line (every other byte kept: layout, alignment,
    comments); a value that does not sit on one line falls back to a ruamel round-trip edit (comments kept,
    layout normalised)."""
    path = plan.kit.dir / "kit.yaml"
    data = read_kit_file(path, plan.kit.display, MAX_SPEC_BYTES, "kit.yaml")  # through the kit door
    text = data.decode("utf-8")
    _, where = parse_yaml(data, plan.kit.display)
    changed = _changes(plan, values, budget or {})
    lines = text.split("\n")
    for keys, old, new in changed:
        line_no = where.get(keys)
        edited = (
            None
            if line_no is None
            else _edit_line(lines[line_no - 1], keys, old, new, flow=_in_flow(where, keys))
        )
        if edited is None:
            return _tuned_yaml_rt(plan, changed)
        lines[line_no - 1] = edited  # type: ignore[operator]
    out = "\n".join(lines)
    data, _ = parse_yaml(out.encode("utf-8"), plan.kit.display)
    if any(get_path(data, keys) != new for keys, _, new in changed):
        return _tuned_yaml_rt(plan, changed)
    return out


def _in_flow(where: dict[Any, int], keys: tuple[str, ...]) -> bool:
    """The key sits on its parent's line (a flow mapping such as `goals: {points: 3}`)."""
    return len(keys) > 1 and where.get(keys[:-1]) == where.get(keys)


_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")


def _flow(v: Any) -> str:
    """A value as YAML flow text."""
    if isinstance(v, list):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return v if _PLAIN.fullmatch(v) and v not in ("true", "false", "null", "yes", "no") else json.dumps(v)
    if isinstance(v, float) and v.is_integer():
        return str(v)
    return str(v)


def _comment_at(line: str) -> int:
    """Index of the line's comment '#' (outside quotes, after a blank), or -1."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return i
    return -1


def _edit_line(line: str, keys: tuple[str, ...], old: Any, new: Any, *, flow: bool) -> str | None:
    """The line with `keys[-1]`'s value replaced and the old value noted in its comment; None if not found."""
    c = _comment_at(line)
    body, comment = (line, "") if c < 0 else (line[:c], line[c:])
    m = re.search(rf"(^|[\s{{,]){re.escape(keys[-1])}:\s*", body)
    if m is None:
        return None
    start = m.end()
    depth, end = 0, len(body.rstrip())
    for i in range(start, len(body)):
        ch = body[i]
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            if depth == 0:
                end = i
                break
            depth -= 1
        elif ch == "," and depth == 0 and flow:
            end = i
            break
    if depth < 0 or end <= start:
        return None
    body = body[:start] + _flow(new) + body[end:]
    note = f"pnpkit tune: {keys[-1] + ' ' if flow else ''}was {_flow(old)}"
    if comment:
        return f"{body}# {note}; {comment[1:].lstrip()}"
    return f"{body.rstrip()}  # {note}"


def _tuned_yaml_rt(plan: Plan, changed: list[tuple[tuple[str, ...], Any, Any]]) -> str:
    """The ruamel round-trip fallback of `tuned_yaml`."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 120
    yaml.indent(mapping=2, sequence=4, offset=2)
    data = yaml.load(
        read_kit_file(plan.kit.dir / "kit.yaml", plan.kit.display, MAX_SPEC_BYTES, "kit.yaml").decode("utf-8")
    )
    for keys, old, new in changed:
        parent = get_path(data, keys[:-1])
        parent[keys[-1]] = _yaml_value(new)
        note = f"pnpkit tune: was {show_value(old)}"
        # a flow mapping ({a: 1}) holds no comments: annotate the nearest key of a block mapping above it
        holder, key, depth = parent, keys[-1], len(keys) - 1
        while depth > 0 and holder.fa.flow_style():
            depth -= 1
            holder, key = get_path(data, keys[:depth]), keys[depth]
            note = f"pnpkit tune: {'.'.join(keys[depth + 1 :])} was {show_value(old)}"
        _add_note(holder, key, note)
    buf = io.StringIO()
    yaml.dump(data, buf)
    return buf.getvalue()


def show_value(v: Any) -> str:
    """A value as the annotation and the report print it (lists in brackets)."""
    if isinstance(v, list):
        return "[" + ", ".join(map(str, v)) + "]"
    return str(v)


def _add_note(holder: Any, key: str, note: str) -> None:
    """Put `# note` at the end of `key`'s line, before any comment already there."""
    old = holder.ca.items.get(key)
    tok = old[2] if old and len(old) > 2 else None
    if tok is not None and tok.value.lstrip().startswith("#"):
        text = tok.value
        first, nl, rest = text.partition("\n")
        tok.value = f"# {note}; {first.lstrip()[1:].strip()}{nl}{rest}"
        return
    holder.yaml_add_eol_comment(note, key)


def write_tuned(plan: Plan, values: dict[str, Any], out: Path, budget: dict[str, Any] | None = None) -> Path:
    """Copy the kit folder to OUT/<kit>-tuned (replacing an earlier one), write the tuned kit.yaml, check."""
    out.mkdir(parents=True, exist_ok=True)
    dest = out / f"{plan.kit.dir.name}-tuned"
    stage = Path(tempfile.mkdtemp(prefix=".tune-", dir=out))
    try:
        staged = stage / dest.name
        shutil.copytree(
            plan.kit.dir, staged, symlinks=False, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*")
        )
        (staged / "kit.yaml").write_text(tuned_yaml(plan, values, budget), encoding="utf-8")
        (kit,) = load_kits([staged])
        problems = check_kit(kit)
        if problems:
            raise SpecError(problems)
        if dest.exists():
            shutil.rmtree(dest)
        staged.rename(dest)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return dest
