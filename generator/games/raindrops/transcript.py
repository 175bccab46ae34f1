"""A readable seeded Raindrops playthrough (greedy in every seat), for the golden transcript."""

from __future__ import annotations

from typing import Any

import numpy as np

from generator.games.raindrops.policies_greedy import GreedyPolicy
from generator.games.raindrops.rules import Raindrops


def play_transcript(game: Raindrops, seed: int, players: int) -> str:
    """Play one game from `seed` with the greedy policy in every seat and return its log and scores."""
    rng = np.random.default_rng(seed)
    st = game.new_state(players, rng, log=True)
    pol = GreedyPolicy(game, pure=True)
    while st.phase != "over":
        game.apply(st, pol.choose(game, st, rng))
    out = game.outcome(st)
    from generator.games.raindrops import GAME

    RULESET_VERSION = GAME.ruleset

    p = game.params
    wild = (
        "two_colours" if any(b.wild and len(b.colours) == 2 for b in game.bonus.values()) else "all_colours"
    )
    lines = [
        f"Raindrops playthrough (ruleset {RULESET_VERSION}): {players} players, seed {seed}, greedy in every "
        f"seat",
        (
            f"house rules: bag_empties {p.bag_empties}, window_refill {p.window_refill}, "
            f"final_last_turn_card "
            f"{p.final_last_turn_card}, final_clouds {p.final_clouds}, bonus_per_tile {p.bonus_per_tile}, "
            f"wild_bonus {wild}, bonus_refill {p.bonus_refill}"
        ),
        *(st.log or []),
    ]
    for i, s in enumerate(out.parts):
        lines.append(
            f"seat {i}: A {s.cards} + B {s.bonus} + C {s.clouds} + D {s.thunder} + E {s.incomplete} "
            f"= {s.total}"
        )
    lines.append(
        f"winners {list(out.winners)} (tie-break: {out.tie_break}; end: {out.trigger}; {out.turns} turns)"
    )
    return "\n".join(lines) + "\n"


def transcript(spec: Any, seed: int, players: int) -> str:
    """The playthrough for a validated RaindropsGame (memory cards generated from the spec's seed)."""
    from generator.games.raindrops.memory import generate_memory_cards

    return play_transcript(Raindrops.from_spec(spec, generate_memory_cards(spec, spec.seed)), seed, players)
