"""numba's disk cache is keyed by the package's sources: an edited or upgraded pnpkit never loads machine code
compiled from older sources (numba itself only checks the compiled function's own file)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.engine import kernel

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import generator.engine.kernel, numba, os; print(numba.config.CACHE_DIR); "
    "print(os.environ['NUMBA_CACHE_DIR'])"
)


def _package(tmp_path: Path) -> Path:
    """A small package: a compiled module importing a callee module and (inside a function) the renderer."""
    pkg = tmp_path / "generator"
    for d in ("engine", "games/pig", "render"):
        (pkg / d).mkdir(parents=True)
        (pkg / d / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "engine" / "kernel.py").write_text("def jit(f):\n    return f\n", encoding="utf-8")
    (pkg / "games" / "pig" / "kernel.py").write_text(
        "from generator.engine.kernel import jit\nfrom generator.games.pig import (\n    rules,\n)\n\n\n"
        "@jit\ndef roll(x):\n    return x + rules.SIDES\n\n\ndef picture():\n    from generator.render "
        "import page\n",
        encoding="utf-8",
    )
    (pkg / "games" / "pig" / "rules.py").write_text("SIDES = 6\n", encoding="utf-8")
    (pkg / "render" / "page.py").write_text("A4 = 1\n", encoding="utf-8")
    return pkg


def test_the_salt_follows_the_kernels_and_their_callees_only(tmp_path, monkeypatch):
    pkg = _package(tmp_path)
    monkeypatch.setattr(kernel, "_PACKAGE", pkg)
    assert [p.relative_to(pkg).as_posix() for p in kernel.kernel_sources()] == [
        "engine/kernel.py",
        "games/pig/__init__.py",
        "games/pig/kernel.py",
        "games/pig/rules.py",
    ]
    first = kernel.source_salt()
    assert kernel.source_salt() == first  # stable
    (pkg / "render" / "page.py").write_text("A4 = 2\n", encoding="utf-8")  # compiled code cannot see it
    assert kernel.source_salt() == first
    (pkg / "games" / "pig" / "rules.py").write_text(
        "SIDES = 8\n", encoding="utf-8"
    )  # a frozen global changes
    second = kernel.source_salt()
    assert second != first
    (pkg / "engine" / "kernel.py").write_text("def jit(f):\n    return f  # faster\n", encoding="utf-8")
    assert kernel.source_salt() != second


def test_the_shipped_kernels_salt_covers_every_compiled_module():
    """Every module of the package with a compiled function is in the salt, and no renderer or CLI module is
    (editing those must not recompile the kernels)."""
    import re

    salted = {p.relative_to(ROOT / "generator").as_posix() for p in kernel.kernel_sources()}
    compiled = {
        p.relative_to(ROOT / "generator").as_posix()
        for p in (ROOT / "generator").rglob("*.py")
        if re.search(r"^@jit", p.read_text(encoding="utf-8"), re.M)
    }
    assert compiled and compiled <= salted
    assert "games/raindrops/kernel.py" in salted and "games/rummy_cards/solver.py" in salted
    assert not {s for s in salted if s.startswith(("render/", "build/", "layout/", "cli"))}


def _probe(env: dict[str, str]) -> list[str]:
    r = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
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


def _python(code: str, cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -c code args` in a fresh interpreter in `cwd`, with this checkout on PYTHONPATH and `env`
    added to the environment (a PYTHONPATH there comes after the checkout)."""
    path = os.pathsep.join(filter(None, (str(ROOT), env.pop("PYTHONPATH", ""))))
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        env={**os.environ, **env, "PYTHONPATH": path},
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def test_numba_loads_without_scipy_linalg_and_np_dot_still_compiles(tmp_path: Path) -> None:
    """numba's BLAS probe (scipy.linalg, 0.17 CPU-s of every check) is skipped when the engine loads numba:
    a fresh interpreter that loads the engine has no scipy.linalg, and a compiled np.dot still imports it
    itself and multiplies. Nor cffi or yaml, after a compile too (numba's typing and configuration would
    import them for features pnpkit does not use), unless a .numba_config.yaml in the working folder asks
    numba for YAML: then it reads it, as it does without pnpkit."""
    code = (
        "import sys, numpy as np\n"
        "import generator.engine.kernel as k\n"
        "print(k.HAVE_NUMBA, 'scipy.linalg' in sys.modules)\n"
        "dot = k._numba.njit(lambda a, b: np.dot(a, b))\n"
        "print(dot(np.arange(3.0), np.arange(3.0)), 'scipy.linalg' in sys.modules)\n"
        "print('cffi' in sys.modules, 'yaml' in sys.modules, k._numba.config.BOUNDSCHECK)\n"
    )
    r = _python(code, tmp_path)
    assert r.stdout.split() == ["True", "False", "5.0", "True", "False", "False", "None"], r.stdout + r.stderr
    (tmp_path / ".numba_config.yaml").write_text("boundscheck: 0\n", encoding="utf-8")
    r = _python(code, tmp_path)
    assert r.stdout.split()[-3:] == ["False", "True", "0"], r.stdout + r.stderr


LOADED = """
import sys
import numpy as np
from numba.core.caching import Cache
import generator.engine.kernel as k
if sys.argv[1] == "numba":  # numba's own load, with its full refresh of the target
    Cache.load_overload = Cache._numba_load_overload
from dice import race
lowering = ("numba.cpython.setobj", "numba.np.arraymath")  # imported by numba's refresh of its target
print(race(7, 300).tolist(), any(m in sys.modules for m in lowering))
if sys.argv[1] == "pnpkit":  # a compile after the lazy load: a list and a set, lowered by the refresh
    print(k._numba.njit(lambda n: len(set([i * i % 7 for i in range(n)])))(6))
"""

DICE = """
import numpy as np
from generator.engine.kernel import jit


@jit
def race(seed, n):
    np.random.seed(seed)
    out = np.zeros(6, np.int64)
    for _ in range(n):
        out[np.random.randint(0, 6)] += 1
    return out
"""


@pytest.mark.skipif(not kernel.NRT_OFF, reason="applied only on the numba versions checked")
def test_a_cached_kernel_loads_without_numbas_refresh_and_plays_the_same(tmp_path: Path) -> None:
    """A kernel loaded from the cache plays exactly as when numba loads it its own way, without importing
    numba's lowering library, its array functions included (the refresh skipped,
    `kernel._load_without_refresh`; numba.np.arraymath no longer imported with numba); a function compiled
    after that still finds the lowering it needs (a list and a set, which the refresh installs)."""
    (tmp_path / "dice.py").write_text(DICE, encoding="utf-8")

    def run(how: str) -> list[str]:
        r = _python(LOADED, tmp_path, how, PYTHONPATH=str(tmp_path), NUMBA_CACHE_DIR=str(tmp_path / "cache"))
        assert r.returncode == 0, r.stderr
        return r.stdout.splitlines()

    compiled = run("compile")  # the first run compiles (and caches) race
    assert list((tmp_path / "cache").rglob("*.nbi")), "race was not cached"
    loaded, by_numba = run("pnpkit"), run("numba")
    counts = compiled[0].rsplit(" ", 1)[0]
    assert sum(eval(counts)) == 300
    assert loaded == [f"{counts} False", "4"]  # same games, numba's lowering library never imported
    assert by_numba == [f"{counts} True"]  # numba's own load imports it


@pytest.mark.skipif(not kernel.NRT_OFF, reason="numba's own import structure, on the versions checked")
def test_numbas_array_functions_load_late_and_still_without_scipy_linalg(tmp_path: Path) -> None:
    """numba.np.arraymath is not loaded with numba; when something does load it (a compile, or a cached
    kernel whose environment names it, as Rummy Cards' does), its BLAS probe still runs with scipy.linalg
    hidden (0.15 s), as when it loaded with numba."""
    code = (
        "import sys\n"
        "import generator.engine.kernel as k\n"
        "print(k.HAVE_NUMBA, 'numba.np.arraymath' in sys.modules)\n"
        "import numba.np.arraymath as am\n"
        "print(am._HAVE_BLAS, 'scipy.linalg' in sys.modules)\n"
    )
    r = _python(code, tmp_path)
    assert r.stdout.split() == ["True", "False", "False", "False"], r.stdout + r.stderr
