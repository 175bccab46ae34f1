"""A kit.yaml is parsed once per machine: later commands read the parse from the user's cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import SpecError
from generator.pipeline import parsecache
from generator.pipeline.load import load_kits
from generator.spec import yamlio

ROOT = Path(__file__).resolve().parents[2]
TEXT = b"a:\n  1: x\n  b: [1, 2.5, null, true, 'y']\nc: {d: [{e: 3}]}\n"


@pytest.fixture
def parses(tmp_path, monkeypatch):
    """The cache in a folder of its own; the real parser counted."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    calls: list[bytes] = []
    real = yamlio.parse_yaml

    def counted(data: bytes, display: str):  # type: ignore[no-untyped-def]
        calls.append(data)
        return real(data, display)

    monkeypatch.setattr(parsecache, "parse_yaml", counted)
    return calls


def test_the_same_bytes_are_parsed_once_and_read_back_equal(parses):
    fresh = yamlio.parse_yaml(TEXT, "k.yaml")
    assert parsecache.cached_parse(TEXT, "k.yaml") == fresh
    again = parsecache.cached_parse(TEXT, "other.yaml")
    assert again == fresh and list(again[1]) == list(fresh[1])  # values, lines and key order
    assert len(parses) == 1
    assert parsecache.cached_parse(TEXT + b"f: 1\n", "k.yaml")[0]["f"] == 1  # other bytes: parsed
    assert len(parses) == 2


def test_a_damaged_entry_is_parsed_again_and_a_failing_parse_is_never_kept(parses):
    parsecache.cached_parse(TEXT, "k.yaml")
    (entry,) = parsecache.cache_folder().glob("*.json")
    entry.write_text('["cut short', encoding="utf-8")
    assert parsecache.cached_parse(TEXT, "k.yaml") == yamlio.parse_yaml(TEXT, "k.yaml")
    assert len(parses) == 2
    for _ in range(2):
        with pytest.raises(SpecError, match="YAML syntax"):
            parsecache.cached_parse(b"a: [1\n", "bad.yaml")
    assert len(parses) == 4 and len(list(parsecache.cache_folder().glob("*.json"))) == 1


def test_another_parser_version_starts_afresh_and_keeps_only_the_newest_folders(parses, monkeypatch):
    """A new parser parses again; the folders of the KEEP_PARSERS newest parsers stay (two installs side by
    side do not remove each other's), older ones go."""
    import os

    parsecache.cached_parse(TEXT, "k.yaml")
    folders = [parsecache.cache_folder()]
    for n in range(1, parsecache.KEEP_PARSERS + 1):
        os.utime(folders[-1], (n, n))  # each older than the next
        monkeypatch.setattr(parsecache, "_parser_digest", lambda n=n: str(n) * 16)
        parsecache.cached_parse(TEXT, "k.yaml")
        folders.append(parsecache.cache_folder())
    assert len(parses) == 1 + parsecache.KEEP_PARSERS
    assert [f.is_dir() for f in folders] == [False] + [True] * parsecache.KEEP_PARSERS
    monkeypatch.setattr(parsecache, "_parser_digest", lambda: "2" * 16)  # a kept parser: its parse is read
    parsecache.cached_parse(TEXT, "k.yaml")
    assert len(parses) == 1 + parsecache.KEEP_PARSERS


def test_commands_without_a_build_record_load_a_kit_from_the_cached_parse(parses):
    (first,) = load_kits([ROOT / "layouts" / "ripple_rush"])
    (second,) = load_kits([ROOT / "layouts" / "ripple_rush"])
    assert len(parses) == 1 and second.section == first.section and second.lines == first.lines
