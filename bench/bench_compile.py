"""The first `pnpkit check` of each kit as a new user meets it: an empty kernel cache, a whole process each.

For each kit, `--repeat` times (default 1; compiling is long and varies less than a warm check): a fresh
process runs `python -m generator check layouts/<kit>` with NUMBA_CACHE_DIR and XDG_CACHE_HOME pointed at new
empty folders, so every kernel the check plays is compiled. Printed per kit: the seconds until the first line
on stderr (the compile notice; the target is 1 s), the wall and CPU seconds of the cold run (user + sys of the
process and its children), the CPU seconds of a warm run right after it into the same cache, and their
difference: the CPU seconds spent compiling (a process that compiles in helper processes counts theirs
too). With `--against PATH` the same is measured for another checkout of pnpkit (e.g. `git archive HEAD~3 |
tar -x -C /tmp/prev`), the two taking turns, and the ratios printed. Targets: Rummy Cards <= 25 s wall,
Ripple Rush <= 10 s.

    python bench/bench_compile.py [--kits ripple_rush,rummy_cards] [--repeat 1] [--against /tmp/prev]
"""

from __future__ import annotations

import argparse
import os
import selectors
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPILED_KITS = ("peak_dice", "raindrops", "ripple_rush", "rummy_cards")
"""The shipped kits whose game has compiled kernels (a deck kit compiles nothing)."""


@dataclass(frozen=True)
class Run:
    """One whole-process run."""

    first_line: float
    """Seconds from start to the first line on stderr (inf when nothing was written there)."""
    wall: float
    cpu: float
    """User + sys CPU seconds of the process and its children."""
    code: int


def run_once(args: list[str], checkout: Path, cache: Path) -> Run:
    """Run `python args` in `checkout` with its numba cache in `cache`; time the first stderr line."""
    env = dict(
        os.environ,
        PYTHONPATH=str(checkout),
        NUMBA_CACHE_DIR=str(cache / "numba"),
        XDG_CACHE_HOME=str(cache / "xdg"),
    )
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode cached, not compiled again each run
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, *args],
        cwd=checkout,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    first = float("inf")
    sel = selectors.DefaultSelector()
    sel.register(proc.stderr, selectors.EVENT_READ)
    while True:
        if not sel.select(timeout=0.05):
            if proc.poll() is not None:
                break
            continue
        chunk = proc.stderr.read1(65536)  # type: ignore[attr-defined]
        if not chunk:
            break
        if first == float("inf") and b"\n" in chunk:
            first = time.perf_counter() - start
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    return Run(first, wall, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status))


def measure(kit: str, checkouts: list[Path], repeat: int) -> list[tuple[Run, float]]:
    """Per checkout: the median cold run (by CPU) of `repeat`, each into an empty cache, and the median warm
    CPU seconds. The checkouts take turns, repeat by repeat, so a change in the machine's load falls on
    both."""
    colds: list[list[Run]] = [[] for _ in checkouts]
    warms: list[list[float]] = [[] for _ in checkouts]
    args = ["-m", "generator", "check", f"layouts/{kit}"]
    for _ in range(repeat):
        for i, checkout in enumerate(checkouts):
            with tempfile.TemporaryDirectory(prefix="pnpkit-compile-") as tmp:
                colds[i].append(run_once(args, checkout, Path(tmp)))
                warms[i].append(run_once(args, checkout, Path(tmp)).cpu)
    out = []
    for runs, warm in zip(colds, warms, strict=True):
        runs.sort(key=lambda r: r.cpu)
        out.append((runs[len(runs) // 2], statistics.median(warm)))
    return out


def line(kit: str, cold: Run, warm_cpu: float) -> str:
    """One row of the table."""
    return (
        f"{kit:<12} first line {cold.first_line:5.2f} s  cold {cold.wall:6.1f} s wall {cold.cpu:6.1f} s CPU "
        f"(exit {cold.code})  warm {warm_cpu:5.2f} s CPU  compile {cold.cpu - warm_cpu:6.1f} s CPU"
    )


def main() -> None:
    """Print one row per kit (and per kit of the --against checkout)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--kits", default=",".join(COMPILED_KITS), help="comma-separated kit ids")
    ap.add_argument(
        "--against", type=Path, default=None, help="another pnpkit checkout to measure the same way"
    )
    opts = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; median of {opts.repeat}")
    checkouts = [ROOT] if opts.against is None else [ROOT, opts.against]
    for kit in [k for k in opts.kits.split(",") if k]:
        runs = measure(kit, checkouts, opts.repeat)
        cold, warm = runs[0]
        print(line(kit, cold, warm), flush=True)
        if opts.against is not None:
            old_cold, old_warm = runs[1]
            print(line(f"  {opts.against.name}", old_cold, old_warm), flush=True)
            print(
                f"  ratio: cold wall {cold.wall / old_cold.wall:4.2f}x, compile CPU "
                f"{(cold.cpu - warm) / max(old_cold.cpu - old_warm, 1e-9):4.2f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()
