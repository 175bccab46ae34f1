"""Serial, a process pool and a Dask LocalCluster give identical tallies for the same seed."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass

import numpy as np
import pytest

from generator.engine.executors import DaskExecutor, ProcessExecutor, SerialExecutor, make_executor
from generator.engine.runner import Tally, run
from generator.errors import KitError
from tests.engine.toy import DiceRace

SIM = DiceRace(players=3, target=20)
GAMES, SEED, CHUNK = 1200, 2024, 200  # 6 chunks: more chunks than workers, so completion order varies


def assert_same(a: Tally, b: Tally) -> None:
    assert sorted(a) == sorted(b)
    for k in a:
        assert a[k].dtype == b[k].dtype, k
        assert np.array_equal(a[k], b[k]), k


@pytest.fixture(scope="module")
def serial() -> Tally:
    return run(SIM, GAMES, SEED, SerialExecutor(), chunk_size=CHUNK)


@dataclass(frozen=True)
class WhoPlays:
    """Plays the toy race and also records which process played each game ("games.pid")."""

    sim: DiceRace = SIM

    def play(self, seed: np.random.SeedSequence, games: int) -> Tally:
        return dict(self.sim.play(seed, games), **{"games.pid": np.full(games, os.getpid(), dtype=np.int64)})


def played_elsewhere(t: Tally) -> Tally:
    """Check every game ran in another process (the pool plays one throwaway game here, outside any result,
    to fork warm workers), then drop the pid record."""
    pids = t.pop("games.pid")
    assert pids.shape == (GAMES,)
    assert not (pids == os.getpid()).any()
    assert len(set(pids.tolist())) >= 1
    return t


def test_process_pool_equals_serial(serial: Tally) -> None:
    done: list[int] = []
    with ProcessExecutor(2) as ex:
        got = run(WhoPlays(), GAMES, SEED, ex, chunk_size=CHUNK, progress=done.append)
        again = run(WhoPlays(), GAMES, SEED, ex, chunk_size=CHUNK)  # the same pool, reused
    assert_same(played_elsewhere(got), serial)
    assert_same(played_elsewhere(again), serial)
    assert sorted(done) == [CHUNK] * (GAMES // CHUNK)


def test_other_seed_differs(serial: Tally) -> None:
    other = run(SIM, GAMES, SEED + 1, SerialExecutor(), chunk_size=CHUNK)
    assert not np.array_equal(other["games.turns"], serial["games.turns"])


@pytest.mark.slow  # a LocalCluster spawns 2 fresh interpreters: a few seconds, more on a busy machine
def test_dask_local_cluster_equals_serial(serial: Tally) -> None:
    pytest.importorskip("dask.distributed")
    done: list[int] = []
    got = run(WhoPlays(), GAMES, SEED, DaskExecutor("local", 2), chunk_size=CHUNK, progress=done.append)
    assert_same(played_elsewhere(got), serial)
    assert sum(done) == GAMES


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again when the with-block ends: nothing listens there


def test_dask_unreachable_scheduler_is_a_kit_error() -> None:
    pytest.importorskip("dask.distributed")
    address = f"tcp://127.0.0.1:{_closed_port()}"
    with pytest.raises(KitError) as info:
        run(SIM, 10, 0, DaskExecutor(address, timeout=1.0))
    message = str(info.value)
    assert message.startswith(f"--dask {address}: cannot reach the Dask scheduler within 1 s")
    assert "tcp://host:port" in message


def test_dask_malformed_address_is_a_kit_error() -> None:
    pytest.importorskip("dask.distributed")
    with pytest.raises(KitError, match="--dask nonsense: cannot reach the Dask scheduler"):
        run(SIM, 10, 0, DaskExecutor("nonsense", timeout=1.0))


def test_make_executor_follows_cli_options() -> None:
    assert isinstance(make_executor(1), SerialExecutor)
    pool = make_executor(3)
    assert isinstance(pool, ProcessExecutor) and pool.workers == 3
    assert make_executor(None).workers == (os.cpu_count() or 1)  # type: ignore[union-attr]
    dask = make_executor(2, "tcp://10.0.0.1:8786")
    assert isinstance(dask, DaskExecutor) and dask.address == "tcp://10.0.0.1:8786" and dask.workers == 2
    with pytest.raises(KitError, match="--workers: expected a number of workers >= 1.*got -2"):
        make_executor(-2)


@dataclass(frozen=True)
class SlowFirstChunk:
    """Chunk 0 finishes last, so results arrive out of chunk order."""

    def play(self, seed: np.random.SeedSequence, games: int) -> Tally:
        import time

        if seed.spawn_key == (0,):
            time.sleep(0.5)
        return {"games.chunk": np.full(games, seed.spawn_key[0], dtype=np.int64)}


def test_process_pool_returns_chunks_in_chunk_order_not_completion_order() -> None:
    done: list[int] = []
    got = run(SlowFirstChunk(), 4, 0, ProcessExecutor(2), chunk_size=1, progress=done.append)
    assert got["games.chunk"].tolist() == [0, 1, 2, 3]
    assert len(done) == 4


# ------------------------------------------------------------- several runs in one submission (issue 38)


def test_map_many_gives_each_run_what_map_gives_it(serial: Tally) -> None:
    """Two runs (other simulations, other seeds) played in one submission: each run's tallies are its own,
    in chunk order, equal to playing it alone; progress names the run; no game is played here."""
    from generator.engine.runner import merge_tallies, plan_chunks

    other = DiceRace(players=2, target=15)
    a, b = plan_chunks(GAMES, SEED, CHUNK), plan_chunks(700, 9, 100)
    done: list[tuple[int, int]] = []
    with ProcessExecutor(2) as ex:
        got_a, got_b = ex.map_many([(WhoPlays(), a), (WhoPlays(other), b)], lambda j, n: done.append((j, n)))
    assert_same(played_elsewhere(merge_tallies(got_a)), serial)
    alone = run(other, 700, 9, SerialExecutor(), chunk_size=100)
    merged_b = merge_tallies(got_b)
    assert merged_b.pop("games.pid").shape == (700,)
    assert_same(merged_b, alone)
    assert sorted(done) == sorted([(0, CHUNK)] * 6 + [(1, 100)] * 7)


def test_job_batches_keep_every_chunk_once_in_order_never_mixing_runs() -> None:
    from generator.engine.executors import job_batches
    from generator.engine.runner import plan_chunks

    runs = [plan_chunks(n, s, 1) for n, s in ((30, 1), (0, 2), (5, 3), (41, 4))]
    batches = job_batches(runs, 2)
    for j, chunks in enumerate(runs):
        assert [c for k, b in batches if k == j for c in b] == chunks
    assert [k for k, _ in batches] == sorted(k for k, _ in batches)  # runs in order
    sizes = [len(b) for _, b in batches]
    assert len(batches) < 76 and sizes[0] == 76 // 4 and sizes[-1] == 1  # large first, small last


@dataclass(frozen=True)
class Slow:
    """Each chunk takes a while, so the parent's hook runs while the workers still play."""

    def play(self, seed: np.random.SeedSequence, games: int) -> Tally:
        import time

        time.sleep(0.3)
        return {"games.t": np.full(games, time.time())}


def test_before_wait_runs_once_in_this_process_while_the_workers_play() -> None:
    import time

    seen: list[float] = []
    with ProcessExecutor(2) as ex:
        ex.before_wait = lambda: seen.append(time.time())
        first = run(Slow(), 4, 0, ex, chunk_size=1)
        run(Slow(), 4, 1, ex, chunk_size=1)
    assert len(seen) == 1 and ex.before_wait is None  # once, then gone
    assert seen[0] < first["games.t"].max()  # before the workers were done: they played meanwhile


def test_an_error_of_before_wait_ends_the_run() -> None:
    def fail() -> None:
        raise KitError("static problem")

    with ProcessExecutor(2) as ex:
        ex.before_wait = fail
        with pytest.raises(KitError, match="static problem"):
            run(Slow(), 4, 0, ex, chunk_size=1)


def test_the_pool_freezes_what_its_workers_inherit_while_it_lives() -> None:
    """Before the fork the pool freezes the objects its workers inherit (Python's advice for fork: the cycle
    collector stops walking them, here and in the workers); closing the pool unfreezes them, so a long-lived
    process (a test run, `pnpkit serve`) collects them again."""
    import gc

    before = gc.get_freeze_count()  # 0 unless a pool some other test left open froze objects
    with ProcessExecutor(2) as ex:
        run(DiceRace(), 40, 0, ex, chunk_size=10)
        assert gc.get_freeze_count() > before
    assert gc.get_freeze_count() == 0
