"""Exact cover of a memory-card pattern by raindrop tiles: the solver, the verifier and the explanation.

A pattern is covered when every drop lies under exactly one half of a tile, tiles lie horizontally or
vertically on two adjacent drops, and each tile's two colours are a pair some tile of the bag can show.
The solver is exhaustive: it takes the first uncovered drop in reading order, whose left and upper
neighbours are therefore covered, and tries a tile to its right or below. So "no cover" is a proof.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from generator.errors import KitError
from generator.games.raindrops.components import MemoryCard, RaindropTile, bag_pairs

Pattern = Sequence[Sequence[str | None]]
Domino = tuple[tuple[int, int], tuple[int, int], str, str]


def _cells(pattern: Pattern) -> list[tuple[int, int]]:
    return [(r, c) for r, row in enumerate(pattern) for c, v in enumerate(row) if v is not None]


def find_cover(pattern: Pattern, pairs: Collection[tuple[str, str]]) -> tuple[Domino, ...] | None:
    """An exact cover of the pattern by dominoes whose (colour, colour) is in `pairs`, or None if none
    exists."""
    cells = _cells(pattern)
    if len(cells) % 2:
        return None
    pair_set = set(pairs)
    free = set(cells)
    order = sorted(cells)
    chosen: list[Domino] = []

    def solve(start: int) -> bool:
        i = start
        while i < len(order) and order[i] not in free:
            i += 1
        if i == len(order):
            return True
        r, c = order[i]
        x = pattern[r][c]
        assert x is not None
        for nb in ((r, c + 1), (r + 1, c)):
            if nb in free:
                y = pattern[nb[0]][nb[1]]
                assert y is not None
                if (x, y) in pair_set:
                    free.discard((r, c))
                    free.discard(nb)
                    chosen.append(((r, c), nb, x, y))
                    if solve(i + 1):
                        return True
                    chosen.pop()
                    free.add((r, c))
                    free.add(nb)
        return False

    return tuple(chosen) if solve(0) else None


def prove_cover(pattern: Pattern, bag: Sequence[RaindropTile], label: str = "pattern") -> tuple[Domino, ...]:
    """The exact cover of a pattern by tiles of the bag; raises KitError naming the cells when there is
    none."""
    pairs = bag_pairs(tuple(bag))
    cover = find_cover(pattern, pairs)
    if cover is None:
        raise KitError(f"{label}: {explain_uncoverable(pattern, pairs)}")
    return cover


def draw_pattern(pattern: Pattern) -> str:
    """The pattern as rows of colour initials ('.' for no drop), e.g. 'oo. / .pg'."""
    return " / ".join("".join("." if v is None else v[0] for v in row) for row in pattern)


def explain_uncoverable(pattern: Pattern, pairs: Collection[tuple[str, str]]) -> str:
    """Why a pattern has no cover, naming the cells: a drop with no usable neighbour, or the whole set."""
    pair_set = set(pairs)
    cells = _cells(pattern)
    if len(cells) % 2:
        return f"{len(cells)} drops is odd; every tile covers 2 drops (pattern {draw_pattern(pattern)})"
    lonely = []
    for r, c in cells:
        x = pattern[r][c]
        nbs = [(r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))]
        nbs = [(a, b) for a, b in nbs if (a, b) in set(cells)]
        if not any((x, pattern[a][b]) in pair_set for a, b in nbs):
            why = ", ".join(
                f"({a},{b}) {pattern[a][b]}: no {x}/{pattern[a][b]} tile in the bag" for a, b in nbs
            )
            lonely.append(f"cell ({r},{c}) {x} cannot be covered ({why or 'no neighbouring drop'})")
    if lonely:
        return "; ".join(lonely) + f" (pattern {draw_pattern(pattern)})"
    listed = ", ".join(f"({r},{c}) {pattern[r][c]}" for r, c in cells)
    return (
        f"no exact cover of the {len(cells)} drops {listed} by tiles of the bag exists "
        f"(exhaustive search; pattern {draw_pattern(pattern)})"
    )


def verify_cover(card: MemoryCard, bag: Sequence[RaindropTile]) -> list[str]:
    """Problems with the card's stored cover; empty when it is an exact cover by tiles the bag holds."""
    return check_cover(card.pattern, card.cover, bag_pairs(tuple(bag)), label=f"card {card.id}")


def check_cover(
    pattern: Pattern, cover: Sequence[Domino], pairs: Collection[tuple[str, str]], label: str = "pattern"
) -> list[str]:
    """Re-check a cover independently of the solver: cells, adjacency, colours, pairs, exactness."""
    pair_set = set(pairs)
    out: list[str] = []
    need = set(_cells(pattern))
    seen: dict[tuple[int, int], int] = {}
    for k, dom in enumerate(cover):
        (p, q, x, y) = dom
        where = f"{label} tile {k + 1} at {p}-{q}"
        if abs(p[0] - q[0]) + abs(p[1] - q[1]) != 1:
            out.append(f"{where}: cells are not side by side")
        for cell, col in ((p, x), (q, y)):
            if cell not in need:
                out.append(f"{where}: cell {cell} has no drop")
                continue
            want = pattern[cell[0]][cell[1]]
            if want != col:
                out.append(f"{where}: cell {cell} shows {want}, the tile half says {col}")
            if cell in seen:
                out.append(f"{where}: cell {cell} is already under tile {seen[cell]}")
            seen[cell] = k + 1
        if (x, y) not in pair_set:
            out.append(f"{where}: no {x}/{y} tile in the bag")
    missing = sorted(need - set(seen))
    if missing:
        out.append(f"{label}: drops {', '.join(f'({r},{c})' for r, c in missing)} are not covered")
    return out
