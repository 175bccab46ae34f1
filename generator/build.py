"""The build, in named phases: load -> check -> compose -> render. Everything is gathered and checked
before anything is written; files are written to a staging folder and moved into place at the end."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import generator.games.registry as registry
from generator.errors import KitError, LayoutError, LocatedLayoutError, Problem, RenderError, SpecError
from generator.resources import layouts_dir

if TYPE_CHECKING:  # imported where used: a rebuild whose inputs did not change loads none of them
    from generator.i18n.texts import Texts
    from generator.layout.compose import Component
    from generator.layout.ops import Page
    from generator.spec.catalogs import Catalog
    from generator.spec.kit import Kit

TOOL_CATALOGS = Path(__file__).resolve().parent / "i18n" / "locales"


def shipped_kits() -> list[Path]:
    """Every kit folder shipped in layouts/ (those holding a kit.yaml), sorted."""
    root = layouts_dir()
    return sorted(p for p in root.iterdir() if (p / "kit.yaml").is_file()) if root.is_dir() else []


# ------------------------------------------------------------------ load

def load_kits(paths: Sequence[Path]) -> list[Kit]:
    """Load every kit; problems of all kits are reported together."""
    from generator.spec.kit import load_kit

    kits: list[Kit] = []
    problems: list[Problem] = []
    for p in paths:
        try:
            kits.append(load_kit(p))
        except SpecError as e:
            problems.extend(e.problems)
    if problems:
        raise SpecError(problems)
    return kits


@lru_cache(maxsize=16)
def _tool_catalog(lang: str, stamp: tuple[int, int]) -> Catalog:
    """pnpkit's own catalog of a language, read once per version of the file (`stamp`: size, mtime)."""
    from generator.spec.catalogs import read_catalog

    return read_catalog(TOOL_CATALOGS / f"{lang}.po", f"pnpkit:{lang}.po", lang)


def with_tool_catalogs(kit: Kit) -> dict[str, Catalog]:
    """The kit's catalogs with pnpkit's own strings (calibration page) added where the kit lacks them."""
    from generator.spec.catalogs import Catalog

    out = {}
    for lang, cat in kit.catalogs.items():
        try:
            st = (TOOL_CATALOGS / f"{lang}.po").stat()
            stamp = (st.st_size, st.st_mtime_ns)
        except OSError:
            stamp = (-1, -1)  # read_catalog reports the missing file (en is required)
        # pnpkit ships its own strings in a few languages; in any other the kit's catalog may give them, else
        # they fall back to English as every other string does
        merged = dict(_tool_catalog(lang, stamp).messages) if stamp != (-1, -1) or lang == "en" else {}
        merged.update(cat.messages)
        lines = dict(cat.lines)
        out[lang] = Catalog(lang, cat.path, merged, lines)
    return out


# ------------------------------------------------------------------ check

def check_kit(kit: Kit) -> list[Problem]:
    """Static legality: the game's own checks, known components, catalogs that parse as templates."""
    from generator.layout.compose import composer

    problems: list[Problem] = []
    for key, message in registry.get(kit.game_id).legal_problems()(kit.game):
        problems.append(kit.problem(f"game.{key}" if key else "game", message))
    drawer = composer(kit.game_id)
    known = drawer.component_ids_for(kit.game) if hasattr(drawer, "component_ids_for") else drawer.component_ids()
    en = kit.catalogs["en"].messages
    for cid, comp in kit.components.items():
        if cid not in known:
            problems.append(kit.problem(f"components.{cid}", f"expected one of {', '.join(known)}; got {cid!r}"))
        if comp.title not in en:
            problems.append(kit.problem(f"components.{cid}.title", f"text id {comp.title!r} is not in the English catalog"))
    if kit.meta.title not in en:
        problems.append(kit.problem("kit.title", f"text id {kit.meta.title!r} is not in the English catalog"))
    from generator.spec.colours import colour_problems

    problems += colour_problems(kit)
    from generator.i18n.sandbox import CatalogEnvironment, template_problem

    env = CatalogEnvironment()
    for cat in kit.catalogs.values():
        for tid, text in cat.messages.items():
            problem = template_problem(env, text)
            if problem:
                problems.append(Problem(cat.path, cat.lines.get(tid), tid, problem))
    return problems


def file_tag(kit: Kit, paper: str) -> str:
    """The suffix of a kit's file names: its paper size, or "shop" in print-shop mode, whose pages are one card
    plus bleed each and have no paper size."""
    return "shop" if kit.print.mode == "shop" else paper


def check_kits(kits: Sequence[Kit]) -> None:
    """Raise one SpecError with every static problem of every kit."""
    problems = [p for k in kits for p in check_kit(k)]
    if problems:
        raise SpecError(problems)


def translation_warnings(kit: Kit) -> list[str]:
    """One line per language whose catalog lacks English ids (they fall back to English)."""
    from generator.i18n.texts import missing_ids

    return [f"{kit.catalogs[lang].path}: {len(ids)} text ids fall back to English: {', '.join(ids[:5])}{' ...' if len(ids) > 5 else ''}"
            for lang, ids in missing_ids(kit.catalogs).items() if ids]


# ------------------------------------------------------------------ compose

def print_data(kit: Kit, seed: int) -> dict[str, Any]:
    """Generated, language-independent data the printed pieces need (decks, memory cards, variants),
    asked of the game's rules package once per build; composers read it from Context.extras."""
    return dict(registry.get(kit.game_id).print_data()(kit.game, seed))


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


def kit_measure(kit: Kit, measure: Callable[[str, str, float], float]) -> Callable[[str, str, float], float]:
    """The measure a kit's texts are fitted with: `measure` for the built-in font, else its fonts' chains."""
    if kit.fonts is None:
        return measure
    from generator.render.fonts import kit_measure as fonts_measure

    return fonts_measure(kit.fonts)


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


def compose_one(kit: Kit, lang: str, paper: str, seed: int, extras: dict[str, Any], measure: Callable[[str, str, float], float],
                warn: Callable[[str], None], texts: Texts | None = None) -> tuple[list[Component], Texts]:
    """All components of one kit in one language (with `texts` when the caller made them)."""
    from generator.i18n.texts import Texts
    from generator.layout.compose import Context, compose_kit, template_context

    if texts is None:
        texts = Texts(lang, with_tool_catalogs(kit), template_context(kit, extras), warn=warn)
    ctx = Context(kit, lang, texts, measure, paper, seed, kit.print, extras)
    components = compose_kit(ctx)
    from generator.layout.collide import check_collisions
    from generator.layout.legibility import check_min_sizes
    from generator.layout.textfit import check_text_fit
    from generator.render.fonts import ink_extent

    check_text_fit(components, measure, kit.display, with_tool_catalogs(kit).get(lang), lang)  # before anything is written
    check_min_sizes(components, kit.style.min_size, kit.display, with_tool_catalogs(kit).get(lang), lang)
    check_collisions(components, measure, kit.display, with_tool_catalogs(kit).get(lang), lang, ink_extent,
                     kit.style.safe_margin)
    return components, texts


def calibration(kit: Kit, texts: Texts, paper: str, measure: Callable[[str, str, float], float]) -> list[Page]:
    """The duplex calibration sheet in the kit's language."""
    from generator.layout.imposition import calibration_pages
    from generator.layout.text import wrap
    from generator.units import paper_size

    width = paper_size(paper)[0] - 2 * kit.print.margin - 40
    flip = texts(f"print.flip.{'short' if kit.print.duplex == 'short' else 'long'}")
    lines: list[str] = []
    for i in (1, 2, 3):
        lines += wrap(texts(f"print.calibration.step{i}", flip=flip), "regular", 9, width, measure)
    return calibration_pages(kit.print, paper, title=texts("print.calibration.title"), instructions=lines)


def plan_build(kits: Sequence[Kit], *, out: Path, langs: Sequence[str] | None, paper: str | None, seed: int | None,
               measure: Callable[[str, str, float], float], warn: Callable[[str], None],
               progress: Callable[[str], None] | None = None) -> list[Planned]:
    """Compose every file of every kit and language (nothing written yet)."""
    from generator.i18n.texts import Texts
    from generator.layout.compose import template_context

    planned: list[Planned] = []
    base_measure = measure
    for kit in kits:
        measure = kit_measure(kit, base_measure)
        kit_paper = paper or kit.print.paper
        kit_seed = kit.meta.seed if seed is None else seed
        extras = print_data(kit, kit_seed)
        chosen = kit.chosen_languages(langs)
        for lang in chosen:
            if progress:
                progress(f"{kit.meta.id}/{lang}")
            texts = Texts(lang, with_tool_catalogs(kit), template_context(kit, extras), warn=warn)
            try:
                components, texts = compose_one(kit, lang, kit_paper, kit_seed, extras, measure, warn, texts=texts)
            except LayoutError as e:
                raise _locate(e, texts, kit, lang) from None
            folder = out / kit.meta.id / lang
            kit_title = texts(kit.meta.title)
            everything: list[Page] = []
            for comp in components:
                planned.append(Planned(folder / f"{comp.id}-{file_tag(kit, kit_paper)}.pdf", comp.pages, f"{kit_title} - {comp.title}", lang, png=True,
                                       fonts=kit.fonts))
                everything.extend(comp.pages)
            if kit.print.calibration and kit.print.mode == "home" and kit.print.duplex != "none":
                everything.extend(calibration(kit, texts, kit_paper, measure))
            planned.append(Planned(folder / f"kit-{file_tag(kit, kit_paper)}.pdf", everything, kit_title, lang, fonts=kit.fonts))
    return planned


def _locate(e: LayoutError, texts: Texts, kit: Kit, lang: str) -> KitError:
    """A LayoutError as a located error (a LocatedLayoutError as it is): at the .po line of the catalog string it quotes, else at the
    kit.yaml line of the component whose size it names, else at the kit.yaml itself."""
    from generator.units import to_mm

    if isinstance(e, LocatedLayoutError):
        return e
    message = str(e)
    where = texts.locate(message)
    if where is not None:
        path, line, tid = where
        return SpecError([Problem(path, line, tid, f"does not fit ({lang}): {message}")])
    for cid, comp in kit.components.items():
        size = comp.trim_size()
        if size and f"{to_mm(size[0]):.1f} x {to_mm(size[1]):.1f} mm" in message:
            return SpecError([kit.problem(f"components.{cid}.size", message)])
    return SpecError([Problem(kit.display, None, "", f"cannot be laid out ({lang}): {message}")])


def glyph_problems(kits: Sequence[Kit], planned: Sequence[Planned]) -> list[Problem]:
    """Every printed text whose characters the font lacks, located at its catalog line (by text id)."""
    from generator.layout.ops import iter_texts
    from generator.render.fonts import font_names, missing_glyphs

    catalogs = {(k.meta.id, lang): cat for k in kits for lang, cat in with_tool_catalogs(k).items()}
    fonts = {k.meta.id: k.fonts for k in kits}
    problems: dict[tuple[str, str], Problem] = {}
    for p in planned:
        kit_id = p.path.parent.parent.name
        for page in p.pages:
            for t in iter_texts(page.ops):
                missing = missing_glyphs(t.text, t.font, fonts.get(kit_id), t.size)
                if not missing:
                    continue
                codes = ", ".join(f"U+{ord(c):04X} {c!r}" for c in sorted(set(missing)))
                cat = catalogs.get((kit_id, p.lang))
                if cat is not None and t.text_id and t.text_id not in cat.messages:
                    cat = catalogs.get((kit_id, "en"))
                if cat is not None and t.text_id in cat.messages:
                    key = (cat.path, t.text_id)
                    problems.setdefault(key, Problem(cat.path, cat.lines.get(t.text_id), t.text_id,
                                                     f"characters missing from the font ({font_names(fonts.get(kit_id), t.text, t.font, t.size)}, "
                                                     f"{t.font}, language {p.lang}): {codes}"))
                else:
                    shown = repr(t.text[:40])
                    problems.setdefault((str(p.path), t.text), Problem(str(p.path.relative_to(p.path.parents[2])), None,
                                                                      t.text_id or "", f"text {shown}: characters missing from the font: {codes}"))
    return list(problems.values())


def verify_layout(kits: Sequence[Kit], *, langs: Sequence[str] | None = None, paper: str | None = None,
                  seed: int | None = None) -> list[str]:
    """What `validate` adds to the static checks: compose every component in every language (texts rendered,
    fitted to their boxes) and check every character has a glyph -- a build without writing. Returns the
    warnings; raises a located KitError on the first kit that cannot be laid out."""
    from generator.render.fonts import text_width

    warnings: list[str] = []
    planned = plan_build(kits, out=Path("."), langs=langs, paper=paper, seed=seed, measure=text_width,
                         warn=warnings.append)
    _raise_glyph_problems(kits, planned)
    return warnings


def _raise_glyph_problems(kits: Sequence[Kit], planned: Sequence[Planned]) -> None:
    """A RenderError (as before: missing glyphs are a rendering failure) listing every located glyph problem."""
    problems = glyph_problems(kits, planned)
    if problems:
        raise RenderError(str(SpecError(problems)))


# ------------------------------------------------------------------ render

STAGE_PREFIX = ".pnpkit-stage-"


def check_out(out: Path) -> None:
    """Refuse an output folder that is a file, lies below a file, or cannot be written (before any work)."""
    if os.path.lexists(out) and not out.is_dir():
        raise RenderError(f"--out {out}: this is a file (or a broken link), not a folder")
    anchor = out
    while not os.path.lexists(anchor) and anchor != anchor.parent:
        anchor = anchor.parent
    if not anchor.is_dir():
        raise RenderError(f"--out {out}: {anchor} is a file, so no folder can be made below it")
    if not os.access(anchor, os.W_OK | os.X_OK):
        raise RenderError(f"--out {out}: {anchor} is not writable")


def _check_targets(planned: Sequence[Planned], out: Path) -> list[Path]:
    """The kit/language folders the build replaces; refuses anything in the way before a byte is written."""
    folders = sorted({p.path.parent for p in planned})
    for folder in folders:
        rel = folder.relative_to(out)
        for i in range(1, len(rel.parts) + 1):
            step = out.joinpath(*rel.parts[:i])
            if os.path.lexists(step) and not step.is_dir():
                raise RenderError(f"{step}: a file is in the way of the output folder {folder}; nothing was written")
    for p in planned:
        for final in (p.path, p.path.with_suffix(".png")):
            if os.path.lexists(final) and not final.is_file():
                raise RenderError(f"{final}: a folder (or other non-file) is in the way of an output file; "
                                  "nothing was written")
    return folders


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT/SIGTERM while output folders are swapped (or rolled back): the swap is never cut half-way;
    a signal that arrives meanwhile is delivered right after."""
    can = threading.current_thread() is threading.main_thread() and hasattr(signal, "pthread_sigmask")
    held = {signal.SIGINT, signal.SIGTERM}
    if can:
        signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        if can:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, held)


def _swap(folders: Sequence[Path], out: Path, new_root: Path, old_root: Path) -> None:
    """Rename every staged kit/language folder into place, keeping the old ones in the stage; on any failure
    every folder already swapped is put back, so OUT holds all new folders or all old ones."""
    done: list[tuple[Path, bool, list[Path]]] = []
    try:
        for folder in folders:
            rel = folder.relative_to(out)
            made = [d for d in reversed(folder.parents) if d != out and out in d.parents and not os.path.lexists(d)]
            backed = os.path.lexists(folder)
            if backed:
                (old_root / rel).parent.mkdir(parents=True, exist_ok=True)
                os.rename(folder, old_root / rel)
            try:
                folder.parent.mkdir(parents=True, exist_ok=True)
                os.rename(new_root / rel, folder)
            except OSError:
                if backed:
                    os.rename(old_root / rel, folder)
                raise
            done.append((folder, backed, made))
    except OSError as e:
        for folder, backed, made in reversed(done):
            rel = folder.relative_to(out)
            os.rename(folder, new_root / rel)
            if backed:
                os.rename(old_root / rel, folder)
            for d in reversed(made):
                try:
                    d.rmdir()
                except OSError:
                    pass
        raise RenderError(f"{out}: cannot move the new files into place ({e.strerror or e}); "
                          "every folder was put back as it was") from e


def _remove_stale_stages(out: Path) -> None:
    """Staging folders left by a killed build (its process is gone) are removed."""
    for stage in out.glob(f"{STAGE_PREFIX}*"):
        pid = stage.name[len(STAGE_PREFIX):].split("-")[0]
        if pid.isdigit() and int(pid) != os.getpid():
            try:
                os.kill(int(pid), 0)
                continue  # still running (another build)
            except ProcessLookupError:
                pass
            except OSError:
                continue
            shutil.rmtree(stage, ignore_errors=True)


@contextmanager
def staged_folders(out: Path, folders: Sequence[Path], *, keep_existing: bool = True) -> Iterator[Path]:
    """All-or-nothing output of whole folders below `out`: yields a staging root (inside
    `OUT/.pnpkit-stage-<pid>-*`, same filesystem) that mirrors `out`; write each folder's new content below it.
    With `keep_existing`, files already in a folder are hard-linked in first (other papers' files survive);
    without, a folder is replaced whole. When the block ends normally the staged folders are swapped in with
    signals held (rolled back if a rename fails); on any error or interrupt OUT is untouched. The stage is
    always removed. Used by build, incremental build and export."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        _remove_stale_stages(out)
        stage = Path(tempfile.mkdtemp(prefix=f"{STAGE_PREFIX}{os.getpid()}-", dir=out))
    except OSError as e:
        raise RenderError(f"--out {out}: cannot create the output folder ({e.strerror or e})") from None
    new_root, old_root = stage / "new", stage / "old"
    try:
        for folder in folders:
            rel = folder.relative_to(out)
            if keep_existing and folder.is_dir():
                shutil.copytree(folder, new_root / rel, symlinks=True, copy_function=_link_or_copy)
            else:
                (new_root / rel).mkdir(parents=True, exist_ok=True)
        yield new_root
        with signals_deferred():
            _swap(folders, out, new_root, old_root)
    except OSError as e:
        raise RenderError(f"{out}: cannot write the output ({e.strerror or e}); nothing was changed") from None
    finally:
        with signals_deferred():
            shutil.rmtree(stage, ignore_errors=True)


def render_all(planned: Sequence[Planned], out: Path, *, png: bool = False,
               progress: Callable[[str], None] | None = None, pdfa: bool = False) -> list[Path]:
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
    folders = _check_targets(planned, out)
    written: list[Path] = []
    with staged_folders(out, folders) as new_root:
        for p in planned:
            rel = p.path.relative_to(out)
            tmp = new_root / rel
            write_pdf(p.pages, tmp, title=p.title, lang=p.lang, pdfa=pdfa, fonts=p.fonts)
            written.append(p.path)
            if png and p.png:
                write_png(tmp, tmp.with_suffix(".png"), page=0, dpi=110)
                written.append(p.path.with_suffix(".png"))
            if progress:
                progress(str(rel))
    return written


# ------------------------------------------------------------------ incremental build

CALIBRATION = "calibration"
"""The part id of the duplex calibration sheet: kept as a PDF in the folder's .pnpkit/ (beside the build
record) so the kit PDF can be reassembled without drawing it again."""


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


@dataclass
class FolderPlan:
    """One OUT/<kit>/<lang>/ folder of an incremental build: its parts, its kit PDF and the last build's record."""

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

    @property
    def needs_write(self) -> bool:
        """Whether anything in the folder changes."""
        return self.kit_rebuild or any(p.pages is not None for p in self.parts)


def plan_incremental(kits: Sequence[Kit], *, out: Path, langs: Sequence[str] | None, paper: str | None,
                     seed: int | None, png: bool, pdfa: bool, force: bool, measure: Callable[[str, str, float], float],
                     warn: Callable[[str], None], progress: Callable[[str], None] | None = None) -> list[FolderPlan]:
    """Key every part of every kit and language; compose (and fit, and check) only the parts whose key changed."""
    from generator.buildkeys import (
        CACHE_DIR,
        file_digest,
        is_unchanged,
        part_key,
        read_manifest,
        spec_key,
        texts_key,
        tool_key,
    )
    from generator.i18n.texts import Texts
    from generator.layout.collide import check_collisions
    from generator.layout.compose import Context, composer, template_context
    from generator.layout.legibility import check_min_sizes
    from generator.layout.textfit import check_text_fit
    from generator.render.fonts import ink_extent

    tool = tool_key()
    plans: list[FolderPlan] = []
    base_measure = measure
    for kit in kits:
        measure = kit_measure(kit, base_measure)
        kit_paper = paper or kit.print.paper
        kit_seed = kit.meta.seed if seed is None else seed
        chosen = kit.chosen_languages(langs)
        catalogs = with_tool_catalogs(kit)
        extras: dict[str, Any] | None = None
        for lang in chosen:
            if progress:
                progress(f"{kit.meta.id}/{lang}")
            folder = out / kit.meta.id / lang
            entries = {} if force else read_manifest(folder)
            ids = [cid for cid, c in kit.components.items() if c.enabled]
            if kit.print.calibration and kit.print.mode == "home" and kit.print.duplex != "none":
                ids.append(CALIBRATION)
            parts: list[Part] = []
            for cid in ids:
                name = f"{cid}-{file_tag(kit, kit_paper)}.pdf" if cid != CALIBRATION else f"{CACHE_DIR}/{cid}-{kit_paper}.pdf"
                want_png = png and cid != CALIBRATION
                spec = spec_key(kit, tool=tool, part=cid, lang=lang, paper=kit_paper, seed=kit_seed, pdfa=pdfa, png=want_png)
                part = Part(cid, name, folder / name, spec, lang, want_png)
                if not force and is_unchanged(entries.get(name), folder, name, spec, catalogs, lang, want_png):
                    part.record = dict(entries[name])
                parts.append(part)
            need = [p for p in parts if not p.record]
            texts: Texts | None = None
            if need:
                extras = print_data(kit, kit_seed) if extras is None else extras
                heard: list[str] = []

                def hear(message: str, heard: list[str] = heard) -> None:  # this language's list
                    heard.append(message)
                    warn(message)

                texts = Texts(lang, catalogs, template_context(kit, extras), warn=hear)
                ctx = Context(kit, lang, texts, measure, kit_paper, kit_seed, kit.print, extras,
                              only=frozenset(p.cid for p in need))
                by_id = {p.cid: p for p in need}
                composed: list[Component] = []
                try:
                    stream = iter(composer(kit.game_id).compose(ctx))
                    while True:
                        texts.used, mark = set(), len(heard)
                        try:
                            comp = next(stream)
                        except StopIteration:
                            break
                        check_art(kit, comp, hear)  # before anything is written
                        composed.append(comp)
                        by_id[comp.id].pages = comp.pages
                        by_id[comp.id].record = {"used": sorted(texts.used), "warnings": heard[mark:]}
                        by_id[comp.id].title = comp.title
                    check_text_fit(composed, measure, kit.display, catalogs.get(lang), lang)  # before anything is written
                    check_min_sizes(composed, kit.style.min_size, kit.display, catalogs.get(lang), lang)
                    check_collisions(composed, measure, kit.display, catalogs.get(lang), lang, ink_extent,
                                     kit.style.safe_margin)
                    if CALIBRATION in by_id:
                        texts.used, mark = set(), len(heard)
                        by_id[CALIBRATION].pages = calibration(kit, texts, kit_paper, measure)
                        by_id[CALIBRATION].record = {"used": sorted(texts.used), "warnings": heard[mark:]}
                        by_id[CALIBRATION].title = texts("print.calibration.title")
                except LayoutError as e:
                    raise _locate(e, texts, kit, lang) from None
                kit_title = texts(kit.meta.title)
                for p in need:
                    if p.pages is None:
                        raise KitError(f"{kit.display}: components.{p.cid}: the composer drew nothing for it")
                    used = sorted(set(p.record["used"]) | {kit.meta.title})
                    p.record.update(spec=p.spec, used=used, key=part_key(p.spec, texts_key(catalogs, lang, used)),
                                    pages=len(p.pages))
                    if p.cid != CALIBRATION:
                        p.title = f"{kit_title} - {p.title}"
            kit_name = f"kit-{file_tag(kit, kit_paper)}.pdf"
            kit_key = part_key(spec_key(kit, tool=tool, part="kit", lang=lang, paper=kit_paper, seed=kit_seed, pdfa=pdfa, png=False),
                               texts_key(catalogs, lang, [kit.meta.title]) + "".join(p.record["key"] for p in parts))
            old = entries.get(kit_name) or {}
            rebuild = force or old.get("key") != kit_key or file_digest(folder / kit_name) != old.get("sha256")
            plan = FolderPlan(kit, lang, kit_paper, kit_seed, folder, parts, entries, kit_name, kit_key, rebuild)
            if rebuild:
                if texts is None:
                    extras = print_data(kit, kit_seed) if extras is None else extras
                    texts = Texts(lang, catalogs, template_context(kit, extras), warn=warn)
                plan.kit_title = texts(kit.meta.title)
            plans.append(plan)
    return plans


def check_art(kit: Kit, comp: Component, warn: Callable[[str], None]) -> None:
    """The print checks on a component's art (resolution, bleed coverage): warnings heard, errors raised."""
    if kit.art is None:
        return
    from generator.layout.art import art_problems

    errors = []
    for slot, message, is_error in art_problems(comp.pages, kit.print.art_dpi_warn, kit.print.art_dpi_min):
        problem = kit.problem(f"components.{comp.id}.art.{slot}", message)
        if is_error:
            errors.append(problem)
        else:
            warn(str(problem))
    if errors:
        raise SpecError(errors)


def render_incremental(plans: Sequence[FolderPlan], out: Path, *, png: bool = False, pdfa: bool = False,
                       progress: Callable[..., None] | None = None) -> list[Path]:
    """Write the changed parts and reassemble each changed folder's kit PDF from its part PDFs, all or nothing:
    only changed folders are staged (whole, unchanged files hard-linked in) and swapped in as `render_all` does."""
    from generator.buildkeys import MANIFEST, dump_manifest, file_digest
    from generator.render.fonts import check_glyphs
    from generator.render.merge import merge_pdfs
    from generator.render.pdf import write_pdf
    from generator.render.png import write_png
    from generator.resources import atomic_write

    todo = [plan for plan in plans if plan.needs_write]
    for plan in todo:
        for part in plan.parts:
            if part.pages is not None:
                try:
                    check_glyphs(part.pages, plan.kit.fonts)
                except RenderError as e:
                    raise RenderError(f"{part.path.relative_to(out)} (language {part.lang}): {e}") from None
    check_out(out)
    if not todo:
        return []
    if progress:
        progress("drawing", total=sum(part.pages is not None for plan in todo for part in plan.parts))
    planned = [Planned(p.path, [], "", p.lang, png=p.png) for plan in todo for p in plan.parts]
    planned += [Planned(plan.folder / plan.kit_name, [], "", plan.lang) for plan in todo]
    _check_targets(planned, out)
    folders = sorted({plan.folder for plan in todo})  # whole kit/language folders (with their .pnpkit/)
    written: list[Path] = []
    with staged_folders(out, folders) as new_root:
        for plan in todo:
            staged = new_root / plan.folder.relative_to(out)
            entries = dict(plan.entries)
            for part in plan.parts:
                tmp = staged / part.name
                if part.pages is not None:
                    tmp.parent.mkdir(exist_ok=True)
                    write_pdf(part.pages, tmp, title=part.title, lang=part.lang, pdfa=pdfa, fonts=plan.kit.fonts,
                              greyscale=plan.kit.print.greyscale)
                    part.record["sha256"] = file_digest(tmp)
                    if part.cid != CALIBRATION:
                        written.append(part.path)
                    if part.png:
                        write_png(tmp, tmp.with_suffix(".png"), page=0, dpi=110)
                        part.record["png_sha256"] = file_digest(tmp.with_suffix(".png"))
                        written.append(part.path.with_suffix(".png"))
                    if progress:
                        progress(str(part.path.relative_to(out)))
                entries[part.name] = part.record
            kit_pdf = staged / plan.kit_name
            if plan.kit_rebuild:
                merge_pdfs([staged / p.name for p in plan.parts], kit_pdf, title=plan.kit_title, lang=plan.lang, pdfa=pdfa)
                written.append(plan.folder / plan.kit_name)
                entries[plan.kit_name] = {"key": plan.kit_key, "sha256": file_digest(kit_pdf), "pages": plan.page_count}
            (staged / MANIFEST).parent.mkdir(exist_ok=True)
            atomic_write(staged / MANIFEST, dump_manifest(entries), what="the build record")
    return written


def with_print(kit: Kit, overrides: Mapping[str, Any]) -> Kit:
    """The kit with some print settings replaced (CLI options such as --mode shop or --duplex short)."""
    if not overrides:
        return kit
    return replace(kit, print=kit.print.model_copy(update=dict(overrides)))


def build(paths: Sequence[Path], *, out: Path, langs: Sequence[str] | None = None, paper: str | None = None,
          seed: int | None = None, png: bool = False, progress: Callable[[str], None] | None = None,
          print_overrides: Mapping[str, Any] | None = None, pdfa: bool = False, force: bool = False) -> BuildResult:
    """Load, check, compose and render kits; raises KitError before writing anything if any phase fails.

    Incremental: a component whose content key (generator.buildkeys) is unchanged since the last build into
    OUT is neither composed nor drawn again (`force` rebuilds all); each kit-<paper>.pdf is assembled from
    the component PDFs, so the result is byte-identical to a clean build. Before that, the whole build is keyed
    on the bytes of the files a load reads (and the generator, fonts and options): when they and OUT's files
    are those of the last build of the same kits and options, nothing is loaded, composed or written."""
    from generator.buildkeys import inputs_key, read_inputs_record, tool_key, unchanged_inputs

    t0 = time.perf_counter()
    options = {"langs": list(langs) if langs else None, "paper": paper, "seed": seed, "png": png, "pdfa": pdfa,
               "print": dict(sorted((print_overrides or {}).items()))}
    keyed = inputs_key(paths, options, tool_key())
    if keyed is not None and not force:
        record = read_inputs_record(out, keyed[0])
        if unchanged_inputs(out, record, keyed[1]):
            check_out(out)
            return BuildResult(warnings=list(record.get("warnings", [])), pages=int(record.get("pages", 0)),
                               skipped=int(record.get("parts", 0)),
                               timings={"load": time.perf_counter() - t0, "check": 0.0, "compose": 0.0, "render": 0.0})
    result = _build(paths, out=out, langs=langs, paper=paper, seed=seed, png=png, progress=progress,
                    print_overrides=print_overrides, pdfa=pdfa, force=force)
    if keyed is not None and inputs_key(paths, options, tool_key()) == keyed:  # no input changed meanwhile
        _record_inputs(out, keyed, result)
    return result


def _record_inputs(out: Path, keyed: tuple[str, str], result: BuildResult) -> None:
    """Write OUT/.pnpkit/inputs/<name>.json for the next build's unchanged-inputs check (see build)."""
    from generator.buildkeys import INPUTS, dump_inputs_record, file_digest
    from generator.resources import atomic_write

    files = {p.relative_to(out).as_posix(): file_digest(p) for p in result.outputs}
    report = {"warnings": result.warnings, "pages": result.pages, "parts": result.rebuilt + result.skipped}
    (out / INPUTS).mkdir(parents=True, exist_ok=True)
    atomic_write(out / INPUTS / f"{keyed[0]}.json", dump_inputs_record(keyed[1], files, report), what="the build record")


def _build(paths: Sequence[Path], *, out: Path, langs: Sequence[str] | None, paper: str | None, seed: int | None,
           png: bool, progress: Callable[[str], None] | None, print_overrides: Mapping[str, Any] | None, pdfa: bool,
           force: bool) -> BuildResult:
    """The build of `build` after its unchanged-inputs check: every phase, incremental per part."""
    from generator.buildkeys import MANIFEST
    from generator.render.fonts import text_width

    result = BuildResult()
    t0 = time.perf_counter()
    kits = [with_print(k, print_overrides or {}) for k in load_kits(paths)]
    t1 = time.perf_counter()
    check_kits(kits)
    for kit in kits:
        result.warnings.extend(translation_warnings(kit))
    t2 = time.perf_counter()
    plans = plan_incremental(kits, out=out, langs=langs, paper=paper, seed=seed, png=png, pdfa=pdfa, force=force,
                             measure=text_width, warn=result.warnings.append, progress=progress)
    composed = [Planned(part.path, part.pages, part.title, part.lang, fonts=plan.kit.fonts) for plan in plans for part in plan.parts
                if part.pages is not None]
    _raise_glyph_problems(kits, composed)
    for plan in plans:
        for part in plan.parts:
            if part.pages is None:
                result.warnings.extend(part.record.get("warnings", []))
    result.warnings = list(dict.fromkeys(result.warnings))
    t3 = time.perf_counter()
    result.files = render_incremental(plans, out, png=png, pdfa=pdfa, progress=progress)
    t4 = time.perf_counter()
    result.pages = sum(plan.page_count for plan in plans)
    result.skipped = sum(1 for plan in plans for part in plan.parts if part.pages is None)
    result.rebuilt = sum(1 for plan in plans for part in plan.parts if part.pages is not None)
    result.outputs = [path for plan in plans
                      for path in [*(p for part in plan.parts
                                     for p in ([part.path, part.path.with_suffix(".png")] if part.png else [part.path])),
                                   plan.folder / plan.kit_name, plan.folder / MANIFEST]]
    result.timings = {"load": t1 - t0, "check": t2 - t1, "compose": t3 - t2, "render": t4 - t3}
    return result


__all__ = ["build", "check_kit", "check_kits", "load_kits", "shipped_kits"]
