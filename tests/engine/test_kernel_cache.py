"""numba's disk cache is keyed by the package's sources: an edited or upgraded pnpkit never loads machine code
compiled from older sources (numba itself only checks the compiled function's own file)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.engine import kernel

ROOT = Path(__file__).resolve().parents[2]
PROBE = "import generator.engine.kernel, numba, os; print(numba.config.CACHE_DIR); print(os.environ['NUMBA_CACHE_DIR'])"


def test_the_salt_follows_any_source_change(tmp_path, monkeypatch):
    pkg = tmp_path / "generator"
    (pkg / "games").mkdir(parents=True)
    (pkg / "games" / "solver.py").write_text("X = 1\n", encoding="utf-8")
    (pkg / "kernel.py").write_text("Y = 1\n", encoding="utf-8")
    monkeypatch.setattr(kernel, "_PACKAGE", pkg)
    first = kernel.source_salt()
    assert kernel.source_salt() == first  # stable
    (pkg / "games" / "solver.py").write_text("X = 2\n", encoding="utf-8")  # a callee elsewhere changes
    assert kernel.source_salt() != first


def _probe(env: dict[str, str]) -> list[str]:
    r = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                       check=True, timeout=120)
    return r.stdout.split()


def test_numba_caches_under_the_salted_folder(tmp_path):
    pytest.importorskip("numba")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PNPKIT_PURE")}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    numba_dir, env_dir = _probe(env)
    assert numba_dir == env_dir == str(tmp_path / "pnpkit" / "numba" / kernel.source_salt())


def test_a_cache_folder_the_user_chose_is_kept(tmp_path):
    pytest.importorskip("numba")
    env = {k: v for k, v in os.environ.items() if k != "PNPKIT_PURE"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "mine")
    assert _probe(env) == [str(tmp_path / "mine")] * 2
