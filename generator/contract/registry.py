"""The games pnpkit knows: the built-ins under `generator/games/<id>/` and any third-party game registered by
an entry point in the group "pnpkit.games" (its value names a `GamePlugin`). At run time this module imports
nothing of pnpkit but `errors` and the plugin record: a game's modules load when `plugin.load` asks for
them."""

from __future__ import annotations

import importlib
from functools import lru_cache
from importlib.metadata import entry_points
from typing import Any

from generator.contract.plugin import GamePlugin
from generator.errors import KitError

ENTRY_POINT_GROUP = "pnpkit.games"
BUILTIN = ("ripple_rush", "peak_dice", "raindrops", "rummy_cards", "deck")
"""The games shipped inside pnpkit, in the order listings show them."""


@lru_cache(maxsize=1)
def games() -> dict[str, GamePlugin]:
    """Every registered game by id: the built-ins first, then entry points sorted by name."""
    found: dict[str, GamePlugin] = {}
    for gid in BUILTIN:
        found[gid] = _checked(
            importlib.import_module(f"generator.games.{gid}").GAME, f"generator.games.{gid}"
        )
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
        raise KitError(f"{where}: expected a generator.contract.GamePlugin; got {type(plugin).__name__}")
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


__all__ = ["BUILTIN", "ENTRY_POINT_GROUP", "game_ids", "games", "get"]
