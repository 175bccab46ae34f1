"""Build the whole Ripple Rush kit in three languages and compare with raw ReportLab drawing the same
number of simple cards in the same run.

    python bench/bench_build.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def raw_reportlab(cards: int) -> float:
    """Seconds for plain ReportLab (rl_accel) to draw `cards` simple poker cards, 9 per A4 page, with TTF text."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    from generator.render.fonts import font_name, register_fonts

    register_fonts()
    t = time.perf_counter()
    c = Canvas(io.BytesIO(), pagesize=A4, invariant=1, initialFontName=font_name("regular"))
    w, h = 180.0, 252.0
    for i in range(cards):
        k = i % 9
        x, y = 26 + (k % 3) * w, 40 + (k // 3) * h
        c.setFillColorRGB(0.12, 0.43, 0.82)
        c.rect(x, y, w, h, stroke=0, fill=1)
        c.setFillColorRGB(1, 1, 1)
        c.roundRect(x + 10, y + 10, w - 20, h - 20, 8, stroke=0, fill=1)
        c.setFillColorRGB(0.1, 0.1, 0.1)
        c.setFont(font_name("bold"), 80)
        c.drawCentredString(x + w / 2, y + h / 2 - 28, str(i % 25 + 1))
        c.setFont(font_name("regular"), 14)
        c.drawString(x + 14, y + h - 28, str(i % 25 + 1))
        if k == 8:
            c.showPage()
    c.save()
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    from generator.build import build
    from generator.render.fonts import register_fonts

    t0 = time.perf_counter()
    register_fonts()
    font_s = time.perf_counter() - t0
    best = None
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as d:
            t = time.perf_counter()
            r = build([ROOT / "layouts" / "ripple_rush"], out=Path(d))
            el = time.perf_counter() - t
        if best is None or el < best[0]:
            best = (el, r)
    el, r = best
    # faces drawn per language: 100 number cards + 8 goal cards (+ backs), twice (component PDF and kit PDF)
    cards = 3 * (100 + 8)
    raw = min(raw_reportlab(cards * 2) for _ in range(args.repeat))
    print(f"font registration (once per process): {font_s:.2f} s")
    print(f"pnpkit build ripple_rush en+ja+es: {el:.2f} s, {r.pages} pages, {len(r.files)} files")
    print("  phases: " + ", ".join(f"{k} {v:.2f} s" for k, v in r.timings.items()))
    print(f"  {cards * 2 / el:,.0f} cards/s (every card drawn twice: component PDF + kit PDF)")
    print(f"raw ReportLab, same {cards * 2} simple cards: {raw:.2f} s = {cards * 2 / raw:,.0f} cards/s")
    print(f"ratio pnpkit/raw (time): {el / raw:.1f}x")


if __name__ == "__main__":
    main()
