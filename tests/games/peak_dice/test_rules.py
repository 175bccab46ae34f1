"""One test per rule of the Peak Dice digest, and the seed rulebook's worked example."""

from __future__ import annotations

import pytest

from generator.errors import RuleViolation
from generator.games.peak_dice.rules import (
    Game,
    Pass,
    Reroll,
    Roll,
    State,
    Write,
    miss_penalty,
    second_lowest,
)
from generator.games.peak_dice.tables import build_tables
from tests.games.peak_dice.conftest import make_spec

PURPLE, BLUE, RED, YELLOW = 0, 1, 2, 3


def faces_for(values: list[int]) -> tuple[int, ...]:
    """Face indices of the default d6 dice showing these values (purple, blue, red, yellow, white, white)."""
    return tuple(v - 1 for v in values)


def at_step_b(game: Game, sheets: tuple[tuple[tuple[int, ...], ...], ...], values: list[int]) -> State:
    """A state at step B with the given sheets and dice values."""
    s = game.initial_state()
    from dataclasses import replace

    return replace(s, sheets=sheets, faces=faces_for(values), phase="b", rerolls_left=0)


def empty(game: Game) -> tuple[tuple[tuple[int, ...], ...], ...]:
    return game.initial_state().sheets


def test_seed_example_column_9_10_9_12_scores_10() -> None:
    # rulebook: a column of 9, 10, 9, 12 scores 10 ("the second lowest"): the two 9s are one lowest value
    assert second_lowest([9, 10, 9, 12]) == 10
    assert second_lowest([12, 9, 10, 9]) == 10
    assert second_lowest([4, 7, 5, 6]) == 5


def test_column_of_equal_values_scores_that_value() -> None:
    assert second_lowest([8, 8, 8, 8]) == 8


def test_column_score_on_a_sheet_uses_second_lowest_and_only_complete_columns(spec) -> None:
    g = Game(spec, 2)
    sheet = ((9, 10), (10, 11), (9, 12), (12,))
    assert g.column_scores(sheet)[:3] == (10, None, None)
    assert g.score(sheet, 0) == 10


def test_colour_sum_is_colour_faces_plus_all_white_faces(spec) -> None:
    g = Game(spec, 2)
    assert g.sums(faces_for([1, 2, 3, 4, 5, 6])) == (12, 13, 14, 15)


def test_general_dice_colour_shown_by_no_die_sums_whites_only() -> None:
    spec = make_spec(
        dice=[
            {"faces": [{"colour": "purple", "value": 3}, {"colour": "blue", "value": 4}]},
            {"colour": "white", "values": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]},
        ],
        row_length=4,
        peak_after=2,
    )
    g = Game(spec, 2)
    # die 0 shows purple 3, white shows 5: purple 8, blue/red/yellow only the white 5
    assert g.sums((0, 4)) == (8, 5, 5, 5)
    assert g.sums((1, 4)) == (5, 9, 5, 5)


def test_compact_die_expands_to_faces() -> None:
    spec = make_spec()
    faces = spec.dice[0].expanded()
    assert [(f.colour, f.value) for f in faces] == [("purple", v) for v in range(1, 7)]


def test_row_rises_strictly_up_to_the_peak(spec) -> None:
    g = Game(spec, 2)
    assert g.can_write((5,), PURPLE, 6)
    assert not g.can_write((5,), PURPLE, 5)
    assert not g.can_write((5,), PURPLE, 4)


def test_row_falls_strictly_after_the_peak(spec) -> None:
    g = Game(spec, 2)
    row = (3, 5, 7, 9, 14)  # peak line after circle 5
    assert g.can_write(row, RED, 13)
    assert not g.can_write(row, RED, 14)
    assert not g.can_write(row, RED, 15)
    assert not g.can_write(row + (10,), RED, 11)


def test_full_row_takes_nothing_more(spec) -> None:
    g = Game(spec, 2)
    assert not g.can_write((3, 5, 7, 9, 14, 12, 10, 8, 6), RED, 4)


def test_no_skipping_writes_go_in_the_next_circle(spec) -> None:
    g = Game(spec, 2)
    s = at_step_b(g, empty(g), [1, 1, 1, 1, 1, 1])
    s = g.apply(s, Write(0, PURPLE))
    assert s.sheets[0][PURPLE] == (3,)
    assert s.sheets[0][BLUE] == ()


def test_apply_rejects_illegal_write_with_numbers(spec) -> None:
    g = Game(spec, 2)
    sheets = (((10,), (), (), ()), ((), (), (), ()))
    s = at_step_b(g, sheets, [1, 1, 1, 1, 2, 2])  # purple sum 5 <= 10
    with pytest.raises(
        RuleViolation,
        match=r"circle 2 of row purple is before the peak line \(after circle 5\), "
        r"so it must be above 10 \(circle 1\); got 5",
    ):
        g.apply(s, Write(0, PURPLE))


def test_step_b_only_legal_colours_offered(spec) -> None:
    g = Game(spec, 2)
    sheets = (((10,), (20 - 3,), (), ()), ((), (), (), ()))
    s = at_step_b(g, sheets, [1, 1, 1, 1, 2, 2])  # sums 5 5 5 5: purple (10) and blue (17) cannot rise
    acts = g.legal_actions(s)
    assert Write(0, RED) in acts and Write(0, YELLOW) in acts
    assert Write(0, PURPLE) not in acts and Write(0, BLUE) not in acts


def test_step_b_possibly_no_legal_colour(spec) -> None:
    g = Game(spec, 2)
    sheets = (((18,), (18,), (18,), (18,)), ((), (), (), ()))
    s = at_step_b(g, sheets, [6, 6, 6, 6, 6, 6])
    assert g.legal_actions(s) == [Pass(0)]


def test_step_b_compulsory_by_default_when_a_colour_fits(spec) -> None:
    # seed: 「B)手番プレイヤーは「紫・青・赤・黄」の4色のうちいずれか1色を選び…書き込みます」
    g = Game(spec, 2)
    s = at_step_b(g, empty(g), [1, 1, 1, 1, 1, 1])
    assert Pass(0) not in g.legal_actions(s)
    with pytest.raises(RuleViolation, match="must write a legal colour"):
        g.apply(s, Pass(0))


def test_step_b_optional_when_the_switch_says_so() -> None:
    g = Game(make_spec(rules={"step_b": "optional"}), 2)
    s = at_step_b(g, empty(g), [1, 1, 1, 1, 1, 1])
    assert Pass(0) in g.legal_actions(s)
    assert g.apply(s, Pass(0)).phase == "c"


def test_step_c_excludes_colour_chosen_in_b_and_everyone_writes(spec) -> None:
    g = Game(spec, 3)
    s = at_step_b(g, empty(g), [1, 2, 3, 4, 1, 1])
    s = g.apply(s, Write(0, PURPLE))
    assert s.phase == "c" and g.actor(s) == 0
    assert Write(0, PURPLE) not in g.legal_actions(s)
    with pytest.raises(RuleViolation, match="the colour the active player chose in B"):
        g.apply(s, Write(0, PURPLE))
    s = g.apply(s, Write(0, BLUE))  # the active player writes twice
    assert g.actor(s) == 1
    s = g.apply(s, Write(1, RED))
    s = g.apply(s, Pass(2))
    assert s.sheets[0][PURPLE] == (3,) and s.sheets[0][BLUE] == (4,) and s.sheets[1][RED] == (5,)
    assert s.active == 1 and s.phase == "roll" and s.misses == (0, 0, 0)


def test_step_c_offers_all_four_colours_when_b_chose_none(spec) -> None:
    g = Game(make_spec(rules={"step_b": "optional"}), 2)  # B passed although a colour fits
    s = at_step_b(g, empty(g), [1, 2, 3, 4, 1, 1])
    s = g.apply(s, Pass(0))
    assert {a.colour for a in g.legal_actions(s) if isinstance(a, Write)} == {PURPLE, BLUE, RED, YELLOW}


def test_miss_when_active_writes_nothing_in_b_and_c(spec) -> None:
    g = Game(make_spec(rules={"step_b": "optional"}), 2)  # B passed although a colour fits
    s = at_step_b(g, empty(g), [1, 2, 3, 4, 1, 1])
    s = g.apply(g.apply(g.apply(s, Pass(0)), Pass(0)), Write(1, RED))
    assert s.misses == (1, 0)


def test_no_miss_for_a_passive_player_who_passes(spec) -> None:
    g = Game(spec, 2)
    s = at_step_b(g, empty(g), [1, 2, 3, 4, 1, 1])
    s = g.apply(g.apply(g.apply(s, Write(0, RED)), Pass(0)), Pass(1))
    assert s.misses == (0, 0)


def test_miss_penalty_kth_box_worth_minus_k() -> None:
    assert [miss_penalty(k) for k in range(5)] == [0, 1, 3, 6, 10]


def test_score_is_columns_minus_miss_penalty(spec) -> None:
    g = Game(spec, 2)
    full = tuple((3, 5, 7, 9, 14, 12, 10, 8, 6) for _ in range(4))
    assert g.score(full, 0) == 3 + 5 + 7 + 9 + 14 + 12 + 10 + 8 + 6
    assert g.score(full, 3) == 74 - 6


def test_game_ends_at_once_when_a_sheet_is_full_after_b(spec) -> None:
    g = Game(spec, 2)
    almost = ((3, 5, 7, 9, 14, 12, 10, 8, 6),) * 3 + ((3, 5, 7, 9, 14, 12, 10, 8),)
    s = at_step_b(g, (almost, ((), (), (), ())), [1, 1, 1, 1, 1, 2])  # yellow 4 < 8 fills the sheet
    s = g.apply(s, Write(0, YELLOW))
    assert s.phase == "over" and s.end == "sheet_full"
    out = g.outcome(s)
    assert out.winners == (0,) and out.scores[1] == 0


def test_tied_scores_share_the_win(spec) -> None:
    g = Game(spec, 2)
    from dataclasses import replace

    s = replace(g.initial_state(), phase="over", end="sheet_full")
    out = g.outcome(s)
    assert out.winners == (0, 1) and out.tie_break.startswith("shared")


def test_one_reroll_of_any_subset(spec) -> None:
    g = Game(spec, 2)
    s = g.apply(g.initial_state(), Roll(faces_for([1, 2, 3, 4, 5, 6])))
    assert s.phase == "reroll" and len(g.legal_actions(s)) == 2**6
    s = g.apply(s, Reroll((0, 4)))
    assert g.dice_to_roll(s) == (0, 4)
    s = g.apply(s, Roll((5, 0)))
    assert s.phase == "b" and g.sums(s.faces) == (6 + 1 + 6, 2 + 7, 3 + 7, 4 + 7)


def test_reroll_rejects_bad_outcome(spec) -> None:
    g = Game(spec, 2)
    with pytest.raises(RuleViolation, match="die 0 has 6 faces; got face 6"):
        g.apply(g.initial_state(), Roll((6, 0, 0, 0, 0, 0)))


def test_row_completable_uses_achievable_sums(spec) -> None:
    g = Game(spec, 2)
    assert g.row_completable((3, 5, 7, 9, 14, 12, 10, 8), YELLOW)
    assert not g.row_completable((3, 5, 7, 9, 14, 5, 4, 3), YELLOW)  # needs a sum below 3
    assert g.row_completable((3, 15, 16, 17), YELLOW)  # 18 can still be the peak
    assert not g.row_completable((3, 15, 16, 18), YELLOW)  # needs a sum above 18 before the peak


def test_achievable_sums_of_default_dice(spec) -> None:
    t = build_tables(spec)
    assert t.achievable(0) == list(range(3, 19))
    assert abs(float(t.mass_lt[0, 19]) - 1.0) < 1e-12
    assert abs(float(t.mass_lt[0, 4]) - 1 / 216) < 1e-12


@pytest.mark.parametrize("colour", [-1, 4, 9])
def test_step_c_bad_colour_index_after_a_passed_b_names_the_value_not_a_colour(spec, colour) -> None:
    g = Game(make_spec(rules={"step_b": "optional"}), 2)  # B passed although a colour fits
    s = g.apply(at_step_b(g, empty(g), [1, 2, 3, 4, 1, 1]), Pass(0))
    assert s.phase == "c" and s.chosen == -1
    with pytest.raises(RuleViolation, match=f"colour index must be in 0..3; got {colour}") as e:
        g.apply(s, Write(0, colour))
    assert not any(c in str(e.value) for c in ("purple", "blue", "red", "yellow"))


# --- house-rule switches (issue 11) ----------------------------------------------------------------------


def test_column_score_counting_equal_values_separately_is_a_switch() -> None:
    assert second_lowest([9, 10, 9, 12], distinct=False) == 9
    assert second_lowest([8, 8, 8, 8], distinct=False) == 8
    assert second_lowest([4, 7, 5, 6], distinct=False) == 5
    sheet = ((9, 10), (10, 11), (9, 12), (12, 13))
    assert Game(make_spec(), 2).column_scores(sheet)[:3] == (10, 11, None)
    assert Game(make_spec(rules={"column_score": "second_lowest"}), 2).column_scores(sheet)[:3] == (
        9,
        11,
        None,
    )


def test_full_miss_track_keeps_counting_by_default_or_is_capped() -> None:
    # seed: 「1回目のチェックは-1点、2回目のミスは-2点…というようにミスするたびに失点が増えます」
    full = tuple((3, 5, 7, 9, 14, 12, 10, 8, 6) for _ in range(4))
    assert Game(make_spec(miss_boxes=3), 2).score(full, 5) == 74 - 15
    assert Game(make_spec(miss_boxes=3, rules={"miss_track_full": "capped"}), 2).score(full, 5) == 74 - 6
    assert miss_penalty(5, cap=3) == 6 and miss_penalty(2, cap=3) == 3


def _other_fills_in_c(rules: dict) -> State:
    """Player 0 active writes nothing in B (nothing fits) and passes C; player 1 fills her sheet in C."""
    g = Game(make_spec(rules=rules), 2)
    p0 = ((18,), (18,), (18,), (18,))
    almost = ((3, 5, 7, 9, 14, 12, 10, 8, 6),) * 3 + ((3, 5, 7, 9, 14, 12, 10, 8),)
    s = at_step_b(g, (p0, almost), [1, 1, 1, 1, 1, 2])  # every sum 4: nothing fits after 18; yellow 4 < 8
    assert g.legal_actions(s) == [Pass(0)]
    s = g.apply(g.apply(g.apply(s, Pass(0)), Pass(0)), Write(1, YELLOW))
    assert s.phase == "over" and s.end == "sheet_full"
    return s


def test_no_miss_when_another_sheet_fills_in_c_the_game_ends_at_once() -> None:
    # seed: 「いずれかのプレイヤーが4つの列のスペースをすべて埋めた場合、即座にゲームを終了します」
    assert _other_fills_in_c({}).misses == (0, 0)


def test_miss_still_taken_when_another_sheet_fills_in_c_if_the_switch_says_so() -> None:
    assert _other_fills_in_c({"final_turn_miss": "taken"}).misses == (1, 0)


def test_a_colour_not_shown_on_the_dice_takes_the_white_sum() -> None:
    """Seed, step B:
    「※ダイスに出ていない色を選ぶことも可能です。その場合は白ダイスの数値のみその色の列に書き込みます。」 With
    a die whose faces carry several colours, a colour no die shows may still be chosen; it writes the white
    dice alone."""
    mixed = {
        "faces": [
            {"colour": c, "value": v}
            for c, v in zip(["purple", "blue", "red", "yellow", "purple", "blue"], [1, 2, 3, 4, 5, 6])
        ]
    }
    white = {"colour": "white", "values": [1, 2, 3, 4, 5, 6]}
    g = Game(make_spec(dice=[mixed, white, white]), 2)
    from dataclasses import replace

    s = replace(g.initial_state(), faces=(0, 1, 2), phase="b", rerolls_left=0)  # purple 1, white 2, white 3
    assert g.sums(s.faces) == (6, 5, 5, 5)
    writes = {a.colour for a in g.legal_actions(s) if isinstance(a, Write)}
    assert writes == {PURPLE, BLUE, RED, YELLOW}
    s = g.apply(s, Write(0, YELLOW))  # yellow is on no die showing: the white sum only
    assert s.sheets[0][YELLOW] == (5,)


# --- the one Game protocol (generator/engine/game.py)
# ---------------------------------------------------------


def test_new_game_refuses_player_counts_outside_the_spec() -> None:
    from generator.games.peak_dice.rules import new_game

    spec = make_spec()
    with pytest.raises(RuleViolation, match="plays 2..4 players, got 1"):
        new_game(spec, 1)
    with pytest.raises(RuleViolation, match="got 5"):
        new_game(spec, 5)
    assert new_game(make_spec({"players.max": 5}), 5).players == 5


def test_protocol_rolls_come_from_the_numpy_generator_and_rolls_are_not_moves() -> None:
    import numpy as np

    from generator.games.peak_dice.rules import new_game

    game = new_game(make_spec(), 3)
    table = game.new_state(np.random.default_rng(7))
    expect = np.random.default_rng(7)
    assert table.state.faces == tuple(int(expect.integers(6)) for _ in range(6))
    assert table.state.phase == "reroll" and game.to_move(table) == 0
    assert len(game.legal_actions(table)) == 2**6
    with pytest.raises(RuleViolation, match="rolled by the game"):
        game.apply(table, Roll((0,) * 6))
    table = game.apply(table, Reroll((0, 1)))  # the two re-rolled dice come from the same generator
    assert table.state.faces[:2] == (int(expect.integers(6)), int(expect.integers(6)))
    assert table.state.phase == "b" and game.to_move(table) == 0


def _active_fills_in_b(rules: dict) -> tuple[Game, State]:
    """Player 0, active, has one circle left (yellow, after 8) and rolls yellow 4: her B write fills the
    sheet."""
    g = Game(make_spec(rules=rules), 2)
    almost = ((3, 5, 7, 9, 14, 12, 10, 8, 6),) * 3 + ((3, 5, 7, 9, 14, 12, 10, 8),)
    p1 = ((3,), (3,), (3,), (3,))
    s = at_step_b(g, (almost, p1), [1, 1, 1, 1, 1, 2])  # every sum 4
    return g, g.apply(s, Write(0, YELLOW))


def test_a_sheet_filled_in_step_b_ends_the_game_before_anyone_plays_step_c() -> None:
    """Seed: 「いずれかのプレイヤーが4つの列のスペースをすべて埋めた場合、即座にゲームを終了します」 — at
    once: the sheet filled in step B ends the game before step C, so the other player does not write this roll
    (house rule sheet_full_in_b: game_ends). A sheet filled in step C ends it only once the step is over,
    since every player writes in C together (「手番プレイヤーを含むすべてのプレイヤーは…それぞれ選んで」; see
    test_no_miss_when_another_sheet_fills_in_c_the_game_ends_at_once)."""
    g, s = _active_fills_in_b({})
    assert s.phase == "over" and s.end == "sheet_full" and s.sheets[1] == ((3,), (3,), (3,), (3,))
    assert g.legal_actions(s) == [] and s.misses == (0, 0)


def test_a_sheet_filled_in_step_b_lets_everyone_play_step_c_if_the_switch_says_so() -> None:
    g, s = _active_fills_in_b({"sheet_full_in_b": "step_c_played"})
    assert s.phase == "c" and g.actor(s) == 0
    assert g.legal_actions(s) == [Pass(0)]  # a full sheet has nothing left to write
    s = g.apply(s, Pass(0))
    assert g.actor(s) == 1 and Write(1, RED) in g.legal_actions(s)
    s = g.apply(s, Write(1, RED))  # red 4 after 3: the other player still writes
    assert s.phase == "over" and s.end == "sheet_full" and s.sheets[1][2] == (3, 4) and s.misses == (0, 0)
