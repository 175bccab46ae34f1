"""The games pnpkit knows: the built-ins under `generator/games/<id>/` and any third-party game registered by
an entry point in the group "pnpkit.games" (its value names a `GamePlugin`).

A plugin record holds small loader functions, each importing its module when first called, so looking a game
up, listing the games or reading a kit's `game.kind` imports nothing heavy: a game's rules, kernels (numba)
and composer load when first asked for. Every loader is typed (`NewGame` returns a `Game` of
`generator/engine/game.py`, `composer` a `Composer`, ...), so mypy --strict checks each game against the
contract where its record is written. This module is ground floor: every room may read it; at run time it
imports nothing of pnpkit but `errors` (the types it names are imported for the type checker only)."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Protocol

from generator.errors import KitError

if TYPE_CHECKING:  # types only: importing them at run time would load the rooms a lookup must not pay for
    from pydantic import BaseModel

    from generator.engine.game import Game
    from generator.engine.report import BalanceReport
    from generator.engine.tunables import Tunable
    from generator.layout.compose import Composer

ENTRY_POINT_GROUP = "pnpkit.games"
BUILTIN = ("ripple_rush", "peak_dice", "raindrops", "rummy_cards", "deck")
"""The games shipped inside pnpkit, in the order listings show them."""

_ID = re.compile(r"[a-z][a-z0-9_]{0,39}")
LOADERS = ("spec", "composer", "legal_problems", "balance_report", "transcript", "new_game", "players",
           "print_data")
"""The loader fields every plugin fills (`refit` is optional)."""


class NewGame(Protocol):
    """`new_game(spec, players)`: the reference rules of a validated game section for `players` seats."""

    def __call__(self, spec: Any, players: int, /) -> Game[Any, Any]:
        """The rules behind the one Game protocol; RuleViolation for a player count the spec refuses."""
        ...


class BalanceReporter(Protocol):
    """`balance_report(spec, *, games, seed, executor, progress, kit)`: seeded self-play judged by the spec."""

    def __call__(self, spec: Any, /, *, games: Any, seed: int, executor: Any = None,
                 progress: Callable[..., None] | None = None, kit: str = "") -> BalanceReport:
        """The report of every tolerance; `games` is a count or a budget (engine/sequential.py)."""
        ...


@dataclass(frozen=True)
class Refit:
    """A spec edit a check proposes: the key path in kit.yaml, its new value and a line for the user."""

    path: tuple[str, ...]
    value: Any
    summary: str


def no_print_data(spec: Any, seed: int) -> Mapping[str, Any]:
    """The print data of a game whose printed pieces need no generated data: none."""
    return {}


def _no_print_data() -> Callable[[Any, int], Mapping[str, Any]]:
    return no_print_data


@dataclass(frozen=True)
class GamePlugin:
    """What pnpkit needs to know of a game: facts, and loaders that import the game's modules when called.

    A loader is a module-level function of the game's `__init__.py` that imports what it returns (a function,
    a class or the composer module) and nothing else, so that the record itself is cheap to import."""

    id: str
    """The `game.kind` of kit.yaml, folder-safe (e.g. "ripple_rush")."""
    ruleset: str
    """The ruleset version: bump it when a rule change moves play (goldens and balance move with it)."""
    spec: Callable[[], type[BaseModel]]
    """The pydantic model of the kit's `game:` section."""
    composer: Callable[[], Composer]
    """The composer: `component_ids()`, `template_context(spec, extras)`, `compose(ctx)` (its layout module)."""
    legal_problems: Callable[[], Callable[[Any], Sequence[tuple[str, str]]]]
    """`legal_problems(spec) -> [(dotted key under game, message)]`: static legality."""
    balance_report: Callable[[], BalanceReporter]
    """`balance_report(spec, *, games, seed, executor, progress, kit) -> BalanceReport`: seeded self-play."""
    transcript: Callable[[], Callable[[Any, int, int], str]]
    """`transcript(spec, seed, players) -> str`: one seeded game, step by step, as text."""
    new_game: Callable[[], NewGame]
    """`new_game(spec, players) -> Game`: the reference rules behind the one protocol."""
    players: Callable[[Any], Sequence[int]]
    """`players(spec) -> player counts`: every seat count a validated game section plays, ascending (exactly the
    counts `new_game` accepts for it). A fact read off the spec, not a loader: it imports nothing."""
    print_data: Callable[[], Callable[[Any, int], Mapping[str, Any]]] = _no_print_data
    """`print_data(spec, seed) -> dict`: generated data the printed pieces need (decks, variants, rule figures);
    the build passes it to the composer as `ctx.extras`. Default: none."""
    refit: Callable[[], Callable[[BalanceReport], Refit | None]] | None = None
    """`refit(report) -> Refit | None`: a spec edit proposed from a check's play (`check --refit`); optional."""
    name: str = ""
    """The game's name for people (defaults to the id)."""
    tunables: Callable[[], Sequence[Tunable]] | None = None
    """What `pnpkit tune` may change in a kit (a sequence of `generator.engine.tunables.Tunable`); optional."""

    def problems(self) -> list[str]:
        """What is wrong with this plugin's own fields (checked when it is registered)."""
        out = []
        if not _ID.fullmatch(self.id):
            out.append(f"id {self.id!r} is not folder-safe (a-z, 0-9, _; at most 40 characters)")
        for f in (*LOADERS, "refit", "tunables"):
            loader = getattr(self, f)
            if not callable(loader) and not (loader is None and f in ("refit", "tunables")):
                out.append(f"{f} = {loader!r} is not a loader (a function returning what it names)")
        return out

    @property
    def source(self) -> str:
        """The module that holds this record's loaders (its package, for a third-party game)."""
        return str(getattr(self.spec, "__module__", "?"))


@lru_cache(maxsize=1)
def games() -> dict[str, GamePlugin]:
    """Every registered game by id: the built-ins first, then entry points sorted by name."""
    found: dict[str, GamePlugin] = {}
    for gid in BUILTIN:
        found[gid] = _checked(importlib.import_module(f"generator.games.{gid}").GAME, f"generator.games.{gid}")
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        where = f"entry point {ep.name!r} ({ep.value}) in group {ENTRY_POINT_GROUP!r}"
        try:
            plugin = ep.load()
        except Exception as e:  # a broken third-party package must not take pnpkit down: name it
            raise KitError(f"{where}: cannot be loaded ({type(e).__name__}: {e})") from None
        plugin = _checked(plugin, where)
        if plugin.id in found:
            raise KitError(f"{where}: game id {plugin.id!r} is already registered")
        found[plugin.id] = plugin
    return found


def _checked(plugin: Any, where: str) -> GamePlugin:
    """The plugin, or a KitError naming where it came from and what is wrong."""
    if not isinstance(plugin, GamePlugin):
        raise KitError(f"{where}: expected a generator.games.registry.GamePlugin; got {type(plugin).__name__}")
    bad = plugin.problems()
    if bad:
        raise KitError(f"{where}: " + "; ".join(bad))
    return plugin


def game_ids() -> list[str]:
    """The ids of every registered game."""
    return list(games())


def get(game_id: str) -> GamePlugin:
    """The plugin of a game id; a KitError listing the known ids otherwise."""
    found = games()
    if game_id not in found:
        raise KitError(f"unknown game {game_id!r}; expected one of {', '.join(found)}")
    return found[game_id]


__all__ = ["BUILTIN", "ENTRY_POINT_GROUP", "LOADERS", "BalanceReporter", "GamePlugin", "NewGame", "Refit",
           "game_ids", "games", "get", "no_print_data"]
