"""mypy --strict over the package (the house style's type gate), run as part of the suite."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # mypy over the package: 20 s of CPU with an empty cache (a clean clone)
def test_mypy_strict_is_clean():
    pytest.importorskip("mypy")
    r = subprocess.run([sys.executable, "-m", "mypy", "generator"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
