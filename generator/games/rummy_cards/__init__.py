"""Rummy Cards (seed 004): melds, rules, the exact meld finder, self-play and balance."""

from generator.games.rummy_cards.checks import GAME_ID, balance_report, legal_problems, transcript
from generator.games.rummy_cards.players import POLICIES, MeldFinder, Play, RandomLegal, find_best_play
from generator.games.rummy_cards.rules import (RULESET_VERSION, Deck, Draw, Game, Lay, Meld, Outcome, State,
                                                deck_from_spec, hand_total, is_valid_meld, meld_roles,
                                                meld_value, read_meld, score_exhausted, score_out)
from generator.games.rummy_cards.sim import (MatchResult, RummySimulation, match_from_scores, play_match, play_round,
                                            simulation_from_spec)
from generator.games.rummy_cards.solver import decode, solve_counts

__all__ = ["GAME_ID", "RULESET_VERSION", "legal_problems", "balance_report", "transcript", "Deck", "Draw",
           "Game", "Lay", "Meld", "Outcome", "State", "deck_from_spec", "hand_total", "is_valid_meld",
           "meld_roles", "meld_value", "read_meld", "score_exhausted", "score_out", "POLICIES", "MeldFinder",
           "RandomLegal", "Play", "find_best_play", "RummySimulation", "play_round", "simulation_from_spec",
           "decode", "solve_counts", "MatchResult", "match_from_scores", "play_match"]
