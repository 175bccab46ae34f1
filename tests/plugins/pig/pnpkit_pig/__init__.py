"""Pig, the push-your-luck dice game, as a pnpkit game that lives outside pnpkit (docs/game-contract.md).

Registered by the entry point `pig = pnpkit_pig:GAME` in the group "pnpkit.games" (see the dist-info folder
beside this package). Listing the games or reading a kit's `game.kind` must import nothing heavy: each loader
below imports its module when pnpkit first calls it, and mypy --strict checks what it returns against the
contract (a loader whose rules miss a method of the Game protocol does not type-check)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from generator.games.registry import BalanceReporter, GamePlugin, NewGame

if TYPE_CHECKING:
    from generator.layout.compose import Composer
    from pnpkit_pig.spec import PigGame


def _spec() -> type[PigGame]:
    from pnpkit_pig.spec import PigGame
    return PigGame


def _composer() -> Composer:
    from pnpkit_pig import layout
    return layout


def _legal_problems() -> Callable[[Any], Sequence[tuple[str, str]]]:
    from pnpkit_pig.legal import legal_problems
    return legal_problems


def _balance_report() -> BalanceReporter:
    from pnpkit_pig.balance import balance_report
    return balance_report


def _transcript() -> Callable[[Any, int, int], str]:
    from pnpkit_pig.transcript import transcript
    return transcript


def _new_game() -> NewGame:
    from pnpkit_pig.rules import new_game
    return new_game


def _players(spec: PigGame) -> Sequence[int]:
    """The player counts the kit is for (game.players)."""
    return range(spec.players.min, spec.players.max + 1)


GAME = GamePlugin(
    id="pig",
    name="Pig",
    ruleset="1.0",
    players=_players,
    spec=_spec,
    composer=_composer,
    legal_problems=_legal_problems,
    balance_report=_balance_report,
    transcript=_transcript,
    new_game=_new_game,
)

__all__ = ["GAME"]
