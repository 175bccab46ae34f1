"""Warm `pnpkit check` of every shipped kit at its defaults, as a user runs it: a whole process each.

For each kit: one run first (it compiles the kit's kernels if the numba cache lacks them, and is not counted),
then `--repeat` runs (default 3); the median wall seconds and the median CPU seconds (user + sys of the
process and its children, less noisy than wall time on a shared machine) are printed, each line with the load
average after it (other work on the machine stretches wall times, not CPU times). Baselines measured in
the same run, the same way: `python -c pass` (the interpreter alone), and with `--against PATH` the same kits
checked by another checkout of pnpkit (e.g. `git worktree add /tmp/prev HEAD~1`), the two taking turns run by
run; the ratios are the medians of the ratios of each pair of runs side by side, which the machine's drift
between minutes leaves alone.
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


def measure_against(
    args: list[str], new: Path, old: Path, repeat: int
) -> tuple[tuple[float, float, int], tuple[float, float, int], float, float]:
    """Both checkouts `repeat` times each, taking turns (new then old, then old then new, ...) after one
    uncounted run each: (median wall, median CPU, last exit code) of each, and the medians of the per-pair
    ratios new/old of wall and CPU. Two runs side by side see the same machine, so the pair ratios are what
    this VM's drift between minutes leaves alone (the medians of each checkout are not)."""
    run_once(args, new)
    run_once(args, old)
    pairs = []
    for i in range(repeat):
        order = (new, old) if i % 2 == 0 else (old, new)
        got = {path: run_once(args, path) for path in order}
        pairs.append((got[new], got[old]))

    def medians(runs: list[tuple[float, float, int]]) -> tuple[float, float, int]:
        return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), runs[-1][2]

    return (
        medians([n for n, _ in pairs]),
        medians([o for _, o in pairs]),
        statistics.median(n[0] / o[0] for n, o in pairs),
        statistics.median(n[1] / o[1] for n, o in pairs),
    )


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
        args = ["-m", "generator", "check", f"layouts/{kit}"]
        if opts.against is None:
            wall, cpu, code = measure(args, ROOT, opts.repeat)
        else:
            (wall, cpu, code), (old_wall, old_cpu, _), wall_ratio, cpu_ratio = measure_against(
                args, ROOT, opts.against, opts.repeat
            )
        line = (
            f"check {kit:<22} {wall:6.2f} s wall {cpu:6.2f} s CPU  (exit {code}; "
            f"{wall / pass_wall:5.1f}x python -c pass"
        )
        if opts.against is not None:
            line += (
                f"; {wall_ratio:4.2f}x wall, {cpu_ratio:4.2f}x CPU of {opts.against} (medians of the "
                f"pair ratios; its medians {old_wall:.2f} s, {old_cpu:.2f} s CPU)"
            )
        print(line + f"; load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
