"""The hallway: parses arguments, calls the rooms, turns KitError into a message and exit code 1.

Every option is checked by its type or a callback as it is parsed: a bad option is a usage error (exit 2,
a message naming the option, the value given and what is allowed), before anything runs. The closed sets and
caps come from `generator.spec.choices`, shared with the spec models. The rooms are imported inside the
commands, so `pnpkit --help` and `validate` load no self-play kernels (numba), rasteriser or statistics."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from generator.errors import KitError, OptionError
from generator.spec.choices import MAX_GAMES, MAX_SEED, Duplex, Paper, PrintMode

if TYPE_CHECKING:
    from rich.console import Console

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False, rich_markup_mode=None,
                  help="pnpkit: print-and-play kits from layout specs, proven legal and balanced by seeded self-play.")


@cache
def _console(stderr: bool = False) -> Console:
    """The rich console of stdout (or stderr), made on first use (rich is not loaded for --help)."""
    from rich.console import Console

    return Console(stderr=stderr)




def _fail(message: str) -> None:
    sys.stderr.write(f"error: {_clean(message)}\n")
    raise typer.Exit(1)


def _kit_paths(kits: list[Path] | None) -> list[Path]:
    from generator.build import shipped_kits

    if kits:
        for k in kits:
            if not k.exists():
                _fail(f"{k}: no such kit folder")
        return list(kits)
    found = shipped_kits()
    if not found:
        _fail("no kits found in layouts/")
    return found


def _langs(value: str | None) -> list[str] | None:
    if not value:
        return None
    out = [v.strip() for v in value.split(",") if v.strip()]
    from generator.spec.kit import LANGUAGE_TAG

    bad = [v for v in out if not LANGUAGE_TAG.fullmatch(v)]
    if bad:  # which of them the kit ships is checked against kit.languages
        raise _bad(f"--lang: expected a comma-separated list of languages such as en,de,pt_BR; got {', '.join(bad)}")
    return out


def _is_terminal(stderr: bool = False) -> bool:
    """Whether rich treats stdout (or stderr) as a terminal -- TTY_COMPATIBLE, then FORCE_COLOR, then isatty --
    answered without loading rich (a build into a pipe or a file prints plain lines and loads no rich)."""
    compatible = os.environ.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "1"
    force = os.environ.get("FORCE_COLOR")
    if force is not None:
        return force != ""
    stream = sys.stderr if stderr else sys.stdout
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _say(text: str) -> None:
    """One line to stdout: through rich on a terminal, as it is otherwise (no markup, emoji codes or wrapping
    applied to file names)."""
    if _is_terminal():
        _console().print(text, highlight=False, soft_wrap=True, markup=False, emoji=False)
    else:
        sys.stdout.write(f"{text}\n")


@contextmanager
def _progress(total: int | None, label: str) -> Iterator[Callable[..., None]]:
    """A rich progress bar on a terminal (done/total, elapsed, ETA); silent otherwise."""
    if not _is_terminal(stderr=True) or not _console(stderr=True).is_terminal:
        yield lambda *a, **k: None
        return
    from generator.render.console import progress_for

    with progress_for(_console(stderr=True), total, label) as advance:
        yield advance


class Terminated(BaseException):
    """SIGTERM, raised in the main thread so `finally` blocks (staging folders) run before exit 143."""


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated()


MAX_LINE = 400


def _clean(message: str) -> str:
    """A message safe for a terminal: control characters escaped, every line at most MAX_LINE characters."""
    out = []
    for line in message.split("\n"):
        line = "".join(ch if ch.isprintable() or ch in " \t" else ch.encode("unicode_escape").decode("ascii") for ch in line)
        out.append(line if len(line) <= MAX_LINE else line[:MAX_LINE - 3] + "...")
    return "\n".join(out)


def _run(fn: Callable[[], None]) -> None:
    """Run a command: KitError -> its message and exit 1; Ctrl-C -> exit 130; SIGTERM -> exit 143.
    Interrupts raise inside the command, so its cleanup (the build's staging folder) runs first."""
    previous = None
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread (embedded use): leave signals alone
        pass
    try:
        fn()
    except KitError as e:
        sys.stderr.write(f"error: {_clean(str(e))}\n")
        raise typer.Exit(2 if isinstance(e, OptionError) else 1) from None
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        raise typer.Exit(130) from None
    except Terminated:
        sys.stderr.write("terminated\n")
        raise typer.Exit(143) from None
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


#: Core-seconds per 1,000 games per setting of the slowest shipped game's default check (Raindrops full games,
#: README "Numbers"); the estimate a refused --games prints is an upper bound.
CORE_SECONDS_PER_1000_GAMES = 45.0
SERVE_MAX_CHECK_GAMES = 100_000
"""Most games per setting the preview's 'run check' button may start with (a click, not a night's run)."""
DPI_RANGE = (72, 1200)
"""`export --dpi`: pixels per inch of card images."""
QUALITY_RANGE = (1, 100)
"""`export --quality`: JPEG quality."""


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.0f} h"
    days = seconds / 86400
    return f"{days:.0f} days" if days < 1e6 else f"{days:.1e} days"


def _clip_number(n: int) -> str:
    text = str(n)
    return text if len(text) <= 24 else f"{text[:6]}...({len(text)} digits)"


def _bad(message: str) -> typer.BadParameter:
    """A usage error on the option being parsed: click names the option, prints usage and exits 2."""
    return typer.BadParameter(_clean(message))


def _at_least(low: int, high: int | None = None) -> Callable[[int | None], int | None]:
    """An option callback: a whole number in low..high (no upper bound when high is None)."""

    def check(value: int | None) -> int | None:
        if value is not None and (value < low or (high is not None and value > high)):
            expected = f"a number >= {low}" if high is None else f"a number in {low}..{high}"
            raise _bad(f"expected {expected}; got {_clip_number(value)}")
        return value

    return check


def _seed(value: int | None) -> int | None:
    """--seed: 0..MAX_SEED, the rule of kit.seed."""
    if value is not None and not 0 <= value <= MAX_SEED:
        raise _bad(f"expected a whole number in 0..2**63-1 (the same rule as kit.seed); got {_clip_number(value)}")
    return value


def _check_games(value: int | None) -> int | None:
    """check --games: 1..MAX_GAMES; a refused large count says how long it would have taken."""
    _at_least(1)(value)
    if value is not None and value > MAX_GAMES:
        cores = _cores()
        est = min(value, 10**30) / 1000 * CORE_SECONDS_PER_1000_GAMES / max(cores, 1)
        raise _bad(f"at most {MAX_GAMES:,} games per setting; got {_clip_number(value)} "
                   f"(estimated time: up to {_duration(est)} per setting on {cores} core{'s' if cores != 1 else ''})")
    return value


def _workers(value: int | None) -> int | None:
    """--workers: at least 1; more than the cores this process may use is capped, with a warning."""
    _at_least(1)(value)
    cores = _cores()
    if value is not None and value > cores:
        sys.stderr.write(f"warning: --workers {_clip_number(value)} is more than the {cores} cores available; "
                         f"using {cores}\n")
        return cores
    return value


def _dask(value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise _bad("expected 'local' or a scheduler address such as tcp://host:8786; got ''")
    return value


def _pod_size(value: str | None) -> str | None:
    """export --size: a print-on-demand size (the export room's table, read only when the option is given)."""
    if value is not None:
        from generator.exportplan.plan import POD_SIZES

        if value not in POD_SIZES:
            raise _bad(f"expected one of {', '.join(POD_SIZES)}; got {value!r}")
    return value


def _image_format(value: str) -> str:
    """export --format: an image format the TTS export writes."""
    from generator.export import FORMATS

    if value not in FORMATS:
        raise _bad(f"expected one of {', '.join(FORMATS)}; got {value!r}")
    return value


@app.command()
def build(
    kits: list[Path] | None = typer.Argument(None, help="kit folders (default: every shipped kit)"),
    lang: str | None = typer.Option(None, "--lang", help="comma-separated languages, e.g. en,ja (default: all the kit ships)"),
    paper: Paper | None = typer.Option(None, "--paper", help="paper size (default: the kit's print.paper)"),
    out: Path = typer.Option(Path("output"), "--out", help="output folder"),
    seed: int | None = typer.Option(None, "--seed", callback=_seed, help="seed for everything random, 0..2**63-1 (default: the kit's kit.seed)"),
    png: bool = typer.Option(False, "--png/--no-png", help="also write a PNG preview of each component's first page"),
    mode: PrintMode | None = typer.Option(None, "--mode", help="home (N-up sheets) or shop (one card per page with bleed and TrimBox); overrides print.mode"),
    duplex: Duplex | None = typer.Option(None, "--duplex", help="how the sheet is flipped for the backs; overrides print.duplex"),
    pdfa: bool = typer.Option(False, "--pdfa", help="write PDF/A-2b (sRGB output intent, XMP metadata), checked by pikepdf's PDF/A validator"),
    force: bool = typer.Option(False, "--force", help="draw every component again, even those whose content key is unchanged since the last build into OUT"),
    greyscale: bool = typer.Option(False, "--greyscale", help="ink-saving print: every colour as the grey of its lightness (symbols carry the suits); sets print.greyscale"),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="list every file written"),
) -> None:
    """Build the printable PDFs of kits into OUT/<kit>/<lang>/ (incrementally: unchanged components are kept)."""
    def go() -> None:
        from generator.build import build as do_build
        from generator.build import check_out

        check_out(out)
        overrides = {name: value for name, value in (("mode", mode), ("duplex", duplex), ("greyscale", greyscale or None))
                     if value is not None}
        paths = _kit_paths(kits)
        with _progress(None, "building") as advance:
            result = do_build(paths, out=out, langs=_langs(lang), paper=paper, seed=seed, png=png, progress=advance,
                              print_overrides=overrides, pdfa=pdfa, force=force)
        for w in result.warnings:
            sys.stderr.write(f"warning: {w}\n")
        for line in result.checklists:
            _say(line)
        if verbose:
            for f in result.files:
                _say(str(f))
        t = result.timings
        _say(f"{len(result.files)} files written ({result.rebuilt} parts drawn, {result.skipped} unchanged), "
             f"{result.pages} pages in {sum(t.values()):.2f} s "
             f"(load {t['load']:.2f}, check {t['check']:.2f}, compose {t['compose']:.2f}, render {t['render']:.2f})")
    _run(go)


@app.command()
def export(
    kits: list[Path] | None = typer.Argument(None, help="kit folders (default: every shipped kit)"),
    tts: bool = typer.Option(False, "--tts", help="Tabletop Simulator deck sheets, backs, board tiles and <kit>-<lang>.json"),
    cards: bool = typer.Option(False, "--cards", help="one PNG per card face and back with bleed, and manifest.csv"),
    lang: str | None = typer.Option(None, "--lang", help="comma-separated languages (default: all the kit ships)"),
    out: Path = typer.Option(Path("output"), "--out", help="output folder: OUT/<kit>/<lang>/tts and OUT/<kit>/<lang>/cards"),
    seed: int | None = typer.Option(None, "--seed", callback=_seed, help="seed for everything random, 0..2**63-1 (default: the kit's kit.seed)"),
    dpi: int = typer.Option(300, "--dpi", callback=_at_least(*DPI_RANGE), help=f"card images: pixels per inch ({DPI_RANGE[0]}..{DPI_RANGE[1]})"),
    size: str | None = typer.Option(None, "--size", callback=_pod_size, help="card images: a print-on-demand size, tgc-poker, tgc-bridge, "
                                                                              "tgc-mini or tgc-square (default: each deck's own size with the kit's bleed)"),
    base_url: str | None = typer.Option(None, "--base-url", help="TTS: URL prefix of hosted images (default: file:/// URLs)"),
    fmt: str = typer.Option("png", "--format", callback=_image_format, help="TTS images: png or jpeg"),
    quality: int = typer.Option(90, "--quality", callback=_at_least(*QUALITY_RANGE), help=f"TTS JPEG quality ({QUALITY_RANGE[0]}..{QUALITY_RANGE[1]})"),
    workers: int | None = typer.Option(None, "--workers", callback=_at_least(1), help="processes rasterising in parallel (default: up to 2; 1 = none)"),
) -> None:
    """Export kits beyond paper: Tabletop Simulator decks (--tts) and print-on-demand card images (--cards)."""
    def go() -> None:
        from generator.export import ExportOptions
        from generator.export import export as do_export

        options = ExportOptions(tts=tts, cards=cards, dpi=dpi, size=size, base_url=base_url, fmt=fmt, quality=quality,
                                workers=workers)
        paths = _kit_paths(kits)
        with _progress(None, "exporting") as advance:
            result = do_export(paths, out=out, langs=_langs(lang), seed=seed, options=options, progress=advance)
        for w in result.warnings:
            sys.stderr.write(f"warning: {w}\n")
        for f in result.files:
            _console().print(str(f), highlight=False, soft_wrap=True)
        t = result.timings
        _console().print(f"{len(result.files)} files, {result.cards} card images in {sum(t.values()):.2f} s "
                          f"(load {t['load']:.2f}, compose {t['compose']:.2f}, render {t['render']:.2f})", highlight=False)
    _run(go)


@app.command()
def validate(kits: list[Path] | None = typer.Argument(None, help="kit folders (default: every shipped kit)")) -> None:
    """Everything `build` checks, without writing: the spec and catalogs, the static legal checks, every text
    rendered and fitted to its box in every language (default paper), every character's glyph. Exit 1 if any."""
    def go() -> None:
        from generator.build import check_kits, load_kits, translation_warnings, verify_layout

        paths = _kit_paths(kits)
        loaded = load_kits(paths)
        check_kits(loaded)
        layout_warnings = verify_layout(loaded)
        for w in dict.fromkeys(layout_warnings):
            sys.stderr.write(f"warning: {w}\n")
        for k in loaded:
            for w in translation_warnings(k):
                sys.stderr.write(f"warning: {w}\n")
            _console().print(f"{k.display}: ok ({k.game_id}, {len(k.components)} components, {', '.join(k.meta.languages)})", highlight=False)
    _run(go)


@app.command()
def new(
    name: Path = typer.Argument(..., help="the new kit's folder; its name becomes kit.id (lower-case letters, digits, _)"),
    source: str | None = typer.Option(None, "--from", help="a shipped kit id (see `pnpkit list`) or a kit folder to copy"),
    template: str | None = typer.Option(None, "--template", help="a starter kit instead: deck (a data kit: CSV + templates)"),
) -> None:
    """Start a variant: copy a kit to NAME/ (kit.id and title text id renamed, comments kept, README stub),
    validate it and print the next commands. Never overwrites. `--template deck` starts a data kit instead."""
    def go() -> None:
        import shutil

        from generator.build import check_kits, load_kits, verify_layout
        from generator.newkit import new_kit

        made = new_kit(name, source, template=template)
        try:
            loaded = load_kits([made.folder])
            check_kits(loaded)
            verify_layout(loaded)
        except KitError:
            shutil.rmtree(made.folder, ignore_errors=True)  # a copy that does not validate is not left behind
            raise
        _console().print(f"created {made.folder}/ from {made.source} (kit.id {made.kit_id}, title text id "
                          f"{made.title_id}); it validates", highlight=False)
        for f in made.files:
            _console().print(f"  {f}", highlight=False, soft_wrap=True)
        _console().print("next:", highlight=False)
        for cmd in (f"pnpkit serve {made.folder}", f"pnpkit validate {made.folder}", f"pnpkit check {made.folder}",
                    f"pnpkit build {made.folder}"):
            _console().print(f"  {cmd}", highlight=False, soft_wrap=True)
    _run(go)


@app.command()
def serve(
    kit: Path = typer.Argument(..., help="the kit folder to preview"),
    port: int = typer.Option(8000, "--port", callback=_at_least(1, 65535), help="TCP port"),
    host: str = typer.Option("127.0.0.1", "--host", help="address to bind (default: this machine only)"),
    out: Path = typer.Option(Path("output"), "--out", help="output folder the preview builds into"),
    lang: str | None = typer.Option(None, "--lang", help="language shown first (default: the kit's first)"),
    paper: Paper | None = typer.Option(None, "--paper", help="paper size (default: the kit's print.paper)"),
    games: int = typer.Option(200, "--games", callback=_at_least(1, SERVE_MAX_CHECK_GAMES),
                              help="games per setting the page's 'run check' button starts with"),
) -> None:
    """Live preview in the browser: every component's pages, rebuilt incrementally when a file of the kit
    changes, validation errors inline, the balance verdicts with a 'run check' button."""
    def go() -> None:
        try:
            from generator.serve import serve as run_server
        except ImportError as e:
            _fail(f"pnpkit serve needs the 'serve' extra (pip install 'pnpkit[serve]'): {e}")
            return
        if not (kit / "kit.yaml").is_file():
            _fail(f"{kit}: no kit.yaml in this folder")
        from generator.spec.kit import LANGUAGE_TAG

        if lang is not None and not LANGUAGE_TAG.fullmatch(lang):
            raise _bad(f"--lang: expected a language such as en, de or pt_BR; got {lang!r}")
        run_server(kit, out=out, host=host, port=port, lang=lang, paper=paper, check_games=games)
    _run(go)


@app.command("list")
def list_kits(slots: Path | None = typer.Option(None, "--slots", help="list the art slots of this kit folder")) -> None:
    """The shipped kits (components, languages) and every registered game (built in or a plugin); with --slots KIT,
    every art slot of the kit's components with its box in mm."""
    def go() -> None:
        from rich.table import Table

        from generator.build import load_kits, shipped_kits

        if slots is not None:
            from generator.layout.art import slot_rows

            (kit,) = load_kits([slots])
            found = Table(title=f"art slots of {kit.meta.id} (components.<id>.art.<slot>)")
            for col in ("component", "slot", "face", "box (mm)", "fields", "replaces", "filled with"):
                found.add_column(col)
            for cid, name, face, w, h, fields, what, filled in slot_rows(kit):
                found.add_row(cid, name, face, f"{w:.1f} x {h:.1f}", fields, what, filled)
            _console().print(found)
            return

        table = Table(title="shipped kits")
        for col in ("kit", "game", "components", "languages", "folder"):
            table.add_column(col)
        for k in load_kits(shipped_kits()):
            table.add_row(k.meta.id, k.game_id, ", ".join(c for c, s in k.components.items() if s.enabled),
                          ", ".join(k.meta.languages), str(k.dir))
        _console().print(table)
        from generator.games.registry import BUILTIN, games

        known = Table(title="registered games (game.kind)")
        for col in ("game", "name", "ruleset", "from"):
            known.add_column(col)
        for gid, plugin in games().items():
            known.add_row(gid, plugin.name or gid, plugin.ruleset,
                          "built in" if gid in BUILTIN else f"plugin ({plugin.source})")
        _console().print(known)
    _run(go)


@app.command()
def schema(game: str | None = typer.Option(None, "--game", help="print only this game's section schema")) -> None:
    """Print the JSON Schema of a kit spec (kit.yaml) for editor completion."""
    def go() -> None:
        from generator.spec.schema import kit_schema

        _console().print_json(json.dumps(kit_schema(game)))
    _run(go)


@app.command()
def check(
    kits: list[Path] | None = typer.Argument(None, help="kit folders (default: every shipped kit)"),
    games: int | None = typer.Option(None, "--games", callback=_check_games, help=f"games per setting, 1..{MAX_GAMES:,} (default: the spec's balance.games)"),
    seed: int | None = typer.Option(None, "--seed", callback=_seed, help="run seed, 0..2**63-1 (default: the kit's kit.seed)"),
    workers: int | None = typer.Option(None, "--workers", callback=_workers, help="worker processes (default: all cores)"),
    dask: str | None = typer.Option(None, "--dask", callback=_dask, help="'local' for a LocalCluster or tcp://host:port of a scheduler"),
    json_path: Path | None = typer.Option(None, "--json", help="write every figure to this JSON file"),
    report: Path | None = typer.Option(None, "--report", help="write a self-contained HTML report"),
    refit: bool = typer.Option(False, "--refit", help="write the spec edit the game proposes from play into kit.yaml (Raindrops: card points)"),
) -> None:
    """Prove kits legal (static checks) and balanced (seeded self-play against the spec's tolerances).

    Each tolerance gets a statistical verdict: HOLDS, FAILS or UNDECIDED; undecided ones get more games (batches
    doubling from --games up to the spec's balance.max_games). Exit 0: every tolerance holds; 1: any fails;
    3: none fails but some are still undecided at the cap."""
    def go() -> None:
        from generator.build import check_kits, load_kits
        from generator.checking import check_balance, write_reports
        from generator.checking import refit as write_refit
        from generator.render.console import print_report

        loaded = load_kits(_kit_paths(kits))
        check_kits(loaded)
        run = check_balance(loaded, games=games, seed=seed, workers=workers, dask=dask, switches=report is not None,
                            progress=lambda label: _progress(None, label), totals=_console(stderr=True).is_terminal,
                            on_report=lambda rep: print_report(rep, _console()))
        if refit:
            for k, rep in zip(loaded, run.reports):
                edit = write_refit(k, rep)
                _console().print(f"refit: {edit.summary} written to {k.display}", highlight=False)
        for path in write_reports(run, json_path=json_path, html_path=report):
            _console().print(f"wrote {path}", highlight=False)
        if run.exit_code:
            sys.stderr.write(run.summary() + "\n")
            raise typer.Exit(run.exit_code)
    _run(go)


@app.command()
def warmup(
    kits: list[Path] | None = typer.Argument(None, help="kit folders (default: every shipped kit)"),
    games: int = typer.Option(2, "--games", callback=_at_least(1), help="games per setting in the warm-up run (any number compiles)"),
) -> None:
    """Compile the self-play kernels now (numba caches them on disk), so the first `check` starts at once."""
    def go() -> None:
        from generator.build import check_kits, load_kits
        from generator.checking import warm_up
        from generator.engine.kernel import HAVE_NUMBA

        loaded = load_kits(_kit_paths(kits))
        check_kits(loaded)
        if not HAVE_NUMBA:
            _console().print("numba is not installed (or PNPKIT_PURE=1): the kernels run as plain Python, "
                             "nothing to compile; pip install 'pnpkit[fast]' for compiled self-play",
                             highlight=False, soft_wrap=True)
        with _progress(len(loaded), "compiling the self-play kernels (first run only)") as advance:
            done = list(warm_up(loaded, games=games, progress=advance))
        for name, secs in done:
            _console().print(f"warm: {name} ({secs:.1f} s)", highlight=False)
        if HAVE_NUMBA:
            where = os.environ.get("NUMBA_CACHE_DIR") or "__pycache__ folders beside the sources"
            _console().print(f"kernels cached in {where} (later runs load them)", highlight=False, soft_wrap=True)
    _run(go)


@app.command()
def tune(
    kit: Path = typer.Argument(..., help="kit folder to tune"),
    trials: int | None = typer.Option(None, "--trials", callback=_at_least(1), help="trials the study holds when done (default: tune.trials)"),
    seed: int | None = typer.Option(None, "--seed", callback=_seed, help="search and proof seed, 0..2**63-1 (default: the kit's kit.seed)"),
    workers: int | None = typer.Option(None, "--workers", callback=_workers, help="worker processes (default: all cores)"),
    dask: str | None = typer.Option(None, "--dask", callback=_dask, help="'local' for a LocalCluster or tcp://host:port of a scheduler"),
    storage: str | None = typer.Option(None, "--storage", help="optuna storage, e.g. sqlite:///tune.db (resumes)"),
    out: Path = typer.Option(Path("tuned"), "--out", help="folder for OUT/<kit>-tuned/ and OUT/<kit>-tune.html"),
    param: list[str] | None = typer.Option(None, "--param", help="path=lo..hi, path=choice:a,b or path=permutation (replaces tune.params)"),
    target: list[str] | None = typer.Option(None, "--target", help="tolerance=value to aim at (replaces tune.targets)"),
) -> None:
    """Search a kit's tunable parameters until every balance tolerance holds (closest to the original), prove the
    best candidates with the full check on a fresh seed stream and write the winner as OUT/<kit>-tuned/."""
    def go() -> None:
        from generator.tuning import tune as run_tune

        if not kit.exists():
            _fail(f"{kit}: no such kit folder")
        # a bad --param/--target is a TuneUsageError (an OptionError): exit 2 like every bad option
        o = run_tune(kit, params=param or (), targets=target or (), trials=trials, seed=seed, workers=workers,
                     dask=dask, storage=storage, out=out, console=_console(stderr=True))
        played = f"{o.found.played} trials played, {len(o.found.judged)} in the study"
        _console().print(f"tune {o.plan.kit.meta.id}: {played} ({o.seconds:.0f} s)", highlight=False)
        _console().print(f"wrote {o.report}", highlight=False)
        if o.kit_dir is None:
            _fail("no candidate passed the full check; widen the search (--param) or add --trials")
        changed = {p: v for p, v in (o.winner.values if o.winner else {}).items() if v != o.plan.original[p]}
        for p, v in changed.items():
            _console().print(f"  {p}: {o.plan.original[p]} -> {v}", highlight=False)
        _console().print(f"wrote {o.kit_dir} (every tolerance holds on the proof stream)", highlight=False)
    _run(go)


def main() -> None:
    """Console-script entry point."""
    os.environ.setdefault("PYTHONHASHSEED", "0")
    # pydantic looks for plugins (observability hooks) by scanning every installed distribution's entry points
    # when the first model is built: ~30 ms a command, for hooks pnpkit's spec models do not use. A user who
    # wants them sets the variable (to anything, e.g. an empty string) and keeps them.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    app()


if __name__ == "__main__":
    main()

