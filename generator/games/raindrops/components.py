"""Raindrops components built from the spec: the tile bag, bonus tiles, cloud and thunder tokens, memory
cards.

The data types here are shared with the rules engine and the layout; their first fields are fixed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from generator.games.raindrops.spec import RaindropsGame

Half = tuple[str, ...]
"""One colour id, or two (sorted) for a wild half that matches either."""

WILD = "wild"
"""The bonus-tile colour that matches every colour (reserved; not a colour id)."""

SEED_PLAYERS = (2, 4)
"""Player counts the seed allows (「2-4人」)."""
SEED_COUNTS: dict[str, int] = {
    "raindrop_tiles": 84,
    "bonus_tiles": 28,
    "cloud_tokens": 12,
    "thunder_tokens": 10,
    "player_boards": 4,
    "memory_cards": 54,
}
"""The seed rulebook's component table (facts of the published game, not tunable defaults)."""


@dataclass(frozen=True)
class RaindropTile:
    """One raindrop tile: two halves of different colours; one half may be wild."""

    id: int
    a: Half
    """First half (top when vertical)."""
    b: Half

    @property
    def is_wild(self) -> bool:
        """True when one half shows two colours."""
        return len(self.a) > 1 or len(self.b) > 1

    def pairs(self) -> frozenset[tuple[str, str]]:
        """Every (colour, colour) reading of the tile, in (a, b) order."""
        return frozenset((x, y) for x in self.a for y in self.b)


@dataclass(frozen=True)
class BonusTile:
    """One bonus tile: a single raindrop of one colour (or a wild raindrop), with printed points."""

    id: int
    colours: Half
    """The colours it matches: one id; a wild tile: its two printed colours (`rules.wild_bonus: two_colours`)
    or every colour id (`all_colours`)."""
    points: int
    wild: bool


@dataclass(frozen=True)
class CloudToken:
    """One cloud token; `gold` marks the top token of its stack."""

    id: int
    type: str
    condition: tuple[tuple[str, int], ...]
    """(cloud symbol, completed cards showing it) pairs, sorted."""
    points: int
    gold: bool


@dataclass(frozen=True)
class ThunderToken:
    """One thunder token: its hidden value."""

    id: int
    value: int


@dataclass(frozen=True)
class MemoryCard:
    """One memory card: a drop pattern, its points, cloud symbol or cat, and the proof that it can be
    covered."""

    id: int
    """1..count."""
    pattern: tuple[tuple[str | None, ...], ...]
    """Rows top to bottom, cropped to the pattern's bounding box; colour id, or None for a cell without a
    drop."""
    points: int
    cloud: str | None
    """Cloud type id shown bottom-left; None on cat cards."""
    cat: bool
    cover: tuple[tuple[tuple[int, int], tuple[int, int], str, str], ...]
    """((r1, c1), (r2, c2), colour1, colour2) per domino: an exact cover by tiles of the bag (the proof)."""
    difficulty: float
    """Measured at build time: mean drops to complete the card alone under the reference policy."""

    @property
    def cells(self) -> int:
        """Number of drops on the card."""
        return sum(1 for row in self.pattern for c in row if c is not None)


def _half(v: str | list[str]) -> Half:
    return (v,) if isinstance(v, str) else tuple(sorted(v))


def build_bag(spec: RaindropsGame) -> tuple[RaindropTile, ...]:
    """Every raindrop tile of the bag, numbered 1.. in spec order."""
    out: list[RaindropTile] = []
    for kind in spec.bag.tiles:
        a, b = _half(kind.a), _half(kind.b)
        for _ in range(kind.count):
            out.append(RaindropTile(len(out) + 1, a, b))
    return tuple(out)


def build_bonus_tiles(spec: RaindropsGame) -> tuple[BonusTile, ...]:
    """Every bonus tile, numbered 1.. in spec order."""
    every = tuple(sorted(c.id for c in spec.colours))
    two = spec.rules.wild_bonus == "two_colours"
    out: list[BonusTile] = []
    for kind in spec.bonus_tiles.kinds:
        wild = kind.colour == WILD
        for i, p in enumerate(kind.points):
            if not wild:
                colours: Half = (kind.colour,)
            elif two and kind.pairs is not None and i < len(kind.pairs):
                colours = tuple(sorted(kind.pairs[i]))
            else:
                colours = every
            out.append(BonusTile(len(out) + 1, colours, p, wild))
    return tuple(out)


def build_cloud_tokens(spec: RaindropsGame) -> tuple[CloudToken, ...]:
    """Every cloud token, stack by stack, top (gold) first."""
    out: list[CloudToken] = []
    for t in spec.cloud_tokens.types:
        cond = tuple(sorted(t.condition.items()))
        for i, p in enumerate(t.points):
            out.append(CloudToken(len(out) + 1, t.id, cond, p, i == 0))
    return tuple(out)


def build_thunder_tokens(spec: RaindropsGame) -> tuple[ThunderToken, ...]:
    """Every thunder token, in spec order (shuffle before play)."""
    out: list[ThunderToken] = []
    for v in spec.thunder_tokens.values:
        for _ in range(v.count):
            out.append(ThunderToken(len(out) + 1, v.value))
    return tuple(out)


def bag_pairs(bag: tuple[RaindropTile, ...]) -> frozenset[tuple[str, str]]:
    """Colour pairs a tile of the bag can show on two adjacent cells, both orders."""
    out: set[tuple[str, str]] = set()
    for t in bag:
        for x, y in t.pairs():
            out.add((x, y))
            out.add((y, x))
    return frozenset(out)


def component_problems(spec: RaindropsGame) -> list[tuple[str, str]]:
    """Count and colour problems of the components, each with its key path in the `game:` section."""
    return [
        *_colour_problems(spec),
        *_bag_problems(spec),
        *_bonus_problems(spec),
        *_cloud_problems(spec),
        *_count_problems(spec),
        *_memory_card_problems(spec),
    ]


def _colour_problems(spec: RaindropsGame) -> list[tuple[str, str]]:
    """Colour ids used twice or reserved, and shapes shared between colours."""
    probs: list[tuple[str, str]] = []
    ids = [c.id for c in spec.colours]
    for i, c in enumerate(spec.colours):
        if ids.index(c.id) != i:
            probs.append((f"colours[{i}].id", f"colour id {c.id!r} is used twice"))
        if c.id == WILD:
            probs.append((f"colours[{i}].id", f"{WILD!r} is reserved for wild bonus tiles"))
    shapes = [c.shape for c in spec.colours]
    for i, c in enumerate(spec.colours):
        if shapes.index(c.shape) != i:
            probs.append(
                (
                    f"colours[{i}].shape",
                    f"shape {c.shape!r} is already the shape of {spec.colours[shapes.index(c.shape)].id}; "
                    "each colour needs its own shape for colour-blind play",
                )
            )
    return probs


def _half_problems(key: str, v: str | list[str], spec: RaindropsGame) -> list[tuple[str, str]]:
    """A tile half's colours: known ids, and exactly two different ones for a wild half."""
    known = {c.id for c in spec.colours}
    opts = ", ".join(c.id for c in spec.colours)
    h = [v] if isinstance(v, str) else list(v)
    out = [(key, f"expected one of {opts}; got {x!r}") for x in h if x not in known]
    if not isinstance(v, str) and (len(h) != 2 or h[0] == h[1]):
        out.append((key, f"a wild half shows exactly two different colours; got {h}"))
    return out


def _bag_problems(spec: RaindropsGame) -> list[tuple[str, str]]:
    """The raindrop tiles: their halves, the seed's count, and a window the bag can fill."""
    probs: list[tuple[str, str]] = []
    total = 0
    for i, k in enumerate(spec.bag.tiles):
        key = f"bag.tiles[{i}]"
        hp = _half_problems(key + ".a", k.a, spec) + _half_problems(key + ".b", k.b, spec)
        probs += hp
        total += k.count
        if not hp:
            a, b = set(_half(k.a)), set(_half(k.b))
            if a & b:
                probs.append(
                    (
                        key,
                        f"a raindrop tile shows two different colours, but halves {sorted(a)} and "
                        f"{sorted(b)} share {', '.join(sorted(a & b))}",
                    )
                )
            if len(a) > 1 and len(b) > 1:
                probs.append((key, "at most one half of a raindrop tile may be wild; both are"))
    if total != SEED_COUNTS["raindrop_tiles"]:
        counts = " + ".join(str(k.count) for k in spec.bag.tiles)
        probs.append(
            (
                "bag.tiles",
                f"{counts} = {total} raindrop tiles, but the seed's component table has "
                f"{SEED_COUNTS['raindrop_tiles']}",
            )
        )
    window = spec.window.columns * spec.window.tiles_per_column
    if window > total:
        probs.append(
            (
                "window",
                f"{spec.window.columns} columns x {spec.window.tiles_per_column} tiles = {window} "
                f"window places, but the bag holds only {total} tiles",
            )
        )
    return probs


def _bonus_problems(spec: RaindropsGame) -> list[tuple[str, str]]:
    """Bonus tile kinds: colours, pairs of wild tiles, the seed's count and the offer."""
    probs: list[tuple[str, str]] = []
    known = {c.id for c in spec.colours}
    opts = ", ".join(c.id for c in spec.colours)
    n_bonus = 0
    for i, bk in enumerate(spec.bonus_tiles.kinds):
        n_bonus += len(bk.points)
        if bk.colour != WILD and bk.colour not in known:
            probs.append(
                (f"bonus_tiles.kinds[{i}].colour", f"expected one of {opts}, {WILD}; got {bk.colour!r}")
            )
        if bk.colour != WILD and bk.pairs is not None:
            probs.append(
                (
                    f"bonus_tiles.kinds[{i}].pairs",
                    f"only a wild kind prints a pair of colours; got {bk.pairs}",
                )
            )
        if bk.colour == WILD and spec.rules.wild_bonus == "two_colours":
            if bk.pairs is None or len(bk.pairs) != len(bk.points):
                got = "none" if bk.pairs is None else f"{len(bk.pairs)} pairs"
                probs.append(
                    (
                        f"bonus_tiles.kinds[{i}].pairs",
                        (
                            f"rules.wild_bonus two_colours: expected one pair of colours per wild tile "
                            f"({len(bk.points)}); got {got}"
                        ),
                    )
                )
            for j, pair in enumerate(bk.pairs or []):
                if len(pair) != 2 or len(set(pair)) != 2 or not set(pair) <= known:
                    probs.append(
                        (
                            f"bonus_tiles.kinds[{i}].pairs[{j}]",
                            f"expected two different colours of {opts}; got {pair}",
                        )
                    )
    if n_bonus != SEED_COUNTS["bonus_tiles"]:
        counts = " + ".join(str(len(k.points)) for k in spec.bonus_tiles.kinds)
        probs.append(
            (
                "bonus_tiles.kinds",
                f"{counts} = {n_bonus} bonus tiles, but the seed's component table "
                f"has {SEED_COUNTS['bonus_tiles']}",
            )
        )
    if spec.bonus_tiles.offer > n_bonus:
        probs.append(
            (
                "bonus_tiles.offer",
                f"an offer of {spec.bonus_tiles.offer} needs that many of the {n_bonus} bonus tiles",
            )
        )
    return probs


def _cloud_problems(spec: RaindropsGame) -> list[tuple[str, str]]:
    """Cloud token types: ids, conditions, point order and the seed's count."""
    probs: list[tuple[str, str]] = []
    types = [t.id for t in spec.cloud_tokens.types]
    n_cloud = 0
    for i, t in enumerate(spec.cloud_tokens.types):
        n_cloud += len(t.points)
        if types.index(t.id) != i:
            probs.append((f"cloud_tokens.types[{i}].id", f"cloud type {t.id!r} is used twice"))
        for sym in t.condition:
            if sym not in types:
                probs.append(
                    (
                        f"cloud_tokens.types[{i}].condition.{sym}",
                        f"expected a cloud symbol ({', '.join(types)}); got {sym!r}",
                    )
                )
        if any(t.points[j] < t.points[j + 1] for j in range(len(t.points) - 1)):
            probs.append(
                (
                    f"cloud_tokens.types[{i}].points",
                    f"the gold top token should be worth the most, and each next at most the one above; "
                    f"got {t.points}",
                )
            )
    if n_cloud != SEED_COUNTS["cloud_tokens"]:
        counts = " + ".join(str(len(t.points)) for t in spec.cloud_tokens.types)
        probs.append(
            (
                "cloud_tokens.types",
                f"{counts} = {n_cloud} cloud tokens, but the seed's component table "
                f"has {SEED_COUNTS['cloud_tokens']}",
            )
        )
    return probs


def _count_problems(spec: RaindropsGame) -> list[tuple[str, str]]:
    """Thunder tokens, player boards, action markers and player counts against the seed."""
    probs: list[tuple[str, str]] = []
    n_thunder = sum(v.count for v in spec.thunder_tokens.values)
    if n_thunder != SEED_COUNTS["thunder_tokens"]:
        counts = " + ".join(str(v.count) for v in spec.thunder_tokens.values)
        probs.append(
            (
                "thunder_tokens.values",
                f"{counts} = {n_thunder} thunder tokens, but the seed's component "
                f"table has {SEED_COUNTS['thunder_tokens']}",
            )
        )
    if spec.player_boards != SEED_COUNTS["player_boards"]:
        probs.append(
            (
                "player_boards",
                f"the seed's component table has {SEED_COUNTS['player_boards']} player "
                f"boards; got {spec.player_boards}",
            )
        )
    if spec.action_markers != spec.player_boards:
        probs.append(
            (
                "action_markers",
                f"one action marker per player board ({spec.player_boards}); got {spec.action_markers}",
            )
        )
    players = spec.rules.players
    hi = min(SEED_PLAYERS[1], spec.player_boards)
    for i, p in enumerate(players):
        if not SEED_PLAYERS[0] <= p <= hi:
            probs.append(
                (
                    f"rules.players[{i}]",
                    (f"expected {SEED_PLAYERS[0]}..{hi} players (the seed: 2-4人, one board each); got {p}"),
                )
            )
    return probs


def _memory_card_problems(spec: RaindropsGame) -> list[tuple[str, str]]:
    """Memory cards: the seed's count, cell and point ranges, cat cards."""
    probs: list[tuple[str, str]] = []
    mc = spec.memory_cards
    if mc.count != SEED_COUNTS["memory_cards"]:
        probs.append(
            (
                "memory_cards.count",
                f"the seed's component table has {SEED_COUNTS['memory_cards']} memory cards; got {mc.count}",
            )
        )
    size = mc.grid.rows * mc.grid.columns
    if mc.cells.min > mc.cells.max:
        probs.append(("memory_cards.cells", f"range {mc.cells.min}..{mc.cells.max} is empty"))
    for end in ("min", "max"):
        v = getattr(mc.cells, end)
        if v % 2:
            probs.append(
                (
                    f"memory_cards.cells.{end}",
                    f"a pattern is covered by whole tiles (2 drops each), so drops must be even; got {v}",
                )
            )
        if v > size:
            probs.append(
                (
                    f"memory_cards.cells.{end}",
                    f"{mc.grid.rows} x {mc.grid.columns} grid has {size} cells; got {v}",
                )
            )
    if mc.cats > mc.count:
        probs.append(("memory_cards.cats", f"{mc.cats} cat cards in a deck of {mc.count}"))
    if mc.points.min > mc.points.max:
        probs.append(("memory_cards.points", f"points range {mc.points.min}..{mc.points.max} is empty"))
    return probs
