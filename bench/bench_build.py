"""Build the whole Ripple Rush kit in three languages and compare with raw ReportLab drawing the same
number of simple cards in the same run; then time an incremental rebuild after editing one msgstr of the
rules card against a clean build of the same edited kit (same process, best of N each) and check the two
outputs are byte-identical.

    python bench/bench_build.py [--repeat 3] [--only incremental]
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


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def incremental(repeat: int) -> float:
    """Clean build vs rebuild after a one-msgstr edit of the Ripple Rush rules card; returns clean/incremental."""
    import shutil

    from generator.build import build
    from generator.render.fonts import register_fonts

    register_fonts()
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        kit = root / "ripple_rush"
        shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
        po = kit / "locales" / "en.po"
        original = po.read_text(encoding="utf-8")
        anchor = 'msgid "rules.setup"\nmsgstr "'
        if anchor not in original:
            raise SystemExit("bench: the rules card's rules.setup msgstr is not in en.po")
        clean_s, inc_s = [], []
        rebuilt = skipped = 0
        for i in range(repeat):
            po.write_text(original.replace(anchor, f"{anchor}Edit {i}. ", 1), encoding="utf-8")
            out = root / f"clean{i}"
            t = time.perf_counter()
            build([kit], out=out)  # clean: empty OUT
            clean_s.append(time.perf_counter() - t)
            po.write_text(original.replace(anchor, f"{anchor}Edit {i + 1}. ", 1), encoding="utf-8")
            t = time.perf_counter()
            r = build([kit], out=out)  # incremental: one msgstr changed since the last build into OUT
            inc_s.append(time.perf_counter() - t)
            rebuilt, skipped = r.rebuilt, r.skipped
            ref = root / f"ref{i}"
            build([kit], out=ref)  # clean build of the edited kit: the bytes the incremental build must match
            a, b = _tree(out), _tree(ref)
            if a != b:
                diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
                raise SystemExit(f"bench: incremental output differs from a clean build: {diff}")
            shutil.rmtree(ref)
            shutil.rmtree(out)
        clean, inc = min(clean_s), min(inc_s)
        print(f"clean build ripple_rush en+ja+es (edited kit): best {clean:.3f} s of {repeat} "
              f"({', '.join(f'{x:.3f}' for x in clean_s)})")
        print(f"incremental rebuild after one rules-card msgstr edit (en): best {inc:.3f} s of {repeat} "
              f"({', '.join(f'{x:.3f}' for x in inc_s)}); {rebuilt} parts drawn, {skipped} kept")
        print(f"speed-up clean/incremental: {clean / inc:.1f}x (same-run ratio of bests); outputs byte-identical: yes")
        return clean / inc


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", choices=("all", "incremental"), default="all")
    args = ap.parse_args()
    if args.only == "incremental":
        incremental(args.repeat)
        return
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
    # faces drawn per language: 100 number cards + 8 goal cards (+ backs), once: the kit PDF is assembled
    # from the component PDFs without drawing again
    cards = 3 * (100 + 8)
    raw = min(raw_reportlab(cards) for _ in range(args.repeat))
    print(f"font registration (once per process): {font_s:.2f} s")
    print(f"pnpkit build ripple_rush en+ja+es: {el:.2f} s, {r.pages} pages, {len(r.files)} files")
    print("  phases: " + ", ".join(f"{k} {v:.2f} s" for k, v in r.timings.items()))
    print(f"  {cards / el:,.0f} cards/s (every card drawn once; the kit PDF is merged from the component PDFs)")
    print(f"raw ReportLab, same {cards} simple cards: {raw:.2f} s = {cards / raw:,.0f} cards/s")
    print(f"ratio pnpkit/raw (time): {el / raw:.1f}x")
    incremental(args.repeat)


if __name__ == "__main__":
    main()
