"""The game contract, in one room: what pnpkit asks of a game and where it finds one.

- `plugin`: the record a game registers (`GamePlugin`, facts and `"module:attr"` strings, every optional hook
  a declared field) and the one lazy loader that resolves its strings (`plugin.load`);
- `registry`: the built-in games and the entry points of the group "pnpkit.games";
- `types`: the protocols and types a game implements or returns (Game, Outcome, Composer, Context, Component,
  BalanceReport, Tunable, Slot), re-exported from the rooms that use them;
- `load`: the load phase's door to the games (a kit's `game:` section validated through the contract);
- `compose`: a kit's composer, template context and art slots; `schema`: the JSON Schema of kit.yaml;
- `api_test`: the conformance test a game's author runs on a record (`api_test(GAME, kit_folder)`).

Importing this package, the registry or a plugin record imports nothing heavy: a game's modules load when a
string is first resolved."""

from generator.contract.plugin import BalanceReporter, GamePlugin, NewGame, Refit, WithFiles, resolve
from generator.contract.registry import BUILTIN, ENTRY_POINT_GROUP, game_ids, games, get

__all__ = [
    "BUILTIN",
    "ENTRY_POINT_GROUP",
    "BalanceReporter",
    "GamePlugin",
    "NewGame",
    "Refit",
    "WithFiles",
    "game_ids",
    "games",
    "get",
    "resolve",
]
