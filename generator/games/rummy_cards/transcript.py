"""A readable seeded round of meld finders through the reference rules, card for card (the golden
playthrough)."""

from __future__ import annotations

import numpy as np

from generator.games.rummy_cards import GAME
from generator.games.rummy_cards.policies import MeldFinder
from generator.games.rummy_cards.rules import RULESET_VERSION, Draw, Game
from generator.games.rummy_cards.spec import RummyCardsGame


def transcript(spec: RummyCardsGame, seed: int, players: int) -> str:
    """A readable seeded round of meld finders (the reference rules, card for card)."""
    game = Game(spec, players)
    d = game.deck
    rng = np.random.default_rng(seed)
    state = game.new_round(rng)
    pol = MeldFinder()
    lines = [f"Rummy Cards {GAME.id} ruleset {RULESET_VERSION} seed {seed} players {players}"]
    for p, h in enumerate(state.hands):
        lines.append(f"deal p{p}: {' '.join(d.name(c) for c in h)}")
    while not game.is_over(state):
        a = pol.choose(game, state, rng)
        p = state.current
        before = set(state.hands[p])
        state2 = game.apply(state, a)
        if isinstance(a, Draw):
            got = set(state2.hands[p]) - before
            what = f"draws {d.name(next(iter(got)))}" if got else "passes (pile empty)"
            lines.append(f"t{state.turn + 1} p{p} {what}; hand {len(state2.hands[p])}")
        else:
            laid = before - set(state2.hands[p])
            lines.append(
                f"t{state.turn + 1} p{p} lays {' '.join(d.name(c) for c in sorted(laid))}; hand "
                f"{len(state2.hands[p])}"
            )
            lines.append("  table: " + " | ".join(" ".join(d.name(c) for c in m.cards) for m in state2.table))
        state = state2
    o = game.outcome(state)
    lines.append(
        f"end: {o.reason}; hand totals {list(o.hand_totals)}; scores {list(o.scores)}; "
        f"winner {' '.join(f'p{w}' for w in o.winners)}"
        + (f" (tie-break: {o.tie_break})" if o.tie_break else "")
    )
    return "\n".join(lines) + "\n"


__all__ = ["transcript"]
