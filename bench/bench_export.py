"""Export speed: TTS sheets of all four kits (cards/s), the two raster backends on the same cards (pdfium from
the PDF vs ops straight to PIL: seconds and pixel difference), and the full export of the four kits in one
language (TTS + card images) in-process and as the command.

    python bench/bench_export.py [--lang en] [--no-command]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lang", default="en")
    ap.add_argument("--no-command", action="store_true", help="skip timing the pnpkit export command")
    args = ap.parse_args()

    import numpy as np

    from generator.export import ExportOptions, export
    from generator.exportplan.plan import decks_and_boards
    from generator.pipeline import compose_one, load_kits, print_data, shipped_kits, with_print
    from generator.render.export_images import write_tts_deck
    from generator.render.fonts import text_width
    from generator.render.pilraster import draw_page
    from generator.render.raster import rasterize

    print(
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} (walls on a shared machine are noisy)"
    )
    kits = load_kits(shipped_kits())
    rummy_deck = None
    total_cards, total_s = 0, 0.0
    print("\nTTS sheets (faces cut at the trim, sheets of <= 10 x 7 within 4096 px, PNG)")
    print(
        f"{'kit':<12} {'decks':>5} {'cards':>6} {'faces':>6} {'compose s':>10} {'sheets s':>9} {'cards/s':>8}"
    )
    for kit in kits:
        shop = with_print(kit, {"mode": "shop", "duplex": "long"})
        t0 = time.perf_counter()
        comps, _ = compose_one(
            shop,
            args.lang,
            shop.print.paper,
            kit.meta.seed,
            print_data(kit, kit.meta.seed),
            text_width,
            lambda _: None,
        )
        decks, _ = decks_and_boards(comps)
        t1 = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            for d in decks:
                write_tts_deck(d, Path(tmp))
        t2 = time.perf_counter()
        cards = sum(len(d.cards) for d in decks)
        faces = sum(len({c.front.face for c in d.cards}) for d in decks)
        total_cards += cards
        total_s += t2 - t1
        rate = f"{cards / (t2 - t1):8.0f}" if cards else f"{'-':>8}"
        print(
            f"{kit.meta.id:<12} {len(decks):>5} {cards:>6} {faces:>6} {t1 - t0:>10.2f} {t2 - t1:>9.2f} {rate}"
        )
        if kit.meta.id == "rummy_cards":
            rummy_deck = decks[0]
    print(
        f"{'all':<12} {'':>5} {total_cards:>6} {'':>6} {'':>10} {total_s:>9.2f} {total_cards / total_s:8.0f}"
    )

    if rummy_deck is not None:
        pages = [c.front for c in rummy_deck.cards]
        size = (round(pages[0].width * 300 / 72), round(pages[0].height * 300 / 72))
        t0 = time.perf_counter()
        via_pdf = list(rasterize(pages, [size] * len(pages)))
        t1 = time.perf_counter()
        via_pil = [draw_page(p, size) for p in pages]
        t2 = time.perf_counter()
        diff = np.stack(
            [
                np.abs(np.asarray(a, dtype=np.int16) - np.asarray(b, dtype=np.int16)).max(axis=2)
                for a, b in zip(via_pdf, via_pil)
            ]
        )
        print(f"\nraster backends, {len(pages)} Rummy Cards fronts at 300 dpi ({size[0]} x {size[1]} px)")
        print(
            f"  pdfium from the PDF (used)   {t1 - t0:6.2f} s  {len(pages) / (t1 - t0):5.0f} cards/s  "
            f"(reference)"
        )
        print(
            f"  ops straight to PIL (2x SS)  {t2 - t1:6.2f} s  {len(pages) / (t2 - t1):5.0f} cards/s  "
            f"mean |diff| {diff.mean():.2f}/255, {100 * (diff > 32).mean():.2f} % of pixels off by > 32"
        )

    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        res = export(
            shipped_kits(), out=Path(tmp), langs=[args.lang], options=ExportOptions(tts=True, cards=True)
        )
        t1 = time.perf_counter()
    print(
        f"\nfull export, four kits, {args.lang} (TTS + card PNGs at 300 dpi): {t1 - t0:.2f} s in-process, "
        f"{len(res.files)} files, {res.cards} card images "
        f"(load {res.timings['load']:.2f}, compose {res.timings['compose']:.2f}, render "
        f"{res.timings['render']:.2f})"
    )
    if not args.no_command:
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            cpu0 = os.times()
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "generator",
                    "export",
                    "--tts",
                    "--cards",
                    "--lang",
                    args.lang,
                    "--out",
                    tmp,
                ],
                cwd=ROOT,
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            cpu1 = os.times()
            t1 = time.perf_counter()
        cpu = (cpu1.children_user - cpu0.children_user) + (cpu1.children_system - cpu0.children_system)
        print(
            f"the command: pnpkit export --tts --cards --lang {args.lang}: {t1 - t0:.2f} s wall, {cpu:.2f} s "
            f"CPU"
        )


if __name__ == "__main__":
    main()
