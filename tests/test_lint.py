"""ruff, with the project's configuration in pyproject.toml, passes over the package, the tests and the
benchmarks (CI runs it through this test, as it runs mypy through test_types.py)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ruff(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("ruff")
    cmd = [exe] if exe else [sys.executable, "-m", "ruff"]
    return subprocess.run([*cmd, *args], cwd=cwd, capture_output=True, text=True, check=False)


def test_ruff_check_is_clean():
    r = _ruff("check", "--output-format", "concise", "generator", "tests", "bench")
    assert r.returncode == 0, r.stdout + r.stderr


def _ruff_file(path: Path) -> subprocess.CompletedProcess[str]:
    """`ruff check` of one file under the project's settings (exit 0 or 1; anything else fails the test)."""
    r = _ruff(
        "check",
        "--config",
        str(ROOT / "pyproject.toml"),
        "--output-format",
        "concise",
        str(path),
        cwd=path.parent,
    )
    if r.returncode not in (0, 1):
        pytest.fail(r.stdout + r.stderr)
    return r


def test_ruff_sees_a_finding(tmp_path):
    """The lint test can fail: an unused import is reported under the project's settings."""
    (tmp_path / "bad.py").write_text("import os\n", encoding="utf-8")
    r = _ruff_file(tmp_path / "bad.py")
    assert r.returncode == 1 and "F401" in r.stdout


def test_ruff_reports_a_line_over_110_characters(tmp_path):
    """E501 is selected at the configured length: a line of 111 characters is reported, one of 110 is not."""
    ok, long = "x = " + repr("a" * 104), "x = " + repr("a" * 105)
    assert (len(ok), len(long)) == (110, 111)
    (tmp_path / "lines.py").write_text(f"{ok}\n{long}\n", encoding="utf-8")
    r = _ruff_file(tmp_path / "lines.py")
    assert [line.split(":")[1] for line in r.stdout.splitlines() if "E501" in line] == ["2"]


@pytest.mark.parametrize("script", sorted(p.name for p in (ROOT / "bench").glob("*.py")))
def test_every_bench_script_imports(script: str) -> None:
    """Each bench script's imports resolve against the package as it is (a module split or a moved function
    broke bench/bench_draws.py once, silently: nothing runs the benches in CI). Imported, not run."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"bench_{script[:-3]}", ROOT / "bench" / script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # a dataclass in the script looks its module up while it is made
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
