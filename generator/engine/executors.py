"""Where chunks run: in this process, in a process pool, or on a Dask cluster (optional extra)."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from generator.errors import KitError
from generator.interrupts import checkpoint

if TYPE_CHECKING:  # the runner (and numpy) and the process pool load when a game is played
    from concurrent.futures import ProcessPoolExecutor

    from generator.engine.runner import Chunk, Simulation, Tally

Job = tuple["Simulation", Sequence["Chunk"]]
"""One run for `map_many`: a simulation and the chunks to play."""


def _check_workers(workers: int | None, option: str = "--workers") -> None:
    if workers is not None and workers < 0:
        raise KitError(
            f"{option}: expected a number of workers >= 1 (0 or none = one per core); got {workers}"
        )


class SerialExecutor:
    """Plays every chunk in this process, in order."""

    def __enter__(self) -> SerialExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Nothing to release."""

    def map(
        self, sim: Simulation, chunks: Sequence[Chunk], progress: Callable[[int], None] | None = None
    ) -> list[Tally]:
        """Play chunks one after another (a safe point for a signal before each: `interrupts.checkpoint`)."""
        from generator.engine import runner

        out = []
        for c in chunks:
            checkpoint()
            out.append(runner.play_chunk(sim, c))
            if progress:
                progress(c.games)
        return out


class ProcessExecutor:
    """Plays chunks in a pool of worker processes; results are reordered by chunk index.

    The pool lives until `close()` (or the end of a `with` block), so a check that runs many settings pays
    the worker start-up once. Before the pool is forked this process plays one throwaway game of each run
    it is first given (not in any result): the workers then inherit the loaded (compiled) kernels instead of
    each loading them again, and every chunk goes to the workers. (It used to play the whole first chunk
    here: on a run of two or three chunks one worker then idled through most of it; issue 16.) Where a chunk
    runs never changes its result."""

    def __init__(self, workers: int | None = None):
        _check_workers(workers)
        self.workers = workers or os.cpu_count() or 1
        self._pool: ProcessPoolExecutor | None = None
        self.before_wait: Callable[[], None] | None = None
        """Run once in this process right after the next submission to the pool, while the workers play
        (a check's static checks); its error ends that run."""

    def __enter__(self) -> ProcessExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Shut the worker pool down (and let the collector see what was frozen for it again)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
            gc.unfreeze()

    def map(
        self, sim: Simulation, chunks: Sequence[Chunk], progress: Callable[[int], None] | None = None
    ) -> list[Tally]:
        """Play chunks across processes."""
        if self.workers <= 1 or len(chunks) <= 1:
            return SerialExecutor().map(sim, chunks, progress)
        return self.map_many([(sim, chunks)], None if progress is None else lambda _, games: progress(games))[
            0
        ]

    def map_many(
        self, jobs: Sequence[Job], progress: Callable[[int, int], None] | None = None
    ) -> list[list[Tally]]:
        """Play the chunks of several runs (each a simulation and its chunks) in one submission: the workers
        go from one run's chunks to the next without waiting for the parent between runs. Each run's tallies
        in chunk order; progress(run index, games) as chunks finish. Before the pool is forked, one throwaway
        game of each run's simulation loads every kernel the runs play, so no worker loads one again."""
        from concurrent.futures import ProcessPoolExecutor, as_completed
        from concurrent.futures.process import BrokenProcessPool

        from generator.engine import runner

        jobs = [(sim, list(chunks)) for sim, chunks in jobs]
        if self.workers <= 1 or sum(len(chunks) for _, chunks in jobs) <= 1:
            return [
                SerialExecutor().map(sim, chunks, _job_progress(progress, j))
                for j, (sim, chunks) in enumerate(jobs)
            ]
        results: dict[tuple[int, int], Tally] = {}
        if self._pool is None:
            import multiprocessing as mp

            for sim, chunks in jobs:
                if chunks:  # warm: load the kernels once, before the fork (the game is thrown away)
                    sim.play(chunks[0].seed, 1)
            ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
            # what the workers inherit (the kernels, the loaded kit) lives as long as the pool: frozen, the
            # cycle collector stops walking it, here and in the workers, as Python's gc.freeze advises
            # before a fork (close() unfreezes it)
            gc.freeze()
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx)
        # chunks go in guided batches (one task, one message each way): per-task costs in the parent (futures,
        # unpickling) were 0.13 CPU s of 1.6 s on 200 Ripple Rush chunks, the 2-worker speed-up 1.76x
        futs = {
            self._pool.submit(runner.play_chunks, jobs[j][0], batch): (j, batch)
            for j, batch in job_batches([chunks for _, chunks in jobs], self.workers)
        }
        try:
            hook, self.before_wait = self.before_wait, None
            if hook is not None:
                hook()  # the parent's own work while the workers play (its error ends the run)
            for f in as_completed(futs):
                checkpoint()  # a safe point for a signal (a command that has them) as each batch comes back
                j, batch = futs[f]
                for c, tally in zip(batch, f.result(), strict=True):
                    results[j, c.index] = tally
                    if progress:
                        progress(j, c.games)
        except BrokenProcessPool as e:
            self._pool = None
            raise KitError(f"a simulation worker process died (out of memory?): {e}") from e
        except BaseException:
            # don't play the queued chunks of a run that already failed (or was interrupted)
            for f in futs:
                f.cancel()
            raise
        return [[results[j, c.index] for c in chunks] for j, (_, chunks) in enumerate(jobs)]


def _job_progress(progress: Callable[[int, int], None] | None, job: int) -> Callable[[int], None] | None:
    """`progress(job, games)` as a one-run progress callback."""
    if progress is None:
        return None
    return lambda games: progress(job, games)


def job_batches(runs: Sequence[Sequence[Chunk]], workers: int) -> list[tuple[int, list[Chunk]]]:
    """Guided batches (`runner.guided_batches`) over the chunks of several runs taken in order: a batch is a
    share of all that is left, never mixing runs. (run index, batch) each."""
    left = sum(len(chunks) for chunks in runs)
    out: list[tuple[int, list[Chunk]]] = []
    for j, chunks in enumerate(runs):
        i = 0
        while i < len(chunks):
            size = min(len(chunks) - i, max(1, left // (2 * workers)))
            out.append((j, list(chunks[i : i + size])))
            i += size
            left -= size
    return out


class DaskExecutor:
    """Plays chunks on Dask: address "local" starts a LocalCluster, "tcp://host:port" joins a scheduler.

    `timeout` is how long to wait for a remote scheduler before giving up with a KitError.
    """

    def __init__(self, address: str, workers: int | None = None, *, timeout: float = 10.0):
        _check_workers(workers, "--workers (with --dask local)")
        self.address = address
        self.workers = workers
        self.timeout = timeout
        self._client: Any = None
        self._cluster: Any = None

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the client (and the LocalCluster this executor started)."""
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None

    def _connect(self) -> tuple[Any, Any]:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError as e:
            raise KitError("--dask needs the optional extra: pip install 'pnpkit[dask]'") from e
        if self.address == "local":
            cluster = LocalCluster(
                n_workers=self.workers or os.cpu_count() or 1,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
            )
            try:
                return Client(cluster), cluster
            except BaseException:
                cluster.close()
                raise
        try:
            return Client(self.address, timeout=f"{self.timeout}s"), None
        except (OSError, ValueError, TypeError) as e:
            raise KitError(
                f"--dask {self.address}: cannot reach the Dask scheduler within {self.timeout:g} s "
                f"(expected 'local' or tcp://host:port of a running scheduler): {e}"
            ) from e

    def map(
        self, sim: Simulation, chunks: Sequence[Chunk], progress: Callable[[int], None] | None = None
    ) -> list[Tally]:
        """Play chunks as Dask futures."""
        from generator.engine import runner

        if self._client is None:
            self._client, self._cluster = (
                self._connect()
            )  # raises KitError when dask is missing or unreachable
        client = self._client
        try:
            from dask.distributed import as_completed as d_completed

            futs = [client.submit(runner.play_chunk, sim, c, pure=False) for c in chunks]
            index = {f.key: c for f, c in zip(futs, chunks, strict=True)}
            results: dict[int, Tally] = {}
            for f in d_completed(futs):
                checkpoint()
                c = index[f.key]
                try:
                    results[c.index] = f.result()
                except ModuleNotFoundError as e:
                    raise KitError(
                        f"--dask {self.address}: a Dask worker cannot import {e.name!r}; install pnpkit "
                        f"(same version) in every worker's environment"
                    ) from e
                if progress:
                    progress(c.games)
            return [results[c.index] for c in chunks]
        except BaseException:
            self.close()
            raise


def make_executor(
    workers: int | None = None, dask: str | None = None
) -> SerialExecutor | ProcessExecutor | DaskExecutor:
    """Pick the executor for the CLI's --workers / --dask options."""
    if dask:
        return DaskExecutor(dask, workers)
    _check_workers(workers)
    if workers == 1:
        return SerialExecutor()
    return ProcessExecutor(workers)
