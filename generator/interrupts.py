"""Ctrl-C (SIGINT) and SIGTERM as requests, never lost: the handler only records the signal, and a command
stops at its next safe point (`checkpoint`), raising KeyboardInterrupt or `Terminated` there -- never inside a
library's callback, which may swallow an exception (numba's cache loader does). The command line turns either
into exit 130 / 143; a signal recorded after the command's last safe point (after the output swap, while the
interpreter shuts down) still ends the process with 130 / 143 (`install_for_process`)."""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

HANDLED = (signal.SIGINT, signal.SIGTERM)
EXIT_CODES: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143}
"""The exit status of a command stopped by a signal: 128 + its number, as a shell reports it."""


class Terminated(BaseException):
    """SIGTERM, raised at a safe point of the main thread so `finally` blocks (staging folders) run before
    exit 143."""


_pending: int | None = None
_raise_now = False
"""Whether the handler raises at once (a command without safe points) or only records (the pipeline)."""
_process = False
"""Whether the handlers are installed for the whole process (the command line), not for one call."""


def _on_signal(signum: int, frame: FrameType | None) -> None:
    global _pending
    if _pending is None:
        _pending = signum
    if _raise_now:
        checkpoint()


def pending() -> int | None:
    """The first SIGINT/SIGTERM recorded and not yet acted on, or None."""
    return _pending


def checkpoint() -> None:
    """A safe point: raise KeyboardInterrupt (SIGINT) or `Terminated` (SIGTERM) when one was recorded. Only in
    the main thread (where handlers run and where the command's cleanup waits); elsewhere nothing happens."""
    if _pending is None or threading.current_thread() is not threading.main_thread():
        return
    if _pending == signal.SIGINT:
        raise KeyboardInterrupt
    raise Terminated()


def install_for_process() -> None:
    """Record SIGINT/SIGTERM from now until the process ends (the command line's entry point). The last exit
    handler to run makes a signal recorded but never acted on (it came after the command's last safe point)
    the exit status 130 / 143; from then on both are ignored, so the interpreter's own shutdown (which puts
    the default actions back) cannot end the process by a signal's default action."""
    global _process
    if _process or threading.current_thread() is not threading.main_thread():
        return
    for s in HANDLED:
        signal.signal(s, _on_signal)
    _process = True
    atexit.register(_at_exit)  # registered first, so it runs last


def _at_exit() -> None:
    for s in HANDLED:
        signal.signal(s, signal.SIG_IGN)
    if _pending is not None:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(EXIT_CODES.get(_pending, 128 + _pending))


@contextmanager
def signals_recorded(*, safe_points: bool) -> Iterator[None]:
    """The signal handling of one command. With `safe_points` the command calls `checkpoint` between its steps
    and a signal is only recorded until then; without, it raises at once in the main thread (a command with
    long steps and no safe points), as Python's own handler would. A signal recorded meanwhile is acted on
    when the block ends (`checkpoint`), so none is lost. Outside the command line (tests, embedded use) the
    handlers in place before are put back."""
    global _pending, _raise_now
    if threading.current_thread() is not threading.main_thread():  # handlers can only be set there
        yield
        return
    before = None if _process else {s: signal.signal(s, _on_signal) for s in HANDLED}
    if before is not None:
        _pending = None  # a call of its own: nothing carried over from an earlier one
    was = _raise_now
    _raise_now = not safe_points
    try:
        checkpoint()  # one recorded before the command began
        yield
        checkpoint()
    finally:
        _raise_now = was
        if before is not None:
            for s, handler in before.items():
                signal.signal(s, signal.SIG_DFL if handler is None else handler)  # None: set outside Python


__all__ = [
    "EXIT_CODES",
    "HANDLED",
    "Terminated",
    "checkpoint",
    "install_for_process",
    "pending",
    "signals_recorded",
]
