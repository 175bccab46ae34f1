"""The hallway: parses arguments, calls the rooms, turns KitError into a message and exit code 1.

Every option is checked by its type or a callback as it is parsed: a bad option is a usage error (exit 2,
a message naming the option, the value given and what is allowed), before anything runs. The closed sets and
caps come from `generator.spec.choices`, shared with the spec models. The rooms are imported inside the
commands, so `pnpkit --help` and `validate` load no self-play kernels (numba), rasteriser or statistics."""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

try:  # newer typer carries its own copy of click
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover - older typer runs on click itself
    from click.exceptions import ClickException  # type: ignore[assignment]

from generator.errors import KitError, OptionError
from generator.interrupts import Terminated, install_for_process, signals_recorded
from generator.spec.choices import MAX_GAMES, MAX_SEED, Duplex, Paper, PrintMode

if TYPE_CHECKING:
    from rich.console import Console

_TYPE_LABEL = re.compile(r" <([^<>]*)>$")
"""The Python type typer prints after a parameter's name in --help (`<int>`, `<list[Path]>`, `<a4|letter|a3>`)."""


class _Command(TyperCommand):
    """A command whose --help names values as a user types them: `--seed SEED`, `--paper [a4|letter|a3]`, `KIT`;
    never a Python type."""

    def format_options(self, ctx: Any, formatter: Any) -> None:
        args, opts = [], []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            name, text = record
            if param.param_type_name == "argument":
                args.append((_TYPE_LABEL.sub("", name), text))
                continue
            label = _TYPE_LABEL.search(name)
            if label:
                shown = (
                    f"[{label[1]}]" if "|" in label[1] else param.metavar or (param.name or "value").upper()
                )
                name = f"{name[: label.start()]} {shown}"
            opts.append((name, text))
        if args:
            with formatter.section("Arguments"):
                formatter.write_dl(args)
        if opts:
            with formatter.section("Options"):
                formatter.write_dl(opts)


class _Group(TyperGroup):
    """The `pnpkit` group: each command's one-line summary in full, and every error in one style
    (`error: ...`, as the commands' own messages), click's usage errors included."""

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.short_help or cmd.get_short_help_str(limit=10_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        def run(standalone: bool) -> Any:
            return super(_Group, self).main(
                args, prog_name, complete_var, standalone, windows_expand_args, **extra
            )

        if not standalone_mode:
            return run(False)
        try:
            code = run(False)
        except ClickException as e:
            import io

            shown = io.StringIO()
            e.show(file=shown)
            text = re.sub(r"(?m)^Error: ", "error: ", shown.getvalue(), count=1)
            sys.stderr.write(
                text.replace(": Value error, ", ": ")
            )  # pydantic's wording inside typer's choices
            sys.exit(e.exit_code)
        except typer.Abort:
            sys.stderr.write("aborted\n")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    cls=_Group,
    help="pnpkit: print-and-play kits from layout specs, proven legal and balanced by seeded self-play.",
)


def _command(
    name: str | None = None, *, summary: str
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A command of the app with its one-line summary for `pnpkit --help` (at most 64 characters, so the list
    reads on one line each at 80 columns)."""
    return app.command(name, cls=_Command, short_help=summary)


def _print_version(value: bool) -> None:
    if value:
        from generator import __version__

        sys.stdout.write(f"pnpkit {__version__}\n")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="print pnpkit's version and exit"
    ),
) -> None:
    """pnpkit: print-and-play kits from layout specs, proven legal and balanced by seeded self-play."""


@cache
def _console(stderr: bool = False) -> Console:
    """The rich console of stdout (or stderr), made on first use (rich is not loaded for --help)."""
    from rich.console import Console

    return Console(stderr=stderr)


def _fail(message: str) -> NoReturn:
    sys.stderr.write(f"error: {_clean(message)}\n")
    raise typer.Exit(1)


KIT_HELP = "kit folders, or ids of shipped kits (pnpkit list); a folder of that name here wins (default: every shipped kit)"
"""The help of every KIT... argument."""


def _kit_path(path: Path) -> Path:
    """A kit as the user typed it: a folder that exists is taken as given (a local folder wins over an id);
    otherwise a shipped kit's id (`pnpkit list`) names its folder, from any working folder, installed or not."""
    if path.exists():
        return path
    from generator.pipeline import shipped_kits

    shipped = {p.name: p for p in shipped_kits()}
    if str(path) in shipped:
        return shipped[str(path)]
    _fail(f"{path}: no such kit folder, nor a shipped kit id (shipped: {', '.join(shipped) or 'none'})")


def _kit_paths(kits: list[Path] | None) -> list[Path]:
    from generator.pipeline import shipped_kits

    if kits:
        return [_kit_path(k) for k in kits]
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
        raise _bad(
            f"--lang: expected a comma-separated list of languages such as en,de,pt_BR; got {', '.join(bad)}"
        )
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


MAX_LINE = 400


def _clean(message: str) -> str:
    """A message safe for a terminal: control characters escaped, every line at most MAX_LINE characters."""
    out = []
    for line in message.split("\n"):
        line = "".join(
            ch if ch.isprintable() or ch in " \t" else ch.encode("unicode_escape").decode("ascii")
            for ch in line
        )
        out.append(line if len(line) <= MAX_LINE else line[: MAX_LINE - 3] + "...")
    return "\n".join(out)


def _run(fn: Callable[[], None], *, safe_points: bool = False) -> None:
    """Run a command: KitError -> its message and exit 1; Ctrl-C -> exit 130; SIGTERM -> exit 143.
    Interrupts raise inside the command, so its cleanup (the build's staging folder) runs first: at once, or,
    for a command with `safe_points` (the build), at its next one -- a signal is recorded, never lost
    (generator.interrupts)."""
    try:
        with signals_recorded(safe_points=safe_points):
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
        raise _bad(
            f"expected a whole number in 0..2**63-1 (the same rule as kit.seed); got {_clip_number(value)}"
        )
    return value


def _check_games(value: int | None) -> int | None:
    """check --games: 1..MAX_GAMES; a refused large count says how long it would have taken."""
    _at_least(1)(value)
    if value is not None and value > MAX_GAMES:
        cores = _cores()
        est = min(value, 10**30) / 1000 * CORE_SECONDS_PER_1000_GAMES / max(cores, 1)
        raise _bad(
            f"at most {MAX_GAMES:,} games per setting; got {_clip_number(value)} "
            f"(estimated time: up to {_duration(est)} per setting on {cores} core{'s' if cores != 1 else ''})"
        )
    return value


def _workers(value: int | None) -> int | None:
    """--workers: at least 1; more than the cores this process may use is capped, with a warning."""
    _at_least(1)(value)
    cores = _cores()
    if value is not None and value > cores:
        sys.stderr.write(
            f"warning: --workers {_clip_number(value)} is more than the {cores} cores available; "
            f"using {cores}\n"
        )
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


@_command(summary="Build the printable PDFs of kits (only what changed is redrawn)")
def build(
    kits: list[Path] | None = typer.Argument(None, metavar="KIT", help=KIT_HELP),
    lang: str | None = typer.Option(
        None, "--lang", help="comma-separated languages, e.g. en,ja (default: all the kit ships)"
    ),
    paper: Paper | None = typer.Option(
        None, "--paper", case_sensitive=False, help="paper size (default: the kit's print.paper)"
    ),
    out: Path = typer.Option(Path("output"), "--out", help="output folder"),
    seed: int | None = typer.Option(
        None,
        "--seed",
        callback=_seed,
        help="seed for everything random, 0..2**63-1 (default: the kit's kit.seed)",
    ),
    png: bool = typer.Option(
        False, "--png/--no-png", help="also write a PNG preview of each component's first page"
    ),
    mode: PrintMode | None = typer.Option(
        None,
        "--mode",
        case_sensitive=False,
        help="home (N-up sheets) or shop (one card per page with bleed and TrimBox); overrides print.mode",
    ),
    duplex: Duplex | None = typer.Option(
        None,
        "--duplex",
        case_sensitive=False,
        help="how the sheet is flipped for the backs; overrides print.duplex",
    ),
    pdfa: bool = typer.Option(
        False,
        "--pdfa",
        help="write PDF/A-2b (sRGB output intent, XMP metadata), checked by pikepdf's PDF/A validator",
    ),
    force: bool = typer.Option(
        False,
        "--force",
        help="draw every component again, even those whose content key is unchanged since the last build into OUT",
    ),
    greyscale: bool = typer.Option(
        False,
        "--greyscale",
        help="ink-saving print: every colour as the grey of its lightness (symbols carry the suits); sets print.greyscale",
    ),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="list every file written"),
    warm: bool = typer.Option(
        False,
        "--warm",
        help="then compile the kits' engines in the background (pnpkit warmup), so a first check is fast",
    ),
) -> None:
    """Build the printable PDFs of kits into OUT/<kit>/<lang>/ (incrementally: unchanged components are kept)."""

    def go() -> None:
        from generator.pipeline import build as do_build
        from generator.pipeline import check_out

        check_out(out)
        overrides = {
            name: value
            for name, value in (("mode", mode), ("duplex", duplex), ("greyscale", greyscale or None))
            if value is not None
        }
        paths = _kit_paths(kits)
        with _progress(None, "building") as advance:
            result = do_build(
                paths,
                out=out,
                langs=_langs(lang),
                paper=paper,
                seed=seed,
                png=png,
                progress=advance,
                print_overrides=overrides,
                pdfa=pdfa,
                force=force,
            )
        for w in result.warnings:
            sys.stderr.write(f"warning: {w}\n")
        for line in result.checklists:
            _say(line)
        if verbose:
            for f in result.files:
                _say(str(f))
        t = result.timings
        _say(
            f"{_count(len(result.files), 'file')} written ({_count(result.rebuilt, 'part')} drawn, "
            f"{result.skipped} unchanged), {_count(result.pages, 'page')} in {sum(t.values()):.2f} s "
            f"(load {t['load']:.2f}, check {t['check']:.2f}, compose {t['compose']:.2f}, render {t['render']:.2f})"
        )
        for pdf in _kit_pdfs(result.outputs):
            _say(f"kit PDF: {pdf}")
        if warm:
            _warm_in_background(paths)

    _run(go, safe_points=True)


def _warm_in_background(paths: list[Path]) -> None:
    """Start `pnpkit warmup` of the kits as a process of its own that outlives this one (its output dropped):
    numba compiles their games' kernels into its cache while the user looks at the PDFs. Only on `--warm`: a
    build plays no game, and compiling costs a minute of CPU that a user who never checks does not want."""
    import subprocess

    from generator.engine.kernelcache import salted_cache_dir

    if salted_cache_dir() is None:
        _say("--warm: numba is not installed (or PNPKIT_PURE=1): there is nothing to compile")
        return
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "warmup", *(str(p.resolve()) for p in paths)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # not stopped by the terminal's Ctrl-C after this command returned
    )
    _say(f"compiling the self-play engines in the background (pnpkit warmup, process {proc.pid})")


def _kit_pdfs(outputs: list[Path]) -> list[Path]:
    """The whole-kit PDFs (OUT/<kit>/<lang>/kit-<paper>.pdf) among a build's outputs, in output order."""
    return [p for p in outputs if p.name.startswith("kit-") and p.suffix == ".pdf"]


@_command(summary="Export kits to Tabletop Simulator or print-on-demand card images")
def export(
    kits: list[Path] | None = typer.Argument(None, metavar="KIT", help=KIT_HELP),
    tts: bool = typer.Option(
        False, "--tts", help="Tabletop Simulator deck sheets, backs, board tiles and <kit>-<lang>.json"
    ),
    cards: bool = typer.Option(
        False, "--cards", help="one PNG per card face and back with bleed, and manifest.csv"
    ),
    pages: bool = typer.Option(
        False, "--pages", help="every page of the build's PDFs as a PNG, in OUT/<kit>/<lang>/pages/"
    ),
    showcase: str | None = typer.Option(
        None,
        "--showcase",
        metavar="DECK[:ID,ID,...]",
        help="a hand of cards of that deck fanned on one PNG (default: its first 5 "
        "cards), in OUT/<kit>/<lang>/showcase/",
    ),
    lang: str | None = typer.Option(
        None, "--lang", help="comma-separated languages (default: all the kit ships)"
    ),
    out: Path = typer.Option(
        Path("output"), "--out", help="output folder: OUT/<kit>/<lang>/tts and OUT/<kit>/<lang>/cards"
    ),
    seed: int | None = typer.Option(
        None,
        "--seed",
        callback=_seed,
        help="seed for everything random, 0..2**63-1 (default: the kit's kit.seed)",
    ),
    dpi: int = typer.Option(
        300,
        "--dpi",
        callback=_at_least(*DPI_RANGE),
        help=f"card images: pixels per inch ({DPI_RANGE[0]}..{DPI_RANGE[1]})",
    ),
    size: str | None = typer.Option(
        None,
        "--size",
        callback=_pod_size,
        help="card images: a print-on-demand size: The Game Crafter "
        "(tgc-poker, tgc-bridge, tgc-mini, tgc-square), MakePlayingCards (mpc-poker, "
        "mpc-bridge, mpc-mini, mpc-tarot) or DriveThruCards (dtc-poker, dtc-tarot); "
        "default: each deck's own size with the kit's bleed",
    ),
    base_url: str | None = typer.Option(
        None, "--base-url", help="TTS: URL prefix of hosted images (default: file:/// URLs)"
    ),
    fmt: str = typer.Option("png", "--format", callback=_image_format, help="TTS images: png or jpeg"),
    quality: int = typer.Option(
        90,
        "--quality",
        callback=_at_least(*QUALITY_RANGE),
        help=f"TTS JPEG quality ({QUALITY_RANGE[0]}..{QUALITY_RANGE[1]})",
    ),
    workers: int | None = typer.Option(
        None,
        "--workers",
        callback=_at_least(1),
        help="processes rasterising in parallel (default: up to 2; 1 = none)",
    ),
) -> None:
    """Export kits beyond paper: Tabletop Simulator decks (--tts), print-on-demand card images (--cards), pictures
    of every page (--pages) and a fanned hand of cards (--showcase)."""

    def go() -> None:
        from generator.export import ExportOptions
        from generator.export import export as do_export

        options = ExportOptions(
            tts=tts,
            cards=cards,
            pages=pages,
            showcase=showcase,
            dpi=dpi,
            size=size,
            base_url=base_url,
            fmt=fmt,
            quality=quality,
            workers=workers,
        )
        paths = _kit_paths(kits)
        with _progress(None, "exporting") as advance:
            result = do_export(
                paths, out=out, langs=_langs(lang), seed=seed, options=options, progress=advance
            )
        for w in result.warnings:
            sys.stderr.write(f"warning: {w}\n")
        for f in result.files:
            _console().print(str(f), highlight=False, soft_wrap=True)
        t = result.timings
        _console().print(
            f"{_count(len(result.files), 'file')}, {_count(result.cards, 'card image')} in {sum(t.values()):.2f} s "
            f"(load {t['load']:.2f}, compose {t['compose']:.2f}, render {t['render']:.2f})",
            highlight=False,
        )

    _run(go)


@_command(summary="Check specs, catalogs, text fit and glyphs without writing")
def validate(
    kits: list[Path] | None = typer.Argument(None, metavar="KIT", help=KIT_HELP),
    lang: str | None = typer.Option(
        None, "--lang", help="comma-separated languages (default: all the kit ships; qps: the pseudo-locale)"
    ),
) -> None:
    """Everything `build` checks, without writing: the spec and catalogs, the static legal checks, every text
    rendered and fitted to its box in every language (default paper), every character's glyph. Exit 1 if any."""

    def go() -> None:
        from generator.errors import Problem, SpecError
        from generator.pipeline import check_kits, load_kits, translation_warnings, verify_layout
        from generator.pipeline.compose import pseudo_overflows
        from generator.spec.catalogs import PSEUDO

        paths = _kit_paths(kits)
        loaded = load_kits(paths)
        check_kits(loaded)
        asked = _langs(lang)
        for k in loaded:
            k.chosen_languages(asked)  # a language the kit does not ship is a usage error before any work
        layout_warnings: list[str] = []
        overflows: list[Problem] = []
        if asked is not None and PSEUDO in asked:  # name every box that would overflow, not just the first
            for k in loaded:
                found, heard = pseudo_overflows(k)
                overflows += found
                layout_warnings += heard
        if overflows:
            raise SpecError(overflows)
        rest = None if asked is None else [x for x in asked if x != PSEUDO]
        if rest is None or rest:
            layout_warnings += verify_layout(loaded, langs=rest)
        for w in dict.fromkeys(layout_warnings):
            sys.stderr.write(f"warning: {w}\n")
        for k in loaded:
            for w in translation_warnings(k):
                sys.stderr.write(f"warning: {w}\n")
            _console().print(
                f"{k.display}: ok ({k.game_id}, {_count(len(k.components), 'component')}, "
                f"{', '.join(k.chosen_languages(asked))})",
                highlight=False,
            )

    _run(go)


@_command(summary="Start a kit: copy a shipped kit or a starter template")
def new(
    name: Path = typer.Argument(
        ...,
        metavar="NAME",
        help="the new kit's folder; its name becomes kit.id (lower-case letters, digits, _)",
    ),
    source: str | None = typer.Option(
        None, "--from", help="a shipped kit id (see `pnpkit list`) or a kit folder to copy"
    ),
    template: str | None = typer.Option(
        None, "--template", help="a starter kit instead: deck (a data kit: CSV + templates)"
    ),
) -> None:
    """Start a variant: copy a kit to NAME/ (kit.id and title text id renamed, comments kept, README stub),
    validate it and print the next commands. Never overwrites. `--template deck` starts a data kit instead."""

    def go() -> None:
        import shutil

        from generator.newkit import new_kit
        from generator.pipeline import check_kits, load_kits, verify_layout

        made = new_kit(name, source, template=template)
        try:
            loaded = load_kits([made.folder])
            check_kits(loaded)
            verify_layout(loaded)
        except KitError:
            shutil.rmtree(made.folder, ignore_errors=True)  # a copy that does not validate is not left behind
            raise
        _console().print(
            f"created {made.folder}/ from {made.source} (kit.id {made.kit_id}, title text id "
            f"{made.title_id}); it validates",
            highlight=False,
        )
        for f in made.files:
            _console().print(f"  {f}", highlight=False, soft_wrap=True)
        _console().print("next:", highlight=False)
        for cmd in (
            f"pnpkit serve {made.folder}",
            f"pnpkit validate {made.folder}",
            f"pnpkit check {made.folder}",
            f"pnpkit build {made.folder}",
        ):
            _console().print(f"  {cmd}", highlight=False, soft_wrap=True)

    _run(go)


@_command(summary="Live preview in the browser, redrawn as the kit's files change")
def serve(
    kit: Path = typer.Argument(..., metavar="KIT", help="the kit folder or shipped kit id to preview"),
    port: int = typer.Option(8000, "--port", callback=_at_least(1, 65535), help="TCP port"),
    host: str = typer.Option("127.0.0.1", "--host", help="address to bind (default: this machine only)"),
    out: Path = typer.Option(Path("output"), "--out", help="output folder the preview builds into"),
    lang: str | None = typer.Option(None, "--lang", help="language shown first (default: the kit's first)"),
    paper: Paper | None = typer.Option(
        None, "--paper", case_sensitive=False, help="paper size (default: the kit's print.paper)"
    ),
    games: int = typer.Option(
        200,
        "--games",
        callback=_at_least(1, SERVE_MAX_CHECK_GAMES),
        help="games per setting the page's 'run check' button starts with",
    ),
) -> None:
    """Live preview in the browser: every component's pages, rebuilt incrementally when a file of the kit
    changes, validation errors inline, the balance verdicts with a 'run check' button."""

    def go() -> None:
        try:
            from generator.serve import serve as run_server
        except ImportError as e:
            _fail(f"pnpkit serve needs the 'serve' extra (pip install 'pnpkit[serve]'): {e}")
            return
        folder = _kit_path(kit)
        if not (folder / "kit.yaml").is_file():
            _fail(f"{folder}: no kit.yaml in this folder")
        from generator.spec.kit import LANGUAGE_TAG

        if lang is not None and not LANGUAGE_TAG.fullmatch(lang):
            raise _bad(f"--lang: expected a language such as en, de or pt_BR; got {lang!r}")
        run_server(folder, out=out, host=host, port=port, lang=lang, paper=paper, check_games=games)

    _run(go)


@_command("list", summary="Show kits (languages, components, art slots) and games")
def list_kits(
    kits: list[Path] | None = typer.Argument(None, metavar="KIT", help=KIT_HELP),
    slots: bool = typer.Option(
        False,
        "--slots",
        help="also every art slot of the kits' components, with its box in mm (`list --slots KIT` as before)",
    ),
) -> None:
    """Each kit's game, languages, components and folder (your own kit folders too); with --slots, every art
    slot you can fill in kit.yaml. Without KIT: the shipped kits and every registered game (built in or a plugin)."""

    def go() -> None:
        from generator.pipeline import load_kits

        for k in load_kits(_kit_paths(kits)):
            enabled = [c for c, s in k.components.items() if s.enabled]
            _say_wrapped(f"{k.meta.id}: a {k.game_id} kit in {', '.join(k.meta.languages)}", indent=4)
            _say_wrapped(f"  {_count(len(enabled), 'component')}: {', '.join(enabled)}", indent=4)
            _say(f"  folder: {k.dir}")  # a path is never wrapped or cut: it is copied
            if slots:
                _list_slots(k)
        if kits:
            return
        from rich.table import Table

        from generator.contract import BUILTIN, games

        known = Table(title="registered games (game.kind)")
        for col in ("game", "name", "ruleset", "from"):
            known.add_column(col)
        for gid, plugin in games().items():
            known.add_row(
                gid,
                plugin.name or gid,
                plugin.ruleset,
                "built in" if gid in BUILTIN else f"plugin ({plugin.source})",
            )
        _console().print(known)

    _run(go)


def _list_slots(kit: Any) -> None:
    """The art slots of one kit, a few short lines each (readable at 80 columns)."""
    from generator.contract.compose import slot_rows

    _list_icons(kit)
    rows = slot_rows(kit)
    if not rows:
        _say("  art slots: none")
        return
    _say("  art slots (kit.yaml: components.<component>.art.<slot>):")
    for cid, name, face, w, h, fields, what, filled in rows:
        _say_wrapped(
            f"    {cid}.{name} ({face}, {w:.1f} x {h:.1f} mm{'; fields ' + fields if fields else ''})",
            indent=8,
        )
        _say_wrapped(f"        {what}", indent=8)
        if filled:
            _say(f"        filled with {filled}")


def _list_icons(kit: Any) -> None:
    """The inline icons a text of the kit may name as :name: -- the kit's own (style.icons) and the built-in
    symbols -- a few short lines (readable at 80 columns)."""
    from generator.layout.shapes import SYMBOLS
    from generator.spec.assets import icon_path

    own = sorted(kit.icons)
    if own:
        _say("  inline icons (kit.yaml: style.icons; in a text :name:):")
        for name in own:
            replaces = "; replaces the built-in symbol" if name in SYMBOLS else ""
            _say_wrapped(f"    :{name}: {icon_path(name)}{replaces}", indent=8)
    else:
        _say("  inline icons (kit.yaml: style.icons): none")
    _say_wrapped("    built in: " + " ".join(f":{n}:" for n in SYMBOLS if n not in own), indent=6)


def _count(n: int, word: str, plural: str | None = None) -> str:
    """`1 component`, `2 components`."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _say_wrapped(text: str, indent: int) -> None:
    """One line to stdout, wrapped at the terminal's width (COLUMNS, else 80); later lines indented."""
    import shutil
    import textwrap

    width = max(40, shutil.get_terminal_size().columns)
    lead = len(text) - len(text.lstrip(" "))
    for line in textwrap.wrap(
        text.strip(" "),
        width=width,
        initial_indent=" " * lead,
        subsequent_indent=" " * indent,
        break_long_words=False,
        break_on_hyphens=False,
    ):
        _say(line)


@_command(summary="Print the JSON Schema of kit.yaml for editor completion")
def schema(
    game: str | None = typer.Option(None, "--game", help="print only this game's section schema"),
) -> None:
    """Print the JSON Schema of a kit spec (kit.yaml) for editor completion."""

    def go() -> None:
        from generator.contract.schema import kit_schema

        _console().print_json(json.dumps(kit_schema(game)))

    _run(go)


@_command(summary="Prove kits legal and balanced by seeded self-play")
def check(
    kits: list[Path] | None = typer.Argument(None, metavar="KIT", help=KIT_HELP),
    games: int | None = typer.Option(
        None,
        "--games",
        callback=_check_games,
        help=f"games per setting, 1..{MAX_GAMES:,} (default: the spec's balance.games)",
    ),
    seed: int | None = typer.Option(
        None, "--seed", callback=_seed, help="run seed, 0..2**63-1 (default: the kit's kit.seed)"
    ),
    workers: int | None = typer.Option(
        None, "--workers", callback=_workers, help="worker processes (default: all cores)"
    ),
    dask: str | None = typer.Option(
        None, "--dask", callback=_dask, help="'local' for a LocalCluster or tcp://host:port of a scheduler"
    ),
    json_path: Path | None = typer.Option(None, "--json", help="write every figure to this JSON file"),
    report: Path | None = typer.Option(None, "--report", help="write a self-contained HTML report"),
    refit: bool = typer.Option(
        False,
        "--refit",
        help="write the spec edit the game proposes from play into kit.yaml (Raindrops: card points)",
    ),
) -> None:
    """Prove kits legal (static checks) and balanced (seeded self-play against the spec's tolerances).

    Each tolerance gets a statistical verdict: HOLDS, FAILS or UNDECIDED; undecided ones get more games (batches
    doubling from --games up to the spec's balance.max_games). Exit 0: every tolerance holds; 1: any fails;
    3: none fails but some are still undecided at the cap."""

    def go() -> None:
        from generator.checking import check_balance, write_reports
        from generator.checking import refit as write_refit
        from generator.pipeline import check_kits, load_kits
        from generator.render.console import print_report

        loaded = load_kits(_kit_paths(kits))
        with _compiling(loaded):  # the static checks may play compiled code too (Raindrops' card difficulty)
            check_kits(loaded)
        run = check_balance(
            loaded,
            games=games,
            seed=seed,
            workers=workers,
            dask=dask,
            switches=report is not None,
            progress=lambda label: _progress(None, label),
            totals=_console(stderr=True).is_terminal,
            on_report=lambda rep: print_report(rep, _console()),
        )
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


@contextmanager
def _compiling(kits: list[Any]) -> Iterator[None]:
    """Around the first steps of a command that plays games: when numba has not cached the kernels of a kit's
    game yet, say on stderr what is compiled and why before anything is compiled (numba not even imported),
    run the block (the static checks, which may play compiled code) and then a tiny warm-up of each such game
    under a spinner with the time elapsed, and say how long it took (kept as the estimate the next first run
    quotes). Nothing is said when every kernel is cached. A compile means a new pnpkit (or a kernel edit): the
    cache folders of old ones are pruned first."""
    import importlib.util

    from generator.contract import get as game_plugin
    from generator.engine.kernelcache import (
        has_kernels,
        is_cached,
        is_warm,
        last_compile_seconds,
        mark_warm,
        prune,
        record_compile_seconds,
        salted_cache_dir,
        user_cache_dir,
    )

    with_kernels: dict[str, tuple[Any, Path]] = {}  # game id -> (a kit of it, the game's package)
    for kit in kits:
        spec = importlib.util.find_spec(game_plugin(kit.game_id).source)
        if kit.game_id not in with_kernels and spec is not None and spec.origin is not None:
            package = Path(spec.origin).resolve().parent
            if has_kernels(package):
                with_kernels[kit.game_id] = (kit, package)
    # a deck kit has no kernel: neither numba nor the digest of the kernels' sources is needed
    cache_dir = salted_cache_dir() if with_kernels else None
    if cache_dir is None:  # no kernel, or no numba (or PNPKIT_PURE=1): nothing is compiled
        yield
        return
    engine = Path(__file__).resolve().parent / "engine"
    compiled = {
        game_id: (kit, package)
        for game_id, (kit, package) in with_kernels.items()
        if not is_warm(cache_dir, package)
        and not (is_cached(cache_dir, package) and is_cached(cache_dir, engine))
    }
    if not compiled:  # every kernel cached
        yield
        return
    if not user_cache_dir():  # a new pnpkit (or kernel edit) compiles: old versions' folders can go
        prune(cache_dir)
    names = []
    for game_id in compiled:
        plugin = game_plugin(game_id)
        name = plugin.name or plugin.id
        names.append(name)
        last = last_compile_seconds(game_id)
        about = f"about {last:.0f} s as last time" if last else "up to a minute or two"
        sys.stderr.write(f"compiling the {name} engine once ({about}); later runs start in under a second\n")
    sys.stderr.flush()
    from generator.checking import warm_up

    start = time.perf_counter()
    with _spinner(f"compiling the {' and '.join(names)} engine{'s' if len(names) > 1 else ''}"):
        yield
        block = time.perf_counter() - start
        times = dict(warm_up([kit for kit, _ in compiled.values()], games=2, progress=lambda *a, **k: None))
    first = next(iter(compiled.values()))[0].meta.id
    times[first] += block  # what the block compiled counts too
    for (kit, package), name in zip(compiled.values(), names, strict=True):
        record_compile_seconds(kit.game_id, times[kit.meta.id])
        mark_warm(cache_dir, package)
        sys.stderr.write(f"compiled the {name} engine in {times[kit.meta.id]:.1f} s, cached in {cache_dir}\n")


def _compile_first(kits: list[Any]) -> None:
    """`_compiling` around nothing: compile what the kits' games play, if numba has not cached it yet."""
    with _compiling(kits):
        pass


@contextmanager
def _spinner(label: str) -> Iterator[None]:
    """A spinner with the time elapsed on a terminal (stderr); nothing otherwise."""
    if not _is_terminal(stderr=True):
        yield
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=_console(stderr=True),
        transient=True,
    ) as bar:
        bar.add_task(label, total=None)
        yield


@_command("cache", summary="Show or clear the compiled self-play kernels' disk caches")
def kernel_cache(
    clear: bool = typer.Option(False, "--clear", help="remove them all (the next check compiles again)"),
) -> None:
    """Where numba keeps the compiled self-play kernels: one folder per pnpkit version (or kernel edit), with
    its size and age. A new version's first run removes all but the newest few; --clear removes every one."""

    def go() -> None:
        from generator.engine.kernelcache import cache_base, cache_folders, user_cache_dir
        from generator.engine.kernelcache import clear as clear_caches

        if user_cache_dir():
            _say(
                f"NUMBA_CACHE_DIR is set ({os.environ['NUMBA_CACHE_DIR']}): pnpkit neither lists nor clears that "
                f"folder"
            )
            return
        from generator.engine.kernel import source_salt

        current = cache_base() / source_salt()
        if clear:
            gone = clear_caches(current)
            _say(
                f"removed {_count(len(gone), 'kernel cache folder')}, {_megabytes(sum(f.size for f in gone))} "
                f"from {cache_base()}"
            )
            return
        folders = cache_folders(current)
        _say(
            f"{_count(len(folders), 'kernel cache folder')}, {_megabytes(sum(f.size for f in folders))} "
            f"in {cache_base()}"
        )
        now = time.time()
        for f in folders:
            _say(
                f"  {f.path.name}  {_megabytes(f.size):>9}  {_ago(now - f.modified):>12}"
                f"{'  (this pnpkit)' if f.current else ''}"
            )

    _run(go)


def _megabytes(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


def _ago(seconds: float) -> str:
    return "just now" if seconds < 60 else f"{_duration(seconds)} ago"


@_command(summary="Compile the self-play kernels now, so the first check is fast")
def warmup(
    kits: list[Path] | None = typer.Argument(None, metavar="KIT", help=KIT_HELP),
    games: int = typer.Option(
        2, "--games", callback=_at_least(1), help="games per setting in the warm-up run (any number compiles)"
    ),
) -> None:
    """Compile the self-play kernels now (numba caches them on disk), so the first `check` starts at once."""

    def go() -> None:
        from generator.checking import warm_up
        from generator.engine.kernel import HAVE_NUMBA
        from generator.pipeline import check_kits, load_kits

        loaded = load_kits(_kit_paths(kits))
        check_kits(loaded)
        if not HAVE_NUMBA:
            _console().print(
                "numba is not installed (or PNPKIT_PURE=1): the kernels run as plain Python, "
                "nothing to compile; pip install 'pnpkit[fast]' for compiled self-play",
                highlight=False,
                soft_wrap=True,
            )
        with _progress(len(loaded), "compiling the self-play kernels (first run only)") as advance:
            done = list(warm_up(loaded, games=games, progress=advance))
        for name, secs in done:
            _console().print(f"warm: {name} ({secs:.1f} s)", highlight=False)
        if HAVE_NUMBA:
            where = os.environ.get("NUMBA_CACHE_DIR") or "__pycache__ folders beside the sources"
            _console().print(
                f"kernels cached in {where} (later runs load them)", highlight=False, soft_wrap=True
            )

    _run(go)


@_command(summary="Search a kit's parameters until every balance tolerance holds")
def tune(
    kit: Path = typer.Argument(..., metavar="KIT", help="the kit folder or shipped kit id to tune"),
    trials: int | None = typer.Option(
        None,
        "--trials",
        callback=_at_least(1),
        help="trials the study holds when done (default: tune.trials)",
    ),
    seed: int | None = typer.Option(
        None, "--seed", callback=_seed, help="search and proof seed, 0..2**63-1 (default: the kit's kit.seed)"
    ),
    workers: int | None = typer.Option(
        None, "--workers", callback=_workers, help="worker processes (default: all cores)"
    ),
    dask: str | None = typer.Option(
        None, "--dask", callback=_dask, help="'local' for a LocalCluster or tcp://host:port of a scheduler"
    ),
    storage: str | None = typer.Option(
        None, "--storage", help="optuna storage, e.g. sqlite:///tune.db (resumes)"
    ),
    out: Path = typer.Option(
        Path("tuned"), "--out", help="folder for OUT/<kit>-tuned/ and OUT/<kit>-tune.html"
    ),
    param: list[str] | None = typer.Option(
        None, "--param", help="path=lo..hi, path=choice:a,b or path=permutation (replaces tune.params)"
    ),
    target: list[str] | None = typer.Option(
        None, "--target", help="tolerance=value to aim at (replaces tune.targets)"
    ),
) -> None:
    """Search a kit's tunable parameters until every balance tolerance holds (closest to the original), prove the
    best candidates with the full check on a fresh seed stream and write the winner as OUT/<kit>-tuned/."""

    def go() -> None:
        from generator.tune.run import tune as run_tune

        folder = _kit_path(kit)
        # a bad --param/--target is a TuneUsageError (an OptionError): exit 2 like every bad option
        o = run_tune(
            folder,
            params=param or (),
            targets=target or (),
            trials=trials,
            seed=seed,
            workers=workers,
            dask=dask,
            storage=storage,
            out=out,
            console=_console(stderr=True),
        )
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


i18n_app = typer.Typer(
    no_args_is_help=True,
    help="Translation tools: a .pot template of a kit's text ids",
    short_help="Translation tools: a .pot template of a kit's text ids",
)
app.add_typer(i18n_app, name="i18n")


@i18n_app.command("extract")
def i18n_extract(
    kit: Path = typer.Argument(..., help="the kit folder"),
    out: Path = typer.Option(
        Path("output"), "--out", help="output folder: writes OUT/<kit>/<kit>.pot and OUT/<kit>/pot-pictures/"
    ),
    pictures: bool = typer.Option(
        True,
        "--pictures/--no-pictures",
        help="a cropped picture per entry: the face, or a band of the sheet, it prints on",
    ),
) -> None:
    """Write a gettext template (.pot) of the kit's text ids: each entry gives the English text, its variables
    and where it prints (component, face) as #. comments, and a picture of it in context, for a translator
    starting a new language."""

    def go() -> None:
        import shutil
        import tempfile

        from generator.pipeline import check_kits, check_out, load_kits
        from generator.pipeline.extract import PICTURES, extract, to_pot, write_pictures

        check_out(out)
        if not kit.exists():
            _fail(f"{kit}: no such kit folder")
        (loaded,) = load_kits([kit])
        check_kits([loaded])
        entries = extract(loaded)
        folder = out / loaded.meta.id
        folder.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=".pnpkit-extract-", dir=folder))
        try:  # everything is made in a stage and moved in at the end: never a half-written template
            if pictures:
                write_pictures(entries, stage / PICTURES, fonts=loaded.fonts)
            target = folder / f"{loaded.meta.id}.pot"
            (stage / target.name).write_text(to_pot(loaded, entries, PICTURES), encoding="utf-8")
            if (folder / PICTURES).exists():
                os.replace(folder / PICTURES, stage / "old")
            if pictures:
                os.replace(stage / PICTURES, folder / PICTURES)
            os.replace(stage / target.name, target)
        finally:
            shutil.rmtree(stage, ignore_errors=True)
        placed = sum(1 for e in entries if e.places)
        drawn = (
            f", {sum(1 for e in entries if e.picture_file)} pictures in {folder / PICTURES}"
            if pictures
            else ""
        )
        _say(f"wrote {target} ({len(entries)} text ids, {placed} placed on a component{drawn})")

    _run(go)


def main() -> None:
    """Console-script entry point."""
    os.environ.setdefault("PYTHONHASHSEED", "0")
    # pydantic looks for plugins (observability hooks) by scanning every installed distribution's entry points
    # when the first model is built: ~30 ms a command, for hooks pnpkit's spec models do not use. A user who
    # wants them sets the variable (to anything, e.g. an empty string) and keeps them.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    install_for_process()  # (again: `python -m generator` installs it before importing this module)
    app(prog_name="pnpkit")  # `python -m generator` is the same command: its usage lines say pnpkit


if __name__ == "__main__":
    main()
