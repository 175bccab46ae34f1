"""What the printed Raindrops kit takes from the rules: everything generated once per build (bag, bonus,
cloud and thunder tokens, memory cards) and every rule figure the rules card, boards and templates print
(`rule_figures`), computed here from the spec by the rules so the layout never restates a rule."""

from __future__ import annotations

from typing import Any

from generator.games.raindrops.components import (
    build_bag,
    build_bonus_tiles,
    build_cloud_tokens,
    build_thunder_tokens,
)
from generator.games.raindrops.memory import generate_memory_cards
from generator.games.raindrops.state import MARKER_START, SPECIALS, Params


def rule_figures(game_spec: Any) -> dict[str, Any]:
    """Every number (and the special-action slot order) the printed kit shows, from the rules' own reading of
    the spec (`Params`, the built components, `SPECIALS`, `MARKER_START`)."""
    p = Params.from_spec(game_spec)
    players = list(game_spec.rules.players)
    thunder = build_thunder_tokens(game_spec)
    return {
        "players_min": min(players),
        "players_max": max(players),
        "cards_dealt": p.cards_dealt,
        "cards_kept": p.cards_kept,
        "cards_display": p.cards_dealt - p.cards_kept,
        "display": p.display,
        "reserve_slots": p.reserve_slots,
        "bonus_max_tiles": p.bonus_max_tiles,
        "end_cards": p.end_cards,
        "end_bag_empties": p.end_bag_empties,
        "thunder_one": p.thunder_draw[0],
        "thunder_two": p.thunder_draw[-1],
        "thunder_values": sorted({t.value for t in thunder}),
        "columns": p.columns,
        "tiles_per_column": p.tiles_per_column,
        "tiles": len(build_bag(game_spec)),
        "bonus_tiles": len(build_bonus_tiles(game_spec)),
        "bonus_offer": p.bonus_offer,
        "cloud_tokens": len(build_cloud_tokens(game_spec)),
        "thunder_tokens": len(thunder),
        "memory_cards": game_spec.memory_cards.count,
        "cat_bonus": game_spec.memory_cards.points.cat_bonus,
        "path_markers": game_spec.path_markers,
        "special_slots": list(SPECIALS),
        "action_start_slot": MARKER_START
        + 1,  # slots are printed 1, 2, 3 from the left; MARKER_START counts from 0
    }


def print_data(game_spec: Any, seed: int) -> dict[str, object]:
    """Everything the printed kit draws, generated once per build: bag, bonus/cloud/thunder tokens, memory
    cards, and the rule figures (`rule_figures`).

    The memory cards come from the spec's own `seed` (the deck is part of the game design, not of one print
    run)."""
    return {
        "bag": build_bag(game_spec),
        "bonus_tiles": build_bonus_tiles(game_spec),
        "cloud_tokens": build_cloud_tokens(game_spec),
        "thunder_tokens": build_thunder_tokens(game_spec),
        "memory_cards": generate_memory_cards(game_spec, game_spec.seed),
        "figures": rule_figures(game_spec),
    }
