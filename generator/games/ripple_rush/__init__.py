"""Ripple Rush: flip-and-write, 1-5 players; reference rules, policies, compiled self-play, balance and
generated sheet variants, all driven by the kit spec (`generator.games.ripple_rush.spec.RippleRushGame`).

Names are imported on first use (PEP 562) so that `pnpkit build` and `validate`, which need only the legal
checks, do not load numba and the simulation kernels."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from generator.games.lazy import lazy_getattr
from generator.games.registry import BalanceReporter, GamePlugin, NewGame

if TYPE_CHECKING:  # types only: the record must stay cheap to import
    from generator.engine.tunables import Tunable
    from generator.games.ripple_rush.spec import RippleRushGame
    from generator.layout.compose import Composer

# The loaders: each imports its module when called (never at lookup), and mypy --strict checks what it returns
# against the contract of generator/games/registry.py (a Game of generator/engine/game.py, a Composer, ...).


def _spec() -> type[RippleRushGame]:
    from generator.games.ripple_rush.spec import RippleRushGame
    return RippleRushGame


def _composer() -> Composer:
    from generator.games.ripple_rush import layout
    return layout


def _legal_problems() -> Callable[[Any], Sequence[tuple[str, str]]]:
    from generator.games.ripple_rush.legal import legal_problems
    return legal_problems


def _balance_report() -> BalanceReporter:
    from generator.games.ripple_rush.balance import balance_report
    return balance_report


def _transcript() -> Callable[[Any, int, int], str]:
    from generator.games.ripple_rush.transcript import transcript
    return transcript


def _new_game() -> NewGame:
    from generator.games.ripple_rush.rules import new_game
    return new_game


def _print_data() -> Callable[[Any, int], Mapping[str, Any]]:
    from generator.games.ripple_rush.figures import print_data
    return print_data


def _players(spec: RippleRushGame) -> Sequence[int]:
    """The player counts of the kit's game section."""
    return range(spec.players.min, spec.players.max + 1)


def _tunables() -> Sequence[Tunable]:
    from generator.games.ripple_rush.tunables import TUNABLES
    return TUNABLES


GAME = GamePlugin(
    id="ripple_rush",
    name="Ripple Rush",
    ruleset="1.1",
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

_WHERE = {
    "balance_report": "balance", "legal_problems": "legal",
    "GREEDY": "policies", "POLICIES": "policies", "RANDOM": "policies", "STRONG": "policies", "Policy": "policies",
    "PASS": "rules", "Action": "rules", "Card": "rules", "Cell": "rules",
    "Decision": "rules", "Game": "rules", "new_game": "rules", "Outcome": "rules", "Pass": "rules", "SheetScore": "rules",
    "State": "rules", "Write": "rules",
    "RippleRushSim": "sim", "Setup": "sim", "transcript": "transcript", "Variant": "variants",
    "generate_variants": "variants",
}

__all__ = ["GAME", "GAME_ID", "RULESET_VERSION", *_WHERE]
GAME_ID = GAME.id  # the plugin record is the one source of the id and the ruleset
RULESET_VERSION = GAME.ruleset


__getattr__ = lazy_getattr(__name__, _WHERE, globals())
