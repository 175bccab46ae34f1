"""The `deck` game kind: kits made only of data rows (CSV, .xlsx, inline YAML) and declarative face templates,
no Python in the kit (docs/deck-kind.md). Loaders only here: nothing heavy is imported until used."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from generator.games.registry import BalanceReporter, GamePlugin, NewGame

if TYPE_CHECKING:  # types only: the record must stay cheap to import
    from generator.games.deck.spec import DeckGame
    from generator.layout.compose import Composer


def _spec() -> type[DeckGame]:
    from generator.games.deck.spec import DeckGame
    return DeckGame


def _composer() -> Composer:
    from generator.games.deck import layout
    return layout


def _legal_problems() -> Callable[[Any], Sequence[tuple[str, str]]]:
    from generator.games.deck.legal import legal_problems
    return legal_problems


def _balance_report() -> BalanceReporter:
    from generator.games.deck.balance import balance_report
    return balance_report


def _transcript() -> Callable[[Any, int, int], str]:
    from generator.games.deck.transcript import transcript
    return transcript


def _new_game() -> NewGame:
    from generator.games.deck.rules import new_game
    return new_game


def _players(spec: DeckGame) -> Sequence[int]:
    """The player counts the kit's deal is for."""
    return range(spec.deal.players.min, spec.deal.players.max + 1)


GAME = GamePlugin(
    id="deck",
    name="Deck (data kit)",
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
