"""Cards per second of a 500-card data deck (`game.kind: deck`: CSV rows + declarative templates) against the
shipped Ripple Rush number cards, measured in the same run: a clean build (English, cards only) and a
`--cards` export (one PNG per face, 150 dpi), best of N each. Issue 25 asks the data deck for at least 50 % of
Ripple Rush's cards/s.

    python bench/bench_deck.py [--repeat 3] [--cards 500] [--dpi 150]
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def data_kit(where: Path, cards: int) -> Path:
    """harvest_deck with `cards` distinct rows (count 1 each, cycling the shipped rows with new ids), cards
    only."""
    kit = where / "deck500"
    shutil.copytree(ROOT / "layouts" / "harvest_deck", kit)
    rows = list(csv.reader((kit / "data" / "cards.csv").open(encoding="utf-8")))
    head, body = rows[0], rows[1:]
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(head)
    for i in range(cards):
        r = list(body[i % len(body)])
        r[0], r[1] = f"{r[0]}-{i}", "1"
        w.writerow(r)
    (kit / "data" / "cards.csv").write_text(out.getvalue(), encoding="utf-8")
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    text = re.sub(r"\n  rules:\n    cards:\n(      .*\n)+", "\n", text)  # the shipped totals no longer apply
    text = text.replace(
        "  rules:\n    title: component.rules", "  rules:\n    title: component.rules\n    enabled: false"
    )
    (kit / "kit.yaml").write_text(text, encoding="utf-8")
    return kit


def ripple_kit(where: Path) -> Path:
    """Ripple Rush with only its number cards enabled."""
    kit = where / "ripple"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    for comp in ("goal_cards", "rules", "score_sheet", "board", "player_aid", "reference"):
        text = re.sub(rf"(\n  {comp}:\n    title: [^\n]+)", r"\1\n    enabled: false", text)
    (kit / "kit.yaml").write_text(text, encoding="utf-8")
    return kit


def _faces(comps) -> int:  # type: ignore[no-untyped-def]
    from generator.layout.ops import Place

    n = 0
    for c in comps:
        for i, p in enumerate(c.pages):
            if i % 2 == 0:  # fronts; duplex back pages follow each front page
                n += sum(1 for op in p.ops if isinstance(op, Place) and op.clip is not None)
    return n


def best(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cards", type=int, default=500)
    ap.add_argument("--dpi", type=int, default=150)
    args = ap.parse_args()
    from generator.export import ExportOptions, export
    from generator.pipeline import build

    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        kits = {"data deck": data_kit(where, args.cards), "Ripple Rush number cards": ripple_kit(where)}
        rates = {}
        for name, kit in kits.items():
            n = _count(kit)
            b = best(lambda kit=kit: build([kit], out=where / "b", langs=["en"], force=True), args.repeat)
            e = best(
                lambda kit=kit: export(
                    [kit], out=where / "e", langs=["en"], options=ExportOptions(cards=True, dpi=args.dpi)
                ),
                args.repeat,
            )
            rates[name] = (n / b, n / e)
            print(
                f"{name}: {n} cards; build {b:.2f} s = {n / b:.0f} cards/s; --cards export {e:.2f} s = "
                f"{n / e:.0f} cards/s",
                flush=True,
            )
        (db, de), (rb, re_) = rates["data deck"], rates["Ripple Rush number cards"]
        print(
            f"data deck / Ripple Rush: build {db / rb:.0%}, --cards export {de / re_:.0%} (issue 25 asks >= "
            f"50 %)"
        )
    return 0


def _count(kit: Path) -> int:
    from generator.pipeline import load_kits

    k = load_kits([kit])[0]
    return count_faces(k)


def count_faces(k) -> int:  # type: ignore[no-untyped-def]
    from generator.pipeline import compose_one, print_data
    from generator.render.fonts import text_width

    comps, _ = compose_one(
        k, "en", k.print.paper, k.meta.seed, print_data(k, k.meta.seed), text_width, warn=lambda m: None
    )
    return _faces(comps)


if __name__ == "__main__":
    sys.exit(main())
