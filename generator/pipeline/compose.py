"""The compose phase: a kit's pages in each language, as data (nothing written). `plan_incremental` keys every
part first and composes only those whose key changed (a full build is one with nothing kept); `plan_build`
composes everything for `validate` and the tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.contract import registry
from generator.errors import KitError, LayoutError, LocatedLayoutError, Problem, SpecError
from generator.interrupts import checkpoint
from generator.pipeline.check import check_art, check_layout, raise_glyph_problems
from generator.pipeline.load import Run, with_tool_catalogs
from generator.pipeline.printsheets import (
    CALIBRATION,
    CHECKLIST,
    TOOL_PARTS,
    calibration,
    checklist,
    sheet_options,
)

if TYPE_CHECKING:  # imported where used: a rebuild whose inputs did not change loads none of them
    from generator.buildkeys import Memo
    from generator.i18n.texts import Texts
    from generator.layout.compose import Component
    from generator.layout.ops import Page
    from generator.layout.sheets import PageSides, SheetSide
    from generator.spec.kit import Kit


def print_data(kit: Kit, seed: int, memo: Memo | None = None) -> dict[str, Any]:
    """Generated, language-independent data the printed pieces need (decks, memory cards, variants),
    asked of the game's rules package once per build; composers read it from Context.extras. A pure function
    of the game section and the seed: with a build's `memo`, what the last build got for the same section and
    seed is reused when it was plain JSON data (the game's rules are then not even imported)."""
    if memo is None:
        return dict(registry.get(kit.game_id).load.print_data()(kit.game, seed))
    # the section, and the files a game that reads its kit folder loaded for it, by content
    files = [sorted(kit.game_files.items())] if kit.game_files else []
    key = memo.key("print_data", [kit.game_id, kit.section.model_dump(mode="json"), seed, *files])
    hit = memo.recall_json(key)
    if isinstance(hit, dict):
        return hit
    data = dict(registry.get(kit.game_id).load.print_data()(kit.game, seed))
    memo.remember_json(key, data)
    return data


@dataclass
class Planned:
    """One output file and the pages that go into it."""

    path: Path
    pages: list[Page]
    title: str
    lang: str
    png: bool = False
    fonts: Any = None
    """The kit's resolved style.fonts (generator.spec.fonts.KitFonts), None for the built-in font."""
    greyscale: bool = False
    """The kit's print.greyscale: every colour drawn as its grey."""


def file_tag(kit: Kit, paper: str) -> str:
    """The suffix of a kit's file names: its paper size, or "shop" in print-shop mode, whose pages are one
    card plus bleed each and have no paper size."""
    return "shop" if kit.print.mode == "shop" else paper


def kit_measure(kit: Kit, measure: Callable[[str, str, float], float]) -> Callable[[str, str, float], float]:
    """The measure a kit's texts are fitted with: `measure` for the built-in font, else its fonts' chains."""
    if kit.fonts is None:
        return measure
    from generator.render.fonts import kit_measure as fonts_measure

    return fonts_measure(kit.fonts)


def compose_one(
    kit: Kit,
    lang: str,
    paper: str,
    seed: int,
    extras: dict[str, Any],
    measure: Callable[[str, str, float], float],
    warn: Callable[[str], None],
    texts: Texts | None = None,
) -> tuple[list[Component], Texts]:
    """All components of one kit in one language (with `texts` when the caller made them)."""
    from generator.contract.compose import compose_kit, template_context
    from generator.i18n.texts import Texts
    from generator.layout.compose import Context

    if texts is None:
        texts = Texts(lang, with_tool_catalogs(kit), template_context(kit, extras), warn=warn)
    ctx = Context(kit, lang, texts, measure, paper, seed, kit.print, extras)
    components = compose_kit(ctx)
    check_layout(kit, lang, components, measure, with_tool_catalogs(kit).get(lang))
    return components, texts


def plan_build(
    kits: Sequence[Kit],
    *,
    out: Path,
    langs: Sequence[str] | None,
    paper: str | None,
    seed: int | None,
    measure: Callable[[str, str, float], float],
    warn: Callable[[str], None],
    progress: Callable[[str], None] | None = None,
    workers: int = 1,
) -> list[Planned]:
    """Compose every file of every kit and language (nothing written yet; the folders on `workers`
    processes): the build's own planner
    (`plan_incremental`) with nothing kept, so `validate`, the tests and `build` choose the same languages,
    parts and calibration sheet and run the same checks. Each component is a file (with its PNG preview);
    each kit PDF holds every part's pages in the order of its sheet map (checklist, calibration sheet, then
    the components, each starting on the front of a sheet, blank backs where a page has no back)."""
    from generator.layout.ops import Page
    from generator.layout.sheets import ganged_page

    plans = plan_incremental(
        kits,
        out=out,
        langs=langs,
        paper=paper,
        seed=seed,
        png=True,
        pdfa=False,
        force=True,
        measure=measure,
        warn=warn,
        progress=progress,
        workers=workers,
    )
    planned: list[Planned] = []
    for plan in plans:
        for part in plan.parts:
            assert part.pages is not None  # force: every part is composed
            if part.cid != CHECKLIST:
                planned.append(
                    Planned(
                        part.path,
                        part.pages,
                        part.title,
                        plan.lang,
                        png=part.png,
                        fonts=plan.kit.fonts,
                        greyscale=plan.kit.print.greyscale,
                    )
                )
        everything: list[Page] = []
        by_id = {p.cid: p.pages or [] for p in plan.parts}
        for side in plan.sheet_map():
            if side.page is None:
                everything.append(Page(everything[-1].width, everything[-1].height, []))
                continue
            host = by_id[side.component][side.page]
            guests = [(by_id[g.component][g.page], g) for g in side.guests]
            everything.append(ganged_page(host, guests) if guests else host)
        planned.append(
            Planned(
                plan.folder / plan.kit_name,
                everything,
                plan.kit_title,
                plan.lang,
                fonts=plan.kit.fonts,
                greyscale=plan.kit.print.greyscale,
            )
        )
    return planned


def _locate(e: LayoutError, texts: Texts, kit: Kit, lang: str) -> KitError:
    """A LayoutError as a located error (a LocatedLayoutError as it is): at the .po line of the catalog string
    it quotes, else at the kit.yaml line of the component whose size it names, else at the kit.yaml itself."""
    from generator.layout.text import UnprintableTextError
    from generator.units import to_mm

    if isinstance(e, LocatedLayoutError):
        return e
    message = str(e)
    if isinstance(e, UnprintableTextError):
        origin = texts.origins.get(e.text) or texts.locate(repr(e.text))
        if origin is not None:
            path, line, tid = origin
            return SpecError([Problem(path, line, tid, f"{e.problem} ({lang}); got {e.text[:80]!r}")])
    where = texts.locate(message)
    if where is not None:
        path, line, tid = where
        return SpecError([Problem(path, line, tid, f"does not fit ({lang}): {message}")])
    for cid, comp in kit.components.items():
        size = comp.trim_size()
        if size and f"{to_mm(size[0]):.1f} x {to_mm(size[1]):.1f} mm" in message:
            return SpecError([kit.problem(f"components.{cid}.size", message)])
    return SpecError([Problem(kit.display, None, "", f"cannot be laid out ({lang}): {message}")])


def verify_layout(
    kits: Sequence[Kit],
    *,
    langs: Sequence[str] | None = None,
    paper: str | None = None,
    seed: int | None = None,
    workers: int = 1,
) -> list[str]:
    """What `validate` adds to the static checks: compose every component in every language (texts rendered,
    fitted to their boxes; the folders on `workers` processes) and check every character has a glyph -- a
    build without writing. Returns the warnings; raises a located KitError on the first kit that cannot be
    laid out."""
    from generator.render.fonts import text_width

    warnings: list[str] = []
    planned = plan_build(
        kits,
        out=Path("."),
        langs=langs,
        paper=paper,
        seed=seed,
        measure=text_width,
        warn=warnings.append,
        workers=workers,
    )
    raise_glyph_problems(kits, planned)
    return warnings


MAX_PSEUDO_ROUNDS = 40
"""How many overflowing boxes `pseudo_overflows` names per kit before it stops looking."""


def pseudo_overflows(
    kit: Kit, *, paper: str | None = None, seed: int | None = None
) -> tuple[list[Problem], list[str]]:
    """Every box of `kit` whose string would overflow in the pseudo-locale (40 % longer than English), each
    located at its English catalog line, and the layout warnings. Composing stops at the first overflow, so
    the string found is put back in English and the kit composed again until it fits; a layout error that
    names no catalog string is raised as it is."""
    from dataclasses import replace

    from generator.i18n.pseudo import pseudo_catalog
    from generator.spec.catalogs import PSEUDO

    english = with_tool_catalogs(kit)["en"]
    keep: set[str] = set()
    found: list[Problem] = []
    for _ in range(MAX_PSEUDO_ROUNDS):
        trial = replace(kit, catalogs={**kit.catalogs, PSEUDO: pseudo_catalog(english, frozenset(keep))})
        try:
            return found, verify_layout([trial], langs=[PSEUDO], paper=paper, seed=seed)
        except (SpecError, LocatedLayoutError) as e:
            problems = e.problems if isinstance(e, SpecError) else _located_lines(str(e))
            fresh = [p for p in problems if p.key in english.messages and p.key not in keep]
            if not fresh:  # a text drawn with no id: find the catalog string it quotes
                pseudo = pseudo_catalog(english, frozenset(keep)).messages
                for p in problems or [Problem(kit.display, None, "", str(e))]:
                    quoting = [
                        tid
                        for tid, text in pseudo.items()
                        if tid not in keep
                        and len(text) >= 6
                        and (text in p.message or text[:12] in p.message)
                    ]
                    for tid in sorted(quoting, key=lambda t: -len(pseudo[t]))[:1]:
                        said = p.message if p.message.startswith(p.file) else f"{p.file}: {p.message}"
                        fresh.append(Problem(english.path, english.lines.get(tid), tid, said))
            if not fresh:
                raise
            found += fresh
            keep.update(p.key for p in fresh)
    return found, []


def _located_lines(message: str) -> list[Problem]:
    """The lines of a LocatedLayoutError (`FILE:LINE: KEY: message`) as problems."""
    import re

    out = []
    for line in message.splitlines():
        m = re.match(r"^(.+?):(\d+): ([^\s:]+): (.*)$", line)
        if m:
            out.append(Problem(m.group(1), int(m.group(2)), m.group(3), m.group(4)))
    return out


@dataclass
class Part:
    """One component (or the calibration sheet) of one kit x language x paper: its file, its content key and,
    when it must be drawn again, its pages (None = unchanged since the last build, its file is kept)."""

    cid: str
    name: str
    path: Path
    spec: str
    lang: str
    png: bool
    pages: list[Page] | None = None
    title: str = ""
    record: dict[str, Any] = field(default_factory=dict)

    def sides(self) -> list[PageSides]:
        """What each page of the part is (front, back, one-sided): from the record once it tells them (a kept
        part's, or a composed part's once titled, wherever it was composed: its pages need not be measured
        again here), else from its pages."""
        from generator.layout.sheets import page_sides, sides_from_json

        if self.pages is not None and "sides" not in self.record:
            return page_sides(self.pages)
        sides = sides_from_json(self.record.get("sides"))
        if sides is None:  # a kept part always has them (plan_incremental composes any part without)
            raise KitError(f"{self.path}: the build record lacks its page sides")
        return sides


@dataclass
class FolderPlan:
    """One OUT/<kit>/<lang>/ folder of an incremental build: its parts, its kit PDF and the last build's
    record."""

    kit: Kit
    lang: str
    paper: str
    seed: int
    folder: Path
    parts: list[Part]
    entries: dict[str, Any]
    kit_name: str
    kit_key: str
    kit_rebuild: bool
    kit_title: str = ""

    @property
    def page_count(self) -> int:
        """Pages of the kit PDF (every part's pages)."""
        return sum(len(p.pages) if p.pages is not None else int(p.record.get("pages", 0)) for p in self.parts)

    def sheet_map(self) -> list[SheetSide]:
        """The sides of every sheet of the kit PDF (generator.layout.sheets)."""
        from generator.layout.sheets import sheet_map

        return sheet_map([(p.cid, p.sides()) for p in self.parts], **sheet_options(self.kit))

    def checklist_summary(self) -> list[str]:
        """The print checklist's opening lines (what to print, how, how many sheets); [] without a
        checklist."""
        for p in self.parts:
            if p.cid == CHECKLIST:
                return [str(line) for line in p.record.get("summary", [])]
        return []

    def page_order(self) -> list[tuple[int, int] | None]:
        """The kit PDF's pages: (part index, page index) of each, None for a blank back."""
        index = {p.cid: k for k, p in enumerate(self.parts)}
        return [None if s.page is None else (index[s.component], s.page) for s in self.sheet_map()]

    def overlays(self) -> dict[int, list[tuple[int, int, float, tuple[float, float, float, float]]]]:
        """Pages of the kit PDF that carry other parts' pages (gang-up): kit page -> (part index, page index,
        vertical shift, clip box in that page's coordinates) of each guest."""
        index = {p.cid: k for k, p in enumerate(self.parts)}
        return {
            n: [(index[g.component], g.page, g.dy, g.clip) for g in s.guests]
            for n, s in enumerate(self.sheet_map())
            if s.guests
        }

    @property
    def needs_write(self) -> bool:
        """Whether anything in the folder changes."""
        return self.kit_rebuild or any(p.pages is not None for p in self.parts)


def _sides_ok(entry: dict[str, Any]) -> bool:
    """Whether a kept part's record tells its page sides and finishing steps (one side per page, well
    formed)."""
    from generator.layout.sheets import sides_from_json

    sides = sides_from_json(entry.get("sides"))
    finish = entry.get("finish")
    return (
        sides is not None
        and len(sides) == entry.get("pages")
        and isinstance(finish, list)
        and all(isinstance(f, str) and f in ("cut", "trim", "glue", "fold", "foldglue") for f in finish)
    )


def plan_incremental(
    kits: Sequence[Kit],
    *,
    out: Path,
    langs: Sequence[str] | None,
    paper: str | None,
    seed: int | None,
    png: bool,
    pdfa: bool,
    force: bool,
    measure: Callable[[str, str, float], float],
    warn: Callable[[str], None],
    progress: Callable[[str], None] | None = None,
    memo: Memo | None = None,
    tool: str | None = None,
    workers: int = 1,
) -> list[FolderPlan]:
    """`plan_run` for loaded kits and the options of a build, given one by one."""
    run = Run.of(
        [k.dir for k in kits],
        out=out,
        langs=langs,
        paper=paper,
        seed=seed,
        png=png,
        pdfa=pdfa,
        force=force,
        workers=workers,
    )
    run = replace(run, kits=tuple(kits))
    return plan_run(run, measure=measure, warn=warn, progress=progress, memo=memo, tool=tool)


def plan_run(
    run: Run,
    *,
    measure: Callable[[str, str, float], float],
    warn: Callable[[str], None],
    progress: Callable[[str], None] | None = None,
    memo: Memo | None = None,
    tool: str | None = None,
) -> list[FolderPlan]:
    """Plan every OUT/<kit>/<lang>/ folder of a run: key every part, compose (and fit, and check) only the
    parts whose key changed, title them, key the kit PDF (`memo`: the build's, for the print data; `tool`: the
    build's tool key, else `tool_key()`). The folders to compose are composed on `run.workers` forked
    processes (generator.pipeline.workers) when there are several: the same plans, warnings and errors, in
    the same order."""
    from generator.buildkeys import read_manifest, tool_key
    from generator.pipeline.workers import run_jobs

    tool = tool or tool_key()
    folders: list[_Folder] = []
    for kit in run.kits:
        each = _KitPlan(kit, run, kit_measure(kit, measure), memo)
        for lang in run.langs_for(kit):
            folder = run.out / kit.meta.id / lang
            entries = {} if run.force else read_manifest(folder)
            parts = _key_parts(each, lang, folder, entries, tool)
            folders.append(_Folder(each, lang, folder, entries, parts))
    busy = [f for f in folders if f.need]
    workers = run.workers or 1
    if workers > 1 and len(busy) > 1:
        _before_fork(busy)

    def composed(i: int, result: _Composed) -> None:
        busy[i].take(result, warn)
        if progress:
            progress(f"{busy[i].each.kit.meta.id}/{busy[i].lang}")

    run_jobs([f.compose for f in busy], workers, composed)
    return [_plan_kit_pdf(f.each, f.lang, f.folder, f.entries, f.parts, tool, f.title, warn) for f in folders]


_Composed = tuple[list[tuple[Any, str, dict[str, Any]]], list[str], str]
"""What composing one folder gives back: each composed part's (pages, title, record), the warnings heard, in
order, and the kit's title in the folder's language."""


@dataclass
class _Folder:
    """One folder of a run while it is planned: its keyed parts and, once composed, its kit title."""

    each: _KitPlan
    lang: str
    folder: Path
    entries: dict[str, Any]
    parts: list[Part]
    title: str | None = None
    need: list[Part] = field(init=False)
    """The parts to compose (those the last build's record does not keep)."""

    def __post_init__(self) -> None:
        self.need = [p for p in self.parts if not p.record]

    def compose(self) -> _Composed:
        """Compose phase of this folder (here or in a worker): its parts' pages, titles and records, the
        warnings heard and the kit title."""
        need, heard = self.need, list[str]()
        texts = _compose_parts(self.each, self.lang, need, self.parts, heard.append)
        return [(p.pages, p.title, p.record) for p in need], heard, texts(self.each.kit.meta.title)

    def take(self, result: _Composed, warn: Callable[[str], None]) -> None:
        """Take a composed result (from a worker, or this process's own) into the parts, in order."""
        done, heard, self.title = result
        for part, (pages, title, record) in zip(self.need, done, strict=True):
            part.pages, part.title, part.record = pages, title, record
        for message in heard:
            warn(message)


def _before_fork(busy: Sequence[_Folder]) -> None:
    """What every worker would otherwise make for itself, made once here before they fork: each kit's print
    data (its memo entry stays in this process) and the built-in fonts."""
    from generator.render.fonts import register_fonts

    for f in busy:
        f.each.extras()
    register_fonts()


@dataclass
class _KitPlan:
    """What planning one kit's folders shares across its languages: the run's choices for it and the print
    data, asked of the game once, when a part is first composed."""

    kit: Kit
    run: Run
    measure: Callable[[str, str, float], float]
    memo: Memo | None
    extras_made: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        self.paper = self.run.paper_for(self.kit)
        self.seed = self.run.seed_for(self.kit)
        self.catalogs = with_tool_catalogs(self.kit)

    def extras(self) -> dict[str, Any]:
        """The kit's print data (generator.pipeline.compose.print_data) for this run's seed."""
        if self.extras_made is None:
            self.extras_made = print_data(self.kit, self.seed, self.memo)
        return self.extras_made

    def texts(self, lang: str, warn: Callable[[str], None]) -> Texts:
        """The kit's texts in `lang`, with pnpkit's own strings and the print data's template context."""
        from generator.contract.compose import template_context
        from generator.i18n.texts import Texts

        return Texts(lang, self.catalogs, template_context(self.kit, self.extras()), warn=warn)

    def part_ids(self) -> list[str]:
        """The parts of each folder: checklist and calibration sheet (home printing), then the components."""
        p = self.kit.print
        ids = [cid for cid, c in self.kit.components.items() if c.enabled]
        if p.calibration and p.mode == "home" and p.duplex in ("long", "short"):
            ids.insert(0, CALIBRATION)
        if p.mode == "home":
            ids.insert(0, CHECKLIST)
        return ids

    def file_name(self, cid: str) -> str:
        """The file of a part in its folder (the checklist's under .pnpkit/)."""
        from generator.buildkeys import CACHE_DIR

        if cid == CHECKLIST:
            return f"{CACHE_DIR}/{cid}-{self.paper}.pdf"
        if cid == CALIBRATION:
            return f"{cid}-{self.paper}.pdf"
        return f"{cid}-{file_tag(self.kit, self.paper)}.pdf"

    def spec_key(self, tool: str, part: str, lang: str, png: bool) -> str:
        """The content key of a part's spec (generator.buildkeys.spec_key) in this run."""
        from generator.buildkeys import spec_key

        return spec_key(
            self.kit,
            tool=tool,
            part=part,
            lang=lang,
            paper=self.paper,
            seed=self.seed,
            pdfa=self.run.pdfa,
            png=png,
        )


def _key_parts(each: _KitPlan, lang: str, folder: Path, entries: dict[str, Any], tool: str) -> list[Part]:
    """Key phase: every part of one folder with its content key; a part the last build drew from the same key
    (its file whole, its record complete) keeps that record, and is not composed again."""
    from generator.buildkeys import is_unchanged

    parts: list[Part] = []
    for cid in each.part_ids():
        name = each.file_name(cid)
        want_png = each.run.png and cid not in TOOL_PARTS
        spec = each.spec_key(tool, cid, lang, want_png)
        part = Part(cid, name, folder / name, spec, lang, want_png)
        old = entries.get(name)
        if (
            not each.run.force
            and is_unchanged(old, folder, name, spec, each.catalogs, lang, want_png)
            and _sides_ok(entries[name])
        ):
            part.record = dict(entries[name])
        parts.append(part)
    if any(not p.record for p in parts if p.cid != CHECKLIST):  # the checklist counts every part's sheets
        for p in parts:
            if p.cid == CHECKLIST:
                p.record = {}
    return parts


class _Heard:
    """The text ids a composer asked for and the warnings it raised, counted from one `take` to the next (a
    composer asks for its texts while it makes each component, between one yield and the next)."""

    def __init__(self, each: _KitPlan, lang: str, warn: Callable[[str], None]) -> None:
        self.warn = warn
        self.warnings: list[str] = []
        self.texts = each.texts(lang, self.hear)  # this language's warnings go to its parts' records
        self.restart()

    def hear(self, message: str) -> None:
        """A warning of this language: kept for the part's record and passed on to the build."""
        self.warnings.append(message)
        self.warn(message)

    def restart(self) -> None:
        """Count from now."""
        self.texts.used, self.mark = set(), len(self.warnings)

    def take(self, **record: Any) -> dict[str, Any]:
        """A part's record: the text ids used and the warnings heard since the last count, and `record`."""
        taken = {"used": sorted(self.texts.used), "warnings": self.warnings[self.mark :], **record}
        self.restart()
        return taken


def _compose_parts(
    each: _KitPlan, lang: str, need: list[Part], parts: list[Part], warn: Callable[[str], None]
) -> Texts:
    """Compose phase: the parts of one folder whose key changed (components, then the calibration sheet and
    the checklist, which counts every part's sheets), each checked before anything is written, then titled."""
    from generator.contract.compose import composer
    from generator.layout.checklist import finishing
    from generator.layout.compose import Context

    kit, paper, measure = each.kit, each.paper, each.measure
    heard = _Heard(each, lang, warn)
    texts = heard.texts
    ctx = Context(
        kit,
        lang,
        texts,
        measure,
        paper,
        each.seed,
        kit.print,
        each.extras(),
        only=frozenset(p.cid for p in need),
    )
    by_id = {p.cid: p for p in need}
    composed: list[Component] = []
    try:
        for comp in composer(kit.game_id).compose(ctx):
            checkpoint()  # a safe point between parts (kernels load inside composers)
            check_art(kit, comp, heard.hear)  # before anything is written
            composed.append(comp)
            part = by_id[comp.id]
            part.pages, part.title = comp.pages, comp.title
            part.record = heard.take(finish=list(finishing(comp.pages)))
        check_layout(kit, lang, composed, measure, each.catalogs.get(lang))
        if CALIBRATION in by_id:
            heard.restart()
            part = by_id[CALIBRATION]
            part.pages = calibration(kit, texts, paper, measure)
            part.record = heard.take(finish=[])
            part.title = texts("print.calibration.title")
        if CHECKLIST in by_id:
            heard.restart()
            part = by_id[CHECKLIST]
            part.pages, summary = checklist(kit, texts, paper, measure, parts)
            part.record = heard.take(summary=summary)
            part.title = texts("print.checklist.title")
    except LayoutError as e:
        raise _locate(e, texts, kit, lang) from None
    _title_parts(each, lang, need, texts)
    return texts


def _title_parts(each: _KitPlan, lang: str, need: list[Part], texts: Texts) -> None:
    """Title phase: each composed part's record completed (its key from the texts it used, pages, sides) and
    its title prefixed with the kit's."""
    from generator.buildkeys import part_key, texts_key
    from generator.layout.sheets import page_sides, sides_to_json

    kit = each.kit
    kit_title = texts(kit.meta.title)
    for p in need:
        if p.pages is None:
            raise KitError(f"{kit.display}: components.{p.cid}: the composer drew nothing for it")
        used = sorted(set(p.record["used"]) | {kit.meta.title})
        p.record.update(
            spec=p.spec,
            used=used,
            key=part_key(p.spec, texts_key(each.catalogs, lang, used)),
            pages=len(p.pages),
            sides=sides_to_json(page_sides(p.pages)),
            finish=p.record.get("finish", []),
        )
        if p.cid not in TOOL_PARTS:
            p.title = f"{kit_title} - {p.title}"


def _plan_kit_pdf(
    each: _KitPlan,
    lang: str,
    folder: Path,
    entries: dict[str, Any],
    parts: list[Part],
    tool: str,
    title: str | None,
    warn: Callable[[str], None],
) -> FolderPlan:
    """Kit PDF phase: the folder's plan, its kit PDF keyed on every part's key and the kit's title, rebuilt
    when that key or the file changed."""
    from generator.buildkeys import file_digest, part_key, texts_key

    kit = each.kit
    kit_name = f"kit-{file_tag(kit, each.paper)}.pdf"
    kit_key = part_key(
        each.spec_key(tool, "kit", lang, False),
        texts_key(each.catalogs, lang, [kit.meta.title]) + "".join(p.record["key"] for p in parts),
    )
    old = entries.get(kit_name) or {}
    rebuild = (
        each.run.force or old.get("key") != kit_key or file_digest(folder / kit_name) != old.get("sha256")
    )
    plan = FolderPlan(kit, lang, each.paper, each.seed, folder, parts, entries, kit_name, kit_key, rebuild)
    if rebuild:
        plan.kit_title = title if title is not None else each.texts(lang, warn)(kit.meta.title)
    return plan


__all__ = [
    "CALIBRATION",
    "CHECKLIST",
    "TOOL_PARTS",
    "FolderPlan",
    "Part",
    "Planned",
    "calibration",
    "checklist",
    "compose_one",
    "kit_measure",
    "plan_build",
    "plan_incremental",
    "plan_run",
    "print_data",
    "pseudo_overflows",
    "verify_layout",
]
