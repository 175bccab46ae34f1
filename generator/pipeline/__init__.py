"""The build, in named phases, each in its own module: load -> check -> compose -> render, with the output
staging beside them. Everything is gathered and checked before anything is written; files are written to a
staging folder and moved into place at the end. `build` is the one pipeline: a full build is an incremental
build with nothing kept. `export` and `serve` use the same phase functions, imported from here."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.interrupts import checkpoint
from generator.pipeline.check import (
    check_art,
    check_kit,
    check_kits,
    check_layout,
    glyph_problems,
    raise_glyph_problems,
    translation_warnings,
)
from generator.pipeline.compose import (
    CALIBRATION,
    CHECKLIST,
    FolderPlan,
    Part,
    Planned,
    calibration,
    compose_one,
    file_tag,
    kit_measure,
    plan_build,
    plan_incremental,
    plan_run,
    print_data,
    verify_layout,
)
from generator.pipeline.load import (
    TOOL_CATALOGS,
    Run,
    kit_seed,
    load_kits,
    load_run,
    shipped_kits,
    with_print,
    with_tool_catalogs,
)
from generator.pipeline.render import render_all, render_incremental
from generator.pipeline.staging import (
    STAGE_PREFIX,
    check_out,
    check_targets,
    signals_deferred,
    staged_folders,
)

if TYPE_CHECKING:
    from generator.buildkeys import Memo


@dataclass
class BuildResult:
    """What a build wrote and what it noticed."""

    files: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    pages: int = 0
    rebuilt: int = 0
    """Component PDFs (and calibration sheets) composed and drawn by this build."""
    skipped: int = 0
    """Component PDFs kept from the last build because their content key is unchanged."""
    outputs: list[Path] = field(default_factory=list)
    """Every file of the build in OUT, written or kept (parts, previews, kit PDFs, build records)."""
    checklists: list[str] = field(default_factory=list)
    """Each kit and language's print checklist in short: '<kit>/<lang>: what to print, how, sheets'."""
    printing: list[dict[str, Any]] = field(default_factory=list)
    """The same per kit and language, as data: kit, lang, steps (the checklist's opening steps; [] without a
    checklist), sheets (of paper), ink (the share of the printable area inked)."""


def build(
    paths: Sequence[Path],
    *,
    out: Path,
    langs: Sequence[str] | None = None,
    paper: str | None = None,
    seed: int | None = None,
    png: bool = False,
    progress: Callable[..., None] | None = None,
    print_overrides: Mapping[str, Any] | None = None,
    pdfa: bool = False,
    force: bool = False,
    workers: int = 1,
) -> BuildResult:
    """Load, check, compose and render kits (see `build_run`); the Python API, with the options of
    `pnpkit build` as keywords (`workers`: processes for the folders, 1 = this one alone)."""
    run = Run.of(
        paths,
        out=out,
        langs=langs,
        paper=paper,
        seed=seed,
        png=png,
        print_overrides=print_overrides,
        pdfa=pdfa,
        force=force,
        workers=workers,
    )
    return build_run(run, progress=progress)


def build_run(run: Run, *, progress: Callable[..., None] | None = None) -> BuildResult:
    """Load, check, compose and render a run's kits; raises KitError before writing anything if any phase
    fails. The folders to compose and draw go to `run.workers` forked processes when there are several (the
    same files and messages on any number; None: this process alone).

    Incremental: a component whose content key (generator.buildkeys) is unchanged since the last build into
    OUT is neither composed nor drawn again (`force` rebuilds all); each kit-<paper>.pdf is assembled from the
    component PDFs, so the result is byte-identical to a clean build. Before that, the whole build is keyed on
    the files the last build's load used (kit.yaml, catalogs, fonts, art, data: each resolved and read again
    through the kit door, `spec.paths`), the generator, fonts and options: when they and OUT's files are those
    of the last build of the same kits and options, nothing is loaded, composed or written."""
    from generator.buildkeys import Memo, inputs_name, read_inputs_record, recorded_tool_key, tool_stamp
    from generator.spec.paths import recording_reads

    t0 = time.perf_counter()
    name = inputs_name(run.paths, run.options())
    record = {} if run.force else read_inputs_record(run.out, name)
    stamp = tool_stamp()
    tool = recorded_tool_key(record, stamp)
    kept = _unchanged_build(run, record, tool, t0)
    if kept is not None:
        return kept
    memo = Memo(tool, record.get("memo"))  # the last build's parses and passed checks (none with --force)
    with recording_reads() as looks:
        result = _build(run, progress=progress, memo=memo, tool=tool)
    reads = [[*read, value] for read, value in looks.items()]
    if tool_stamp() == stamp and _same_reads(run, reads):  # no input changed meanwhile
        _record_inputs(run, name, result, memo, {"stamp": stamp, "key": tool}, reads)
        _keep_font_tables(run.out, tool)
    return result


def _unchanged_build(run: Run, record: dict[str, Any], tool: str, t0: float) -> BuildResult | None:
    """The last build's result when its inputs and OUT's files are unchanged (nothing to do), else None."""
    from generator.buildkeys import inputs_key, recorded_reads, unchanged_inputs

    # only the files the last build used, seen again through the kit door (confined, capped): a file the kit
    # does not name is never opened, so nothing in the folder beside them (a FIFO, a link out) can hang or
    # leak
    seen = recorded_reads(record, run.paths) if record else None
    if seen is None or not unchanged_inputs(
        run.out, record, inputs_key(run.paths, run.options(), tool, seen)
    ):
        return None
    if not _trusted_report(record):
        return None  # edited by hand or by another tool: built again, and the record written anew
    check_out(run.out)
    printing = [dict(p) for p in record.get("printing", [])]
    # every file the build kept, its kit/language folders in the build's order (the summary lists kit PDFs)
    order = {f"{p.get('kit')}/{p.get('lang')}": i for i, p in enumerate(printing)}
    kept = sorted(record["files"], key=lambda rel: (order.get(rel.rsplit("/", 1)[0], len(order)), rel))
    return BuildResult(
        warnings=list(record.get("warnings", [])),
        pages=int(record.get("pages", 0)),
        skipped=int(record.get("parts", 0)),
        outputs=[run.out / rel for rel in kept],
        checklists=[str(c) for c in record.get("checklists", [])],
        printing=printing,
        timings={"load": time.perf_counter() - t0, "check": 0.0, "compose": 0.0, "render": 0.0},
    )


def _trusted_report(record: dict[str, Any]) -> bool:
    """Whether what a build record says of its build has the shapes a build writes (a summary repeats it)."""

    def texts(x: object) -> bool:
        return isinstance(x, list) and all(isinstance(t, str) for t in x)

    def note(p: object) -> bool:
        return (
            isinstance(p, dict)
            and all(isinstance(p.get(k), str) for k in ("kit", "lang"))
            and texts(p.get("steps"))
            and type(p.get("sheets")) is int
            and type(p.get("ink")) in (int, float)
        )

    printing = record.get("printing", [])
    return (
        texts(record.get("warnings", []))
        and texts(record.get("checklists", []))
        and type(record.get("pages", 0)) is int
        and type(record.get("parts", 0)) is int
        and isinstance(printing, list)
        and all(note(p) for p in printing)
    )


def _same_reads(run: Run, reads: list[list[Any]]) -> bool:
    """Whether the files the build read are, read again now, what the build saw."""
    from generator.buildkeys import recorded_reads

    return recorded_reads({"reads": reads}, run.paths) == reads


FONT_TABLES = ".pnpkit/fonts.json"
"""OUT/.pnpkit/fonts.json: the built-in faces' per-character tables (generator.render.fonts.font_tables) under
the tool key, so a rebuild that draws restores the faces instead of parsing 9 MB of TrueType."""


def _offer_font_tables(out: Path, tool: str) -> None:
    """Hand the kept font tables of OUT to the font registry (used if this process has not registered yet)."""
    import json

    from generator.render.fonts import offer_font_tables

    try:
        data = json.loads((out / FONT_TABLES).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if isinstance(data, dict) and data.get("tool") == tool and isinstance(data.get("tables"), dict):
        offer_font_tables(data["tables"])


def _keep_font_tables(out: Path, tool: str) -> None:
    """Write OUT/.pnpkit/fonts.json when this build registered the fonts (it drew) and OUT holds no tables of
    this tool key: a function of the font files, ReportLab and the tool key, so a clean build and a rebuild
    write the same file."""
    import json

    from generator.render.fonts import font_tables, font_tables_version, fonts_registered
    from generator.resources import atomic_write

    if not fonts_registered():
        return
    try:
        data = json.loads((out / FONT_TABLES).read_text(encoding="utf-8"))
        if data.get("tool") == tool and data.get("tables", {}).get("version") == font_tables_version():
            return
    except (OSError, ValueError, AttributeError):
        pass
    body = json.dumps({"format": 1, "tool": tool, "tables": font_tables()}, sort_keys=True) + "\n"
    atomic_write(out / FONT_TABLES, body.encode("utf-8"), what="the font tables")


def _record_inputs(
    run: Run,
    name: str,
    result: BuildResult,
    memo: Memo,
    tool: dict[str, str],
    reads: list[list[Any]],
) -> None:
    """Write OUT/.pnpkit/inputs/<name>.json for the next build's unchanged-inputs check and memo (see
    build)."""
    from generator.buildkeys import INPUTS, dump_inputs_record, file_digest, inputs_key
    from generator.resources import atomic_write

    out = run.out
    key = inputs_key(run.paths, run.options(), tool["key"], reads)
    files = {p.relative_to(out).as_posix(): file_digest(p) for p in result.outputs}
    report = {
        "warnings": result.warnings,
        "pages": result.pages,
        "parts": result.rebuilt + result.skipped,
        "checklists": result.checklists,
        "printing": result.printing,
        "memo": memo.dump(),
        "tool": tool,
        "reads": reads,
    }
    (out / INPUTS).mkdir(parents=True, exist_ok=True)
    atomic_write(
        out / INPUTS / f"{name}.json",
        dump_inputs_record(key, files, report),
        what="the build record",
    )


def _build(
    run: Run,
    *,
    progress: Callable[..., None] | None,
    memo: Memo | None = None,
    tool: str | None = None,
) -> BuildResult:
    """The build of `build_run` after its unchanged-inputs check: every phase, incremental per part. Safe
    points between the phases: a recorded Ctrl-C / SIGTERM stops the build there, before anything is
    written."""
    from generator.render.fonts import text_width

    result = BuildResult()
    clock = _Clock()
    checkpoint()
    run = run.with_kits(load_kits(run.paths, memo=memo))
    clock.lap("load")
    checkpoint()
    check_kits(run.kits, memo=memo)
    checkpoint()
    result.warnings = [w for kit in run.kits for w in translation_warnings(kit)]
    clock.lap("check")
    if tool is not None and not run.force:
        _offer_font_tables(run.out, tool)
    plans = plan_run(
        run,
        measure=text_width,
        warn=result.warnings.append,
        progress=progress,
        memo=memo,
        tool=tool,
    )
    raise_glyph_problems(run.kits, _composed(plans))
    checkpoint()
    result.warnings = list(dict.fromkeys([*result.warnings, *_kept_warnings(plans)]))
    clock.lap("compose")
    result.files = render_incremental(
        plans, run.out, png=run.png, pdfa=run.pdfa, progress=progress, workers=run.workers or 1
    )
    clock.lap("render")
    _tally(result, plans)
    result.timings = clock.laps
    return result


class _Clock:
    """The seconds each phase took, in order."""

    def __init__(self) -> None:
        self.laps: dict[str, float] = {}
        self._last = time.perf_counter()

    def lap(self, phase: str) -> None:
        """Note the time since the last lap as `phase`'s."""
        now = time.perf_counter()
        self.laps[phase], self._last = now - self._last, now


def _composed(plans: Sequence[FolderPlan]) -> list[Planned]:
    """The parts this build composed (the kept ones are not drawn again)."""
    return [
        Planned(part.path, part.pages, part.title, part.lang, fonts=plan.kit.fonts)
        for plan in plans
        for part in plan.parts
        if part.pages is not None
    ]


def _kept_warnings(plans: Sequence[FolderPlan]) -> list[str]:
    """The warnings the last build heard while composing the parts this build keeps."""
    return [
        w
        for plan in plans
        for part in plan.parts
        if part.pages is None
        for w in part.record.get("warnings", [])
    ]


def _tally(result: BuildResult, plans: Sequence[FolderPlan]) -> None:
    """Fill in what the build holds: its pages, parts drawn and kept, every output file and the checklists."""
    from generator.buildkeys import MANIFEST

    parts = [part for plan in plans for part in plan.parts]
    result.pages = sum(plan.page_count for plan in plans)
    result.skipped = sum(1 for part in parts if part.pages is None)
    result.rebuilt = len(parts) - result.skipped
    result.outputs = [
        path
        for plan in plans
        for path in [
            *(
                p
                for part in plan.parts
                for p in ([part.path, part.path.with_suffix(".png")] if part.png else [part.path])
            ),
            plan.folder / plan.kit_name,
            plan.folder / MANIFEST,
        ]
    ]
    result.printing = [
        {"kit": plan.kit.meta.id, "lang": plan.lang, "steps": plan.checklist_summary(), **paper_figures(plan)}
        for plan in plans
    ]
    result.checklists = [
        f"{p['kit']}/{p['lang']}: " + " ".join(p["steps"]) for p in result.printing if p["steps"]
    ] + [f"{p['kit']}/{p['lang']}: {paper_text(p['sheets'], p['ink'])}" for p in result.printing]


def paper_figures(plan: FolderPlan) -> dict[str, Any]:
    """{"sheets": sheets of paper, "ink": the share of the printable area inked} of a folder's kit PDF (the
    ink estimated from the ops of the printed sides, generator.layout.ink)."""
    from generator.layout.sheets import ink_share, sheet_count
    from generator.units import paper_size

    sides = plan.sheet_map()
    margin = plan.kit.print.margin
    width, height = paper_size(plan.paper)
    share = ink_share(
        [(p.cid, p.sides()) for p in plan.parts], sides, (width - 2 * margin) * (height - 2 * margin)
    )
    return {"sheets": sheet_count(sides), "ink": share}


def paper_text(sheets: int, ink: float) -> str:
    """'N sheets of paper, ink on P % of the printable area'."""
    return f"{sheets} sheet{'' if sheets == 1 else 's'} of paper, ink on {ink:.0%} of the printable area"


__all__ = [
    "CALIBRATION",
    "CHECKLIST",
    "STAGE_PREFIX",
    "TOOL_CATALOGS",
    "BuildResult",
    "Run",
    "FolderPlan",
    "Part",
    "Planned",
    "build",
    "build_run",
    "calibration",
    "check_art",
    "check_kit",
    "check_kits",
    "check_layout",
    "check_out",
    "check_targets",
    "compose_one",
    "file_tag",
    "glyph_problems",
    "kit_seed",
    "kit_measure",
    "load_kits",
    "load_run",
    "paper_text",
    "plan_build",
    "plan_incremental",
    "plan_run",
    "print_data",
    "raise_glyph_problems",
    "render_all",
    "render_incremental",
    "shipped_kits",
    "signals_deferred",
    "staged_folders",
    "translation_warnings",
    "verify_layout",
    "with_print",
    "with_tool_catalogs",
]
