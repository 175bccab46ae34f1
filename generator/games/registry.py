"""The games pnpkit knows: the built-ins under `generator/games/<id>/` and any third-party game registered by
an entry point in the group "pnpkit.games" (its value names a `GamePlugin`).

A plugin is strings only ("module:attribute"), so looking a game up, listing the games or reading a kit's
`game.kind` imports nothing heavy: a game's rules, kernels (numba) and composer load when first asked for.
This module is ground floor: every room may read it, and it imports nothing of pnpkit but `errors`."""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any

from generator.errors import KitError

ENTRY_POINT_GROUP = "pnpkit.games"
BUILTIN = ("ripple_rush", "peak_dice", "raindrops", "rummy_cards")
"""The games shipped inside pnpkit, in the order listings show them."""

_ID = re.compile(r"[a-z][a-z0-9_]{0,39}")
_REF = re.compile(r"[A-Za-z_][\w.]*(:[A-Za-z_]\w*)?")


@dataclass(frozen=True)
class GamePlugin:
    """What pnpkit needs to know of a game, as import references (nothing is imported until used).

    References are "package.module:attribute" (or a bare module for `layout`)."""

    id: str
    """The `game.kind` of kit.yaml, folder-safe (e.g. "ripple_rush")."""
    ruleset: str
    """The ruleset version: bump it when a rule change moves play (goldens and balance move with it)."""
    spec: str
    """The pydantic model of the kit's `game:` section."""
    layout: str
    """The composer module: `component_ids()`, `template_context(spec, extras)`, `compose(ctx)`."""
    legal: str
    """`legal_problems(spec) -> list[(dotted key under game, message)]`: static legality."""
    balance: str
    """`balance_report(spec, *, games, seed, executor, progress, kit) -> BalanceReport`: seeded self-play."""
    transcript: str
    """`transcript(spec, seed, players) -> str`: a readable seeded playthrough."""
    play: str
    """`new_game(spec, players) -> generator.engine.game.Game`: the reference rules behind one protocol."""
    print_data: str | None = None
    """`print_data(spec, seed) -> dict`: generated data the printed pieces need (decks, variants); optional."""
    refit: str | None = None
    """`refit_edit(report) -> Refit | None`: a spec edit proposed from a check's play (`check --refit`)."""
    name: str = ""
    """The game's name for people (defaults to the id)."""
    tunables: str | None = None
    """A tuple of `generator.engine.tuning.Tunable`: what `pnpkit tune` may change in a kit; optional."""

    def load(self, field: str) -> Any:
        """The object a reference field names, imported now."""
        ref = getattr(self, field)
        if not isinstance(ref, str):
            raise KitError(f"game {self.id!r}: has no {field}")
        module, _, attr = ref.partition(":")
        try:
            obj: Any = importlib.import_module(module)
            return getattr(obj, attr) if attr else obj
        except (ImportError, AttributeError) as e:
            raise KitError(f"game {self.id!r}: {field} = {ref!r} cannot be loaded ({e})") from None

    def spec_model(self) -> Any:
        """The pydantic model class of the game section."""
        return self.load("spec")

    def composer(self) -> ModuleType:
        """The game's layout module."""
        mod = self.load("layout")
        assert isinstance(mod, ModuleType)
        return mod

    def legal_problems(self, spec: Any) -> list[tuple[str, str]]:
        """Static legality problems of a validated game section."""
        return list(self.load("legal")(spec))

    def balance_report(self, spec: Any, **kwargs: Any) -> Any:
        """Seeded self-play and the verdict of every tolerance (see the `balance` field)."""
        return self.load("balance")(spec, **kwargs)

    def playthrough(self, spec: Any, seed: int, players: int) -> str:
        """A seeded playthrough as text (the `transcript` reference)."""
        return str(self.load("transcript")(spec, seed, players))

    def new_game(self, spec: Any, players: int) -> Any:
        """The reference rules of this spec for `players` seats (a `generator.engine.game.Game`)."""
        return self.load("play")(spec, players)

    def printed_data(self, spec: Any, seed: int) -> dict[str, Any]:
        """Generated, language-independent data of the printed kit (the `print_data` reference; {} if none)."""
        return {} if self.print_data is None else dict(self.load("print_data")(spec, seed))

    def problems(self) -> list[str]:
        """What is wrong with this plugin's own fields (checked when it is registered)."""
        out = []
        if not _ID.fullmatch(self.id):
            out.append(f"id {self.id!r} is not folder-safe (a-z, 0-9, _; at most 40 characters)")
        for f in ("spec", "layout", "legal", "balance", "transcript", "play", "print_data", "refit", "tunables"):
            ref = getattr(self, f)
            if ref is None and f in ("print_data", "refit", "tunables"):
                continue
            if not isinstance(ref, str) or not _REF.fullmatch(ref):
                out.append(f"{f} = {ref!r} is not a 'module:attribute' reference")
        return out


@dataclass(frozen=True)
class Refit:
    """A spec edit a check proposes: the key path in kit.yaml, its new value and a line for the user."""

    path: tuple[str, ...]
    value: Any
    summary: str


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


__all__ = ["BUILTIN", "ENTRY_POINT_GROUP", "GamePlugin", "Refit", "game_ids", "games", "get"]
