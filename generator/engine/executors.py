"""Where chunks run: in this process, in a process pool, or on a Dask cluster (optional extra)."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Callable, Sequence

from generator.engine.runner import Chunk, Simulation, Tally, play_chunk
from generator.errors import KitError


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
        self.workers = workers or os.cpu_count() or 1

    def map(self, sim: Simulation, chunks: Sequence[Chunk], progress: Callable[[int], None] | None = None) -> list[Tally]:
        """Play chunks across processes."""
        if self.workers <= 1 or len(chunks) <= 1:
            return SerialExecutor().map(sim, chunks, progress)
        results: dict[int, Tally] = {}
        with ProcessPoolExecutor(max_workers=min(self.workers, len(chunks))) as pool:
            futs = {pool.submit(play_chunk, sim, c): c for c in chunks}
            for f in as_completed(futs):
                c = futs[f]
                results[c.index] = f.result()
                if progress:
                    progress(c.games)
        return [results[c.index] for c in chunks]


class DaskExecutor:
    """Plays chunks on Dask: address "local" starts a LocalCluster, "tcp://host:port" joins a scheduler."""

    def __init__(self, address: str, workers: int | None = None):
        self.address = address
        self.workers = workers

    def map(self, sim: Simulation, chunks: Sequence[Chunk], progress: Callable[[int], None] | None = None) -> list[Tally]:
        """Play chunks as Dask futures."""
        try:
            from dask.distributed import Client, LocalCluster, as_completed as d_completed
        except ImportError as e:
            raise KitError("--dask needs the optional extra: pip install 'pnpkit[dask]'") from e
        cluster = None
        if self.address == "local":
            cluster = LocalCluster(n_workers=self.workers or os.cpu_count() or 1, threads_per_worker=1,
                                   processes=True, dashboard_address=None)
            client = Client(cluster)
        else:
            try:
                client = Client(self.address, timeout="10s")
            except OSError as e:
                raise KitError(f"--dask {self.address}: cannot reach the Dask scheduler ({e})") from e
        try:
            futs = [client.submit(play_chunk, sim, c, pure=False) for c in chunks]
            index = {f.key: c for f, c in zip(futs, chunks)}
            results: dict[int, Tally] = {}
            for f in d_completed(futs):
                c = index[f.key]
                results[c.index] = f.result()
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
    if workers == 1:
        return SerialExecutor()
    return ProcessExecutor(workers)
