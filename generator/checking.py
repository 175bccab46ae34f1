"""`pnpkit check` beside the build: prove loaded kits balanced by seeded self-play, judged against each spec's
tolerances, and what comes of it (the JSON and HTML reports, the spec edit `--refit` writes, the exit code).

The CLI parses options and prints; everything here works on loaded, checked kits and returns what it found."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from generator.contract import Refit, registry
from generator.engine.report import BalanceReport
from generator.errors import KitError
from generator.spec.kit import Kit

if TYPE_CHECKING:
    from generator.engine.runner import Chunk, Executor, Simulation, Tally
    from generator.engine.sequential import CachingExecutor
    from generator.layout.ops import Page
    from generator.render.report_colours import ColourCheck

Advance = Callable[..., None]
"""A progress callback: advance(step) with a count or a label."""
ProgressFor = Callable[[str], AbstractContextManager[Advance]]
"""Opens a progress display for one kit (the CLI's rich bar; silent elsewhere)."""

EXIT_HOLDS, EXIT_FAILS, EXIT_UNDECIDED = 0, 1, 3
"""The exit codes of `check`: every tolerance holds; any fails; none fails but some are undecided at the
cap."""

SWITCH_GAMES_CAP = 400
"""Games per setting of the house-rule switch table of the HTML report (at most; fewer when --games is
less)."""


@dataclass
class CheckRun:
    """What `check` found: one report per kit, in order, and the exit code with its line for stderr."""

    reports: list[BalanceReport]
    html_reports: list[BalanceReport] = field(default_factory=list)
    """The reports as the HTML report shows them (with the house-rule switch table, when asked for)."""
    colour_checks: list[ColourCheck | None] = field(default_factory=list)
    """Each kit's colour-vision section of the HTML report (when asked for; None for a game without
    colours)."""

    @property
    def exit_code(self) -> int:
        """EXIT_FAILS if any tolerance fails, else EXIT_UNDECIDED if any is undecided, else EXIT_HOLDS."""
        from generator.engine.verdict import Verdict

        verdicts = {t.verdict for r in self.reports for t in r.tolerances}
        if Verdict.FAILS in verdicts:
            return EXIT_FAILS
        return EXIT_UNDECIDED if Verdict.UNDECIDED in verdicts else EXIT_HOLDS

    def summary(self) -> str:
        """The line that explains a non-zero exit code ("" when every tolerance holds)."""
        from generator.engine.verdict import Verdict

        failed = [t for r in self.reports for t in r.tolerances if t.verdict is Verdict.FAILS]
        if failed:
            return f"{len(failed)} balance tolerance{'s' if len(failed) != 1 else ''} failed"
        undecided = [t for r in self.reports for t in r.tolerances if t.verdict is Verdict.UNDECIDED]
        if not undecided:
            return ""
        need = [t.needed_games for t in undecided if t.needed_games]
        more = (
            f"; the estimates need about {max(need)} games per setting (rerun with --games, or raise "
            f"balance.max_games)"
            if need
            else "; some estimates sit on their bound"
        )
        return (
            f"{len(undecided)} balance tolerance{'s' if len(undecided) != 1 else ''} undecided at "
            f"balance.max_games{more}"
        )


def default_games(kit: Kit) -> int:
    """Games per setting of the first look, from the spec's balance section."""
    n = getattr(kit.section.balance, "games", None)
    if not isinstance(n, int):
        raise KitError(f"{kit.display}: game.balance.games is missing; pass --games N")
    return n


def max_games(kit: Kit, first: int) -> int:
    """Most games per setting (the spec's balance.max_games; default 8 x the first batch)."""
    n = getattr(kit.section.balance, "max_games", None)
    return int(n) if isinstance(n, int) else 8 * first


def confidence(kit: Kit) -> float:
    """Family-wise confidence of the verdicts (the spec's balance.confidence, default 0.99)."""
    c = getattr(kit.section.balance, "confidence", None)
    return float(c) if isinstance(c, float) else 0.99


class _DryRun:
    """The executor of a dry run: counts the games the real run would play (the chunks `cache` does not keep
    yet), records every run it is asked for (so a pool can play them all in one submission) and answers every
    chunk with a one-game tally of its simulation, played once per simulation here, so the game can build its
    report and ask for every setting it will play. What the games turn out does not change which chunks a
    report asks for in the shipped games (a game whose later runs depend on earlier results gets a close
    estimate: the bar then stops a little short of, or past, its total, and the real run plays the runs the
    dry run did not foresee)."""

    def __init__(self, cache: CachingExecutor, tallies: dict[str, Tally]):
        self.cache = cache
        self.tallies = tallies
        self.games = 0
        self.jobs: list[tuple[Simulation, Sequence[Chunk], bool]] = []
        """Each run asked for: its simulation, chunks and whether its games move the bar."""

    def map(
        self, sim: Simulation, chunks: Sequence[Chunk], progress: Callable[[int], None] | None = None
    ) -> list[Tally]:
        """Count and record the pending games of `chunks`; a one-game tally for each chunk."""
        from generator.engine.sequential import _sim_key

        self.jobs.append((sim, list(chunks), progress is not None))
        if progress is not None:  # games played without a progress callback never move the bar: not counted
            self.games += sum(c.games for c in self.cache.pending(sim, chunks))
        key = _sim_key(sim)
        if key not in self.tallies and chunks:
            self.tallies[key] = sim.play(chunks[0].seed, 1)
        return [self.tallies[key] for _ in chunks]


def _ignore(*_: object) -> None:
    """The dry run's progress callback: the report passes it on to the runs that move the bar."""


def dry_run(
    build: Callable[[Executor], object], cache: CachingExecutor, tallies: dict[str, Tally]
) -> _DryRun | None:
    """`build(executor)` (a game's report, or the switch table, given a progress callback as the real run
    is) on one-game tallies (`tallies` keeps them per simulation between looks): what it counted and asked
    for. None when the dry run cannot say (a report that cannot be built from one game per simulation)."""
    import warnings
    from contextlib import nullcontext

    from generator.engine.verdict import rough_quantiles

    np = sys.modules.get("numpy")  # a report that plays no games needs no numpy
    dry = _DryRun(cache, tallies)
    try:
        with (
            warnings.catch_warnings(),
            np.errstate(all="ignore") if np is not None else nullcontext(),
            rough_quantiles(),  # its figures are thrown away: scipy loads while the first games play
        ):
            warnings.simplefilter("ignore")
            build(dry)
    except Exception:  # an estimate only: the real run reports any real error
        return None
    return dry


def planned_games(
    build: Callable[[Executor], object], cache: CachingExecutor, tallies: dict[str, Tally]
) -> int | None:
    """How many games `build(executor)` will report to the bar beyond what `cache` keeps (`dry_run`). None
    when the dry run cannot say; the bar then has no total."""
    dry = dry_run(build, cache, tallies)
    return None if dry is None else dry.games


class _Once:
    """A callable that runs `fn` the first time it is called, and does nothing after."""

    def __init__(self, fn: Callable[[], None] | None):
        self.fn = fn

    def __call__(self) -> None:
        fn, self.fn = self.fn, None
        if fn is not None:
            fn()


def _while_first_games(static: Callable[[], None]) -> None:
    """What this process does while the workers play the first games: the static checks, then the import of
    scipy's quantiles, which the report built after those games needs (the dry run before them did not)."""
    from generator.engine.verdict import load_quantiles

    static()
    load_quantiles()


def check_balance(
    kits: Sequence[Kit],
    *,
    games: int | None,
    seed: int | None,
    workers: int | None,
    dask: str | None,
    switches: bool,
    progress: ProgressFor,
    on_report: Callable[[BalanceReport], None] = lambda r: None,
    totals: bool = False,
    static: Callable[[], None] | None = None,
) -> CheckRun:
    """Judge every kit (loaded and statically checked) by sequential self-play: batches double from `games`
    (default: the spec's balance.games) up to balance.max_games while a tolerance is undecided. One worker
    pool serves every kit and setting. `switches` (the HTML report is asked for): also measure each house-rule
    switch and picture a page under each colour-vision simulation for it (the JSON stays the same for a seed
    with or without them). `on_report` sees each report as it is done.
    `totals`: before each batch, count the games it will play (a dry run on one game per simulation) and
    announce them as `advance(label, total=N)`, so the bar shows done/total and the time remaining.
    `static`: the kits' static checks, when the caller has not run them yet: with a process pool they run here
    while the workers play the first batch (two cores busy from the start), else first; either way before any
    report is built or seen, and their error (a SpecError) is what the check raises, as if they ran first."""
    from generator.engine.executors import ProcessExecutor, make_executor

    run = CheckRun([])
    first = _Once(static)
    with make_executor(workers, dask) as executor:
        if isinstance(executor, ProcessExecutor):
            executor.before_wait = lambda: _while_first_games(first)
        else:
            first()
        try:
            for kit in kits:
                with progress(kit.meta.id) as advance:
                    rep, shown = _check_kit(
                        kit,
                        executor,
                        games=games,
                        seed=seed,
                        switches=switches,
                        advance=advance,
                        totals=totals,
                        before_build=first,
                    )
                first()
                run.reports.append(rep)
                run.html_reports.append(shown)
                if switches:  # the HTML report is asked for
                    try:
                        run.colour_checks.append(colour_check(kit, seed))
                    except KitError as e:  # a page that does not compose: the balance verdicts still stand
                        run.colour_checks.append(None)
                        run.html_reports[-1] = replace(
                            shown, notes=[*shown.notes, f"no colour-vision pictures: {e}"]
                        )
                on_report(rep)
        except Exception:
            first()  # a static problem is what the check reports, as when the static checks ran first
            raise
        finally:
            if isinstance(executor, ProcessExecutor):
                executor.before_wait = None
    return run


def _check_kit(
    kit: Kit,
    executor: Executor,
    *,
    games: int | None,
    seed: int | None,
    switches: bool,
    advance: Advance,
    totals: bool,
    before_build: Callable[[], None] = lambda: None,
) -> tuple[BalanceReport, BalanceReport]:
    """One kit's sequential check: its report, and the report as the HTML report shows it. With a process
    pool each batch is a dry run first (one game per simulation) whose runs the pool then plays in one
    submission; `before_build` runs before the first real build (after that submission, if any)."""
    from generator.engine.sequential import Budget, CachingExecutor, judge

    balance_report = registry.get(kit.game_id).load.balance_report()
    first = games or default_games(kit)
    cap = max(first, max_games(kit, first))
    from generator.pipeline.load import kit_seed

    run_seed = kit_seed(kit, seed)
    cache = CachingExecutor(executor)
    tallies: dict[str, Tally] = {}
    look = [""]

    prefetch = cache.can_prefetch() and _plays_kernels(kit)  # a deck's exact draws play no games

    def prepare(label: str, build: Callable[[Executor], object]) -> None:
        dry = dry_run(build, cache, tallies) if totals or prefetch else None
        if totals and dry is not None:
            advance(label, total=dry.games)
        else:
            advance(label)
        if dry is not None and prefetch:
            cache.prefetch(dry.jobs, advance)
        before_build()

    def make(budget: Budget) -> BalanceReport:
        prepare(
            look[0],
            lambda ex: balance_report(
                kit.game,
                games=Budget(budget.default, dict(budget.per_setting)),
                seed=run_seed,
                executor=ex,
                kit=kit.meta.id,
                progress=_ignore,
            ),
        )
        return balance_report(
            kit.game, games=budget, seed=run_seed, executor=cache, progress=advance, kit=kit.meta.id
        )

    def name_look(text: str) -> None:
        look[0] = text

    rep = judge(make, first=first, cap=cap, confidence=confidence(kit), progress=name_look)
    if not rep.ok and not rep.fixes:
        rep.fixes.extend(tune_hint(kit, rep))
    shown = rep
    if switches:
        from generator.engine.switches import switch_effects, switch_table

        switch_games = max(1, min(first, SWITCH_GAMES_CAP))
        prepare(
            "house-rule switches",
            lambda ex: switch_effects(
                balance_report, kit.game, games=switch_games, seed=run_seed, executor=ex, progress=_ignore
            ),
        )
        rows = switch_effects(
            balance_report, kit.game, games=switch_games, seed=run_seed, executor=cache, progress=advance
        )
        if rows:
            shown = replace(rep, tables=rep.tables + [switch_table(rows)], switches=rows)
    from generator.spec.colours import colour_notes

    shown = replace(shown, notes=[*shown.notes, *colour_notes(kit)])  # the designers' report only
    return rep, shown


def _plays_kernels(kit: Kit) -> bool:
    """Whether the kit's game has compiled self-play kernels (its report plays games in the pool)."""
    import importlib.util

    from generator.engine.kernelcache import has_kernels

    spec = importlib.util.find_spec(registry.get(kit.game_id).source)
    return spec is not None and spec.origin is not None and has_kernels(Path(spec.origin).resolve().parent)


def colour_check(kit: Kit, seed: int | None = None) -> ColourCheck | None:
    """The colour-vision section of the HTML report for `kit`, in the kit's first language: the faces that
    carry the game's suit/colour swatches, one per colour where faces of one colour exist (a card front of
    each suit, not a back that shows them all; render/report_colours.py picks them), else the first page that
    prints the most swatches, pictured as printed and under each simulation, with the pair table. None when
    the game names no colours a player must tell apart. Components are composed one at a time, only until a
    face of each colour alone is found."""
    from generator.contract.compose import compose_kit, template_context
    from generator.i18n.texts import Texts
    from generator.layout.compose import Context
    from generator.pipeline.compose import kit_measure, print_data
    from generator.pipeline.load import kit_seed, with_tool_catalogs
    from generator.render.fonts import text_width
    from generator.render.report_colours import colour_check as check_page
    from generator.render.report_colours import faces_check, palette_colours, pick_faces, swatch_faces
    from generator.spec.colours import palette

    order = [s.hex.lower() for s in palette(kit.section)[1]]
    swatches = set(order)
    if len(swatches) < 2:
        return None
    run_seed = kit_seed(kit, seed)
    lang = kit.meta.languages[0]
    extras = print_data(kit, run_seed)
    texts = Texts(lang, with_tool_catalogs(kit), template_context(kit, extras), warn=lambda w: None)
    measure = kit_measure(kit, text_width)
    best: tuple[int, str, int, Page] | None = None
    faces = []
    for cid in kit.components:
        ctx = Context(
            kit, lang, texts, measure, kit.print.paper, run_seed, kit.print, extras, only=frozenset([cid])
        )
        for comp in compose_kit(ctx):
            faces += swatch_faces(comp.title, comp.pages, order)
            for i, page in enumerate(comp.pages):
                found = len(swatches & set(palette_colours(page.ops)))
                if best is None or found > best[0]:
                    best = (found, comp.title, i + 1, page)
        if swatches <= {next(iter(f.swatches)) for f in faces if len(f.swatches) == 1}:
            break
    picked = pick_faces(faces, order)
    if picked:
        return faces_check(
            picked, lang=lang, game=kit.section, safety=kit.style.colour_safety, fonts=kit.fonts
        )
    if best is None or best[0] == 0:
        return None
    _, title, number, page = best
    return check_page(
        page,
        component=title,
        page_number=number,
        lang=lang,
        game=kit.section,
        safety=kit.style.colour_safety,
        fonts=kit.fonts,
    )


def tune_hint(kit: Kit, report: BalanceReport) -> list[str]:
    """The line of `BalanceReport.fixes` for a kit with a failing tolerance whose game has tunable parameters
    and says nothing itself: `pnpkit tune` searches them for the edit closest to the kit's own values under
    which every tolerance holds. None for a kit none of whose tolerances fails, or a game with no tunable."""
    from generator.engine.verdict import Verdict

    tunables = registry.get(kit.game_id).load.tunables()
    if not tunables or not any(t.verdict is Verdict.FAILS for t in report.tolerances):
        return []
    paths = ", ".join(t.path for t in tunables[:4]) + (", ..." if len(tunables) > 4 else "")
    folder = str(Path(kit.display).parent) if kit.display.endswith("kit.yaml") else kit.display
    return [
        f"what would fix it: `pnpkit tune {folder}` searches the game's tunable parameters ({paths}) "
        "for the edit closest to the kit's own values under which every tolerance holds, proves it on "
        "fresh games and writes a tuned copy of the kit"
    ]


def refit(kit: Kit, report: BalanceReport) -> Refit:
    """Write the spec edit the game proposes from the check's play into the kit's kit.yaml (Raindrops: card
    points) and return it; a KitError when the game proposes none."""
    from generator.spec.edit import set_value

    plugin = registry.get(kit.game_id)
    propose = plugin.load.refit()
    edit = propose(report) if propose is not None else None
    if edit is None:
        raise KitError(
            f"{kit.display}: --refit needs a game that proposes spec edits from play "
            f"(e.g. Raindrops with game.balance.play); {plugin.name or plugin.id} proposed none"
        )
    set_value(kit.dir / "kit.yaml", edit.path, edit.value)
    return edit


STDOUT = Path("-")
"""`--json -`, `--report -`: the document goes to standard output instead of a file."""


def write_reports(run: CheckRun, *, json_path: Path | None, html_path: Path | None) -> list[Path]:
    """The JSON of every figure and the self-contained HTML report, each where asked (`-`: to standard
    output); the files written."""
    from generator.render.html_report import to_html, to_json_text, write_html, write_json

    title = "pnpkit balance report"
    written = []
    if json_path == STDOUT:
        _to_stdout(to_json_text(run.reports))
    elif json_path:
        write_json(run.reports, json_path)
        written.append(json_path)
    if html_path == STDOUT:
        _to_stdout(to_html(run.html_reports, title=title, colours=run.colour_checks))
    elif html_path:
        write_html(run.html_reports, html_path, title=title, colours=run.colour_checks)
        written.append(html_path)
    return written


def _to_stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def start_compiling(kits: Sequence[Kit]) -> None:
    """Start the helper processes of each kit's compile parts now (`kernel.start_parts`), so that they compile
    during the static checks; `warm_up` then waits for them."""
    for kit in kits:
        report = registry.get(kit.game_id).load.balance_report()
        kernel = sys.modules.get("generator.engine.kernel")  # imported by a game with compiled kernels only
        if kernel is not None:
            kernel.start_parts(report.__module__.rpartition(".")[0])


def warm_up(kits: Sequence[Kit], *, games: int, progress: Advance) -> Iterator[tuple[str, float]]:
    """Compile the self-play kernels of every kit now (numba caches them on disk): a tiny check plays every
    kernel the real one will. Yields each kit id and the seconds it took."""
    from generator.engine.executors import SerialExecutor

    for kit in kits:
        start = time.perf_counter()
        report = registry.get(kit.game_id).load.balance_report()
        kernel = sys.modules.get("generator.engine.kernel")  # imported by a game with compiled kernels only
        if kernel is not None:  # its parts that compile apart, on two cores at once (the play loads them)
            kernel.compile_parts(report.__module__.rpartition(".")[0])
        report(kit.game, games=games, seed=kit.meta.seed, executor=SerialExecutor(), kit=kit.meta.id)
        progress(kit.meta.id)
        yield kit.meta.id, time.perf_counter() - start


__all__ = [
    "EXIT_FAILS",
    "EXIT_HOLDS",
    "EXIT_UNDECIDED",
    "CheckRun",
    "check_balance",
    "confidence",
    "default_games",
    "dry_run",
    "max_games",
    "planned_games",
    "refit",
    "start_compiling",
    "warm_up",
    "write_reports",
]
