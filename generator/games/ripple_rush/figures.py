"""What the printed Ripple Rush kit takes from the rules: every rule figure the printed pieces show (the deck,
its size, the cards dealt per player count, the goal cards and the most goal points), computed here by the
reference rules so the composer never restates a rule, and the generated sheet variants."""

from __future__ import annotations

from typing import Any

from generator.games.ripple_rush.rules import Game
from generator.games.ripple_rush.spec import RippleRushGame


def rule_figures(spec: RippleRushGame) -> dict[str, Any]:
    """The figures the rules summary, the cards and the sheet print, as plain data (lists, ints)."""
    games = {p: Game.from_spec(spec, p) for p in range(spec.players.min, spec.players.max + 1)}
    game = games[spec.players.min]
    deck = [[card.suit, card.number] for card in game.full_deck()]
    return {
        "deck": deck,  # [suit index, number] of every number card in the box, in print order
        "deck_total": len(deck),
        "deck_sizes": [[p, g.deck_size] for p, g in games.items()],  # [players, cards dealt] per player count
        "rounds": game.rounds,
        "goal_cards": game.rows,  # one goal card per sheet row
        "goal_max": game.goal_max(),
    }


def print_data(spec: RippleRushGame, seed: int) -> dict[str, Any]:
    """What the printed kit needs from the rules: the rule figures, and the accepted sheet variants (none
    unless asked)."""
    out: dict[str, Any] = {"figures": rule_figures(spec), "variants": []}
    if spec.variants.count > 0:
        from generator.games.ripple_rush.variants import (
            generate_variants,  # self-play: only when variants are asked
        )

        out["variants"] = [v for v in generate_variants(spec, seed) if v.accepted][: spec.variants.count]
    return out
