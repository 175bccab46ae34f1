"""The game contract's shipped conformance test (generator.contract.api_test) over every registered game (the
built-ins and the Pig example), and proof that it fails: a tiny game written here, then broken one way at a
time (a string that names nothing, rules missing a method of the Game protocol, a composer without `compose`,
a function of the wrong shape)."""

from __future__ import annotations

import dataclasses
import sys
import textwrap

import pytest

from generator.contract import BUILTIN, GamePlugin, games, registry, resolve
from generator.contract.api_test import api_problems, api_test
from generator.contract.load import load_kit
from generator.contract.plugin import OPTIONAL_REFS, REFS
from generator.engine.game import is_game
from generator.errors import KitError
from generator.layout.compose import Composer
from generator.pipeline import shipped_kits
from tests.composed import loaded_kits
from tests.conftest import ROOT

PLUGIN_KITS = sorted(p.parent for p in (ROOT / "tests" / "plugins").glob("*/kit/kit.yaml"))


def _kits() -> dict[str, object]:
    """One kit folder per registered game: the shipped ones, then the test plugins' own."""
    out: dict[str, object] = {}
    for folder in [*shipped_kits(), *PLUGIN_KITS]:
        out.setdefault(loaded_kits([folder])[0].game_id, folder)
    return out


KITS = _kits()


def test_every_registered_game_is_covered():
    assert sorted(KITS) == sorted(registry.game_ids())
    assert set(BUILTIN) | {"pig"} <= set(KITS)


@pytest.mark.parametrize("game_id", sorted(KITS))
def test_every_string_resolves_to_what_its_field_promises(game_id):
    plugin = registry.get(game_id)
    assert api_problems(plugin) == []
    refs = plugin.refs()
    assert set(REFS) <= set(refs) <= set(REFS) | set(OPTIONAL_REFS)
    assert isinstance(resolve(refs["composer"]), Composer)
    assert plugin.load.spec() is resolve(refs["spec"])
    for field in set(refs) - {"spec", "composer", "tunables", "slots"}:
        assert callable(resolve(refs[field])), field


@pytest.mark.slow  # plays one seeded random game per player count of every game
@pytest.mark.parametrize("game_id", sorted(KITS))
def test_every_registered_game_passes_the_shipped_api_test(game_id):
    api_test(registry.get(game_id), KITS[game_id])


TINY = """
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from generator.errors import RuleViolation


class Spec(BaseModel):
    target: int = 10


class Ended:
    scores = (0, 0)
    winners = (0,)


class Rules:
    players = 2

    def new_state(self, rng):
        return 0

    def to_move(self, state):
        return None

    def legal_actions(self, state):
        return ()

    def apply(self, state, action):
        return state
{outcome}

def new_game(spec, players):
    if players != 2:
        raise RuleViolation("two players")
    return Rules()


def component_ids():
    return ()


def template_context(game, extras=None, /):
    return {{}}

{compose}

def legal_problems(spec):
    return []


def balance_report(spec, *, games, seed, executor=None, progress=None, kit=""):
    raise NotImplementedError


def transcript(spec, seed, players):
    return "one line"


def players(spec):
    return (2,)
"""
OUTCOME = """
    def outcome(self, state):
        return Ended()
"""
COMPOSE = """
def compose(ctx, /):
    return []
"""


@pytest.fixture
def tiny(tmp_path, monkeypatch, request):
    """A tiny game module written to a folder on sys.path, and its record."""
    name = f"tiny_game_{request.node.name.split('[')[-1].strip(']').replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(TINY.format(outcome=OUTCOME, compose=COMPOSE)))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name, tmp_path
    sys.modules.pop(name, None)


def _record(module: str, **changes: str) -> GamePlugin:
    plugin = GamePlugin(
        id="tiny",
        ruleset="1",
        players=f"{module}:players",
        spec=f"{module}:Spec",
        composer=module,
        legal_problems=f"{module}:legal_problems",
        balance_report=f"{module}:balance_report",
        transcript=f"{module}:transcript",
        new_game=f"{module}:new_game",
    )
    return dataclasses.replace(plugin, **changes)


def test_the_tiny_game_conforms(tiny):
    module, _ = tiny
    plugin = _record(module)
    spec = plugin.load.spec()()
    assert api_problems(plugin, spec=spec) == []
    assert is_game(plugin.load.new_game()(spec, 2))


def test_rules_missing_a_protocol_method_fail(tiny):
    module, folder = tiny
    (folder / f"{module}.py").write_text(textwrap.dedent(TINY.format(outcome="", compose=COMPOSE)))
    plugin = _record(module)
    assert api_problems(plugin, spec=plugin.load.spec()()) == [
        "new_game(spec, 2) is not a Game of 2 players (generator/engine/game.py)"
    ]
    with pytest.raises(AssertionError, match="game 'tiny' does not conform to the contract"):
        api_test(plugin, spec=plugin.load.spec()())


def test_a_composer_without_compose_fails(tiny):
    module, folder = tiny
    (folder / f"{module}.py").write_text(textwrap.dedent(TINY.format(outcome=OUTCOME, compose="")))
    assert api_problems(_record(module)) == [f"composer = {module!r}: not a Composer (missing compose)"]


@pytest.mark.parametrize(
    "field, ref, message",
    [
        (
            "new_game",
            "{m}:no_such_thing",
            "new_game: '{m}:no_such_thing': '{m}' has no attribute 'no_such_thing'",
        ),
        (
            "legal_problems",
            "tiny_no_such_module:f",
            "legal_problems: 'tiny_no_such_module:f': cannot import 'tiny_no_such_module' "
            "(ModuleNotFoundError: ",
        ),
        ("spec", "{m}:new_game", "spec = '{m}:new_game': expected a pydantic model class; got function"),
        (
            "transcript",
            "{m}:legal_problems",
            "transcript = '{m}:legal_problems': its signature (spec) cannot take pnpkit's call",
        ),
        (
            "tunables",
            "{m}:Spec",
            "tunables = '{m}:Spec': expected a sequence of generator.engine.tunables.Tunable",
        ),
        ("slots", "{m}:Ended", "slots = '{m}:Ended': expected a mapping of component id -> sequence of "),
    ],
    ids=["no-attr", "no-module", "not-a-model", "wrong-shape", "not-tunables", "not-slots"],
)
def test_a_string_that_names_the_wrong_thing_fails(tiny, field, ref, message):
    module, _ = tiny
    problems = api_problems(_record(module, **{field: ref.format(m=module)}))
    assert len(problems) == 1 and problems[0].startswith(message.format(m=module)), problems


def test_a_record_with_no_strings_is_refused_at_registration():
    plugin = dataclasses.replace(registry.get("peak_dice"), composer=print, print_data="not a ref!")
    assert plugin.problems() == [
        f"composer = {print!r} is not a 'module:attr' string",
        "print_data = 'not a ref!' is not a 'module:attr' string",
    ]
    assert api_problems({"id": "x"}) == ["expected a generator.contract.GamePlugin; got dict"]


def test_a_string_that_names_nothing_is_a_located_error_when_loaded(tiny):
    module, _ = tiny
    with pytest.raises(
        KitError, match=rf"game 'tiny': new_game = '{module}:nope': '{module}' has no attribute"
    ):
        _record(module, new_game=f"{module}:nope").load.new_game()


def test_optional_hooks_have_their_documented_defaults(tiny):
    module, _ = tiny
    load = _record(module).load
    assert load.print_data()(None, 0) == {} and load.refit() is None and load.tunables() == ()
    assert load.slots() == {} and load.with_files() is None and load.component_ids(None) == ()
    assert games()["deck"].load.component_ids(load_kit(ROOT / "layouts" / "harvest_deck").game) != ()


def test_a_game_with_files_is_played_through_what_its_hook_loaded_not_the_bare_section():
    """A record with `with_files` hands its hooks the loaded game (the deck's section, rows and art), and
    `api_problems(spec=...)` plays that; a bare section given instead is named, not a traceback."""
    kit = load_kit(ROOT / "layouts" / "harvest_deck")
    deck = games()["deck"]
    assert type(kit.section) is deck.load.spec() and kit.game is not kit.section
    assert api_problems(deck, spec=kit.game) == []
    assert api_problems(deck, spec=kit.section) == [
        "the game is a bare DeckGame section: the record has with_files, so its hooks receive what "
        "with_files loaded for it"
    ]
