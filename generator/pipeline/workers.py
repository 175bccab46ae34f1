"""Independent jobs of one build phase (the parts of one kit/language folder composed, or drawn) on forked
worker processes, so a build of several folders uses every core.

A job is a function of no arguments whose result pickles; the workers are forked after the jobs are made, so
they inherit everything a job reads (the loaded kits, the composed pages, the open staging folder) and send
back only results. Results come back in the jobs' order and are used in that order, so a build's files,
warnings and records are the same on any number of workers. What a job does beside its result stays in the
worker, except the files it read through the kit door, which are added to this process's recording
(generator.spec.paths): the build keys itself on them.

Errors: a job that raises in a worker is run again here, in order, so its own error (type, message) is raised
as a serial build raises it, and the jobs after it are dropped. A job whose result does not come back (it does
not pickle, its worker was killed) runs again here too, as do the later ones no worker had started.

A recorded Ctrl-C / SIGTERM is acted on between results (`checkpoint`); the workers, which inherit the
recording handler, stop at their next safe point."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from generator.interrupts import checkpoint

T = TypeVar("T")

_JOBS: Sequence[Callable[[], Any]] = ()
"""The jobs of the pool being run: set before the workers fork, so each worker finds them by index."""


def can_fork() -> bool:
    """Whether worker processes can be forked here (not on Windows; macOS forks too, as the check's pool
    does)."""
    import multiprocessing as mp

    return "fork" in mp.get_all_start_methods()


def _child(index: int) -> tuple[bool, Any, dict[Any, Any]]:
    """In a worker: (ran, result, the kit files it read); (False, None, {}) when the job raised (it is run
    again in the parent, which raises its error)."""
    from generator.spec.paths import recorded_now, seen_since

    before = recorded_now()
    try:
        value = _JOBS[index]()
    except Exception:
        return False, None, {}
    return True, value, seen_since(before)


def run_jobs(
    jobs: Sequence[Callable[[], T]], workers: int, done: Callable[[int, T], None] | None = None
) -> list[T]:
    """Each job's result, in order; `done(index, result)` as each is taken, in order. On `workers` forked
    processes when there are at least two of each (and fork exists); otherwise here, one after another.
    Of three jobs or more the first runs here before the fork: the workers inherit what it loaded instead of
    each loading it again (a Ripple Rush build in five languages took 1.37x the CPU of one process without
    it, 0.99x with it)."""
    global _JOBS
    forked = workers > 1 and len(jobs) > 1 and can_fork()
    # here: every job, or (forking) the first of three or more, whose loads every worker then inherits
    here = len(jobs) if not forked else 1 if len(jobs) > 2 else 0
    out: list[T] = []
    for i in range(here):
        out.append(jobs[i]())
        if done:
            done(i, out[-1])
    if here == len(jobs):
        return out
    import gc
    import multiprocessing as mp
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    from generator.spec.paths import record_looks

    _JOBS = jobs
    gc.freeze()  # what the workers inherit is never walked by their collector (Python's advice before fork)
    pool = ProcessPoolExecutor(max_workers=min(workers, len(jobs) - here), mp_context=mp.get_context("fork"))
    try:
        futures = {i: pool.submit(_child, i) for i in range(here, len(jobs))}
        for i, future in futures.items():
            while not future.done():
                wait([future], timeout=0.2, return_when=FIRST_COMPLETED)
                checkpoint()  # a safe point while the workers run
            try:
                ran, value, looks = future.result()
            except Exception:  # no result came back: one that does not pickle, a worker killed, a cancel
                ran, value, looks = False, None, {}
            if not ran:
                for later in range(i + 1, len(jobs)):
                    futures[later].cancel()  # those that come back anyway are used; the rest run here too
                value = jobs[i]()  # raises the job's own error here (or, should it pass now, its result)
            else:
                record_looks(looks)
            out.append(value)
            if done:
                done(i, value)
        return out
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        _JOBS = ()
        gc.unfreeze()


__all__ = ["can_fork", "run_jobs"]
