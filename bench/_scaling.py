"""The 2-worker speed-up of a warm pool, measured so that a busy machine cannot fake or hide it.

On a shared machine wall time says little: with the kernel's autogroup scheduling every process of one session
shares that session's slice, so 2 workers get no more CPU than 1 however well they scale. So besides the wall
ratio this measures CPU time: the serial run's CPU seconds, and in the 2-worker run each worker's CPU seconds
(from /proc/PID/stat) and the parent's. On two idle cores the 2-worker run takes half of all the CPU time
spent (workers + parent: pickling, merging, the pool's threads) plus the tail where one worker waits for the
other's last chunk (half a chunk on average, as the pool hands out chunks one at a time); `idle_speedup` is
the serial CPU time over that, so every overhead counts against it. (How the chunks split between the workers
in this run says nothing: on a loaded machine the worker that gets more CPU takes more chunks; the split is
printed all the same.) The tallies of both runs are compared (they must be identical).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from generator.engine.executors import ProcessExecutor, SerialExecutor
from generator.engine.runner import run

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _proc_cpu(pid: int) -> float:
    """utime + stime of a process, seconds (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


@dataclass
class Scaling:
    """One measurement (best of `repeat` for each number)."""

    serial_cpu: float
    serial_wall: float
    workers_cpu: list[float]
    parent_cpu: float
    two_wall: float
    chunks: int

    @property
    def idle_speedup(self) -> float:
        """Serial CPU time over the 2-worker run's lower bound on two idle cores."""
        return self.serial_cpu / _bound(self.workers_cpu, self.parent_cpu, self.serial_cpu / self.chunks)

    @property
    def wall_speedup(self) -> float:
        """Wall time of 1 worker over 2 workers here (meaningless on a loaded machine)."""
        return self.serial_wall / self.two_wall

    def line(self) -> str:
        """A one-line summary."""
        w = " + ".join(f"{x:.2f}" for x in self.workers_cpu)  # the split: see the module docstring
        return (
            f"2 workers (warm pool): {self.idle_speedup:.2f}x one worker on two idle cores (serial "
            f"{self.serial_cpu:.2f} CPU s; 2 workers {w} CPU s, parent {self.parent_cpu:.2f} CPU s); "
            f"wall here {self.wall_speedup:.2f}x (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} "
            f"cores)"
        )


def _bound(workers: list[float], parent: float, chunk_cpu: float) -> float:
    """The 2-worker run's time on two idle cores: half of all CPU spent plus half a chunk of tail."""
    return (sum(workers) + parent) / 2 + chunk_cpu / 2


def measure(sim: Any, games: int, chunk: int, *, seed: int = 2, repeat: int = 5) -> Scaling:
    """Serial and warm 2-worker runs of the same games, alternating (a drift in this machine's speed then hits
    both alike); best of `repeat` for each figure. (A lone process's CPU time for the same games varies by up
    to 14 % between tries here, while two processes at once run as fast as one alone: best-of on both sides is
    what compares the code, not the moment.)"""
    serial_cpu = serial_wall = float("inf")
    ref = None
    best: tuple[float, list[float], float, float] | None = None
    two_wall = float("inf")
    with ProcessExecutor(2) as ex:
        run(sim, 2 * chunk + 1, seed + 1, ex, chunk_size=chunk)  # start the pool and warm both workers
        pool = ex._pool
        assert pool is not None
        pids = list(pool._processes)  # type: ignore[attr-defined]
        for _ in range(repeat):
            c, w = time.process_time(), time.perf_counter()
            ref = run(sim, games, seed, SerialExecutor(), chunk_size=chunk)
            serial_cpu = min(serial_cpu, time.process_time() - c)
            serial_wall = min(serial_wall, time.perf_counter() - w)
            before = [_proc_cpu(p) for p in pids]
            c, w = time.process_time(), time.perf_counter()
            got = run(sim, games, seed, ex, chunk_size=chunk)
            parent, wall = time.process_time() - c, time.perf_counter() - w
            two_wall = min(two_wall, wall)
            workers = [_proc_cpu(p) - b for p, b in zip(pids, before)]
            assert all(np.array_equal(ref[k], got[k]) for k in ref), "tallies differ"
            bound = _bound(workers, parent, 0.0)
            if best is None or bound < best[3]:
                best = (wall, workers, parent, bound)
    assert best is not None
    return Scaling(serial_cpu, serial_wall, best[1], best[2], two_wall, -(-games // chunk))
