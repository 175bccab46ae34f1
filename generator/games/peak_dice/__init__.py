"""Peak Dice: a roll-and-write whose rows rise to a peak line and fall after it (rules in rules.py).

Names are imported on first use (PEP 562): `pnpkit build` and `validate` need only the legal checks and
must not pay for numba and the simulation kernels."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from generator.games.lazy import lazy_getattr
from generator.games.registry import BalanceReporter, GamePlugin, NewGame

if TYPE_CHECKING:  # types only: the record must stay cheap to import
    from generator.engine.tunables import Tunable
    from generator.games.peak_dice.spec import PeakDiceGame
    from generator.layout.compose import Composer

GAME_ID = "peak_dice"

# The loaders: each imports its module when called (never at lookup), and mypy --strict checks what it returns
# against the contract of generator/games/registry.py (a Game of generator/engine/game.py, a Composer, ...).


def _spec() -> type[PeakDiceGame]:
    from generator.games.peak_dice.spec import PeakDiceGame
    return PeakDiceGame


def _composer() -> Composer:
    from generator.games.peak_dice import layout
    return layout


def _legal_problems() -> Callable[[Any], Sequence[tuple[str, str]]]:
    from generator.games.peak_dice.legal import legal_problems
    return legal_problems


def _balance_report() -> BalanceReporter:
    from generator.games.peak_dice.balance import balance_report
    return balance_report


def _transcript() -> Callable[[Any, int, int], str]:
    from generator.games.peak_dice.transcript import transcript
    return transcript


def _new_game() -> NewGame:
    from generator.games.peak_dice.rules import new_game
    return new_game


def _print_data() -> Callable[[Any, int], Mapping[str, Any]]:
    from generator.games.peak_dice.figures import print_data
    return print_data


def _players(spec: PeakDiceGame) -> Sequence[int]:
    """The player counts of the kit's game section."""
    return range(spec.players.min, spec.players.max + 1)


def _tunables() -> Sequence[Tunable]:
    from generator.games.peak_dice.tunables import TUNABLES
    return TUNABLES


GAME = GamePlugin(
    id="peak_dice",
    name="Peak Dice",
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
    "GREEDY": "policies", "PLANNER": "policies", "PLANNER_KEEP": "policies", "POLICIES": "policies", "RANDOM": "policies", "REROLL": "policies", "Policy": "policies",
    "play_reference": "policies", "PlannerParams": "planner", "DEFAULT_PARAMS": "planner",
    "Game": "rules", "Outcome": "rules", "Pass": "rules", "Reroll": "rules",
    "Roll": "rules", "State": "rules", "Write": "rules", "miss_penalty": "rules", "second_lowest": "rules",
    "Simulation": "sim", "Tables": "tables", "build_tables": "tables", "transcript": "transcript",
    "Variant": "variants", "generate_variants": "variants",
}

__all__ = ["GAME", "GAME_ID", "RULESET_VERSION", *_WHERE]
RULESET_VERSION = GAME.ruleset


__getattr__ = lazy_getattr(__name__, _WHERE, globals())
