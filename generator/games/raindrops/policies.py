"""Raindrops policies: random-legal and greedy (the path and special action that advance its cards most).

A policy is an object with `name` and `choose(game, state, rng) -> Action`; `rng` is an explicit numpy
`Generator` owned by the caller. The greedy search over (special action, drop path) runs in a kernel over
numpy arrays (`best_drop`, compiled with `generator.engine.kernel.jit_noref`; `best_drop.py_func` is the same
code as plain Python).

Self-play speed: both policies have a readable reference mode (`reference=True`: list every legal action,
covers as frozensets) and a default fast mode that makes the same choices, with the same draws from `rng`,
from per-card bit tables and memoised card states (cells covered -> open pairs, coverable pairs, first
fitting pair per tile). tests/games/raindrops/test_sim_fast.py proves them equal.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import numpy as np

from generator.engine.kernel import jit_noref, py_func
from generator.games.raindrops.rules import Raindrops
from generator.games.raindrops.state import (
    SPECIALS,
    Action,
    Cell,
    Drop,
    EndPlacement,
    Held,
    NoSpecial,
    Place,
    PlaceBonus,
    Special,
    State,
)


def drop_paths_in_order(game: Raindrops, st: State) -> list[tuple[Cell, ...]]:
    """`game.drop_paths(st)` without the set and the sort: a depth-first walk that visits children left to
    right lists every path once, each before its extensions, which is exactly sorted order."""
    rows, cols = game.params.rows, game.params.columns
    ma, mb = game.mask_a, game.mask_b
    grid = [[0] * cols for _ in range(rows)]
    for c, stack in enumerate(st.columns):
        for i, (tid, flipped) in enumerate(stack):
            grid[rows - 1 - 2 * i][c] = ma[tid] if flipped else mb[tid]
            grid[rows - 2 - 2 * i][c] = mb[tid] if flipped else ma[tid]
    out: list[tuple[Cell, ...]] = []
    path: list[Cell] = []

    def walk(r: int, c: int, mask: int) -> None:
        path.append((r, c))
        out.append(tuple(path))
        if r + 1 < rows:
            below = grid[r + 1]
            for k in (c - 1, c, c + 1):
                if 0 <= k < cols and mask & below[k]:
                    walk(r + 1, k, mask & below[k])
        path.pop()

    for c in range(cols):
        if grid[0][c]:
            walk(0, c, grid[0][c])
    return out


# ------------------------------------------------------------------------------------ the special action
# One definition for the policies, the greedy search and the compiled full-game kernel (kernel.py): which
# special actions a window allows, in `Raindrops.specials` order, and what each does to the window arrays
# (col_tiles/col_flip[column, stack index from the bottom], col_len). `rules.Raindrops` is the reference.
@jit_noref
def special_at(col_len: np.ndarray | Sequence[int], marker: int, k: int) -> tuple[int, int, int]:
    """Special action number k of a window with columns of col_len tiles, the marker's kind left out, in
    `Raindrops.specials` order (kind, then column, then tile): (kind 0 flip / 1 swap / 2 top, column, tile
    index). A tile can be flipped; swapped with the tile at its height in the next column; moved to the top
    unless it is the top tile. With k < 0 (or past the last): (-1, how many there are, 0)."""
    n = len(col_len)
    seen = 0
    for kind in range(3):
        if kind == marker:
            continue
        for c in range(n):
            if kind == 0:
                m = col_len[c]
            elif kind == 1:
                m = min(col_len[c], col_len[c + 1]) if c + 1 < n else 0
            else:
                m = max(0, col_len[c] - 1)
            if 0 <= k - seen < m:
                return kind, c, k - seen
            seen += m
    return -1, seen, 0


_special_at = py_func(special_at)
"""`special_at` as Python, for the Python policies (over a list of column lengths)."""


@jit_noref
def do_special(
    col_tiles: np.ndarray, col_flip: np.ndarray, col_len: np.ndarray, kind: int, c: int, i: int
) -> None:
    """`Raindrops.do_special` on the window arrays: flip (kind 0) tile i of column c, swap it (1) with the
    tile at its height in column c + 1, or move it (2) to the top of its column; kind -1 does nothing."""
    if kind == 0:
        col_flip[c, i] = 1 - col_flip[c, i]
    elif kind == 1:
        _swap_across(col_tiles, col_flip, c, i)
    elif kind == 2:
        _move_tile(col_tiles, col_flip, c, i, col_len[c] - 1)


@jit_noref
def undo_special(
    col_tiles: np.ndarray, col_flip: np.ndarray, col_len: np.ndarray, kind: int, c: int, i: int
) -> None:
    """Take back `do_special(kind, c, i)` (a flip and a swap undo themselves; the top tile goes back to i)."""
    if kind == 0:
        col_flip[c, i] = 1 - col_flip[c, i]
    elif kind == 1:
        _swap_across(col_tiles, col_flip, c, i)
    elif kind == 2:
        _move_tile(col_tiles, col_flip, c, col_len[c] - 1, i)


@jit_noref
def _swap_across(col_tiles: np.ndarray, col_flip: np.ndarray, c: int, i: int) -> None:
    t = col_tiles[c, i]
    col_tiles[c, i] = col_tiles[c + 1, i]
    col_tiles[c + 1, i] = t
    f = col_flip[c, i]
    col_flip[c, i] = col_flip[c + 1, i]
    col_flip[c + 1, i] = f


@jit_noref
def _move_tile(col_tiles: np.ndarray, col_flip: np.ndarray, c: int, src: int, dst: int) -> None:
    """Tile src of column c to index dst, the tiles between moved by one towards src."""
    t = col_tiles[c, src]
    f = col_flip[c, src]
    step = 1 if dst > src else -1
    j = src
    while j != dst:
        col_tiles[c, j] = col_tiles[c, j + step]
        col_flip[c, j] = col_flip[c, j + step]
        j += step
    col_tiles[c, dst] = t
    col_flip[c, dst] = f


@jit_noref
def walk_start(gm: np.ndarray, walk: np.ndarray, c0: int) -> int:
    """The depth-first walk (`walk_next`) from column c0 of the top row: depth 0, or -1 where no symbol is
    there."""
    if gm[0, c0] == 0:
        return -1
    walk[WALK_COL, 0] = c0
    walk[WALK_MASK, 0] = gm[0, c0]
    walk[WALK_NEXT, 0] = -1
    return 0


@jit_noref
def walk_next(gm: np.ndarray, walk: np.ndarray, d: int) -> int:
    """One step of the depth-first walk over the drop paths of window grid gm (`drop_paths_in_order`'s order:
    each path before its extensions; below it left, straight, right), walk[WALK_*, depth] holding the path so
    far: from the path ending at depth d, the next extensions are tried until one leads somewhere. Returns the
    new depth: d + 1 (a longer path, its column and colours at d + 1, WALK_NEXT -1) or d - 1 (the path ending
    at d has no extension left)."""
    rows, cols = gm.shape[0], gm.shape[1]
    if d + 1 >= rows:
        return d - 1
    while walk[WALK_NEXT, d] <= 1:
        k = walk[WALK_COL, d] + walk[WALK_NEXT, d]
        walk[WALK_NEXT, d] += 1
        if 0 <= k < cols:
            m = walk[WALK_MASK, d] & gm[d + 1, k]
            if m != 0:
                walk[WALK_COL, d + 1] = k
                walk[WALK_MASK, d + 1] = m
                walk[WALK_NEXT, d + 1] = -1
                return d + 1
    return d - 1


@jit_noref
def window_grid(
    col_tiles: np.ndarray,
    col_flip: np.ndarray,
    col_len: np.ndarray,
    ma: np.ndarray,
    mb: np.ndarray,
    gm: np.ndarray,
    gt: np.ndarray,
) -> None:
    """`Raindrops.window_masks` on arrays: gm[row, column] = the colour mask of the symbol there (0: no tile),
    gt[row, column] = its tile."""
    for k in range(col_tiles.shape[0]):
        _grid_column(k, col_tiles, col_flip, col_len, ma, mb, gm, gt)


@jit_noref
def _grid_column(
    k: int,
    col_tiles: np.ndarray,
    col_flip: np.ndarray,
    col_len: np.ndarray,
    ma: np.ndarray,
    mb: np.ndarray,
    gm: np.ndarray,
    gt: np.ndarray,
) -> None:
    """Column k of `window_grid`."""
    rows = gm.shape[0]
    for r in range(rows):
        gm[r, k] = 0
        gt[r, k] = 0
    _grid_tiles(k, 0, col_len[k] - 1, col_tiles, col_flip, ma, mb, gm, gt)


@jit_noref
def _grid_tiles(
    k: int,
    j0: int,
    j1: int,
    col_tiles: np.ndarray,
    col_flip: np.ndarray,
    ma: np.ndarray,
    mb: np.ndarray,
    gm: np.ndarray,
    gt: np.ndarray,
) -> None:
    """The cells of tiles j0..j1 (stack indices from the bottom) of column k in `window_grid`."""
    rows = gm.shape[0]
    for j in range(j0, j1 + 1):
        tid = col_tiles[k, j]
        top = ma[tid]
        bot = mb[tid]
        if col_flip[k, j] == 1:
            top = mb[tid]
            bot = ma[tid]
        gm[rows - 1 - 2 * j, k] = bot
        gm[rows - 2 - 2 * j, k] = top
        gt[rows - 1 - 2 * j, k] = tid
        gt[rows - 2 - 2 * j, k] = tid


class RandomPolicy:
    """Uniform over the kinds of legal action, then uniform within the kind (so ending a placement is not
    drowned by the many ways to keep reserve tiles).

    `reference=True` lists every legal action (`legal_actions`) and picks from the list; the default makes the
    same two draws from `rng` over counts of the actions of each kind and builds only the one it picks (a test
    proves the choices equal on seeded games)."""

    name = "random"

    def __init__(self, *, reference: bool = False):
        self.reference = reference

    def choose(self, game: Raindrops, st: State, rng: np.random.Generator) -> Action:
        """A random legal action."""
        if self.reference:
            acts = game.legal_actions(st)
            kinds: dict[str, list[Action]] = {}
            for a in acts:
                kinds.setdefault(type(a).__name__, []).append(a)
            group = kinds[sorted(kinds)[int(rng.integers(len(kinds)))]]
            return group[int(rng.integers(len(group)))]
        ph = st.phase
        if ph == "special":
            return self._special(game, st, rng)
        if ph in ("place", "final"):
            return self._placement(game, st, rng)
        if ph == "drop":
            paths = drop_paths_in_order(game, st)
            k = int(rng.integers(len(paths) or 1))  # no path: the one legal action is the empty drop
            return Drop(paths[k] if paths else ())
        acts = game.legal_actions(st)  # one kind of action, and few of them
        return acts[int(rng.integers(len(acts)))]

    @staticmethod
    def _special(game: Raindrops, st: State, rng: np.random.Generator) -> Action:
        """None (one draw in two), else one uniform pick among the special actions (`special_at`)."""
        lens = [len(c) for c in st.columns]
        marker = st.players[st.current].marker
        total = _special_at(lens, marker, -1)[1]
        if int(rng.integers(2 if total else 1)) == 0:
            return NoSpecial()
        kind, c, i = _special_at(lens, marker, int(rng.integers(total)))
        return Special(SPECIALS[kind], c, i)

    @staticmethod
    def _placement(game: Raindrops, st: State, rng: np.random.Generator) -> Action:
        ps = st.players[st.current]
        tiles = sorted(set(st.hand) | set(ps.reserve))
        bonuses = sorted(ps.bonus_reserve)
        bmask = {b: game.half_mask(game.bonus[b].colours) for b in bonuses}
        fits, both = _bonus_fits(game, bonuses, bmask)
        held = [(slot, h) for slot, h in enumerate(ps.held) if not h.fresh]
        # which kinds exist decides the first draw; the actions of a kind are listed only when it is drawn
        has_place = next(_place_buckets(game, held, tiles, bonuses, fits, both), None) is not None
        has_single = bool(bonuses) and next(_bonus_singles(game, held, bonuses), None) is not None
        kinds = ["EndPlacement"] + (["Place"] if has_place else []) + (["PlaceBonus"] if has_single else [])
        kind = kinds[int(rng.integers(len(kinds)))]
        if kind == "PlaceBonus":
            group = list(_bonus_singles(game, held, bonuses))
            return group[int(rng.integers(len(group)))]
        if kind == "EndPlacement":
            if st.phase == "final":
                return EndPlacement(tuple(ps.reserve))
            pool = sorted(set(st.hand) | set(ps.reserve))
            keeps = [
                keep
                for n in range(min(game.params.reserve_slots, len(pool)) + 1)
                for keep in itertools.combinations(pool, n)
            ]
            return EndPlacement(keeps[int(rng.integers(len(keeps)))])
        found = list(_place_buckets(game, held, tiles, bonuses, fits, both))
        n_place = sum(b[-1] for b in found)
        k = int(rng.integers(n_place))
        for slot, tid, cells, wa, wb, oka, okb, cnt in found:
            if k >= cnt:
                k -= cnt
                continue
            if oka and okb:
                return Place(tid, slot, cells)
            ca: list[int | None] = [None] if oka else [q for q in bonuses if bmask[q] & wa]
            cb: list[int | None] = [None] if okb else [q for q in bonuses if bmask[q] & wb]
            combos = [(x, y) for x in ca for y in cb if x is None or x != y]
            ba, bb = combos[k]
            return Place(tid, slot, cells, ba, bb)
        raise AssertionError("placement count out of step")


def _bonus_fits(
    game: Raindrops, bonuses: list[int], bmask: dict[int, int]
) -> tuple[dict[int, int], dict[int, int]]:
    """Bonus tiles matching a colour, and matching both colours of a pair (an overlay on each half), by
    colour bit and by the two bits together."""
    fits: dict[int, int] = {}
    both: dict[int, int] = {}
    if bonuses:
        bits = tuple(game.bit.values())
        fits = {x: 0 for x in bits}
        both = {x | y: 0 for x in bits for y in bits}
        for q in bonuses:
            for i, x in enumerate(bits):
                if bmask[q] & x:
                    fits[x] += 1
                    for y in bits[i:]:
                        if bmask[q] & y:
                            both[x | y] += 1
    return fits, both


def _place_buckets(
    game: Raindrops,
    held: list[tuple[int, Held]],
    tiles: list[int],
    bonuses: list[int],
    fits: dict[int, int],
    both: dict[int, int],
) -> Iterator[tuple[int, int, tuple[Cell, Cell], int, int, int, int, int]]:
    """Place actions in `placements` order, grouped: (slot, tile, cells, colour a, colour b, a fits,
    b fits, how many: 1, or the overlay choices)."""
    ma, mb = game.mask_a, game.mask_b
    one_half = game.params.bonus_per_tile == "one_half"
    for slot, h in held:
        cov = h.covered
        colour = game.colour_at[h.card]
        pc = [
            (x, y, game.bit[colour[x]], game.bit[colour[y]])
            for x, y in game.card_pairs[h.card]
            if x not in cov and y not in cov
        ]
        if not pc:
            continue
        for tid in tiles:
            a, b = ma[tid], mb[tid]
            for x, y, bx, by in pc:
                for cells, wa, wb in (((x, y), bx, by), ((y, x), by, bx)):
                    oka, okb = a & wa, b & wb
                    if oka and okb:
                        k = 1
                    elif not bonuses:
                        continue
                    else:
                        k = (1 if oka else fits[wa]) * (1 if okb else fits[wb])
                        if not oka and not okb:
                            k = 0 if one_half else k - both[wa | wb]
                    if k:
                        yield slot, tid, cells, wa, wb, oka, okb, k


def _bonus_singles(game: Raindrops, held: list[tuple[int, Held]], bonuses: list[int]) -> Iterator[PlaceBonus]:
    """Bonus tiles laid alone on a free cell of their colour, in `placements` order."""
    for slot, h in held:
        colour = game.colour_at[h.card]
        for q in bonuses:
            for cell in game.card_cells[h.card]:
                if cell not in h.covered and colour[cell] in game.bonus[q].colours:
                    yield PlaceBonus(q, slot, cell)


DROP_KIND, DROP_COL, DROP_IDX, DROP_LEN, DROP_PATH = range(5)
"""Slots of `best_drop`'s (and the kernel's `_paths`') out array: the special action's kind (-1 none, 0 flip,
1 swap, 2 top), column and tile index, the path's length, then from DROP_PATH the path's column per row."""
WALK_COL, WALK_MASK, WALK_TILES, WALK_BOTTOM, WALK_NEXT = range(5)
"""Rows of the depth-first walk's scratch array ([5, rows], `drop_scratch`): per depth the path's column, the
colours still common to its symbols, its tiles, its bottom-row tiles, the next step to try (-1: none yet)."""


def drop_scratch(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`best_drop`'s scratch arrays for a window of `rows` x `cols` symbols: grid masks, grid tiles, the walk
    (WALK_* rows) and the walk's values."""
    return (
        np.zeros((rows, cols), dtype=np.int64),
        np.zeros((rows, cols), dtype=np.int64),
        np.zeros((5, rows), dtype=np.int64),
        np.zeros(rows, dtype=np.float64),
    )


@jit_noref
def best_drop(
    col_tiles: np.ndarray,
    col_flip: np.ndarray,
    col_len: np.ndarray,
    ma: np.ndarray,
    mb: np.ndarray,
    w: np.ndarray,
    bonus_max: int,
    bonus_value: float,
    thunder_gain: np.ndarray,
    marker: int,
    specials: bool,
    out: np.ndarray,
    gm: np.ndarray,
    gt: np.ndarray,
    walk: np.ndarray,
    pv: np.ndarray,
) -> float:
    """Best (special action, path) by value = sum of w over taken tiles (+ bonus_value when at most
    bonus_max tiles, + thunder_gain[bottom-row tiles]).

    Writes out = [kind (-1 none, 0 flip, 1 swap, 2 top), col, idx, length, col of row 0, col of row 1, ...].
    Ties keep the first found (no special first; specials in slot, column, index order; paths by start
    column, then left, straight, right). gm, gt, walk, pv: scratch (`drop_scratch`); nothing is allocated, so
    the compiled kernel calls it without reference counting.

    After a special action only the paths through a cell it changed (`_special_cells`) are valued: every
    other path is one of the no-special window's, same cells, same value, and a value already found never
    replaces the best (ties keep the first). A path that has not met a changed cell is extended only while
    its cone below (one column further per row) still reaches one."""
    cols = col_tiles.shape[0]
    rows = gm.shape[0]
    pc = walk[WALK_COL]
    pn = walk[WALK_TILES]
    pb = walk[WALK_BOTTOM]
    nd = walk[WALK_NEXT]
    best = -1.0e18
    out[DROP_KIND] = -1
    out[DROP_LEN] = 0
    window_grid(col_tiles, col_flip, col_len, ma, mb, gm, gt)
    n_opts = 1 + (special_at(col_len, marker, -1)[1] if specials else 0)
    kind = -1
    c = 0
    i = 0
    for opt in range(n_opts):
        # the changed cells: rows r_lo..r_hi of columns c_lo..c_hi (none without a special action)
        r_lo, r_hi, c_lo, c_hi = 0, rows - 1, 0, cols - 1
        if opt > 0:
            kind, c, i = _next_special(col_len, marker, kind, c, i)
            r_lo, r_hi, c_lo, c_hi = _special_cells(col_len, rows, kind, c, i)
            do_special(col_tiles, col_flip, col_len, kind, c, i)
            for k in range(c_lo, c_hi + 1):
                _grid_tiles(
                    k, (rows - 1 - r_hi) // 2, (rows - 1 - r_lo) // 2, col_tiles, col_flip, ma, mb, gm, gt
                )
        # every path, depth-first
        for c0 in range(cols):
            d = walk_start(gm, walk, c0)
            if d < 0:
                continue
            pv[0] = w[gt[0, c0]]
            pn[0] = 1
            pb[0] = 1 if (rows - 1) // 2 == 0 else 0
            while d >= 0:
                if nd[d] == -1:  # the path ending at depth d, before its extensions
                    if opt > 0 and not _meets(pc, d, r_lo, r_hi, c_lo, c_hi):
                        # not through a changed cell: valued with the no-special window already
                        gap = c_lo - pc[d] if pc[d] < c_lo else (pc[d] - c_hi if pc[d] > c_hi else 0)
                        if d + gap > r_hi:  # nor is any path below it (cut)
                            nd[d] = 2
                    else:
                        v = pv[d] + thunder_gain[min(pb[d], thunder_gain.shape[0] - 1)]
                        if pn[d] <= bonus_max:
                            v += bonus_value
                        if v > best:
                            best = v
                            out[DROP_KIND] = kind
                            out[DROP_COL] = c
                            out[DROP_IDX] = i
                            out[DROP_LEN] = d + 1
                            for q in range(d + 1):
                                out[DROP_PATH + q] = pc[q]
                r = walk_next(gm, walk, d)
                if r > d:
                    _extend(r, rows, gt, w, walk, pv)
                d = r
        if opt > 0:
            undo_special(col_tiles, col_flip, col_len, kind, c, i)
            for k in range(c_lo, c_hi + 1):
                _grid_tiles(
                    k, (rows - 1 - r_hi) // 2, (rows - 1 - r_lo) // 2, col_tiles, col_flip, ma, mb, gm, gt
                )
    return best


@jit_noref
def _extend(r: int, rows: int, gt: np.ndarray, w: np.ndarray, walk: np.ndarray, pv: np.ndarray) -> None:
    """`best_drop`'s sums for the path just extended to depth r: its value, tiles and bottom-row tiles."""
    pc = walk[WALK_COL]
    pn = walk[WALK_TILES]
    pb = walk[WALK_BOTTOM]
    d = r - 1
    if pc[r] == pc[d] and (rows - 1 - d) % 2 == 1:  # the lower half of the same tile
        pv[r] = pv[d]
        pn[r] = pn[d]
        pb[r] = pb[d]
    else:
        pv[r] = pv[d] + w[gt[r, pc[r]]]
        pn[r] = pn[d] + 1
        pb[r] = pb[d] + (1 if (rows - 1 - r) // 2 == 0 else 0)


@jit_noref
def _next_special(col_len: np.ndarray, marker: int, kind: int, c: int, i: int) -> tuple[int, int, int]:
    """The special action after (kind, c, i) in `special_at` order (after kind -1: the first); the caller
    knows there is one."""
    n = col_len.shape[0]
    if kind < 0:
        kind = 1 if marker == 0 else 0
    else:
        i += 1
    while True:
        if kind == 0:
            m = col_len[c]
        elif kind == 1:
            m = min(col_len[c], col_len[c + 1]) if c + 1 < n else 0
        else:
            m = max(0, col_len[c] - 1)
        if i < m:
            return kind, c, i
        i = 0
        c += 1
        if c >= n:
            c = 0
            kind += 2 if kind + 1 == marker else 1


@jit_noref
def _special_cells(col_len: np.ndarray, rows: int, kind: int, c: int, i: int) -> tuple[int, int, int, int]:
    """The window cells `do_special(kind, c, i)` may change: (first row, last row, first column, last column)
    in `window_grid` rows (0 at the top). A flip changes tile i's two cells, a swap those of both columns, a
    move to the top tiles i up to the top."""
    lo = rows - 2 - 2 * i
    if kind == 1:
        return lo, lo + 1, c, c + 1
    if kind == 2:
        return rows - 2 * col_len[c], lo + 1, c, c
    return lo, lo + 1, c, c


@jit_noref
def _meets(pc: np.ndarray, d: int, r_lo: int, r_hi: int, c_lo: int, c_hi: int) -> bool:
    """The path pc[0..d] (its column per row) passes a cell of rows r_lo..r_hi, columns c_lo..c_hi."""
    for r in range(max(r_lo, 0), min(d, r_hi) + 1):
        if c_lo <= pc[r] <= c_hi:
            return True
    return False
