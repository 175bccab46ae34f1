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
from generator.games.raindrops.rules import (
    SPECIALS,
    Action,
    Cell,
    Drop,
    EndPlacement,
    Held,
    KeepCards,
    KeepThunder,
    NoSpecial,
    Place,
    PlaceBonus,
    Raindrops,
    RefillBonus,
    Special,
    State,
    TakeBonus,
    TakeCard,
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
    far: from the path ending at depth d, the next extension is tried. Returns the new depth: d + 1 (a longer
    path, its column and colours at d + 1, WALK_NEXT -1), d (that step led nowhere) or d - 1 (the path ending
    at d has no extension left)."""
    rows, cols = gm.shape[0], gm.shape[1]
    if d + 1 >= rows or walk[WALK_NEXT, d] > 1:
        return d - 1
    k = walk[WALK_COL, d] + walk[WALK_NEXT, d]
    walk[WALK_NEXT, d] += 1
    if 0 <= k < cols:
        m = walk[WALK_MASK, d] & gm[d + 1, k]
        if m != 0:
            walk[WALK_COL, d + 1] = k
            walk[WALK_MASK, d + 1] = m
            walk[WALK_NEXT, d + 1] = -1
            return d + 1
    return d


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
    rows = gm.shape[0]
    for k in range(col_tiles.shape[0]):
        for r in range(rows):
            gm[r, k] = 0
            gt[r, k] = 0
        for j in range(col_len[k]):
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
        ma, mb = game.mask_a, game.mask_b
        # bonus tiles matching a colour, and matching both colours of a pair (an overlay on each half)
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
        held = [(slot, h) for slot, h in enumerate(ps.held) if not h.fresh]
        one_half = game.params.bonus_per_tile == "one_half"

        def buckets() -> Iterator[tuple[int, int, tuple[Cell, Cell], int, int, int, int, int]]:
            """Place actions in `placements` order, grouped: (slot, tile, cells, colour a, colour b, a fits,
            b fits, how many: 1, or the overlay choices)."""
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

        def singles() -> Iterator[PlaceBonus]:
            for slot, h in held:
                colour = game.colour_at[h.card]
                for q in bonuses:
                    for cell in game.card_cells[h.card]:
                        if cell not in h.covered and colour[cell] in game.bonus[q].colours:
                            yield PlaceBonus(q, slot, cell)

        # which kinds exist decides the first draw; the actions of a kind are listed only when it is drawn
        has_place = next(buckets(), None) is not None
        has_single = bool(bonuses) and next(singles(), None) is not None
        kinds = ["EndPlacement"] + (["Place"] if has_place else []) + (["PlaceBonus"] if has_single else [])
        kind = kinds[int(rng.integers(len(kinds)))]
        if kind == "PlaceBonus":
            group = list(singles())
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
        found = list(buckets())
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
    the compiled kernel calls it without reference counting."""
    cols = col_tiles.shape[0]
    rows = gm.shape[0]
    pc = walk[WALK_COL]
    pn = walk[WALK_TILES]
    pb = walk[WALK_BOTTOM]
    nd = walk[WALK_NEXT]
    best = -1.0e18
    out[DROP_KIND] = -1
    out[DROP_LEN] = 0
    n_opts = 1 + (special_at(col_len, marker, -1)[1] if specials else 0)
    for opt in range(n_opts):
        kind = -1
        c = 0
        i = 0
        if opt > 0:
            kind, c, i = special_at(col_len, marker, opt - 1)
        do_special(col_tiles, col_flip, col_len, kind, c, i)
        window_grid(col_tiles, col_flip, col_len, ma, mb, gm, gt)
        # every path, depth-first
        for c0 in range(cols):
            d = walk_start(gm, walk, c0)
            if d < 0:
                continue
            pv[0] = w[gt[0, c0]]
            pn[0] = 1
            pb[0] = 1 if (rows - 1) // 2 == 0 else 0
            while d >= 0:
                # value of the path ending at depth d
                v = pv[d] + thunder_gain[min(pb[d], thunder_gain.shape[0] - 1)]
                if pn[d] <= bonus_max:
                    v += bonus_value
                if nd[d] == -1 and v > best:
                    best = v
                    out[DROP_KIND] = kind
                    out[DROP_COL] = c
                    out[DROP_IDX] = i
                    out[DROP_LEN] = d + 1
                    for q in range(d + 1):
                        out[DROP_PATH + q] = pc[q]
                r = walk_next(gm, walk, d)
                if r > d:
                    if pc[r] == pc[d] and (rows - 1 - d) % 2 == 1:  # the lower half of the same tile
                        pv[r] = pv[d]
                        pn[r] = pn[d]
                        pb[r] = pb[d]
                    else:
                        pv[r] = pv[d] + w[gt[r, pc[r]]]
                        pn[r] = pn[d] + 1
                        pb[r] = pb[d] + (1 if (rows - 1 - r) // 2 == 0 else 0)
                d = r
        undo_special(col_tiles, col_flip, col_len, kind, c, i)
    return best


class GreedyPolicy:
    """Takes the special action and path whose tiles fit its memory cards best (points per tile of the card
    each tile fits), places tiles that complete cards or keep them coverable, keeps the most useful tiles.

    `specials=False` gives the same policy without special actions (a measuring stick for their value);
    `pure=True` runs the search kernel as plain Python. `reference=True` makes the placement and reserve
    choices by the readable code below (every legal placement as an Action, covers as frozensets); the
    default does the same choices over per-card bit tables (a test proves them equal on seeded games)."""

    name = "greedy"

    def __init__(
        self, game: Raindrops, *, specials: bool = True, pure: bool = False, reference: bool = False
    ):
        self.game = game
        self.specials = specials
        self.kernel = py_func(best_drop) if pure else best_drop
        ids = list(game.tiles)
        self.ma = np.zeros(max(ids) + 1, dtype=np.int64)
        self.mb = np.zeros(max(ids) + 1, dtype=np.int64)
        for t in ids:
            self.ma[t] = game.mask_a[t]
            self.mb[t] = game.mask_b[t]
        self.pairs = self._bag_pairs()
        self.tileable: dict[tuple[int, frozenset[Cell]], bool] = {}
        vals = [t.value for t in game.thunder.values()]
        self.thunder_mean = sum(vals) / len(vals) if vals else 0.0
        bpts = [b.points for b in game.bonus.values()]
        self.bonus_mean = (sum(bpts) / len(bpts) if bpts else 0.0) + 1.0
        self.plan: tuple[int, Special | NoSpecial, tuple[Cell, ...]] | None = None
        self.out = np.zeros(DROP_PATH + game.params.rows, dtype=np.int64)
        self.scratch = drop_scratch(game.params.rows, game.params.columns)
        self.reference = reference
        self.mask_a = dict(game.mask_a)
        self.mask_b = dict(game.mask_b)
        self._tables()

    def _bag_pairs(self) -> set[tuple[str, str]]:
        out: set[tuple[str, str]] = set()
        for t in self.game.tiles.values():
            for x in t.a:
                for y in t.b:
                    out.add((x, y))
                    out.add((y, x))
        return out

    # ------------------------------------------------------------------------------ fast tables
    def _tables(self) -> None:
        """Per-card bit tables for the fast choices: a cell is a bit of the card's cell mask; a colour is a
        bit of `game.bit`. Each card: cell bits, colour bit per cell, adjacent pairs (card_pairs order), the
        pairs a bag tile can cover, points per tile."""
        g = self.game
        self.cbit: dict[int, dict[Cell, int]] = {}
        self.ccol: dict[int, dict[Cell, int]] = {}
        self.cpairs: dict[int, tuple[tuple[Cell, Cell, int, int, int], ...]] = {}
        self.cnext: dict[int, tuple[tuple[int, ...], ...]] = {}
        self.cper: dict[int, float] = {}
        self.cover_memo: dict[int, bool] = {}
        self.first_fit: dict[tuple[int, int, int], tuple[Cell, Cell] | None] = {}
        self.open_memo: dict[
            int,
            tuple[
                list[tuple[Cell, Cell, int, int, int]],
                list[tuple[Cell, Cell, int, int, int]],
                list[tuple[int, int, float]],
            ],
        ] = {}
        # the colour pairs a tile fits, as codes (colour bit | colour bit): a tile with halves a, b fits an
        # open pair of colours x, y (either way round) exactly when x | y is one of its codes
        colour_bits = tuple(g.bit.values())
        self.codes = {
            t: tuple(
                sorted(
                    {u | v for u in colour_bits if g.mask_a[t] & u for v in colour_bits if g.mask_b[t] & v}
                )
            )
            for t in g.tiles
        }
        self.bmask = {b: g.half_mask(t.colours) for b, t in g.bonus.items()}
        self.bcost = {b: t.points + 1 for b, t in g.bonus.items()}
        for cid, cells in g.card_cells.items():
            bits = {cell: 1 << i for i, cell in enumerate(cells)}
            col = {cell: g.bit[g.colour_at[cid][cell]] for cell in cells}
            self.cbit[cid] = bits
            self.ccol[cid] = col
            self.cpairs[cid] = tuple((x, y, bits[x] | bits[y], col[x], col[y]) for x, y in g.card_pairs[cid])
            # for the cover search: from cell i, the partner bits (right, then down) a bag pair can fill
            nxt = []
            for x in cells:
                opts = []
                for y in ((x[0], x[1] + 1), (x[0] + 1, x[1])):
                    if y in bits and (g.colour_at[cid][x], g.colour_at[cid][y]) in self.pairs:
                        opts.append(bits[x] | bits[y])
                nxt.append(tuple(opts))
            self.cnext[cid] = tuple(nxt)
            self.cper[cid] = g.cards[cid].points / max(1, len(cells) / 2)

    def covers(self, card: int, covered: int) -> bool:
        """`can_cover` over a cell bit mask (memoised per card and mask)."""
        key = (card << 24) | covered
        got = self.cover_memo.get(key)
        if got is not None:
            return got
        nxt = self.cnext[card]
        n = len(nxt)
        ok = True
        for i in range(n):
            if not covered >> i & 1:
                ok = False
                for m in nxt[i]:
                    if not covered & m and self.covers(card, covered | m):
                        ok = True
                        break
                break
        self.cover_memo[key] = ok
        return ok

    def _mask(self, h: Held) -> int:
        bits = self.cbit[h.card]
        m = 0
        for cell in h.covered:
            m |= bits[cell]
        return m

    def _open(
        self, card: int, cov: int
    ) -> tuple[
        list[tuple[Cell, Cell, int, int, int]],
        list[tuple[Cell, Cell, int, int, int]],
        list[tuple[int, int, float]],
    ]:
        """For a card with cells `cov` covered (memoised): its open adjacent pairs, those a tile may fill
        leaving the card coverable (all of them when two drops are left), and their needs for `_needs`."""
        key = (card << 24) | cov
        got = self.open_memo.get(key)
        if got is None:
            pairs = [q for q in self.cpairs[card] if not cov & q[2]]
            left = len(self.game.card_cells[card]) - bin(cov).count("1")
            ok = pairs if left == 2 else [q for q in pairs if self.covers(card, cov | q[2])]
            per = self.cper[card]
            got = self.open_memo[key] = (pairs, ok, [(bx, by, per) for _, _, _, bx, by in pairs])
        return got

    def _first_fit(
        self, key: tuple[int, int, int], ok_pairs: list[tuple[Cell, Cell, int, int, int]]
    ) -> tuple[Cell, Cell] | None:
        """The first open pair (and way round) a tile fills; key = (card << 24 | covered cells, half a, half
        b) (memoised); None when it fills none."""
        _, a, b = key
        fit: tuple[Cell, Cell] | None = None
        for x, y, _, cx, cy in ok_pairs:
            if a & cx and b & cy:
                fit = (x, y)
                break
            if a & cy and b & cx:
                fit = (y, x)
                break
        self.first_fit[key] = fit
        return fit

    def _needs(self, held: Sequence[Held]) -> list[tuple[int, int, float]]:
        """(colour bit, colour bit, points per tile) of every open adjacent pair of the held cards."""
        needs: list[tuple[int, int, float]] = []
        for h in held:
            needs += self._open(h.card, self._mask(h))[2]
        return needs

    # ------------------------------------------------------------------------------ card helpers
    def can_cover(self, card: int, covered: frozenset[Cell]) -> bool:
        """The open drops of a card can still be covered exactly by tiles of the bag's colour pairs."""
        key = (card, covered)
        got = self.tileable.get(key)
        if got is not None:
            return got
        g = self.game
        free = [c for c in g.card_cells[card] if c not in covered]
        if not free:
            ok = True
        else:
            x = free[0]
            ok = False
            for y in ((x[0], x[1] + 1), (x[0] + 1, x[1])):
                if y in free and (g.card_colour(card, x), g.card_colour(card, y)) in self.pairs:
                    if self.can_cover(card, covered | {x, y}):
                        ok = True
                        break
        self.tileable[key] = ok
        return ok

    def tile_values(self, st: State, seat: int) -> np.ndarray:
        """w[tile] = points per tile of the best card the tile fits now (0 where it fits none)."""
        if self.reference:
            return self._tile_values_reference(st, seat)
        w = [0.0] * self.ma.shape[0]
        best = self._best_per_code(self._needs(st.players[seat].held))
        if best:
            codes = self.codes
            for col in st.columns:
                for tid, _ in col:
                    v = 0.0
                    for code in codes[tid]:
                        x = best.get(code, 0.0)
                        if x > v:
                            v = x
                    w[tid] = v
        return np.array(w, dtype=np.float64)

    def _tile_values_reference(self, st: State, seat: int) -> np.ndarray:
        w = np.zeros(self.ma.shape[0], dtype=np.float64)
        for col in st.columns:
            for tid, _ in col:
                w[tid] = self.fit_value(st.players[seat].held, tid)
        return w

    @staticmethod
    def _best_per_code(needs: list[tuple[int, int, float]]) -> dict[int, float]:
        """Highest points per tile over the open pairs of each colour pair (code = colour bit | colour
        bit)."""
        best: dict[int, float] = {}
        for bx, by, per in needs:
            code = bx | by
            if per > best.get(code, 0.0):
                best[code] = per
        return best

    def fit_value(self, held: Sequence[Held], tid: int) -> float:
        """Points per tile of the best held card this tile fits (used to choose reserve tiles)."""
        g = self.game
        t = g.tiles[tid]
        best = 0.0
        for h in held:
            free = {c for c in g.card_cells[h.card] if c not in h.covered}
            per = g.cards[h.card].points / max(1, len(g.card_cells[h.card]) / 2)
            for x in free:
                for y in ((x[0], x[1] + 1), (x[0] + 1, x[1])):
                    if y in free:
                        cx, cy = g.card_colour(h.card, x), g.card_colour(h.card, y)
                        if (cx in t.a and cy in t.b) or (cy in t.a and cx in t.b):
                            best = max(best, per)
        return best

    # ------------------------------------------------------------------------------ choices
    def plan_drop(self, st: State) -> tuple[Special | NoSpecial, tuple[Cell, ...]]:
        """The best special action (or none) and path for the current player."""
        g = self.game
        p = g.params
        ps = st.players[st.current]
        pad = [(0, False)] * p.tiles_per_column
        cols = [col + pad[len(col) :] for col in st.columns]
        ct = np.array([[tid for tid, _ in col] for col in cols], dtype=np.int64)
        cf = np.array([[1 if f else 0 for _, f in col] for col in cols], dtype=np.int64)
        cl = np.array([len(col) for col in st.columns], dtype=np.int64)
        w = self.tile_values(st, st.current)
        thunder = np.zeros(len(p.thunder_draw) + 1, dtype=np.float64)
        if st.thunder_stack:
            thunder[1:] = self.thunder_mean
        bonus_value = self.bonus_mean if (st.bonus_offer or st.bonus_stack) else 0.0
        out = self.out
        self.kernel(
            ct,
            cf,
            cl,
            self.ma,
            self.mb,
            w,
            p.bonus_max_tiles,
            bonus_value,
            thunder,
            ps.marker,
            self.specials,
            out,
            *self.scratch,
        )
        n = int(out[DROP_LEN])
        if n == 0:
            return NoSpecial(), ()
        kind = int(out[DROP_KIND])
        sp: Special | NoSpecial = (
            NoSpecial() if kind < 0 else Special(SPECIALS[kind], int(out[DROP_COL]), int(out[DROP_IDX]))
        )
        return sp, tuple((r, int(out[DROP_PATH + r])) for r in range(n))

    def choose(self, game: Raindrops, st: State, rng: np.random.Generator) -> Action:
        """The greedy action for the current phase."""
        g = self.game
        ph = st.phase
        ps = st.players[st.current]
        if ph == "setup":
            # show the card with the fewest points per drop; keep the others
            return KeepCards(min(ps.dealt, key=lambda c: (g.cards[c].points / len(g.card_cells[c]), c)))
        if ph == "special":
            sp, path = self.plan_drop(st)
            self.plan = (st.turn, sp, path)
            return sp
        if ph == "drop":
            if self.plan is None or self.plan[0] != st.turn:
                _, path = self.plan_drop(st)
            else:
                path = self.plan[2]
            return Drop(path)
        if ph == "thunder":
            return KeepThunder(max(st.drawn_thunder, key=lambda t: (g.thunder[t].value, -t)))
        if ph == "refill":
            return RefillBonus(True)  # more tiles to choose from never hurts the chooser
        if ph == "bonus":
            return TakeBonus(self._best_bonus(st))
        if ph == "card":
            if st.display:
                return TakeCard(max(st.display, key=lambda c: (g.cards[c].points / len(g.card_cells[c]), -c)))
            return TakeCard(None)
        if ph in ("place", "final"):
            a = self._best_placement(st)
            if a is not None:
                return a
            if ph == "final":
                return EndPlacement(tuple(ps.reserve))
            pool = sorted(set(st.hand) | set(ps.reserve))
            if self.reference:
                ranked = sorted(pool, key=lambda t: (-self.fit_value(ps.held, t), t))
            else:
                best = self._best_per_code(self._needs(ps.held))
                ranked = sorted(pool, key=lambda t: (-self._fit(best, t), t))
            keep = [t for t in ranked[: g.params.reserve_slots]]
            return EndPlacement(tuple(sorted(keep)))
        raise AssertionError(f"no greedy choice in phase {ph}")

    def _best_bonus(self, st: State) -> int:
        g = self.game
        ps = st.players[st.current]
        need: dict[str, int] = {}
        for h in ps.held:
            for cell in g.card_cells[h.card]:
                if cell not in h.covered:
                    col = g.colour_at[h.card][cell]
                    need[col] = need.get(col, 0) + 1

        def value(b: int) -> tuple[float, int]:
            t = g.bonus[b]
            return (t.points + 0.5 * max((need.get(c, 0) for c in t.colours), default=0), -b)

        return max(st.bonus_offer, key=value)

    def _fit(self, best: dict[int, float], tid: int) -> float:
        """`fit_value` over the best points per colour-pair code (`_best_per_code`)."""
        v = 0.0
        for code in self.codes[tid]:
            x = best.get(code, 0.0)
            if x > v:
                v = x
        return v

    def _best_placement(self, st: State) -> Action | None:
        """The placement of highest value (first in `placements` order among equals), or None: completing a
        card (100 + points - bonus cost) before a plain tile that keeps the card coverable (10 + share
        covered) before a bonus tile on a card that could not be finished otherwise (5 - 0.1 cost)."""
        if self.reference:
            return self._best_placement_reference(st)
        # Within one card the values come in classes: a plain tile beats any overlay on the same card (an
        # overlay costs at least 1) and any bonus-only move (at most 4.9); a plain tile that keeps the card
        # coverable exists only when the card is not stuck. So per card: the first plain tile if any, else the
        # overlays and bonus tiles; across cards the first strict maximum, as in the readable code.
        g = self.game
        ps = st.players[st.current]
        tiles = sorted(set(st.hand) | set(ps.reserve))
        bonuses = sorted(ps.bonus_reserve)
        bmask, bcost, ma, mb = self.bmask, self.bcost, self.mask_a, self.mask_b
        one_half = g.params.bonus_per_tile == "one_half"
        best = 0.0
        pick: Action | None = None
        for slot, h in enumerate(ps.held):
            if h.fresh:
                continue
            card = h.card
            ncov = len(h.covered)
            total = len(g.card_cells[card])
            left = total - ncov
            pts = g.cards[card].points
            top = 100.0 + pts if left <= 2 else 10.0 + (ncov + 2) / total  # no move on this card beats it
            if top <= best or (not tiles and not bonuses):
                continue
            cov = self._mask(h)
            _, ok_pairs, _ = self._open(card, cov)
            found = False
            if ok_pairs:
                okey = (card << 24) | cov
                for tid in tiles:
                    key = (okey, ma[tid], mb[tid])
                    fit = self.first_fit[key] if key in self.first_fit else self._first_fit(key, ok_pairs)
                    if fit is not None:
                        found, cells = True, fit
                        break
            if found:
                if top > best:
                    best, pick = top, Place(tid, slot, cells)
                continue
            stuck = left > 2 and not self.covers(card, cov)
            if left == 2 or stuck:
                for tid in tiles:
                    a, b = ma[tid], mb[tid]
                    for x, y, _pm, cx, cy in ok_pairs:
                        for cells, wa, wb in (((x, y), cx, cy), ((y, x), cy, cx)):
                            oka, okb = a & wa, b & wb
                            if one_half and not oka and not okb:
                                continue
                            ca = [None] if oka else [q for q in bonuses if bmask[q] & wa]
                            cb = [None] if okb else [q for q in bonuses if bmask[q] & wb]
                            for ba in ca:
                                for bb in cb:
                                    if ba is None or ba != bb:
                                        cost = (bcost[ba] if ba is not None else 0) + (
                                            bcost[bb] if bb is not None else 0
                                        )
                                        v = 100.0 + pts - cost if left == 2 else 5.0 - 0.1 * cost
                                        if v > best:
                                            best, pick = v, Place(tid, slot, cells, ba, bb)
            if bonuses and (left == 1 or stuck):
                bits, col = self.cbit[card], self.ccol[card]
                for q in bonuses:
                    for cell in g.card_cells[card]:
                        if cell in h.covered or not bmask[q] & col[cell]:
                            continue
                        if left == 1:
                            v = 100.0 + pts - bcost[q]
                        elif self.covers(card, cov | bits[cell]):
                            v = 5.0 - 0.1 * bcost[q]
                        else:
                            continue
                        if v > best:
                            best, pick = v, PlaceBonus(q, slot, cell)
        return pick

    def _best_placement_reference(self, st: State) -> Action | None:
        g = self.game
        ps = st.players[st.current]
        best: tuple[float, int] = (0.0, 0)
        pick: Action | None = None
        acts = g.placements(st)
        for n, a in enumerate(acts):
            h = ps.held[a.slot]  # type: ignore[union-attr]
            total = len(g.card_cells[h.card])
            if isinstance(a, Place):
                cov = frozenset(h.covered) | {a.cells[0], a.cells[1]}
                used = [b for b in (a.over_a, a.over_b) if b is not None]
            else:
                assert isinstance(a, PlaceBonus)
                cov = frozenset(h.covered) | {a.cell}
                used = [a.bonus]
            cost = sum(g.bonus[b].points + 1 for b in used)
            if len(cov) == total:
                v = 100.0 + g.cards[h.card].points - cost
            elif used:
                # a bonus tile only where the card could not be finished otherwise
                if self.can_cover(h.card, frozenset(h.covered)) or not self.can_cover(h.card, cov):
                    continue
                v = 5.0 - 0.1 * cost
            else:
                if not self.can_cover(h.card, cov):
                    continue
                v = 10.0 + len(cov) / total
            if (v, -n) > best:
                best = (v, -n)
                pick = a
        return pick
