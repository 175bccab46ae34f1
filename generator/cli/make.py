"""The commands that make files from kits -- build, export, i18n extract -- and validate, which runs the
build's checks without writing. Each resolves one `Run` and hands it to the pipeline."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from generator.cli.base import Group, app, command
from generator.cli.options import (
    DPI_RANGE,
    QUALITY_RANGE,
    BuildWorkers,
    DuplexOption,
    Kits,
    Lang,
    Mode,
    PaperOption,
    Seed,
    at_least,
    cores,
    image_format,
    kit_path,
    pod_size,
    run_of,
)
from generator.cli.output import count, progress, say, say_wrapped, timings, warn_all

if TYPE_CHECKING:
    from generator.pipeline import BuildResult, Run


@command(summary="Build the printable PDFs of kits (only what changed is redrawn)", safe_points=True)
def build(
    kits: Kits = None,
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="comma-separated languages, e.g. en,ja (default: all the kit ships)"),
    ] = None,
    paper: PaperOption = None,
    out: Annotated[Path, typer.Option("--out", help="output folder")] = Path("output"),
    seed: Seed = None,
    png: Annotated[
        bool, typer.Option("--png/--no-png", help="also write a PNG preview of each component's first page")
    ] = False,
    mode: Mode = None,
    duplex: DuplexOption = None,
    pdfa: Annotated[
        bool,
        typer.Option(
            "--pdfa",
            help="write PDF/A-2b (sRGB output intent, XMP metadata), checked by pikepdf's PDF/A validator",
        ),
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="draw every component again, even those whose content key is unchanged since the last "
            "build into OUT",
        ),
    ] = False,
    greyscale: Annotated[
        bool,
        typer.Option(
            "--greyscale",
            help="ink-saving print: every colour as the grey of its lightness (symbols carry the suits); "
            "sets print.greyscale",
        ),
    ] = False,
    verbose: Annotated[bool, typer.Option("-v", "--verbose", help="list every file written")] = False,
    warm: Annotated[
        bool,
        typer.Option(
            "--warm",
            help="then compile the kits' engines in the background (pnpkit warmup), so a first check is fast",
        ),
    ] = False,
    workers: BuildWorkers = None,
) -> None:
    """Build the printable PDFs of kits into OUT/<kit>/<lang>/ (incrementally: unchanged components are
    kept)."""
    from generator.pipeline import build_run, check_out

    check_out(out)
    overrides = {"mode": mode, "duplex": duplex, "greyscale": greyscale or None}
    options = dict(out=out, paper=paper, seed=seed, png=png, pdfa=pdfa, force=force)
    run = run_of(kits, lang=lang, print_overrides=overrides, workers=workers or cores(), **options)
    with progress(None, "building") as advance:
        result = build_run(run, progress=advance)
    _report_build(result, verbose=verbose)
    if warm:
        _warm_in_background(run.paths)


def _warm_in_background(paths: Sequence[Path]) -> None:
    """Start `pnpkit warmup` of the kits as a process of its own that outlives this one (its output
    dropped): numba compiles their games' kernels into its cache while the user looks at the PDFs. Only on
    `--warm`: a build plays no game, and compiling costs a minute of CPU that a user who never checks does
    not want."""
    import subprocess
    import sys

    from generator.engine.kernelcache import salted_cache_dir

    if salted_cache_dir() is None:
        say("--warm: numba is not installed (or PNPKIT_PURE=1): there is nothing to compile")
        return
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "warmup", *(str(p.resolve()) for p in paths)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # not stopped by the terminal's Ctrl-C after this command returned
    )
    say(f"compiling the self-play engines in the background (pnpkit warmup, process {proc.pid})")


def _report_build(result: BuildResult, *, verbose: bool) -> None:
    """What a build says: its warnings, each kit's print checklist in short, the files (-v), the totals and
    the kit PDFs."""
    warn_all(result.warnings)
    _report_printing(result)
    if verbose:
        for f in result.files:
            say(str(f))
    say(
        f"{count(len(result.files), 'file')} written ({count(result.rebuilt, 'part')} drawn, "
        f"{result.skipped} unchanged), {count(result.pages, 'page')} in {timings(result.timings)}"
    )
    for pdf in result.outputs:
        if pdf.name.startswith("kit-") and pdf.suffix == ".pdf":
            say(f"kit PDF: {pdf}")


def _report_printing(result: BuildResult) -> None:
    """Each kit's print checklist in short, once: its steps in English (else its first language) wrapped to
    the terminal, the languages whose kit PDFs open with them in their own, and its sheets of paper and ink,
    on one line where every language prints alike."""
    from generator.pipeline import paper_text

    kits: dict[str, list[dict[str, Any]]] = {}
    for note in result.printing:
        kits.setdefault(str(note["kit"]), []).append(note)
    for kit, notes in kits.items():
        langs = [str(n["lang"]) for n in notes]
        shown = next((n for n in notes if n["lang"] == "en"), notes[0])
        if shown["steps"]:
            say(f"{kit}/{shown['lang']}:")
            for step in shown["steps"]:
                say_wrapped(f"  {step}", 5 if step[:1].isdigit() else 2)
            if len(notes) > 1:
                say(f"  (every kit PDF opens with these steps in its language: {', '.join(langs)})")
        sheets = {int(n["sheets"]) for n in notes}
        if len(notes) > 1 and len(sheets) == 1:
            low, high = (f"{f(float(n['ink']) for n in notes):.0%}" for f in (min, max))
            ink = low if low == high else f"{low[:-1]}-{high}"
            each = f"{count(sheets.pop(), 'sheet')} of paper each"
            say_wrapped(f"{kit} ({', '.join(langs)}): {each}, ink on {ink} of the printable area", 2)
        else:
            for n in notes:
                say_wrapped(f"{kit}/{n['lang']}: {paper_text(int(n['sheets']), float(n['ink']))}", 2)


# the options of `export` (each used there only)
Tts = Annotated[
    bool,
    typer.Option("--tts", help="Tabletop Simulator deck sheets, backs, board tiles and <kit>-<lang>.json"),
]
Cards = Annotated[
    bool, typer.Option("--cards", help="one PNG per card face and back with bleed, and manifest.csv")
]
Pages = Annotated[
    bool,
    typer.Option("--pages", help="every page of the build's PDFs as a PNG, in OUT/<kit>/<lang>/pages/"),
]
Showcase = Annotated[
    str | None,
    typer.Option(
        "--showcase",
        metavar="DECK[:ID,ID,...]",
        help="a hand of cards of that deck fanned on one PNG (default: its first 5 "
        "cards), in OUT/<kit>/<lang>/showcase/",
    ),
]
ExportOut = Annotated[
    Path,
    typer.Option("--out", help="output folder: OUT/<kit>/<lang>/tts and OUT/<kit>/<lang>/cards"),
]
Dpi = Annotated[
    int,
    typer.Option(
        "--dpi",
        callback=at_least(*DPI_RANGE),
        help=f"card images: pixels per inch ({DPI_RANGE[0]}..{DPI_RANGE[1]})",
    ),
]
PodSize = Annotated[
    str | None,
    typer.Option(
        "--size",
        callback=pod_size,
        help="card images: a print-on-demand size: The Game Crafter "
        "(tgc-poker, tgc-bridge, tgc-mini, tgc-square), MakePlayingCards (mpc-poker, "
        "mpc-bridge, mpc-mini, mpc-tarot) or DriveThruCards (dtc-poker, dtc-tarot); "
        "default: each deck's own size with the kit's bleed",
    ),
]
BaseUrl = Annotated[
    str | None,
    typer.Option("--base-url", help="TTS: URL prefix of hosted images (default: file:/// URLs)"),
]
ImageFormat = Annotated[str, typer.Option("--format", callback=image_format, help="TTS images: png or jpeg")]
Quality = Annotated[
    int,
    typer.Option(
        "--quality",
        callback=at_least(*QUALITY_RANGE),
        help=f"TTS JPEG quality ({QUALITY_RANGE[0]}..{QUALITY_RANGE[1]})",
    ),
]
RasterWorkers = Annotated[
    int | None,
    typer.Option(
        "--workers",
        callback=at_least(1),
        help="processes composing and rasterising in parallel (default: up to 2; 1 = none)",
    ),
]


@command(summary="Export kits to Tabletop Simulator or print-on-demand card images")
def export(
    kits: Kits = None,
    tts: Tts = False,
    cards: Cards = False,
    pages: Pages = False,
    showcase: Showcase = None,
    lang: Lang = None,
    out: ExportOut = Path("output"),
    seed: Seed = None,
    dpi: Dpi = 300,
    size: PodSize = None,
    base_url: BaseUrl = None,
    fmt: ImageFormat = "png",
    quality: Quality = 90,
    workers: RasterWorkers = None,
) -> None:
    """Export kits beyond paper: Tabletop Simulator decks (--tts), print-on-demand card images (--cards),
    pictures of every page (--pages) and a fanned hand of cards (--showcase)."""
    from generator.export import ExportOptions, export_run

    what = ExportOptions(tts=tts, cards=cards, pages=pages, showcase=showcase)
    options = replace(what, dpi=dpi, size=size, base_url=base_url, fmt=fmt, quality=quality, workers=workers)
    run = run_of(kits, lang=lang, out=out, seed=seed, workers=workers)
    with progress(None, "exporting") as advance:
        result = export_run(run, options, progress=advance)
    warn_all(result.warnings)
    for f in result.files:
        say(str(f))
    images = count(result.cards, "card image")
    say_wrapped(f"{count(len(result.files), 'file')}, {images} in {timings(result.timings)}", 2)


@command(summary="Check specs, catalogs, text fit and glyphs without writing")
def validate(
    kits: Kits = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang", help="comma-separated languages (default: all the kit ships; qps: the pseudo-locale)"
        ),
    ] = None,
    workers: BuildWorkers = None,
) -> None:
    """Everything `build` checks, without writing: the spec and catalogs, the static legal checks, every text
    rendered and fitted to its box in every language (default paper), every character's glyph. Exit 1 if
    any."""
    from generator.pipeline import check_kits, load_run, translation_warnings

    run = load_run(run_of(kits, lang=lang, workers=workers or cores()))
    check_kits(run.kits)
    for k in run.kits:
        run.langs_for(k)  # a language the kit does not ship is a usage error before any work
    warn_all(list(dict.fromkeys(_layout_warnings(run))))
    for k in run.kits:
        warn_all(translation_warnings(k))
        say_wrapped(
            f"{k.display}: ok ({k.game_id}, {count(len(k.components), 'component')}, "
            f"{', '.join(run.langs_for(k))})",
            2,
        )


def _layout_warnings(run: Run) -> list[str]:
    """Compose every kit of a validate run in its languages (texts fitted, glyphs checked; the folders on
    `run.workers` processes): the warnings heard. With the pseudo-locale asked for, every box that would
    overflow is named, not just the first."""
    from generator.errors import Problem, SpecError
    from generator.pipeline import verify_layout
    from generator.pipeline.compose import pseudo_overflows
    from generator.spec.catalogs import PSEUDO

    heard: list[str] = []
    overflows: list[Problem] = []
    if run.langs is not None and PSEUDO in run.langs:
        for k in run.kits:
            found, warnings = pseudo_overflows(k)
            overflows += found
            heard += warnings
    if overflows:
        raise SpecError(overflows)
    rest = None if run.langs is None else [x for x in run.langs if x != PSEUDO]
    if rest is None or rest:
        heard += verify_layout(list(run.kits), langs=rest, workers=run.workers or 1)
    return heard


i18n_app = typer.Typer(
    cls=Group,
    no_args_is_help=True,
    help="Translation tools: a .pot template of a kit's text ids",
    short_help="Translation tools: a .pot template of a kit's text ids",
)
app.add_typer(i18n_app, name="i18n")


@command("extract", summary="Write a .pot template of a kit's text ids for translators", group=i18n_app)
def i18n_extract(
    kit: Annotated[Path, typer.Argument(metavar="KIT", help="the kit folder or shipped kit id")],
    out: Annotated[
        Path,
        typer.Option("--out", help="output folder: writes OUT/<kit>/<kit>.pot and OUT/<kit>/pot-pictures/"),
    ] = Path("output"),
    pictures: Annotated[
        bool,
        typer.Option(
            "--pictures/--no-pictures",
            help="a cropped picture per entry: the face, or a band of the sheet, it prints on",
        ),
    ] = True,
) -> None:
    """Write a gettext template (.pot) of the kit's text ids: each entry gives the English text, its variables
    and where it prints (component, face) as #. comments, and a picture of it in context, for a translator
    starting a new language."""
    from generator.pipeline import Run, check_kits, check_out, load_run
    from generator.pipeline.extract import PICTURES, write_template

    check_out(out)
    run = load_run(Run.of([kit_path(kit)], out=out))
    check_kits(run.kits)
    target, entries = write_template(run.kits[0], out, pictures=pictures)
    placed = sum(1 for e in entries if e.places)
    folder = target.parent / PICTURES
    drawn = f", {count(sum(1 for e in entries if e.picture_file), 'picture')} in {folder}" if pictures else ""
    say(f"wrote {target} ({count(len(entries), 'text id')}, {placed} placed on a component{drawn})")
