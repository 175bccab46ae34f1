"""Art's cost: the build time of the art example (docs/examples/make_it_yours: SVG suit icons on cards, sheet
and goals, a 300 dpi full-bleed PNG back, an SVG logo, two fonts) against the same kit with its `art:` entries
removed (fonts kept, so only the art differs). Each build is a clean build (fresh output folder) of the given
languages; the median of --repeat runs is reported. Issue 24 asks art to cost at most 2x: exit 1 above it.

    python bench/bench_art.py [--lang en] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
EXAMPLE = ROOT / "docs" / "examples" / "make_it_yours"
LIMIT = 2.0


def without_art(dst: Path) -> Path:
    """A copy of the example kit with every `art:` block of kit.yaml removed."""
    shutil.copytree(EXAMPLE, dst)
    text = (dst / "kit.yaml").read_text(encoding="utf-8")
    text = re.sub(r"\n    art:\n(?:      .*\n)+", "\n", text)
    assert "art:" not in text
    (dst / "kit.yaml").write_text(text, encoding="utf-8")
    return dst


def timed_builds(kit: Path, langs: list[str], repeat: int, where: Path) -> tuple[float, int]:
    """Median seconds of `repeat` clean builds and the page count."""
    from generator.pipeline import build

    times, pages = [], 0
    for i in range(repeat):
        out = where / f"out-{kit.name}-{i}"
        t0 = time.perf_counter()
        result = build([kit], out=out, langs=langs)
        times.append(time.perf_counter() - t0)
        pages = result.pages
        shutil.rmtree(out)
    return statistics.median(times), pages


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lang", default="en", help="comma-separated languages (default en)")
    ap.add_argument(
        "--repeat", type=int, default=3, help="clean builds per kit; the median counts (default 3)"
    )
    args = ap.parse_args()
    langs = args.lang.split(",")
    print(
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} (walls on a shared machine are noisy)"
    )
    with tempfile.TemporaryDirectory(prefix="pnpkit-bench-art-") as tmp:
        where = Path(tmp)
        plain = without_art(where / "plain")
        timed_builds(plain, langs, 1, where)  # warm-up: imports, fonts, the game's figures
        base, base_pages = timed_builds(plain, langs, args.repeat, where)
        art, art_pages = timed_builds(EXAMPLE, langs, args.repeat, where)
    ratio = art / base
    print(
        f"without art: {base:.2f} s ({base_pages} pages); with art: {art:.2f} s ({art_pages} pages); "
        f"ratio {ratio:.2f}x (limit {LIMIT:.1f}x)"
    )
    return 0 if ratio <= LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
