"""`kernel.compile_parts`: a game's registered compile parts compile at once, all but the first in processes
of their own, which leave their machine code in numba's disk cache for this process to load; a part that fails
elsewhere only leaves its compile to this process."""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from generator.engine import kernel

pytestmark = pytest.mark.skipif(not kernel.HAVE_NUMBA, reason="numba not installed (or PNPKIT_PURE=1)")

GAME = """
from generator.engine.kernel import compile_for, compile_part, jit

@jit
def here_fn(x):
    return x + 1

@jit
def aside_fn(x):
    return x * 3 + 1

@compile_part
def here():
    compile_for(here_fn, 1)

@compile_part
def aside():
    {aside}
"""


def _game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, aside: str) -> object:
    """A game package `name` in tmp_path whose module `kern` has two parts (here, aside), imported."""
    pkg = tmp_path / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "kern.py").write_text(textwrap.dedent(GAME.format(aside=aside)))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))  # the helper process imports the game too
    return importlib.import_module(f"{name}.kern")


def test_the_second_part_compiles_in_another_process_and_is_loaded_here(tmp_path, monkeypatch):
    game = _game(tmp_path, monkeypatch, "parts_game_a", "compile_for(aside_fn, 1)")
    assert kernel.registered_parts("parts_game_a") == ["parts_game_a.kern:here", "parts_game_a.kern:aside"]
    kernel.compile_parts("parts_game_a")
    assert game.here_fn.signatures and not game.here_fn.stats.cache_hits  # compiled here
    assert not game.aside_fn.signatures  # not here ...
    assert game.aside_fn(2) == 7
    assert sum(game.aside_fn.stats.cache_hits.values()) == 1  # ... but loaded from the helper's cache


def test_a_part_that_fails_elsewhere_leaves_its_compile_here(tmp_path, monkeypatch):
    game = _game(tmp_path, monkeypatch, "parts_game_b", "raise RuntimeError('no')")
    kernel.compile_parts("parts_game_b")  # no error: the helper's failure costs nothing but its time
    assert game.aside_fn(2) == 7
    assert sum(game.aside_fn.stats.cache_misses.values()) == 1  # compiled here, on its first call


def test_the_helper_runs_registered_parts_only(tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "generator.engine.compile_part", "generator.engine.kernel:jit"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2
    assert r.stderr == "generator.engine.kernel:jit: not a registered compile part\n"


def test_parts_started_early_compile_before_compile_parts_which_waits_for_them(tmp_path, monkeypatch):
    game = _game(tmp_path, monkeypatch, "parts_game_c", "compile_for(aside_fn, 1)")
    kernel.start_parts("parts_game_c")
    (helper,) = kernel._STARTED["parts_game_c"]
    assert helper.wait(timeout=120) == 0  # compiled (and cached) before compile_parts is called

    def no_second_start(parts: list[str]) -> list[object]:
        raise AssertionError(f"started again: {parts}")

    monkeypatch.setattr(kernel, "_helpers", no_second_start)
    kernel.compile_parts("parts_game_c")  # runs the first part, waits for the helper started above
    assert "parts_game_c" not in kernel._STARTED
    assert game.here_fn.signatures and not game.aside_fn.signatures
    assert game.aside_fn(2) == 7
    assert sum(game.aside_fn.stats.cache_hits.values()) == 1  # loaded from the early helper's cache
