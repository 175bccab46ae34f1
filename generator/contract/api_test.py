"""The conformance test of the game contract, shipped with pnpkit so that a third-party game's author runs it
on a record (as PettingZoo ships `api_test`): every `"module:attr"` string resolves and is what its field
promises, and, given a kit of the game, the kit loads, its player counts build games of the one Game protocol,
one seeded random game plays to a legal end, and the transcript is the same twice.

    from generator.contract.api_test import api_test
    from my_game import GAME
    api_test(GAME, "path/to/my_kit")          # AssertionError listing every problem; nothing when it conforms

`api_problems` returns the same problems as a list (empty when the record conforms)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel

from generator.contract.plugin import GamePlugin, resolve
from generator.engine.game import is_game
from generator.engine.tunables import Tunable
from generator.errors import KitError, RuleViolation, SpecError
from generator.layout.art import Slot
from generator.layout.compose import Composer

MAX_STEPS = 100_000
"""Moves one random game may take before the test calls it endless."""

_CALLS: Mapping[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "players": (("spec",), {}),
    "legal_problems": (("spec",), {}),
    "balance_report": (("spec",), {"games": 1, "seed": 0, "executor": None, "progress": None, "kit": ""}),
    "transcript": (("spec", 0, 2), {}),
    "new_game": (("spec", 2), {}),
    "print_data": (("spec", 0), {}),
    "refit": (("report",), {}),
    "component_ids_for": (("spec",), {}),
    "with_files": (("section", Path("."), str, str, "kit.yaml"), {}),
}
"""How pnpkit calls each function-valued field: its arguments must bind to the function's signature."""


def _accepts(fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether a call with these arguments binds to `fn`'s signature (True where Python cannot tell)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return True
    try:
        sig.bind(*args, **kwargs)
    except TypeError:
        return False
    return True


def _ref_problems(plugin: GamePlugin) -> tuple[dict[str, Any], list[str]]:
    """Every string of the record resolved, and what is wrong with each."""
    resolved: dict[str, Any] = {}
    out: list[str] = []
    for field, ref in plugin.refs().items():
        try:
            resolved[field] = resolve(ref)
        except KitError as e:
            out.append(f"{field}: {e}")
    for field, value in resolved.items():
        shown = f"{field} = {plugin.refs()[field]!r}"
        if field == "spec":
            if not (isinstance(value, type) and issubclass(value, BaseModel)):
                out.append(f"{shown}: expected a pydantic model class; got {type(value).__name__}")
        elif field == "composer":
            if not isinstance(value, Composer):
                missing = [
                    m
                    for m in ("component_ids", "template_context", "compose")
                    if not callable(getattr(value, m, None))
                ]
                out.append(f"{shown}: not a Composer (missing {', '.join(missing)})")
        elif field == "tunables":
            if not isinstance(value, Sequence) or not all(isinstance(t, Tunable) for t in value):
                out.append(f"{shown}: expected a sequence of generator.engine.tunables.Tunable")
        elif field == "slots":
            out += _slot_problems(shown, value, resolved.get("composer"), plugin.component_ids_for is None)
        elif not callable(value):
            out.append(f"{shown}: expected a function; got {type(value).__name__}")
        elif not _accepts(value, *_CALLS[field]):
            out.append(f"{shown}: its signature {inspect.signature(value)} cannot take pnpkit's call")
    return resolved, out


def _slot_problems(shown: str, slots: Any, composer: Any, fixed_ids: bool) -> list[str]:
    """A slots mapping must map component ids the composer draws to sequences of Slot."""
    if not isinstance(slots, Mapping) or not all(
        isinstance(v, Sequence) and all(isinstance(s, Slot) for s in v) for v in slots.values()
    ):
        return [f"{shown}: expected a mapping of component id -> sequence of generator.layout.art.Slot"]
    known = set(composer.component_ids()) if fixed_ids and isinstance(composer, Composer) else None
    if known is not None and set(slots) - known:
        return [
            f"{shown}: slots for components the composer does not draw: "
            f"{', '.join(sorted(set(slots) - known))}"
        ]
    return []


def _play(new_game: Callable[[Any, int], Any], spec: Any, players: int, seed: int) -> list[str]:
    """One seeded game with uniformly random legal moves, checked against the Game protocol."""
    game = new_game(spec, players)
    if not is_game(game) or game.players != players:
        return [f"new_game(spec, {players}) is not a Game of {players} players (generator/engine/game.py)"]
    state = game.new_state(np.random.default_rng(seed))
    chooser = np.random.default_rng(seed + 1)
    for _ in range(MAX_STEPS):
        seat = game.to_move(state)
        if seat is None:
            break
        if not 0 <= seat < players:
            return [f"{players} players: to_move gave seat {seat}"]
        legal = list(game.legal_actions(state))
        if not legal:
            return [f"{players} players: seat {seat} is to move but has no legal action"]
        state = game.apply(state, legal[int(chooser.integers(len(legal)))])
    else:
        return [f"{players} players: no end after {MAX_STEPS} random legal moves"]
    out = game.outcome(state)
    if len(out.scores) != players or not set(out.winners) <= set(range(players)):
        return [
            f"{players} players: the outcome has {len(out.scores)} scores and winners {list(out.winners)}"
        ]
    return []


def _kit_problems(plugin: GamePlugin, resolved: Mapping[str, Any], kit: Path | str) -> list[str]:
    """The game played through a kit of it: the kit loads and is of this game; then `_spec_problems`."""
    from generator.contract.load import load_kit

    try:
        loaded = load_kit(kit)
    except (SpecError, KitError) as e:
        return [f"{kit}: does not load: {e}"]
    if loaded.game_id != plugin.id:
        return [f"{kit}: game.kind is {loaded.game_id!r}, not {plugin.id!r}"]
    if "spec" in resolved and type(loaded.section) is not resolved["spec"]:
        return [f"the game section is a {type(loaded.section).__name__}, not the record's spec"]
    return _spec_problems(plugin, resolved, loaded.game)


def _spec_problems(plugin: GamePlugin, resolved: Mapping[str, Any], spec: Any) -> list[str]:
    """The game the hooks receive (a validated game section, or what the record's `with_files` loaded for
    one): states its player counts, plays each, transcribes the same twice."""
    bare = plugin.with_files is None  # with it, the hooks receive the loaded game, not the section
    if bare and "spec" in resolved and type(spec) is not resolved["spec"]:
        return [f"the game section is a {type(spec).__name__}, not the record's spec"]
    if not bare and "spec" in resolved and type(spec) is resolved["spec"]:
        return [
            f"the game is a bare {type(spec).__name__} section: the record has with_files, so its hooks "
            "receive what with_files loaded for it"
        ]
    seats = list(resolved["players"](spec)) if "players" in resolved else [1]
    if not seats or seats != sorted(set(seats)) or seats[0] < 1:
        return [f"players(spec) = {seats}: expected distinct counts >= 1, ascending"]
    out = (
        [
            f"legal_problems(spec) = {p!r}: expected (key, message) pairs"
            for p in resolved["legal_problems"](spec)
            if not (isinstance(p, tuple) and len(p) == 2)
        ]
        if "legal_problems" in resolved
        else []
    )
    if "new_game" in resolved:
        for n in seats:
            out += _play(resolved["new_game"], spec, n, seed=n)
        for n in sorted({0, seats[-1] + 1} - set(seats)):
            try:
                resolved["new_game"](spec, n)
            except RuleViolation:
                continue
            out.append(f"new_game(spec, {n}) was accepted, but players(spec) = {seats}")
    if "transcript" in resolved:
        a, b = (resolved["transcript"](spec, 7, seats[0]) for _ in range(2))
        if not isinstance(a, str) or a != b:
            out.append("transcript(spec, 7, players) is not the same text twice")
    return out


def api_problems(plugin: Any, kit: Path | str | None = None, *, spec: Any = None) -> list[str]:
    """Everything that keeps `plugin` from conforming to the game contract (empty when it conforms); with a
    `kit` folder of the game (or the game its hooks receive, `spec`: a validated game section, or for a
    record with `with_files` what that hook loaded), its rules are played as well."""
    if not isinstance(plugin, GamePlugin):
        return [f"expected a generator.contract.GamePlugin; got {type(plugin).__name__}"]
    out = list(plugin.problems())
    if out:
        return out
    resolved, out = _ref_problems(plugin)
    if kit is not None and not out:
        out += _kit_problems(plugin, resolved, kit)
    elif spec is not None and not out:
        out += _spec_problems(plugin, resolved, spec)
    return out


def api_test(plugin: Any, kit: Path | str | None = None, *, spec: Any = None) -> None:
    """Assert that `plugin` conforms to the game contract (see `api_problems`); the AssertionError lists every
    problem."""
    problems = api_problems(plugin, kit, spec=spec)
    name = getattr(plugin, "id", "?")
    assert not problems, f"game {name!r} does not conform to the contract:\n  " + "\n  ".join(problems)


__all__ = ["MAX_STEPS", "api_problems", "api_test"]
