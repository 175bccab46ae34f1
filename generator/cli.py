"""The hallway: parses arguments, calls the rooms, turns KitError into a message and exit code 1."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from generator.errors import KitError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="pnpkit: print-and-play kits from layout specs, proven legal and balanced by seeded self-play.")
out_console = Console()
err_console = Console(stderr=True)

PAPERS = ("a4", "letter", "a3")


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
        _fail(f"--lang: expected a comma-separated list of languages such as en,de,pt_BR; got {', '.join(bad)}")
    return out


@contextmanager
def _progress(total: int | None, label: str) -> Iterator[Callable[..., None]]:
    """A rich progress bar on a terminal; silent otherwise."""
    if not err_console.is_terminal:
        yield lambda *a, **k: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err_console, transient=True) as prog:
        task = prog.add_task(label, total=total)

        def advance(step: Any = 1, **_: Any) -> None:
            prog.advance(task, step if isinstance(step, (int, float)) else 1)
            if isinstance(step, str):
                prog.update(task, description=f"{label} {step}")

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
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        raise typer.Exit(130) from None
    except Terminated:
        sys.stderr.write("terminated\n")
        raise typer.Exit(143) from None
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


MAX_SEED = 2**63 - 1
MAX_GAMES = 1_000_000
#: Core-seconds per 1,000 games per setting of the slowest shipped game's default check (Raindrops full games,
#: README "Numbers"); the estimate a refused --games prints is an upper bound.
CORE_SECONDS_PER_1000_GAMES = 45.0


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


def _check_options(games: int | None, seed: int | None, workers: int | None, dask: str | None) -> int | None:
    """Refuse impossible `check` options up front (exit 2, nothing run); returns the worker count to use
    (capped at the cores this process may use, with a warning)."""
    if games is not None:
        if games < 1:
            _usage(f"--games: expected a number >= 1; got {_clip_number(games)}")
        if games > MAX_GAMES:
            cores = min(workers or _cores(), _cores())
            est = min(games, 10**30) / 1000 * CORE_SECONDS_PER_1000_GAMES / max(cores, 1)
            _usage(f"--games: at most {MAX_GAMES:,} games per setting; got {_clip_number(games)} "
                   f"(estimated time: up to {_duration(est)} per setting on {cores} core{'s' if cores != 1 else ''})")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        _usage(f"--seed: expected a whole number in 0..2**63-1 (the same rule as kit.seed); got {_clip_number(seed)}")
    if dask is not None and not dask.strip():
        _usage("--dask: expected 'local' or a scheduler address such as tcp://host:8786; got ''")
    if workers is not None:
        if workers < 1:
            _usage(f"--workers: expected a number >= 1; got {_clip_number(workers)}")
        cores = _cores()
        if workers > cores:
            sys.stderr.write(f"warning: --workers {_clip_number(workers)} is more than the {cores} cores available; using {cores}\n")
            return cores
    return workers


def _clip_number(n: int) -> str:
    text = str(n)
    return text if len(text) <= 24 else f"{text[:6]}...({len(text)} digits)"


def _usage(message: str) -> None:
    """A usage error: the options themselves are wrong (exit 2, like the argument parser's own errors)."""
    sys.stderr.write(f"error: {_clean(message)}\n")
    raise typer.Exit(2)


@app.command()
def build(
    kits: list[Path] | None = typer.Argument(None, help="kit folders (default: every shipped kit)"),
    lang: str | None = typer.Option(None, "--lang", help="comma-separated languages, e.g. en,ja (default: all the kit ships)"),
    paper: str | None = typer.Option(None, "--paper", help="a4 | letter | a3 (default: the kit's print.paper)"),
    out: Path = typer.Option(Path("output"), "--out", help="output folder"),
    seed: int | None = typer.Option(None, "--seed", help="seed for everything random (default: the kit's kit.seed)"),
    png: bool = typer.Option(False, "--png/--no-png", help="also write a PNG preview of each component's first page"),
    mode: str | None = typer.Option(None, "--mode", help="home (N-up sheets) | shop (one card per page with bleed and TrimBox); overrides print.mode"),
    duplex: str | None = typer.Option(None, "--duplex", help="long | short | none; overrides print.duplex"),
    pdfa: bool = typer.Option(False, "--pdfa", help="write PDF/A-2b (sRGB output intent, XMP metadata), checked by pikepdf's PDF/A validator"),
    force: bool = typer.Option(False, "--force", help="draw every component again, even those whose content key is unchanged since the last build into OUT"),
) -> None:
    """Build the printable PDFs of kits into OUT/<kit>/<lang>/ (incrementally: unchanged components are kept)."""
    def go() -> None:
        from generator.build import build as do_build
        from generator.build import check_out

        if paper is not None and paper not in PAPERS:
            _fail(f"--paper: expected one of {', '.join(PAPERS)}; got {_clean(repr(paper))[:80]}")
        if seed is not None and not 0 <= seed <= MAX_SEED:
            _fail(f"--seed: expected a whole number in 0..2**63-1 (the same rule as kit.seed); got {_clip_number(seed)}")
        check_out(out)
        overrides: dict[str, str] = {}
        for name, value, allowed in (("mode", mode, ("home", "shop")), ("duplex", duplex, ("long", "short", "none"))):
            if value is not None:
                if value not in allowed:
                    _fail(f"--{name}: expected one of {', '.join(allowed)}; got {value!r}")
                overrides[name] = value
        paths = _kit_paths(kits)
        with _progress(None, "building") as advance:
            result = do_build(paths, out=out, langs=_langs(lang), paper=paper, seed=seed, png=png, progress=advance,
                              print_overrides=overrides, pdfa=pdfa, force=force)
        for w in result.warnings:
            sys.stderr.write(f"warning: {w}\n")
        for f in result.files:
            out_console.print(str(f), highlight=False, soft_wrap=True)
        t = result.timings
        out_console.print(f"{len(result.files)} files written ({result.rebuilt} parts drawn, {result.skipped} unchanged), "
                          f"{result.pages} pages in {sum(t.values()):.2f} s "
                          f"(load {t['load']:.2f}, check {t['check']:.2f}, compose {t['compose']:.2f}, render {t['render']:.2f})",
                          highlight=False)
    _run(go)


@app.command()
def export(
    kits: list[Path] | None = typer.Argument(None, help="kit folders (default: every shipped kit)"),
    tts: bool = typer.Option(False, "--tts", help="Tabletop Simulator deck sheets, backs, board tiles and <kit>-<lang>.json"),
    cards: bool = typer.Option(False, "--cards", help="one PNG per card face and back with bleed, and manifest.csv"),
    lang: str | None = typer.Option(None, "--lang", help="comma-separated languages (default: all the kit ships)"),
    out: Path = typer.Option(Path("output"), "--out", help="output folder: OUT/<kit>/<lang>/tts and OUT/<kit>/<lang>/cards"),
    seed: int | None = typer.Option(None, "--seed", help="seed for everything random (default: the kit's kit.seed)"),
    dpi: int = typer.Option(300, "--dpi", help="card images: pixels per inch (72..1200)"),
    size: str | None = typer.Option(None, "--size", help="card images: tgc-poker | tgc-bridge | tgc-mini | tgc-square "
                                                             "(default: each deck's own size with the kit's bleed)"),
    base_url: str | None = typer.Option(None, "--base-url", help="TTS: URL prefix of hosted images (default: file:/// URLs)"),
    fmt: str = typer.Option("png", "--format", help="TTS images: png | jpeg"),
    quality: int = typer.Option(90, "--quality", help="TTS JPEG quality (1..100)"),
    workers: int | None = typer.Option(None, "--workers", help="processes rasterising in parallel (default: up to 2; 1 = none)"),
) -> None:
    """Export kits beyond paper: Tabletop Simulator decks (--tts) and print-on-demand card images (--cards)."""
    def go() -> None:
        from generator.exporting import ExportOptions
        from generator.exporting import export as do_export

        if seed is not None and seed < 0:
            _fail(f"--seed: expected a number >= 0; got {seed}")
        if workers is not None and workers < 1:
            _fail(f"--workers: expected a number >= 1; got {workers}")
        options = ExportOptions(tts=tts, cards=cards, dpi=dpi, size=size, base_url=base_url, fmt=fmt, quality=quality,
                                workers=workers)
        paths = _kit_paths(kits)
        with _progress(None, "exporting") as advance:
            result = do_export(paths, out=out, langs=_langs(lang), seed=seed, options=options, progress=advance)
        for w in result.warnings:
            sys.stderr.write(f"warning: {w}\n")
        for f in result.files:
            out_console.print(str(f), highlight=False, soft_wrap=True)
        t = result.timings
        out_console.print(f"{len(result.files)} files, {result.cards} card images in {sum(t.values()):.2f} s "
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
            out_console.print(f"{k.display}: ok ({k.game_id}, {len(k.components)} components, {', '.join(k.meta.languages)})", highlight=False)
    _run(go)


@app.command()
def new(
    name: Path = typer.Argument(..., help="the new kit's folder; its name becomes kit.id (lower-case letters, digits, _)"),
    source: str = typer.Option(..., "--from", help="a shipped kit id (see `pnpkit list`) or a kit folder to copy"),
) -> None:
    """Start a variant: copy a kit to NAME/ (kit.id and title text id renamed, comments kept, README stub),
    validate it and print the next commands. Never overwrites."""
    def go() -> None:
        import shutil

        from generator.build import check_kits, load_kits, verify_layout
        from generator.newkit import new_kit

        made = new_kit(name, source)
        try:
            loaded = load_kits([made.folder])
            check_kits(loaded)
            verify_layout(loaded)
        except KitError:
            shutil.rmtree(made.folder, ignore_errors=True)  # a copy that does not validate is not left behind
            raise
        out_console.print(f"created {made.folder}/ from {made.source} (kit.id {made.kit_id}, title text id "
                          f"{made.title_id}); it validates", highlight=False)
        for f in made.files:
            out_console.print(f"  {f}", highlight=False, soft_wrap=True)
        out_console.print("next:", highlight=False)
        for cmd in (f"pnpkit serve {made.folder}", f"pnpkit validate {made.folder}", f"pnpkit check {made.folder}",
                    f"pnpkit build {made.folder}"):
            out_console.print(f"  {cmd}", highlight=False, soft_wrap=True)
    _run(go)


@app.command()
def serve(
    kit: Path = typer.Argument(..., help="the kit folder to preview"),
    port: int = typer.Option(8000, "--port", help="TCP port"),
    host: str = typer.Option("127.0.0.1", "--host", help="address to bind (default: this machine only)"),
    out: Path = typer.Option(Path("output"), "--out", help="output folder the preview builds into"),
    lang: str | None = typer.Option(None, "--lang", help="language shown first (default: the kit's first)"),
    paper: str | None = typer.Option(None, "--paper", help="a4 | letter | a3 (default: the kit's print.paper)"),
    games: int = typer.Option(200, "--games", help="games per setting the page's 'run check' button starts with"),
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
            _fail(f"--lang: expected a language such as en, de or pt_BR; got {lang!r}")
        if paper is not None and paper not in PAPERS:
            _fail(f"--paper: expected one of {', '.join(PAPERS)}; got {paper!r}")
        if not 1 <= port <= 65535:
            _fail(f"--port: expected a number in 1..65535; got {port}")
        check_games = min(max(games, 1), 100_000)
        run_server(kit, out=out, host=host, port=port, lang=lang, paper=paper, check_games=check_games)
    _run(go)


@app.command("list")
def list_kits() -> None:
    """The shipped kits (components, languages) and every registered game (built in or a plugin)."""
    def go() -> None:
        from generator.build import load_kits, shipped_kits

        table = Table(title="shipped kits")
        for col in ("kit", "game", "components", "languages", "folder"):
            table.add_column(col)
        for k in load_kits(shipped_kits()):
            table.add_row(k.meta.id, k.game_id, ", ".join(c for c, s in k.components.items() if s.enabled),
                          ", ".join(k.meta.languages), str(k.dir))
        out_console.print(table)
        from generator.games.registry import BUILTIN, games

        known = Table(title="registered games (game.kind)")
        for col in ("game", "name", "ruleset", "from"):
            known.add_column(col)
        for gid, plugin in games().items():
            known.add_row(gid, plugin.name or gid, plugin.ruleset,
                          "built in" if gid in BUILTIN else f"plugin ({plugin.spec.partition(':')[0]})")
        out_console.print(known)
    _run(go)


@app.command()
def schema(game: str | None = typer.Option(None, "--game", help="print only this game's section schema")) -> None:
    """Print the JSON Schema of a kit spec (kit.yaml) for editor completion."""
    def go() -> None:
        from generator.spec.schema import kit_schema

        out_console.print_json(json.dumps(kit_schema(game)))
    _run(go)


@app.command()
def check(
    kits: list[Path] | None = typer.Argument(None, help="kit folders (default: every shipped kit)"),
    games: int | None = typer.Option(None, "--games", help="games per setting (default: the spec's balance.games)"),
    seed: int | None = typer.Option(None, "--seed", help="run seed (default: the kit's kit.seed)"),
    workers: int | None = typer.Option(None, "--workers", help="worker processes (default: all cores)"),
    dask: str | None = typer.Option(None, "--dask", help="'local' for a LocalCluster or tcp://host:port of a scheduler"),
    json_path: Path | None = typer.Option(None, "--json", help="write every figure to this JSON file"),
    report: Path | None = typer.Option(None, "--report", help="write a self-contained HTML report"),
    refit: bool = typer.Option(False, "--refit", help="write the spec edit the game proposes from play into kit.yaml (Raindrops: card points)"),
) -> None:
    """Prove kits legal (static checks) and balanced (seeded self-play against the spec's tolerances).

    Each tolerance gets a statistical verdict: HOLDS, FAILS or UNDECIDED; undecided ones get more games (batches
    doubling from --games up to the spec's balance.max_games). Exit 0: every tolerance holds; 1: any fails;
    3: none fails but some are still undecided at the cap."""
    def go() -> None:
        from dataclasses import replace

        from generator.build import check_kits, game_module, load_kits
        from generator.engine.executors import make_executor
        from generator.engine.sequential import CachingExecutor, judge
        from generator.engine.verdict import Verdict
        from generator.render.console import print_report

        n_workers = _check_options(games, seed, workers, dask)
        loaded = load_kits(_kit_paths(kits))
        check_kits(loaded)
        reports: list[Any] = []
        html_reports: dict[int, Any] = {}
        with make_executor(n_workers, dask) as executor:  # one worker pool for every kit and setting
            for k in loaded:
                mod = game_module(k.game_id)
                first = games or _default_games(k)
                cap = max(first, _max_games(k, first))
                s = k.meta.seed if seed is None else seed
                cache = CachingExecutor(executor)
                with _progress(None, f"{k.meta.id}") as advance:
                    def make(budget: Any, mod: Any = mod, k: Any = k, s: int = s, cache: Any = cache,
                             advance: Any = advance) -> Any:
                        return mod.balance_report(k.game, games=budget, seed=s, executor=cache, progress=advance,
                                                  kit=k.meta.id)
                    rep = judge(make, first=first, cap=cap, confidence=_confidence(k), progress=advance)
                    if report:
                        from generator.engine.switches import switch_effects, switch_table

                        # for the HTML report only: the JSON of a seed stays the same with or without --report
                        rows = switch_effects(mod, k.game, games=max(1, min(first, 400)), seed=s, executor=cache,
                                              progress=advance)
                        if rows:
                            html_reports[len(reports)] = replace(rep, tables=rep.tables + [switch_table(rows)],
                                                                 switches=rows)
                reports.append(rep)
                print_report(rep, out_console)
        if refit:
            for k, rep in zip(loaded, reports):
                _refit(k, rep)
        if json_path:
            from generator.render.html_report import write_json

            write_json(reports, json_path)
            out_console.print(f"wrote {json_path}", highlight=False)
        if report:
            from generator.render.html_report import write_html

            write_html([html_reports.get(i, r) for i, r in enumerate(reports)], report, title="pnpkit balance report")
            out_console.print(f"wrote {report}", highlight=False)
        failed = [t for r in reports for t in r.tolerances if t.verdict is Verdict.FAILS]
        if failed:
            sys.stderr.write(f"{len(failed)} balance tolerance{'s' if len(failed) != 1 else ''} failed\n")
            raise typer.Exit(1)
        open_ = [(r, t) for r in reports for t in r.tolerances if t.verdict is Verdict.UNDECIDED]
        if open_:
            need = [t.needed_games for _, t in open_ if t.needed_games]
            more = (f"; the estimates need about {max(need)} games per setting (rerun with --games, or raise "
                    f"balance.max_games)" if need else "; some estimates sit on their bound")
            sys.stderr.write(f"{len(open_)} balance tolerance{'s' if len(open_) != 1 else ''} undecided at "
                             f"balance.max_games{more}\n")
            raise typer.Exit(3)
    _run(go)


@app.command()
def warmup(
    kits: list[Path] | None = typer.Argument(None, help="kit folders (default: every shipped kit)"),
    games: int = typer.Option(2, "--games", help="games per setting in the warm-up run (any number compiles)"),
) -> None:
    """Compile the self-play kernels now (numba caches them on disk), so the first `check` starts at once."""
    def go() -> None:
        import time

        from generator.build import check_kits, game_module, load_kits
        from generator.engine.executors import SerialExecutor
        from generator.engine.kernel import HAVE_NUMBA

        if games < 1:
            _fail(f"--games: expected a number >= 1; got {games}")
        loaded = load_kits(_kit_paths(kits))
        check_kits(loaded)
        if not HAVE_NUMBA:
            out_console.print("numba is not installed (or PNPKIT_PURE=1): the kernels run as plain Python, "
                              "nothing to compile; pip install 'pnpkit[fast]' for compiled self-play",
                              highlight=False, soft_wrap=True)
        done: list[tuple[str, float]] = []
        with _progress(len(loaded), "compiling the self-play kernels (first run only)") as advance:
            for k in loaded:
                t = time.perf_counter()
                # a tiny check plays every kernel the real one will; numba compiles each once and caches it
                game_module(k.game_id).balance_report(k.game, games=games, seed=k.meta.seed,
                                                      executor=SerialExecutor(), kit=k.meta.id)
                done.append((k.meta.id, time.perf_counter() - t))
                advance(k.meta.id)
        for name, secs in done:
            out_console.print(f"warm: {name} ({secs:.1f} s)", highlight=False)
        if HAVE_NUMBA:
            where = os.environ.get("NUMBA_CACHE_DIR") or "__pycache__ folders beside the sources"
            out_console.print(f"kernels cached in {where} (later runs load them)", highlight=False, soft_wrap=True)
    _run(go)


def _max_games(kit: Any, first: int) -> int:
    """Most games per setting (spec's balance.max_games; default 8 x the first batch)."""
    n = getattr(kit.game.balance, "max_games", None)
    return int(n) if isinstance(n, int) else 8 * first


def _confidence(kit: Any) -> float:
    """Family-wise confidence of the verdicts (spec's balance.confidence, default 0.99)."""
    c = getattr(kit.game.balance, "confidence", None)
    return float(c) if isinstance(c, float) else 0.99


def _default_games(kit: Any) -> int:
    """Games per setting from the spec's balance section."""
    n = getattr(kit.game.balance, "games", None)
    if not isinstance(n, int):
        raise KitError(f"{kit.display}: game.balance.games is missing; pass --games N")
    return n


def _refit(kit: Any, rep: Any) -> None:
    """Write the spec edit the game proposes from the check's play into kit.yaml (Raindrops: card points)."""
    from generator.build import game_module
    from generator.spec.edit import set_value

    plugin = game_module(kit.game_id)
    edit = plugin.load("refit")(rep) if plugin.refit else None
    if edit is None:
        raise KitError(f"{kit.display}: --refit needs a game that proposes spec edits from play "
                       f"(e.g. Raindrops with game.balance.play); {plugin.name or plugin.id} proposed none")
    set_value(kit.dir / "kit.yaml", edit.path, edit.value)
    out_console.print(f"refit: {edit.summary} written to {kit.display}", highlight=False)


def main() -> None:
    """Console-script entry point."""
    os.environ.setdefault("PYTHONHASHSEED", "0")
    app()


if __name__ == "__main__":
    main()


@app.command()
def tune(
    kit: Path = typer.Argument(..., help="kit folder to tune"),
    trials: int | None = typer.Option(None, "--trials", help="trials the study holds when done (default: tune.trials)"),
    seed: int | None = typer.Option(None, "--seed", help="search and proof seed (default: the kit's kit.seed)"),
    workers: int | None = typer.Option(None, "--workers", help="worker processes (default: all cores)"),
    dask: str | None = typer.Option(None, "--dask", help="'local' for a LocalCluster or tcp://host:port of a scheduler"),
    storage: str | None = typer.Option(None, "--storage", help="optuna storage, e.g. sqlite:///tune.db (resumes)"),
    out: Path = typer.Option(Path("tuned"), "--out", help="folder for OUT/<kit>-tuned/ and OUT/<kit>-tune.html"),
    param: list[str] | None = typer.Option(None, "--param", help="path=lo..hi, path=choice:a,b or path=permutation (replaces tune.params)"),
    target: list[str] | None = typer.Option(None, "--target", help="tolerance=value to aim at (replaces tune.targets)"),
) -> None:
    """Search a kit's tunable parameters until every balance tolerance holds (closest to the original), prove the
    best candidates with the full check on a fresh seed stream and write the winner as OUT/<kit>-tuned/."""
    def go() -> None:
        from generator.tuning import TuneUsageError
        from generator.tuning import tune as run_tune

        if not kit.exists():
            _fail(f"{kit}: no such kit folder")
        n_workers = _check_options(None, seed, workers, dask)
        try:
            o = run_tune(kit, params=param or (), targets=target or (), trials=trials, seed=seed, workers=n_workers,
                         dask=dask, storage=storage, out=out, console=err_console)
        except TuneUsageError as e:
            _usage(str(e))
        played = f"{o.found.played} trials played, {len(o.found.judged)} in the study"
        out_console.print(f"tune {o.plan.kit.meta.id}: {played} ({o.seconds:.0f} s)", highlight=False)
        out_console.print(f"wrote {o.report}", highlight=False)
        if o.kit_dir is None:
            _fail("no candidate passed the full check; widen the search (--param) or add --trials")
        changed = {p: v for p, v in (o.winner.values if o.winner else {}).items() if v != o.plan.original[p]}
        for p, v in changed.items():
            out_console.print(f"  {p}: {o.plan.original[p]} -> {v}", highlight=False)
        out_console.print(f"wrote {o.kit_dir} (every tolerance holds on the proof stream)", highlight=False)
    _run(go)
