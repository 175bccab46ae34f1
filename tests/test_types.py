"""mypy --strict over the package (the house style's type gate), run as part of the suite; and the typed plugin
contract: mypy --strict refuses a game whose `new_game` returns rules missing a method of the Game protocol."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# One worker runs these in file order: test_mypy_strict_is_clean fills the project's mypy cache (.mypy_cache)
# and the two plugin checks then reuse it for generator/, instead of checking it again beside it at the same
# time (and two mypy processes writing one cache).
pytestmark = pytest.mark.xdist_group("mypy-cache")


@pytest.mark.slow  # mypy over the package: 20 s of CPU with an empty cache (a clean clone)
def test_mypy_strict_is_clean():
    pytest.importorskip("mypy")
    r = subprocess.run([sys.executable, "-m", "mypy", "generator"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]


PLUGIN = '''"""A small third-party game record, every loader typed as the registry asks."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel

from generator.engine.report import BalanceReport
from generator.games.registry import BalanceReporter, GamePlugin, NewGame
from generator.layout.compose import Component, Composer, Context


class Spec(BaseModel):
    target: int = 10


class Ended:
    scores: Sequence[int] = (0, 0)
    winners: Sequence[int] = (0,)


class Rules:
    """A game that ends at once."""

    players = 2

    def new_state(self, rng: np.random.Generator) -> int:
        return 0

    def to_move(self, state: int) -> int | None:
        return None

    def legal_actions(self, state: int) -> Sequence[str]:
        return ()

    def apply(self, state: int, action: str) -> int:
        return state
{outcome}

def new_game(spec: Spec, players: int) -> Rules:
    return Rules()


class Layout:
    def component_ids(self) -> tuple[str, ...]:
        return ()

    def template_context(self, game: Any, extras: Mapping[str, Any] | None = None, /) -> Mapping[str, Any]:
        return {{}}

    def compose(self, ctx: Context, /) -> Iterable[Component]:
        return []


def legal_problems(spec: Spec) -> list[tuple[str, str]]:
    return []


def balance_report(spec: Spec, *, games: Any, seed: int, executor: Any = None,
                   progress: Callable[..., None] | None = None, kit: str = "") -> BalanceReport:
    return BalanceReport(kit=kit, game="tiny", games_per_setting=1, seed=seed)


def transcript(spec: Spec, seed: int, players: int) -> str:
    return ""


def _spec() -> type[Spec]:
    return Spec


def _composer() -> Composer:
    return Layout()


def _legal_problems() -> Callable[[Any], Sequence[tuple[str, str]]]:
    return legal_problems


def _balance_report() -> BalanceReporter:
    return balance_report


def _transcript() -> Callable[[Any, int, int], str]:
    return transcript


def _new_game() -> NewGame:
    return new_game


def _players(spec: Spec) -> Sequence[int]:
    return (2,)


GAME = GamePlugin(id="tiny", ruleset="1", players=_players, spec=_spec, composer=_composer,
                  legal_problems=_legal_problems, balance_report=_balance_report, transcript=_transcript,
                  new_game=_new_game)
'''
OUTCOME = '''
    def outcome(self, state: int) -> Ended:
        return Ended()
'''


def test_mypy_strict_refuses_a_plugin_whose_rules_miss_a_protocol_method(tmp_path):
    """The same record twice, differing only in `outcome`: with it the file type-checks; without it mypy --strict
    fails at the loader that returns `new_game` (its rules are no `Game`). A composer without `compose` or a
    `balance_report` of another shape fail the same way."""
    pytest.importorskip("mypy")
    good, broken = tmp_path / "good_game.py", tmp_path / "broken_game.py"
    good.write_text(PLUGIN.format(outcome=OUTCOME), encoding="utf-8")
    broken.write_text(PLUGIN.format(outcome=""), encoding="utf-8")
    # incremental, in the project's cache (test_mypy_strict_is_clean fills it): generator/ is not checked again,
    # 1.5 s instead of 6 s of CPU. A file whose text is unchanged has its cached errors replayed under the
    # folder of the run that wrote them, so a line is matched by file name, not by this run's folder.
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", str(good), str(broken)],
                       cwd=ROOT, capture_output=True, text=True, timeout=900)
    errors = [line for line in r.stdout.splitlines() if ": error:" in line or ": note:" in line]
    assert r.returncode == 1, r.stdout + r.stderr
    assert errors and all(Path(line.split(":", 1)[0]).name == broken.name for line in errors), r.stdout
    line = next(i for i, text in enumerate(PLUGIN.format(outcome="").splitlines(), 1) if text == "    return new_game")
    assert any(f"broken_game.py:{line}: error: Incompatible return value type" in e for e in errors), r.stdout
    assert any('"NewGame.__call__" has type "Callable[[Any, int], Game[Any, Any]]"' in e for e in errors), r.stdout


def test_mypy_strict_checks_the_example_plugin_against_the_contract():
    """Pig, the third-party example (tests/plugins/pig), is held to the same typed contract as the built-ins."""
    pytest.importorskip("mypy")
    env = {**os.environ, "MYPYPATH": str(ROOT / "tests" / "plugins" / "pig")}
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "-p", "pnpkit_pig"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
