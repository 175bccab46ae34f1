"""pnpkit's kernels are cached by their place in the package, so a second checkout, a new virtual environment
or a reinstall of the same sources loads the machine code another compiled instead of compiling it again."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import numpy as np; from generator.engine.kernel import rng_next; rng_next(np.ones(1, np.uint64)); "
    "s = rng_next.stats; print(sum(s.cache_hits.values()), sum(s.cache_misses.values()), "
    "rng_next._cache._cache_path)"
)
"""Calls one small kernel; prints numba's cache hits and misses for it and the folder it is cached in."""


def _probe(root: Path, xdg: Path) -> tuple[int, int, Path]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NUMBA_CACHE_DIR", "PNPKIT_PURE", "NUMBA_CACHE_LOCATOR_CLASSES")
    }
    env.update(PYTHONPATH=str(root), XDG_CACHE_HOME=str(xdg))
    run = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=root, env=env, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    hits, misses, where = run.stdout.split()
    return int(hits), int(misses), Path(where)


def test_a_second_checkout_of_the_same_sources_loads_the_kernels_the_first_compiled(tmp_path):
    xdg = tmp_path / "xdg"
    clone = tmp_path / "clone"
    shutil.copytree(ROOT / "generator", clone / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    assert _probe(ROOT, xdg)[:2] == (0, 1)  # an empty cache: compiled
    hits, misses, where = _probe(clone, xdg)
    assert (hits, misses) == (1, 0)  # loaded what the other checkout compiled
    (salt,) = (xdg / "pnpkit" / "numba").iterdir()
    assert where == salt / "generator" / "engine"


def test_only_pnpkits_modules_in_its_salted_folder_are_filed_by_their_place(tmp_path, monkeypatch):
    from numba.core import config

    from generator.engine import kernel, kernelcache
    from generator.engine.numba_locator import PackageLocator

    fn, source = kernel.py_func(kernel.rng_next), kernel.__file__
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_LOCATOR_CLASSES", raising=False)
    salted = tmp_path / "pnpkit" / "numba" / "0123456789abcdef"
    monkeypatch.setattr(config, "CACHE_DIR", str(salted))
    locator = PackageLocator.from_function(fn, source)
    assert locator is not None
    assert Path(locator.get_cache_path()) == salted / "generator" / "engine"
    assert kernelcache.module_cache_dir(salted, Path(source)) == salted / "generator" / "engine"

    def outside() -> None:
        """A function of a module outside the package (a third-party game's)."""

    assert PackageLocator.from_function(outside, __file__) is None
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "mine"))  # a folder the user chose
    assert PackageLocator.from_function(fn, source) is None
    monkeypatch.setattr(config, "CACHE_DIR", str(salted))
    monkeypatch.setenv("NUMBA_CACHE_LOCATOR_CLASSES", "UserProvidedCacheLocator")  # the user's locators win
    assert PackageLocator.from_function(fn, source) is None
    assert kernelcache.module_cache_dir(salted, Path(source)) != salted / "generator" / "engine"


def test_a_folder_is_tried_for_writing_once_and_made_again_when_removed(tmp_path, monkeypatch):
    """numba asks every cached function's locator whether its folder can be written (a temporary file each
    time); the kernels of one module share a folder, so it is tried once per process, and again once the
    folder is gone (numba then makes it again before it saves)."""
    from numba.core import config
    from numba.core.caching import UserProvidedCacheLocator

    from generator.engine import kernel, numba_locator
    from generator.engine.numba_locator import PackageLocator

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_LOCATOR_CLASSES", raising=False)
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "pnpkit" / "numba" / "0123456789abcdef"))
    monkeypatch.setattr(numba_locator, "_WRITABLE", set())
    tried: list[str] = []
    numba_own = UserProvidedCacheLocator.ensure_cache_path

    def counted(self: object) -> None:
        tried.append(self.get_cache_path())  # type: ignore[attr-defined]
        numba_own(self)  # type: ignore[arg-type]

    monkeypatch.setattr(UserProvidedCacheLocator, "ensure_cache_path", counted)
    first, second = (kernel.py_func(f) for f in (kernel.rng_next, kernel.rand_below))
    locators = [PackageLocator.from_function(f, kernel.__file__) for f in (first, second)]
    assert all(locators) and len(tried) == 1 and Path(tried[0]).is_dir()
    shutil.rmtree(tried[0])
    locators[0].ensure_cache_path()  # type: ignore[union-attr]
    assert len(tried) == 2 and Path(tried[0]).is_dir()
