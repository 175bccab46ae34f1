"""Rummy Cards: every rule of the digest, the seed's worked examples, properties, golden transcript."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.engine.kernel import seed_state
from generator.engine.switches import switch_values
from generator.errors import RuleViolation
from generator.games.rummy_cards.balance import balance_report
from generator.games.rummy_cards.legal import legal_problems
from generator.games.rummy_cards.policies import MeldFinder, RandomLegal, find_best_play
from generator.games.rummy_cards.rules import (
    Draw,
    Game,
    Lay,
    Meld,
    State,
    hand_total,
    is_valid_meld,
    meld_value,
    read_meld,
    score_exhausted,
    score_out,
)
from generator.games.rummy_cards.sim import logged_round, play_round, round_workspace, simulation_from_spec
from generator.games.rummy_cards.sim_setup import RES_TURNS, RES_WINNERS, Workspace
from generator.games.rummy_cards.solver_search import solve_counts
from generator.games.rummy_cards.spec import RummyCardsGame
from generator.games.rummy_cards.transcript import transcript
from tests.games.rummy_cards.replay import replay
from tests.games.shipped import game_section

HERE = Path(__file__).parent
SPEC = game_section("rummy_cards")  # the shipped kit's game section


def spec_with(**changes: object) -> RummyCardsGame:
    return RummyCardsGame.model_validate({**SPEC, **changes})


SPEC_M = spec_with()
GAME = Game(SPEC_M, 2)
D = GAME.deck
OWN = Game(spec_with(rules={"opening_turn": "own_melds_only"}), 2)  # the table only from the next turn


def c(name: str, copy: int = 0) -> int:
    return D.card(name, copy)


def cs(names: str) -> tuple[int, ...]:
    """'red7 red8 joker' -> ids; a trailing ':1' picks the second copy."""
    out = []
    for n in names.split():
        name, _, copy = n.partition(":")
        out.append(c(name, int(copy or 0)))
    return tuple(out)


def run(names: str) -> Meld:
    return Meld("run", cs(names))


def group(names: str) -> Meld:
    return Meld("group", cs(names))


# ---- melds -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "meld",
    [
        group("yellow7 blue7 black7"),
        group("yellow7 blue7 black7 red7"),
        run("black6 black7 black8 black9"),
        run("red1 red2 red3"),
        run("red11 red12 red13"),
        group("joker blue7 black7"),
        group("yellow7 joker black7"),
        group("yellow7 blue7 joker"),
        group("yellow7 blue7 black7 joker"),
        group("joker joker red7"),
        run("joker red2 red3"),
        run("red1 joker red3"),
        run("red1 red2 joker"),
        run("joker joker red3"),
        run("red4 joker joker red7"),
    ],
)
def test_valid_melds(meld: Meld) -> None:
    assert is_valid_meld(D, meld)


@pytest.mark.parametrize(
    "meld, why",
    [
        (group("yellow7 blue7"), "3 or more cards, got 2"),
        (group("yellow7 yellow7:1 black7"), "colours must differ, yellow twice"),
        (group("yellow7 blue7 black8"), "one number, got 8 among 7"),
        (group("yellow7 blue7 black7 red7 joker"), "at most 4 cards, got 5"),
        (run("red12 red13 red1"), "place 3 needs 14, got 1"),
        (run("red13 joker joker"), "numbers 13..15 leave 1..13"),
        (run("joker joker red1"), "numbers -1..1 leave 1..13"),
        (run("red5 red6 blue7"), "a run has one colour"),
        (run("red5 red7 red8"), "place 2 needs 6, got 7"),
        (run("red5 joker red8"), "place 3 needs 7, got 8"),
    ],
)
def test_invalid_melds(meld: Meld, why: str) -> None:
    assert not is_valid_meld(D, meld)
    from generator.games.rummy_cards.rules import meld_roles

    with pytest.raises(RuleViolation, match=why.replace(".", r"\.")):
        meld_roles(D, meld)


def test_joker_value_is_inferred_from_its_meld() -> None:
    assert meld_value(D, run("red11 red12 joker")) == 36
    assert meld_value(D, run("joker red12 red13")) == 36
    assert meld_value(D, group("joker red13 blue13")) == 39
    assert read_meld(D, cs("joker red12 red13")).kind == "run"
    assert read_meld(D, cs("blue12 joker red12")).kind == "group"


# ---- turns ---------------------------------------------------------------------------------------------


def state(
    hand0: str,
    hand1: str = "blue1",
    table: tuple[Meld, ...] = (),
    opened: tuple[bool, bool] = (False, False),
    pile: str = "yellow1 yellow2",
) -> State:
    return State((tuple(sorted(cs(hand0))), tuple(sorted(cs(hand1)))), table, cs(pile), opened)


def test_initial_meld_needs_the_threshold_from_own_cards() -> None:
    s = state("red10 red11 red12 blue2 blue3 blue4")
    s2 = GAME.apply(s, Lay((run("red10 red11 red12"), run("blue2 blue3 blue4"))))  # 33 + 9 = 42
    assert s2.opened[0] and s2.hands[0] == ()
    with pytest.raises(
        RuleViolation, match=r"initial meld: melds of own cards 9 = 9 points, needs at least 40"
    ):
        GAME.apply(s, Lay((run("blue2 blue3 blue4"),)))
    with pytest.raises(RuleViolation, match=r"initial meld: 9 = 9 points, needs at least 40"):
        OWN.apply(s, Lay((run("blue2 blue3 blue4"),)))


def test_initial_meld_joker_counts_as_its_card_and_threshold_comes_from_spec() -> None:
    s = state("red12 red13 joker yellow1")
    s30 = Game(spec_with(initial_meld=30), 2).apply(s, Lay((run("joker red12 red13"),)))  # 11 + 12 + 13 = 36
    assert s30.hands[0] == cs("yellow1")
    with pytest.raises(RuleViolation, match="36 points"):
        Game(spec_with(initial_meld=40), 2).apply(s, Lay((run("joker red12 red13"),)))


def test_initial_meld_may_not_use_table_cards() -> None:
    table = (run("blue5 blue6 blue7"),)
    s = state("blue8 red13 yellow13 black13 blue13", table=table, opened=(False, True))
    with pytest.raises(RuleViolation, match="may not be changed"):
        OWN.apply(s, Lay((run("blue5 blue6 blue7 blue8"), group("red13 yellow13 black13 blue13"))))
    ok = OWN.apply(s, Lay(table + (group("red13 yellow13 black13 blue13"),)))
    assert ok.hands[0] == cs("blue8")
    # may_add_after_opening (the default): the table card does not count towards the 40 points
    assert (
        GAME.apply(s, Lay((run("blue5 blue6 blue7 blue8"), group("red13 yellow13 black13 blue13")))).hands[0]
        == ()
    )
    with pytest.raises(RuleViolation, match="melds of own cards 0 = 0 points"):
        GAME.apply(s, Lay((run("blue5 blue6 blue7 blue8"),)))


def test_draw_when_not_laying_and_pass_on_empty_pile() -> None:
    passing = Game(spec_with(rules={"exhausted_end": "all_pass"}), 2)
    s = state("red1", pile="yellow3")
    s2 = passing.apply(s, Draw())
    assert c("yellow3") in s2.hands[0] and s2.pile == () and s2.current == 1
    s3 = passing.apply(passing.apply(s2, Draw()), Draw())
    assert s3.passes == 2 and passing.is_over(s3)


def test_seed_example_take_red8_from_a_group_of_four() -> None:
    table = (group("blue8 black8 yellow8 red8"),)
    s = state("red7 red9 joker", table=table, opened=(True, True))
    s2 = GAME.apply(s, Lay((group("blue8 black8 yellow8"), run("red7 red8 red9"))))
    assert s2.hands[0] == cs("joker")
    with pytest.raises(RuleViolation, match="red8 must stay on the table"):
        GAME.apply(s, Lay((group("blue8 black8 yellow8"), run("red7 joker red9"))))


def test_seed_example_three_runs_and_red_4_6_7_all_laid() -> None:
    table = (
        run("black4 black5 black6 black7"),
        run("yellow4 yellow5 yellow6 yellow7"),
        run("blue4 blue5 blue6"),
    )
    play = find_best_play(GAME, cs("red4 red6 red7"), table, opening=False)
    assert (play.points, play.cards) == (17, 3)
    s = state("red4 red6 red7", table=table, opened=(True, True))
    s2 = GAME.apply(s, Lay(play.table))
    assert s2.hands[0] == () and all(is_valid_meld(D, m) for m in s2.table)


def test_rearrangement_must_leave_every_meld_valid() -> None:
    table = (run("black4 black5 black6 black7"),)
    s = state("black8", table=table, opened=(True, True))
    with pytest.raises(RuleViolation, match="3 or more cards"):
        GAME.apply(s, Lay((run("black4 black5"), run("black6 black7 black8"))))
    s2 = GAME.apply(s, Lay((run("black4 black5 black6 black7 black8"),)))
    assert s2.hands[0] == ()


def test_joker_retrieval() -> None:
    table = (run("red5 joker red7"),)
    s = state("red6 blue9 yellow9 red1", table=table, opened=(True, True))
    s2 = GAME.apply(s, Lay((run("red5 red6 red7"), group("joker blue9 yellow9"))))
    assert s2.hands[0] == cs("red1")
    # freed without laying the exact card (red6) from the hand
    s_bad = state("blue9 yellow9", table=(run("red3 red4 red5 joker"),), opened=(True, True))
    with pytest.raises(RuleViolation, match="joker standing for red6 was moved: retrieve it by laying red6"):
        GAME.apply(s_bad, Lay((run("red3 red4 red5"), group("joker blue9 yellow9"))))
    # freed joker with only one hand card (and a table card taken to make up the set: not a new set)
    s_one = state(
        "red6 blue9 red1", table=table + (run("yellow9 yellow10 yellow11 yellow12"),), opened=(True, True)
    )
    with pytest.raises(RuleViolation, match="must go into a new set .* table card yellow9"):
        GAME.apply(
            s_one,
            Lay((run("red5 red6 red7"), run("yellow10 yellow11 yellow12"), group("joker blue9 yellow9"))),
        )
    # a player who has not opened may not touch the table
    s_closed = state("red6 blue9 yellow9", table=table, opened=(False, True))
    with pytest.raises(RuleViolation, match="may not be changed"):
        OWN.apply(s_closed, Lay((run("red5 red6 red7"), group("joker blue9 yellow9"))))
    with pytest.raises(RuleViolation, match="melds of own cards 0 = 0 points"):
        GAME.apply(s_closed, Lay((run("red5 red6 red7"), group("joker blue9 yellow9"))))


def test_freed_joker_must_go_into_a_new_set_not_an_existing_meld() -> None:
    """Seed: 「交換されたジョーカーは、そのプレイヤーの同じターンに、自分のラックから2枚以上のタイルを使って
    新しいセットを作らなければなりません」 - a freed joker joins no meld that was on the table."""
    table = (run("red5 joker red7"), run("blue9 blue10 blue11"))
    s = state("red6 blue8 blue13 yellow1", table=table, opened=(True, True))
    with pytest.raises(RuleViolation, match="a retrieved joker must go into a new set"):
        GAME.apply(s, Lay((run("red5 red6 red7"), run("blue8 blue9 blue10 blue11 joker blue13"))))
    # the same cards as a new set of the joker and 2+ hand cards are fine
    s_new = state("red6 blue12 blue13 yellow1", table=table, opened=(True, True))
    GAME.apply(s_new, Lay((run("red5 red6 red7"), run("blue9 blue10 blue11"), run("joker blue12 blue13"))))


def test_meld_finder_never_puts_a_freed_joker_into_an_existing_meld() -> None:
    table = (run("red5 joker red7"), run("blue9 blue10 blue11"))
    hand = "red6 blue8 blue13 yellow3 black3"  # joker + blue8 + blue13 would extend the blue run: not allowed
    play = find_best_play(GAME, cs(hand), table, opening=False)
    assert play.table is not None and play.retrieved_joker == c("joker")
    GAME.apply(state(hand, table=table, opened=(True, True)), Lay(play.table))
    joker_meld = next(m for m in play.table if c("joker") in m.cards)
    assert sorted(D.name(x) for x in joker_meld.cards) == ["black3", "joker", "yellow3"]
    assert (play.points, play.cards) == (20, 4)  # red6 + blue8 + yellow3 + black3; blue13 stays in the hand


def test_joker_may_move_when_it_keeps_its_role() -> None:
    table = (run("red5 joker red7 red8"),)
    s = state("red9", table=table, opened=(True, True))
    GAME.apply(s, Lay((run("red5 joker red7 red8 red9"),)))


def test_sets_holding_a_joker_can_be_added_to_split_and_taken_from() -> None:
    """Seed: 「ジョーカーを含むセットは、タイルを追加することができ、分割したりタイルを取り除いたりすることが
    できます」 - the joker stays in a set of its kind (a run of its colour, a group of its number) and stands
    for whatever card its place there needs."""
    s = state("red7", table=(run("joker red5 red6"),), opened=(True, True))
    s2 = GAME.apply(s, Lay((run("red5 red6 red7 joker"),)))  # added to: the joker now stands for red8
    assert s2.hands[0] == ()
    s = state("red5 blue1", table=(run("red3 red4 joker red6 red7 red8"),), opened=(True, True))
    GAME.apply(s, Lay((run("red3 red4 red5 joker"), run("red6 red7 red8"))))  # split around the joker
    s = state("red1 blue1", table=(run("joker red2 red3 red4 red5"),), opened=(True, True))
    GAME.apply(s, Lay((run("red1 red2 red3"), run("joker red4 red5"))))  # red2/red3 taken off with red1
    # the joker may not leave its kind of set without a retrieval
    s = state("red7 blue1", table=(run("joker red5 red6"), run("blue5 blue6 blue7")), opened=(True, True))
    with pytest.raises(RuleViolation, match="joker standing for red4 was moved"):
        GAME.apply(s, Lay((run("red5 red6 red7"), run("blue5 blue6 blue7 joker"))))


def test_meld_finder_moves_a_table_joker_within_its_set() -> None:
    table = (run("red1 red2 joker"),)  # the joker stands for red3; red3 from the hand pushes it to red4
    play = find_best_play(GAME, cs("red3 yellow9"), table, opening=False)
    assert play.table is not None and (play.points, play.cards) == (3, 1) and play.retrieved_joker is None
    s2 = GAME.apply(state("red3 yellow9", table=table, opened=(True, True)), Lay(play.table))
    assert s2.hands[0] == cs("yellow9")
    # with the replaced joker of the seed's example, red6 can now be laid: red5 red6 red7 + the joker at an
    # end
    table = (run("red5 joker red7"), run("blue9 blue10 blue11"))
    play = find_best_play(GAME, cs("red6 blue8 blue13"), table, opening=False)
    assert (play.points, play.cards) == (14, 2)


# ---- scoring --------------------------------------------------------------------------------------------


def test_scoring_when_a_player_goes_out_is_zero_sum() -> None:
    assert score_out([0, 12, 30], 0) == (42, -12, -30)


LITERAL = {"tie_pay": "lowest_winner", "remainder": "seat_order", "below_winner": "scores_zero"}


def test_scoring_with_exhausted_pile_lowest_wins_losers_pay_difference() -> None:
    scores, w, tb = score_exhausted([20, 12, 45], [3, 2, 5], "lowest_total", "tie_break", **LITERAL)
    assert (scores, w, tb) == ((-8, 41, -33), (1,), None)
    scores, w, tb = score_exhausted([12, 12, 20], [3, 2, 4], "lowest_total", "tie_break", **LITERAL)
    assert (scores, w, tb, sum(scores)) == ((0, 8, -8), (1,), "fewer cards", 0)


def test_exhausted_pile_fewest_cards_wins_by_default() -> None:
    """Seed: 「自分のラックの数が最も少ないプレイヤーがそのラウンドに勝ちます。
    負けたプレイヤーは、自分のタイルの 合計値を足して、そこから勝ったプレイヤーの合計値を引きます」 - fewest
    cards wins; losers pay own - winner's."""
    scores, w, tb = score_exhausted([20, 12, 45], [2, 3, 5], "fewest_cards", "share", **LITERAL)
    assert (scores, w, tb) == ((25, 0, -25), (0,), None)  # p1 holds less (12) but more cards: pays nothing
    s = State((cs("red13 blue13"), cs("red1 red2 red3")), (), (), (True, True), passes=2)
    assert GAME.outcome(s).winners == (0,)  # 2 cards beat 3 cards, though 26 > 6
    assert Game(spec_with(rules={"exhausted_winner": "lowest_total"}), 2).outcome(s).winners == (1,)


def test_a_loser_below_the_winners_total_scores_zero_by_default_plus_by_switch() -> None:
    """Seed: 「負けたプレイヤーは、自分のタイルの合計値を足して、そこから勝ったプレイヤーの合計値を引きます。
    この結果は、マイナス分として採点されます。 これらの合計は、プラス量として勝者に得点されます」 - the result
    is scored as a minus and the sum as the winner's plus; under fewest_cards a loser may hold less than the
    winner: by default that loser scores 0 (a minus of nothing), with scores_plus the difference as plus
    points."""
    scores, _, _ = score_exhausted(
        [20, 12, 45], [2, 3, 5], "fewest_cards", "share", **{**LITERAL, "below_winner": "scores_plus"}
    )
    assert scores == (17, 8, -25)
    scores, _, _ = score_exhausted(
        [30, 12, 20], [2, 3, 5], "fewest_cards", "share", **{**LITERAL, "below_winner": "scores_plus"}
    )
    assert scores == (-28, 18, 10)  # the winner's plus turns minus
    assert score_exhausted([30, 12, 20], [2, 3, 5], "fewest_cards", "share", **LITERAL)[0] == (0, 0, 0)
    s = State(
        (cs("red13 blue13"), cs("red1 red2 red3"), cs("red10 red11 red12 red13")), (), (), (True, True, True)
    )
    g3 = Game(SPEC_M, 3)
    assert g3.outcome(s).scores == (20, 0, -20)  # seat 0 wins with 2 cards (26); 6 < 26 pays 0; 46 - 26 = 20
    plus = Game(spec_with(rules={"exhausted_below_winner": "scores_plus"}), 3)
    assert plus.outcome(s).scores == (0, 20, -20)


def test_exhausted_pile_tie_is_shared_unless_the_tie_break_switch_is_on() -> None:
    # two players with 2 cards: both win, losers pay against the lower total (10), winners split 35 = 18 + 17
    scores, w, tb = score_exhausted([10, 14, 25, 30], [2, 2, 4, 3], "fewest_cards", "share", **LITERAL)
    assert (scores, w, tb, sum(scores)) == ((18, 17, -15, -20), (0, 1), None, 0)
    scores, w, tb = score_exhausted([10, 14, 25, 30], [2, 2, 4, 3], "fewest_cards", "tie_break", **LITERAL)
    assert (scores, w, tb) == ((39, -4, -15, -20), (0,), "lower total")
    scores, w, tb = score_exhausted([12, 12, 20], [3, 3, 4], "lowest_total", "tie_break", **LITERAL)
    assert (w, tb) == ((0,), "lower seat")
    scores, w, tb = score_exhausted([12, 12, 20], [3, 3, 4], "lowest_total", "share", **LITERAL)
    assert (scores, w) == ((4, 4, -8), (0, 1))


def test_tied_winners_pay_and_remainder_switches() -> None:
    """The seed names no tie: by default each loser pays once against the lowest total among the tied winners
    and they split the sum, a remainder one point each in turn order; each_winner: each loser pays every
    winner against that winner's own total; lower_total_first: the remainder goes to the lower total first."""
    totals, sizes = [14, 10, 25, 30], [2, 2, 4, 3]
    assert score_exhausted(totals, sizes, "fewest_cards", "share", **LITERAL)[0] == (18, 17, -15, -20)
    lower = {**LITERAL, "remainder": "lower_total_first"}
    assert score_exhausted(totals, sizes, "fewest_cards", "share", **lower)[0] == (17, 18, -15, -20)
    each = {**LITERAL, "tie_pay": "each_winner"}
    assert score_exhausted(totals, sizes, "fewest_cards", "share", **each)[0] == (27, 35, -26, -36)
    # each_winner, scores_zero: a loser below one winner's total pays that winner nothing
    assert score_exhausted([20, 10, 15, 30], [2, 2, 4, 3], "fewest_cards", "share", **each)[0] == (
        10,
        25,
        -5,
        -30,
    )
    s = State(
        (cs("red1 red13"), cs("red4 red6"), cs("blue9 blue10 blue11"), cs("black10 black11 black12")),
        (),
        (),
        (True,) * 4,
    )  # totals 14, 10, 30, 33; two cards each for seats 0 and 1
    for rules, want in (
        ({}, (22, 21, -20, -23)),
        ({"exhausted_tie_remainder": "lower_total_first"}, (21, 22, -20, -23)),
        ({"exhausted_tie_pay": "each_winner"}, (35, 43, -36, -42)),
    ):
        assert Game(spec_with(rules=rules), 4).outcome(s).scores == want, rules


def test_round_ends_when_the_last_card_is_drawn_by_default_all_pass_switch() -> None:
    """Seed:
    「どのプレイヤーも「Rummikub」をする前に、ポーチの中のすべてのタイルが使用されているという稀なケース
    では、自分のラックの数が最も少ないプレイヤーがそのラウンドに勝ちます」 - the round is decided once every
    card of the pile has been used; all_pass plays on without drawing until every player passes in a row."""
    s = state("red1 blue5", "blue1", pile="yellow3")
    s2 = GAME.apply(s, Draw())  # the last card is drawn: the round is over
    assert s2.pile == () and GAME.is_over(s2) and GAME.legal_actions(s2) == []
    assert GAME.outcome(s2).reason == "exhausted" and GAME.outcome(s2).winners == (1,)
    with pytest.raises(RuleViolation, match="the round is over"):
        GAME.apply(s2, Draw())
    passing = Game(spec_with(rules={"exhausted_end": "all_pass"}), 2)
    s2 = passing.apply(s, Draw())
    assert not passing.is_over(s2)
    s3 = passing.apply(passing.apply(s2, Draw()), Draw())
    assert s3.passes == 2 and passing.is_over(s3) and passing.outcome(s3).winners == (1,)


def test_joker_retrieval_on_the_opening_turn_by_default_next_turn_switch() -> None:
    """Seed: 「プレイヤーは、最初のセットを置く前にジョーカーを回収することはできません」 - forbidden only
    before the first set is down: with the initial melds laid, the joker may be retrieved in the same turn."""
    table = (run("red5 joker red7"),)
    s = state("red10 red11 red12 red13 red6 blue9 yellow9", table=table)
    lay = Lay((run("red5 red6 red7"), run("red10 red11 red12 red13"), group("joker blue9 yellow9")))
    assert GAME.apply(s, lay).hands[0] == ()
    play = MeldFinder().choose(GAME, s, np.random.default_rng(0))
    assert isinstance(play, Lay) and GAME.apply(s, play).hands[0] == ()
    later = Game(spec_with(rules={"opening_retrieval": "next_turn"}), 2)
    with pytest.raises(RuleViolation, match="may not be retrieved on the turn of the initial meld"):
        later.apply(s, lay)
    play = MeldFinder().choose(later, s, np.random.default_rng(0))
    assert isinstance(play, Lay) and later.apply(s, play).hands[0] == tuple(sorted(cs("blue9 yellow9")))
    # the retrieval still needs the initial melds down (the joker meld is no meld of own cards)
    with pytest.raises(RuleViolation, match="melds of own cards 0 = 0 points"):
        GAME.apply(
            state("red6 blue9 yellow9", table=table),
            Lay((run("red5 red6 red7"), group("joker blue9 yellow9"))),
        )


def test_draw_only_when_unable_by_default_by_choice_switch() -> None:
    """Seed:
    「手番のプレイヤーは、テーブルの中央にカードを置くか、カードを置けない場合は、いずれかの山から裏向きの
    カードを引かなければなりません」 - draw only if you cannot lay."""
    s = state("red11 red12 red13 blue1", opened=(False, False))  # 36 < 40: cannot open, may draw
    GAME.apply(s, Draw())
    s = state("red10 red11 red12 red13 blue1", opened=(False, False))  # 46: can open
    with pytest.raises(RuleViolation, match="can lay, so may not draw"):
        GAME.apply(s, Draw())
    assert not any(isinstance(a, Draw) for a in GAME.legal_actions(s))
    choice = Game(spec_with(rules={"draw": "by_choice"}), 2)
    choice.apply(s, Draw())
    assert isinstance(choice.legal_actions(s)[0], Draw)


def test_draw_only_when_no_turn_lays_an_opening_spread_over_two_melds() -> None:
    """Seed: 「カードを置けない場合は、いずれかの山から裏向きのカードを引かなければなりません」 and
    「これらのポイントは、 様々な組み合わせで分散させることができます」 - red 4-5-6 and three 9s open with 15
    + 27 = 42, though no single meld reaches 40: the player may not draw, and the listed play is that
    opening."""
    s = state("red4 red5 red6 yellow9 blue9 black9 black1")
    opening = Lay((run("red4 red5 red6"), group("yellow9 blue9 black9")))
    assert GAME.apply(s, opening).hands[0] == cs("black1")
    with pytest.raises(RuleViolation, match="can lay, so may not draw"):
        GAME.apply(s, Draw())
    acts = GAME.legal_actions(s)
    assert not any(isinstance(a, Draw) for a in acts) and len(acts) == 1
    assert GAME.apply(s, acts[0]).hands[0] == cs("black1")
    # one 9 fewer: 15 + 18 = 33 < 40, no turn lays a card, Draw is the only play
    s33 = state("red4 red5 red6 yellow9 blue9 black1")
    assert GAME.legal_actions(s33) == [Draw()]
    GAME.apply(s33, Draw())
    # by_choice keeps Draw and lists the simple plays only
    assert Game(spec_with(rules={"draw": "by_choice"}), 2).legal_actions(s) == [Draw()]


def test_draw_only_when_no_turn_lays_the_seeds_rearrangement() -> None:
    """Seed: 「青8、黒8、黄8、赤8のセットがテーブルの上にあります。
    赤7と赤9がありますが、赤8を取って赤7、8、9の 新しい列を作ることができます」 - that lay is a legal turn, so
    drawing is not (「カードを置けない場合は、いずれかの 山から裏向きのカードを引かなければなりません」)."""
    table = (group("blue8 black8 yellow8 red8"),)
    s = state("red7 red9", table=table, opened=(True, True))
    GAME.apply(s, Lay((group("blue8 black8 yellow8"), run("red7 red8 red9"))))
    with pytest.raises(RuleViolation, match="can lay, so may not draw"):
        GAME.apply(s, Draw())
    acts = GAME.legal_actions(s)
    assert len(acts) == 1 and isinstance(acts[0], Lay)
    assert GAME.apply(s, acts[0]).hands[0] == ()
    # the random-legal player takes it too
    assert RandomLegal().choose(GAME, s, np.random.default_rng(0)) == acts[0]
    # without red9 nothing lays: Draw alone
    assert GAME.legal_actions(state("red7 blue1", table=table, opened=(True, True))) == [Draw()]


def test_kernel_random_seat_lays_when_only_a_multi_meld_opening_is_possible() -> None:
    """The kernel's random-legal seat never draws while a turn lays a card: over many rounds it is sometimes
    offered Draw alone by the simple plays while the meld finder finds a lay, and then it lays (the replay
    through the reference rules agrees turn for turn, every listed count included)."""
    game, simple = Game(SPEC_M, 2), Game(spec_with(rules={"draw": "by_choice"}), 2)
    forced_lays = 0
    for seed in range(30, 40):
        res, ws, log = replay_kernel_round(seed, 2, 0)
        states: list[State] = []  # states[t]: the state before turn t (what replay(..., max_turns=t) returns)
        assert replay(game, ws, 0, states=states)[1] == log
        assert [s.turn for s in states] == list(range(len(log)))
        for t in range(0, int(res[RES_TURNS]), 2):
            if ws.choices[t, 1] == 1 and log[t] > 0:
                s = states[t]
                if simple.legal_actions(s) == [Draw()]:  # no simple play: the meld finder's lay, listed alone
                    forced_lays += 1
    assert forced_lays > 0


def test_opening_turn_may_add_after_opening_by_default_own_melds_only_switch() -> None:
    """Seed:
    「プレイヤーは、最初の40点を出した後、テーブル上の既存の組み合わせにカードを追加することができます」 -
    once the first 40 points are out (no word of a next turn;
    「最終的にこの合計値に達するカードを受け取ったら、次の 手番を待って、それらをプレイしなければなりません」
    is about the cards that complete the total, just drawn)."""
    table = (run("blue5 blue6 blue7"),)
    s = state("red10 red11 red12 red13 blue8", table=table)
    lay = Lay((run("blue5 blue6 blue7 blue8"), run("red10 red11 red12 red13")))
    assert SPEC_M.rules.opening_turn == "may_add_after_opening"
    assert GAME.apply(s, lay).hands[0] == ()
    with pytest.raises(RuleViolation, match="initial meld: melds of own cards 36 = 36 points"):
        GAME.apply(
            state("red11 red12 red13 blue8", table=table),
            Lay((run("blue5 blue6 blue7 blue8"), run("red11 red12 red13"))),
        )
    # the meld finder uses it: the opening run, then blue8 on the table's run in the same turn
    play = MeldFinder().choose(GAME, s, np.random.default_rng(1))
    assert isinstance(play, Lay) and GAME.apply(s, play).hands[0] == ()
    own = Game(spec_with(rules={"opening_turn": "own_melds_only"}), 2)
    with pytest.raises(RuleViolation, match="may not be changed"):
        own.apply(s, lay)
    assert own.apply(s, MeldFinder().choose(own, s, np.random.default_rng(1))).hands[0] == cs("blue8")


FLIPPED = {
    "draw": "by_choice",
    "exhausted_winner": "lowest_total",
    "exhausted_tie": "tie_break",
    "opening_turn": "own_melds_only",
    "opening_retrieval": "next_turn",
    "exhausted_end": "all_pass",
    "exhausted_tie_pay": "each_winner",
    "exhausted_tie_remainder": "lower_total_first",
    "exhausted_below_winner": "scores_plus",
}
SWITCH_SPECS = [spec_with(rules={k: v}) for k, v in FLIPPED.items()] + [spec_with(rules=FLIPPED)]
# an initial meld of 100 points: the pile runs out in most 4-player rounds
SHORT_PILE = [spec_with(initial_meld=100, rules=r) for r in ({}, {"exhausted_end": "all_pass"})]


def test_every_switch_is_flipped_in_the_agreement_tests() -> None:
    assert set(FLIPPED) == {name for name, _, _ in switch_values(SPEC_M.rules)}
    assert all(getattr(SPEC_M.rules, k) != v for k, v in FLIPPED.items())


@pytest.mark.parametrize("spec", SHORT_PILE)
@pytest.mark.parametrize("seed, players, random_seat", [(31, 4, -1), (32, 4, 1), (33, 4, 0)])
def test_kernel_agrees_on_rounds_the_pile_ends(
    spec: RummyCardsGame, seed: int, players: int, random_seat: int
) -> None:
    """The pile runs out in most of these rounds: the kernel ends them where the reference does under both
    exhausted_end settings."""
    test_kernel_agrees_with_reference_rules(seed, players, random_seat, spec)


def test_a_short_pile_ends_rounds_exhausted_and_sooner_when_the_last_card_ends_them() -> None:
    a = simulation_from_spec(SHORT_PILE[0], 4).play(np.random.SeedSequence(5), 40)
    b = simulation_from_spec(SHORT_PILE[1], 4).play(np.random.SeedSequence(5), 40)
    assert a["games.exhausted"].mean() > 0.3 and a["games.turns"].mean() < b["games.turns"].mean()


@pytest.mark.parametrize(
    "rules",
    [
        {},
        {"exhausted_winner": "lowest_total"},
        {"exhausted_tie_pay": "each_winner"},
        {"exhausted_tie_remainder": "lower_total_first"},
        {"exhausted_below_winner": "scores_plus"},
        {"exhausted_tie": "tie_break"},
    ],
)
def test_kernel_exhausted_scores_equal_the_reference_scoring(rules: dict[str, str]) -> None:
    """Rounds cut at max_turns 10 end exhausted with many tied hand sizes: per round, the kernel's scores and
    winners are score_exhausted's on the replayed hands under each scoring switch."""
    spec = spec_with(rules=rules, balance={**SPEC["balance"], "max_turns": 10})  # type: ignore[dict-item]
    r = spec.rules
    ties = 0
    for seed in range(40, 56):
        players = 4
        res, ws, _ = replay_kernel_round(seed, players, -1, spec)
        s, _ = replay(Game(spec, players), ws, -1, max_turns=10)
        totals = [hand_total(D, h, spec.joker_penalty) for h in s.hands]
        scores, winners, _ = score_exhausted(
            totals,
            [len(h) for h in s.hands],
            r.exhausted_winner,
            r.exhausted_tie,
            tie_pay=r.exhausted_tie_pay,
            remainder=r.exhausted_tie_remainder,
            below_winner=r.exhausted_below_winner,
        )
        assert tuple(ws.scores[0]) == scores and res[RES_WINNERS] == sum(1 << w for w in winners), seed
        ties += len(winners) > 1
    assert (
        ties > 0 or r.exhausted_tie == "tie_break" or r.exhausted_winner == "lowest_total"
    )  # equal totals: rare


@pytest.mark.parametrize("spec", [SPEC_M] + SWITCH_SPECS)
@pytest.mark.parametrize("seed, players, random_seat", [(7, 2, 0), (8, 3, 2), (9, 4, -1)])
def test_kernel_agrees_with_reference_rules_for_every_switch(
    spec: RummyCardsGame, seed: int, players: int, random_seat: int
) -> None:
    test_kernel_agrees_with_reference_rules(seed, players, random_seat, spec)


def test_kernel_exhausted_scoring_follows_the_switches() -> None:
    """Short rounds (max_turns) end exhausted: the kernel's winners and scores follow score_exhausted."""
    for rules in ({}, {"exhausted_winner": "lowest_total"}, {"exhausted_tie": "tie_break"}):
        spec = spec_with(rules=rules, balance={**SPEC["balance"], "max_turns": 10})  # type: ignore[dict-item]
        t = simulation_from_spec(spec, 3).play(np.random.SeedSequence(4), 30)
        assert t["games.exhausted"].all() and (t["games.scores"].sum(axis=1) == 0).all()
        rs = t["games.winners"]
        if rules.get("exhausted_tie") == "tie_break":
            assert all(int(m).bit_count() == 1 for m in rs)


def test_both_draw_settings_give_different_random_player_tallies() -> None:
    a = simulation_from_spec(SPEC_M, 2, 0).play(np.random.SeedSequence(3), 6)
    b = simulation_from_spec(spec_with(rules={"draw": "by_choice"}), 2, 0).play(np.random.SeedSequence(3), 6)
    assert a["games.turns"].tolist() != b["games.turns"].tolist()


def test_joker_in_hand_costs_the_spec_penalty() -> None:
    s = State((cs("joker red3"), ()), (), (), (True, True))
    assert GAME.outcome(s).scores == (-28, 28)
    assert Game(spec_with(joker_penalty=30), 2).outcome(s).hand_totals == (33, 0)


# ---- legal checks ---------------------------------------------------------------------------------------


def test_defaults_are_legal() -> None:
    assert legal_problems(SPEC_M) == []


def test_seed_contradiction_four_jokers_and_106_rejected() -> None:
    assert legal_problems(spec_with(jokers=4)) == [
        ("total_cards", "4 colours x 13 numbers x 2 copies = 104, + 4 jokers = 108, but total_cards says 106")
    ]


def test_colours_and_symbols_distinct_and_pad_matches_players() -> None:
    cols = [dict(x) for x in SPEC["colours"]]  # type: ignore[union-attr]
    cols[3]["symbol"] = "sun"
    cols[2]["colour"] = "#1F5FBF"
    probs = legal_problems(spec_with(colours=cols, score_pad={"players": 3, "rounds": 12}))
    assert (
        "colours[2].colour",
        "expected a colour distinct from the other colours; got '#1f5fbf', already used by colours[1]",
    ) in probs
    assert (
        "colours[3].symbol",
        "expected a symbol distinct from the other colours; got 'sun', already used by colours[0]",
    ) in probs
    assert ("score_pad.players", "expected 4 player columns (players.max); got 3") in probs


HEAVY = (
    "numba",
    "generator.engine.kernel",
    "generator.games.rummy_cards.solver",
    "generator.games.rummy_cards.sim",
    "generator.games.rummy_cards.policies",
)


@pytest.mark.parametrize(
    "code",
    [
        "import generator.games.rummy_cards.legal, generator.games.rummy_cards.figures",
        "from generator.cli import app; from typer.testing import CliRunner; "
        "r = CliRunner().invoke(app, ['validate', 'layouts/rummy_cards']); assert r.exit_code == 0, r.output",
    ],
)
def test_legality_figures_and_validate_load_no_numba_nor_solver(code: str) -> None:
    """legal.py and figures.py are light (issue 13): `pnpkit validate` of the kit imports no compiled code."""
    probe = (
        code
        + f"; import sys; print(sorted(m for m in sys.modules if m.startswith({HEAVY[:1]!r})))"
        + f"; print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=HERE.parents[2],
        env={k: v for k, v in os.environ.items() if k != "PNPKIT_PURE"},
    ).stdout
    assert out.split("\n")[:2] == ["[]", "[]"], out


# ---- solver, kernel, properties -------------------------------------------------------------------------


def test_solver_opening_counts_joker_as_its_card() -> None:
    play = find_best_play(GAME, cs("red11 red12 joker blue1"), (), opening=True)
    assert (play.points, play.cards) == (36, 3)  # joker as red13 (not red10)


def test_solver_prefers_points_then_cards() -> None:
    play = find_best_play(GAME, cs("red1 red2 red3 blue13 yellow13 black13"), (), opening=False)
    assert (play.points, play.cards) == (45, 6)


def replay_kernel_round(
    seed: int, players: int, random_seat: int = -1, spec: RummyCardsGame = SPEC_M
) -> tuple[np.ndarray, Workspace, list[int]]:
    res, ws = logged_round(simulation_from_spec(spec, players), seed, random_seat)
    return res, ws, ws.log[: res[RES_TURNS]].tolist()


@pytest.mark.parametrize(
    "seed, players, random_seat", [(1, 2, -1), (2, 3, -1), (3, 4, -1), (4, 2, 0), (5, 3, 1), (6, 4, 3)]
)
def test_kernel_agrees_with_reference_rules(
    seed: int, players: int, random_seat: int, spec: RummyCardsGame = SPEC_M
) -> None:
    """The kernel's round, replayed from its logged deal and random-legal choices through the reference rules
    (meld finders deciding for themselves): the same cards laid or drawn every turn, the same scores and
    winners. Every kernel Draw passes `Game.apply`, which refuses it while any turn lays a card (rules.draw
    only_when_unable), so the kernel's meld finders draw only when unable."""
    res, ws, log = replay_kernel_round(seed, players, random_seat, spec)
    game = Game(spec, players)
    s, ref_log = replay(game, ws, random_seat)
    assert ref_log == log
    o = game.outcome(s)
    assert tuple(ws.scores[0]) == o.scores
    assert res[RES_WINNERS] == sum(1 << w for w in o.winners)
    if random_seat >= 0:  # every turn of the random seat logged its choice
        assert (ws.choices[random_seat : res[RES_TURNS] : players, 1] >= 1).all()


def test_the_replay_follows_the_kernels_random_choices() -> None:
    """The random seat of seed 5 (3 players, seat 1) chooses among several plays; replaying with one of those
    choices changed makes the reference round differ from the kernel's (so the agreement above is not the
    meld finders' alone)."""
    res, ws, log = replay_kernel_round(5, 3, 1)
    listed = ws.choices[: res[RES_TURNS], 1]
    turns = np.flatnonzero(listed > 1)
    assert turns.size > 0
    t = int(turns[0])
    ws.choices[t, 0] = (ws.choices[t, 0] + 1) % listed[t]
    try:
        diverged = replay(Game(SPEC_M, 3), ws, 1)[1] != log
    except AssertionError:  # later the rules list other plays than the kernel's round did
        diverged = True
    assert diverged


def test_compiled_and_pure_paths_give_identical_tallies() -> None:
    code = (
        "import numpy as np, json; from tests.games.shipped import game_spec;"
        "from generator.games.rummy_cards.sim import simulation_from_spec as f;"
        "t=f(game_spec('rummy_cards'),3).play(np.random.SeedSequence(5),2);"
        "print(json.dumps({k:v.tolist() for k,v in sorted(t.items())}))"
    )
    outs = []
    for pure in ("0", "1"):
        env = dict(os.environ, PNPKIT_PURE=pure)
        outs.append(
            subprocess.run(
                [sys.executable, "-c", code],
                env=env,
                capture_output=True,
                text=True,
                check=True,
                cwd=HERE.parents[2],
            ).stdout
        )
    assert outs[0] == outs[1] and outs[0]


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), random_seat=st.booleans())
def test_any_seeded_turns_keep_the_table_valid_and_no_card_lost(
    seed: int, players: int, random_seat: bool
) -> None:
    game = Game(SPEC_M, players)
    rng = np.random.default_rng(seed)
    s = game.new_round(rng)
    pols = [RandomLegal() if (random_seat and p == 0) else MeldFinder() for p in range(players)]
    for _ in range(40):
        if game.is_over(s):
            break
        s = game.apply(s, pols[s.current].choose(game, s, rng))
        assert all(is_valid_meld(D, m) for m in s.table)
        cards = [x for h in s.hands for x in h] + [x for m in s.table for x in m.cards] + list(s.pile)
        assert sorted(cards) == list(range(D.size))


def test_round_scores_are_zero_sum_over_simulated_rounds() -> None:
    t = simulation_from_spec(SPEC_M, 3).play(np.random.SeedSequence(11), 20)
    assert (t["games.scores"].sum(axis=1) == 0).all()
    assert (
        (t["games.first_possible"][:, :, 0] <= t["games.first_possible"][:, :, 1])
        | (t["games.first_possible"][:, :, 1] < 0)
    ).all()


def test_balance_report_is_deterministic_and_has_every_tolerance() -> None:
    r1 = balance_report(SPEC_M, games=12, seed=3, executor=None)
    r2 = balance_report(SPEC_M, games=12, seed=3, executor=None)
    assert r1.figures == r2.figures
    keys = {t.spec_key for t in r1.tolerances}
    assert keys == {
        f"game.balance.{k}"
        for k in (
            "turns_to_initial_meld",
            "seat_win_share",
            "round_length",
            "exhausted_share",
            "winner_margin",
        )
    }
    assert all(r1.figures[f"{p}p"]["zero_sum_violations"] == 0 for p in (2, 3, 4))


def test_a_raised_initial_meld_is_measured_and_judged_though_no_threshold_names_it() -> None:
    """The shipped thresholds are 30 and 40. A kit that raises initial_meld to 60 (or a tune over it) still
    gets turns_to_initial_meld judged at every player count, at 60: it used to vanish from the report, and
    the check counted 18 tolerances instead of 21."""
    spec = spec_with(initial_meld=60)
    assert 60 not in spec.balance.meld_thresholds
    rep = balance_report(spec, games=12, seed=3, executor=None)
    assert len(rep.tolerances) == len(balance_report(SPEC_M, games=12, seed=3, executor=None).tolerances)
    judged = [t for t in rep.tolerances if t.spec_key == "game.balance.turns_to_initial_meld"]
    assert [t.settings for t in judged] == [(f"{p}p meld finders",) for p in (2, 3, 4)]
    for p, t in zip((2, 3, 4), judged, strict=True):
        figures = rep.figures[f"{p}p"]["turns_to_initial_meld"]
        assert list(figures) == ["30", "40", "60"]
        assert t.evidence.estimate() == figures["60"]["mean"]
    t = simulation_from_spec(spec, 3).play(np.random.SeedSequence(11), 20)["games.first_possible"]
    assert t.shape[2] == 3 and ((t[:, :, 1] <= t[:, :, 2]) | (t[:, :, 2] < 0)).all()


def test_the_classic_initial_meld_of_30_is_legal_and_its_report_says_what_it_cannot_measure() -> None:
    """kit.yaml's comment offers the classic tile game's 30 points. With the shipped thresholds [30, 40] it
    used to be refused (40 above the initial meld); 40 cannot be measured then (a player opens at 30, before
    reaching it), so it is left out and the report's notes say so."""
    from generator.games.rummy_cards.legal import legal_problems

    spec = spec_with(initial_meld=30)
    assert spec.balance.meld_thresholds == [30, 40] and legal_problems(spec) == []
    rep = balance_report(spec, games=12, seed=3, executor=None)
    assert list(rep.figures["3p"]["turns_to_initial_meld"]) == ["30"]
    assert [
        t.evidence.estimate() for t in rep.tolerances if t.spec_key.endswith("turns_to_initial_meld")
    ] == [rep.figures[f"{p}p"]["turns_to_initial_meld"]["30"]["mean"] for p in (2, 3, 4)]
    assert any(
        n.startswith("balance.meld_thresholds 40: above initial_meld 30, not measured") for n in rep.notes
    )
    assert not any("not measured" in n for n in balance_report(SPEC_M, games=12, seed=3, executor=None).notes)


def test_golden_playthrough_2p(golden) -> None:  # type: ignore[no-untyped-def]
    golden.check(HERE / "golden" / "playthrough_2p.txt", transcript(SPEC_M, 2024, 2))


# ---- joker retrieval, exact fallback, random-legal plays ------------------------------------------------


def test_meld_finder_retrieves_the_joker_when_it_pays() -> None:
    table = (run("red5 joker red7"),)
    play = find_best_play(GAME, cs("red6 blue9 yellow9 red1"), table, opening=False)
    assert play.retrieved_joker == c("joker") and (play.points, play.cards) == (24, 3)
    s2 = GAME.apply(state("red6 blue9 yellow9 red1", table=table, opened=(True, True)), Lay(play.table))
    assert s2.hands[0] == cs("red1")
    assert any(c("joker") in m.cards and c("blue9") in m.cards for m in s2.table)


def test_meld_finder_does_not_retrieve_without_the_exact_card_or_before_opening() -> None:
    table = (run("red5 joker red7"),)
    play = find_best_play(GAME, cs("black6 blue9 yellow9 red1"), table, opening=False)  # black6 is not red6
    assert play.table is None and play.retrieved_joker is None
    opening = find_best_play(GAME, cs("red6 blue9 yellow9 red1"), table, opening=True)
    assert opening.table is None or opening.table[:1] == table  # opening never touches the table


def test_solver_is_exact_past_a_small_workspace() -> None:
    from generator.games.rummy_cards.solver_search import move_table, solve_exact, workspaces
    from generator.games.rummy_cards.solver_state import SolverWorkspace, new_workspace

    forced = np.array(
        [
            1,
            0,
            1,
            2,
            1,
            1,
            1,
            0,
            0,
            0,
            0,
            1,
            2,
            1,
            0,
            0,
            2,
            1,
            2,
            1,
            1,
            2,
            2,
            1,
            2,
            3,
            1,
            0,
            2,
            2,
            1,
            1,
            1,
            1,
            1,
            0,
            0,
            1,
            1,
            1,
            0,
            2,
            2,
            2,
            1,
            0,
            0,
            0,
            0,
            0,
            0,
            1,
        ],
        np.int64,
    )
    hand = np.array(
        [
            1,
            1,
            1,
            0,
            1,
            1,
            1,
            2,
            2,
            1,
            0,
            1,
            0,
            0,
            1,
            2,
            0,
            1,
            0,
            1,
            1,
            0,
            0,
            1,
            0,
            0,
            1,
            2,
            0,
            0,
            1,
            1,
            1,
            0,
            0,
            2,
            1,
            0,
            1,
            1,
            2,
            0,
            0,
            0,
            1,
            2,
            1,
            2,
            1,
            1,
            2,
            1,
        ],
        np.int64,
    )  # a 2p give-up (43 cards)
    dec = np.zeros(65, np.int64)
    tiny = new_workspace(4, 13, 1024)  # far below CAP: this 43-card search outgrows it
    no_run_jokers, no_group_jokers = np.zeros(4, np.int64), np.zeros(13, np.int64)
    assert (
        solve_counts(
            forced,
            hand,
            0,
            no_run_jokers,
            no_group_jokers,
            4,
            13,
            1,
            25,
            dec,
            SolverWorkspace(*tiny, *move_table()),
        )
        == -2
    )
    assert (
        solve_exact(forced, hand, 0, no_run_jokers, no_group_jokers, 4, 13, 1, 25, dec, workspaces(4, 13))
        == 75563
    )


def test_random_legal_plays_are_all_legal_and_cover_additions() -> None:
    table = (run("red5 red6 red7"), group("blue9 yellow9 black9"))
    s = state("red4 red8 red9 red10 red9:1 joker", table=table, opened=(True, True))
    acts = Game(spec_with(rules={"draw": "by_choice"}), 2).legal_actions(s)
    assert (
        isinstance(acts[0], Draw) and GAME.legal_actions(s) == acts[1:]
    )  # the seed: no draw while a lay is on
    for a in acts[1:]:
        GAME.apply(s, a)  # raises on an illegal play
    added = {
        tuple(D.name(x) for x in a.table[0].cards) for a in acts if isinstance(a, Lay) and len(a.table) == 2
    }
    assert ("red4", "red5", "red6", "red7") in added and ("joker", "red5", "red6", "red7") in added
    assert ("red5", "red6", "red7", "red8") in added
    closed = state("red4 red8 red9 red10 joker", table=table, opened=(False, True))
    assert all(len(a.table) == 3 for a in GAME.legal_actions(closed)[1:])  # unopened: new melds only (>= 40)


# ---- a match of several rounds -------------------------------------------------------------------------


def test_match_adds_up_rounds_like_the_score_pad() -> None:
    """Seed: 「試合終了後、全員が自分のプラス点を加算し、マイナス点を減算します」 - running totals, highest
    wins."""
    from generator.games.rummy_cards.sim import match_from_scores, play_match

    m = match_from_scores(np.array([[10, -4, -6], [-3, 8, -5], [-2, -2, 4]]))
    assert m.running_totals == ((10, -4, -6), (7, 4, -11), (5, 2, -7)) and m.totals == (5, 2, -7)
    assert m.winners == (0,)
    assert match_from_scores(np.array([[5, -5], [-5, 5]])).winners == (0, 1)  # level: shared
    spec = spec_with(rules={"rounds": 3})
    match = play_match(spec, 2, seed=5)
    assert len(match.round_scores) == 3 and all(sum(r) == 0 for r in match.round_scores)
    assert match.totals == tuple(sum(r[p] for r in match.round_scores) for p in range(2))
    assert (
        play_match(spec, 2, seed=5) == match and len(play_match(spec, 2, seed=5, rounds=2).round_scores) == 2
    )
    # the reference rules give the same rounds from the kernel's deals (one stream, a fresh deal per round)
    game = Game(spec, 2)
    sim = simulation_from_spec(spec, 2)
    setup = sim.setup()
    ws = round_workspace(setup, 1)
    rng = seed_state(np.random.SeedSequence(5))
    ref = []
    for _ in range(3):
        play_round(rng, setup, ws, 0, -1)
        s, _ = replay(game, ws, -1, spec.balance.max_turns)
        ref.append(game.outcome(s).scores)
    assert tuple(ref) == match.round_scores


def test_balance_report_honours_the_switches_the_way_the_switch_table_flips_them() -> None:
    """The issue-10 'effect of flipping each switch' table builds spec.model_copy(update={'rules': ...})."""
    base = balance_report(SPEC_M, games=8, seed=2, executor=None).figures
    for field, value in (("opening_turn", "own_melds_only"), ("draw", "by_choice")):
        flipped = SPEC_M.model_copy(update={"rules": SPEC_M.rules.model_copy(update={field: value})})
        assert balance_report(flipped, games=8, seed=2, executor=None).figures != base, field


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), start=st.integers(1, 12), run_joker=st.booleans())
def test_resumed_search_equals_a_fresh_search(seed: int, start: int, run_joker: bool) -> None:
    """resume_counts keeps the workspace's layers below `start` from the previous search; when the inputs
    agree below `start` the value and the decisions along the optimum are a fresh search's."""
    from generator.games.rummy_cards.solver_search import resume_counts, workspaces

    rng = np.random.default_rng(seed)
    C, N = 4, 13
    deck = rng.permutation(np.repeat(np.arange(C * N), 2))
    forced = np.bincount(deck[: int(rng.integers(0, 30))], minlength=C * N).astype(np.int64)
    hand = np.bincount(deck[30 : 30 + int(rng.integers(5, 20))], minlength=C * N).astype(np.int64)
    hand2 = hand.copy()  # differs from `hand` only at numbers >= start
    for k in range(C * N):
        if k % N >= start:
            hand2[k] = int(rng.integers(0, 3 - forced[k])) if forced[k] < 2 else 0
    rj = np.array([int(run_joker), 0, 0, 0], np.int64)
    gj = np.zeros(N, np.int64)
    ws = workspaces(C, N)
    fresh_dec, resumed_dec = np.zeros(N * (C + 1), np.int64), np.zeros(N * (C + 1), np.int64)
    fresh = resume_counts(forced, hand2, 1, rj, gj, C, N, 1, 25, fresh_dec, ws, 0)
    resume_counts(forced, hand, 1, rj, gj, C, N, 1, 25, np.zeros(N * (C + 1), np.int64), ws, 0)
    resumed = resume_counts(forced, hand2, 1, rj, gj, C, N, 1, 25, resumed_dec, ws, start)
    assert resumed == fresh
    assert fresh < 0 or (resumed_dec == fresh_dec).all()


def test_a_search_resumed_from_a_different_input_differs() -> None:
    """The resume really keeps the old layers (so the test above can fail): resuming above a difference in the
    hand gives the old hand's answer, not the new one's."""
    from generator.games.rummy_cards.solver_search import resume_counts, workspaces

    C, N = 4, 13
    z = np.zeros(C * N, np.int64)
    old = np.zeros(C * N, np.int64)
    old[[0, 1, 2]] = 1  # yellow 1 2 3
    new = np.zeros(C * N, np.int64)
    new[[0 * N + 0, 1 * N + 0, 2 * N + 0]] = 1  # yellow1 blue1 black1: also 3 cards, fewer points
    ws = workspaces(C, N)
    dec = np.zeros(N * (C + 1), np.int64)
    rj, gj = np.zeros(C, np.int64), np.zeros(N, np.int64)
    assert resume_counts(z, old, 0, rj, gj, C, N, 1, 25, dec, ws, 0) == 6 * 256 + 3
    assert resume_counts(z, new, 0, rj, gj, C, N, 1, 25, dec, ws, 0) == 3 * 256 + 3
    resume_counts(z, old, 0, rj, gj, C, N, 1, 25, dec, ws, 0)
    assert resume_counts(z, new, 0, rj, gj, C, N, 1, 25, dec, ws, 5) == 6 * 256 + 3  # stale layers kept


def test_a_resumed_search_rereads_the_numbers_its_dead_run_cut_looked_ahead_to() -> None:
    """A colour layer cuts runs of 1 or 2 that the next LOOK_AHEAD numbers cannot continue, so a layer reads
    the input past its own number: resuming at `start` must redo the layers that looked ahead to it. Before
    the resume backed off, the yellow 1 2 run cut for want of a yellow 3 stayed cut when the 3 came (the
    retrieval's candidate searches resume so; a 3-player round laid 4 points less than the reference)."""
    from generator.games.rummy_cards.solver_search import resume_counts, workspaces
    from generator.games.rummy_cards.solver_state import LOOK_AHEAD

    C, N = 4, 13
    z = np.zeros(C * N, np.int64)
    without = np.zeros(C * N, np.int64)
    without[[0, 1]] = 1  # yellow 1 2: no meld
    with_3 = without.copy()
    with_3[2] = 1  # yellow 1 2 3
    ws = workspaces(C, N)
    dec = np.zeros(N * (C + 1), np.int64)
    rj, gj = np.zeros(C, np.int64), np.zeros(N, np.int64)
    assert LOOK_AHEAD == 2
    fresh = resume_counts(z, with_3, 0, rj, gj, C, N, 1, 25, dec, ws, 0)
    assert fresh == 6 * 256 + 3
    assert resume_counts(z, without, 0, rj, gj, C, N, 1, 25, dec, ws, 0) <= 0
    assert resume_counts(z, with_3, 0, rj, gj, C, N, 1, 25, dec, ws, 2) == fresh  # equal below number index 2


def test_hash_table_growth_keeps_every_state_findable_at_its_index() -> None:
    """_grow rehashes a layer into a table twice as large; every key is then found at the same state index
    (the search's order and ties depend on indexes, never on where a key sits in the table)."""
    from generator.games.rummy_cards.solver_state import _grow, _hash, _lookup, new_workspace

    keys, _, _, _, htab, hpos, _ = new_workspace(4, 13, 1024)
    rng = np.random.default_rng(7)
    layer = 3
    n = 200
    keys[layer, :n] = rng.integers(0, 2**62, n)
    mask = 511
    for q in range(n):  # insert as the search does, into a 512-slot table
        hh = _hash(int(keys[layer, q])) & mask
        while htab[hh, 0] != 0:
            hh = (hh + 1) & mask
        htab[hh] = (q + 1, keys[layer, q])
        hpos[q] = hh
    mask = _grow(keys, layer, n, htab, hpos, mask)
    assert mask == 1023
    assert [_lookup(keys, layer, htab, mask, int(k)) for k in keys[layer, :n]] == list(range(n))
    assert int((htab[:, 0] != 0).sum()) == n  # the old slots were cleared
