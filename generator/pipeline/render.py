"""The render phase: composed pages to PDF (and PNG previews) in the staging folder; an incremental build
writes the changed parts and reassembles each changed folder's kit PDF from its part PDFs."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from generator.errors import RenderError
from generator.interrupts import checkpoint
from generator.pipeline.compose import CHECKLIST, FolderPlan, Part, Planned
from generator.pipeline.staging import check_out, check_targets, staged_folders


def render_all(
    planned: Sequence[Planned],
    out: Path,
    *,
    png: bool = False,
    progress: Callable[[str], None] | None = None,
    pdfa: bool = False,
) -> list[Path]:
    """Write every planned PDF (PDF/A-2b when `pdfa`) and PNG previews, all or nothing.

    Everything is written into a staging folder `OUT/.pnpkit-stage-<pid>-*` (same filesystem): each
    kit/language folder is staged whole (files already there are hard-linked in, so other papers' files
    survive), then the staged folders are renamed into place one by one with signals held; if any rename
    fails, the ones done are put back. An interrupt before the swap leaves OUT untouched; the staging
    folder is always removed.
    """
    from generator.render.fonts import check_glyphs
    from generator.render.pdf import write_pdf
    from generator.render.png import write_png

    for p in planned:  # every glyph is checked before the first byte is written
        try:
            check_glyphs(p.pages, p.fonts)
        except RenderError as e:
            raise RenderError(f"{p.path.relative_to(out)} (language {p.lang}): {e}") from None
    check_out(out)
    folders = check_targets(planned, out)
    written: list[Path] = []
    with staged_folders(out, folders) as new_root:
        for p in planned:
            rel = p.path.relative_to(out)
            tmp = new_root / rel
            write_pdf(
                p.pages,
                tmp,
                title=p.title,
                lang=p.lang,
                pdfa=pdfa,
                fonts=p.fonts,
                greyscale=p.greyscale,
                shown=p.path,
            )
            written.append(p.path)
            if png and p.png:
                write_png(tmp, tmp.with_suffix(".png"), page=0, dpi=110)
                written.append(p.path.with_suffix(".png"))
            if progress:
                progress(str(rel))
    return written


def render_incremental(
    plans: Sequence[FolderPlan],
    out: Path,
    *,
    png: bool = False,
    pdfa: bool = False,
    progress: Callable[..., None] | None = None,
    workers: int = 1,
) -> list[Path]:
    """Write the changed parts and reassemble each changed folder's kit PDF from its part PDFs, all or
    nothing: only changed folders are staged (whole, unchanged files hard-linked in) and swapped in as
    `render_all` does. The folders are drawn on `workers` forked processes when there are several
    (generator.pipeline.workers): the same files, records and errors."""
    from generator.buildkeys import MANIFEST, dump_manifest
    from generator.pipeline.workers import run_jobs
    from generator.resources import atomic_write

    todo = [plan for plan in plans if plan.needs_write]
    _check_part_glyphs(todo, out)
    check_out(out)
    if not todo:
        return []
    if progress:
        progress("drawing", total=sum(part.pages is not None for plan in todo for part in plan.parts))
    planned = [Planned(p.path, [], "", p.lang, png=p.png) for plan in todo for p in plan.parts]
    planned += [Planned(plan.folder / plan.kit_name, [], "", plan.lang) for plan in todo]
    check_targets(planned, out)
    folders = sorted({plan.folder for plan in todo})  # whole kit/language folders (with their .pnpkit/)
    written: list[Path] = []
    with staged_folders(out, folders) as new_root:
        stages = [new_root / plan.folder.relative_to(out) for plan in todo]
        if workers > 1 and len(todo) > 1:
            from generator.render.fonts import register_fonts

            register_fonts()  # once here, not in every worker

        def drawn(i: int, result: _Drawn) -> None:
            plan, (files, records, kit_entry) = todo[i], result
            written.extend(files)
            entries = dict(plan.entries)
            for part in plan.parts:
                part.record = records.get(part.name, part.record)
                entries[part.name] = part.record
                if progress and part.pages is not None:
                    progress(str(part.path.relative_to(out)))
            if kit_entry is not None:
                entries[plan.kit_name] = kit_entry
            (stages[i] / MANIFEST).parent.mkdir(exist_ok=True)
            atomic_write(stages[i] / MANIFEST, dump_manifest(entries), what="the build record")

        jobs = [
            functools.partial(_draw_folder, plan, stage, pdfa)
            for plan, stage in zip(todo, stages, strict=True)
        ]
        run_jobs(jobs, workers, drawn)
    return written


_Drawn = tuple[list[Path], dict[str, dict[str, Any]], dict[str, Any] | None]
"""What drawing one folder gives back: the files of OUT it made, the records of the parts it drew (with their
digests) by file name, and the kit PDF's record (None when it was kept)."""


def _draw_folder(plan: FolderPlan, staged: Path, pdfa: bool) -> _Drawn:
    """Draw one folder's changed parts into its stage and, when it changed, assemble its kit PDF (here or in a
    worker)."""
    files: list[Path] = []
    records: dict[str, dict[str, Any]] = {}
    for part in plan.parts:
        checkpoint()  # a safe point between parts: the stage is removed, OUT untouched
        if part.pages is not None:
            files += _write_part(plan, part, staged / part.name, pdfa=pdfa)
            records[part.name] = part.record
    kit_entry = None
    if plan.kit_rebuild:
        kit_entry = _write_kit_pdf(plan, staged, pdfa=pdfa)
        files.append(plan.folder / plan.kit_name)
    return files, records, kit_entry


def _check_part_glyphs(plans: Sequence[FolderPlan], out: Path) -> None:
    """Every glyph of every part to draw is checked before the first byte is written."""
    from generator.render.fonts import check_glyphs

    for plan in plans:
        for part in plan.parts:
            if part.pages is not None:
                try:
                    check_glyphs(part.pages, plan.kit.fonts)
                except RenderError as e:
                    raise RenderError(f"{part.path.relative_to(out)} (language {part.lang}): {e}") from None


def _write_part(plan: FolderPlan, part: Part, tmp: Path, *, pdfa: bool) -> list[Path]:
    """Draw one part to `tmp` in the stage (and its PNG preview), noting the digests in its record: the
    files of OUT it makes (the checklist is kept under .pnpkit/, not counted)."""
    from generator.buildkeys import file_digest
    from generator.render.pdf import write_pdf

    assert part.pages is not None
    tmp.parent.mkdir(exist_ok=True)
    write_pdf(
        part.pages,
        tmp,
        title=part.title,
        lang=part.lang,
        pdfa=pdfa,
        fonts=plan.kit.fonts,
        greyscale=plan.kit.print.greyscale,
        shown=part.path,
    )
    part.record["sha256"] = file_digest(tmp)
    written = [part.path] if part.cid != CHECKLIST else []
    if part.png:
        from generator.render.png import write_png  # pypdfium2: loaded only for previews

        write_png(tmp, tmp.with_suffix(".png"), page=0, dpi=110)
        part.record["png_sha256"] = file_digest(tmp.with_suffix(".png"))
        written.append(part.path.with_suffix(".png"))
    return written


def _write_kit_pdf(plan: FolderPlan, staged: Path, *, pdfa: bool) -> dict[str, Any]:
    """Assemble the folder's kit PDF from its part PDFs in the stage, in sheet order: its build record."""
    from generator.buildkeys import file_digest
    from generator.render.merge import merge_pdfs

    kit_pdf = staged / plan.kit_name
    sheets = plan.sheet_map()
    merge_pdfs(
        [staged / p.name for p in plan.parts],
        kit_pdf,
        title=plan.kit_title,
        lang=plan.lang,
        pdfa=pdfa,
        order=plan.page_order(),
        overlays=plan.overlays(),
        shown=plan.folder / plan.kit_name,
    )
    return {
        "key": plan.kit_key,
        "sha256": file_digest(kit_pdf),
        "pages": len(sheets),
        "sheets": [s.to_json() for s in sheets],
        "checklist": plan.checklist_summary(),
    }


__all__ = ["render_all", "render_incremental"]
