"""Run a `pnpkit` command in the test process, through typer's CliRunner: the same app, options, messages and
exit codes as `python -m generator`, without a fresh interpreter's start-up (imports, fonts, compiled
kernels loaded again: about a second a command). Tests where the process itself is the point (start-up
imports, signals, the interpreter's own exit status, hash seeds differing between runs) start one with
`pnpkit_process` instead."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Ran:
    """What a command did: its exit code and what it wrote (the fields of subprocess.CompletedProcess)."""

    returncode: int
    stdout: str
    stderr: str


class _Runner(CliRunner):
    def get_default_prog_name(self, cli: object) -> str:
        return "pnpkit"  # as main() names it: usage lines say `Usage: pnpkit ...`


def pnpkit(*args: str, cwd: Path | None = None, env: Mapping[str, str | None] | None = None) -> Ran:
    """`pnpkit ARGS...` run in this process from folder `cwd` (the working folder is put back after), with
    `env` set for the command's duration. An exception the command does not turn into a message is raised
    here (where a process would print a traceback), so a test asserting "no traceback" still fails on it."""
    from generator.cli import app

    before = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        r = _Runner().invoke(app, list(args), env=env, catch_exceptions=False)
    finally:
        os.chdir(before)
    return Ran(r.exit_code, r.stdout, r.stderr)


def pnpkit_process(
    *args: str, cwd: Path = ROOT, env: Mapping[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """`python -m generator ARGS...` in a fresh interpreter (this checkout first on its path)."""
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
