"""The seeded memory-card generator: distinct drop patterns, each proven coverable, with measured points.

Steps (all from one seed): (1) grow `count` distinct patterns by laying random tiles of the bag's colour pairs
side by side on the card grid (drop counts spread evenly over the even values in `cells`); (2) prove each
pattern with the exact solver of cover.py, independently of how it was grown, and store that cover; (3)
measure each card's difficulty with a small fixed seeded solo sample (difficulty.py); (4) pick cat cards and
deal the cloud symbols round-robin along the difficulty order, so every symbol gets the same number of cards
(+-1) spread over easy and hard cards; (5) points = the difficulty's rank quantile mapped onto
points.min..max, plus points.cat_bonus on cat cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from generator.errors import KitError
from generator.games.raindrops.components import MemoryCard, RaindropTile, bag_pairs, build_bag
from generator.games.raindrops.cover import Domino, explain_uncoverable, find_cover

if TYPE_CHECKING:
    from generator.games.raindrops.spec import RaindropsGame

Pattern = tuple[tuple[str | None, ...], ...]

_TRIES_PER_CARD = 200


def _crop(cells: dict[tuple[int, int], str]) -> Pattern:
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    r1 = max(r for r, _ in cells)
    c1 = max(c for _, c in cells)
    return tuple(tuple(cells.get((r, c)) for c in range(c0, c1 + 1)) for r in range(r0, r1 + 1))


def _pair_weights(bag: tuple[RaindropTile, ...]) -> tuple[list[tuple[str, str]], np.ndarray]:
    """Unordered colour pairs of the bag with how many tiles can show each (a wild tile counts for each
    reading)."""
    counts: dict[tuple[str, str], int] = {}
    for t in bag:
        for x, y in t.pairs():
            if x != y:
                key = (min(x, y), max(x, y))
                counts[key] = counts.get(key, 0) + 1
    keys = sorted(counts)
    w = np.array([counts[k] for k in keys], float)
    return keys, w / w.sum()


def _grow(
    rng: np.random.Generator,
    rows: int,
    cols: int,
    n_cells: int,
    connected: bool,
    pairs: list[tuple[str, str]],
    weights: np.ndarray,
) -> Pattern | None:
    """One random pattern of n_cells drops built from whole tiles; None when the growth got stuck."""
    cells: dict[tuple[int, int], str] = {}
    slots = [((r, c), (r, c + 1)) for r in range(rows) for c in range(cols - 1)]
    slots += [((r, c), (r + 1, c)) for r in range(rows - 1) for c in range(cols)]
    while len(cells) < n_cells:
        free = [s for s in slots if s[0] not in cells and s[1] not in cells]
        if connected and cells:
            free = [
                s
                for s in free
                if any(
                    (p[0] + dr, p[1] + dc) in cells
                    for p in s
                    for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                )
            ]
        if not free:
            return None
        p, q = free[int(rng.integers(len(free)))]
        x, y = pairs[int(rng.choice(len(pairs), p=weights))]
        if rng.integers(2):
            x, y = y, x
        cells[p], cells[q] = x, y
    return _crop(cells)


def generate_patterns(spec: RaindropsGame, seed: int) -> list[tuple[Pattern, tuple[Domino, ...]]]:
    """`count` distinct patterns with their solver-found covers, in generation order."""
    mc = spec.memory_cards
    bag = build_bag(spec)
    pairs, weights = _pair_weights(bag)
    allowed = bag_pairs(bag)
    sizes = list(range(mc.cells.min, mc.cells.max + 1, 2)) or [mc.cells.min]
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0x4D454D]))
    seen: set[Pattern] = set()
    out: list[tuple[Pattern, tuple[Domino, ...]]] = []
    for i in range(mc.count):
        n_cells = sizes[i % len(sizes)]
        for _ in range(_TRIES_PER_CARD):
            pat = _grow(rng, mc.grid.rows, mc.grid.columns, n_cells, mc.connected, pairs, weights)
            if pat is not None and pat not in seen:
                break
        else:
            raise KitError(
                f"memory_cards: could not find {mc.count} distinct patterns of {sizes} drops on a "
                f"{mc.grid.rows} x {mc.grid.columns} grid (stuck at card {i + 1})"
            )
        cover = find_cover(pat, allowed)
        if cover is None:  # growth used bag pairs, so this means solver or bag disagree: never hide it
            raise KitError(f"memory card {i + 1}: {explain_uncoverable(pat, allowed)}")
        seen.add(pat)
        out.append((pat, cover))
    return out


def points_from_difficulty(
    difficulty: np.ndarray, cat: np.ndarray, p_min: int, p_max: int, cat_bonus: int
) -> np.ndarray:
    """Points: rank quantile of difficulty (ties share the lower rank) onto p_min..p_max, + cat_bonus on
    cats."""
    n = difficulty.shape[0]
    levels = p_max - p_min + 1
    ranks = np.searchsorted(np.sort(difficulty), difficulty, side="left")
    base = p_min + (ranks * levels) // max(1, n)
    points: np.ndarray = (base + np.where(cat, cat_bonus, 0)).astype(np.int64)
    return points


def _assign_symbols(
    spec: RaindropsGame, difficulty: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, list[str | None]]:
    mc = spec.memory_cards
    n = difficulty.shape[0]
    order = np.argsort(difficulty, kind="stable")
    cat = np.zeros(n, bool)
    if mc.cats:
        picks = [int((j + 0.5) * n / mc.cats) for j in range(mc.cats)]
        cat[order[picks]] = True
    types = [t.id for t in spec.cloud_tokens.types]
    clouds: list[str | None] = [None] * n
    rest = [int(i) for i in order if not cat[i]]
    for start in range(0, len(rest), len(types)):
        block = rest[start : start + len(types)]
        perm = rng.permutation(len(types))
        for idx, card in enumerate(block):
            clouds[card] = types[int(perm[idx])]
    return cat, clouds


_DECKS: dict[tuple[str, int], tuple[MemoryCard, ...]] = {}


def generate_memory_cards(spec: RaindropsGame, seed: int) -> tuple[MemoryCard, ...]:
    """The memory-card deck for `seed`: patterns, proofs, build-time difficulty, cloud/cat, points.

    Deterministic, so one build's legal check and print data share one generation (cached per spec + seed)."""
    key = (spec.model_dump_json(), seed)
    if key not in _DECKS:
        if len(_DECKS) >= 8:
            _DECKS.pop(next(iter(_DECKS)))
        _DECKS[key] = _generate(spec, seed)
    return _DECKS[key]


def _generate(spec: RaindropsGame, seed: int) -> tuple[MemoryCard, ...]:
    from generator.games.raindrops.difficulty import (
        measure,  # compiled solo games: loaded only to build a deck
    )

    mc = spec.memory_cards
    pats = generate_patterns(spec, seed)
    bag = build_bag(spec)
    tally = measure(spec, [p for p, _ in pats], bag, mc.difficulty.samples, seed)
    difficulty = tally["drops_sum"] / np.maximum(1, tally["runs"])
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0x434C44]))
    cat, clouds = _assign_symbols(spec, difficulty, rng)
    points = points_from_difficulty(difficulty, cat, mc.points.min, mc.points.max, mc.points.cat_bonus)
    for card_id, value in (mc.points.refit or {}).items():  # points fitted to full-game play win
        if 1 <= card_id <= len(points):
            points[card_id - 1] = value
    return tuple(
        MemoryCard(i + 1, pat, int(points[i]), clouds[i], bool(cat[i]), cover, float(difficulty[i]))
        for i, (pat, cover) in enumerate(pats)
    )
