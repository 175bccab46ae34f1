"""One test per rule of the digest, and every worked example of the rulebook (seed 000, Japanese)."""

from __future__ import annotations

import numpy as np
import pytest

from generator.errors import RuleViolation
from generator.games.ripple_rush.rules import PASS, Cell, Decision, Game, State, Write
from tests.games.ripple_rush.conftest import make_spec
from tests.games.ripple_rush.helpers import card, deck_starting, sheet

BLUE, RED, GREEN, ORANGE = 0, 1, 2, 3


@pytest.fixture
def g2(spec):
    return Game.from_spec(spec, 2)


# --- worked examples ------------------------------------------------------------------------------------


def test_example_abby_15_goes_between_14_and_17(g2):
    # Abby's blue column holds 9, 14, 17 (bottom to top) with empty cells around and between them.
    abby = sheet(g2, {"blue": {2: 17, 5: 14, 7: 9}})
    assert g2.legal_rows(abby, BLUE, 15) == (3, 4)
    with pytest.raises(RuleViolation, match=r"cannot write 15 in blue row 1: 17 in row 2 below it is larger"):
        st = g2.deal(deck_starting(g2, ["blue 15", "red 1"]), [], [abby, g2.empty_sheet()])
        g2.apply(st, Write(Cell(BLUE, 1), 15))
    with pytest.raises(
        RuleViolation, match=r"cannot write 15 in blue row 6: 14 in row 5 above it is smaller"
    ):
        g2.apply(st, Write(Cell(BLUE, 6), 15))
    after = g2.apply(st, Write(Cell(BLUE, 4), 15))
    assert after.sheets[0][BLUE] == (0, 17, 0, 15, 14, 0, 9, 0)


def test_example_abby_13_unplaceable_is_announced_and_bob_may_write_it(g2):
    abby = sheet(g2, {"blue": {4: 14, 5: 10}})
    st = g2.deal(deck_starting(g2, ["blue 13", "red 7"]), [], [abby, g2.empty_sheet()])
    assert st.announced == (0,)
    assert g2.legal_rows(abby, BLUE, 13) == ()
    # Bob writes his own card first, then may write Abby's announced blue 13.
    assert st.agenda == (
        Decision(1, "own", card("red 7")),
        Decision(1, "announced", cards=(card("blue 13"),)),
    )
    st = g2.apply(st, Write(Cell(RED, 5), 7))
    assert g2.to_decide(st) == Decision(1, "announced", cards=(card("blue 13"),))
    assert PASS in g2.legal_actions(st)
    st = g2.apply(st, Write(Cell(BLUE, 4), 13))
    assert st.sheets[1][BLUE][3] == 13
    assert st.sheets[0] == abby  # Abby wrote nothing this round


def test_example_bob_cascade_18_then_10_then_x_blue(g2):
    # Row 2 (bonus 10) lacks only orange; row 3 (bonus X(blue)) lacks only red.
    bob = sheet(g2, {"blue": {2: 20, 3: 15}, "red": {2: 19}, "green": {2: 20, 3: 15}, "orange": {3: 12}})
    st = g2.deal(deck_starting(g2, ["red 1", "orange 18"]), [], [g2.empty_sheet(), bob])
    st = g2.apply(st, Write(Cell(RED, 8), 1))  # Abby's own card
    st = g2.apply(st, Write(Cell(ORANGE, 2), 18))  # Bob completes row 2
    assert g2.to_decide(st) == Decision(1, "bonus", row=2)
    st = g2.apply(st, Write(Cell(RED, 3), 10))  # the 10 in red completes row 3
    assert g2.to_decide(st) == Decision(1, "bonus", row=3)
    acts = g2.legal_actions(st)
    assert {a.cell.column for a in acts if isinstance(a, Write)} == {BLUE}
    assert {a.number for a in acts if isinstance(a, Write)} == set(range(1, 15)) | set(
        range(21, 26)
    )  # nothing fits between 15 and 20
    st = g2.apply(st, Write(Cell(BLUE, 1), 25))
    assert st.sheets[1][BLUE][0] == 25


def _abby_final(game: Game) -> tuple[tuple[int, ...], ...]:
    return sheet(
        game,
        {
            "red": {8: 1, 7: 5, 6: 8, 5: 12, 3: 17, 2: 18},
            "blue": {8: 1, 7: 2, 6: 3, 5: 4, 4: 5, 3: 6, 2: 7, 1: 8},
            "green": {7: 2, 6: 4, 5: 6, 4: 9, 3: 11, 2: 13},
            "orange": {8: 3, 6: 15, 5: 18, 4: 19, 3: 22},
        },
    )


def test_example_abby_scores_22(g2):
    s = g2.score_sheet(_abby_final(g2), [])
    assert s.runs == (8, 4, 6, 4)
    assert s.total == 22


def test_example_abby_scores_28_with_both_goals(g2):
    # completely filled rows of her sheet: 3, 5 and 6; the revealed goals show rows 5 and 6
    s = g2.score_sheet(_abby_final(g2), [5, 6])
    assert s.goals_completed == (5, 6)
    assert s.total == 28
    assert g2.score_sheet(_abby_final(g2), [1, 6]).total == 25


# --- placement ------------------------------------------------------------------------------------------


def test_numbers_ascend_from_bottom_strictly_with_skips(g2):
    sh = sheet(g2, {"red": {4: 10}})
    assert g2.legal_rows(sh, RED, 11) == (1, 2, 3)
    assert g2.legal_rows(sh, RED, 9) == (5, 6, 7, 8)
    assert g2.legal_rows(sh, RED, 10) == ()


def test_number_already_in_column_cannot_be_written(g2):
    sh = sheet(g2, {"red": {4: 10}})
    st = g2.deal(deck_starting(g2, ["red 10", "blue 1"]), [], [sh, g2.empty_sheet()])
    assert st.announced == (0,)
    with pytest.raises(RuleViolation, match="red 10 is already written in row 4"):
        g2.apply(
            State(st.sheets, st.deck, (), 1, agenda=(Decision(0, "announced", card("red 10")),)),
            Write(Cell(RED, 2), 10),
        )


def test_other_columns_do_not_matter(g2):
    sh = sheet(g2, {"blue": {1: 2, 8: 25}})
    assert g2.legal_rows(sh, RED, 13) == tuple(range(1, 9))


def test_own_write_is_mandatory_with_a_choice_of_cell(g2):
    st = g2.deal(deck_starting(g2, ["green 12", "blue 1"]), [], None)
    acts = g2.legal_actions(st)
    assert acts == [Write(Cell(GREEN, r), 12) for r in range(1, 9)]
    with pytest.raises(RuleViolation, match="must write green 12"):
        g2.apply(st, PASS)
    with pytest.raises(RuleViolation, match="green 12 goes in the green column, not in red row 2"):
        g2.apply(st, Write(Cell(RED, 2), 12))
    with pytest.raises(RuleViolation, match="writing green 12, not 13"):
        g2.apply(st, Write(Cell(GREEN, 2), 13))


def test_occupied_cell_is_named(g2):
    sh = sheet(g2, {"green": {3: 12}})
    st = g2.deal(deck_starting(g2, ["green 14", "blue 1"]), [], [sh, g2.empty_sheet()])
    with pytest.raises(RuleViolation, match="green row 3 already holds 12"):
        g2.apply(st, Write(Cell(GREEN, 3), 14))


def test_announced_card_is_optional_and_the_announcer_never_writes_it(g2):
    full_blue = sheet(g2, {"blue": {r: 26 - r for r in range(1, 9)}})
    st = g2.deal(deck_starting(g2, ["blue 3", "red 5"]), [], [full_blue, g2.empty_sheet()])
    assert st.announced == (0,)
    assert all(d.player != 0 for d in st.agenda)
    st = g2.apply(st, Write(Cell(RED, 6), 5))
    st2 = g2.apply(st, PASS)
    assert st2.round == 2 and st2.sheets[1][BLUE] == (0,) * 8


def test_announcements_happen_before_anyone_writes(g2):
    # both cannot write: each may write the other's card, after all own cards
    a = sheet(g2, {"red": {1: 9, 2: 8}})
    b = sheet(g2, {"green": {1: 4, 2: 3}})
    st = g2.deal(deck_starting(g2, ["red 20", "green 22"]), [], [a, b])
    assert st.announced == (0, 1)
    assert st.agenda == (
        Decision(0, "announced", cards=(card("green 22"),)),
        Decision(1, "announced", cards=(card("red 20"),)),
    )
    seat = Game.from_spec(make_spec(rules={"announced_order": "seat"}), 2)
    st = seat.deal(deck_starting(seat, ["red 20", "green 22"]), [], [a, b])
    assert st.agenda == (Decision(0, "announced", card("green 22")), Decision(1, "announced", card("red 20")))


def test_number_bonus_goes_in_any_column_and_may_be_declined(g2):
    # row 1 (bonus 5) lacks only blue; blue 25 completes it
    sh = sheet(g2, {"red": {1: 25}, "green": {1: 25}, "orange": {1: 25}})
    st = g2.deal(deck_starting(g2, ["blue 25", "red 1"]), [], [sh, g2.empty_sheet()])
    st = g2.apply(st, Write(Cell(BLUE, 1), 25))
    assert g2.to_decide(st) == Decision(0, "bonus", row=1)
    acts = g2.legal_actions(st)
    assert acts[0] == PASS
    assert {a.cell.column for a in acts[1:]} == {BLUE, RED, GREEN, ORANGE}
    assert all(a.number == 5 for a in acts[1:])
    with pytest.raises(RuleViolation, match="bonus of row 1 is the number 5, not 6"):
        g2.apply(st, Write(Cell(RED, 8), 6))
    declined = g2.apply(st, PASS)
    assert g2.to_decide(declined) == Decision(1, "own", card("red 1"))  # the bonus is lost, not saved


def test_suit_bonus_any_number_of_the_range_in_that_column(g2):
    # row 3 (X(blue)) lacks only red
    sh = sheet(g2, {"blue": {3: 12}, "green": {3: 12}, "orange": {3: 12}})
    st = g2.deal(deck_starting(g2, ["red 12", "red 1"]), [], [sh, g2.empty_sheet()])
    st = g2.apply(st, Write(Cell(RED, 3), 12))
    assert g2.to_decide(st) == Decision(0, "bonus", row=3)
    writes = [a for a in g2.legal_actions(st) if isinstance(a, Write)]
    assert {(a.cell.row, a.number) for a in writes} == (
        {(r, n) for r in (1, 2) for n in range(13, 26)} | {(r, n) for r in range(4, 9) for n in range(1, 12)}
    )
    with pytest.raises(RuleViolation, match="bonus X\\(blue\\) of row 3 is written in the blue column"):
        g2.apply(st, Write(Cell(RED, 1), 20))
    with pytest.raises(RuleViolation, match="cannot write 5 in blue row 1: 12 in row 3 below it is larger"):
        g2.apply(st, Write(Cell(BLUE, 1), 5))


def test_unusable_bonus_is_lost_without_a_decision(g2):
    # X(blue) with a full blue column: no legal write, so no decision
    sh = sheet(g2, {"blue": {r: 26 - r for r in range(1, 9)}, "green": {3: 12}, "orange": {3: 12}})
    st = g2.deal(deck_starting(g2, ["red 12", "red 1"]), [], [sh, g2.empty_sheet()])
    st = g2.apply(st, Write(Cell(RED, 3), 12))
    assert g2.to_decide(st) == Decision(1, "own", card("red 1"))


def test_deck_is_20_per_player_from_the_100(spec):
    for n in range(1, 6):
        game = Game.from_spec(spec, n)
        st = game.new_state(np.random.default_rng(n))
        assert len(st.deck) == 20 * n == len(set(st.deck))
        assert set(st.deck) <= set(game.full_deck())
        assert len(game.full_deck()) == 100
    with pytest.raises(RuleViolation, match="6 players: this kit is for 1..5"):
        Game.from_spec(spec, 6)


def test_goal_cards_one_per_row_two_revealed(g2):
    st = g2.new_state(np.random.default_rng(3))
    assert len(st.goals) == 2 == len(set(st.goals)) and all(1 <= r <= 8 for r in st.goals)


def test_game_lasts_20_rounds_and_ends_when_the_deck_is_empty(spec):
    game = Game.from_spec(spec, 1)
    st = game.new_state(np.random.default_rng(0))
    rounds = set()
    while not game.is_over(st):
        rounds.add(st.round)
        st = game.apply(st, game.legal_actions(st)[-1])
    assert st.round == 20 and max(rounds) <= 20
    with pytest.raises(RuleViolation, match="the game is over"):
        game.apply(st, PASS)


def test_longest_run_scoring_ignores_empty_ends(g2):
    sh = sheet(g2, {"red": {2: 9, 3: 8, 5: 4}, "green": {1: 9, 8: 1}})
    assert g2.score_sheet(sh, []).runs == (0, 2, 1, 0)


def _over(game: Game, sheets) -> State:
    return State(tuple(sheets), tuple(game.full_deck()[: game.rounds * game.players]), (), game.rounds)


def test_highest_score_wins(g2):
    a = sheet(g2, {"red": {1: 9, 2: 8}})
    b = sheet(g2, {"red": {1: 9}})
    res = g2.outcome(_over(g2, [a, b]))
    assert res.scores == (2, 1) and res.winners == (0,) and not res.tie_break_used and not res.shared


def test_tie_break_by_completed_columns(g2):
    a = sheet(g2, {"red": {r: 30 - r for r in range(1, 9)}})  # 8 points, 1 full column
    b = sheet(
        g2, {"red": {r: 30 - r for r in range(1, 5)}, "blue": {r: 30 - r for r in range(1, 5)}}
    )  # 4 + 4
    res = g2.outcome(_over(g2, [a, b]))
    assert res.scores == (8, 8) and res.winners == (0,) and res.tie_break_used and not res.shared


def test_still_tied_is_a_shared_win(g2):
    a = sheet(g2, {"red": {1: 9, 2: 8}})
    b = sheet(g2, {"blue": {1: 9, 2: 8}})
    res = g2.outcome(_over(g2, [a, b]))
    assert res.winners == (0, 1) and res.shared and not res.tie_break_used


def test_rules_come_from_the_spec():
    spec = make_spec(
        numbers={"min": 1, "max": 10}, rows=5, bonuses=[3, "red", "blue", 7, 9], cards_per_player=8
    )
    game = Game.from_spec(spec, 3)
    st = game.new_state(np.random.default_rng(1))
    assert len(st.deck) == 24 and len(game.full_deck()) == 40
    assert game.bonus_name(2) == "X(red)" and game.rows == 5


# --- API holes (issue 11): off-sheet cells and impossible goal rows are rule violations -----------------


def _own_announced_bonus_states(g2):
    """A state per decision kind: an own card (red 12), an announced card (blue 3), a bonus (row 3,
    X(blue))."""
    own = g2.deal(deck_starting(g2, ["red 12", "red 1"]), [])
    full_blue = sheet(g2, {"blue": {r: 26 - r for r in range(1, 9)}})
    announced = g2.apply(
        g2.deal(deck_starting(g2, ["blue 3", "red 5"]), [], [full_blue, g2.empty_sheet()]),
        Write(Cell(RED, 6), 5),
    )
    assert g2.to_decide(announced).kind == "announced"
    sh = sheet(g2, {"blue": {3: 12}, "green": {3: 12}, "orange": {3: 12}})
    bonus = g2.apply(
        g2.deal(deck_starting(g2, ["red 12", "red 1"]), [], [sh, g2.empty_sheet()]), Write(Cell(RED, 3), 12)
    )
    assert g2.to_decide(bonus).kind == "bonus"
    return {"own": (own, 12), "announced": (announced, 3), "bonus": (bonus, 5)}


@pytest.mark.parametrize("kind", ["own", "announced", "bonus"])
@pytest.mark.parametrize("column", [4, 7])
def test_write_beyond_the_last_column_is_a_rule_violation(g2, kind, column):
    st, n = _own_announced_bonus_states(g2)[kind]
    with pytest.raises(RuleViolation, match=f"there is no cell column {column}, row 3 on a 4x8 sheet"):
        g2.apply(st, Write(Cell(column, 3), n))


@pytest.mark.parametrize("kind", ["own", "announced", "bonus"])
def test_negative_column_names_no_colour(g2, kind):
    st, n = _own_announced_bonus_states(g2)[kind]
    with pytest.raises(
        RuleViolation, match=r"^player \d: there is no cell column -1, row 3 on a 4x8 sheet"
    ) as e:
        g2.apply(st, Write(Cell(-1, 3), n))
    assert not any(s in str(e.value) for s in g2.suits)


@pytest.mark.parametrize("row", [0, 9])
def test_write_outside_the_rows_is_a_rule_violation(g2, row):
    st, n = _own_announced_bonus_states(g2)["own"]
    with pytest.raises(RuleViolation, match=f"there is no cell column 1, row {row}"):
        g2.apply(st, Write(Cell(RED, row), n))


@pytest.mark.parametrize(
    "goals, message",
    [
        ((3, 3), r"goal rows \(3, 3\): each row has one goal card"),
        ((1, 2, 3), "3 goal rows revealed: this game reveals 2"),
        ((4,), "1 goal rows revealed: this game reveals 2"),
        ((0, 4), "goal row 0: the sheet has rows 1..8"),
        ((4, 9), "goal row 9: the sheet has rows 1..8"),
    ],
)
def test_deal_rejects_impossible_goal_rows(g2, goals, message):
    with pytest.raises(RuleViolation, match=message):
        g2.deal(deck_starting(g2, ["red 12", "red 1"]), goals)


def test_deal_accepts_two_distinct_goal_rows_or_none(g2):
    assert g2.deal(deck_starting(g2, ["red 12", "red 1"]), (1, 8)).goals == (1, 8)
    assert g2.deal(deck_starting(g2, ["red 12", "red 1"]), ()).goals == ()


# --- house-rule switches (issue 11) ----------------------------------------------------------------------


def _two_announced(rules):
    """3 players: P1 cannot write red 20, P2 cannot write green 22; P3 can write both, and green 22 completes
    her row 1 (bonus 5)."""
    g = Game.from_spec(make_spec(rules=rules), 3)
    a = sheet(g, {"red": {1: 9, 2: 8}})
    b = sheet(g, {"green": {1: 4, 2: 3}})
    c = sheet(g, {"blue": {1: 25}, "red": {1: 25}, "orange": {1: 25}})
    st = g.deal(deck_starting(g, ["red 20", "green 22", "blue 1"]), [], [a, b, c])
    st = g.apply(st, Write(Cell(BLUE, 8), 1))
    while g.to_decide(st).player != 2:
        st = g.apply(st, PASS)
    return g, st


def test_announced_cards_in_any_order_by_default_the_seed_names_no_order():
    # seed: 「1d. 全員が他のプレイヤーが書き込めなかった数字を書き込みます(任意)」
    g, st = _two_announced({})
    assert g.to_decide(st) == Decision(2, "announced", cards=(card("red 20"), card("green 22")))
    assert {(a.cell.column, a.number) for a in g.legal_actions(st) if isinstance(a, Write)} == {
        (RED, 20),
        (GREEN, 22),
    }
    st = g.apply(st, Write(Cell(GREEN, 1), 22))  # the later announcer's card first; it completes row 1
    assert st.agenda[:2] == (Decision(2, "bonus", row=1), Decision(2, "announced", cards=(card("red 20"),)))
    st = g.apply(st, PASS)  # decline the bonus 5
    assert g.to_decide(st) == Decision(2, "announced", cards=(card("red 20"),))
    with pytest.raises(
        RuleViolation, match="may write one of the announced cards red 20; green 22 is not one"
    ):
        g.apply(st, Write(Cell(GREEN, 2), 22))
    st = g.apply(st, Write(Cell(RED, 2), 20))
    assert st.round == 2


def test_stopping_declines_every_announced_card_left():
    g, st = _two_announced({"announced_order": "any"})
    st = g.apply(st, PASS)
    assert st.round == 2 and st.sheets[2][RED][1:] == (0,) * 7


def test_announced_cards_in_seat_order_when_the_switch_says_so():
    g, st = _two_announced({"announced_order": "seat"})
    assert g.to_decide(st) == Decision(2, "announced", card("red 20"))
    with pytest.raises(RuleViolation, match="player 3 is writing red 20, not 22"):
        g.apply(st, Write(Cell(GREEN, 1), 22))
    st = g.apply(st, PASS)
    assert g.to_decide(st) == Decision(2, "announced", card("green 22"))


def _x_blue(rules):
    # row 3 (X(blue)) lacks only red; blue holds 25 in row 2, 12 in row 3 and 1 in row 7
    g = Game.from_spec(make_spec(rules=rules), 2)
    sh = sheet(g, {"blue": {2: 25, 3: 12, 7: 1}, "green": {3: 12}, "orange": {3: 12}})
    st = g.deal(deck_starting(g, ["red 12", "red 1"]), [], [sh, g.empty_sheet()])
    st = g.apply(st, Write(Cell(RED, 3), 12))
    assert g.to_decide(st) == Decision(0, "bonus", row=3)
    return g, st


def test_x_bonus_writes_numbers_of_the_cards_range_by_default():
    g, st = _x_blue({})
    writes = {(a.cell.row, a.number) for a in g.legal_actions(st) if isinstance(a, Write)}
    assert writes == {(r, n) for r in (4, 5, 6) for n in range(2, 12)}
    with pytest.raises(RuleViolation, match=r"26 is not a number of this game \(1..25\)"):
        g.apply(st, Write(Cell(BLUE, 1), 26))


def test_x_bonus_any_integer_also_writes_beyond_the_range_but_never_0():
    g, st = _x_blue({"x_bonus_numbers": "any_integer"})
    writes = {(a.cell.row, a.number) for a in g.legal_actions(st) if isinstance(a, Write)}
    assert writes == (
        {(r, n) for r in (4, 5, 6) for n in range(2, 12)}
        | {(1, n) for n in range(26, 34)}
        | {(8, n) for n in range(-7, 0)}
    )
    assert g.apply(st, Write(Cell(BLUE, 1), 40)).sheets[0][BLUE][0] == 40  # any whole number that fits
    assert g.apply(st, Write(Cell(BLUE, 8), -100)).sheets[0][BLUE][7] == -100
    with pytest.raises(RuleViolation, match="0 marks an empty cell on this sheet; write -1 instead"):
        g.apply(st, Write(Cell(BLUE, 8), 0))
    with pytest.raises(RuleViolation, match="cannot write 30 in blue row 8"):
        g.apply(st, Write(Cell(BLUE, 8), 30))


def test_any_integer_applies_to_x_bonuses_only():
    g = Game.from_spec(make_spec(rules={"x_bonus_numbers": "any_integer"}), 2)
    sh = sheet(g, {"red": {1: 25}, "green": {1: 25}, "orange": {1: 25}})
    st = g.apply(
        g.deal(deck_starting(g, ["blue 25", "red 1"]), [], [sh, g.empty_sheet()]), Write(Cell(BLUE, 1), 25)
    )
    with pytest.raises(RuleViolation, match="bonus of row 1 is the number 5, not 30"):
        g.apply(st, Write(Cell(RED, 8), 30))
