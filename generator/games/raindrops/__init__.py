"""Raindrops: tile collection and pattern building (2-4 players): components, memory cards and their proofs,
reference rules, policies, the compiled full-game kernel and balance.

The package itself holds only the plugin record (its loaders import on call): names below are imported on first use (PEP 562),
so looking the game up, `pnpkit build` and `validate` do not load numba and the simulation kernels."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from generator.games.lazy import lazy_getattr
from generator.games.registry import BalanceReporter, GamePlugin, NewGame, Refit

if TYPE_CHECKING:  # types only: the record must stay cheap to import
    from generator.engine.report import BalanceReport
    from generator.engine.tunables import Tunable
    from generator.games.raindrops.spec import RaindropsGame
    from generator.layout.compose import Composer

GAME_ID = "raindrops"

# The loaders: each imports its module when called (never at lookup), and mypy --strict checks what it returns
# against the contract of generator/games/registry.py (a Game of generator/engine/game.py, a Composer, ...).


def _spec() -> type[RaindropsGame]:
    from generator.games.raindrops.spec import RaindropsGame
    return RaindropsGame


def _composer() -> Composer:
    from generator.games.raindrops import layout
    return layout


def _legal_problems() -> Callable[[Any], Sequence[tuple[str, str]]]:
    from generator.games.raindrops.legal import legal_problems
    return legal_problems


def _balance_report() -> BalanceReporter:
    from generator.games.raindrops.balance import balance_report
    return balance_report


def _transcript() -> Callable[[Any, int, int], str]:
    from generator.games.raindrops.transcript import transcript
    return transcript


def _new_game() -> NewGame:
    from generator.games.raindrops.rules import new_game
    return new_game


def _print_data() -> Callable[[Any, int], Mapping[str, Any]]:
    from generator.games.raindrops.figures import print_data
    return print_data


def _refit() -> Callable[[BalanceReport], Refit | None]:
    from generator.games.raindrops.refit import refit_edit
    return refit_edit


def _players(spec: RaindropsGame) -> Sequence[int]:
    """The player counts of the kit's game section."""
    return sorted(set(spec.rules.players))


def _tunables() -> Sequence[Tunable]:
    from generator.games.raindrops.tunables import TUNABLES
    return TUNABLES


GAME = GamePlugin(
    id="raindrops",
    name="Raindrops",
    ruleset="0.3.0",
    players=_players,
    spec=_spec,
    composer=_composer,
    legal_problems=_legal_problems,
    balance_report=_balance_report,
    transcript=_transcript,
    new_game=_new_game,
    print_data=_print_data,
    refit=_refit,
    tunables=_tunables,
)
RULESET_VERSION = GAME.ruleset

_WHERE = {
    "BonusTile": "components", "CloudToken": "components", "Half": "components", "MemoryCard": "components",
    "RaindropTile": "components", "ThunderToken": "components", "build_bag": "components",
    "build_bonus_tiles": "components", "build_cloud_tokens": "components", "build_thunder_tokens": "components",
    "balance_report": "balance", "legal_problems": "legal", "find_cover": "cover",
    "verify_cover": "cover", "generate_memory_cards": "memory", "transcript": "transcript",
    "print_data": "figures",
}

__all__ = ["GAME", "GAME_ID", "RULESET_VERSION", *_WHERE]

__getattr__ = lazy_getattr(__name__, _WHERE, globals())
