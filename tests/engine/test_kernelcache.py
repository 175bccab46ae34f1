"""The kernels' disk cache seen from outside numba: which game is cached, pruning old versions' folders,
clearing."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine import kernelcache
from generator.engine.kernelcache import (
    KEEP_RECENT_SECONDS,
    cache_folders,
    clear,
    is_cached,
    last_compile_seconds,
    module_cache_dir,
    prune,
    record_compile_seconds,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def base(tmp_path, monkeypatch) -> Path:
    """An empty user cache: <tmp>/pnpkit/numba."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "pnpkit" / "numba"


def _folder(base: Path, salt: str, age: float, size: int = 1000) -> Path:
    """A salted folder with one file of `size` bytes, last written `age` seconds ago."""
    d = base / salt / "engine_x"
    d.mkdir(parents=True)
    (d / "kernel.f-1.py311.nbi").write_bytes(b"x" * size)
    stamp = time.time() - age
    for p in (d / "kernel.f-1.py311.nbi", d, base / salt):
        os.utime(p, (stamp, stamp))
    return base / salt


def test_module_cache_dir_is_numbas_own_locator(tmp_path):
    from numba.core.caching import _CacheLocator

    source = ROOT / "generator" / "games" / "ripple_rush" / "kernel.py"
    assert module_cache_dir(tmp_path, source) == tmp_path / _CacheLocator.get_suitable_cache_subpath(
        str(source)
    )
    assert module_cache_dir(tmp_path, source).name.endswith(
        hashlib.sha1(str(source.parent).encode()).hexdigest()
    )


def test_a_game_is_cached_when_each_module_with_kernels_has_an_index(tmp_path):
    package = ROOT / "generator" / "games" / "peak_dice"  # kernels in kernel, planner, planner_reroll, sheet
    where = module_cache_dir(tmp_path, package / "kernel.py")
    assert not is_cached(tmp_path, package)
    where.mkdir(parents=True)
    for stem in ("kernel", "planner", "planner_reroll"):
        (where / f"{stem}.play-10.py311.nbi").write_bytes(b"")
    assert not is_cached(tmp_path, package)  # sheet.py's kernels are not there yet
    (where / "sheet.score-3.py311.nbi").write_bytes(b"")
    assert is_cached(tmp_path, package)


def test_a_warm_up_marks_its_game_cached_in_its_own_folder(tmp_path):
    """A module whose kernels a check never plays would leave the game 'uncompiled' for ever: the warm-up's
    mark says it is done, for this checkout's package folder only."""
    from generator.engine.kernelcache import mark_warm

    package = ROOT / "generator" / "games" / "peak_dice"
    mark_warm(tmp_path, package)
    assert is_cached(tmp_path, package)
    assert not is_cached(tmp_path, ROOT / "generator" / "games" / "ripple_rush")
    assert not is_cached(tmp_path, ROOT / "generator" / "games" / "deck")  # no kernels: nothing to be cached


def test_prune_keeps_the_newest_and_the_recently_used(base):
    day = 86400.0
    current = base / "0000000000000000"
    old = [_folder(base, f"{i:016x}", age=(i + 2) * day) for i in range(1, 6)]  # 3, 4, 5, 6, 7 days old
    recent = _folder(base, "aaaaaaaaaaaaaaaa", age=KEEP_RECENT_SECONDS / 2)
    (base / "not-a-salt").mkdir()  # a folder pnpkit did not make is never touched
    removed = prune(current, keep=3)
    # the current one counts as one of the 3: the two newest others stay (the recent one, then 3 days old);
    # of the rest only those not used in the last hour go
    assert sorted(removed) == sorted(old[1:])
    assert sorted(p.name for p in base.iterdir()) == sorted([old[0].name, recent.name, "not-a-salt"])


def test_cache_folders_sizes_and_clear(base):
    a = _folder(base, "1111111111111111", age=10, size=5000)
    b = _folder(base, "2222222222222222", age=5000, size=300)
    record_compile_seconds("ripple_rush", 12.34)
    found = cache_folders(current=a)
    assert [(f.path, f.size, f.current) for f in found] == [(a, 5000, True), (b, 300, False)]
    assert last_compile_seconds("ripple_rush") == 12.3 and last_compile_seconds("raindrops") is None
    assert [f.path for f in clear(a)] == [a, b]
    assert cache_folders() == [] and last_compile_seconds("ripple_rush") is None


def test_a_user_chosen_numba_cache_dir_is_theirs(base, monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert kernelcache.user_cache_dir()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(base / "0123456789abcdef"))  # the one pnpkit sets
    assert not kernelcache.user_cache_dir()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["@jit", "@", "jit", "\n", "\r", " ", "x", "#"]), max_size=12).map("".join))
def test_a_jit_line_is_found_as_the_multiline_regex_finds_it(text):
    """`_has_jit_line` (a substring search) finds a line starting with @jit exactly where `^@jit` does."""
    import re

    assert kernelcache._has_jit_line(text) == bool(re.search(r"^@jit", text, re.M))
