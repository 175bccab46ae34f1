"""`pnpkit check` beside the build: its progress bar counts games against the total of each batch."""

from __future__ import annotations

import io
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from generator.checking import check_balance
from generator.pipeline import check_kits, load_kits
from generator.render.console import new_progress, progress_for

ROOT = Path(__file__).resolve().parents[1]
RR = ROOT / "layouts" / "ripple_rush"


def small_kit(tmp_path: Path, max_games: int) -> Path:
    kit = tmp_path / "rr"
    shutil.copytree(RR, kit)
    y = kit / "kit.yaml"
    text = y.read_text(encoding="utf-8")
    start = text.index("    max_games:")
    y.write_text(
        text[:start] + f"    max_games: {max_games}" + text[text.index("\n", start) :], encoding="utf-8"
    )
    return kit


def test_the_bar_has_done_total_elapsed_and_time_remaining_columns() -> None:
    """Issue 26 item 7: "progress shows totals and an ETA"."""
    from rich.progress import MofNCompleteColumn, TimeRemainingColumn

    kinds = {type(c) for c in new_progress(Console(file=io.StringIO())).columns}
    assert MofNCompleteColumn in kinds and TimeRemainingColumn in kinds
    # at 80 columns a long description gives way; the counts and the ETA stay whole
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=80, color_system=None)
    with new_progress(console) as bar:
        task = bar.add_task("ripple_rush_copy batch 1/3 (2000 games per setting)", total=19000)
        bar.advance(task, 1600)
        bar.refresh()
    frames = [f.split("\n")[0] for f in buf.getvalue().replace("\x1b[2K", "\r").split("\r") if "ETA" in f]
    assert any("1600/19000" in f for f in frames) and all(len(f) <= 80 for f in frames), frames


def test_check_announces_each_batch_total_and_counts_up_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before each batch the check counts the games it will play (a dry run: chunks the cache keeps are not
    counted again) and the bar restarts at 0 of that total; the games played add up to it exactly. On a
    terminal the bar shows "done/total" and the time remaining."""
    kits = load_kits([small_kit(tmp_path, max_games=80)])
    check_kits(kits)
    # the live bar wraps sys.stdout in a proxy; numba may set colorama up meanwhile, which keeps that stdout
    # for an exit handler: give it one that stays open after pytest closes its capture
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=140, color_system=None)
    calls: list[tuple[Any, int | None]] = []

    @contextmanager
    def progress(label: str) -> Iterator[Callable[..., None]]:
        with progress_for(console, None, label) as advance:

            def spy(step: Any = 1, *, total: int | None = None) -> None:
                calls.append((step, total))
                advance(step, total=total)

            yield spy

    run = check_balance(
        kits, games=40, seed=3, workers=1, dask=None, switches=True, progress=progress, totals=True
    )
    assert run.reports[0].looks  # it played
    phases: list[tuple[str, int, int]] = []
    for step, total in calls:
        if total is not None:
            phases.append((step, total, 0))
        else:
            assert isinstance(step, int) and phases, (step, calls[:3])  # games only, after a total
            label, n, done = phases[-1]
            phases[-1] = (label, n, done + step)
    looks = run.reports[0].looks
    assert [label for label, _, _ in phases] == [
        f"batch {k + 1}/2 ({n} games per setting)" for k, n in enumerate(looks)
    ] + ["house-rule switches"]
    assert all(n == done and n > 0 for _, n, done in phases), phases
    out = buf.getvalue()
    # the bar draws on a timer, so only its last state is sure to be drawn: the last phase's full count
    last_total = phases[-1][1]
    assert f"{last_total}/{last_total}" in out and "ETA" in out


def test_without_totals_the_check_plays_no_dry_run(tmp_path: Path) -> None:
    """Off a terminal (totals=False) nothing is counted ahead: the labels pass through as before."""
    kits = load_kits([small_kit(tmp_path, max_games=40)])
    calls: list[tuple[Any, int | None]] = []

    @contextmanager
    def progress(label: str) -> Iterator[Callable[..., None]]:
        yield lambda step=1, *, total=None: calls.append((step, total))

    check_balance(kits, games=40, seed=3, workers=1, dask=None, switches=False, progress=progress)
    assert calls[0] == ("batch 1/1 (40 games per setting)", None) and all(t is None for _, t in calls)


@contextmanager
def _silent(label: str) -> Iterator[Callable[..., None]]:
    yield lambda *a, **k: None


def test_the_static_checks_run_while_the_pool_plays_the_first_batch_and_before_any_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 38: with a process pool the static checks run in this process after the first batch went to the
    workers (two cores busy from the start), once, and before any report is seen; then scipy's quantiles
    are loaded, still while the workers play (the dry run before the batch took rough ones); the reports are
    the ones a check with the static checks first, or with one worker, gives."""
    import multiprocessing as mp

    from generator.engine import verdict

    kits = load_kits([small_kit(tmp_path, max_games=80)])
    events: list[tuple[str, int]] = []
    before = {p.pid for p in mp.active_children()}  # pools other tests left behind

    def static() -> None:
        events.append(("static", len({p.pid for p in mp.active_children()} - before)))
        check_kits(kits)

    monkeypatch.setattr(
        verdict,
        "load_quantiles",
        lambda: events.append(("quantiles", len({p.pid for p in mp.active_children()} - before))),
    )

    def report(rep: Any) -> None:
        events.append(("report", len(rep.looks)))

    run = check_balance(
        kits,
        games=40,
        seed=3,
        workers=2,
        dask=None,
        switches=False,
        progress=_silent,
        on_report=report,
        static=static,
    )
    looks = len(run.reports[0].looks)
    assert events == [("static", 2), ("quantiles", 2), ("report", looks)]  # the workers were forked
    alone = check_balance(kits, games=40, seed=3, workers=1, dask=None, switches=False, progress=_silent)
    assert [r.to_json() for r in run.reports] == [r.to_json() for r in alone.reports]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_static_problem_is_what_the_check_raises_and_no_report_is_seen(
    tmp_path: Path, workers: int
) -> None:
    """The static checks' SpecError ends the check as when they ran first: no report, the same error."""
    from generator.errors import Problem, SpecError

    kits = load_kits([small_kit(tmp_path, max_games=80)])
    problem = Problem("kit.yaml", 3, "game.decks", "expected a deck; got 'x'")

    def static() -> None:
        raise SpecError([problem])

    reports: list[Any] = []
    with pytest.raises(SpecError) as info:
        check_balance(
            kits,
            games=40,
            seed=3,
            workers=workers,
            dask=None,
            switches=False,
            progress=_silent,
            on_report=reports.append,
            static=static,
        )
    assert info.value.problems == (problem,) and reports == []


def test_a_failing_kit_with_tunables_points_at_tune_and_a_holding_one_does_not(tmp_path: Path) -> None:
    """What would fix it, for a simulated game: its tunable parameters, searched by `pnpkit tune`; the line
    names the kit's folder and parameters. A kit whose tolerances hold gets no such line."""
    import json

    from tests.clirun import pnpkit
    from tests.kitcopy import copy_ripple_rush, edit

    kit = copy_ripple_rush(tmp_path)
    edit(kit / "kit.yaml", "    unplaceable_share: {max: 0.30}", "    unplaceable_share: {max: 0.05}")
    out = tmp_path / "r.json"
    r = pnpkit("check", "ripple_rush", "--games", "200", "--workers", "1", "--json", str(out), cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    (fix,) = json.loads(out.read_text(encoding="utf-8"))["reports"][0]["fixes"]
    assert fix.startswith("what would fix it: `pnpkit tune ripple_rush` searches the game's tunable") and (
        "game.goals.points" in fix
    ), fix
    assert "what would fix it: `pnpkit tune ripple_rush`" in r.stdout.replace("\n  ", " ")
    html = tmp_path / "r.html"
    r = pnpkit(
        "check", "ripple_rush", "--games", "200", "--workers", "1", "--report", str(html), cwd=tmp_path
    )
    assert "<p>Or `pnpkit tune ripple_rush` searches the game&#39;s tunable parameters" in html.read_text()
    edit(kit / "kit.yaml", "    unplaceable_share: {max: 0.05}", "    unplaceable_share: {max: 0.30}")
    r = pnpkit("check", "ripple_rush", "--games", "200", "--workers", "1", "--json", str(out), cwd=tmp_path)
    assert "fixes" not in json.loads(out.read_text(encoding="utf-8"))["reports"][0] and "tune" not in r.stdout
