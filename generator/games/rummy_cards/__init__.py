"""Rummy Cards (seed 004): melds, rules, the exact meld finder, self-play and balance.

The package itself holds only the plugin record (strings): names below are imported on first use (PEP 562),
so looking the game up, `pnpkit build` and `validate` do not load numba and the solver."""

from __future__ import annotations

from generator.games.lazy import lazy_getattr
from generator.games.registry import GamePlugin

GAME_ID = "rummy_cards"

GAME = GamePlugin(
    id="rummy_cards",
    name="Rummy Cards",
    ruleset="1.1.0",
    spec="generator.games.rummy_cards.spec:RummyCardsGame",
    layout="generator.games.rummy_cards.layout",
    legal="generator.games.rummy_cards.legal:legal_problems",
    balance="generator.games.rummy_cards.balance:balance_report",
    transcript="generator.games.rummy_cards.transcript:transcript",
    play="generator.games.rummy_cards.rules:new_game",
    print_data="generator.games.rummy_cards.figures:print_data",
    tunables="generator.games.rummy_cards.tunables:TUNABLES",
)
RULESET_VERSION = GAME.ruleset

_WHERE = {
    "balance_report": "balance", "win_credit": "balance", "legal_problems": "legal", "transcript": "transcript",
    "print_data": "figures", "rule_figures": "figures",
    "POLICIES": "policies", "MeldFinder": "policies", "Play": "policies", "RandomLegal": "policies", "find_best_play": "policies",
    "Deck": "rules", "Draw": "rules", "Game": "rules", "Lay": "rules", "Meld": "rules", "Outcome": "rules", "State": "rules", "deck_from_spec": "rules", "hand_total": "rules", "is_valid_meld": "rules", "meld_roles": "rules", "meld_value": "rules", "read_meld": "rules", "score_exhausted": "rules", "score_out": "rules", "new_game": "rules", "TurnGame": "rules", "formable_melds": "rules",
    "MatchResult": "sim", "RummySimulation": "sim", "match_from_scores": "sim", "play_match": "sim", "play_round": "sim", "simulation_from_spec": "sim",
    "decode": "solver", "solve_counts": "solver",
}

__all__ = ["GAME", "GAME_ID", "RULESET_VERSION", *_WHERE]

__getattr__ = lazy_getattr(__name__, _WHERE, globals())
