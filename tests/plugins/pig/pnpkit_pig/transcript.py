"""A readable seeded playthrough of the reference rules, every seat holding at `balance.hold_at`."""

from __future__ import annotations

import numpy as np

from pnpkit_pig import GAME
from pnpkit_pig.balance import hold_at
from pnpkit_pig.rules import ROLL, Pig
from pnpkit_pig.spec import PigGame


def transcript(spec: PigGame, seed: int, players: int) -> str:
    """Play one game from `seed` and describe every roll and hold."""
    game = Pig(spec, players)
    state = game.new_state(np.random.default_rng(seed))
    lines = [
        (
            f"Pig playthrough: {players} players, hold at {spec.balance.hold_at}, seed {seed}, "
            f"ruleset {GAME.ruleset}"
        ),
        f"d{spec.die_sides}, bust on {spec.bust_face}, first to {spec.target} wins",
    ]
    while (seat := game.to_move(state)) is not None:
        if state.turn_total == 0:
            lines.append(f"turn {state.turn + 1}: player {seat + 1} (score {state.scores[seat]})")
        action = hold_at(game, state, spec.balance.hold_at)
        after = game.apply(state, action)
        if action == ROLL and after.turn == state.turn:
            lines.append(f"  rolls {after.last_roll}: turn total {after.turn_total}")
        elif action == ROLL:
            lines.append(f"  rolls {after.last_roll}: bust, {state.turn_total} lost")
        else:
            lines.append(f"  holds: banks {state.turn_total}, score {after.scores[seat]}")
        state = after
    out = game.outcome(state)
    lines.append(
        f"end after {out.turns} turns: scores {', '.join(map(str, out.scores))}; "
        f"winners: {', '.join(str(w + 1) for w in out.winners)}"
    )
    return "\n".join(lines) + "\n"
