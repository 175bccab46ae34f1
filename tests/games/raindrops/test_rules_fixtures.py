"""Hand-made Raindrops components for the rules tests (no generator needed): a small, readable kit.

Named test_rules_*.py so it sits with the rules tests; it holds builders, and one self-check.
"""

from __future__ import annotations

import itertools

from generator.games.raindrops.components import BonusTile, CloudToken, MemoryCard, RaindropTile, ThunderToken
from generator.games.raindrops.rules import Raindrops
from generator.games.raindrops.state import Params
from tests.games.shipped import game_spec

COLOURS = ("blue", "green", "orange", "purple")
O, P, G, B = "orange", "purple", "green", "blue"

PARAMS = Params.from_spec(game_spec("raindrops"))
"""The shipped kit's rule figures and house rules (layouts/raindrops/kit.yaml via tests/games/shipped.py)."""


def bag84() -> tuple[RaindropTile, ...]:
    """6 colour pairs x 14 = 84 tiles; 2 per pair have a wild half (12 in all), like the digest's default."""
    out: list[RaindropTile] = []
    for x, y in itertools.combinations(COLOURS, 2):
        others = tuple(sorted(c for c in COLOURS if c not in (x, y)))
        for k in range(14):
            if k < 2:
                wild = tuple(sorted((y, others[k])))
                out.append(RaindropTile(len(out) + 1, (x,), wild))
            else:
                out.append(RaindropTile(len(out) + 1, (x,), (y,)))
    return tuple(out)


WILD_PAIRS = ((B, G), (O, P), (G, O), (B, P))
"""The two colours of each wild bonus tile under `wild_bonus: two_colours`."""


def bonus28(wild: str = "all_colours") -> tuple[BonusTile, ...]:
    """6 per colour (points 1,1,2,2,3,3) + 4 wild (points 0) matching every colour, or (wild="two_colours")
    the two colours of WILD_PAIRS."""
    out: list[BonusTile] = []
    for c in COLOURS:
        for p in (1, 1, 2, 2, 3, 3):
            out.append(BonusTile(len(out) + 1, (c,), p, False))
    for i in range(4):
        out.append(
            BonusTile(
                len(out) + 1, COLOURS if wild == "all_colours" else tuple(sorted(WILD_PAIRS[i])), 0, True
            )
        )
    return tuple(out)


CLOUD_TYPES = ("rain", "fog", "snow", "storm")


def clouds12() -> tuple[CloudToken, ...]:
    """4 types x 3 tokens (5, 3, 2): rain needs 2 rain cards, fog 2 fog, snow 1 snow + 1 rain, storm one of
    each."""
    conds = {
        "rain": (("rain", 2),),
        "fog": (("fog", 2),),
        "snow": (("rain", 1), ("snow", 1)),
        "storm": (("fog", 1), ("rain", 1), ("snow", 1), ("storm", 1)),
    }
    out: list[CloudToken] = []
    for t in CLOUD_TYPES:
        for i, p in enumerate((5, 3, 2)):
            out.append(CloudToken(len(out) + 1, t, conds[t], p, i == 0))
    return tuple(out)


def thunder10() -> tuple[ThunderToken, ...]:
    """4 x 3, 3 x 4, 3 x 5."""
    vals = [3] * 4 + [4] * 3 + [5] * 3
    return tuple(ThunderToken(i + 1, v) for i, v in enumerate(vals))


def card(
    cid: int, pattern: list[str], points: int = 5, cloud: str | None = "rain", cat: bool = False
) -> MemoryCard:
    """A card from rows like "OB." (O orange, P purple, G green, B blue, . no drop)."""
    letters = {"O": O, "P": P, "G": G, "B": B, ".": None}
    pat = tuple(tuple(letters[ch] for ch in row) for row in pattern)
    return MemoryCard(cid, pat, points, None if cat else cloud, cat, (), 0.0)


def deck54() -> tuple[MemoryCard, ...]:
    """54 simple cards: 2x2 and 2x3 blocks and 1x4 strips of colour pairs, cycling cloud symbols; 6 cats."""
    shapes = []
    pairs = list(itertools.permutations("OPGB", 2))
    for x, y in pairs:
        shapes.append([x + y, y + x])  # 4 drops
        shapes.append([x + x + y, y + y + x])  # 6 drops
        shapes.append([x + y + x + y])  # 4 drops in a row
        shapes.append([x + ".", y + x, "." + y])  # 4 drops, a staircase
        shapes.append([x + y + ".", "." + x + y])  # 4 drops, a step
    out = []
    for i, s in enumerate(shapes[:54]):
        cells = sum(ch != "." for row in s for ch in row)
        cat = i % 9 == 8
        out.append(card(i + 1, s, points=cells + (3 if cat else 0), cloud=CLOUD_TYPES[i % 4], cat=cat))
    return tuple(out)


def game(cards: tuple[MemoryCard, ...] | None = None, params: Params = PARAMS) -> Raindrops:
    """The rules over the hand-made kit."""
    return Raindrops(
        params, bag84(), cards if cards is not None else deck54(), bonus28(), clouds12(), thunder10()
    )


def test_fixture_counts() -> None:
    assert (PARAMS.columns, PARAMS.tiles_per_column, PARAMS.end_cards, PARAMS.thunder_draw) == (
        6,
        4,
        10,
        (1, 2),
    )
    assert (len(bag84()), len(bonus28()), len(clouds12()), len(thunder10()), len(deck54())) == (
        84,
        28,
        12,
        10,
        54,
    )
    assert sum(t.is_wild for t in bag84()) == 12
