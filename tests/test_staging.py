"""The output stage of a build is removed however the build ends, even when Ctrl-C lands the instant the stage
folder has been made (before it is known to the code that removes it)."""

from __future__ import annotations

import os
import signal
import tempfile
from pathlib import Path

import pytest

from generator.pipeline import staging


def test_a_signal_right_after_the_stage_is_made_leaves_no_stage(tmp_path: Path, monkeypatch) -> None:
    made: list[str] = []
    real = tempfile.mkdtemp

    def mkdtemp_then_signal(
        *a, **k
    ):  # the folder exists, then SIGINT arrives before the caller sees its name
        path = real(*a, **k)
        made.append(path)
        os.kill(os.getpid(), signal.SIGINT)
        return path

    monkeypatch.setattr(staging.tempfile, "mkdtemp", mkdtemp_then_signal)
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            with staging.staged_folders(tmp_path, [tmp_path / "kit"]) as root:
                (root / "kit" / "a.pdf").write_bytes(b"%PDF")
    finally:
        signal.signal(signal.SIGINT, old)
    assert made and not os.path.exists(made[0])
    assert not list(tmp_path.glob(f"{staging.STAGE_PREFIX}*")) and not (tmp_path / "kit").exists()


def test_a_normal_stage_swaps_in_and_is_removed(tmp_path: Path) -> None:
    with staging.staged_folders(tmp_path, [tmp_path / "kit"]) as root:
        (root / "kit" / "a.pdf").write_bytes(b"%PDF")
    assert (tmp_path / "kit" / "a.pdf").read_bytes() == b"%PDF"
    assert not list(tmp_path.glob(f"{staging.STAGE_PREFIX}*"))


def test_a_signal_from_another_thread_waits_for_the_held_block(tmp_path: Path) -> None:
    """A process signal may reach any thread (rich's refresh thread runs during a build); while the swap runs
    it is held, and it is delivered as KeyboardInterrupt once the block ends."""
    import threading

    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    steps: list[str] = []
    try:
        with pytest.raises(KeyboardInterrupt):
            with staging.signals_deferred():
                t = threading.Thread(target=os.kill, args=(os.getpid(), signal.SIGINT))
                t.start()
                t.join()
                for _ in range(1000):  # bytecodes run: an unheld signal would have raised by now
                    steps.append("x")
                steps.append("held to the end")
    finally:
        signal.signal(signal.SIGINT, old)
    assert steps[-1] == "held to the end"
