"""The digest's default values for the `game:` section (same as the shipped kit.yaml)."""

SPEC = {
    "kind": "rummy_cards",
    "colours": [
        {"id": "yellow", "colour": "#e8b400", "symbol": "sun"},
        {"id": "blue", "colour": "#1f5fbf", "symbol": "drop"},
        {"id": "black", "colour": "#222222", "symbol": "moon"},
        {"id": "red", "colour": "#c8102e", "symbol": "heart"},
    ],
    "numbers": {"min": 1, "max": 13},
    "copies": 2,
    "jokers": 2,
    "total_cards": 106,
    "hand_size": 14,
    "initial_meld": 40,
    "joker_penalty": 25,
    "players": {"min": 2, "max": 4},
    "score_pad": {"players": 4, "rounds": 12},
    "rules": {"draw": "only_when_unable", "opening_turn": "own_melds_only", "exhausted_winner": "fewest_cards", "exhausted_tie": "share", "rounds": 12},
    "balance": {
        "games": 2000,
        "meld_thresholds": [30, 40],
        "turns_to_initial_meld": {"min": 3, "max": 7},
        "seat_win_share": {"min": 0.85, "max": 1.15},
        "round_length": {"min": 30, "max": 100},
        "exhausted_share": {"max": 0.1},
        "winner_margin": {"min": 15, "max": 150},
        "max_turns": 400,
    },
}
