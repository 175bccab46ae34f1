"""Every rule figure the printed Rummy Cards kit shows, computed from the spec by the rules (the deck the
rules deal from, the meld minimum, the initial meld, the joker penalty, the deal, the player counts, the match
length), so the composer restates no rule: it reads them from `print_data(spec, seed)["figures"]`.

Light: the spec and the reference rules only (no numba, no solver)."""

from __future__ import annotations

from typing import Any

from generator.games.rummy_cards.rules import MELD_MIN, deck_from_spec
from generator.games.rummy_cards.spec import RummyCardsGame


def rule_figures(spec: RummyCardsGame) -> dict[str, int]:
    """The printed rule figures of a validated spec, by the name the rule templates use."""
    deck = deck_from_spec(spec)
    return {
        "colours": len(deck.colours),
        "number_min": deck.num_min,
        "number_max": deck.num_max,
        "copies": deck.copies,
        "jokers": deck.jokers,
        "number_cards": deck.n_kinds * deck.copies,
        "total_cards": deck.size,
        "hand_size": spec.hand_size,
        "initial_meld": spec.initial_meld,
        "joker_penalty": spec.joker_penalty,
        "players_min": spec.players.min,
        "players_max": spec.players.max,
        "match_rounds": spec.rules.rounds,
        "meld_min": MELD_MIN,
    }


def print_data(spec: RummyCardsGame, seed: int) -> dict[str, Any]:
    """What the printed kit takes from the rules (nothing random: `seed` is the protocol's)."""
    return {"figures": rule_figures(spec)}


__all__ = ["print_data", "rule_figures"]
