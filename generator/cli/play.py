"""The commands that play a kit's game: check (legal and balanced by seeded self-play), tune (search its
parameters), warmup and cache (the compiled self-play kernels)."""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from generator.cli.base import Failure, command, fail
from generator.cli.options import (
    Dask,
    Kits,
    RunSeed,
    Workers,
    at_least,
    check_games,
    check_seed,
    run_of,
)
from generator.cli.output import ago, console, count, megabytes, progress, say, say_wrapped, spinner, warn
from generator.errors import OptionError
from generator.spec.choices import MAX_GAMES

if TYPE_CHECKING:
    from rich.console import Console

    from generator.checking import CheckRun
    from generator.engine.kernelcache import CacheFolder
    from generator.pipeline import Run
    from generator.tune.report import TuneResult


@command(summary="Prove kits legal and balanced by seeded self-play")
def check(
    kits: Kits = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            callback=check_games,
            help=f"games per setting, 1..{MAX_GAMES:,} (default: the spec's balance.games)",
        ),
    ] = None,
    seed: RunSeed = None,
    workers: Workers = None,
    dask: Dask = None,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="write every figure to this JSON file (-: standard output)")
    ] = None,
    report: Annotated[
        Path | None, typer.Option("--report", help="write a self-contained HTML report (-: standard output)")
    ] = None,
    refit: Annotated[
        bool,
        typer.Option(
            "--refit",
            help="write the spec edit the game proposes from play into kit.yaml (Raindrops: card points)",
        ),
    ] = False,
) -> None:
    """Prove kits legal (static checks) and balanced (seeded self-play against the spec's tolerances).

    Each tolerance gets a statistical verdict: HOLDS, FAILS or UNDECIDED; undecided ones get more games
    (batches doubling from --games up to the spec's balance.max_games). Exit 0: every tolerance holds; 1: any
    fails; 3: none fails but some are still undecided at the cap."""
    from generator.checking import STDOUT, write_reports
    from generator.checking import refit as write_refit
    from generator.pipeline import check_kits, load_run

    piped = [name for name, path in (("--json", json_path), ("--report", report)) if path == STDOUT]
    if len(piped) > 1:
        raise OptionError("--json - and --report -: only one of them can write to standard output")
    run = load_run(run_of(kits, seed=seed, workers=workers))
    if _needs_compile(list(run.kits)):
        with _compiling(list(run.kits)):  # the static checks may play compiled code too
            check_kits(run.kits)
        static = None
    else:  # kernels cached: the static checks run while the workers play the first batch
        static = partial(check_kits, run.kits)
    # `--json -` (or `--report -`) writes the document to standard output: what people read goes to stderr
    shown = console(stderr=bool(piped))
    checked = _play(run, games=games, dask=dask, switches=report is not None, static=static, shown=shown)
    if refit:
        for k, rep in zip(run.kits, checked.reports, strict=True):
            line = f"refit: {write_refit(k, rep).summary} written to {k.display}"
            shown.print(line, markup=False, highlight=False, soft_wrap=True)
    for path in write_reports(checked, json_path=json_path, html_path=report):
        # whole on its line, however long: a path is copied, never cut
        shown.print(f"wrote {path}", markup=False, highlight=False, soft_wrap=True)
    if checked.exit_code:
        raise Failure(checked.summary(), checked.exit_code)


def _play(
    run: Run,
    *,
    games: int | None,
    dask: str | None,
    switches: bool,
    static: Callable[[], None] | None = None,
    shown: Console | None = None,
) -> CheckRun:
    """The balance check of a run's kits, with a progress bar per kit and each report printed when done;
    `static` (the static checks, when not run yet) runs before any report is seen (`check_balance`)."""
    from generator.checking import check_balance
    from generator.render.console import print_report

    return check_balance(
        run.kits,
        games=games,
        seed=run.seed,
        workers=run.workers,
        dask=dask,
        switches=switches,
        progress=lambda label: progress(None, label),
        totals=console(stderr=True).is_terminal,
        on_report=lambda rep: print_report(rep, shown or console()),
        static=static,
    )


def _needs_compile(kits: list[Any]) -> bool:
    """Whether numba has yet to compile (and cache) the kernels of some kit's game: `_compiling` then says so
    around the static checks, which run first."""
    with_kernels = _kernel_games(kits)
    if not with_kernels:
        return False
    from generator.engine.kernelcache import salted_cache_dir

    cache_dir = salted_cache_dir()
    if cache_dir is None:
        _warn_pure(with_kernels)
        return False
    return bool(_not_cached(with_kernels, cache_dir))


@contextmanager
def _compiling(kits: list[Any]) -> Iterator[None]:
    """Around the first steps of a command that plays games: when numba has not cached the kernels of a
    kit's game yet, say on stderr what is compiled and why before anything is compiled (numba not even
    imported), run the block (the static checks, which may play compiled code: Raindrops' card difficulty)
    and then a tiny warm-up of each such game under a spinner with the time elapsed, and say how long it took
    (kept as the estimate the next first run quotes). Nothing is said when every kernel is cached. A compile
    means a new pnpkit (or a kernel edit): the cache folders of old ones are pruned first."""
    from generator.engine.kernelcache import prune, salted_cache_dir, user_cache_dir

    with_kernels = _kernel_games(kits)
    # a deck kit has no kernel: neither numba nor the digest of the kernels' sources is needed
    cache_dir = salted_cache_dir() if with_kernels else None
    compiled = _not_cached(with_kernels, cache_dir) if cache_dir is not None else {}
    if cache_dir is None or not compiled:  # no kernel, no numba (or PNPKIT_PURE=1), or all cached
        if with_kernels and cache_dir is None:
            _warn_pure(with_kernels)
        yield
        return
    if not user_cache_dir():  # a new pnpkit (or kernel edit) compiles: old versions' folders can go
        prune(cache_dir)
    names = _announce(compiled)
    from generator.checking import start_compiling, warm_up

    start_compiling([kit for kit, _ in compiled.values()])  # helpers compile during the static checks

    start = time.perf_counter()
    with spinner(f"compiling the {' and '.join(names)} engine{'s' if len(names) > 1 else ''}"):
        yield
        block = time.perf_counter() - start
        times = dict(warm_up([kit for kit, _ in compiled.values()], games=2, progress=lambda *a, **k: None))
    first = next(iter(compiled.values()))[0].meta.id
    times[first] += block  # what the block compiled counts too
    _record(compiled, names, times, cache_dir)


def _warn_pure(with_kernels: dict[str, tuple[Any, Path]]) -> None:
    """Say on stderr that a game's self-play runs uncompiled when numba is missing (a user who installed
    pnpkit without the `fast` extra): a check of seconds can take minutes (Ripple Rush) or hours (Rummy
    Cards), and nothing else would say why. PNPKIT_PURE=1 is asked for, so it goes unsaid."""
    if os.environ.get("PNPKIT_PURE") == "1":
        return
    from generator.contract import get as game_plugin

    names = " and ".join(game_plugin(g).name or g for g in with_kernels)
    warn(
        f"numba is not installed, so the self-play of {names} runs as plain Python, 50 to several thousand "
        "times slower: a check of seconds can take minutes or hours (--games N plays fewer); "
        "pip install 'pnpkit[fast]' compiles it"
    )


def _compile_first(kits: list[Any]) -> None:
    """`_compiling` around nothing: compile what the kits' games play, if numba has not cached it yet."""
    with _compiling(kits):
        pass


def _not_cached(with_kernels: dict[str, tuple[Any, Path]], cache_dir: Path) -> dict[str, tuple[Any, Path]]:
    """The games among `with_kernels` whose kernels (or the engine's) numba has not cached yet."""
    from generator.engine.kernelcache import is_cached, is_warm

    engine = Path(__file__).resolve().parents[1] / "engine"
    return {
        game_id: (kit, package)
        for game_id, (kit, package) in with_kernels.items()
        if not is_warm(cache_dir, package)
        and not (is_cached(cache_dir, package) and is_cached(cache_dir, engine))
    }


def _kernel_games(kits: Sequence[Any]) -> dict[str, tuple[Any, Path]]:
    """Game id -> (a kit of it, the game's package) for each game of `kits` that has self-play kernels."""
    import importlib.util

    from generator.contract import get as game_plugin
    from generator.engine.kernelcache import has_kernels

    compiled: dict[str, tuple[Any, Path]] = {}
    for kit in kits:
        spec = importlib.util.find_spec(game_plugin(kit.game_id).source)
        if kit.game_id not in compiled and spec is not None and spec.origin is not None:
            package = Path(spec.origin).resolve().parent
            if has_kernels(package):
                compiled[kit.game_id] = (kit, package)
    return compiled


def _announce(compiled: dict[str, tuple[Any, Path]]) -> list[str]:
    """Say on stderr which engines compile and about how long it takes: the games' names."""
    from generator.contract import get as game_plugin
    from generator.engine.kernelcache import last_compile_seconds

    names = []
    for game_id in compiled:
        plugin = game_plugin(game_id)
        name = plugin.name or plugin.id
        names.append(name)
        last = last_compile_seconds(game_id)
        typical = plugin.compile_seconds
        about = (
            f"about {last:.0f} s as last time"
            if last
            else f"about {typical:.0f} s on a 2-core machine"
            if typical
            else "up to a minute or two"
        )
        sys.stderr.write(f"compiling the {name} engine once ({about}); later runs start in under a second\n")
    sys.stderr.flush()
    return names


def _record(
    compiled: dict[str, tuple[Any, Path]], names: list[str], times: dict[str, float], cache_dir: Path
) -> None:
    """Keep each game's compile time as the next estimate, mark its kernels warm and say how long it took."""
    from generator.engine.kernelcache import mark_warm, record_compile_seconds

    for (kit, package), name in zip(compiled.values(), names, strict=True):
        record_compile_seconds(kit.game_id, times[kit.meta.id])
        mark_warm(cache_dir, package)
        sys.stderr.write(f"compiled the {name} engine in {times[kit.meta.id]:.1f} s, cached in {cache_dir}\n")


@command("cache", summary="Show or clear the compiled self-play kernels' disk caches")
def kernel_cache(
    clear: Annotated[
        bool, typer.Option("--clear", help="remove them all (the next check compiles again)")
    ] = False,
) -> None:
    """Where numba keeps the compiled self-play kernels: one folder per pnpkit version (or kernel edit), with
    its size and age. A new version's first run removes all but the newest few; --clear removes every one."""
    from generator.engine.kernel import source_salt
    from generator.engine.kernelcache import cache_base, cache_folders, user_cache_dir
    from generator.engine.kernelcache import clear as clear_caches

    if clear:  # the notes of what svglib found in SVG art (spec/assets.py) go too: a check draws them again
        shutil.rmtree(cache_base().parent / "svg", ignore_errors=True)
    if user_cache_dir():
        variable = os.environ["NUMBA_CACHE_DIR"]
        say(f"NUMBA_CACHE_DIR is set ({variable}): pnpkit neither lists nor clears that folder")
        return
    current = cache_base() / source_salt()
    folders = clear_caches(current) if clear else cache_folders(current)
    size = megabytes(sum(f.size for f in folders))
    if clear:
        say(f"removed {count(len(folders), 'kernel cache folder')}, {size} from {cache_base()}")
    else:
        say(f"{count(len(folders), 'kernel cache folder')}, {size} in {cache_base()}")
        _list_caches(folders)


def _list_caches(folders: Sequence[CacheFolder]) -> None:
    """One line per kernel cache folder: its name, size and age."""
    now = time.time()
    for f in folders:
        this = "  (this pnpkit)" if f.current else ""
        say(f"  {f.path.name}  {megabytes(f.size):>9}  {ago(now - f.modified):>12}{this}")


@command(summary="Compile the self-play kernels now, so the first check is fast")
def warmup(
    kits: Kits = None,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            callback=at_least(1),
            help="games per setting in the warm-up run (any number compiles)",
        ),
    ] = 2,
) -> None:
    """Compile the self-play kernels now (numba caches them on disk), so the first `check` starts at once."""
    from generator.checking import start_compiling, warm_up
    from generator.engine.kernel import HAVE_NUMBA
    from generator.pipeline import check_kits, load_run

    run = load_run(run_of(kits))
    if HAVE_NUMBA:  # the helpers of each game's compile parts compile while the static checks run
        start_compiling(list(run.kits))
    check_kits(run.kits)
    if not HAVE_NUMBA:
        say(NO_NUMBA)
    with progress(len(run.kits), "compiling the self-play kernels (first run only)") as advance:
        done = list(warm_up(list(run.kits), games=games, progress=advance))
    with_kernels = set(_kernel_games(list(run.kits)))  # game ids
    game_of = {kit.meta.id: kit.game_id for kit in run.kits}
    for name, secs in done:
        if game_of.get(name) in with_kernels:
            say_wrapped(f"warm: {name} ({secs:.1f} s)", 2)
        else:  # a data kit: its checks count, they play no compiled games
            say_wrapped(f"{name}: nothing to compile (its checks play no compiled games)", 2)
    if HAVE_NUMBA and with_kernels:
        where = os.environ.get("NUMBA_CACHE_DIR") or "__pycache__ folders beside the sources"
        say(f"kernels cached in {where} (later runs load them)")


NO_NUMBA = (
    "numba is not installed (or PNPKIT_PURE=1): the kernels run as plain Python, "
    "nothing to compile; pip install 'pnpkit[fast]' for compiled self-play"
)
"""What `warmup` says without numba."""


@command(summary="Search a kit's parameters until every balance tolerance holds", safe_points=True)
def tune(
    kit: Annotated[Path, typer.Argument(metavar="KIT", help="the kit folder or shipped kit id to tune")],
    trials: Annotated[
        int | None,
        typer.Option(
            "--trials", callback=at_least(1), help="trials the study holds when done (default: tune.trials)"
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            callback=check_seed,
            help="search and proof seed, 0..2**63-1 (default: the kit's kit.seed)",
        ),
    ] = None,
    workers: Workers = None,
    dask: Dask = None,
    storage: Annotated[
        str | None, typer.Option("--storage", help="optuna storage, e.g. sqlite:///tune.db (resumes)")
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", help="folder for OUT/<kit>-tuned/ and OUT/<kit>-tune.html")
    ] = Path("tuned"),
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param", help="path=lo..hi, path=choice:a,b or path=permutation (replaces tune.params)"
        ),
    ] = None,
    target: Annotated[
        list[str] | None, typer.Option("--target", help="tolerance=value to aim at (replaces tune.targets)")
    ] = None,
) -> None:
    """Search a kit's tunable parameters until every balance tolerance holds (closest to the original), prove
    the best candidates with the full check on a fresh seed stream and write the winner as
    OUT/<kit>-tuned/."""
    from generator.pipeline import load_run
    from generator.tune.run import tune as run_tune

    run = load_run(run_of([kit], seed=seed, workers=workers))
    # a bad --param/--target is a TuneUsageError (an OptionError): exit 2 like every bad option; once the
    # plan stands, the first run says what it compiles (or that nothing can be), as check does
    o = run_tune(
        run,
        planned=partial(_compile_first, list(run.kits)),
        params=param or (),
        targets=target or (),
        trials=trials,
        dask=dask,
        storage=storage,
        out=out,
        console=console(stderr=True),
    )
    _report_tune(o)


def _report_tune(o: TuneResult) -> None:
    """What `tune` says: the trials, the report, the parameters it changed and the tuned kit (or that none
    passed the proof: exit 1)."""
    played = f"{o.found.played} trials played, {len(o.found.judged)} in the study"
    say_wrapped(f"tune {o.plan.kit.meta.id}: {played} ({o.seconds:.0f} s)", 2)
    say_wrapped(f"wrote {o.report}", 2)
    if o.kit_dir is None:
        fail("no candidate passed the full check; widen the search (--param) or add --trials")
    values = o.winner.values if o.winner else {}
    changed = [p for p, v in values.items() if v != o.plan.original[p]]
    for p in changed:
        say_wrapped(f"  {p}: {o.plan.original[p]} -> {values[p]}", 4)
    if not changed:
        kept = ", ".join(f"{p} {v}" for p, v in o.plan.original.items())
        say_wrapped(f"  no change needed: the kit's own values hold ({kept})", 4)
    say_wrapped(f"wrote {o.kit_dir} (every tolerance holds on the proof stream)", 2)
