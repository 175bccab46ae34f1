"""Rummy Cards (seed 004): melds, rules, the exact meld finder, self-play and balance.

The package itself holds only the plugin record (its loaders import on call): names below are imported on first use (PEP 562),
so looking the game up, `pnpkit build` and `validate` do not load numba and the solver."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from generator.games.lazy import lazy_getattr
from generator.games.registry import BalanceReporter, GamePlugin, NewGame

if TYPE_CHECKING:  # types only: the record must stay cheap to import
    from generator.engine.tunables import Tunable
    from generator.games.rummy_cards.spec import RummyCardsGame
    from generator.layout.compose import Composer

GAME_ID = "rummy_cards"

# The loaders: each imports its module when called (never at lookup), and mypy --strict checks what it returns
# against the contract of generator/games/registry.py (a Game of generator/engine/game.py, a Composer, ...).


def _spec() -> type[RummyCardsGame]:
    from generator.games.rummy_cards.spec import RummyCardsGame
    return RummyCardsGame


def _composer() -> Composer:
    from generator.games.rummy_cards import layout
    return layout


def _legal_problems() -> Callable[[Any], Sequence[tuple[str, str]]]:
    from generator.games.rummy_cards.legal import legal_problems
    return legal_problems


def _balance_report() -> BalanceReporter:
    from generator.games.rummy_cards.balance import balance_report
    return balance_report


def _transcript() -> Callable[[Any, int, int], str]:
    from generator.games.rummy_cards.transcript import transcript
    return transcript


def _new_game() -> NewGame:
    from generator.games.rummy_cards.rules import new_game
    return new_game


def _print_data() -> Callable[[Any, int], Mapping[str, Any]]:
    from generator.games.rummy_cards.figures import print_data
    return print_data


def _players(spec: RummyCardsGame) -> Sequence[int]:
    """The player counts of the kit's game section."""
    return range(spec.players.min, spec.players.max + 1)


def _tunables() -> Sequence[Tunable]:
    from generator.games.rummy_cards.tunables import TUNABLES
    return TUNABLES


GAME = GamePlugin(
    id="rummy_cards",
    name="Rummy Cards",
    ruleset="1.2.0",
    players=_players,
    spec=_spec,
    composer=_composer,
    legal_problems=_legal_problems,
    balance_report=_balance_report,
    transcript=_transcript,
    new_game=_new_game,
    print_data=_print_data,
    tunables=_tunables,
)
RULESET_VERSION = GAME.ruleset

_WHERE = {
    "balance_report": "balance", "win_credit": "balance", "legal_problems": "legal", "transcript": "transcript",
    "print_data": "figures", "rule_figures": "figures",
    "POLICIES": "policies", "MeldFinder": "policies", "Play": "policies", "RandomLegal": "policies", "find_best_play": "policies",
    "Deck": "rules", "Draw": "rules", "Game": "rules", "Lay": "rules", "Meld": "rules", "Outcome": "rules", "State": "rules", "deck_from_spec": "rules", "hand_total": "rules", "is_valid_meld": "rules", "meld_roles": "rules", "meld_value": "rules", "read_meld": "rules", "score_exhausted": "rules", "score_out": "rules", "new_game": "rules", "TurnGame": "rules", "formable_melds": "rules",
    "MatchResult": "sim", "RummySimulation": "sim", "match_from_scores": "sim", "play_match": "sim", "play_round": "sim", "simulation_from_spec": "sim",
    "decode": "solver", "solve_counts": "solver",
}

__all__ = ["GAME", "GAME_ID", "RULESET_VERSION", *_WHERE]

__getattr__ = lazy_getattr(__name__, _WHERE, globals())
