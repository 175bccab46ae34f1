"""The `deck` game kind: kits made only of data rows (CSV, .xlsx, inline YAML) and declarative face templates,
no Python in the kit (docs/deck-kind.md). Strings only here: nothing heavy is imported until used."""

from __future__ import annotations

from generator.games.registry import GamePlugin

GAME = GamePlugin(
    id="deck",
    name="Deck (data kit)",
    ruleset="1.0",
    spec="generator.games.deck.spec:DeckGame",
    layout="generator.games.deck.layout",
    legal="generator.games.deck.legal:legal_problems",
    balance="generator.games.deck.balance:balance_report",
    transcript="generator.games.deck.transcript:transcript",
    play="generator.games.deck.rules:new_game",
)

__all__ = ["GAME"]
