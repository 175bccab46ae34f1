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
    check_kits,
    check_out,
    compose_one,
    load_kits,
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
    """COMPONENT or COMPONENT:ID,ID,...: a hand of that deck's cards fanned on one PNG (OUT/<kit>/<lang>/showcase/)"""
    dpi: int = 300
    size: str | None = None
    """a POD_SIZES name; None = each deck at its own trim with the kit's bleed"""
    base_url: str | None = None
    fmt: str = "png"
    quality: int = 90
    workers: int | None = None
    """processes rasterising in parallel (default: up to 2, the CPUs there are); 1 = in this process"""


def _csv(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> bytes:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(columns), lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({c: r[c] for c in columns})
    return buf.getvalue().encode()


def _pool(workers: int | None) -> ProcessPoolExecutor | None:
    """A process pool (forked, so workers start with everything imported) or None to work in this process.
    Each image is written by exactly one job, so the files do not depend on the number of workers."""
    n = min(2, os.cpu_count() or 1) if workers is None else workers
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
    return [
        (
            f"{kit_id}/{lang}: {deck.component}: {len(outside)} strings reach outside the safe area "
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
    for b, f in zip(boards, board_jobs):
        rel, w, h = f.result()
        tiles.append(BoardImage(b.component, b.title, url(rel), w, h))
    obj = saved_object(kit.meta.id, lang, title, images, tiles, kit.meta.version)
    (staged / f"{kit.meta.id}-{lang}.json").write_bytes(
        (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode()
    )
    for images_of, key in zip(images, first_keys(images)):
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
    """Export kits for Tabletop Simulator (OUT/<kit>/<lang>/tts/) and/or as print-on-demand card images
    (OUT/<kit>/<lang>/cards/); raises KitError before writing anything if a phase fails."""
    from generator.render.export_images import (
        Look,
        write_board,
        write_cards,
        write_pages,
        write_showcase,
        write_tts_deck,
    )

    if not (options.tts or options.cards or options.pages or options.showcase):
        raise KitError("nothing to export: pass --tts, --cards, --pages and/or --showcase")
    size: PodSize | None = None
    if options.size is not None:
        if options.size not in POD_SIZES:
            raise KitError(f"--size: expected one of {', '.join(POD_SIZES)}; got {options.size!r}")
        size = POD_SIZES[options.size]
    if options.fmt not in FORMATS:
        raise KitError(f"--format: expected one of {', '.join(FORMATS)}; got {options.fmt!r}")
    if not 1 <= options.quality <= 100:
        raise KitError(f"--quality: expected a number in 1..100; got {options.quality}")
    if not 72 <= options.dpi <= 1200:
        raise KitError(f"--dpi: expected a number in 72..1200; got {options.dpi}")
    result = ExportResult()
    t0 = time.perf_counter()
    kits = load_kits(paths)
    check_kits(kits)
    for kit in kits:
        result.warnings.extend(translation_warnings(kit))
        kit.chosen_languages(langs)
    t1 = time.perf_counter()
    plans: list[_Plan] = []
    for kit in kits:
        kit_seed = kit.meta.seed if seed is None else seed
        extras = print_data(kit, kit_seed)
        for lang in langs or kit.meta.languages:
            decks, boards, title = _compose_decks(
                kit, lang, kit_seed, extras, size.bleed if size else None, result.warnings.append
            )
            plan = _Plan(kit, lang, decks, boards, title)
            if options.pages:
                from generator.render.fonts import text_width

                plan.pages, _ = compose_one(
                    kit, lang, kit.print.paper, kit_seed, extras, text_width, result.warnings.append
                )
            if options.showcase:
                plan.hand = _showcase_hand(plan, options.showcase)
            plans.append(plan)
    if options.showcase and not any(p.hand for p in plans):
        component = parse_showcase(options.showcase)[0]
        raise KitError(f"--showcase: no kit has a deck of cards named {component!r}")
    t2 = time.perf_counter()
    check_out(out)
    # the tts/, cards/, pages/ and showcase/ folders of every kit/language are replaced whole, all or nothing
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
    folders = sorted(
        {
            out / p.kit.meta.id / p.lang / sub
            for p in plans
            for sub in subs
            if sub != "showcase" or p.hand is not None
        }
    )
    pool = _pool(options.workers)
    written: list[Path] = []
    try:
        with staged_folders(out, folders, keep_existing=False) as stage:

            def submit(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future[Any]:
                if pool is not None:
                    fut = pool.submit(fn, *args, **kwargs)
                else:
                    fut = Future()
                    fut.set_result(fn(*args, **kwargs))
                if progress:
                    fut.add_done_callback(lambda _: progress(1))
                return fut

            # every image job is submitted first (decks, boards and card files of every kit run in parallel) ...
            jobs: list[
                tuple[
                    Kit,
                    str,
                    list[Deck],
                    list[Board],
                    str,
                    list[Future[Any]],
                    list[Future[Any]],
                    list[tuple[Deck, Future[Any]]],
                ]
            ] = []
            picture_jobs: list[Future[Any]] = []  # pages and showcases: files only, no result to assemble
            for plan in plans:
                kit, lang, decks, boards, title = plan.kit, plan.lang, plan.decks, plan.boards, plan.title
                rel_root = Path(kit.meta.id) / lang
                look = Look(kit.fonts, kit.print.greyscale)  # images show what the PDF prints
                tts_jobs: list[Future[Any]] = []
                board_jobs: list[Future[Any]] = []
                card_jobs: list[tuple[Deck, Future[Any]]] = []
                if options.tts:
                    folder = stage / rel_root / "tts"
                    tts_jobs = [
                        submit(write_tts_deck, d, folder, fmt=options.fmt, quality=options.quality, look=look)
                        for d in decks
                    ]
                    board_jobs = [
                        submit(write_board, b, folder, fmt=options.fmt, quality=options.quality, look=look)
                        for b in boards
                    ]
                if options.cards:
                    for d in decks:
                        if size is not None and not matches(d, size):
                            result.warnings.append(
                                f"{kit.meta.id}/{lang}: {d.component} is {describe(d)}, not {size.name}; "
                                f"not exported as cards (export it without --size)"
                            )
                            continue
                        result.warnings.extend(_safe_area_warnings(kit.meta.id, lang, d, size))
                        card_jobs.append(
                            (
                                d,
                                submit(
                                    write_cards,
                                    d,
                                    stage / rel_root / "cards",
                                    dpi=options.dpi,
                                    size=size,
                                    look=look,
                                ),
                            )
                        )
                for comp in plan.pages:
                    picture_jobs.append(
                        submit(
                            write_pages,
                            comp.id,
                            kit.print.paper,
                            comp.pages,
                            stage / rel_root / "pages",
                            look=look,
                        )
                    )
                if plan.hand is not None:
                    deck, hand = plan.hand
                    picture_jobs.append(
                        submit(
                            write_showcase,
                            deck,
                            hand,
                            stage / rel_root / "showcase" / f"{safe_name(deck.component)}.png",
                            look=look,
                        )
                    )
                jobs.append((kit, lang, decks, boards, title, tts_jobs, board_jobs, card_jobs))
            # ... then the saved objects, sidecars and manifests are written in a fixed order from their results
            for kit, lang, decks, boards, title, tts_jobs, board_jobs, card_jobs in jobs:
                rel_root = Path(kit.meta.id) / lang
                if options.tts:
                    folder = rel_root / "tts"
                    result.cards += sum(len({c.front.face for c in d.cards}) for d in decks)
                    _write_tts_object(
                        stage / folder,
                        (out / folder).resolve(),
                        f"{kit.meta.id}/{lang}/tts",
                        kit,
                        lang,
                        title,
                        decks,
                        boards,
                        tts_jobs,
                        board_jobs,
                        options.base_url,
                    )
                    written += sorted(
                        p.relative_to(stage) for p in (stage / folder).rglob("*") if p.is_file()
                    )
                if options.cards:
                    folder = rel_root / "cards"
                    rows_out: list[dict[str, Any]] = []
                    for _, f in card_jobs:
                        made = f.result()
                        result.cards += len(made)
                        rows_out += [
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
                    (stage / folder / "manifest.csv").write_bytes(
                        _csv(
                            rows_out,
                            (
                                "component",
                                "index",
                                "id",
                                "side",
                                "count",
                                "file",
                                "width_px",
                                "height_px",
                                "sha256",
                            ),
                        )
                    )
                    written += sorted(
                        p.relative_to(stage) for p in (stage / folder).rglob("*") if p.is_file()
                    )
            for job in picture_jobs:
                job.result()  # raises what the job raised
            for folder in folders:
                if folder.name in ("pages", "showcase"):
                    staged = stage / folder.relative_to(out)
                    written += sorted(p.relative_to(stage) for p in staged.rglob("*") if p.is_file())
        result.files = [out / rel for rel in written]
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    t3 = time.perf_counter()
    result.timings = {"load": t1 - t0, "compose": t2 - t1, "render": t3 - t2}
    return result
