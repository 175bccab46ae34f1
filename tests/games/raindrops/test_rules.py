"""One test per rule of the Raindrops digest, on hand-built windows and boards."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from generator.errors import RuleViolation
from generator.games.raindrops.state import (
    Drop,
    EndPlacement,
    Held,
    KeepThunder,
    NoSpecial,
    Place,
    PlaceBonus,
    PlayerState,
    RefillBonus,
    Score,
    Special,
    TakeBonus,
    TakeCard,
    decide,
)
from tests.games.raindrops.test_rules_fixtures import PARAMS, B, G, O, P, bag84, card, game

TILES = {t.id: t for t in bag84()}
L = {"B": B, "G": G, "O": O, "P": P}


def start(columns: int = 3, players: int = 2, cards=None, seed: int = 0, **rules: str):
    """A game past set-up (seat 0 to play) on a narrow window; `rules` set house-rule switches of Params."""
    g = game(cards, params=replace(PARAMS, columns=columns, **rules))
    st = g.new_state(players, np.random.default_rng(seed))
    for _ in range(players):
        g.apply(st, g.legal_actions(st)[0])
    assert st.phase == "special" and st.current == 0
    return g, st


def set_window(st, cols: list[list[str | tuple[int, bool]]]) -> None:
    """Columns given TOP tile first: "BO" = a tile showing B above O; (id, flipped) = that tile.
    The old window goes back into the bag and the new tiles come out of it (nothing created or lost)."""
    for c in st.columns:
        st.bag.extend(t for t, _ in c)
    new = []
    for spec in cols:
        col = []
        for s in reversed(spec):
            if isinstance(s, tuple):
                st.bag.remove(s[0])
                col.append(s)
                continue
            top, bot = L[s[0]], L[s[1]]
            for t in sorted(st.bag):
                if TILES[t].a == (top,) and TILES[t].b == (bot,):
                    col.append((t, False))
                    break
                if TILES[t].a == (bot,) and TILES[t].b == (top,):
                    col.append((t, True))
                    break
            st.bag.remove(col[-1][0])
        new.append(col)
    st.columns = new
    assert st.tile_count() == 84


def sym(g, st, r, c) -> str:
    return "".join(x[0].upper() for x in g._colours_of(g.symbol(st, r, c)[1]))


# symbol rows 0..7 top to bottom, per column: OBBGGPPO / BGPBOGBO / GOBPBOGP
WINDOW = [["OB", "BG", "GP", "PO"], ["BG", "PB", "OG", "BO"], ["GO", "BP", "BO", "GP"]]
BLUE = ((0, 1), (1, 0), (2, 0), (3, 1), (4, 2))


def test_window_rows_top_half_is_half_a() -> None:
    g, st = start()
    set_window(st, WINDOW)
    assert "".join(sym(g, st, r, 0) for r in range(8)) == "OBBGGPPO"
    assert "".join(sym(g, st, r, 2) for r in range(8)) == "GOBPBOGP"


def test_path_straight_and_diagonal_steps_any_length() -> None:
    g, st = start()
    set_window(st, WINDOW)
    paths = g.drop_paths(st)
    assert BLUE in paths
    assert BLUE[:1] in paths and BLUE[:3] in paths  # any length, even 1; need not reach the bottom
    assert not any(
        p[: len(BLUE)] == BLUE and len(p) > len(BLUE) for p in paths
    )  # (5,2) is O: the blue path stops
    assert all(p[0][0] == 0 for p in paths)


@pytest.mark.parametrize(
    "cells, word",
    [
        (((0, 1), (0, 0)), "sideways"),
        (((0, 1), (1, 0), (0, 0)), "up"),
        (((0, 0), (1, 2)), "one step"),
        (((1, 0),), "top row"),
        (((0, 1), (1, 1)), "path's colour"),
    ],
)
def test_forbidden_steps(cells, word) -> None:
    g, st = start()
    set_window(st, WINDOW)
    why = g.path_problem(st, cells)
    assert why is not None and word in why
    with pytest.raises(RuleViolation):
        g.apply(st, NoSpecial())
        g.apply(st, Drop(cells))


def test_wild_matches_either_colour_but_the_path_keeps_one() -> None:
    g, st = start()
    # tile 1 shows blue / green+orange; flipped, its wild half is on top (row 0 of column 1)
    set_window(st, [["BO", "GP", "BG", "PB"], [(1, True), "OP", "BG", "PB"], ["BG", "PB", "OG", "BO"]])
    assert sym(g, st, 0, 1) == "GO"
    assert g.path_problem(st, ((0, 1), (1, 0), (2, 1))) is None  # wild as orange, orange, orange
    assert g.path_problem(st, ((0, 1), (1, 0), (2, 0))) is not None  # orange then green: colour changed
    assert g.path_problem(st, ((0, 1), (1, 2))) is None  # wild as green, then green


def test_drop_takes_every_touched_tile_once_and_the_rest_slide_down() -> None:
    g, st = start()
    set_window(st, WINDOW)
    before = [list(c) for c in st.columns]
    g.apply(st, NoSpecial())
    g.apply(st, Drop(BLUE))
    taken = [before[1][3][0], before[0][3][0], before[0][2][0], before[1][2][0], before[2][1][0]]
    assert sorted(st.hand) == sorted(taken)
    assert st.columns[0][:2] == before[0][:2] and st.columns[1][:2] == before[1][:2]
    assert st.columns[2][:3] == [before[2][0], before[2][2], before[2][3]]  # slid down over the gap
    assert [len(c) for c in st.columns] == [4, 4, 4]  # and refilled in the drop step
    assert st.phase == "place"  # 5 tiles: no bonus tile
    assert st.tile_count() == 84


def test_refill_columns_left_to_right_bottom_to_top() -> None:
    g, st = start()
    set_window(st, WINDOW)
    st.columns[0] = st.columns[0][:2]
    st.columns[2] = st.columns[2][:3]
    st.bag.extend([0] * 0)
    nxt = list(reversed(st.bag[-3:]))  # drawn from the end
    g._refill_window(st)
    assert [t for t, _ in st.columns[0][2:]] == nxt[:2] and st.columns[2][3][0] == nxt[2]


@pytest.mark.parametrize(
    "refill, choice, shown", [("always", None, 4), ("by_choice", True, 4), ("by_choice", False, 2)]
)
def test_three_or_fewer_tiles_earn_a_bonus_tile_after_refilling_the_offer(refill, choice, shown) -> None:
    # seed: 「表向きのタイルを4枚にすることができます」 (may refill): house rule bonus_refill
    g, st = start(bonus_refill=refill)
    set_window(st, WINDOW)
    st.bonus_offer = st.bonus_offer[:2]
    g.apply(st, NoSpecial())
    g.apply(st, Drop(BLUE[:3]))  # 2 tiles (rows 0-1 of col 1 and col 0, rows 2-3 of col 0): 3 tiles
    if choice is not None:
        assert st.phase == "refill" and g.legal_actions(st) == [RefillBonus(False), RefillBonus(True)]
        with pytest.raises(RuleViolation):
            g.apply(st, TakeBonus(st.bonus_offer[0]))
        g.apply(st, RefillBonus(choice))
    assert len(st.hand) == 3 and st.phase == "bonus"
    assert len(st.bonus_offer) == shown  # refilled to 4 before taking, unless the player declined
    if shown < 4:
        return
    pick = st.bonus_offer[3]
    g.apply(st, TakeBonus(pick))
    assert st.players[0].bonus_reserve == [pick] and len(st.bonus_offer) == 3


ZIGZAG = [["BO"] * 4, ["OB"] * 4]
"""Column 0 shows blue on rows 0, 2, 4, 6; column 1 on rows 1, 3, 5, 7."""


def zig(n: int) -> tuple[tuple[int, int], ...]:
    return tuple((r, r % 2) for r in range(n))


def test_one_bottom_row_tile_draws_one_thunder_token() -> None:
    g, st = start(columns=2)
    set_window(st, ZIGZAG)
    top = st.thunder_stack[0]
    g.apply(st, NoSpecial())
    g.apply(st, Drop(zig(7)))  # ends on row 6 of column 0: one bottom-row tile
    assert st.players[0].thunder == [top] and len(st.thunder_stack) == 9


def test_two_bottom_row_tiles_draw_two_keep_one_other_under_the_stack() -> None:
    g, st = start(columns=2)
    set_window(st, ZIGZAG)
    first, second = st.thunder_stack[:2]
    g.apply(st, NoSpecial())
    g.apply(st, Drop(zig(8)))  # rows 6 and 7 in different columns: two bottom-row tiles
    assert st.phase == "thunder" and sorted(st.drawn_thunder) == sorted([first, second])
    with pytest.raises(RuleViolation):
        g.apply(st, KeepThunder(999))
    g.apply(st, KeepThunder(second))
    assert st.players[0].thunder == [second] and st.thunder_stack[-1] == first and len(st.thunder_stack) == 9
    assert len(st.hand) == 8 and [len(c) for c in st.columns] == [4, 4]  # emptied, then refilled
    assert not set(st.hand) & {t for c in st.columns for t, _ in c}


def test_no_thunder_without_a_bottom_row_tile() -> None:
    g, st = start(columns=2)
    set_window(st, ZIGZAG)
    g.apply(st, NoSpecial())
    g.apply(st, Drop(zig(6)))
    assert st.players[0].thunder == []


def test_special_flip_swap_top() -> None:
    g, st = start()
    set_window(st, WINDOW)
    before = [list(c) for c in st.columns]
    g.apply(st, Special("flip", 0, 3))
    assert st.columns[0][3] == (before[0][3][0], not before[0][3][1])
    assert sym(g, st, 0, 0) == "B" and sym(g, st, 1, 0) == "O"
    g2, st2 = start()
    set_window(st2, WINDOW)
    g2.apply(st2, Special("swap", 1, 2))
    assert st2.columns[1][2] == before[2][2] and st2.columns[2][2] == before[1][2]
    g3, st3 = start()
    set_window(st3, WINDOW)
    st3.players[0].marker = 0
    g3.apply(st3, Special("top", 2, 0))
    assert st3.columns[2] == [before[2][1], before[2][2], before[2][3], before[2][0]]


def test_marker_never_stays_on_the_slot_it_starts_on() -> None:
    g, st = start()
    set_window(st, WINDOW)
    assert st.players[0].marker == 2  # starts on the 3rd slot (top)
    assert not any(a.kind == "top" for a in g.specials(st))
    with pytest.raises(RuleViolation, match="must move"):
        g.apply(st, Special("top", 0, 0))
    g.apply(st, Special("flip", 0, 0))
    assert st.players[0].marker == 0
    st.phase = "special"  # next turn of the same player: flip is barred now
    with pytest.raises(RuleViolation, match="must move"):
        g.apply(st, Special("flip", 0, 0))
    assert {a.kind for a in g.specials(st)} == {"swap", "top"}


def test_swap_needs_a_horizontal_neighbour() -> None:
    g, st = start()
    set_window(st, WINDOW)
    st.columns[2] = st.columns[2][:1]
    with pytest.raises(RuleViolation):
        g.apply(st, Special("swap", 1, 3))  # column 2 has no tile at index 3
    with pytest.raises(RuleViolation):
        g.apply(st, Special("swap", 2, 0))  # no column to the right


CARD = card(900, ["OB", "GP"], points=6, cloud="rain")
"""orange blue / green purple."""


def board(*cards, hand: list[tuple[str, str]] = ()):
    """A game whose seat 0 holds `cards` and has tiles (a, b) in hand, in the placement phase."""
    g, st = start(cards=tuple(cards) + tuple(card(i, ["OB"], 2) for i in range(1, 20)))
    ps = st.players[0]
    st.bag.extend(h.card for h in [])  # cards never enter the bag
    ps.held = [Held(c.id) for c in cards]
    st.phase = "place"
    for a, b in hand:
        t = next(t for t in sorted(st.bag) if TILES[t].a == (L[a],) and TILES[t].b == (L[b],))
        st.bag.remove(t)
        st.hand.append(t)
    return g, st


def test_tile_goes_on_two_matching_cells_horizontal_or_vertical() -> None:
    g, st = board(CARD, hand=[("B", "O"), ("B", "P")])
    ob, bp = st.hand
    g.apply(st, Place(ob, 0, ((0, 1), (0, 0))))  # horizontal, half a (blue) on the blue cell
    assert g.place_problem(st, Place(bp, 0, ((0, 1), (1, 1)))) is not None  # stacked on a covered cell
    assert st.players[0].held[0].covered == {(0, 0): f"t{ob}", (0, 1): f"t{ob}"}
    g2, st2 = board(CARD, hand=[("G", "O")])
    g2.apply(st2, Place(st2.hand[0], 0, ((1, 0), (0, 0))))  # vertical
    assert len(st2.players[0].held[0].covered) == 2


def test_half_matching_and_stacking_are_refused() -> None:
    g, st = board(CARD, hand=[("O", "P"), ("B", "O"), ("B", "O")])
    op, ob, bo = st.hand
    with pytest.raises(RuleViolation, match="both halves must match"):
        g.apply(st, Place(op, 0, ((0, 0), (0, 1))))
    with pytest.raises(RuleViolation, match="not side by side"):
        g.apply(st, Place(ob, 0, ((0, 1), (1, 0))))
    with pytest.raises(RuleViolation, match="both halves must match"):
        g.apply(st, Place(bo, 0, ((0, 0), (0, 1))))  # the wrong way round
    g.apply(st, Place(bo, 0, ((0, 1), (0, 0))))
    with pytest.raises(RuleViolation, match="never stacked"):
        g.apply(st, Place(ob, 0, ((0, 1), (0, 0))))


def _give_bonus(st, colour: str) -> int:
    b = next(b for b in st.bonus_stack if st_game_bonus(b) == (colour,))
    st.bonus_stack.remove(b)
    st.players[0].bonus_reserve.append(b)
    return b


def st_game_bonus(b: int):
    from tests.games.raindrops.test_rules_fixtures import bonus28

    return {x.id: x.colours for x in bonus28()}[b]


def test_bonus_tile_on_a_card_cell_or_on_a_tile_half() -> None:
    g, st = board(CARD, hand=[("O", "P")])
    blue = _give_bonus(st, B)
    green = _give_bonus(st, G)
    op = st.hand[0]
    with pytest.raises(RuleViolation):
        g.apply(st, PlaceBonus(green, 0, (0, 1)))  # green bonus on a blue cell
    g.apply(st, Place(op, 0, ((0, 0), (0, 1)), over_b=blue))  # blue bonus turns the purple half blue
    g.apply(st, PlaceBonus(green, 0, (1, 0)))
    assert st.players[0].bonus_reserve == [] and sorted(st.players[0].held[0].bonuses) == sorted(
        [blue, green]
    )


def test_completing_a_card_discards_tiles_keeps_bonuses_and_takes_a_new_card() -> None:
    g, st = board(CARD, hand=[("B", "O"), ("G", "P")])
    ob, gp = st.hand
    disp = list(st.display)
    g.apply(st, Place(ob, 0, ((0, 1), (0, 0))))
    g.apply(st, Place(gp, 0, ((1, 0), (1, 1))))
    ps = st.players[0]
    assert ps.completed == [900] and sorted(st.discard[-2:]) == sorted([ob, gp])
    assert st.phase == "card"
    g.apply(st, TakeCard(disp[1]))
    assert ps.held[-1].card == disp[1] and ps.held[-1].fresh
    assert g.place_problem(st, Place(ob, len(ps.held) - 1, ((0, 0), (0, 1)))) is not None
    g.apply(st, EndPlacement(()))
    assert len(st.display) == 4  # refilled at the end of the turn


def test_reserve_keeps_at_most_two_tiles() -> None:
    g, st = board(CARD, hand=[("O", "P"), ("O", "P"), ("G", "O")])
    with pytest.raises(RuleViolation, match="at most 2"):
        g.apply(st, EndPlacement(tuple(st.hand)))
    keep = tuple(st.hand[:2])
    lost = st.hand[2]
    g.apply(st, EndPlacement(keep))
    assert st.players[0].reserve == list(keep) and st.discard[-1] == lost


def test_cloud_tokens_one_per_type_and_cats_count_for_none() -> None:
    g, st = start()
    ps = st.players[0]
    rain = [c.id for c in g.cards.values() if c.cloud == "rain" and not c.cat][:3]
    cat = [c.id for c in g.cards.values() if c.cat][:2]
    ps.completed = [rain[0]] + cat
    st.phase = "place"
    g.apply(st, EndPlacement(()))
    assert ps.clouds == []  # one rain card and two cats: rain needs 2
    ps.completed = rain[:3]
    st.current, st.phase = 0, "place"
    g.apply(st, EndPlacement(()))
    assert [g.clouds[t].type for t in ps.clouds] == ["rain"]  # one token, though 3 rain cards
    assert g.clouds[ps.clouds[0]].gold
    st.current, st.phase = 0, "place"
    g.apply(st, EndPlacement(()))
    assert len(ps.clouds) == 1  # at most one per type


def test_bag_empties_reshuffle_once_second_time_ends_after_the_round() -> None:
    g, st = start(players=3, bag_empties="tile_needed")
    st.discard.extend(st.bag)
    st.bag = []
    g.apply(st, NoSpecial())
    g.apply(st, Drop(((0, 0),)))
    g.apply(st, st.phase == "bonus" and TakeBonus(st.bonus_offer[0]) or EndPlacement(()))
    while st.current == 0:
        g.apply(st, EndPlacement(()))
    assert st.bag_empties == 1 and st.end_trigger is None  # seat 1 refilled: reshuffled once
    assert st.tile_count() == 84
    st.discard.extend(st.bag)
    st.bag = []
    for seat in (1, 2):
        assert st.current == seat
        if seat == 2:
            assert st.bag_empties == 2 and st.end_trigger == "bag"
        g.apply(st, NoSpecial())
        g.apply(st, Drop(((0, 0),)))
        if st.phase == "refill":
            g.apply(st, RefillBonus(True))
        if st.phase == "bonus":
            g.apply(st, TakeBonus(st.bonus_offer[0]))
        if seat == 1:
            st.discard.extend(st.bag)
            st.bag = []
        g.apply(st, EndPlacement(()))
    assert st.phase == "final"  # the last seat played: equal turns
    assert [p.turns for p in st.players] == [1, 1, 1]
    for _ in range(3):
        g.apply(st, EndPlacement(tuple(st.players[st.current].reserve)))
    assert st.phase == "over" and g.outcome(st).trigger == "bag"


def test_tenth_card_triggers_the_end_and_the_round_is_finished() -> None:
    g, st = start(players=3)
    ps = st.players[0]
    ps.completed = [
        c for c in g.card_ids if c not in st.display and all(c != h.card for p in st.players for h in p.held)
    ][:9]
    c0 = ps.held[0].card
    ps.held[0].covered = {cell: "x" for cell in g.card_cells[c0][2:]}
    first, second = g.card_cells[c0][:2]
    st.phase = "place"
    a, b = g.colour_at[c0][first], g.colour_at[c0][second]
    t = next(t for t in sorted(st.bag) if TILES[t].a == (a,) and TILES[t].b == (b,))
    st.bag.remove(t)
    st.hand.append(t)
    g.apply(st, Place(t, 0, (first, second)))
    assert st.end_trigger == "cards" and len(ps.completed) == 10
    g.apply(st, TakeCard(None))
    g.apply(st, EndPlacement(()))
    for seat in (1, 2):  # the round is finished
        assert st.current == seat and st.phase == "special"
        g.apply(st, NoSpecial())
        g.apply(st, Drop(((0, 0),)))
        if st.phase == "refill":
            g.apply(st, RefillBonus(True))
        if st.phase == "bonus":
            g.apply(st, TakeBonus(st.bonus_offer[0]))
        g.apply(st, EndPlacement(()))
    assert st.phase == "final" and st.current == 0


def test_final_placement_completes_cards_from_the_reserve_without_new_cards() -> None:
    g, st = board(CARD, hand=[("B", "O"), ("G", "P")])
    ps = st.players[0]
    ps.reserve, st.hand = list(st.hand), []
    st.phase = "final"
    deck = len(st.deck)
    for a in (Place(ps.reserve[0], 0, ((0, 1), (0, 0))), Place(ps.reserve[1], 0, ((1, 0), (1, 1)))):
        g.apply(st, a)
    assert ps.completed == [900] and st.phase == "final" and len(st.deck) == deck and ps.clouds == []


def test_rulebook_scoring_example_48_8_15_4_is_75() -> None:
    g, _ = start()
    ps = PlayerState()
    pts: dict[int, int] = {}
    for c in g.cards.values():
        pts.setdefault(c.points, c.id)
    # 48 card points from completed cards (6 + 6 + 6 + 6 + 6 + 6 + 6 + 6 with the fixture deck's 6-drop cards)
    six = [c.id for c in g.cards.values() if c.points == 6 and not c.cat][:8]
    ps.completed = six
    ps.used_bonuses = [1, 2, 3]  # 3 used: 1 point each
    ps.bonus_reserve = [5, 3]  # unused, printed 2 + 1 = ... see assert
    assert sum(g.bonus[b].points for b in ps.bonus_reserve) == 5
    ps.clouds = [1, 4, 10]  # 5 + 5 + 5
    assert sum(g.clouds[t].points for t in ps.clouds) == 15
    ps.thunder = [5]
    assert g.thunder[5].value == 4
    ps.held = [Held(six[0] + 1), Held(six[0] + 2)]  # no tiles on her incomplete cards
    s = g.score(ps)
    assert (s.cards, s.bonus, s.clouds, s.thunder, s.incomplete, s.total) == (48, 8, 15, 4, 0, 75)


def test_incomplete_part_counts_tiles_on_one_card_only() -> None:
    g, _ = start()
    ps = PlayerState(held=[Held(1, tiles=[5, 6], bonuses=[7]), Held(2, tiles=[8])])
    assert g.score(ps).incomplete == 3


def test_tie_breaks_total_then_card_points_then_shared() -> None:
    a, b, c = Score(40, 5, 0, 0, 0), Score(30, 15, 0, 0, 0), Score(20, 0, 0, 0, 0)
    o = decide([a, b, c])
    assert o.winners == (0,) and o.tie_break == "cards"
    assert decide([a, a, c]).winners == (0, 1) and decide([a, a]).tie_break == "shared"
    assert decide([a, c]).tie_break == "total"


@pytest.mark.parametrize("players", [0, 1, 5])
def test_a_game_needs_two_to_four_players(players) -> None:
    # seed: 「2-4人」 (a display of 5 cards and a solo game were accepted before)
    with pytest.raises(RuleViolation, match="2-4 players"):
        game().new_state(players, np.random.default_rng(0))


def _finish_turn(g, st) -> None:
    """The rest of a turn after the drop: refill the bonus offer, take a bonus tile, end the placement."""
    if st.phase == "refill":
        g.apply(st, RefillBonus(True))
    if st.phase == "bonus":
        g.apply(st, TakeBonus(st.bonus_offer[0]))
    g.apply(st, EndPlacement(()))


def _leave_in_bag(st, n: int) -> None:
    """Move all but the last `n` tiles of the bag (the next ones drawn) to the discard pile."""
    st.discard.extend(st.bag[:-n])
    st.bag = st.bag[-n:]


@pytest.mark.parametrize("refill", ["drop_step", "next_turn"])
@pytest.mark.parametrize("when, at_draw, at_need", [("last_tile_drawn", 1, 1), ("tile_needed", 0, 1)])
def test_the_bag_empties_when_its_last_tile_is_drawn(when, at_draw, at_need, refill) -> None:
    # seed: 「袋が空になると、一時的にプレイが中断されます」: house rule bag_empties (under either
    # window_refill)
    g, st = start(players=2, bag_empties=when, window_refill=refill)
    g.apply(st, NoSpecial())
    if refill == "drop_step":
        _leave_in_bag(st, 1)  # the drop below takes 1 tile: its refill draws the bag's last tile
    g.apply(st, Drop(((0, 0),)))
    if refill == "next_turn":
        _leave_in_bag(st, sum(g.params.tiles_per_column - len(c) for c in st.columns))
    _finish_turn(g, st)  # by seat 1's turn the window has taken the bag's last tile
    assert st.bag_empties == at_draw and (len(st.bag) > 0) == (at_draw == 1)
    assert st.tile_count() == 84
    g.apply(st, NoSpecial())
    g.apply(st, Drop(((0, 0),)))
    if at_draw == 0 and refill == "next_turn":
        assert st.bag == []
    _finish_turn(g, st)  # a tile was needed (seat 1's drop step, or seat 0's turn start)
    assert st.bag_empties == at_need and st.tile_count() == 84


def test_the_dropping_player_refills_the_window_in_the_same_turn() -> None:
    """The seed's step 2 ends with the refill:
    「タイルを取った後、ボードを少し傾けて、まだボード上に残っているタイル
    が下に滑って隙間を埋めるようにします。その後、袋から引いた新しい雨粒タイルでボードを埋めます。」 and its
    example does it within Olivia's turn:
    「最後に、ボードを傾けてタイルを滑らせます(C)。ターン順で次のプレイヤーが窓ボードに新しい
    タイルを補充します(D)。」 (house rule window_refill: drop_step)."""
    g, st = start()
    set_window(st, WINDOW)
    bag = list(st.bag)
    g.apply(st, NoSpecial())
    g.apply(st, Drop(BLUE))  # 5 tiles: columns 0 and 1 lose 2, column 2 one
    assert st.current == 0 and st.phase == "place"  # still Olivia's turn
    drawn = list(reversed(bag[-5:]))  # drawn from the end of the bag
    assert [t for t, _ in st.columns[0][2:]] == drawn[:2]  # columns left to right, each bottom to top
    assert [t for t, _ in st.columns[1][2:]] == drawn[2:4] and st.columns[2][3][0] == drawn[4]
    assert st.bag == bag[:-5] and st.tile_count() == 84


def test_next_turn_refill_leaves_the_window_short_until_the_next_player_begins() -> None:
    g, st = start(window_refill="next_turn")
    set_window(st, WINDOW)
    g.apply(st, NoSpecial())
    g.apply(st, Drop(BLUE))
    assert [len(c) for c in st.columns] == [2, 2, 3]
    g.apply(st, EndPlacement(()))
    assert st.current == 1 and [len(c) for c in st.columns] == [4, 4, 4]


@pytest.mark.parametrize("refill, more_turns", [("drop_step", 0), ("next_turn", 1)])
def test_the_last_seat_emptying_the_bag_again_ends_the_game_after_its_turn(refill, more_turns) -> None:
    """「袋が2回目に空になったら、袋を補充し、すべてのプレイヤーが同じターン数を行うまでプレイを続けます(開始
    プレイヤーの右側にいるプレイヤーで終了します)」: when the last seat's drop empties the bag the second
    time, the refill in its own drop step (drop_step) counts the emptying in that turn and the round is
    already complete; refilled at the start of seat 0's turn (next_turn) the emptying falls in the next round
    and every player plays one more turn."""
    g, st = start(players=3, window_refill=refill)
    for _ in range(2):  # seats 0 and 1 play a plain turn
        g.apply(st, NoSpecial())
        g.apply(st, Drop(((0, 0),)))
        _finish_turn(g, st)
    st.bag_empties = 1  # the bag has emptied once already
    assert st.current == 2 and st.end_trigger is None
    g.apply(st, NoSpecial())
    if refill == "drop_step":
        _leave_in_bag(st, 1)
    g.apply(st, Drop(((0, 0),)))  # takes 1 tile; the refill draws the bag's last one
    if refill == "next_turn":
        _leave_in_bag(st, 1)
    assert st.end_trigger == ("bag" if refill == "drop_step" else None)
    _finish_turn(g, st)
    for _ in range(3 * more_turns):  # the extra round under next_turn
        assert st.end_trigger == "bag" and st.phase == "special"
        g.apply(st, NoSpecial())
        g.apply(st, Drop(((0, 0),)))
        _finish_turn(g, st)
    assert st.phase == "final" and st.current == 0 and st.bag_empties == 2
    assert [p.turns for p in st.players] == [1 + more_turns] * 3


@pytest.mark.parametrize("clouds", ["earned", "not_earned"])
@pytest.mark.parametrize("last_turn_card", ["usable", "not_usable"])
def test_final_placement_on_a_card_taken_in_the_last_turn(last_turn_card, clouds) -> None:
    """「その後、各プレイヤーはリザーブの雨粒とボーナスタイルを記憶カードに置いて完成させることが
    できますが、新しいカードを引くことはありません」: house rule final_last_turn_card (whether the wait
    「この時点で、取ったばかりの記憶カードにタイルを置くことはできません。次のターンまで待つ必要があります」
    still holds when there is no next turn); and 「シンボルが一致したら、ただちにそのトークンを獲得します」:
    house rule final_clouds. The two are independent."""
    g, st = start(
        players=2,
        cards=(
            CARD,
            card(901, ["OB"], 2, cloud="rain"),
            card(902, ["OB"], 2),
            *(card(i, ["OB"], 2) for i in range(1, 20)),
        ),
        final_last_turn_card=last_turn_card,
        final_clouds=clouds,
    )
    ps = st.players[1]
    ps.completed = [901]  # one rain card done; a second rain card earns the rain cloud
    ps.held = [Held(900, fresh=True, since=1), Held(902, since=0)]  # 900 taken in the last turn, 902 older
    ps.reserve = [
        next(t for t in sorted(st.bag) if TILES[t].a == (B,) and TILES[t].b == (O,)),
        next(t for t in sorted(st.bag) if TILES[t].a == (G,) and TILES[t].b == (P,)),
    ]
    for t in ps.reserve:
        st.bag.remove(t)
    st.end_trigger = "cards"
    st.current, st.phase = 1, "place"
    g.apply(st, EndPlacement(tuple(ps.reserve)))
    assert st.phase == "final" and st.current == 0
    g.apply(st, EndPlacement(tuple(st.players[0].reserve)))
    place = Place(ps.reserve[0], 0, ((0, 1), (0, 0)))
    assert g.place_problem(st, Place(ps.reserve[0], 1, ((0, 1), (0, 0)))) is None  # the older card: always
    if last_turn_card == "not_usable":
        assert g.place_problem(st, place) is not None and all(a.slot == 1 for a in g.placements(st))
        g.apply(st, Place(ps.reserve[0], 1, ((0, 1), (0, 0))))  # completes 902, a second rain card
        assert ps.completed == [901, 902] and ps.clouds == []
        g.apply(st, EndPlacement(tuple(ps.reserve)))
        assert st.phase == "over"
        assert [g.clouds[c].type for c in ps.clouds] == (["rain"] if clouds == "earned" else [])
        return
    g.apply(st, place)
    g.apply(st, Place(ps.reserve[0], 0, ((1, 0), (1, 1))))
    assert ps.completed == [901, 900] and st.phase == "final" and ps.clouds == []
    g.apply(st, EndPlacement(()))
    assert st.phase == "over"
    assert [g.clouds[c].type for c in ps.clouds] == (["rain"] if clouds == "earned" else [])


@pytest.mark.parametrize("rule, ok", [("one_half", False), ("both_halves", True)])
def test_one_bonus_tile_per_raindrop_tile(rule, ok) -> None:
    # seed: 「未配置の雨粒タイル上に。そのシンボル1つを変更し」: house rule bonus_per_tile
    g, st = start(cards=(CARD, *(card(i, ["OB"], 2) for i in range(1, 20))), bonus_per_tile=rule)
    ps = st.players[0]
    ps.held, st.phase = [Held(900)], "place"
    t = next(t for t in sorted(st.bag) if TILES[t].a == (G,) and TILES[t].b == (P,))
    st.bag.remove(t)
    st.hand.append(t)
    orange, blue = _give_bonus(st, O), _give_bonus(st, B)
    both = Place(t, 0, ((0, 0), (0, 1)), over_a=orange, over_b=blue)  # O B from a G P tile: two bonus tiles
    assert (both in g.placements(st)) == ok
    if ok:
        g.apply(st, both)
        assert sorted(ps.held[0].bonuses) == sorted([orange, blue])
    else:
        with pytest.raises(RuleViolation, match="one bonus tile per raindrop tile"):
            g.apply(st, both)
