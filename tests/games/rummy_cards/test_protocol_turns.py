"""Rummy Cards behind the one Game protocol (rules.new_game): whole-turn plays plus turns built step by step,
every legal turn reachable, apply re-checking every step, the numpy shuffle, and the balance code's win credit
against the reference Outcome.winners."""

from __future__ import annotations

import numpy as np
import pytest

from generator.engine.game import is_game
from generator.errors import RuleViolation
from generator.games.rummy_cards.balance import win_credit
from generator.games.rummy_cards.rules import Draw, Game, Lay, Meld, State, is_valid_meld
from generator.games.rummy_cards.sim import logged_round, simulation_from_spec
from generator.games.rummy_cards.sim_setup import RES_WINNERS
from generator.games.rummy_cards.turns import (
    BuildTurn,
    EndTurn,
    Form,
    Lift,
    ResetTurn,
    TurnGame,
    TurnState,
    formable_melds,
    new_game,
)
from tests.games.rummy_cards.replay import replay
from tests.games.shipped import game_spec

SPEC = game_spec("rummy_cards")
TG = new_game(SPEC, 2)
D = TG.game.deck
SIMPLE = Game(SPEC.model_copy(update={"rules": SPEC.rules.model_copy(update={"draw": "by_choice"})}), 2)


def cs(names: str) -> tuple[int, ...]:
    """'red7 red8 joker' -> ids; a trailing ':1' picks the second copy."""
    out = []
    for n in names.split():
        name, _, copy = n.partition(":")
        out.append(D.card(name, int(copy or 0)))
    return tuple(out)


def run(names: str) -> Meld:
    return Meld("run", cs(names))


def group(names: str) -> Meld:
    return Meld("group", cs(names))


def turn(
    hand0: str,
    table: tuple[Meld, ...] = (),
    opened: tuple[bool, bool] = (True, True),
    pile: str = "yellow1 yellow2",
) -> TurnState:
    return TurnState(State((tuple(sorted(cs(hand0))), cs("blue1")), table, cs(pile), opened))


def build(tg: TurnGame, s: TurnState, table: tuple[Meld, ...]) -> TurnState:
    """The turn that ends with `table`, built step by step from offered actions only: lift every table meld,
    form the final table meld by meld, end the turn (a group's cards in colour order, jokers last: the order
    Form lists; another order of the same cards is the same group)."""
    steps = [BuildTurn()] + [Lift(0)] * len(s.round.table) + [Form(m) for m in table] + [EndTurn()]
    for a in steps:
        assert a in tg.legal_actions(s), a
        s = tg.apply(s, a)
    return s


def test_new_game_is_a_game_and_refuses_player_counts_outside_the_spec() -> None:
    assert is_game(TG) and TG.players == 2
    for bad in (SPEC.players.min - 1, SPEC.players.max + 1):
        with pytest.raises(RuleViolation, match=f"{bad} players"):
            new_game(SPEC, bad)


def test_new_state_deals_from_the_numpy_generator() -> None:
    a, b = TG.new_state(np.random.default_rng(5)), TG.new_state(np.random.default_rng(5))
    assert a == b != TG.new_state(np.random.default_rng(6))
    r = a.round
    assert [len(h) for h in r.hands] == [SPEC.hand_size] * 2
    assert sorted([c for h in r.hands for c in h] + list(r.pile)) == list(range(D.size))
    assert TG.to_move(a) == 0 and not a.building


@pytest.mark.parametrize(
    "hand, table, final",
    [
        # the seed's example: red 4, 6 and 7 laid into three table runs (the meld finder's table)
        (
            "red4 red6 red7",
            (
                run("black4 black5 black6 black7"),
                run("yellow4 yellow5 yellow6 yellow7"),
                run("blue4 blue5 blue6"),
            ),
            (
                group("yellow4 blue4 black4 red4"),
                group("yellow5 blue5 black5"),
                group("yellow6 blue6 black6 red6"),
                group("yellow7 black7 red7"),
            ),
        ),
        # take red8 from a group of four into a new run
        (
            "red7 red9 joker",
            (group("blue8 black8 yellow8 red8"),),
            (group("yellow8 blue8 black8"), run("red7 red8 red9")),
        ),
        # joker retrieval: red6 replaces it, the joker goes into a new set with 2 hand cards
        (
            "red6 blue9 yellow9 red1",
            (run("red5 joker red7"),),
            (run("red5 red6 red7"), group("yellow9 blue9 joker")),
        ),
        # an opening of two melds, neither worth the initial meld alone
        ("red10 red11 red12 blue2 blue3 blue4", (), (run("red10 red11 red12"), run("blue2 blue3 blue4"))),
    ],
)
def test_a_turn_no_simple_play_lists_is_built_step_by_step(
    hand: str, table: tuple[Meld, ...], final: tuple[Meld, ...]
) -> None:
    opened = (bool(table), True)
    s = turn(hand, table, opened)
    want = TG.game.apply(s.round, Lay(final))
    # not a simple play (rules.draw by_choice lists those alone; only_when_unable may list the meld finder's
    # lay instead of Draw, another table or the same): the steps reach it
    assert Lay(final) not in SIMPLE.legal_actions(s.round)
    assert build(TG, s, final) == TurnState(want)


def test_whole_turn_plays_then_build_turn_are_offered() -> None:
    s = turn("red10 red11 red12 red13 blue1", opened=(False, True))
    acts = TG.legal_actions(s)
    assert acts[:-1] == TG.game.legal_actions(s.round) and acts[-1] == BuildTurn()
    assert Draw() not in acts  # rules.draw only_when_unable: a lay is listed
    nothing = turn("red1 blue5", opened=(False, True))
    assert TG.legal_actions(nothing) == [Draw(), BuildTurn()]
    assert TG.apply(nothing, Draw()).round.hands[0] == tuple(sorted(cs("red1 blue5 yellow2")))


def test_every_step_is_checked_again() -> None:
    s = turn("red7 red9 joker blue3", (group("blue8 black8 yellow8 red8"),))
    with pytest.raises(RuleViolation, match="only inside a built turn"):
        TG.apply(s, Lift(0))
    b = TG.apply(s, BuildTurn())
    with pytest.raises(RuleViolation, match="already being built"):
        TG.apply(b, BuildTurn())
    with pytest.raises(RuleViolation, match="a built turn ends with EndTurn"):
        TG.apply(b, Draw())
    with pytest.raises(RuleViolation, match="expected a table index in 0..0"):
        TG.apply(b, Lift(1))
    with pytest.raises(RuleViolation, match="3 or more cards"):
        TG.apply(b, Form(run("red7 red9")))
    with pytest.raises(RuleViolation, match="card red8 is neither loose on the table nor in the hand"):
        TG.apply(b, Form(run("red7 red8 red9")))  # red8 is on the table, not lifted
    lifted = TG.apply(b, Lift(0))
    assert lifted.loose == tuple(sorted(cs("blue8 black8 yellow8 red8"))) and lifted.table == ()
    with pytest.raises(RuleViolation, match="4 lifted card"):
        TG.apply(lifted, EndTurn())
    assert EndTurn() not in TG.legal_actions(lifted)
    formed = TG.apply(lifted, Form(run("red7 red8 red9")))
    assert Lift(0) not in TG.legal_actions(formed)
    with pytest.raises(RuleViolation, match="no lifting after a meld was formed"):
        TG.apply(formed, Lift(0))
    with pytest.raises(RuleViolation, match="a meld holds each card once"):
        TG.apply(formed, Form(run("joker joker blue3")))  # one joker standing twice
    assert TG.apply(formed, ResetTurn()) == s  # back to the start of the turn
    # a table that is valid but breaks a rule: Game.apply's check at the end (the unopened player rearranges
    # without laying an initial meld of own cards)
    closed = TG.apply(
        TG.apply(turn("red7 red9 joker", (group("blue8 black8 yellow8 red8"),), (False, True)), BuildTurn()),
        Lift(0),
    )
    closed = TG.apply(TG.apply(closed, Form(group("blue8 black8 yellow8"))), Form(run("red7 red8 red9")))
    assert EndTurn() not in TG.legal_actions(closed)
    with pytest.raises(RuleViolation, match="initial meld: melds of own cards 0 = 0 points"):
        TG.apply(closed, EndTurn())


def test_formable_melds_are_valid_distinct_and_cover_each_source() -> None:
    loose = cs("red8 blue8:1")
    hand = cs("red7 red9 blue8 black8 joker")
    melds = formable_melds(D, loose, hand)
    assert len(set(melds)) == len(melds) and all(is_valid_meld(D, m) for m in melds)
    assert run("red7 red8 red9") in melds and run("joker red8 red9") in melds
    assert (
        group("blue8:1 black8 red8") in melds and group("blue8 black8 red8") in melds
    )  # loose or hand blue8
    assert group("black8 red8 joker") in melds
    assert all(set(m.cards) <= set(loose) | set(hand) for m in melds)


def test_outcome_is_the_reference_outcome() -> None:
    s = TurnState(State(((), cs("red5 joker")), (), (), (True, True)))
    assert TG.to_move(s) is None and TG.legal_actions(s) == []
    assert TG.outcome(s) == TG.game.outcome(s.round)
    assert list(TG.outcome(s).winners) == [0]
    with pytest.raises(RuleViolation, match="the round is over"):
        TG.apply(s, Draw())


# ---- the balance code's win credit against the reference winners -------------------------------------------


def _credit(winners: tuple[int, ...], players: int) -> list[float]:
    return [1 / len(winners) if p in winners else 0.0 for p in range(players)]


@pytest.mark.parametrize("rules", [{}, {"exhausted_tie": "tie_break"}, {"exhausted_winner": "lowest_total"}])
@pytest.mark.parametrize("seed, players, random_seat", [(21, 2, -1), (22, 3, 0), (23, 4, 2)])
def test_win_credit_of_kernel_rounds_equals_the_reference_winners(
    rules: dict[str, str], seed: int, players: int, random_seat: int
) -> None:
    """balance.win_credit (kernel winner masks -> per-seat share) against Outcome.winners of the same rounds
    replayed through the reference rules. A small deck (one copy of 1..6 in four colours, no jokers) ends most
    rounds with an exhausted pile, so shared wins (rules.exhausted_tie share) are among them."""
    spec = game_spec(
        "rummy_cards",
        {
            "numbers.max": 6,
            "copies": 1,
            "jokers": 0,
            "total_cards": 24,
            "hand_size": 6,
            "initial_meld": 10,
            **{f"rules.{k}": v for k, v in rules.items()},
        },
    )
    sim = simulation_from_spec(spec, players)
    credits, ref = [], []
    for r in range(8):
        res, ws = logged_round(sim, seed * 100 + r, random_seat)
        game = Game(spec, players)
        s, _ = replay(game, ws, random_seat)  # the kernel's deal and random-legal choices
        o = game.outcome(s)
        assert tuple(ws.scores[0]) == o.scores
        credits.append(win_credit(np.array([res[RES_WINNERS]]), players)[0].tolist())
        ref.append(_credit(o.winners, players))
    assert credits == ref
    if not rules and players > 2:
        assert any(0 < c < 1 for row in credits for c in row)  # a shared win was among the rounds
