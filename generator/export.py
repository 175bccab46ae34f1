"""The export, in phases like the build: load -> check -> compose (print-shop mode: one face per page) ->
plan (export room) -> rasterise (render room) into a staging folder -> move into place. Part of the hallway:
it is the one place that hands export plans to the render room."""

from __future__ import annotations

import csv
import io
import json
import multiprocessing as mp
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from generator.errors import KitError
from generator.exportplan.plan import (
    POD_SIZES,
    Board,
    Card,
    Deck,
    PodSize,
    decks_and_boards,
    describe,
    matches,
    safe_name,
    showcase_hand,
)
from generator.exportplan.tts import BoardImage, deck_rows, first_keys, saved_object
from generator.layout.compose import Component
from generator.pipeline import (
    Run,
    check_kits,
    check_out,
    compose_one,
    load_run,
    print_data,
    staged_folders,
    translation_warnings,
    with_print,
)
from generator.spec.kit import Kit

FORMATS = ("png", "jpeg")


@dataclass
class ExportResult:
    """What an export wrote and what it noticed."""

    files: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    cards: int = 0
    """card images rasterised (distinct faces and backs, all decks)"""
    timings: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class ExportOptions:
    """What to export and how."""

    tts: bool = False
    cards: bool = False
    pages: bool = False
    """every page of the build's PDFs as a PNG (OUT/<kit>/<lang>/pages/)"""
    showcase: str | None = None
    """COMPONENT or COMPONENT:ID,ID,...: a hand of that deck's cards fanned on one PNG
    (OUT/<kit>/<lang>/showcase/)"""
    dpi: int = 300
    size: str | None = None
    """a POD_SIZES name; None = each deck at its own trim with the kit's bleed"""
    base_url: str | None = None
    fmt: str = "png"
    quality: int = 90
    workers: int | None = None
    """processes composing (one kit x language each) and rasterising in parallel (default: up to 2, the CPUs
    there are); 1 = in this process"""


def _csv(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> bytes:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(columns), lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({c: r[c] for c in columns})
    return buf.getvalue().encode()


def _worker_count(workers: int | None) -> int:
    """The export's processes: `workers`, or by default up to 2 (the CPUs there are)."""
    return min(2, os.cpu_count() or 1) if workers is None else workers


def _pool(workers: int | None) -> ProcessPoolExecutor | None:
    """A process pool (forked, so workers start with everything imported) or None to work in this process.
    Each image is written by exactly one job, so the files do not depend on the number of workers."""
    n = _worker_count(workers)
    if n <= 1 or "fork" not in mp.get_all_start_methods():
        return None
    return ProcessPoolExecutor(max_workers=n, mp_context=mp.get_context("fork"))


def _safe_area_warnings(kit_id: str, lang: str, deck: Deck, size: PodSize | None) -> list[str]:
    """One warning when strings of the deck's faces reach outside a print-on-demand size's safe area (measured
    on the glyphs' outlines); none for native sizes, which have no shop's safe area."""
    from generator.layout.textfit import texts_outside
    from generator.render.fonts import ink_extent, text_width

    if size is None:
        return []
    safe = size.safe
    outside: list[str] = []
    checked: set[str] = set()
    for card in deck.cards:
        for page in (card.front, card.back):
            if page is None or page.face in checked or page.trim_box is None:
                continue
            checked.add(page.face)
            x0, y0, x1, y1 = page.trim_box
            outside += [
                f"{page.face}: {msg}"
                for msg in texts_outside(
                    page, (x0 + safe, y0 + safe, x1 - safe, y1 - safe), text_width, ink_extent
                )
            ]
    if not outside:
        return []
    reach = "1 string reaches" if len(outside) == 1 else f"{len(outside)} strings reach"
    return [
        (
            f"{kit_id}/{lang}: {deck.component}: {reach} outside the safe area "
            f"({safe / 72 * 25.4:.1f} mm inside the trim), e.g. {outside[0]}"
        )
    ]


@dataclass
class _Plan:
    """What one kit x language exports: its decks and boards (print-shop faces), its title, the pages of its
    build (for --pages) and the hand a showcase fans out."""

    kit: Kit
    lang: str
    decks: list[Deck]
    boards: list[Board]
    title: str
    pages: list[Component] = field(default_factory=list)
    hand: tuple[Deck, list[Card]] | None = None


def parse_showcase(text: str) -> tuple[str, tuple[str, ...]]:
    """`COMPONENT` or `COMPONENT:ID,ID,...` -> (component, ids)."""
    component, _, ids = text.partition(":")
    return component.strip(), tuple(i.strip() for i in ids.split(",") if i.strip())


def _showcase_hand(plan: _Plan, showcase: str) -> tuple[Deck, list[Card]] | None:
    component, ids = parse_showcase(showcase)
    deck = next((d for d in plan.decks if d.component == component), None)
    if deck is None:
        return None
    try:
        return deck, showcase_hand(deck, ids)
    except ValueError as e:
        raise KitError(f"--showcase: {plan.kit.display}: {e}") from None


def _compose_decks(
    kit: Kit, lang: str, seed: int, extras: dict[str, Any], bleed: float | None, warn: Callable[[str], None]
) -> tuple[list[Deck], list[Board], str]:
    from generator.render.fonts import text_width

    overrides: dict[str, Any] = {"mode": "shop", "duplex": "long"}
    if bleed is not None:
        overrides["bleed"] = bleed
    shop = with_print(kit, overrides)
    components, texts = compose_one(shop, lang, shop.print.paper, seed, extras, text_width, warn)
    decks, boards = decks_and_boards(components)
    return decks, boards, texts(kit.meta.title)


def _write_tts_object(
    staged: Path,
    final: Path,
    prefix: str,
    kit: Kit,
    lang: str,
    title: str,
    decks: list[Deck],
    boards: list[Board],
    tts_jobs: list[Future[Any]],
    board_jobs: list[Future[Any]],
    base_url: str | None,
) -> None:
    """The saved object and each deck's sidecar CSV, from the written sheets and tiles, in a fixed order."""
    from generator.render.export_images import tts_images

    def url(name: str) -> str:
        if base_url:
            return f"{base_url.rstrip('/')}/{prefix}/{name}"
        return (final / name).as_uri()

    images = [tts_images(f.result(), url) for f in tts_jobs]
    tiles = []
    for b, f in zip(boards, board_jobs, strict=True):
        rel, w, h = f.result()
        tiles.append(BoardImage(b.component, b.title, url(rel), w, h))
    obj = saved_object(kit.meta.id, lang, title, images, tiles, kit.meta.version)
    (staged / f"{kit.meta.id}-{lang}.json").write_bytes(
        (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode()
    )
    for images_of, key in zip(images, first_keys(images), strict=True):
        rows = deck_rows(images_of, key)
        (staged / f"{images_of.deck.component}.csv").write_bytes(
            _csv(rows, ("card_id", "sheet", "slot", "index", "id", "name"))
        )


def export(
    paths: Sequence[Path],
    *,
    out: Path,
    langs: Sequence[str] | None = None,
    seed: int | None = None,
    options: ExportOptions,
    progress: Callable[..., None] | None = None,
) -> ExportResult:
    """Export kits (see `export_run`); the Python API, with the options of `pnpkit export` as keywords."""
    run = Run.of(paths, out=out, langs=langs, seed=seed, workers=options.workers)
    return export_run(run, options, progress=progress)


def export_run(
    run: Run, options: ExportOptions, *, progress: Callable[..., None] | None = None
) -> ExportResult:
    """Export a run's kits for Tabletop Simulator (OUT/<kit>/<lang>/tts/) and/or as print-on-demand card
    images (OUT/<kit>/<lang>/cards/), pictures of pages and showcases, in the build's phases: load, check,
    compose (print-shop faces), render (rasterise into a staging folder, moved into place); raises KitError
    before writing anything if a phase fails. The options are the CLI's, checked as it parsed them."""
    if not (options.tts or options.cards or options.pages or options.showcase):
        raise KitError("nothing to export: pass --tts, --cards, --pages and/or --showcase")
    result = ExportResult()
    t0 = time.perf_counter()
    run = load_run(run)
    check_kits(run.kits)
    for kit in run.kits:
        result.warnings.extend(translation_warnings(kit))
        run.langs_for(kit)  # a language the kit does not ship is a usage error before any work
    t1 = time.perf_counter()
    plans = _compose_exports(run, options, result.warnings.append)
    t2 = time.perf_counter()
    _render_exports(run, plans, options, result, progress)
    t3 = time.perf_counter()
    result.timings = {"load": t1 - t0, "compose": t2 - t1, "render": t3 - t2}
    return result


def _pod_size(options: ExportOptions) -> PodSize | None:
    """The print-on-demand size the card images are made at (--size), None for each deck's own."""
    return None if options.size is None else POD_SIZES[options.size]


def _compose_exports(run: Run, options: ExportOptions, warn: Callable[[str], None]) -> list[_Plan]:
    """Compose phase: each kit x language's print-shop faces (decks and boards), its pages (--pages) and the
    hand of cards a showcase fans out; the kit/language pairs on the export's worker processes
    (pipeline/workers.py: results and warnings in the serial order, a failing pair's own error)."""
    from generator.pipeline.workers import run_jobs
    from generator.render.fonts import register_fonts

    pairs: list[tuple[Kit, str, int, dict[str, Any]]] = []
    for kit in run.kits:
        seed = run.seed_for(kit)
        extras = print_data(kit, seed)  # here, once per kit: every worker inherits it
        pairs += [(kit, lang, seed, extras) for lang in run.langs_for(kit)]
    register_fonts()
    jobs = [partial(_compose_export, *pair, options) for pair in pairs]
    plans = []
    for (kit, lang, _, _), (made, heard) in zip(
        pairs, run_jobs(jobs, _worker_count(run.workers)), strict=True
    ):
        for text in heard:
            warn(text)
        plans.append(_Plan(kit, lang, *made))
    if options.showcase and not any(p.hand for p in plans):
        component = parse_showcase(options.showcase)[0]
        raise KitError(f"--showcase: no kit has a deck of cards named {component!r}")
    return plans


def _compose_export(
    kit: Kit, lang: str, seed: int, extras: dict[str, Any], options: ExportOptions
) -> _Composed:
    """One kit x language's plan (_compose_exports), less the kit (a worker sends back what it made, not what
    it was given), and the warnings heard, in order."""
    from generator.render.fonts import text_width

    heard: list[str] = []
    size = _pod_size(options)
    decks, boards, title = _compose_decks(kit, lang, seed, extras, size.bleed if size else None, heard.append)
    plan = _Plan(kit, lang, decks, boards, title)
    if options.pages:
        plan.pages, _ = compose_one(kit, lang, kit.print.paper, seed, extras, text_width, heard.append)
    if options.showcase:
        plan.hand = _showcase_hand(plan, options.showcase)
    return (plan.decks, plan.boards, plan.title, plan.pages, plan.hand), heard


_Composed = tuple[
    tuple[list[Deck], list[Board], str, list[Component], "tuple[Deck, list[Card]] | None"], list[str]
]
"""What composing one kit x language gives back: its _Plan's fields after the kit and the language, and the
warnings heard."""


def _export_folders(out: Path, plans: Sequence[_Plan], options: ExportOptions) -> list[Path]:
    """The tts/, cards/, pages/ and showcase/ folders of every kit/language: each is replaced whole."""
    subs = [
        sub
        for sub, on in (
            ("tts", options.tts),
            ("cards", options.cards),
            ("pages", options.pages),
            ("showcase", bool(options.showcase)),
        )
        if on
    ]
    return sorted(
        {
            out / p.kit.meta.id / p.lang / sub
            for p in plans
            for sub in subs
            if sub != "showcase" or p.hand is not None
        }
    )


class _Jobs:
    """The image jobs of an export: run by a process pool or in this process, each counted by `progress`."""

    def __init__(self, workers: int | None, progress: Callable[..., None] | None) -> None:
        self.pool = _pool(workers)
        self.progress = progress

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future[Any]:
        """`fn(*args, **kwargs)` as a job: its future (already done without a pool)."""
        fut: Future[Any]
        if self.pool is not None:
            fut = self.pool.submit(fn, *args, **kwargs)
        else:
            fut = Future()
            fut.set_result(fn(*args, **kwargs))
        if self.progress:
            progress = self.progress
            fut.add_done_callback(lambda _: progress(1))
        return fut

    def close(self) -> None:
        """Stop the pool (jobs not started are cancelled)."""
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)


@dataclass
class _Submitted:
    """One kit x language's image jobs: TTS deck sheets, board tiles, card files and pictures."""

    plan: _Plan
    tts: list[Future[Any]] = field(default_factory=list)
    boards: list[Future[Any]] = field(default_factory=list)
    cards: list[tuple[Deck, Future[Any]]] = field(default_factory=list)
    pictures: list[Future[Any]] = field(default_factory=list)
    """pages and showcases: files only, no result to assemble"""


def _render_exports(
    run: Run,
    plans: Sequence[_Plan],
    options: ExportOptions,
    result: ExportResult,
    progress: Callable[..., None] | None,
) -> None:
    """Render phase: every image job is submitted first (decks, boards and card files of every kit run in
    parallel), then the saved objects, sidecars and manifests are written in a fixed order from their results;
    all into a staging folder moved into place whole, all or nothing."""
    out = run.out
    check_out(out)
    folders = _export_folders(out, plans, options)
    jobs = _Jobs(run.workers, progress)
    written: list[Path] = []
    try:
        with staged_folders(out, folders, keep_existing=False) as stage:
            submitted = [_submit_images(plan, stage, options, jobs, result.warnings.append) for plan in plans]
            for each in submitted:
                written += _write_tts(each, stage, out, options, result)
                written += _write_card_manifest(each, stage, options, result)
            for each in submitted:
                for job in each.pictures:
                    job.result()  # raises what the job raised
            for folder in folders:
                if folder.name in ("pages", "showcase"):
                    staged = stage / folder.relative_to(out)
                    written += sorted(p.relative_to(stage) for p in staged.rglob("*") if p.is_file())
        result.files = [out / rel for rel in written]
    finally:
        jobs.close()


def _submit_images(
    plan: _Plan, stage: Path, options: ExportOptions, jobs: _Jobs, warn: Callable[[str], None]
) -> _Submitted:
    """Submit one kit x language's image jobs, writing into its folders of the stage."""
    from generator.render.export_images import (
        Look,
        write_board,
        write_cards,
        write_pages,
        write_showcase,
        write_tts_deck,
    )

    kit, lang, size = plan.kit, plan.lang, _pod_size(options)
    root = stage / kit.meta.id / lang
    look = Look(kit.fonts, kit.print.greyscale)  # images show what the PDF prints
    each = _Submitted(plan)
    if options.tts:
        image = {"fmt": options.fmt, "quality": options.quality, "look": look}
        each.tts = [jobs.submit(write_tts_deck, d, root / "tts", **image) for d in plan.decks]
        each.boards = [jobs.submit(write_board, b, root / "tts", **image) for b in plan.boards]
    if options.cards:
        for d in plan.decks:
            if size is not None and not matches(d, size):
                warn(
                    f"{kit.meta.id}/{lang}: {d.component} is {describe(d)}, not {size.name}; "
                    f"not exported as cards (export it without --size)"
                )
                continue
            for w in _safe_area_warnings(kit.meta.id, lang, d, size):
                warn(w)
            made = jobs.submit(write_cards, d, root / "cards", dpi=options.dpi, size=size, look=look)
            each.cards.append((d, made))
    for comp in plan.pages:
        each.pictures.append(
            jobs.submit(write_pages, comp.id, kit.print.paper, comp.pages, root / "pages", look=look)
        )
    if plan.hand is not None:
        deck, hand = plan.hand
        target = root / "showcase" / f"{safe_name(deck.component)}.png"
        each.pictures.append(jobs.submit(write_showcase, deck, hand, target, look=look))
    return each


def _write_tts(
    each: _Submitted, stage: Path, out: Path, options: ExportOptions, result: ExportResult
) -> list[Path]:
    """The TTS saved object and sidecars of one kit x language (--tts): the files written, relative to the
    stage."""
    if not options.tts:
        return []
    plan = each.plan
    kit, lang = plan.kit, plan.lang
    folder = Path(kit.meta.id) / lang / "tts"
    result.cards += sum(len({c.front.face for c in d.cards}) for d in plan.decks)
    _write_tts_object(
        stage / folder,
        (out / folder).resolve(),
        f"{kit.meta.id}/{lang}/tts",
        kit,
        lang,
        plan.title,
        plan.decks,
        plan.boards,
        each.tts,
        each.boards,
        options.base_url,
    )
    return sorted(p.relative_to(stage) for p in (stage / folder).rglob("*") if p.is_file())


MANIFEST_COLUMNS = ("component", "index", "id", "side", "count", "file", "width_px", "height_px", "sha256")
"""The columns of OUT/<kit>/<lang>/cards/manifest.csv."""


def _write_card_manifest(
    each: _Submitted, stage: Path, options: ExportOptions, result: ExportResult
) -> list[Path]:
    """The card files' manifest.csv of one kit x language (--cards): the files written, relative to the
    stage."""
    if not options.cards:
        return []
    folder = Path(each.plan.kit.meta.id) / each.plan.lang / "cards"
    rows: list[dict[str, Any]] = []
    for _, job in each.cards:
        made = job.result()
        result.cards += len(made)
        rows += [
            {
                "component": m.component,
                "index": m.index,
                "id": m.id,
                "side": m.side,
                "count": m.count,
                "file": m.file,
                "width_px": m.size_px[0],
                "height_px": m.size_px[1],
                "sha256": m.sha256,
            }
            for m in made
        ]
    (stage / folder).mkdir(parents=True, exist_ok=True)
    (stage / folder / "manifest.csv").write_bytes(_csv(rows, MANIFEST_COLUMNS))
    return sorted(p.relative_to(stage) for p in (stage / folder).rglob("*") if p.is_file())
