"""The greedy seat of Raindrops: `GreedyPolicy`, the reference the kernel's greedy seat plays
choice for choice."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from generator.engine.kernel import py_func
from generator.games.raindrops.policies import (
    DROP_COL,
    DROP_IDX,
    DROP_KIND,
    DROP_LEN,
    DROP_PATH,
    best_drop,
    drop_scratch,
)
from generator.games.raindrops.rules import Raindrops
from generator.games.raindrops.state import (
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
    RefillBonus,
    Special,
    State,
    TakeBonus,
    TakeCard,
)


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
