"""The build, in named phases: load -> check -> compose -> render. Everything is gathered and checked
before anything is written; files are written to a staging folder and moved into place at the end."""

from __future__ import annotations

import importlib
import os
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from generator.errors import KitError, LayoutError, LocatedLayoutError, Problem, RenderError, SpecError
from generator.i18n.texts import Texts, missing_ids
from generator.layout.compose import COMPOSERS, Component, Context, compose_kit, composer, template_context
from generator.layout.imposition import calibration_pages
from generator.layout.ops import Page
from generator.layout.text import wrap
from generator.resources import layouts_dir
from generator.spec.catalogs import Catalog, read_catalog
from generator.spec.kit import Kit, load_kit

GAME_MODULES = {
    "ripple_rush": "generator.games.ripple_rush",
    "peak_dice": "generator.games.peak_dice",
    "raindrops": "generator.games.raindrops",
    "rummy_cards": "generator.games.rummy_cards",
}
TOOL_CATALOGS = Path(__file__).resolve().parent / "i18n" / "locales"


def shipped_kits() -> list[Path]:
    """Every kit folder shipped in layouts/ (those holding a kit.yaml), sorted."""
    root = layouts_dir()
    return sorted(p for p in root.iterdir() if (p / "kit.yaml").is_file()) if root.is_dir() else []


def game_module(game_id: str) -> Any:
    """The rules package of a game."""
    return importlib.import_module(GAME_MODULES[game_id])


# ------------------------------------------------------------------ load

def load_kits(paths: Sequence[Path]) -> list[Kit]:
    """Load every kit; problems of all kits are reported together."""
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


def with_tool_catalogs(kit: Kit) -> dict[str, Catalog]:
    """The kit's catalogs with pnpkit's own strings (calibration page) added where the kit lacks them."""
    out = {}
    for lang, cat in kit.catalogs.items():
        tool = read_catalog(TOOL_CATALOGS / f"{lang}.po", f"pnpkit:{lang}.po", lang)
        merged = dict(tool.messages)
        merged.update(cat.messages)
        lines = dict(cat.lines)
        out[lang] = Catalog(lang, cat.path, merged, lines)
    return out


# ------------------------------------------------------------------ check

def check_kit(kit: Kit) -> list[Problem]:
    """Static legality: the game's own checks, known components, catalogs that parse as templates."""
    problems: list[Problem] = []
    legal = getattr(game_module(kit.game_id), "legal_problems", None)
    if legal is None:
        raise KitError(f"{kit.display}: game.kind: {kit.game_id} has no legal checks yet; refusing to build it unchecked")
    for key, message in legal(kit.game):
        problems.append(kit.problem(f"game.{key}" if key else "game", message))
    known = composer(kit.game_id).component_ids()
    en = kit.catalogs["en"].messages
    for cid, comp in kit.components.items():
        if cid not in known:
            problems.append(kit.problem(f"components.{cid}", f"expected one of {', '.join(known)}; got {cid!r}"))
        if comp.title not in en:
            problems.append(kit.problem(f"components.{cid}.title", f"text id {comp.title!r} is not in the English catalog"))
    if kit.meta.title not in en:
        problems.append(kit.problem("kit.title", f"text id {kit.meta.title!r} is not in the English catalog"))
    from generator.i18n.sandbox import CatalogEnvironment, template_problem

    env = CatalogEnvironment()
    for cat in kit.catalogs.values():
        for tid, text in cat.messages.items():
            problem = template_problem(env, text)
            if problem:
                problems.append(Problem(cat.path, cat.lines.get(tid), tid, problem))
    return problems


def check_kits(kits: Sequence[Kit]) -> None:
    """Raise one SpecError with every static problem of every kit."""
    problems = [p for k in kits for p in check_kit(k)]
    if problems:
        raise SpecError(problems)


def translation_warnings(kit: Kit) -> list[str]:
    """One line per language whose catalog lacks English ids (they fall back to English)."""
    return [f"{kit.catalogs[lang].path}: {len(ids)} text ids fall back to English: {', '.join(ids[:5])}{' ...' if len(ids) > 5 else ''}"
            for lang, ids in missing_ids(kit.catalogs).items() if ids]


# ------------------------------------------------------------------ compose

def print_data(kit: Kit, seed: int) -> dict[str, Any]:
    """Generated, language-independent data the printed pieces need (decks, memory cards, variants),
    asked of the game's rules package once per build; composers read it from Context.extras."""
    fn = getattr(game_module(kit.game_id), "print_data", None)
    return dict(fn(kit.game, seed)) if fn is not None else {}


@dataclass
class Planned:
    """One output file and the pages that go into it."""

    path: Path
    pages: list[Page]
    title: str
    lang: str
    png: bool = False


@dataclass
class BuildResult:
    """What a build wrote and what it noticed."""

    files: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    pages: int = 0


def compose_one(kit: Kit, lang: str, paper: str, seed: int, extras: dict[str, Any], measure: Callable[[str, str, float], float],
                warn: Callable[[str], None], texts: Texts | None = None) -> tuple[list[Component], Texts]:
    """All components of one kit in one language (with `texts` when the caller made them)."""
    if texts is None:
        texts = Texts(lang, with_tool_catalogs(kit), template_context(kit, extras), warn=warn)
    ctx = Context(kit, lang, texts, measure, paper, seed, kit.print, extras)
    components = compose_kit(ctx)
    from generator.layout.textfit import check_text_fit

    check_text_fit(components, measure, kit.display, with_tool_catalogs(kit).get(lang), lang)  # before anything is written
    return components, texts


def calibration(kit: Kit, texts: Texts, paper: str, measure: Callable[[str, str, float], float]) -> list[Page]:
    """The duplex calibration sheet in the kit's language."""
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
    planned: list[Planned] = []
    for kit in kits:
        kit_paper = paper or kit.print.paper
        kit_seed = kit.meta.seed if seed is None else seed
        extras = print_data(kit, kit_seed)
        chosen = [l for l in (langs or kit.meta.languages)]
        for lang in chosen:
            if lang not in kit.meta.languages:
                raise KitError(f"{kit.display}: kit.languages: the kit ships {', '.join(kit.meta.languages)}; --lang asked for {lang!r}")
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
                planned.append(Planned(folder / f"{comp.id}-{kit_paper}.pdf", comp.pages, f"{kit_title} - {comp.title}", lang, png=True))
                everything.extend(comp.pages)
            if kit.print.calibration and kit.print.mode == "home" and kit.print.duplex != "none":
                everything.extend(calibration(kit, texts, kit_paper, measure))
            planned.append(Planned(folder / f"kit-{kit_paper}.pdf", everything, kit_title, lang))
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
    from generator.render.fonts import missing_glyphs

    catalogs = {(k.meta.id, lang): cat for k in kits for lang, cat in with_tool_catalogs(k).items()}
    problems: dict[tuple[str, str], Problem] = {}
    for p in planned:
        kit_id = p.path.parent.parent.name
        for page in p.pages:
            for t in iter_texts(page.ops):
                missing = missing_glyphs(t.text, t.font)
                if not missing:
                    continue
                codes = ", ".join(f"U+{ord(c):04X} {c!r}" for c in sorted(set(missing)))
                cat = catalogs.get((kit_id, p.lang))
                if cat is not None and t.text_id and t.text_id not in cat.messages:
                    cat = catalogs.get((kit_id, "en"))
                if cat is not None and t.text_id in cat.messages:
                    key = (cat.path, t.text_id)
                    problems.setdefault(key, Problem(cat.path, cat.lines.get(t.text_id), t.text_id,
                                                     f"characters missing from the font ({t.font}, language {p.lang}): {codes}"))
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
            check_glyphs(p.pages)
        except RenderError as e:
            raise RenderError(f"{p.path.relative_to(out)} (language {p.lang}): {e}") from None
    check_out(out)
    folders = _check_targets(planned, out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        _remove_stale_stages(out)
        stage = Path(tempfile.mkdtemp(prefix=f"{STAGE_PREFIX}{os.getpid()}-", dir=out))
    except OSError as e:
        raise RenderError(f"--out {out}: cannot create the output folder ({e.strerror or e})") from None
    new_root, old_root = stage / "new", stage / "old"
    written: list[Path] = []
    try:
        for folder in folders:
            rel = folder.relative_to(out)
            if folder.is_dir():
                shutil.copytree(folder, new_root / rel, symlinks=True, copy_function=_link_or_copy)
            else:
                (new_root / rel).mkdir(parents=True, exist_ok=True)
        for p in planned:
            rel = p.path.relative_to(out)
            tmp = new_root / rel
            write_pdf(p.pages, tmp, title=p.title, lang=p.lang, pdfa=pdfa)
            written.append(p.path)
            if png and p.png:
                write_png(tmp, tmp.with_suffix(".png"), page=0, dpi=110)
                written.append(p.path.with_suffix(".png"))
            if progress:
                progress(str(rel))
        with signals_deferred():
            _swap(folders, out, new_root, old_root)
    except OSError as e:
        raise RenderError(f"{out}: cannot write the output ({e.strerror or e}); nothing was changed") from None
    finally:
        with signals_deferred():
            shutil.rmtree(stage, ignore_errors=True)
    return written


def with_print(kit: Kit, overrides: Mapping[str, Any]) -> Kit:
    """The kit with some print settings replaced (CLI options such as --mode shop or --duplex short)."""
    if not overrides:
        return kit
    return replace(kit, print=kit.print.model_copy(update=dict(overrides)))


def build(paths: Sequence[Path], *, out: Path, langs: Sequence[str] | None = None, paper: str | None = None,
          seed: int | None = None, png: bool = False, progress: Callable[[str], None] | None = None,
          print_overrides: Mapping[str, Any] | None = None, pdfa: bool = False) -> BuildResult:
    """Load, check, compose and render kits; raises KitError before writing anything if any phase fails."""
    from generator.render.fonts import text_width

    result = BuildResult()
    t0 = time.perf_counter()
    kits = [with_print(k, print_overrides or {}) for k in load_kits(paths)]
    t1 = time.perf_counter()
    check_kits(kits)
    for kit in kits:
        result.warnings.extend(translation_warnings(kit))
    t2 = time.perf_counter()
    planned = plan_build(kits, out=out, langs=langs, paper=paper, seed=seed, measure=text_width,
                         warn=result.warnings.append, progress=progress)
    _raise_glyph_problems(kits, planned)
    t3 = time.perf_counter()
    result.files = render_all(planned, out, png=png, progress=progress, pdfa=pdfa)
    t4 = time.perf_counter()
    result.pages = sum(len(p.pages) for p in planned)
    result.timings = {"load": t1 - t0, "check": t2 - t1, "compose": t3 - t2, "render": t4 - t3}
    return result


__all__ = ["COMPOSERS", "build", "check_kit", "check_kits", "load_kits", "shipped_kits"]
