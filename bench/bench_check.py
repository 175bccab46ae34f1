"""Warm `pnpkit check` of every shipped kit at its defaults, as a user runs it: a whole process each.

For each kit: one run first (it compiles the kit's kernels if the numba cache lacks them, and is not counted),
then `--repeat` runs (default 3); the median wall seconds and the median CPU seconds (user + sys of the
process and its children, less noisy than wall time on a shared machine) are printed, each line with the load
average after it (other work on the machine stretches wall times, not CPU times). Baselines measured in
the same run, the same way: `python -c pass` (the interpreter alone), and with `--against PATH` the same kits
checked by another checkout of pnpkit (e.g. `git worktree add /tmp/prev HEAD~1`), each with its ratio.
Targets: every kit <= 2.0 s wall, a deck kit (Harvest Hands) <= 0.6 s.

    python bench/bench_check.py [--repeat 3] [--kits ripple_rush,harvest_deck] [--against /tmp/prev]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_once(args: list[str], pythonpath: Path) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds user+sys, exit code) of one process and its children."""
    env = dict(os.environ, PYTHONPATH=str(pythonpath))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode cached, not compiled again each run
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, *args], cwd=pythonpath, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, proc.returncode


def measure(args: list[str], pythonpath: Path, repeat: int, warm: bool = True) -> tuple[float, float, int]:
    """Median wall and CPU seconds of `repeat` runs, after one uncounted run when `warm`; the last exit
    code."""
    if warm:
        run_once(args, pythonpath)
    runs = [run_once(args, pythonpath) for _ in range(repeat)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), runs[-1][2]


def main() -> None:
    """Print one line per kit (and per baseline) with wall and CPU medians and their ratios."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kits", default="", help="comma-separated kit ids (default: every shipped kit)")
    ap.add_argument(
        "--against", type=Path, default=None, help="another pnpkit checkout to measure the same way"
    )
    opts = ap.parse_args()
    kits = [k for k in opts.kits.split(",") if k] or sorted(
        p.parent.name for p in (ROOT / "layouts").glob("*/kit.yaml")
    )
    pass_wall, pass_cpu, _ = measure(["-c", "pass"], ROOT, opts.repeat)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; median of {opts.repeat}")
    print(f"{'python -c pass':<28} {pass_wall:6.2f} s wall {pass_cpu:6.2f} s CPU")
    for kit in kits:
        wall, cpu, code = measure(["-m", "generator", "check", f"layouts/{kit}"], ROOT, opts.repeat)
        line = (
            f"check {kit:<22} {wall:6.2f} s wall {cpu:6.2f} s CPU  (exit {code}; "
            f"{wall / pass_wall:5.1f}x python -c pass"
        )
        if opts.against is not None:
            old_wall, old_cpu, _ = measure(
                ["-m", "generator", "check", f"layouts/{kit}"], opts.against, opts.repeat
            )
            line += (
                f"; {wall / old_wall:4.2f}x wall, {cpu / old_cpu:4.2f}x CPU of {opts.against}: "
                f"{old_wall:.2f} s, {old_cpu:.2f} s CPU"
            )
        print(line + f"; load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
