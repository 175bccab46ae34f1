"""The exact cover solver, its explanation of failures, and the independent cover check."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import KitError
from generator.games.raindrops.components import RaindropTile, bag_pairs, build_bag
from generator.games.raindrops.cover import check_cover, explain_uncoverable, find_cover, prove_cover
from tests.games.raindrops.test_components_spec import make_spec

COLOURS = ["orange", "purple", "green", "blue"]
ALL_PAIRS = {(x, y) for x in COLOURS for y in COLOURS if x != y}


def _brute_force_coverable(pattern, pairs) -> bool:
    """Independent oracle: try every set of side-by-side placements and test exactness with sets."""
    cells = {(r, c) for r, row in enumerate(pattern) for c, v in enumerate(row) if v is not None}
    edges = [
        ((r, c), (r + dr, c + dc))
        for r, c in cells
        for dr, dc in ((0, 1), (1, 0))
        if (r + dr, c + dc) in cells
    ]
    edges = [(p, q) for p, q in edges if (pattern[p[0]][p[1]], pattern[q[0]][q[1]]) in pairs]
    k = len(cells) // 2
    if len(cells) % 2:
        return False
    for combo in combinations(edges, k):
        covered = [x for e in combo for x in e]
        if len(set(covered)) == len(cells):
            return True
    return False


def test_same_colour_neighbours_without_wild_are_rejected_with_cells() -> None:
    bag = build_bag(make_spec())
    pattern = (("orange", "orange"),)
    assert find_cover(pattern, bag_pairs(bag)) is None
    assert explain_uncoverable(pattern, bag_pairs(bag)) == (
        "cell (0,0) orange cannot be covered ((0,1) orange: no orange/orange tile in the bag); "
        "cell (0,1) orange cannot be covered ((0,0) orange: no orange/orange tile in the bag) (pattern oo)"
    )


def test_prove_cover_rejects_same_colour_neighbours_in_a_bag_without_wild() -> None:
    plain = tuple(t for t in build_bag(make_spec()) if not t.is_wild)
    assert len(plain) == 72
    pattern = (("purple", "purple", "orange", "green"),)
    with pytest.raises(KitError) as err:
        prove_cover(pattern, plain, label="card 7")
    assert str(err.value) == (
        "card 7: cell (0,0) purple cannot be covered ((0,1) purple: no purple/purple tile in the bag) "
        "(pattern ppog)"
    )
    ok = (("purple", "orange", "orange", "green"),)
    assert prove_cover(ok, plain) == (
        ((0, 0), (0, 1), "purple", "orange"),
        ((0, 2), (0, 3), "orange", "green"),
    )


def test_pair_missing_from_a_restricted_bag() -> None:
    bag = (RaindropTile(1, ("orange",), ("purple",)), RaindropTile(2, ("green",), ("blue",)))
    pattern = (("orange", "green"), ("purple", "blue"))
    assert find_cover(pattern, bag_pairs(bag)) == (
        ((0, 0), (1, 0), "orange", "purple"),
        ((0, 1), (1, 1), "green", "blue"),
    )
    pattern2 = (("orange", "purple", "green"), (None, "blue", None))  # parity: orange/purple strands green
    assert find_cover(pattern2, bag_pairs(bag)) is None
    assert explain_uncoverable(pattern2, bag_pairs(bag)).startswith(
        "cell (0,2) green cannot be covered ((0,1) purple: no green/purple tile in the bag)"
    )


def test_wild_half_supplies_the_missing_pair() -> None:
    plain = (RaindropTile(1, ("orange",), ("purple",)),)
    pattern = (("orange", "green"),)
    assert find_cover(pattern, bag_pairs(plain)) is None
    wild = plain + (RaindropTile(2, ("orange",), ("blue", "green")),)
    assert find_cover(pattern, bag_pairs(wild)) == (((0, 0), (0, 1), "orange", "green"),)


def test_needs_backtracking() -> None:
    # (0,0) pairs right first (o/p), which strands blue at (1,1); only the vertical start works.
    pattern = (("orange", "purple"), ("green", "blue"), ("purple", "green"))
    pairs = {
        ("orange", "purple"),
        ("purple", "orange"),
        ("orange", "green"),
        ("green", "orange"),
        ("purple", "blue"),
        ("blue", "purple"),
        ("green", "purple"),
        ("purple", "green"),
    }
    cover = find_cover(pattern, pairs)
    assert cover == (
        ((0, 0), (1, 0), "orange", "green"),
        ((0, 1), (1, 1), "purple", "blue"),
        ((2, 0), (2, 1), "purple", "green"),
    )
    assert check_cover(pattern, cover, pairs) == []


def test_check_cover_catches_tampering() -> None:
    pattern = (("orange", "purple"), ("green", "blue"))
    good = (((0, 0), (0, 1), "orange", "purple"), ((1, 0), (1, 1), "green", "blue"))
    assert check_cover(pattern, good, ALL_PAIRS) == []
    assert check_cover(pattern, good[:1], ALL_PAIRS) == ["pattern: drops (1,0), (1,1) are not covered"]
    wrong = (((0, 0), (0, 1), "orange", "green"), good[1])
    assert check_cover(pattern, wrong, ALL_PAIRS) == [
        "pattern tile 1 at (0, 0)-(0, 1): cell (0, 1) shows purple, the tile half says green"
    ]
    apart = (((0, 0), (1, 1), "orange", "blue"), ((0, 1), (1, 0), "purple", "green"))
    assert "cells are not side by side" in check_cover(pattern, apart, ALL_PAIRS)[0]
    twice = (good[0], ((0, 1), (1, 1), "purple", "blue"))
    assert any("already under tile 1" in m for m in check_cover(pattern, twice, ALL_PAIRS))


cells_st = st.lists(st.sampled_from(COLOURS + [None]), min_size=6, max_size=6)


@settings(max_examples=150, deadline=None)
@given(cells_st, st.sets(st.sampled_from(sorted(ALL_PAIRS)), max_size=12))
def test_solver_agrees_with_brute_force(cells, pair_subset) -> None:
    pattern = (tuple(cells[0:3]), tuple(cells[3:6]))
    pairs = set(pair_subset) | {(y, x) for x, y in pair_subset}
    cover = find_cover(pattern, pairs)
    assert (cover is not None) == _brute_force_coverable(pattern, pairs)
    if cover is not None:
        assert check_cover(pattern, cover, pairs) == []
