"""A kit.yaml parsed once per machine, not once per command: `cached_parse` is `yamlio.parse_yaml` through a
folder of the user's cache, each parse filed under the digest of the bytes it parsed.

A parse is a pure function of the file's bytes and of the parser (yamlio.py and ruamel.yaml's version): the
folder is named by the parser's digest, so an upgrade never reads another parser's results (and the folders
of all but the newest KEEP_PARSERS parsers go). Only a parse that succeeded and is plain JSON data is filed; a
file that cannot be read back (cut short, edited, another format) is parsed again. `check`, `validate` and the
other commands that keep no build record skip ruamel.yaml (import and parse: 30-110 ms a kit) when the
kit.yaml did not change; a build keeps its own parses in its record (`load.memo_parse`)."""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from generator.spec.yamlio import Loc, parse_yaml

MAX_ENTRIES = 512
"""Parses kept per parser version; beyond it the older half goes (a designer's edits file a parse each)."""

KEEP_PARSERS = 3
"""Parser versions whose folders are kept (the newest): two installs of pnpkit side by side (a checkout and a
release, two branches) each keep theirs instead of removing the other's at every command."""


def cache_folder() -> Path:
    """`$XDG_CACHE_HOME/pnpkit/yaml/<parser digest>` (`~/.cache/...`)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pnpkit" / "yaml" / _parser_digest()


@cache
def _parser_digest() -> str:
    """The digest of what a parse depends on: yamlio.py's bytes and ruamel.yaml's version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        ruamel = version("ruamel.yaml")
    except PackageNotFoundError:  # pragma: no cover - a dependency of pnpkit
        ruamel = "?"
    source = (Path(__file__).parents[1] / "spec" / "yamlio.py").read_bytes()
    return hashlib.sha256(source + b"\0" + ruamel.encode()).hexdigest()[:16]


def cached_parse(data: bytes, display: str) -> tuple[Any, dict[Loc, int]]:
    """`parse_yaml(data, display)`, from the user's cache when these bytes were parsed before."""
    from generator.buildkeys import _plain_json

    folder = cache_folder()
    entry = folder / f"{hashlib.sha256(data).hexdigest()}.json"
    hit = _read(entry)
    if hit is not None:
        return hit
    value, lines = parse_yaml(data, display)
    stored = [value, [[list(loc), line] for loc, line in lines.items()]]
    if _plain_json(stored):
        _write(folder, entry, json.dumps(stored, ensure_ascii=False))
    return value, lines


def _read(entry: Path) -> tuple[Any, dict[Loc, int]] | None:
    try:
        value, lines = json.loads(entry.read_text(encoding="utf-8"))
        return value, {tuple(loc): int(line) for loc, line in lines}
    except (OSError, ValueError, TypeError):  # none yet, or not a parse this code wrote
        return None


def _write(folder: Path, entry: Path, text: str) -> None:
    """File `text` as `entry` (written whole, then renamed); a new parser's folder removes the others';
    best effort (a cache that cannot be written only costs the next command a parse)."""
    try:
        if not folder.is_dir():
            others = sorted(
                (old for old in folder.parent.glob("*") if old.is_dir() and old != folder),
                key=lambda old: old.stat().st_mtime,
            )
            for old in others[: max(0, len(others) - (KEEP_PARSERS - 1))]:
                _remove(old)
            folder.mkdir(parents=True, exist_ok=True)
        tmp = entry.with_name(f".{entry.name}.{os.getpid()}")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, entry)
        entries = list(folder.glob("*.json"))
        if len(entries) > MAX_ENTRIES:
            entries.sort(key=lambda p: p.stat().st_mtime)
            for p in entries[: len(entries) // 2]:
                p.unlink(missing_ok=True)
    except OSError:
        pass


def _remove(folder: Path) -> None:
    for p in folder.glob("*"):
        p.unlink(missing_ok=True)
    folder.rmdir()
