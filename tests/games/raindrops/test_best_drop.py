"""`best_drop` (the greedy drop search, compiled) against a plain search written here: every special action
applied to a copy of the window, every drop path of it listed depth-first, each valued from scratch in the
order the kernel adds, the first of the strictly highest kept. The kernel values only the paths through the
cells a special action changed; this proves that it finds the same special action, path and value, ties
included (the tile values here are few, so ties are common), on random windows with short columns."""

from __future__ import annotations

import numpy as np
import pytest

from generator.engine.kernel import py_func
from generator.games.raindrops.policies import (
    DROP_COL,
    DROP_IDX,
    DROP_KIND,
    DROP_LEN,
    DROP_PATH,
    best_drop,
    do_special,
    drop_scratch,
    special_at,
)

COLS, CAP, COLOURS = 5, 3, 5
ROWS = 2 * CAP
THUNDER_GAIN = np.array([0.0, 3.9, 3.9])
BONUS_MAX, BONUS_VALUE = 2, 2.875


def _grid(col_tiles: np.ndarray, col_flip: np.ndarray, col_len: np.ndarray, ma, mb) -> tuple[list, list]:
    """[row][column] colour mask (0: no tile) and tile of each symbol, row 0 at the top."""
    gm = [[0] * COLS for _ in range(ROWS)]
    gt = [[0] * COLS for _ in range(ROWS)]
    for c in range(COLS):
        for j in range(col_len[c]):
            t = int(col_tiles[c, j])
            top, bot = (mb[t], ma[t]) if col_flip[c, j] == 1 else (ma[t], mb[t])
            gm[ROWS - 1 - 2 * j][c], gm[ROWS - 2 - 2 * j][c] = int(bot), int(top)
            gt[ROWS - 1 - 2 * j][c] = gt[ROWS - 2 - 2 * j][c] = t
    return gm, gt


def _paths(gm: list) -> list[list[int]]:
    """Every drop path (its column per row from the top), each before its extensions, below it left,
    straight, right."""
    out: list[list[int]] = []

    def walk(path: list[int], mask: int) -> None:
        out.append(path)
        if len(path) == ROWS:
            return
        for k in (path[-1] - 1, path[-1], path[-1] + 1):
            if 0 <= k < COLS and mask & gm[len(path)][k]:
                walk([*path, k], mask & gm[len(path)][k])

    for c0 in range(COLS):
        if gm[0][c0]:
            walk([c0], gm[0][c0])
    return out


def _value(path: list[int], gt: list, w: np.ndarray) -> float:
    """A path's value summed as the kernel sums it: its tiles' w top to bottom (the lower half of a tile
    counted with its upper half), then the thunder gain and the bonus."""
    v = float(w[gt[0][path[0]]])
    tiles = 1
    bottom = 1 if (ROWS - 1) // 2 == 0 else 0
    for r in range(1, len(path)):
        if not (path[r] == path[r - 1] and (ROWS - r) % 2 == 1):
            v += w[gt[r][path[r]]]
            tiles += 1
            bottom += 1 if (ROWS - 1 - r) // 2 == 0 else 0
    v += THUNDER_GAIN[min(bottom, len(THUNDER_GAIN) - 1)]
    if tiles <= BONUS_MAX:
        v += BONUS_VALUE
    return float(v)


def _plain_best(col_tiles, col_flip, col_len, ma, mb, w, marker) -> tuple[float, tuple[int, ...]]:
    best, found = -1.0e18, (-1, 0, 0, 0)
    do = py_func(do_special)
    for opt in range(1 + py_func(special_at)(col_len, marker, -1)[1]):
        kind, c, i = (-1, 0, 0) if opt == 0 else py_func(special_at)(col_len, marker, opt - 1)
        tiles, flips = col_tiles.copy(), col_flip.copy()
        do(tiles, flips, col_len, kind, c, i)
        gm, gt = _grid(tiles, flips, col_len, ma, mb)
        for path in _paths(gm):
            v = _value(path, gt, w)
            if v > best:
                best, found = v, (kind, c, i, len(path), *path)
    return best, found


@pytest.mark.parametrize("seed", range(6))
def test_best_drop_finds_the_plain_searchs_special_path_and_value(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n_tiles = 40
    bits = [1 << q for q in range(COLOURS)]
    wild = [bits[q] | bits[(q + 1) % COLOURS] for q in range(COLOURS)]
    ma = rng.choice(bits + wild[:2], n_tiles).astype(np.int64)
    mb = rng.choice(bits + wild[2:4], n_tiles).astype(np.int64)
    scratch = drop_scratch(ROWS, COLS)
    out = np.zeros(DROP_PATH + ROWS, dtype=np.int64)
    specials_seen = set()
    for _ in range(80):
        col_len = rng.integers(0, CAP + 1, COLS).astype(np.int64)
        col_len[rng.integers(COLS)] = CAP
        col_tiles = np.zeros((COLS, CAP), dtype=np.int64)
        col_tiles[:, :] = rng.permutation(n_tiles)[: COLS * CAP].reshape(COLS, CAP)
        col_flip = rng.integers(0, 2, (COLS, CAP)).astype(np.int64)
        w = rng.choice([0.0, 0.0, 0.5, 1.0, 1.5], n_tiles)
        marker = int(rng.integers(0, 3))
        before = (col_tiles.copy(), col_flip.copy())
        v = best_drop(
            col_tiles, col_flip, col_len, ma, mb, w, BONUS_MAX, BONUS_VALUE, THUNDER_GAIN, marker, True, out,
            *scratch,
        )  # fmt: skip
        want_v, want = _plain_best(col_tiles, col_flip, col_len, ma, mb, w, marker)
        got = (int(out[DROP_KIND]), int(out[DROP_COL]), int(out[DROP_IDX]), int(out[DROP_LEN]))
        if got[0] < 0 or got[3] == 0:
            got = (-1, 0, 0, got[3])  # no special action (or no path): its column and index are not read
        assert (v, (*got, *out[DROP_PATH : DROP_PATH + got[3]].tolist())) == (want_v, want)
        assert np.array_equal(col_tiles, before[0]) and np.array_equal(col_flip, before[1])
        specials_seen.add(got[0])
    assert len(specials_seen - {-1}) >= 2  # special actions do win, of more than one kind
