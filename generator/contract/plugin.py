"""The plugin record of a game (`GamePlugin`) and the one lazy loader that turns its `"module:attr"` strings
into the objects they name.

A record is facts and strings: `spec="my_game.spec:MyGame"` names the pydantic model of
a kit's `game:` section without importing it, so looking a game up, listing the games or reading a kit's
`game.kind` imports nothing heavy. `plugin.load` resolves a string when first asked for and returns it typed
as the contract says (a `Composer`, a `NewGame`, ...); `generator.contract.api_test` checks every string of a
record against its protocol. At run time this module imports nothing of pnpkit but `errors`."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from generator.errors import KitError

if TYPE_CHECKING:  # types only: importing them at run time would load the rooms a lookup must not pay for
    from pydantic import BaseModel

    from generator.engine.game import Game
    from generator.engine.report import BalanceReport
    from generator.engine.tunables import Tunable
    from generator.layout.art import Slots
    from generator.layout.compose import Composer

_ID = re.compile(r"[a-z][a-z0-9_]{0,39}")
_REF = re.compile(r"[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*(:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*)?")
REFS = ("spec", "players", "composer", "legal_problems", "balance_report", "transcript", "new_game")
"""The `"module:attr"` fields every plugin has (all but `spec` default to the file names of the convention in
docs/game-contract.md, relative to the record's `package`)."""
OPTIONAL_REFS = ("print_data", "refit", "tunables", "slots", "component_ids_for", "with_files")
"""The `"module:attr"` fields a plugin may leave None (each hook's default is in `Loaders`)."""


class NewGame(Protocol):
    """`new_game(spec, players)`: the reference rules of a validated game section for `players` seats."""

    def __call__(self, spec: Any, players: int, /) -> Game[Any, Any]:
        """The rules behind the one Game protocol; RuleViolation for a player count the spec refuses."""
        ...


class BalanceReporter(Protocol):
    """`balance_report(spec, *, games, seed, executor, progress, kit)`: seeded self-play, spec-judged."""

    def __call__(
        self,
        spec: Any,
        /,
        *,
        games: Any,
        seed: int,
        executor: Any = None,
        progress: Callable[..., None] | None = None,
        kit: str = "",
    ) -> BalanceReport:
        """The report of every tolerance; `games` is a count or a budget (engine/sequential.py)."""
        ...


class WithFiles(Protocol):
    """`with_files(section, root, shown, key_line, display)`: the files of the kit folder a validated game
    section names, read in the load phase (confined and capped by the kit folder's door) and returned with the
    section as one record, the **loaded game** (a `deck` kit: its section, rows and art). Every other hook of
    the game then receives that record (`Kit.game`) instead of the bare section, which stays a model that only
    validates kit.yaml (`Kit.section`). The record must pickle (balance workers receive it whole and read no
    file) and should be immutable. SpecError with every problem."""

    def __call__(
        self,
        section: Any,
        root: Path,
        shown: Callable[[str], str],
        key_line: Callable[[str], int | None],
        display: str,
        /,
    ) -> Any:
        """The loaded game: the section and what was read for it."""
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


def resolve(ref: str) -> Any:
    """The object a `"module:attr"` string names (`"pkg.mod"` alone: the module; `attr` may be dotted, as in
    `"pkg.spec:Model.method"`), imported on this call; a KitError naming the string otherwise."""
    module, _, attr = ref.partition(":")
    try:
        found: Any = importlib.import_module(module)
    except ImportError as e:
        raise KitError(f"{ref!r}: cannot import {module!r} ({type(e).__name__}: {e})") from None
    for part in attr.split(".") if attr else ():
        if not hasattr(found, part):
            raise KitError(f"{ref!r}: {module!r} has no attribute {attr!r}")
        found = getattr(found, part)
    return found


@dataclass(frozen=True)
class GamePlugin:
    """What pnpkit needs to know of a game: facts, and `"module:attr"` strings naming the game's objects,
    which `plugin.load` imports when first asked for (never at lookup)."""

    id: str
    """The `game:` kind of kit.yaml, folder-safe (e.g. "my_game")."""
    ruleset: str
    """The ruleset version: bump it when a rule change moves play (goldens and balance move with it)."""
    spec: str
    """The pydantic model of the kit's `game:` section (`type[BaseModel]`), e.g. ".spec:MyGame"."""
    package: str = ""
    """The package a string starting with "." is resolved in (a record sets it to its `__name__`)."""
    name: str = ""
    """The game's name for people (defaults to the id)."""
    compile_seconds: float | None = None
    """About how long the first compile of the game's kernels takes on a 2-core machine
    (`bench/bench_compile.py`): what the first check's notice says before this machine has timed one."""
    players: str = ".spec:players"
    """`players(spec) -> player counts`: every seat count a validated game section plays, ascending (exactly
    the counts `new_game` accepts for it)."""
    composer: str = ".layout"
    """The composer (`generator.layout.compose.Composer`, usually the game's layout module)."""
    legal_problems: str = ".legal:legal_problems"
    """`legal_problems(spec) -> [(dotted key under game, message)]`: static legality."""
    balance_report: str = ".balance:balance_report"
    """A `BalanceReporter`: `balance_report(spec, *, games, seed, executor, progress, kit)` -> report."""
    transcript: str = ".transcript:transcript"
    """`transcript(spec, seed, players) -> str`: one seeded game, step by step, as text."""
    new_game: str = ".rules:new_game"
    """A `NewGame`: `new_game(spec, players) -> Game`, the reference rules behind the one protocol."""
    print_data: str | None = None
    """Optional `print_data(spec, seed) -> Mapping`: generated data the printed pieces need (decks, variants,
    rule figures); the build passes it to the composer as `ctx.extras`. Default: none."""
    refit: str | None = None
    """Optional `refit(report) -> Refit | None`: a spec edit proposed by a check's play (`check --refit`)."""
    tunables: str | None = None
    """Optional sequence of `generator.engine.tunables.Tunable`: what `pnpkit tune` may change in a kit."""
    slots: str | None = None
    """Optional `Slots` mapping (component id -> art slots) a kit may fill with its own art. Default: none."""
    component_ids_for: str | None = None
    """Optional `component_ids_for(spec) -> ids`: the components a kit's own spec names (a data kit); default:
    the composer's fixed `component_ids()`."""
    with_files: str | None = None
    """Optional `WithFiles`: reads the kit-folder files a validated section names, in the load phase, and
    returns the loaded game, what every other hook then receives as its `spec` (default: none; the hooks
    receive the validated section)."""

    def problems(self) -> list[str]:
        """What is wrong with this plugin's own fields (checked when it is registered)."""
        out = []
        if not (isinstance(self.id, str) and _ID.fullmatch(self.id)):
            out.append(f"id {self.id!r} is not folder-safe (a-z, 0-9, _; at most 40 characters)")
        wait = self.compile_seconds
        if wait is not None and (
            isinstance(wait, bool) or not (isinstance(wait, (int, float)) and 0 < wait <= 3600)
        ):
            out.append(f"compile_seconds = {wait!r} is not a number of seconds in 0..3600")
        for f in (*REFS, *OPTIONAL_REFS):
            ref = getattr(self, f)
            if ref is None and f in OPTIONAL_REFS:
                continue
            if not (isinstance(ref, str) and _REF.fullmatch(ref.removeprefix("."))):
                out.append(f"{f} = {ref!r} is not a 'module:attr' string")
            elif ref.startswith(".") and not (isinstance(self.package, str) and _REF.fullmatch(self.package)):
                out.append(f"{f} = {ref!r} is relative, but package = {self.package!r} names no package")
        return out

    def refs(self) -> dict[str, str]:
        """Every `"module:attr"` string the record fills, by field."""
        refs = {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name in (*REFS, *OPTIONAL_REFS) and getattr(self, f.name) is not None
        }
        return {f: self.package + ref if ref.startswith(".") else ref for f, ref in refs.items()}

    @property
    def source(self) -> str:
        """The package that holds this record's game (the module of its `spec`)."""
        return self.package or self.spec.partition(":")[0].rpartition(".")[0]

    @cached_property
    def load(self) -> Loaders:
        """The record's strings resolved on demand, each typed as the contract says."""
        return Loaders(self)


class Loaders:
    """The objects a `GamePlugin` names, each imported when first asked for, typed by the contract."""

    def __init__(self, plugin: GamePlugin) -> None:
        self._plugin = plugin

    def _get(self, field: str) -> Any:
        ref = self._plugin.refs()[field]
        try:
            return resolve(ref)
        except KitError as e:
            raise KitError(f"game {self._plugin.id!r}: {field} = {e}") from None

    def spec(self) -> type[BaseModel]:
        """The pydantic model of the kit's `game:` section."""
        return cast("type[BaseModel]", self._get("spec"))

    def players(self) -> Callable[[Any], Sequence[int]]:
        """`players(spec) -> player counts`, ascending."""
        return cast("Callable[[Any], Sequence[int]]", self._get("players"))

    def composer(self) -> Composer:
        """The game's composer."""
        return cast("Composer", self._get("composer"))

    def legal_problems(self) -> Callable[[Any], Sequence[tuple[str, str]]]:
        """`legal_problems(spec) -> [(dotted key under game, message)]`."""
        return cast("Callable[[Any], Sequence[tuple[str, str]]]", self._get("legal_problems"))

    def balance_report(self) -> BalanceReporter:
        """The seeded self-play judged by the spec's tolerances."""
        return cast("BalanceReporter", self._get("balance_report"))

    def transcript(self) -> Callable[[Any, int, int], str]:
        """`transcript(spec, seed, players) -> str`."""
        return cast("Callable[[Any, int, int], str]", self._get("transcript"))

    def new_game(self) -> NewGame:
        """`new_game(spec, players) -> Game`."""
        return cast("NewGame", self._get("new_game"))

    def print_data(self) -> Callable[[Any, int], Mapping[str, Any]]:
        """`print_data(spec, seed) -> Mapping` (none by default)."""
        if self._plugin.print_data is None:
            return no_print_data
        return cast("Callable[[Any, int], Mapping[str, Any]]", self._get("print_data"))

    def refit(self) -> Callable[[BalanceReport], Refit | None] | None:
        """`refit(report) -> Refit | None`, or None for a game that proposes no edits."""
        if self._plugin.refit is None:
            return None
        return cast("Callable[[BalanceReport], Refit | None]", self._get("refit"))

    def tunables(self) -> Sequence[Tunable]:
        """What `pnpkit tune` may change (none by default)."""
        if self._plugin.tunables is None:
            return ()
        return cast("Sequence[Tunable]", self._get("tunables"))

    def slots(self) -> Slots:
        """The art slots by component id (none by default)."""
        if self._plugin.slots is None:
            return {}
        return cast("Slots", self._get("slots"))

    def component_ids(self, spec: Any) -> tuple[str, ...]:
        """The components a kit with this game section may list: `component_ids_for(spec)` where the game
        names them from its spec, else the composer's `component_ids()`."""
        if self._plugin.component_ids_for is None:
            return tuple(self.composer().component_ids())
        by_spec = cast("Callable[[Any], Sequence[str]]", self._get("component_ids_for"))
        return tuple(by_spec(spec))

    def with_files(self) -> WithFiles | None:
        """The hook that reads a section's kit-folder files in the load phase, or None."""
        if self._plugin.with_files is None:
            return None
        return cast("WithFiles", self._get("with_files"))


__all__ = [
    "OPTIONAL_REFS",
    "REFS",
    "BalanceReporter",
    "GamePlugin",
    "Loaders",
    "NewGame",
    "Refit",
    "WithFiles",
    "no_print_data",
    "resolve",
]
