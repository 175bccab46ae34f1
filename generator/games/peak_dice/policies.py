"""Policies for Peak Dice, and a seeded playthrough of the reference rules.

The decisions are the kernel's functions (one source for fast self-play and for the reference game), called
on arrays built from the reference State. The reference path draws from a numpy Generator (never
module-level random): the dice, and the random policy's choices among the legal moves, which it makes here
(the kernel's random policy draws the same kinds of choice from its own xorshift stream):

- random: a uniform legal choice at every decision (re-roll subset, colour or pass).
- greedy: never re-rolls; writes the colour whose sum skips the least probability mass of its row relative
  to the row's fair share of slack, only when it fits (the active player also writes a poorer fit rather
  than take a miss), and never writes a value that leaves its row impossible to complete.
- reroll: greedy writes, plus the re-roll: the single die whose exact expected value of the re-rolled roll
  beats keeping the roll.
- planner: values every row by backward induction over the colour sum's distribution (planner.py,
  plan_table): a write's gain is the row's value after it minus the value of waiting for a better
  roll; it writes the best gain when it is >= 0, writes a loss rather than take a miss when the loss is
  smaller than the miss's cost (the k-th costs k, and every later one one more), and re-rolls the set of at
  most 2 dice whose exact expected roll value (the best B and C gains) beats keeping the roll the most.
  Under a compulsory step B (the default) a roll is worth its best LEGAL write however bad (the miss only
  when no colour fits), and a write that ruins its row costs the circles it puts out of reach, so a forced
  write takes the least bad row.
- planner_keep: the planner without the re-roll (the baseline that measures what the re-roll is worth).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from generator.games.peak_dice import kernel as K
from generator.games.peak_dice.planner import miss_value, plan_choose, plan_of, plan_workspace
from generator.games.peak_dice.planner_reroll import large_sets, plan_reroll
from generator.games.peak_dice.rules import Action, Game, Pass, Reroll, Roll, State, Write
from generator.games.peak_dice.sheet import Workspace, colour_sums, setup_of, workspace


@dataclass(frozen=True)
class Policy:
    """A named policy; `code` selects its branch in the kernel."""

    name: str
    code: int

    def choose(self, game: Game, state: State, rng: np.random.Generator) -> Action:
        """The policy's action for the actor of `state` (a decision node); the random policy draws from `rng`,
        the others draw nothing."""
        p = game.actor(state)
        if p is None:
            raise ValueError(f"no decision at step {state.phase}")
        if self.code == K.POLICY_RANDOM:
            return random_action(game, state, p, rng)
        t = game.tables
        setup, plan = setup_of(t), plan_of(t)
        ws = workspace(setup, game.players)
        load_sheets(ws, state)
        ws.faces[:] = state.faces
        planner = self.code in (K.POLICY_PLANNER, K.POLICY_PLANNER_KEEP)
        miss_cost = float(
            miss_value(state.misses[state.active], t.miss_cap, plan.miss_weight, plan.miss_future)
        )
        if state.phase == "reroll":
            if self.code == K.POLICY_PLANNER_KEEP:
                return Reroll(())
            if self.code == K.POLICY_PLANNER:
                pw = plan_workspace(setup, game.players)
                dice = plan.reroll_dice
                mask = plan_reroll(setup, plan, ws, pw, p, miss_cost, dice, large_sets(dice))
            else:
                mask = K.choose_reroll(self.code, NO_DRAWS, setup, ws, p)
            return Reroll(tuple(d for d in range(t.dice) if (mask >> d) & 1))
        colour_sums(t.dice_colour, t.dice_value, ws.faces, game.rows, ws.sums)
        if planner:
            b_step = state.phase == "b"
            c = plan_choose(
                setup,
                plan,
                ws,
                p,
                -1 if b_step else state.chosen,
                game.step_b_optional or not b_step,
                b_step or (p == state.active and not state.wrote),
                miss_cost,
            )
        elif state.phase == "b":
            c = K.choose_b(self.code, NO_DRAWS, setup, ws, p, game.step_b_optional)
        else:
            avoid = p == state.active and not state.wrote
            c = K.choose_c(self.code, NO_DRAWS, setup, ws, p, state.chosen, avoid)
        return Write(p, int(c)) if c >= 0 else Pass(p)


NO_DRAWS = np.zeros(1, dtype=np.uint64)
"""The kernel decisions' RNG argument for the policies that take no random decision (never drawn from)."""


def random_action(game: Game, state: State, p: int, rng: np.random.Generator) -> Action:
    """The random policy: each die re-rolled with probability 1/2; a uniform choice among the legal colours
    (not the one chosen in B, in step C) and passing where passing is allowed (B: only when optional)."""
    if state.phase == "reroll":
        return Reroll(tuple(d for d in range(game.tables.dice) if int(rng.integers(2)) == 1))
    forbidden = state.chosen if state.phase == "c" else -1
    options: list[int] = game.legal_colours(state, p, forbidden)
    if not options:
        return Pass(p)
    if state.phase == "c" or game.step_b_optional:
        options.append(-1)
    c = options[int(rng.integers(len(options)))]
    return Write(p, c) if c >= 0 else Pass(p)


RANDOM = Policy("random", K.POLICY_RANDOM)
GREEDY = Policy("greedy", K.POLICY_GREEDY)
REROLL = Policy("reroll", K.POLICY_REROLL)
PLANNER = Policy("planner", K.POLICY_PLANNER)
PLANNER_KEEP = Policy("planner_keep", K.POLICY_PLANNER_KEEP)
POLICIES = {p.name: p for p in (RANDOM, GREEDY, REROLL, PLANNER, PLANNER_KEEP)}


def load_sheets(ws: Workspace, state: State) -> None:
    """Copy the reference State's sheets and misses into the kernel's Workspace (ws.sheet, filled, misses)."""
    for p, sh in enumerate(state.sheets):
        ws.misses[p] = state.misses[p]
        for r, row in enumerate(sh):
            ws.filled[p, r] = len(row)
            ws.sheet[p, r, : len(row)] = row


def roll(game: Game, state: State, rng: np.random.Generator) -> Roll:
    """The chance outcome for the dice to roll now: one uniform face per die, in dice order."""
    return Roll(tuple(int(rng.integers(int(game.tables.dice_faces[d]))) for d in game.dice_to_roll(state)))


def play_reference(
    game: Game, policies: Sequence[Policy], rng: np.random.Generator
) -> list[tuple[State, Action]]:
    """Play one game through the reference rules; returns every (state before, action) and ends with the
    final state reachable as game.apply(*history[-1])."""
    state = game.initial_state()
    history: list[tuple[State, Action]] = []
    while state.phase != "over":
        p = game.actor(state)
        action: Action = roll(game, state, rng) if p is None else policies[p].choose(game, state, rng)
        history.append((state, action))
        state = game.apply(state, action)
    return history
