"""The full fuzz run of issue 12: seeded mutations of every shipped kit, each built in a worker process.

    python bench/fuzz.py [--specs 1600] [--font-specs 160] [--art-specs 96] [--data-specs 84] [--seed 12]
    [--verbose]

--font-specs adds kits whose style.fonts names a hostile font (issue 24: garbage, truncated, restricted
licence, CFF outlines, collections, web fonts, symlinks out of the kit, absolute and '..' paths, ...).
--art-specs adds kits whose art slot names a hostile image or SVG (decompression bombs, truncated and
mislabelled images, SVG with DOCTYPE/entities, external or file: references, scripts, deep nesting, ...).
--data-specs adds the data kit with a hostile data file (issue 25: 10^6 rows, a 10 MB cell, Latin-1 and
UTF-16, ragged rows, NUL bytes, an .xlsx zip bomb, external links, macros, formulas, paths out of the kit,
...).

Prints "N specs: X clean errors, Y accepted, 0 tracebacks, 0 partial outputs, 0 slow" and lists every bug case
(exit 1 if any). Same seed, same cases.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fuzz.harness import make_art_cases, make_cases, make_data_cases, make_font_cases, run_cases


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--specs", type=int, default=1600, help="number of mutated specs (default 1600)")
    ap.add_argument("--font-specs", type=int, default=160, help="hostile-font kits added (default 160)")
    ap.add_argument("--art-specs", type=int, default=96, help="hostile-art kits added (default 96)")
    ap.add_argument("--data-specs", type=int, default=84, help="hostile-data kits added (default 84)")
    ap.add_argument("--seed", type=int, default=12, help="mutation seed (default 12)")
    ap.add_argument("--verbose", action="store_true", help="print every case")
    args = ap.parse_args()
    cases = (
        make_cases(args.specs, args.seed)
        + make_font_cases(args.font_specs, args.seed)
        + make_art_cases(args.art_specs, args.seed)
        + make_data_cases(args.data_specs, args.seed)
    )
    t0 = time.perf_counter()

    def progress(i, o):
        if args.verbose or o.kind not in ("clean", "accepted"):
            print(
                f"[{i + 1}/{len(cases)}] {o.kind:9} {o.seconds:5.1f}s {o.case.kit}: {o.case.label} -- "
                f"{o.detail[:300]}",
                flush=True,
            )
        elif (i + 1) % 100 == 0:
            print(f"[{i + 1}/{len(cases)}] {time.perf_counter() - t0:.0f} s", flush=True)

    summary = run_cases(cases, progress=progress)
    slowest = max(summary.outcomes, key=lambda o: o.seconds)
    print(
        f"wall {time.perf_counter() - t0:.0f} s; slowest case {slowest.seconds:.1f} s ({slowest.case.kit}: "
        f"{slowest.case.label})"
    )
    print(summary.line())
    return 1 if summary.bugs() else 0


if __name__ == "__main__":
    sys.exit(main())
