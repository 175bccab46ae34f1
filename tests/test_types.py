"""mypy --strict over the package (the house style's type gate) and over the Pig example, run as part of the
suite. A game's record is checked against the contract at run time by `generator.contract.api_test`
(tests/contract/test_api_test.py)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# One worker runs these in file order: test_mypy_strict_is_clean fills the mypy cache and the plugin check
# then reuses it for generator/, instead of checking it again beside it at the same time (and two mypy
# processes writing one cache).
pytestmark = pytest.mark.xdist_group("mypy-cache")

MYPY_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pnpkit" / "mypy"
"""mypy's cache, shared by every checkout on this machine: mypy checks again a module whose bytes differ from
those it cached (it compares their digests when the modification time differs) and what depends on it, so a
fresh clone of the same sources checks in a second instead of 20 CPU-s, and an error is found as before."""


@pytest.mark.slow  # mypy over the package: 20 s of CPU with an empty cache
def test_mypy_strict_is_clean():
    pytest.importorskip("mypy")
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(MYPY_CACHE), "generator"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]


def test_mypy_strict_checks_the_example_plugin_against_the_contract():
    """Pig, the third-party example (tests/plugins/pig), is held to the same typed contract as the
    built-ins."""
    pytest.importorskip("mypy")
    env = {**os.environ, "MYPYPATH": str(ROOT / "tests" / "plugins" / "pig")}
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(MYPY_CACHE), "--strict", "-p", "pnpkit_pig"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
