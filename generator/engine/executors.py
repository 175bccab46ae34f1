"""Where chunks run: in this process, in a process pool, or on a Dask cluster (optional extra)."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Sequence

from generator.engine.runner import Chunk, Simulation, Tally, play_chunk
from generator.errors import KitError


def _check_workers(workers: int | None, option: str = "--workers") -> None:
    if workers is not None and workers < 0:
        raise KitError(f"{option}: expected a number of workers >= 1 (0 or none = one per core); got {workers}")


class SerialExecutor:
    """Plays every chunk in this process, in order."""

    def map(self, sim: Simulation, chunks: Sequence[Chunk], progress: Callable[[int], None] | None = None) -> list[Tally]:
        """Play chunks one after another."""
        out = []
        for c in chunks:
            out.append(play_chunk(sim, c))
            if progress:
                progress(c.games)
        return out


class ProcessExecutor:
    """Plays chunks in a pool of worker processes; results are reordered by chunk index."""

    def __init__(self, workers: int | None = None):
        _check_workers(workers)
        self.workers = workers or os.cpu_count() or 1

    def map(self, sim: Simulation, chunks: Sequence[Chunk], progress: Callable[[int], None] | None = None) -> list[Tally]:
        """Play chunks across processes."""
        if self.workers <= 1 or len(chunks) <= 1:
            return SerialExecutor().map(sim, chunks, progress)
        results: dict[int, Tally] = {}
        with ProcessPoolExecutor(max_workers=min(self.workers, len(chunks))) as pool:
            futs = {pool.submit(play_chunk, sim, c): c for c in chunks}
            try:
                for f in as_completed(futs):
                    c = futs[f]
                    results[c.index] = f.result()
                    if progress:
                        progress(c.games)
            except BrokenProcessPool as e:
                raise KitError(f"a simulation worker process died (out of memory?): {e}") from e
            except BaseException:
                # don't play the queued chunks of a run that already failed (or was interrupted)
                for f in futs:
                    f.cancel()
                raise
        return [results[c.index] for c in chunks]


class DaskExecutor:
    """Plays chunks on Dask: address "local" starts a LocalCluster, "tcp://host:port" joins a scheduler.

    `timeout` is how long to wait for a remote scheduler before giving up with a KitError.
    """

    def __init__(self, address: str, workers: int | None = None, *, timeout: float = 10.0):
        _check_workers(workers, "--workers (with --dask local)")
        self.address = address
        self.workers = workers
        self.timeout = timeout

    def _connect(self) -> tuple[Any, Any]:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError as e:
            raise KitError("--dask needs the optional extra: pip install 'pnpkit[dask]'") from e
        if self.address == "local":
            cluster = LocalCluster(n_workers=self.workers or os.cpu_count() or 1, threads_per_worker=1,
                                   processes=True, dashboard_address=None)
            try:
                return Client(cluster), cluster
            except BaseException:
                cluster.close()
                raise
        try:
            return Client(self.address, timeout=f"{self.timeout}s"), None
        except (OSError, ValueError, TypeError) as e:
            raise KitError(f"--dask {self.address}: cannot reach the Dask scheduler within {self.timeout:g} s "
                           f"(expected 'local' or tcp://host:port of a running scheduler): {e}") from e

    def map(self, sim: Simulation, chunks: Sequence[Chunk], progress: Callable[[int], None] | None = None) -> list[Tally]:
        """Play chunks as Dask futures."""
        client, cluster = self._connect()  # raises KitError when dask is missing or unreachable
        try:
            from dask.distributed import as_completed as d_completed

            futs = [client.submit(play_chunk, sim, c, pure=False) for c in chunks]
            index = {f.key: c for f, c in zip(futs, chunks)}
            results: dict[int, Tally] = {}
            for f in d_completed(futs):
                c = index[f.key]
                try:
                    results[c.index] = f.result()
                except ModuleNotFoundError as e:
                    raise KitError(f"--dask {self.address}: a Dask worker cannot import {e.name!r}; install pnpkit "
                                   f"(same version) in every worker's environment") from e
                if progress:
                    progress(c.games)
            return [results[c.index] for c in chunks]
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def make_executor(workers: int | None = None, dask: str | None = None) -> SerialExecutor | ProcessExecutor | DaskExecutor:
    """Pick the executor for the CLI's --workers / --dask options."""
    if dask:
        return DaskExecutor(dask, workers)
    _check_workers(workers)
    if workers == 1:
        return SerialExecutor()
    return ProcessExecutor(workers)
