"""A readable seeded deal: the shuffled deck's top cards as each seat takes them (a deck has no turns)."""

from __future__ import annotations

import numpy as np

from generator.games.deck import GAME
from generator.games.deck.loaded import LoadedDeck
from generator.games.deck.rules import DRAW, Deal


def transcript(deck: LoadedDeck, seed: int, players: int) -> str:
    """Deal one hand per seat from `seed` and list every card taken."""
    spec = deck.spec
    game = Deal(deck, players)
    state = game.new_state(np.random.default_rng(seed))
    if spec.deal is None:
        return f"Deck deal: none (a kit of sheets only), seed {seed}, ruleset {GAME.ruleset}\n"
    lines = [
        f"Deck deal: {players} players, {spec.deal.hand} cards each from {spec.deal.component} "
        f"({len(game.cards)} cards), seed {seed}, ruleset {GAME.ruleset}"
    ]
    while (seat := game.to_move(state)) is not None:
        card = game.cards[state.order[state.dealt]]
        state = game.apply(state, DRAW)
        lines.append(f"  player {seat + 1} draws {card.get('id')}")
    for s, hand in enumerate(state.hands):
        lines.append(f"player {s + 1} holds: {', '.join(str(game.cards[i].get('id')) for i in hand)}")
    return "\n".join(lines) + "\n"
