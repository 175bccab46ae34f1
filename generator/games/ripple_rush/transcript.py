"""A readable seeded playthrough of the reference rules (the golden file a reviewer reads)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from generator.games.ripple_rush.policies import POLICIES
from generator.games.ripple_rush.rules import RULESET_VERSION, Game, Pass, Sheet, State, Write
from generator.games.ripple_rush.spec import RippleRushGame


def format_sheet(game: Game, sheet: Sheet) -> list[str]:
    """The sheet as text rows, top row first, with each row's bonus."""
    w = max(len(s) for s in game.suits)
    head = "  row bonus     " + " ".join(s.rjust(w) for s in game.suits)
    lines = [head]
    for r in range(1, game.rows + 1):
        cells = " ".join((str(col[r - 1]) if col[r - 1] else ".").rjust(w) for col in sheet)
        lines.append(f"  {r:>3} {game.bonus_name(r):<10}{cells}")
    return lines


def transcript(spec: RippleRushGame, seed: int, players: int, policies: Sequence[str] | None = None) -> str:
    """Play one seeded game with the reference rules and describe every draw, write, bonus and the scoring."""
    game = Game.from_spec(spec, players)
    names = list(policies) if policies else [spec.balance.reference_policy]
    seat = [POLICIES[names[p % len(names)]] for p in range(players)]
    rng = np.random.default_rng(seed)  # one stream: the deal, then the random policy's choices
    state = game.new_state(rng)
    out = [
        f"Ripple Rush (ruleset {RULESET_VERSION}), seeded playthrough: seed {seed}, {players} players",
        "Seats: " + ", ".join(f"P{p + 1} {seat[p].name}" for p in range(players)),
        "House rules: " + ", ".join(f"{k} {v}" for k, v in spec.rules.model_dump().items()),
        "Goal rows revealed: "
        + (", ".join(f"row {r}" for r in state.goals) or "none")
        + f" ({game.goal_points} points each)",
    ]
    last_round = 0
    while not game.is_over(state):
        if state.round != last_round:
            last_round = state.round
            out.append(
                f"Round {state.round}: "
                + ", ".join(f"P{p + 1} draws {game.card_name(c)}" for p, c in enumerate(state.drawn))
            )
            for q in state.announced:
                out.append(f"  P{q + 1} cannot write {game.card_name(state.drawn[q])} and announces it")
        d = game.to_decide(state)
        assert d is not None
        act = seat[d.player].choose(game, state, rng)
        who = f"P{d.player + 1}"
        if d.kind == "bonus":
            what = f"bonus {game.bonus_name(d.row)} of row {d.row}"
        elif d.kind == "announced" and d.card is None:  # any order: name the card taken, or all declined
            taken = [
                k
                for k in d.cards
                if isinstance(act, Write) and (k.suit, k.number) == (act.cell.column, act.number)
            ]
            what = "announced " + ", ".join(game.card_name(k) for k in (taken or list(d.cards)))
        elif d.kind == "announced":
            assert d.card is not None
            what = f"announced {game.card_name(d.card)}"
        else:
            assert d.card is not None
            what = game.card_name(d.card)
        if isinstance(act, Pass):
            out.append(f"  {who} declines {what}")
        else:
            out.append(f"  {who} writes {act.number} in {game.cell_name(act.cell)} ({what})")
        before = state
        state = game.apply(state, act)
        _completions(game, before, state, out)
    res = game.outcome(state)
    out.append("Final sheets:")
    for p, sh in enumerate(state.sheets):
        score = res.details[p]
        out.append(
            f"P{p + 1}: runs "
            + " + ".join(str(r) for r in score.runs)
            + f" + goals {len(score.goals_completed)} x {game.goal_points} = {score.total}"
            + f" (completed columns {score.completed_columns})"
        )
        out += format_sheet(game, sh)
    out.append(
        "Winner"
        + ("s" if len(res.winners) > 1 else "")
        + ": "
        + ", ".join(f"P{p + 1}" for p in res.winners)
        + (" (tie broken by completed columns)" if res.tie_break_used else "")
        + (" (shared win)" if res.shared else "")
    )
    return "\n".join(out) + "\n"


def _completions(game: Game, before: State, after: State, out: list[str]) -> None:
    for p, (a, b) in enumerate(zip(before.sheets, after.sheets, strict=True)):
        for r in range(1, game.rows + 1):
            if all(c[r - 1] for c in b) and not all(c[r - 1] for c in a):
                out.append(f"  P{p + 1} completes row {r}: bonus {game.bonus_name(r)}")
