"""Build times of a `pnpkit new` Ripple Rush kit as a user sees them, and the in-process figures behind them.

`--only process` (the first part of the default run): whole processes, `python -m generator build KIT --out
OUT` of a kit made by `python -m generator new my_rr --from ripple_rush`, all in the same run, alternating:
a clean build (empty OUT, on one process), an unchanged rebuild, and a rebuild after editing one msgstr of the
rules card; best of N each and the ratios to the clean build (targets: unchanged <= 0.25x, one-string edit
<= 0.35x), and the same for CPU seconds. The processes keep their bytecode as an installed package does
(`--no-bytecode`: as the environment says; this sandbox sets PYTHONDONTWRITEBYTECODE, so each process
compiles pnpkit again).
Each incremental result is compared byte for byte with the next clean build of the same edited kit. Then
`pnpkit serve`'s redraw of a one-string edit: the preview's incremental build plus the changed pages'
pictures, in one long-lived process as serve runs them (target <= 0.5 s).

The rest (in one process): the whole kit in three languages against raw ReportLab drawing the same number of
simple cards, and an incremental rebuild after a one-msgstr edit against a clean build of the edited kit.

`--only workers`: `pnpkit build` of every shipped kit in every language (the README's first command, a
clean OUT each time), whole processes with `--workers 1` and `--workers 2` taking turns, `--repeat` pairs:
the median wall and CPU seconds of each and the median of the pair ratios (two runs side by side see the
same machine); the outputs of the two are compared file by file.

`--only validate`: CPU seconds of `pnpkit validate` of each shipped kit (composing it and running every
check), best of N; with `--base CHECKOUT` the same for another checkout, alternating in the same run, and the
ratios.

    python bench/bench_build.py [--repeat 3] [--only process|incremental|workers|validate] [--base DIR]
                                [--no-bytecode]
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def raw_reportlab(cards: int) -> float:
    """Seconds for plain ReportLab (rl_accel) to draw `cards` simple poker cards, 9 per A4 page, with TTF
    text."""
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


ANCHOR = 'msgid "rules.setup"\nmsgstr "'


def _edit(po: Path, original: str, i: int) -> None:
    """The rules card's rules.setup msgstr with `Edit i. ` in front (one string of one catalog)."""
    if ANCHOR not in original:
        raise SystemExit(f"bench: the rules card's rules.setup msgstr is not in {po}")
    po.write_text(original.replace(ANCHOR, f"{ANCHOR}Edit {i}. ", 1), encoding="utf-8")


PYCACHE: Path | None = None
"""Where the processes keep their bytecode (None: as the environment says; see `process`)."""
CPU: list[float] = []
"""CPU seconds (user + system) of each `_pnpkit` process, in order."""


def _pnpkit(*args: str, cwd: Path) -> float:
    """Wall seconds of one `python -m generator ARGS` process (this checkout first on the path); its CPU
    seconds are appended to CPU."""
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    )
    if PYCACHE is not None:  # as an installed package runs: its modules compiled once, not by every process
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=cwd, env=env, capture_output=True, text=True
    )
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if r.returncode != 0:
        raise SystemExit(f"bench: pnpkit {' '.join(args)} failed ({r.returncode}):\n{r.stderr[-2000:]}")
    return wall


def _figures(name: str, values: list[float]) -> str:
    return (
        f"{name}: best {min(values):.3f} s, median {statistics.median(values):.3f} s of {len(values)} "
        f"({', '.join(f'{x:.2f}' for x in values)})"
    )


def process(repeat: int, bytecode: bool = True) -> dict[str, float]:
    """Whole-process wall times of clean, unchanged and one-string-edit builds of a `pnpkit new` kit. The
    clean builds run on one process (`--workers 1`), as a rebuild of one changed folder does, so the ratios
    are the work an incremental build saves (`--only workers` measures the clean build on every core).

    `bytecode`: the processes keep their compiled modules (in the bench's temporary folder,
    PYTHONPYCACHEPREFIX) as any installed package does, even where the environment sets
    PYTHONDONTWRITEBYTECODE -- otherwise every process compiles the ~60 modules of pnpkit it imports again
    (about 0.05 s of CPU each time). `pnpkit new` and the first clean build compile them; the figures are of
    the runs after."""
    global PYCACHE
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        PYCACHE = root / "pycache" if bytecode else None
        _pnpkit("new", "my_rr", "--from", "ripple_rush", cwd=root)
        _pnpkit("build", "my_rr", "--out", "warm-up", cwd=root)  # the modules a build imports, compiled
        shutil.rmtree(root / "warm-up")
        kit = root / "my_rr"
        po = kit / "locales" / "en.po"
        original = po.read_text(encoding="utf-8")
        clean_s: list[float] = []
        same_s: list[float] = []
        edit_s: list[float] = []
        cpu: dict[str, list[float]] = {"clean": [], "unchanged": [], "edit": []}
        previous: Path | None = None
        for i in range(repeat + 1):
            _edit(po, original, i)
            out = root / f"out{i}"
            t = _pnpkit("build", "my_rr", "--out", out.name, "--workers", "1", cwd=root)  # clean: empty OUT
            clean_cpu = CPU[-1]
            if previous is not None:  # the last round's incremental build of this very text
                a, b = _tree(previous), _tree(out)
                if a != b:
                    raise SystemExit(
                        f"bench: incremental output differs from a clean build: "
                        f"{sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))}"
                    )
                shutil.rmtree(previous)
            if i == repeat:
                break
            clean_s.append(t)
            cpu["clean"].append(clean_cpu)
            same_s.append(_pnpkit("build", "my_rr", "--out", out.name, cwd=root))  # nothing changed
            cpu["unchanged"].append(CPU[-1])
            _edit(po, original, i + 1)
            edit_s.append(_pnpkit("build", "my_rr", "--out", out.name, cwd=root))  # one msgstr changed
            cpu["edit"].append(CPU[-1])
            previous = out
        clean, same, edit = min(clean_s), min(same_s), min(edit_s)
        langs = len(list((kit / "locales").glob("*.po")))
        print(
            f"pnpkit build of a `pnpkit new` Ripple Rush kit ({langs} languages), whole processes, same run, "
            f"{'bytecode cached as installed' if bytecode else 'no bytecode cache (every process compiles)'}:"
        )
        print("  " + _figures("clean build", clean_s))
        print("  " + _figures("unchanged rebuild", same_s))
        print("  " + _figures("one rules msgstr edited", edit_s))
        print(
            f"  ratios to the clean build (bests): unchanged {same / clean:.2f}x (target <= 0.25x), "
            f"one-string edit {edit / clean:.2f}x (target <= 0.35x); incremental outputs byte-identical to "
            f"clean builds"
        )
        c_clean, c_same, c_edit = (min(cpu[k]) for k in ("clean", "unchanged", "edit"))
        print(
            f"  CPU seconds (user + system, bests; steadier than wall time on a busy machine): clean "
            f"{c_clean:.2f}, "
            f"unchanged {c_same:.2f} ({c_same / c_clean:.2f}x), one-string edit {c_edit:.2f} "
            f"({c_edit / c_clean:.2f}x)"
        )
        redraw = serve_redraw(kit, root / "serve-out", original, repeat)
        return {"clean": clean, "unchanged": same, "edit": edit, "serve": redraw}


def serve_redraw(kit: Path, out: Path, original: str, repeat: int) -> float:
    """`pnpkit serve`'s redraw after a one-string edit: the preview's incremental build and the pictures of
    the pages whose file changed, in one long-lived process (imports and fonts already loaded, as in
    serve)."""
    from generator.serve import Preview

    po = kit / "locales" / "en.po"
    preview = Preview(kit, out, lang="en")
    preview.build_now()
    if preview.errors:
        raise SystemExit(f"bench: the preview does not build: {preview.errors}")
    for c in preview.components:  # the first page view: every picture drawn once
        for n in range(int(c["pages"])):
            preview.picture("en", c["id"], n)
    times: list[float] = []
    drawn = 0
    for i in range(repeat):
        _edit(po, original, 100 + i)
        before = {c["id"]: c["digest"] for c in preview.components}
        t = time.perf_counter()
        preview.build_now()
        changed = [c for c in preview.components if before.get(c["id"]) != c["digest"]]
        for c in changed:  # what the page fetches again: the pictures of changed files
            for n in range(int(c["pages"])):
                if preview.picture("en", c["id"], n) is None:
                    raise SystemExit(f"bench: no picture of {c['id']} page {n}")
        times.append(time.perf_counter() - t)
        drawn = int(preview.built["drawn"])
        if preview.errors:
            raise SystemExit(f"bench: the preview does not build: {preview.errors}")
    print(
        f"pnpkit serve redraw after one rules msgstr edit (en): {_figures('build + pictures', times)}; "
        f"{drawn} part drawn (target <= 0.5 s)"
    )
    return min(times)


def incremental(repeat: int) -> float:
    """Clean build vs rebuild after a one-msgstr edit of the Ripple Rush rules card; returns
    clean/incremental."""
    import shutil

    from generator.pipeline import build
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
        print(
            f"clean build ripple_rush en+ja+es (edited kit): best {clean:.3f} s of {repeat} "
            f"({', '.join(f'{x:.3f}' for x in clean_s)})"
        )
        print(
            f"incremental rebuild after one rules-card msgstr edit (en): best {inc:.3f} s of {repeat} "
            f"({', '.join(f'{x:.3f}' for x in inc_s)}); {rebuilt} parts drawn, {skipped} kept"
        )
        print(
            f"speed-up clean/incremental: {clean / inc:.1f}x (same-run ratio of bests); outputs "
            f"byte-identical: yes"
        )
        return clean / inc


def workers(repeat: int) -> dict[str, float]:
    """Whole-process `pnpkit build` of every shipped kit on one and on two processes, taking turns (see the
    module's docstring): the medians and the median pair ratios two/one of wall and CPU seconds."""
    runs: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory() as d:
        for r in range(repeat):
            for n in (1, 2) if r % 2 == 0 else (2, 1):
                out = Path(d) / f"out{n}"
                shutil.rmtree(out, ignore_errors=True)
                wall = _pnpkit("build", "--workers", str(n), "--out", str(out), cwd=ROOT)
                runs[n].append((wall, CPU[-1]))
        one, two = (
            {k: v for k, v in _tree(Path(d) / f"out{n}").items() if "inputs" not in k} for n in (1, 2)
        )
        if one != two:
            raise SystemExit("bench: the builds on one and on two processes differ")
    ratio = {
        what: statistics.median(b[i] / a[i] for a, b in zip(runs[1], runs[2], strict=True))
        for i, what in enumerate(("wall", "cpu"))
    }
    for n in (1, 2):
        wall = statistics.median(w for w, _ in runs[n])
        cpu = statistics.median(c for _, c in runs[n])
        print(f"pnpkit build, every shipped kit, --workers {n}: median {wall:.2f} s wall, {cpu:.2f} s CPU")
    print(f"two processes / one ({repeat} pairs): {ratio['wall']:.2f}x wall, {ratio['cpu']:.2f}x CPU", end="")
    print("; the same files")
    return ratio


def _validate_cpu(root: Path, kit: str) -> float:
    """CPU seconds (user + system) of one `python -m generator validate layouts/KIT` process of the checkout
    at `root` (its own sources first on the path)."""
    env = dict(os.environ, PYTHONPATH=str(root))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(
        [sys.executable, "-m", "generator", "validate", str(root / "layouts" / kit)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"bench: {root}: pnpkit validate {kit} failed ({r.returncode}):\n{r.stderr[-2000:]}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def validate(repeat: int, base: Path | None) -> dict[str, float]:
    """CPU seconds of `pnpkit validate` of each shipped kit (compose and every check, in one process each),
    best of `repeat`; with `base` (another checkout, e.g. a worktree of main) the same for it, alternating
    in the same run, and the ratio base / this one per kit and for all kits together."""
    kits = sorted(p.parent.name for p in (ROOT / "layouts").glob("*/kit.yaml"))
    roots = [ROOT] if base is None else [base, ROOT]
    best: dict[tuple[Path, str], float] = {}
    for _ in range(repeat):
        for kit in kits:
            for root in roots:
                cpu = _validate_cpu(root, kit)
                best[root, kit] = min(best.get((root, kit), cpu), cpu)

    def cpu(root: Path, kit: str) -> float:
        return sum(best[root, k] for k in kits) if kit == "all kits" else best[root, kit]

    ratios: dict[str, float] = {}
    for kit in [*kits, "all kits"]:
        line = f"validate {kit}: {cpu(ROOT, kit):.2f} s CPU"
        if base is not None:
            ratios[kit] = cpu(base, kit) / cpu(ROOT, kit)
            line += f" (base {cpu(base, kit):.2f} s: {ratios[kit]:.2f}x)"
        print(line + f", best of {repeat}")
    return ratios


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--only", choices=("all", "process", "incremental", "deck", "workers", "validate"), default="all"
    )
    ap.add_argument(
        "--base",
        type=Path,
        help="validate figures: another checkout (a worktree of main) measured in the same run, alternating",
    )
    ap.add_argument(
        "--no-bytecode",
        action="store_true",
        help="process figures: leave bytecode caching as the environment has it (see `process`)",
    )
    args = ap.parse_args()
    if args.only == "workers":
        workers(args.repeat)
        return
    if args.only == "validate":
        validate(args.repeat, args.base)
        return
    if args.only in ("all", "deck"):  # issue 25: cards/s of a 500-card data deck against Ripple Rush's cards
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import bench_deck

        sys.argv = [sys.argv[0], "--repeat", str(args.repeat)]
        bench_deck.main()
        if args.only == "deck":
            return
    if args.only != "incremental":
        process(args.repeat, bytecode=not args.no_bytecode)
        if args.only == "process":
            return
    if args.only == "incremental":
        incremental(args.repeat)
        return
    from generator.pipeline import build
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
    print(
        f"  {cards / el:,.0f} cards/s (every card drawn once; the kit PDF is merged from the component PDFs)"
    )
    print(f"raw ReportLab, same {cards} simple cards: {raw:.2f} s = {cards / raw:,.0f} cards/s")
    print(f"ratio pnpkit/raw (time): {el / raw:.1f}x")
    incremental(args.repeat)


if __name__ == "__main__":
    main()
