"""Signals are never lost: a SIGINT or SIGTERM that reaches a forced rebuild at any point -- while compiled
kernels load (inside numba's ctypes callback, which swallows exceptions), while kits load, between parts,
while a PDF is written, just after the output swap, after the build returned, after the command, while the
interpreter shuts down -- ends it with exit 130 / 143, no traceback, and OUT holds the old output or the new
one, whole.

Each case runs the real command line in a child process that sends itself the signal at one exact point (a
wrapper around one function), so the points are hit every time, whatever the machine's load."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
KIT = ROOT / "layouts" / "sprout_sheet"
"""The quickest shipped kit to build (1.3 CPU-s in a fresh interpreter, Harvest Hands 1.9): every point
below is on the path of any kit's build; Raindrops for the kernels (its composer runs them)."""

PROBE = r"""
import os, signal, sys
point, sig = sys.argv[1], getattr(signal, sys.argv[2])
sys.argv = ["pnpkit", *sys.argv[3:]]
try:
    from generator.interrupts import install_for_process
except ImportError:  # a pnpkit from before the recording handler (to see this test fail there)
    install_for_process = lambda: None
install_for_process()  # as `python -m generator` does, first
sent = []

def send():
    if not sent:
        sent.append(1)
        os.kill(os.getpid(), sig)

def before(module, name):
    real = getattr(module, name)
    def wrapper(*a, **k):
        send()
        return real(*a, **k)
    setattr(module, name, wrapper)

def after(module, name):
    real = getattr(module, name)
    def wrapper(*a, **k):
        result = real(*a, **k)
        send()
        return result
    setattr(module, name, wrapper)

if point == "kernels":  # inside llvmlite's ctypes callback, where an exception is printed and swallowed
    from numba.core import codegen
    real_hook = codegen.JITCodeLibrary._object_getbuffer_hook.__func__
    def hook(cls, ll_module):
        send()
        for _ in range(1000):  # Python bytecodes inside the callback: a raising handler raises here
            pass
        return real_hook(cls, ll_module)
    codegen.JITCodeLibrary._object_getbuffer_hook = classmethod(hook)
elif point == "load":
    import generator.pipeline as b
    before(b, "load_kits")
elif point == "compose":
    import generator.pipeline.compose as c
    before(c, "check_art")
elif point == "swap":
    import generator.pipeline.staging as s
    after(s, "_swap")
elif point == "returned":
    import generator.pipeline as b
    after(b, "build_run")
elif point == "finished":  # the command is over; typer and the interpreter still run
    import generator.cli.base as cli
    after(cli, "run_command")
elif point == "exit":  # runs before pnpkit's own exit handler (registered first, so run last)
    import atexit
    atexit.register(send)
from generator.cli import main
main()
"""

CASES = [
    ("load", "SIGINT"),
    ("compose", "SIGTERM"),
    ("swap", "SIGINT"),
    ("swap", "SIGTERM"),
    ("returned", "SIGINT"),
    ("finished", "SIGTERM"),
    ("exit", "SIGINT"),
]
NEW = {"swap", "returned", "finished", "exit"}
"""The points after the output swap: OUT holds the new output (new files), else the old (the same files)."""


def _files(out: Path) -> dict[str, tuple[bytes, int]]:
    return {
        p.relative_to(out).as_posix(): (p.read_bytes(), p.stat().st_ino)
        for p in sorted(out.rglob("*"))
        if p.is_file()
    }


def _run(point: str, sig: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", PROBE, point, sig, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    from generator.pipeline import build

    out = tmp_path_factory.mktemp("first") / "out"
    build([KIT], out=out, langs=["en"])
    return out


@pytest.mark.parametrize("point,sig", CASES, ids=[f"{p}-{s}" for p, s in CASES])
def test_a_signal_at_any_point_of_a_forced_rebuild_exits_130_or_143_with_whole_output(
    tmp_path, built, point, sig
):
    out = tmp_path / "out"
    shutil.copytree(built, out)  # the old output
    before = _files(out)
    r = _run(point, sig, "build", str(KIT), "--lang", "en", "--out", str(out), "--force")
    assert r.returncode == {"SIGINT": 130, "SIGTERM": 143}[sig], (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr, r.stderr
    after = _files(out)
    assert {k: v[0] for k, v in after.items()} == {k: v[0] for k, v in before.items()}  # whole: every byte
    pdf = f"{KIT.name}/en/kit-a4.pdf"
    assert (after[pdf][1] != before[pdf][1]) == (
        point in NEW
    )  # the new files after the swap, the old before it
    assert not list(out.glob(".pnpkit-stage-*"))


def test_sigterm_while_compiled_kernels_load_is_not_swallowed(tmp_path):
    """The case that was lost: SIGTERM inside numba's object-cache callback (a ctypes callback prints and
    swallows an exception raised there), so the build carried on and exited 0."""
    out = tmp_path / "out"
    r = _run(
        "kernels",
        "SIGTERM",
        "build",
        str(ROOT / "layouts" / "raindrops"),
        "--lang",
        "en",
        "--out",
        str(out),
        "--force",
    )
    assert r.returncode == 143, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr, r.stderr
    assert not out.exists() or not list(out.rglob("*.pdf"))  # stopped before anything was swapped in
    assert not out.exists() or not list(out.glob(".pnpkit-stage-*"))


def test_a_recorded_signal_waits_for_the_safe_point_then_raises(monkeypatch):
    """In-process: with safe points the handler records only; `checkpoint` raises; the handlers in place
    before are put back."""
    from generator import interrupts

    old = signal.getsignal(signal.SIGTERM)
    steps: list[str] = []
    with pytest.raises(interrupts.Terminated):
        with interrupts.signals_recorded(safe_points=True):
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # bytecodes run: a raising handler would have raised by now
                pass
            steps.append("carried on to the safe point")
            interrupts.checkpoint()
            steps.append("not reached")
    assert steps == ["carried on to the safe point"]
    assert signal.getsignal(signal.SIGTERM) == old


def test_a_signal_recorded_after_the_last_safe_point_still_ends_the_command(monkeypatch):
    from generator import interrupts

    with pytest.raises(KeyboardInterrupt):
        with interrupts.signals_recorded(safe_points=True):
            os.kill(os.getpid(), signal.SIGINT)
    with interrupts.signals_recorded(safe_points=True):  # a new call starts with nothing recorded
        pass
