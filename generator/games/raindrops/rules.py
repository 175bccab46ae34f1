"""Raindrops rules, reference version: the window, drop paths, special actions, memory cards, scoring.

Readable Python built from plain inputs (a bag of tiles, memory cards, bonus tiles, cloud and thunder tokens
and the rule figures in `Params`), so tests can build any situation by hand. `Raindrops` is the static game;
`State` is mutable and owned by whoever plays it (`apply` changes it in place and returns it; `State.copy()`
forks it). Every random draw comes from the numpy Generator given to `new_state`. `new_game(spec, players)`
puts these rules behind the one Game protocol (generator.engine.game).

Geometry. The window has `columns` columns of up to `tiles_per_column` tiles; tiles slide down, so a column
with n tiles fills its n lowest tile places. Symbol rows are numbered 0 (top) .. 2*tiles_per_column-1
(bottom). Stack index 0 is the bottom tile of a column; the "bottom row" of the rulebook's thunder rule is the
bottom row of TILES (stack index 0, symbol rows 6 and 7 by default), which is how a path can take two tiles
from it (a diagonal step from row 6 to row 7).

Interpretations where the rulebook is silent (documented so the tests can pin them):
- "The bag empties" (house rule `bag_empties`): at the moment its last tile is drawn (default, the seed's
  「袋が空になると」), or when a tile is needed for the window and the bag has none; the discard pile is
  reshuffled into the bag at once (every time); the emptying that reaches `end_bag_empties` triggers the end.
- House rule `window_refill`: the window is refilled from the bag in the drop step, right after the tiles
  left slide down (default, the seed's 「その後、袋から引いた新しい雨粒タイルでボードを埋めます」 inside step
  2, and its example refills (D) within Olivia's turn), also after a drop that found no path; or at the start
  of the next player's turn. The timing decides in whose turn the bag empties: under drop_step the last seat's
  drop that empties it the last time ends the game after that turn.
- The end is triggered at the moment of the 10th completed card or of the emptying; the round is finished so
  the last seat (right of the start player) plays last. Then every player, in seat order, may place reserve
  tiles and bonus tiles (no new cards). House rule `final_last_turn_card`: on every held card, also one taken
  in the last turn (default), or only on cards held before the last turn. House rule `final_clouds`: cards
  completed then earn cloud tokens when the player ends the placement (default), or none.
- House rule `bonus_per_tile`: one bonus tile over one half of a raindrop tile (default) or one on each half.
- House rule `bonus_refill`: before taking a bonus tile from a short offer the player chooses whether to
  refill it (default, `RefillBonus`), or it is always refilled.
- TOP on a tile already at the top of its column is no action and is not offered.
- A bonus tile laid on a raindrop tile's half must be placed with that tile in the same action.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from generator.errors import RuleViolation
from generator.games.raindrops.components import (
    SEED_PLAYERS,
    BonusTile,
    CloudToken,
    MemoryCard,
    RaindropTile,
    ThunderToken,
)
from generator.games.raindrops.state import (
    SPECIALS,
    Action,
    Cell,
    Drop,
    EndPlacement,
    KeepCards,
    KeepThunder,
    NoSpecial,
    Outcome,
    Params,
    Place,
    PlaceBonus,
    PlayerState,
    RefillBonus,
    Score,
    Special,
    State,
    TakeBonus,
    TakeCard,
    decide,
)
from generator.games.raindrops.turn import play


# ------------------------------------------------------------------------------------------------- rules
class Raindrops:
    """Static rules of one Raindrops set-up, built once from components and figures."""

    def __init__(
        self,
        params: Params,
        bag: Sequence[RaindropTile],
        cards: Sequence[MemoryCard],
        bonus_tiles: Sequence[BonusTile],
        cloud_tokens: Sequence[CloudToken],
        thunder_tokens: Sequence[ThunderToken],
    ):
        self.params = params
        self.tiles = {t.id: t for t in bag}
        self.cards = {c.id: c for c in cards}
        self.bonus = {b.id: b for b in bonus_tiles}
        self.clouds = {c.id: c for c in cloud_tokens}
        self.thunder = {t.id: t for t in thunder_tokens}
        self.tile_ids = tuple(t.id for t in bag)
        self.card_ids = tuple(c.id for c in cards)
        colours: list[str] = sorted(
            {x for t in bag for h in (t.a, t.b) for x in h}
            | {x for c in cards for row in c.pattern for x in row if x is not None}
        )
        self.colours = tuple(colours)
        self.bit = {c: 1 << i for i, c in enumerate(colours)}
        self.mask_a = {t.id: self.half_mask(t.a) for t in bag}
        self.mask_b = {t.id: self.half_mask(t.b) for t in bag}
        self.cloud_types: tuple[str, ...] = tuple(dict.fromkeys(c.type for c in cloud_tokens))
        self.cloud_cond = {c.type: c.condition for c in cloud_tokens}
        self.card_cells = {
            c.id: tuple((r, k) for r, row in enumerate(c.pattern) for k, x in enumerate(row) if x is not None)
            for c in cards
        }
        self.colour_at: dict[int, dict[Cell, str]] = {
            c.id: {(r, k): x for r, row in enumerate(c.pattern) for k, x in enumerate(row) if x is not None}
            for c in cards
        }
        self.card_pairs = {
            cid: tuple(
                (x, y)
                for x in cells
                for y in ((x[0] + 1, x[1]), (x[0], x[1] + 1))
                if y in self.colour_at[cid]
            )
            for cid, cells in self.card_cells.items()
        }

    @classmethod
    def from_spec(cls, spec: Any, cards: Sequence[MemoryCard]) -> Raindrops:
        """Build from a validated RaindropsGame and its memory cards."""
        from generator.games.raindrops import components as comp

        return cls(
            Params.from_spec(spec),
            comp.build_bag(spec),
            cards,
            comp.build_bonus_tiles(spec),
            comp.build_cloud_tokens(spec),
            comp.build_thunder_tokens(spec),
        )

    def half_mask(self, half: Iterable[str]) -> int:
        """Bit mask of the colours a half (or bonus tile) matches."""
        m = 0
        for c in half:
            m |= self.bit[c]
        return m

    # --------------------------------------------------------------------------------------- set-up
    def new_state(self, players: int, rng: np.random.Generator, *, log: bool = False) -> State:
        """Set up a game: fill the bag and window, reveal bonuses, stack tokens, deal memory cards. Every draw
        of the game comes from `rng` (kept in the state)."""
        p = self.params
        lo, hi = SEED_PLAYERS
        if not lo <= players <= hi:
            raise RuleViolation(f"Raindrops is a game for {lo}-{hi} players (the seed: 2-4人); got {players}")
        bag = list(self.tile_ids)
        rng.shuffle(bag)
        bonus = sorted(self.bonus)
        rng.shuffle(bonus)
        thunder = sorted(self.thunder)
        rng.shuffle(thunder)
        stacks: dict[str, list[int]] = {t: [] for t in self.cloud_types}
        for cid in sorted(self.clouds):
            stacks[self.clouds[cid].type].append(cid)  # spec order: gold top token first
        deck = list(self.card_ids)
        rng.shuffle(deck)
        st = State(
            [PlayerState() for _ in range(players)],
            [[] for _ in range(p.columns)],
            bag,
            [],
            bonus,
            [],
            thunder,
            stacks,
            deck,
            [],
            rng,
            log=[] if log else None,
        )
        self._refill_window(st)
        for _ in range(min(p.bonus_offer, len(st.bonus_stack))):
            st.bonus_offer.append(st.bonus_stack.pop(0))
        for ps in st.players:
            ps.dealt = [st.deck.pop(0) for _ in range(min(p.cards_dealt, len(st.deck)))]
        st.phase = "setup"
        st.current = 0
        return st

    def _refill_window(self, st: State) -> None:
        """Columns left to right, each bottom to top, random orientation; an empty bag is reshuffled."""
        cap = self.params.tiles_per_column
        at_last = self.params.bag_empties == "last_tile_drawn"
        for col in st.columns:
            while len(col) < cap:
                if not st.bag:
                    if at_last:  # the emptying was counted when the last tile came out
                        if not st.discard:
                            return
                        self._reshuffle(st)
                    elif not self._bag_empties(st):
                        return
                col.append((st.bag.pop(), st.rng.random() < 0.5))
                if at_last and not st.bag:
                    self._bag_empties(st)

    def _bag_empties(self, st: State) -> bool:
        st.bag_empties += 1
        if st.log is not None:
            st.log.append(
                f"  the bag is empty ({st.bag_empties}); {len(st.discard)} discarded tiles go back in"
            )
        if st.bag_empties >= self.params.end_bag_empties and st.end_trigger is None:
            st.end_trigger = "bag"
        self._reshuffle(st)
        return bool(st.bag)

    def _reshuffle(self, st: State) -> None:
        st.bag = sorted(st.discard)
        st.discard = []
        st.rng.shuffle(st.bag)

    # --------------------------------------------------------------------------------------- window
    def symbol(self, st: State, row: int, col: int) -> tuple[int, int] | None:
        """(tile id, colour mask) of the symbol at (row, col), or None where the column has no tile."""
        rows = self.params.rows
        stack = st.columns[col]
        i = (rows - 1 - row) // 2
        if i >= len(stack):
            return None
        tid, flipped = stack[i]
        top = (rows - 1 - row) % 2 == 1
        return tid, (self.mask_a[tid] if top != flipped else self.mask_b[tid])

    def window_masks(self, st: State) -> list[list[tuple[int, int]]]:
        """grid[row][col] = (tile id, mask), (0, 0) where empty."""
        rows, cols = self.params.rows, self.params.columns
        grid = [[(0, 0)] * cols for _ in range(rows)]
        for c in range(cols):
            for i, (tid, flipped) in enumerate(st.columns[c]):
                ma, mb = self.mask_a[tid], self.mask_b[tid]
                top, bottom = (mb, ma) if flipped else (ma, mb)
                grid[rows - 1 - 2 * i][c] = (tid, bottom)
                grid[rows - 2 - 2 * i][c] = (tid, top)
        return grid

    def drop_paths(self, st: State) -> list[tuple[Cell, ...]]:
        """Every legal drop path (distinct cell sequences), sorted."""
        grid = self.window_masks(st)
        rows, cols = self.params.rows, self.params.columns
        out: set[tuple[Cell, ...]] = set()

        def walk(path: list[Cell], mask: int) -> None:
            out.add(tuple(path))
            r, c = path[-1]
            if r + 1 >= rows:
                return
            for dc in (-1, 0, 1):
                k = c + dc
                if 0 <= k < cols:
                    m = mask & grid[r + 1][k][1]
                    if m:
                        path.append((r + 1, k))
                        walk(path, m)
                        path.pop()

        for c in range(cols):
            m = grid[0][c][1]
            if m:
                walk([(0, c)], m)
        return sorted(out)

    def path_problem(self, st: State, cells: Sequence[Cell]) -> str | None:
        """Why `cells` is not a legal drop path, or None."""
        if not cells:
            return "a drop path needs at least one symbol"
        rows, cols = self.params.rows, self.params.columns
        if cells[0][0] != 0:
            return f"a drop path starts in the top row (row 0); this one starts in row {cells[0][0]}"
        mask = -1
        prev: Cell | None = None
        for r, c in cells:
            if not (0 <= r < rows and 0 <= c < cols):
                return f"cell ({r}, {c}) is outside the window ({rows} rows x {cols} columns)"
            if prev is not None:
                pr, pc = prev
                if r != pr + 1 or abs(c - pc) > 1:
                    way = "sideways" if r == pr else ("up" if r < pr else "more than one step")
                    return (
                        f"step ({pr}, {pc}) -> ({r}, {c}) goes {way}; a path moves only straight down or "
                        f"diagonally down one row"
                    )
            sym = self.symbol(st, r, c)
            if sym is None:
                return f"cell ({r}, {c}) is empty"
            new = mask & sym[1]
            if not new:
                have = "/".join(self._colours_of(sym[1]))
                keep = "/".join(self._colours_of(mask)) if mask != -1 else "?"
                return f"cell ({r}, {c}) shows {have}, but the path's colour is {keep}"
            mask = new
            prev = (r, c)
        return None

    def _colours_of(self, mask: int) -> list[str]:
        return [c for c in self.colours if mask & self.bit[c]]

    def tiles_under(self, st: State, cells: Sequence[Cell]) -> list[tuple[int, int]]:
        """(column, stack index) of every tile with a symbol on the path (each once), in path order."""
        rows = self.params.rows
        out: list[tuple[int, int]] = []
        for r, c in cells:
            key = (c, (rows - 1 - r) // 2)
            if key not in out:
                out.append(key)
        return out

    def specials(self, st: State) -> list[Special]:
        """Every special action the current player may do now (the marker never stays)."""
        ps = st.players[st.current]
        out: list[Special] = []
        cols = st.columns
        for kind in SPECIALS:
            if SPECIALS.index(kind) == ps.marker:
                continue
            for c, col in enumerate(cols):
                for i in range(len(col)):
                    if kind == "flip":
                        out.append(Special(kind, c, i))
                    elif kind == "swap" and c + 1 < len(cols) and i < len(cols[c + 1]):
                        out.append(Special(kind, c, i))
                    elif kind == "top" and i < len(col) - 1:
                        out.append(Special(kind, c, i))
        return out

    def can_special(self, columns: list[list[tuple[int, bool]]], s: Special) -> bool:
        """The window allows special action `s` (the tile exists; swap: its right neighbour exists; top: it is
        not already the top tile). The same test as membership in `specials`, without listing them."""
        if not (0 <= s.col < len(columns) and 0 <= s.idx < len(columns[s.col])):
            return False
        if s.kind == "swap":
            return s.col + 1 < len(columns) and s.idx < len(columns[s.col + 1])
        if s.kind == "top":
            return s.idx < len(columns[s.col]) - 1
        return True

    def do_special(self, columns: list[list[tuple[int, bool]]], s: Special) -> None:
        """Change the window by one special action (no legality check)."""
        col = columns[s.col]
        if s.kind == "flip":
            tid, f = col[s.idx]
            col[s.idx] = (tid, not f)
        elif s.kind == "swap":
            other = columns[s.col + 1]
            col[s.idx], other[s.idx] = other[s.idx], col[s.idx]
        else:
            col.append(col.pop(s.idx))

    # ------------------------------------------------------------------------------------- cards
    def card_colour(self, card: int, cell: Cell) -> str | None:
        """Colour printed at a cell of a card, None when no drop is there or the cell is outside."""
        return self.colour_at[card].get(cell)

    def place_problem(self, st: State, a: Place) -> str | None:
        """Why a raindrop-tile placement is illegal now, or None."""
        ps = st.players[st.current]
        if a.tile not in st.hand and a.tile not in ps.reserve:
            return f"tile {a.tile} is neither among the tiles taken this turn nor in the reserve"
        if not 0 <= a.slot < len(ps.held):
            return f"no memory card in slot {a.slot} (the player holds {len(ps.held)})"
        h = ps.held[a.slot]
        if h.fresh:
            return f"card {h.card} was taken this turn; tiles go on it from the next turn"
        (r1, c1), (r2, c2) = a.cells
        if abs(r1 - r2) + abs(c1 - c2) != 1:
            return f"cells {a.cells[0]} and {a.cells[1]} of card {h.card} are not side by side"
        for cell in a.cells:
            if self.card_colour(h.card, cell) is None:
                return f"card {h.card} has no drop at {cell}"
            if cell in h.covered:
                return f"cell {cell} of card {h.card} is already covered; tiles are never stacked"
        overs = [b for b in (a.over_a, a.over_b) if b is not None]
        if len(overs) > 1 and self.params.bonus_per_tile == "one_half":
            return (
                "a bonus tile changes one symbol of a raindrop tile; one bonus tile per raindrop tile "
                "(house rule bonus_per_tile: one_half)"
            )
        if len(set(overs)) != len(overs):
            return f"bonus tile {overs[0]} cannot lie on both halves"
        for b in overs:
            if b not in ps.bonus_reserve:
                return f"bonus tile {b} is not in the player's bonus reserve"
        t = self.tiles[a.tile]
        for half, over, cell, name in ((t.a, a.over_a, a.cells[0], "a"), (t.b, a.over_b, a.cells[1], "b")):
            shown = self.bonus[over].colours if over is not None else half
            want = self.card_colour(h.card, cell)
            if want not in shown:
                return (
                    f"half {name} of tile {a.tile} shows {'/'.join(shown)} but card {h.card} needs {want} at "
                    f"{cell}; both halves must match"
                )
        return None

    def bonus_problem(self, st: State, a: PlaceBonus) -> str | None:
        """Why a bonus tile cannot go directly on that card cell, or None."""
        ps = st.players[st.current]
        if a.bonus not in ps.bonus_reserve:
            return f"bonus tile {a.bonus} is not in the player's bonus reserve"
        if not 0 <= a.slot < len(ps.held):
            return f"no memory card in slot {a.slot}"
        h = ps.held[a.slot]
        if h.fresh:
            return f"card {h.card} was taken this turn; tiles go on it from the next turn"
        want = self.card_colour(h.card, a.cell)
        if want is None:
            return f"card {h.card} has no drop at {a.cell}"
        if a.cell in h.covered:
            return f"cell {a.cell} of card {h.card} is already covered; tiles are never stacked"
        if want not in self.bonus[a.bonus].colours:
            return (
                f"bonus tile {a.bonus} shows {'/'.join(self.bonus[a.bonus].colours)} but the card needs "
                f"{want}"
            )
        return None

    def placements(self, st: State, *, overlays: bool = True) -> list[Action]:
        """Every Place / PlaceBonus for the current player (overlays only where a half would not match)."""
        ps = st.players[st.current]
        out: list[Action] = []
        tiles = sorted(set(st.hand) | set(ps.reserve))
        bonuses = sorted(ps.bonus_reserve)
        one_half = self.params.bonus_per_tile == "one_half"
        for slot, h in enumerate(ps.held):
            if h.fresh:
                continue
            cov = h.covered
            colour = self.colour_at[h.card]
            free = [cell for cell in self.card_cells[h.card] if cell not in cov]
            pairs = [(x, y) for x, y in self.card_pairs[h.card] if x not in cov and y not in cov]
            for tid in tiles:
                t = self.tiles[tid]
                for x, y in pairs:
                    for cells in ((x, y), (y, x)):
                        wa, wb = colour[cells[0]], colour[cells[1]]
                        oka, okb = wa in t.a, wb in t.b
                        if oka and okb:
                            out.append(Place(tid, slot, cells))
                        elif overlays:
                            ca = [None] if oka else [b for b in bonuses if wa in self.bonus[b].colours]
                            cb = [None] if okb else [b for b in bonuses if wb in self.bonus[b].colours]
                            if not oka and not okb and one_half:
                                continue
                            for ba in ca:
                                for bb in cb:
                                    if ba is None or ba != bb:
                                        out.append(Place(tid, slot, cells, ba, bb))
            for b in bonuses:
                for cell in free:
                    if colour[cell] in self.bonus[b].colours:
                        out.append(PlaceBonus(b, slot, cell))
        return out

    # ------------------------------------------------------------------------------------- legality
    def legal_actions(self, st: State) -> list[Action]:
        """Every legal action in the current phase (a stable, sorted-by-construction order)."""
        ps = st.players[st.current] if st.players else None
        ph = st.phase
        if ph == "setup":
            assert ps is not None
            return [KeepCards(c) for c in ps.dealt]
        if ph == "special":
            return [NoSpecial(), *self.specials(st)]
        if ph == "drop":
            return [Drop(p) for p in self.drop_paths(st)] or [Drop(())]
        if ph == "thunder":
            return [KeepThunder(t) for t in st.drawn_thunder]
        if ph == "refill":
            return [RefillBonus(False), RefillBonus(True)]
        if ph == "bonus":
            return [TakeBonus(b) for b in st.bonus_offer]
        if ph == "card":
            cards: list[Action] = [TakeCard(c) for c in st.display]
            return cards + ([TakeCard(None)] if st.deck else [])
        if ph in ("place", "final"):
            assert ps is not None
            acts = self.placements(st)
            pool = sorted(set(st.hand) | set(ps.reserve))
            if ph == "final":
                acts.append(EndPlacement(tuple(ps.reserve)))
            else:
                k = min(self.params.reserve_slots, len(pool))
                for n in range(k + 1):
                    for keep in itertools.combinations(pool, n):
                        acts.append(EndPlacement(keep))
            return acts
        return []

    # ------------------------------------------------------------------------------------- apply
    def apply(self, st: State, a: Action, *, trusted: bool = False) -> State:
        """Re-check and play `a` on `st` in place and return it; raises RuleViolation naming what is in the
        way.

        `trusted=True` (self-play only, for actions a policy built from these rules) skips the costly
        re-checks of a drop path and of a placement; the play itself is the same code."""
        play(self, st, a, trusted)
        return st

    # ------------------------------------------------------------------------------------- internals
    def _say(self, st: State, line: str) -> None:
        if st.log is not None:
            st.log.append(line)

    def _bonus_name(self, b: int) -> str:
        t = self.bonus[b]
        return f"{'wild' if t.wild else t.colours[0]} {t.points}"

    def _refill_display(self, st: State) -> None:
        while len(st.display) < self.params.display and st.deck:
            st.display.append(st.deck.pop(0))

    def _begin_turn(self, st: State) -> None:
        st.turn += 1
        ps = st.players[st.current]
        ps.turns += 1
        if self.params.window_refill == "next_turn":
            self._refill_window(st)
        for h in ps.held:
            h.fresh = False
        st.phase = "special"
        self._say(st, f"turn {st.turn}: seat {st.current} (marker on {SPECIALS[ps.marker]})")

    def _drop(self, st: State, cells: Sequence[Cell]) -> None:
        ps = st.players[st.current]
        taken = self.tiles_under(st, cells)
        bottom = sum(1 for _, i in taken if i == 0)
        by_col: dict[int, list[int]] = {}
        for c, i in taken:
            by_col.setdefault(c, []).append(i)
        for c, idxs in by_col.items():
            for i in sorted(idxs, reverse=True):
                st.hand.append(st.columns[c].pop(i)[0])
        st.taken_count = len(taken)
        if st.log is not None:
            self._say(
                st,
                f"  drops {self._path_text(cells)}: takes {len(taken)} tiles "
                f"{[self.tile_text(t) for t in st.hand]}",
            )
        if self.params.window_refill == "drop_step":
            self._refill_window(st)  # the drop step ends with the refill; the bag may empty in this turn
        draw = self.params.thunder_draw[bottom - 1] if 0 < bottom <= len(self.params.thunder_draw) else 0
        drawn = [st.thunder_stack.pop(0) for _ in range(min(draw, len(st.thunder_stack)))]
        if len(drawn) == 1:
            ps.thunder.append(drawn[0])
            self._say(st, f"  {bottom} from the bottom row: thunder token")
        if len(drawn) > 1:
            st.drawn_thunder = drawn
            st.phase = "thunder"
            return
        self._after_thunder(st)

    def _after_thunder(self, st: State) -> None:
        if st.taken_count <= self.params.bonus_max_tiles:
            if len(st.bonus_offer) < self.params.bonus_offer and st.bonus_stack:
                if self.params.bonus_refill == "by_choice":
                    st.phase = "refill"
                    return
                self._refill_offer(st)
            if st.bonus_offer:
                st.phase = "bonus"
                return
        st.phase = "place"

    def _refill_offer(self, st: State) -> None:
        while len(st.bonus_offer) < self.params.bonus_offer and st.bonus_stack:
            st.bonus_offer.append(st.bonus_stack.pop(0))

    def _path_text(self, cells: Sequence[Cell]) -> str:
        return "-".join(f"{r}{'abcdefghijkl'[c]}" for r, c in cells)

    def tile_text(self, tid: int) -> str:
        """A tile as colour/colour, wild halves joined with +."""
        t = self.tiles[tid]
        return f"{tid}:{'+'.join(t.a)}/{'+'.join(t.b)}"

    def _place(self, st: State, a: Place) -> None:
        ps = st.players[st.current]
        h = ps.held[a.slot]
        if a.tile in st.hand:
            st.hand.remove(a.tile)
        else:
            ps.reserve.remove(a.tile)
        h.tiles.append(a.tile)
        for b in (a.over_a, a.over_b):
            if b is not None:
                ps.bonus_reserve.remove(b)
                h.bonuses.append(b)
        h.covered[a.cells[0]] = f"t{a.tile}"
        h.covered[a.cells[1]] = f"t{a.tile}"
        if st.log is not None:
            over = "".join(
                f" (bonus {b} on half {n})" for b, n in ((a.over_a, "a"), (a.over_b, "b")) if b is not None
            )
            self._say(
                st, f"  tile {self.tile_text(a.tile)} on card {h.card} at {a.cells[0]}{a.cells[1]}{over}"
            )
        self._check_complete(st, a.slot)

    def _check_complete(self, st: State, slot: int) -> None:
        ps = st.players[st.current]
        h = ps.held[slot]
        if len(h.covered) < len(self.card_cells[h.card]):
            return
        st.discard.extend(h.tiles)
        ps.used_bonuses.extend(h.bonuses)
        ps.completed.append(h.card)
        ps.completed_after.append(ps.turns - h.since)
        del ps.held[slot]
        self._say(
            st,
            f"  completes card {h.card} ({self.cards[h.card].points} points; {len(ps.completed)} completed)",
        )
        if st.phase == "final":
            return
        if len(ps.completed) >= self.params.end_cards and st.end_trigger is None:
            st.end_trigger = "cards"
        if st.display or st.deck:
            st.phase = "card"

    def _take_clouds(self, st: State) -> None:
        ps = st.players[st.current]
        have = {self.clouds[t].type for t in ps.clouds}
        counts: dict[str, int] = {}
        for c in ps.completed:
            card = self.cards[c]
            if not card.cat and card.cloud is not None:
                counts[card.cloud] = counts.get(card.cloud, 0) + 1
        for ty in self.cloud_types:
            stack = st.cloud_stacks[ty]
            if ty in have or not stack:
                continue
            if all(counts.get(sym, 0) >= n for sym, n in self.cloud_cond[ty]):
                tok = stack.pop(0)
                ps.clouds.append(tok)
                self._say(st, f"  takes cloud token {ty} ({self.clouds[tok].points} points)")

    def _end_turn(self, st: State) -> None:
        self._take_clouds(st)
        self._refill_display(st)
        n = len(st.players)
        if st.end_trigger is not None and st.current == n - 1:
            st.current = 0
            st.phase = "final"
            if self.params.final_last_turn_card == "usable":
                for p in st.players:  # the final placement is the next chance to use a card taken last turn
                    for h in p.held:
                        h.fresh = False
            self._say(st, f"end ({st.end_trigger}): final placement of reserves")
            return
        st.current = (st.current + 1) % n
        self._begin_turn(st)

    def _next_final(self, st: State) -> None:
        if self.params.final_clouds == "earned":
            self._take_clouds(st)
        if st.current + 1 < len(st.players):
            st.current += 1
            return
        st.phase = "over"
        self._say(st, "game over")

    # ------------------------------------------------------------------------------------- scoring
    def score(self, ps: PlayerState) -> Score:
        """Score one board, parts A to E."""
        a = sum(self.cards[c].points for c in ps.completed)
        b = sum(self.bonus[x].points for x in ps.bonus_reserve) + len(ps.used_bonuses)
        c = sum(self.clouds[x].points for x in ps.clouds)
        d = sum(self.thunder[x].value for x in ps.thunder)
        e = max((len(h.tiles) + len(h.bonuses) for h in ps.held), default=0)
        return Score(a, b, c, d, e)

    def outcome(self, st: State) -> Outcome:
        """Scores, winners and tie-break (most total, then most card points, then shared)."""
        scores = tuple(self.score(p) for p in st.players)
        return decide(scores, st.end_trigger, st.turn)


class RaindropsPlay:
    """The reference rules for a fixed number of seats behind the one Game protocol (generator.engine.game):
    `new_state(rng)` with a numpy Generator; `apply` plays in place and returns the state it was given."""

    def __init__(self, rules: Raindrops, players: int):
        lo, hi = SEED_PLAYERS
        if not lo <= players <= hi:
            raise RuleViolation(f"Raindrops is a game for {lo}-{hi} players (the seed: 2-4人); got {players}")
        self.rules = rules
        self.players = players

    def new_state(self, rng: np.random.Generator) -> State:
        """A game after the deal, every draw to come taken from `rng`."""
        return self.rules.new_state(self.players, rng)

    def to_move(self, st: State) -> int | None:
        """The seat to act (set-up and final placement included); None once the game is over."""
        return None if st.phase == "over" else st.current

    def legal_actions(self, st: State) -> list[Action]:
        """Every legal action of the seat to move (none once the game is over)."""
        return self.rules.legal_actions(st)

    def apply(self, st: State, a: Action) -> State:
        """`a` played on `st` (checked again; RuleViolation if illegal)."""
        return self.rules.apply(st, a)

    def outcome(self, st: State) -> Outcome:
        """Totals, winners and the tie-break; RuleViolation before the end."""
        if st.phase != "over":
            raise RuleViolation(f"the game is not over (phase {st.phase})")
        return self.rules.outcome(st)


def new_game(spec: Any, players: int) -> RaindropsPlay:
    """The reference rules of a validated RaindropsGame for `players` seats (memory cards generated from the
    spec's seed, as printed); RuleViolation for a player count outside the rules."""
    from generator.games.raindrops.memory import generate_memory_cards

    allowed = list(spec.rules.players)
    if players not in allowed:
        raise RuleViolation(f"this kit plays with {allowed} players (game.rules.players); got {players}")
    return RaindropsPlay(Raindrops.from_spec(spec, generate_memory_cards(spec, spec.seed)), players)
