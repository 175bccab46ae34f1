"""The hallway: parses arguments, calls the rooms, turns KitError into a message and exit code 1."""

from __future__ import annotations

import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import typer
from rich.console import Console
from rich.table import Table

from generator.errors import KitError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="pnpkit: print-and-play kits from layout specs, proven legal and balanced by seeded self-play.")
out_console = Console()
err_console = Console(stderr=True)

LANGS = ("en", "ja", "es")
PAPERS = ("a4", "letter", "a3")


def _fail(message: str) -> None:
    sys.stderr.write(f"error: {message}\n")
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
    bad = [v for v in out if v not in LANGS]
    if bad:
        _fail(f"--lang: expected a comma-separated list of {', '.join(LANGS)}; got {', '.join(bad)}")
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


def _run(fn: Callable[[], None]) -> None:
    try:
        fn()
    except KitError as e:
        sys.stderr.write(f"error: {e}\n")
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        raise typer.Exit(130) from None


@app.command()
def build(
    kits: Optional[list[Path]] = typer.Argument(None, help="kit folders (default: every shipped kit)"),
    lang: Optional[str] = typer.Option(None, "--lang", help="comma-separated languages, e.g. en,ja (default: all the kit ships)"),
    paper: Optional[str] = typer.Option(None, "--paper", help="a4 | letter | a3 (default: the kit's print.paper)"),
    out: Path = typer.Option(Path("output"), "--out", help="output folder"),
    seed: Optional[int] = typer.Option(None, "--seed", help="seed for everything random (default: the kit's kit.seed)"),
    png: bool = typer.Option(False, "--png/--no-png", help="also write a PNG preview of each component's first page"),
    mode: Optional[str] = typer.Option(None, "--mode", help="home (N-up sheets) | shop (one card per page with bleed and TrimBox); overrides print.mode"),
    duplex: Optional[str] = typer.Option(None, "--duplex", help="long | short | none; overrides print.duplex"),
) -> None:
    """Build the printable PDFs of kits into OUT/<kit>/<lang>/."""
    def go() -> None:
        from generator.build import build as do_build

        if paper is not None and paper not in PAPERS:
            _fail(f"--paper: expected one of {', '.join(PAPERS)}; got {paper!r}")
        if seed is not None and seed < 0:
            _fail(f"--seed: expected a number >= 0; got {seed}")
        overrides: dict[str, str] = {}
        for name, value, allowed in (("mode", mode, ("home", "shop")), ("duplex", duplex, ("long", "short", "none"))):
            if value is not None:
                if value not in allowed:
                    _fail(f"--{name}: expected one of {', '.join(allowed)}; got {value!r}")
                overrides[name] = value
        paths = _kit_paths(kits)
        with _progress(None, "building") as advance:
            result = do_build(paths, out=out, langs=_langs(lang), paper=paper, seed=seed, png=png, progress=advance,
                              print_overrides=overrides)
        for w in result.warnings:
            sys.stderr.write(f"warning: {w}\n")
        for f in result.files:
            out_console.print(str(f), highlight=False, soft_wrap=True)
        t = result.timings
        out_console.print(f"{len(result.files)} files, {result.pages} pages in {sum(t.values()):.2f} s "
                          f"(load {t['load']:.2f}, check {t['check']:.2f}, compose {t['compose']:.2f}, render {t['render']:.2f})",
                          highlight=False)
    _run(go)


@app.command()
def validate(kits: Optional[list[Path]] = typer.Argument(None, help="kit folders (default: every shipped kit)")) -> None:
    """Load kits and run the static legal checks; print every problem; exit 1 if any."""
    def go() -> None:
        from generator.build import check_kits, load_kits, translation_warnings

        paths = _kit_paths(kits)
        loaded = load_kits(paths)
        check_kits(loaded)
        for k in loaded:
            for w in translation_warnings(k):
                sys.stderr.write(f"warning: {w}\n")
            out_console.print(f"{k.display}: ok ({k.game_id}, {len(k.components)} components, {', '.join(k.meta.languages)})", highlight=False)
    _run(go)


@app.command("list")
def list_kits() -> None:
    """The shipped kits, their components and languages."""
    def go() -> None:
        from generator.build import load_kits, shipped_kits

        table = Table(title="shipped kits")
        for col in ("kit", "game", "components", "languages", "folder"):
            table.add_column(col)
        for k in load_kits(shipped_kits()):
            table.add_row(k.meta.id, k.game_id, ", ".join(c for c, s in k.components.items() if s.enabled),
                          ", ".join(k.meta.languages), str(k.dir))
        out_console.print(table)
    _run(go)


@app.command()
def schema(game: Optional[str] = typer.Option(None, "--game", help="print only this game's section schema")) -> None:
    """Print the JSON Schema of a kit spec (kit.yaml) for editor completion."""
    def go() -> None:
        from generator.spec.schema import kit_schema

        out_console.print_json(json.dumps(kit_schema(game)))
    _run(go)


@app.command()
def check(
    kits: Optional[list[Path]] = typer.Argument(None, help="kit folders (default: every shipped kit)"),
    games: Optional[int] = typer.Option(None, "--games", help="games per setting (default: the spec's balance.games)"),
    seed: Optional[int] = typer.Option(None, "--seed", help="run seed (default: the kit's kit.seed)"),
    workers: Optional[int] = typer.Option(None, "--workers", help="worker processes (default: all cores)"),
    dask: Optional[str] = typer.Option(None, "--dask", help="'local' for a LocalCluster or tcp://host:port of a scheduler"),
    json_path: Optional[Path] = typer.Option(None, "--json", help="write every figure to this JSON file"),
    report: Optional[Path] = typer.Option(None, "--report", help="write a self-contained HTML report"),
    refit: bool = typer.Option(False, "--refit", help="(Raindrops) propose card points from play and write them into the spec"),
) -> None:
    """Prove kits legal (static checks) and balanced (seeded self-play against the spec's tolerances).

    Each tolerance gets a statistical verdict: HOLDS, FAILS or UNDECIDED; undecided ones get more games (batches
    doubling from --games up to the spec's balance.max_games). Exit 0: every tolerance holds; 1: any fails;
    3: none fails but some are still undecided at the cap."""
    def go() -> None:
        from generator.build import check_kits, game_module, load_kits
        from generator.engine.executors import make_executor
        from generator.engine.sequential import CachingExecutor, judge
        from generator.engine.verdict import Verdict
        from generator.render.console import print_report

        if games is not None and games < 1:
            _fail(f"--games: expected a number >= 1; got {games}")
        if workers is not None and workers < 1:
            _fail(f"--workers: expected a number >= 1; got {workers}")
        loaded = load_kits(_kit_paths(kits))
        check_kits(loaded)
        reports = []
        with make_executor(workers, dask) as executor:  # one worker pool for every kit and setting
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

                        rep.switches = switch_effects(mod, k.game, games=max(1, min(first, 400)), seed=s,
                                                      executor=cache, progress=advance)
                        if rep.switches:
                            rep.tables.append(switch_table(rep.switches))
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

            write_html(reports, report, title="pnpkit balance report")
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
    """Write the points proposed from full-game play into kit.yaml (game.memory_cards.points.refit)."""
    from generator.spec.edit import set_value

    proposal = rep.figures.get("full_game", {}).get("refit")
    if kit.game_id != "raindrops" or not proposal:
        raise KitError(f"{kit.display}: --refit needs a game with generated card points and full-game checks "
                       f"(Raindrops with game.balance.play)")
    points = {int(k): int(v) for k, v in proposal["points"].items()}
    set_value(kit.dir / "kit.yaml", ("game", "memory_cards", "points", "refit"), points)
    out_console.print(f"refit: {len(points)} card points written to {kit.display} "
                      f"(deck total change {proposal['total_change']:+.1%})", highlight=False)


def main() -> None:
    """Console-script entry point."""
    os.environ.setdefault("PYTHONHASHSEED", "0")
    app()


if __name__ == "__main__":
    main()
