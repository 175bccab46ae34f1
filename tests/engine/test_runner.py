"""The chunked runner: chunk plans and tally merging never depend on who plays the chunks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.runner import (
    Chunk,
    derived_seed,
    guided_batches,
    merge_tallies,
    plan_chunks,
    play_chunk,
    play_chunks,
    run,
)
from tests.engine.toy import DiceRace


@given(games=st.integers(0, 5000), chunk_size=st.integers(1, 700), seed=st.integers(0, 2**63))
@settings(max_examples=60, deadline=None)
def test_plan_covers_every_game_once(games: int, chunk_size: int, seed: int) -> None:
    chunks = plan_chunks(games, seed, chunk_size)
    assert sum(c.games for c in chunks) == games
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert all(1 <= c.games <= chunk_size for c in chunks)
    assert all(c.games == chunk_size for c in chunks[:-1])  # only the last chunk may be short


@given(seed=st.integers(0, 2**63), games=st.integers(1, 3000), more=st.integers(0, 3000))
@settings(max_examples=40, deadline=None)
def test_chunk_seed_depends_only_on_run_seed_and_index(seed: int, games: int, more: int) -> None:
    """Chunk i's seed is the i-th child of SeedSequence(seed), whatever the run length (and no worker count
    enters the plan at all): a longer run only appends chunks."""
    small = plan_chunks(games, seed, 100)
    big = plan_chunks(games + more, seed, 100)
    for a, b in zip(small, big):
        assert a.seed.entropy == b.seed.entropy == seed
        assert a.seed.spawn_key == b.seed.spawn_key == (a.index,)
        assert np.array_equal(a.seed.generate_state(4), b.seed.generate_state(4))


def test_chunk_seeds_differ_between_chunks_and_runs() -> None:
    states = {tuple(c.seed.generate_state(2)) for c in plan_chunks(10_000, 1, 100)}
    states |= {tuple(c.seed.generate_state(2)) for c in plan_chunks(10_000, 2, 100)}
    assert len(states) == 200


def test_plan_rejects_bad_sizes() -> None:
    with pytest.raises(ValueError, match="games must be >= 0, got -1"):
        plan_chunks(-1, 0)
    with pytest.raises(ValueError, match="chunk_size must be >= 1, got 0"):
        plan_chunks(10, 0, 0)


tally_st = st.fixed_dictionaries(
    {
        "hist": st.lists(st.integers(0, 50), min_size=1, max_size=6).map(
            lambda v: np.array(v, dtype=np.int64)
        ),
        "count": st.integers(0, 9).map(lambda v: np.array([v], dtype=np.int64)),
        "games.x": st.lists(st.integers(-5, 5), max_size=5).map(lambda v: np.array(v, dtype=np.int64)),
    }
)


@given(tallies=st.lists(tally_st, min_size=1, max_size=6), cut=st.integers(0, 6))
@settings(max_examples=80, deadline=None)
def test_merge_sums_pads_and_concatenates_in_order(tallies: list[dict[str, np.ndarray]], cut: int) -> None:
    merged = merge_tallies(tallies)
    # games.* keep chunk order, one entry per game
    assert merged["games.x"].tolist() == [x for t in tallies for x in t["games.x"].tolist()]
    # other keys add up, shorter histograms padded with zeros
    width = max(len(t["hist"]) for t in tallies)
    expected = [sum(int(t["hist"][i]) for t in tallies if i < len(t["hist"])) for i in range(width)]
    assert merged["hist"].tolist() == expected
    assert int(merged["count"][0]) == sum(int(t["count"][0]) for t in tallies)
    # merging in two steps (as a worker that plays several chunks might) changes nothing
    cut = min(cut, len(tallies))
    parts = [merge_tallies(p) for p in (tallies[:cut], tallies[cut:]) if p]
    two_step = merge_tallies(parts)
    assert sorted(two_step) == sorted(merged)
    for k in merged:
        assert np.array_equal(two_step[k], merged[k])


def test_merge_does_not_alias_inputs() -> None:
    a = {"h": np.array([1, 2])}
    merged = merge_tallies([a, {"h": np.array([1, 1])}])
    merged["h"][0] = 99
    assert a["h"].tolist() == [1, 2]


def test_merge_rejects_mismatched_dimensions() -> None:
    with pytest.raises(ValueError, match="tally key 'h'"):
        merge_tallies([{"h": np.zeros(3)}, {"h": np.zeros((2, 3))}])


def test_run_equals_chunks_played_by_hand() -> None:
    sim = DiceRace(players=2, target=12)
    by_hand = merge_tallies([play_chunk(sim, c) for c in plan_chunks(250, 5, 100)])
    got = run(sim, 250, 5, chunk_size=100)
    assert sorted(got) == sorted(by_hand)
    for k in got:
        assert np.array_equal(got[k], by_hand[k])


def test_run_depends_on_seed() -> None:
    sim = DiceRace(players=2, target=12)
    a = run(sim, 200, 1, chunk_size=100)["games.turns"]
    b = run(sim, 200, 2, chunk_size=100)["games.turns"]
    assert not np.array_equal(a, b)


def test_run_with_no_games_is_empty() -> None:
    assert run(DiceRace(), 0, 3) == {}


def test_progress_reports_every_game() -> None:
    seen: list[int] = []
    run(DiceRace(players=2, target=10), 230, 0, chunk_size=100, progress=seen.append)
    assert seen == [100, 100, 30]


def test_chunk_is_picklable() -> None:
    import pickle

    c = plan_chunks(10, 3, 4)[1]
    back = pickle.loads(pickle.dumps(c))
    assert isinstance(back, Chunk) and back.index == 1 and back.games == 4
    assert np.array_equal(back.seed.generate_state(2), c.seed.generate_state(2))


def test_merge_concatenates_each_per_game_key_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """200 chunks: one concatenate per "games.*" key (chunk-by-chunk concatenation copied the growing array
    each time, quadratic in the number of chunks), and the same arrays as concatenating in one go."""
    chunks = [
        {"games.score": np.full((3, 2), i), "games.n": np.arange(i, i + 3), "sum": np.array([i])}
        for i in range(200)
    ]
    calls = []
    real = np.concatenate

    def counting(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(np, "concatenate", counting)
    merged = merge_tallies(chunks)
    monkeypatch.undo()
    assert len(calls) == 2
    np.testing.assert_array_equal(merged["games.score"], real([c["games.score"] for c in chunks]))
    np.testing.assert_array_equal(merged["games.n"], real([c["games.n"] for c in chunks]))
    assert merged["sum"].tolist() == [sum(range(200))]
    assert list(merged) == ["games.score", "games.n", "sum"]


def test_merge_of_one_tally_copies_its_per_game_arrays() -> None:
    a = {"games.x": np.array([1, 2])}
    merged = merge_tallies([a])
    merged["games.x"][0] = 9
    assert a["games.x"][0] == 1


def test_derived_seeds_are_stable_distinct_and_order_sensitive() -> None:
    seeds = {derived_seed(s, p, k) for s in (0, 1) for p in (2, 3, 4) for k in (0, 1)}
    assert len(seeds) == 12 and all(0 <= x < 2**32 for x in seeds)
    assert derived_seed(5, 1) == derived_seed(5, 1) and derived_seed(5, 1) != derived_seed(1, 5)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 500), workers=st.integers(1, 8))
def test_guided_batches_keep_every_chunk_once_in_order_and_shrink(n: int, workers: int) -> None:
    chunks = plan_chunks(n, 3, 1) if n else []
    batches = guided_batches(chunks, workers)
    assert [c for b in batches for c in b] == chunks  # every chunk once, in chunk order
    sizes = [len(b) for b in batches]
    assert all(s >= 1 for s in sizes) and sizes == sorted(sizes, reverse=True)
    if n >= 4 * workers:
        assert len(batches) < n  # fewer tasks than chunks
        assert sizes[-1] == 1 and sizes[0] == n // (
            2 * workers
        )  # the last ones small: the workers end together


def test_play_chunks_is_play_chunk_for_each() -> None:
    sim = DiceRace()
    chunks = plan_chunks(25, 7, 10)
    got = play_chunks(sim, chunks)
    assert len(got) == 3
    for c, t in zip(chunks, got):
        want = play_chunk(sim, c)
        assert t.keys() == want.keys() and all(np.array_equal(t[k], want[k]) for k in t)
