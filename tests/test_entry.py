"""The command line's entry point sets up the process before any command runs."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from generator.cli import base
from generator.process import GC_THRESHOLD


@pytest.fixture
def entry(monkeypatch):
    """`base.main` with the app replaced by a recorder of the environment a command would see (and no signal
    handlers installed in the test process)."""
    seen: dict[str, str] = {}
    monkeypatch.setattr(base, "install_for_process", lambda: None)
    monkeypatch.setattr(base, "app", lambda prog_name: seen.update(os.environ))
    return seen


def test_numpy_blas_runs_one_thread_unless_the_user_says_otherwise(entry, monkeypatch):
    for var in base.BLAS_THREADS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "4")  # the user's own setting is kept
    base.main()
    assert entry["OPENBLAS_NUM_THREADS"] == "1" and entry["MKL_NUM_THREADS"] == "1"
    assert entry["OMP_NUM_THREADS"] == "4"


def test_the_blas_setting_reaches_numpy_before_it_is_loaded():
    """No command imports numpy before `main` sets the variables: importing the commands loads no numpy (the
    variables are read once, when numpy's BLAS starts)."""
    code = "import sys, generator.cli; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_a_command_collects_cycles_less_often_and_leaves_its_objects_to_the_exit():
    """A `pnpkit` process runs Python's cycle collector every GC_THRESHOLD new objects (not 700: the
    collections walked numba's objects again and again, 0.2 CPU-s of a check) and freezes what is left when
    the command ends, so the interpreter's last collection at exit skips it."""
    code = (
        "import gc, sys\n"
        "sys.argv = ['pnpkit', '--version']\n"
        "from generator.cli.base import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(gc.get_threshold()[0], gc.get_freeze_count() > 0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split()[-2:] == [str(GC_THRESHOLD), "True"]
