"""`pnpkit tune`: the whole command, plan -> search -> proof -> tuned kit -> report."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from generator.engine.sequential import CachingExecutor
from generator.pipeline import Run
from generator.tune.edit import write_tuned
from generator.tune.plan import make_plan
from generator.tune.proof import proof_order, prove
from generator.tune.report import TuneResult, effects, report_data
from generator.tune.search import search


@contextmanager
def progress_bar(console: Any) -> Iterator[Callable[[int, int, str], None]]:
    """A rich progress bar with ETA on a terminal; silent otherwise."""
    if console is None or not console.is_terminal:
        yield lambda done, total, what: None
        return
    from generator.render.console import new_progress

    with new_progress(console) as prog:
        tasks: dict[str, Any] = {}

        def update(done: int, total: int, what: str) -> None:
            phase = "proof" if what.startswith("proof") else "search"
            if phase not in tasks:
                tasks[phase] = prog.add_task(what, total=total)
            prog.update(tasks[phase], completed=done, total=total, description=what)

        yield update


def tune(
    run: Run,
    *,
    params: Sequence[str] = (),
    targets: Sequence[str] = (),
    trials: int | None = None,
    dask: str | None = None,
    storage: str | None = None,
    out: Path = Path("tuned"),
    console: Any = None,
    planned: Callable[[], None] | None = None,
) -> TuneResult:
    """The whole tune of a run's one loaded kit (`load_run`), at its seed and workers: plan, search, proof,
    the tuned kit and the report (see the module docstring). `planned` runs once the plan is made, before the
    first game (the command line's compile notice: a bad --param is refused before anything compiles)."""
    from generator.engine.executors import make_executor
    from generator.render.tune_report import write_tune_report

    t0 = time.perf_counter()
    plan = make_plan(run, params=params, targets=targets, trials=trials)
    if planned is not None:
        planned()
    with make_executor(run.workers, dask) as executor, progress_bar(console) as progress:
        try:
            found = search(plan, executor, storage=storage, progress=progress)
        except KeyboardInterrupt:
            if console is not None:
                kept = (
                    f"the finished trials are kept in {storage}: run the same command to continue"
                    if storage
                    else "nothing is kept (no --storage): pass --storage sqlite:///FILE to resume"
                )
                console.print(f"tune interrupted: {kept}", highlight=False, soft_wrap=True, markup=False)
            raise
        original, proven = prove(plan, proof_order(plan, found), executor, progress)
        winner = next((p for p in proven if p.holds), None)
        if winner is None and original.holds:
            winner = original
        eff = effects(plan, winner.values, CachingExecutor(executor)) if winner is not None else []
    kit_dir = write_tuned(plan, winner.values, out, winner.budget) if winner is not None else None
    report = out / f"{plan.kit.dir.name}-tune.html"
    out.mkdir(parents=True, exist_ok=True)
    outcome = TuneResult(
        plan, found, original, proven, winner, kit_dir, report, eff, time.perf_counter() - t0
    )
    write_tune_report(report, report_data(outcome))
    return outcome
