"""Seed sweep of `pnpkit check`: every shipped kit x seeds, as a user runs it (one CLI process per run), with
wall and CPU time, exit codes and the verdict counts; optionally the broken variants (must exit 1 for every
seed) and the 1-vs-2-worker JSON comparison (must be byte-identical).

    python bench/seed_sweep.py [--seeds 1-10] [--workers 2] [--games N] [--kits ripple_rush,...]
                               [--broken] [--compare-workers] [--out /tmp/sweep]

Exit 0 when every shipped run exited 0 (or, with --games, never 1), every broken run exited 1 and every
compared pair was identical; 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.kits.broken import BROKEN

KITS = ("ripple_rush", "peak_dice", "raindrops", "rummy_cards")


def seeds_of(text: str) -> list[int]:
    """ "1-10" or "1,3,5" -> seeds."""
    out: list[int] = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            out += list(range(int(a), int(b) + 1))
        elif part:
            out.append(int(part))
    return out


def check(folder: Path, seed: int, workers: int, games: int | None, json_path: Path) -> dict[str, object]:
    """One `python -m generator check` run: exit code, wall and CPU seconds (this process's children)."""
    cmd = [
        sys.executable,
        "-m",
        "generator",
        "check",
        str(folder),
        "--seed",
        str(seed),
        "--workers",
        str(workers),
        "--json",
        str(json_path),
    ]
    if games:
        cmd += ["--games", str(games)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(
        cmd, cwd=ROOT, capture_output=True, text=True, check=False, env=dict(os.environ, PYTHONHASHSEED="0")
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    counts = {"HOLDS": 0, "FAILS": 0, "UNDECIDED": 0}
    looks: list[int] = []
    if json_path.exists():
        rep = json.loads(json_path.read_text())["reports"][0]
        looks = rep.get("looks", [])
        for t in rep["tolerances"]:
            counts[t["verdict"]] += 1
    return {
        "rc": r.returncode,
        "wall": wall,
        "cpu": cpu,
        "counts": counts,
        "looks": looks,
        "stderr": r.stderr.strip().splitlines()[-1:] if r.returncode else [],
    }


def main() -> int:
    """Run the sweep and print one line per run and the totals."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1-10")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--kits", default=",".join(KITS))
    ap.add_argument("--broken", action="store_true", help="also run the broken variants (must exit 1)")
    ap.add_argument(
        "--compare-workers",
        action="store_true",
        help="also run each kit at the first seed with "
        "1 worker and compare the JSON bytes with the --workers run",
    )
    ap.add_argument("--out", type=Path, default=Path("/tmp/pnpkit-sweep"))
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    kits = [k for k in a.kits.split(",") if k]
    seeds = seeds_of(a.seeds)
    ok = True
    total_wall = total_cpu = 0.0
    print(f"{'kit':<22} {'seed':>4} {'rc':>3} {'wall s':>7} {'cpu s':>7}  holds/fails/undecided  looks")
    for kit in kits:
        for seed in seeds:
            r = check(ROOT / "layouts" / kit, seed, a.workers, a.games, a.out / f"{kit}-{seed}.json")
            total_wall += float(r["wall"])  # type: ignore[arg-type]
            total_cpu += float(r["cpu"])  # type: ignore[arg-type]
            c = r["counts"]
            good = r["rc"] == 0 if a.games is None else r["rc"] != 1
            ok &= good
            print(
                f"{kit:<22} {seed:>4} {r['rc']:>3} {r['wall']:>7.1f} {r['cpu']:>7.1f}  "
                f"{c['HOLDS']}/{c['FAILS']}/{c['UNDECIDED']}  "
                f"{r['looks']}{'' if good else '  <-- ' + str(r['stderr'])}",
                flush=True,
            )
    print(f"shipped kits: {len(kits) * len(seeds)} runs, wall {total_wall:.1f} s, CPU {total_cpu:.1f} s")
    if a.broken:
        bw = bc = 0.0
        for kit in kits:
            folder = BROKEN[kit](a.out)
            for seed in seeds:
                r = check(folder, seed, a.workers, a.games, a.out / f"{kit}-broken-{seed}.json")
                bw += float(r["wall"])  # type: ignore[arg-type]
                bc += float(r["cpu"])  # type: ignore[arg-type]
                good = r["rc"] == 1
                ok &= good
                print(
                    f"{kit + ' (broken)':<22} {seed:>4} {r['rc']:>3} {r['wall']:>7.1f} {r['cpu']:>7.1f}  "
                    f"{r['counts']['HOLDS']}/{r['counts']['FAILS']}/{r['counts']['UNDECIDED']}"
                    f"{'' if good else '  <-- expected exit 1'}",
                    flush=True,
                )
        print(f"broken variants: {len(kits) * len(seeds)} runs, wall {bw:.1f} s, CPU {bc:.1f} s")
    if a.compare_workers:
        for kit in kits:
            one = a.out / f"{kit}-{seeds[0]}-w1.json"
            check(ROOT / "layouts" / kit, seeds[0], 1, a.games, one)
            many = a.out / f"{kit}-{seeds[0]}.json"
            same = one.read_bytes() == many.read_bytes()
            ok &= same
            print(
                f"{kit}: seed {seeds[0]}, 1 vs {a.workers} workers: JSON "
                f"{'identical' if same else 'DIFFERENT'}"
            )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
