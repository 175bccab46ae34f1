"""Replay a kernel round through the reference rules: the kernel's logged deal, its random-legal seat's logged
choices (the kernel draws its own stream, the reference a numpy Generator), meld finders elsewhere."""

from __future__ import annotations

import numpy as np

from generator.games.rummy_cards.policies import MeldFinder
from generator.games.rummy_cards.rules import Game, Lay, State
from generator.games.rummy_cards.sim_setup import LOG_DRAW, LOG_PASS, Workspace


def replay(
    game: Game,
    ws: Workspace,
    random_seat: int,
    max_turns: int | None = None,
    states: list[State] | None = None,
) -> tuple[State, list[int]]:
    """The reference round the kernel logged in `ws` (round 0), and its per-turn log in the kernel's terms
    (cards laid, LOG_DRAW, LOG_PASS). At the random-legal seat the reference must list exactly as many plays
    as the kernel did (asserted) and takes the kernel's pick; the meld finders decide for themselves. With
    `states`, the state before each turn is appended to it (one replay instead of one per turn looked at)."""
    s = game.deal([int(x) for x in ws.order])
    unused = np.random.default_rng(0)  # MeldFinder draws nothing
    log = []
    while not game.is_over(s) and (max_turns is None or s.turn < max_turns):
        if states is not None:
            states.append(s)
        p = s.current
        before = len(s.hands[p])
        if p == random_seat:
            acts = game.legal_actions(s)
            pick, listed = (int(x) for x in ws.choices[s.turn])
            assert listed == len(acts), (
                f"turn {s.turn}: the kernel listed {listed} plays, the rules {len(acts)}"
            )
            a = acts[pick]
        else:
            a = MeldFinder().choose(game, s, unused)
        s2 = game.apply(s, a)
        log.append(before - len(s2.hands[p]) if isinstance(a, Lay) else (LOG_DRAW if s.pile else LOG_PASS))
        s = s2
    return s, log
