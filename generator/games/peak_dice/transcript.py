"""A readable seeded playthrough of the reference rules (the golden file of the game's tests)."""

from __future__ import annotations

import numpy as np

from generator.games.peak_dice.policies import POLICIES, play_reference
from generator.games.peak_dice.rules import RULESET_VERSION, Game, Pass, Reroll, Roll, State, Write
from generator.games.peak_dice.spec import PeakDiceGame


def _dice(game: Game, faces: tuple[int, ...]) -> str:
    parts = []
    for d, k in enumerate(faces):
        c, v = game.face(d, k)
        parts.append(f"{c} {v}")
    return ", ".join(parts)


def _sums(game: Game, faces: tuple[int, ...]) -> str:
    return " ".join(f"{game.colour_name(r)}={s}" for r, s in enumerate(game.sums(faces)))


def transcript(spec: PeakDiceGame, seed: int, players: int) -> str:
    """Play one seeded game with the spec's balance policy at every seat and describe every step."""
    game = Game(spec, players)
    policy = spec.balance.policy
    history = play_reference(game, [POLICIES[policy]] * players, np.random.default_rng(seed))
    lines = [
        f"Peak Dice playthrough: {players} players, policy {policy} at every seat, seed {seed}, "
        f"ruleset {RULESET_VERSION}",
        f"sheet: rows {', '.join(game.colour_name(r) for r in range(game.rows))}; {game.row_length} circles, "
        f"peak after {', '.join(str(p) for p in game.peaks)}; {spec.miss_boxes} miss boxes; "
        f"{spec.rerolls} re-roll(s)",
        "house rules: " + ", ".join(f"{k} {v}" for k, v in spec.rules.model_dump().items()),
    ]
    final: State | None = None
    for state, action in history:
        if isinstance(action, Roll):
            if state.phase == "roll":
                lines.append(f"turn {state.turn}: player {state.active + 1} is active")
            nxt = game.apply(state, action)
            verb = "rolls" if state.phase == "roll" else "re-rolls to"
            lines.append(f"  {verb}: {_dice(game, nxt.faces)} -> {_sums(game, nxt.faces)}")
        elif isinstance(action, Reroll):
            if action.dice:
                lines.append(f"  re-roll dice {', '.join(str(d + 1) for d in action.dice)}")
        elif isinstance(action, Write):
            value = game.sums(state.faces)[action.colour]
            circle = len(state.sheets[action.player][action.colour]) + 1
            step = "B" if state.phase == "b" else "C"
            lines.append(
                f"  {step}: player {action.player + 1} writes {value} in {game.colour_name(action.colour)} "
                f"circle {circle}"
            )
        elif isinstance(action, Pass):
            step = "B" if state.phase == "b" else "C"
            lines.append(f"  {step}: player {action.player + 1} passes")
        nxt = game.apply(state, action)
        if nxt.misses != state.misses:
            m = nxt.misses[state.active]
            lines.append(f"  miss: player {state.active + 1} checks box {m} (-{m})")
        final = nxt
    assert final is not None
    out = game.outcome(final)
    lines.append(f"end: {out.end} after turn {final.turn}")
    for p in range(players):
        lines.append(f"player {p + 1}:")
        for r in range(game.rows):
            vals = " ".join(f"{v:>2}" for v in final.sheets[p][r])
            lines.append(f"  {game.colour_name(r):<8}{vals}")
        cols = " ".join("--" if c is None else f"{c:>2}" for c in out.column_scores[p])
        lines.append(f"  columns {cols}")
        lines.append(f"  misses {final.misses[p]} (-{out.penalties[p]}), score {out.scores[p]}")
    lines.append(f"winners: {', '.join(str(w + 1) for w in out.winners)} (tie-break: {out.tie_break})")
    return "\n".join(lines) + "\n"
