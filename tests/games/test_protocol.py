"""Conformance over every registered game's reference rules, through the one Game protocol
(generator/engine/game.py): Hypothesis picks the seed, the player count and every move at random; the game
must end with legal moves only, report an outcome for every seat, and replay to the same end."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.contract import registry
from generator.engine.game import is_game
from generator.errors import RuleViolation
from generator.pipeline import shipped_kits
from generator.spec.kit import Kit
from tests.composed import loaded_kits

ROOT = Path(__file__).resolve().parents[2]
PLUGIN_KITS = sorted(p.parent for p in (ROOT / "tests" / "plugins").glob("*/kit/kit.yaml"))
MAX_STEPS = 50_000


def _kits() -> dict[str, Kit]:
    """One kit per registered game: the shipped ones, and the test plugins' own kits."""
    out: dict[str, Kit] = {}
    for folder in [*shipped_kits(), *PLUGIN_KITS]:
        (kit,) = loaded_kits([folder])
        out.setdefault(kit.game_id, kit)
    return out


KITS = _kits()


def test_every_registered_game_has_a_kit_to_play():
    assert sorted(KITS) == sorted(registry.game_ids())


def _seats(game_id: str) -> list[int]:
    """The player counts of the game's kit, as its plugin record states them."""
    return list(registry.get(game_id).load.players()(KITS[game_id].game))


def _play(game_id: str, players: int, seed: int, moves_seed: int) -> tuple[list[int], object]:
    """Play to the end choosing uniformly among the legal moves; returns the move indices and the outcome."""
    game = registry.get(game_id).load.new_game()(KITS[game_id].game, players)
    assert is_game(game) and game.players == players
    state = game.new_state(np.random.default_rng(seed))
    chooser = np.random.default_rng(moves_seed)
    picks: list[int] = []
    for _ in range(MAX_STEPS):
        if game.to_move(state) is None:
            break
        seat = game.to_move(state)
        assert 0 <= seat < players
        legal = list(game.legal_actions(state))
        assert legal, f"seat {seat} to move but no legal move"
        i = int(chooser.integers(len(legal)))
        picks.append(i)
        state = game.apply(state, legal[i])
    else:
        pytest.fail(f"{game_id}: no end after {MAX_STEPS} moves")
    assert list(game.legal_actions(state)) == []
    return picks, game.outcome(state)


@pytest.mark.parametrize("game_id", sorted(KITS))
def test_the_stated_player_counts_are_exactly_those_the_rules_accept(game_id):
    """`players(spec)` is the contract: every count it states builds a game, the counts around it are
    refused."""
    seats = _seats(game_id)
    assert seats and seats == sorted(set(seats)) and seats[0] >= 1, f"{game_id}: players() = {seats}"
    new_game = registry.get(game_id).load.new_game()
    for n in seats:
        assert new_game(KITS[game_id].game, n).players == n
    for n in sorted({0, seats[0] - 1, seats[-1] + 1} - set(seats)):
        with pytest.raises(RuleViolation):
            new_game(KITS[game_id].game, n)


@pytest.mark.parametrize("game_id", sorted(KITS))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1), moves_seed=st.integers(0, 2**32 - 1))
def test_random_play_ends_legally_and_replays_identically(game_id, data, seed, moves_seed):
    players = data.draw(st.sampled_from(_seats(game_id)), label="players")
    picks, out = _play(game_id, players, seed, moves_seed)
    assert len(out.scores) == players
    assert list(out.winners) == sorted(set(out.winners)) and set(out.winners) <= set(range(players))
    again_picks, again = _play(game_id, players, seed, moves_seed)
    assert again_picks == picks
    assert (list(again.scores), list(again.winners)) == (list(out.scores), list(out.winners))


def _declared_bounds(model: object, path: str) -> set[str]:
    """The dotted kit.yaml keys of every Bound (min/max tolerance) under a spec model."""
    from pydantic import BaseModel

    from generator.spec.base import Bound

    out: set[str] = set()
    for name in type(model).model_fields:  # type: ignore[attr-defined]
        value = getattr(model, name)
        if isinstance(value, Bound):
            out.add(f"{path}.{name}")
        elif isinstance(value, BaseModel):
            out |= _declared_bounds(value, f"{path}.{name}")
    return out


@pytest.mark.parametrize("game_id", sorted(KITS))
def test_every_tolerance_the_balance_section_declares_is_judged(game_id):
    """A bound in game.balance that the report never judges would let a check pass on less than the spec
    asks (Rummy Cards' turns_to_initial_meld vanished when initial_meld was not a listed threshold): the
    report of a few games judges every declared bound, and only those."""
    game = KITS[game_id].game
    balance = getattr(game, "balance", None)
    declared = _declared_bounds(balance, "game.balance") if balance is not None else set()
    if not declared:
        pytest.skip(f"{game_id} declares no min/max tolerance in game.balance")
    report = registry.get(game_id).load.balance_report()(game, games=8, seed=1, executor=None)
    assert {t.spec_key for t in report.tolerances} == declared


def _tunable_edits() -> list[tuple[str, str, object]]:
    """(kit, game-section key, value): each shipped kit's tunables at the ends of their legal ranges, and
    every choice: the specs `pnpkit tune` may write."""
    out: list[tuple[str, str, object]] = []
    for folder in shipped_kits():
        (kit,) = loaded_kits([folder])
        for t in registry.get(kit.game_id).load.tunables():
            values: tuple[object, ...] = (
                (int(t.low or 0), int(t.high or 0))
                if t.kind == "int"
                else (t.low, t.high)
                if t.kind == "float"
                else t.choices
            )
            out += [(folder.name, t.path.removeprefix("game."), v) for v in values]
    return out


@pytest.mark.parametrize("kit, key, value", _tunable_edits())
def test_every_declared_tolerance_is_judged_wherever_tune_may_go(kit, key, value):
    """A tune must not pass by making a tolerance vanish: at each end of every tunable's range (a spec the
    legal checks accept), the report still judges every bound game.balance declares."""
    from tests.games.shipped import game_spec

    game = game_spec(kit, {key: value})
    if registry.get(game.kind).load.legal_problems()(game):
        pytest.skip(f"{kit}: game.{key} = {value!r} is not legal (tune never writes it)")
    report = registry.get(game.kind).load.balance_report()(game, games=8, seed=1, executor=None)
    assert {t.spec_key for t in report.tolerances} == _declared_bounds(game.balance, "game.balance")
