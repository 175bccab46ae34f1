"""Small data kits for the deck tests: a game section with inline rows, loaded like a kit's."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from generator.games.deck.files import load_files
from generator.games.deck.loaded import LoadedDeck
from generator.games.deck.spec import DeckGame
from tests.games.shipped import game_section

ROOT = Path(__file__).resolve().parents[3]
KIT = ROOT / "layouts" / "harvest_deck"


def deck(rows: list[dict[str, Any]], **extra: Any) -> LoadedDeck:
    """A deck section whose one card component `cards` holds `rows` inline (template: one text element)."""
    data: dict[str, Any] = {
        "kind": "deck",
        "decks": {"cards": {"data": rows, "fields": {"cost": "int"}, "template": "plain"}},
        "templates": {
            "plain": {
                "front": [
                    {"type": "text", "x": "0mm", "y": "0mm", "w": "100%", "h": "20%", "text": "{{ id }}"}
                ]
            }
        },
        "deal": {"component": "cards", "hand": 1, "players": {"min": 1, "max": 2}},
    }
    data.update(copy.deepcopy(extra))
    spec = DeckGame.model_validate(data)
    return load_files(spec, ROOT, str, lambda key: None, "kit.yaml")


def shipped(overrides: dict[str, Any] | None = None) -> LoadedDeck:
    """The shipped harvest_deck section (its CSV read from the kit folder), with dotted overrides."""
    data = game_section("harvest_deck", overrides)
    return load_files(
        DeckGame.model_validate(data),
        KIT,
        lambda rel: f"layouts/harvest_deck/{rel}",
        lambda key: None,
        "layouts/harvest_deck/kit.yaml",
    )


def load_example(folder: Path) -> LoadedDeck:
    """The game section of a kit folder (docs/examples/...), loaded as `pnpkit` loads it."""
    from generator.contract.load import load_kit

    game = load_kit(folder).game
    assert isinstance(game, LoadedDeck)
    return game
