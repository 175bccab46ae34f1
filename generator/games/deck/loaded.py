"""What the load phase read for a data kit (`game.kind: deck`): the validated `game:` section, each
component's typed rows and every art file its templates draw, in one frozen record. files.py (the plugin's
`with_files` hook) builds it through the kit folder's one door; it is the game every hook of the deck
receives (legal, balance, rules, transcript, composer). The section's models (spec.py) only validate
kit.yaml: they hold no file's content.

The record pickles (a balance worker gets it whole, and reads no file); its mappings are read-only."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from generator.errors import Problem
from generator.games.deck.spec import DeckGame
from generator.spec.assets import Asset
from generator.spec.tables import Table

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V]):
    """A read-only mapping that pickles (`types.MappingProxyType` does not), in the order it was given."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> None:
        self._items: dict[K, V] = dict(items)

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMap, (self._items,))


@dataclass(frozen=True)
class Rows:
    """One component's typed rows: the table they came from, and per row its fields (localized columns such as
    `name@ja` kept as they are)."""

    table: Table
    rows: tuple[dict[str, Any], ...]
    lines: tuple[int, ...]

    def problem(self, i: int, key: str, message: str) -> Problem:
        """A problem located at row i."""
        return self.table.problem(self.lines[i], key, message)


@dataclass(frozen=True)
class LoadedDeck:
    """A data kit's game as the load phase read it: what the deck's hooks receive."""

    spec: DeckGame
    """The validated `game:` section, as kit.yaml writes it."""
    rows: Mapping[str, Rows]
    """Every component's typed rows, by component id (the keys of `spec.decks`, in their order)."""
    assets: Mapping[str, Asset] = field(default_factory=FrozenMap)
    """Every file the templates' image and icon elements draw, by path as written, decoded."""

    def __post_init__(self) -> None:
        # whatever mappings the caller passes, the record keeps read-only copies of its own
        object.__setattr__(self, "rows", FrozenMap(self.rows))
        object.__setattr__(self, "assets", FrozenMap(self.assets))


def copies(row: Mapping[str, Any]) -> int:
    """How many copies of a data row the deck holds: its `count` (an empty cell or no such column: none)."""
    return int(row.get("count") or 0)


def players(deck: LoadedDeck) -> Sequence[int]:
    """The player counts of a data kit, ascending (the plugin record's `players`); a kit with no deal (sheets
    only) is played by one."""
    deal = deck.spec.deal
    if deal is None:
        return range(1, 2)
    return range(deal.players.min, deal.players.max + 1)


__all__ = ["FrozenMap", "LoadedDeck", "Rows", "copies", "players"]
