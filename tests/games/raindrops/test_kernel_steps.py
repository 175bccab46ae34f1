"""The compiled kernel's named steps against the reference rules (`rules.Raindrops`), position by position:
the special action (which ones a window allows, what each does, RandomPolicy's pick), and the drop step (the
tiles under a path taken, the window refilled from the bag, reshuffles and the bag trigger included).

Positions come from seeded reference games; each step runs as Python (`py_func`) over a Workspace loaded from
the reference State, with the kernel's MT19937 stream in the state of the State's own generator."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from generator.engine.kernel import py_func
from generator.games.raindrops import kernel as K
from generator.games.raindrops import kernel_drop, kernel_rng, kernel_tables
from generator.games.raindrops.policies import (
    DROP_PATH,
    RandomPolicy,
    do_special,
    special_at,
    undo_special,
)
from generator.games.raindrops.rules import Raindrops
from generator.games.raindrops.state import SPECIALS, Drop, Special, State
from tests.games.raindrops.test_rules_fixtures import PARAMS, game

G = game(params=dataclasses.replace(PARAMS, window_refill="drop_step", bag_empties="tile_needed"))
G_AT_LAST = game(params=dataclasses.replace(PARAMS, window_refill="drop_step", bag_empties="last_tile_drawn"))
TRIGGER = {
    None: kernel_tables.TRIGGER_NONE,
    "cards": kernel_tables.TRIGGER_CARDS,
    "bag": kernel_tables.TRIGGER_BAG,
}


def _positions(g: Raindrops, seed: int, players: int, phase: str) -> list[State]:
    """Copies of every state of one random-policy game (reference rules, the kernel's stream) in `phase`."""
    rng = kernel_rng.game_rng(seed, 0)
    st = g.new_state(players, rng)
    pol = RandomPolicy(reference=True)
    out = []
    while st.phase != "over" and st.turn < 400:
        if st.phase == phase:
            out.append(st.copy())
        g.apply(st, pol.choose(g, st, rng))
    return out


def _window(st: State, cap: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = len(st.columns)
    tiles = np.zeros((n, cap), dtype=np.int64)
    flips = np.zeros((n, cap), dtype=np.int64)
    lens = np.array([len(c) for c in st.columns], dtype=np.int64)
    for c, col in enumerate(st.columns):
        for i, (tid, f) in enumerate(col):
            tiles[c, i] = tid
            flips[c, i] = 1 if f else 0
    return tiles, flips, lens


def _columns(tiles: np.ndarray, flips: np.ndarray, lens: np.ndarray) -> list[list[tuple[int, bool]]]:
    return [[(int(tiles[c, i]), bool(flips[c, i])) for i in range(int(lens[c]))] for c in range(len(lens))]


def _mt(rng: np.random.Generator) -> np.ndarray:
    """The kernel's MT19937 array in the state of a numpy Generator over MT19937 (`game_rng`'s inverse)."""
    state = rng.bit_generator.state["state"]
    mt = np.zeros(kernel_rng.MT_N + 1, dtype=np.int64)
    mt[: kernel_rng.MT_N] = np.asarray(state["key"], dtype=np.int64)
    mt[kernel_rng.MT_N] = int(state["pos"])
    return mt


def _load(g: Raindrops, st: State, setup: kernel_tables.Setup) -> kernel_tables.Workspace:
    """A Workspace holding the window, bag, discard, hand and end trigger of a reference State."""
    ws = K.workspace(len(st.players), setup)
    tiles, flips, lens = _window(st, g.params.tiles_per_column)
    ws.col_tiles[:] = tiles
    ws.col_flip[:] = flips
    ws.col_len[:] = lens
    for name, items, slot in (
        ("bag", st.bag, kernel_tables.S_BAGN),
        ("discard", st.discard, kernel_tables.S_DISCN),
        ("hand", st.hand, kernel_tables.S_HANDN),
    ):
        getattr(ws, name)[: len(items)] = items
        ws.sc[slot] = len(items)
    ws.sc[kernel_tables.S_EMPTIES] = st.bag_empties
    ws.sc[kernel_tables.S_TRIGGER] = TRIGGER[st.end_trigger]
    return ws


def _short(st: State, seed: int) -> State:
    """The state with its columns cut to random heights (windows a short bag leaves: uneven neighbours)."""
    rng = np.random.default_rng(seed)
    out = st.copy()
    out.columns = [col[: int(rng.integers(len(col) + 1))] for col in out.columns]
    return out


FULL = [st for seed in (1, 2) for st in _positions(G, seed, 3, "special")]
SPECIAL_POSITIONS = FULL + [_short(st, n) for n, st in enumerate(FULL)]


def test_special_positions_cover_every_marker_and_short_columns() -> None:
    markers = {st.players[st.current].marker for st in SPECIAL_POSITIONS}
    assert markers == {0, 1, 2}
    assert any(min(len(c) for c in st.columns) < G.params.tiles_per_column for st in SPECIAL_POSITIONS)


def test_special_at_lists_the_reference_specials_in_order() -> None:
    """`special_at` (compiled over arrays, and as Python over a list) numbers exactly `Raindrops.specials`."""
    for st in SPECIAL_POSITIONS:
        marker = st.players[st.current].marker
        _, _, lens = _window(st, G.params.tiles_per_column)
        listed = [(SPECIALS.index(s.kind), s.col, s.idx) for s in G.specials(st)]
        assert special_at(lens, marker, -1) == (-1, len(listed), 0)
        assert [special_at(lens, marker, k) for k in range(len(listed))] == listed
        assert [py_func(special_at)(lens.tolist(), marker, k) for k in range(len(listed))] == listed
        assert special_at(lens, marker, len(listed))[0] == -1


def test_do_special_changes_the_window_as_the_rules_do_and_undo_takes_it_back() -> None:
    for st in SPECIAL_POSITIONS[::3]:
        tiles, flips, lens = _window(st, G.params.tiles_per_column)
        for s in G.specials(st):
            t, f = tiles.copy(), flips.copy()
            do_special(t, f, lens, SPECIALS.index(s.kind), s.col, s.idx)
            ref = [list(c) for c in st.columns]
            G.do_special(ref, s)
            assert _columns(t, f, lens) == ref, s
            undo_special(t, f, lens, SPECIALS.index(s.kind), s.col, s.idx)
            assert np.array_equal(t, tiles) and np.array_equal(f, flips), s


def test_the_kernels_random_special_is_the_random_policys() -> None:
    """`rand_special` with the kernel's draws picks what RandomPolicy picks from the same stream."""
    seen = set()
    for n, st in enumerate(SPECIAL_POSITIONS):
        rng = kernel_rng.game_rng(n, 7)
        mt = _mt(rng)
        want = RandomPolicy().choose(G, st, rng)
        _, _, lens = _window(st, G.params.tiles_per_column)
        kind, c, i = py_func(kernel_drop.rand_special)(mt, lens, st.players[st.current].marker)
        got = Special(SPECIALS[kind], c, i) if kind >= 0 else None
        assert got == (want if isinstance(want, Special) else None)
        assert np.array_equal(mt, _mt(rng))  # the same draws
        seen.add(kind)
    assert seen == {-1, 0, 1, 2}


@pytest.mark.parametrize("g", [G, G_AT_LAST], ids=["tile_needed", "last_tile_drawn"])
def test_take_path_and_refill_are_the_rules_drop_step(g: Raindrops) -> None:
    """Every drop of two 4-player games: `take_path` takes the tiles under the path into the hand and
    `_refill_window` refills the window (reshuffling the discard into an empty bag, counting the bag's
    emptyings and triggering the end) as `Raindrops.apply(Drop)` does."""
    setup = kernel_tables.tables(g)
    positions = [st for seed in (3, 4) for st in _positions(g, seed, 4, "drop")]
    reshuffled = 0
    for n, st in enumerate(positions):
        paths = g.drop_paths(st)
        if not paths:
            continue
        path = paths[n % len(paths)]
        ws = _load(g, st, setup)
        mt = _mt(st.rng)
        for r, (row, col) in enumerate(path):
            assert row == r
            ws.out[DROP_PATH + r] = col
        taken, bottom = py_func(kernel_drop.take_path)(len(path), setup, ws)
        under = g.tiles_under(st, path)
        assert (taken, bottom) == (len(under), sum(1 for _, i in under if i == 0))
        py_func(kernel_drop._refill_window)(mt, setup, ws)
        ref = st.copy()
        g.apply(ref, Drop(path))
        assert _columns(ws.col_tiles, ws.col_flip, ws.col_len) == ref.columns
        assert sorted(ws.hand[: ws.sc[kernel_tables.S_HANDN]].tolist()) == sorted(ref.hand)
        assert ws.bag[: ws.sc[kernel_tables.S_BAGN]].tolist() == ref.bag
        assert sorted(ws.discard[: ws.sc[kernel_tables.S_DISCN]].tolist()) == sorted(ref.discard)
        assert (
            ws.sc[kernel_tables.S_EMPTIES] == ref.bag_empties
            and ws.sc[kernel_tables.S_TRIGGER] == TRIGGER[ref.end_trigger]
        )
        assert np.array_equal(mt, _mt(ref.rng))
        reshuffled += ref.bag_empties > st.bag_empties
    assert reshuffled > 0  # the bag emptied during some drop
