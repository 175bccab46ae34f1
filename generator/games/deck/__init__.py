"""The `deck` game kind: kits made only of data rows (CSV, .xlsx, inline YAML) and declarative face templates,
no Python in the kit (docs/deck-kind.md). This package holds only its plugin record.

Its `with_files` hook (files.py) reads the rows and art a kit names when the kit loads and returns a
`LoadedDeck` (loaded.py): that record, not the bare `game:` section, is what the other hooks receive."""

from generator.contract.plugin import GamePlugin

GAME = GamePlugin(
    id="deck",
    name="Deck (data kit)",
    ruleset="1.0",
    package=__name__,
    spec=".spec:DeckGame",
    players=".loaded:players",
    component_ids_for=".layout:component_ids_for",
    with_files=".files:load_files",
)

__all__ = ["GAME"]
