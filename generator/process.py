"""How a pnpkit process runs Python itself (the ground floor: any room may ask).

Python's cycle collector runs every 700 new container objects and, as a process's objects pile up, walks all
of them again: numba and the loaded kernels alone are about 150,000. A `pnpkit` command, a compile helper
and a test process run it every GC_THRESHOLD new objects instead (mypy's command does the same): 0.2 CPU-s of
a compiled kit's check before, 0.06-0.1 after; 0.54 -> 0.21 CPU-s of compiling Ripple Rush's kernels."""

from __future__ import annotations

import gc

GC_THRESHOLD = 10_000
"""New objects between two collections of the youngest generation (Python's default: 700)."""


def collect_seldom() -> None:
    """Run the cycle collector every GC_THRESHOLD new objects in this process (its older generations as
    before)."""
    gc.set_threshold(GC_THRESHOLD)
