"""Policies for Peak Dice, and a seeded playthrough of the reference rules.

The decisions are the kernel's functions (one source for fast self-play and for the reference game), called
on arrays built from the reference State, with an explicit xorshift RNG state (never module-level random):

- random: a uniform legal choice at every decision (re-roll subset, colour or pass).
- greedy: never re-rolls; writes the colour whose sum skips the least probability mass of its row relative
  to the row's fair share of slack, only when it fits (the active player also writes a poorer fit rather
  than take a miss), and never writes a value that leaves its row impossible to complete.
- reroll: greedy writes, plus the re-roll: the single die whose exact expected value of the re-rolled roll
  beats keeping the roll.
- planner: values every row by backward induction over the colour sum's distribution (planner.py,
  kernel.plan_table): a write's gain is the row's value after it minus the value of waiting for a better
  roll; it writes the best gain when it is >= 0, writes a loss rather than take a miss when the loss is
  smaller than the miss's cost (the k-th costs k, and every later one one more), and re-rolls the set of at
  most 2 dice whose exact expected roll value (the best B and C gains) beats keeping the roll the most.
  Under a compulsory step B (the default) a roll is worth its best LEGAL write however bad (the miss only
  when no colour fits), and a write that ruins its row costs the circles it puts out of reach, so a forced
  write takes the least bad row.
- planner_keep: the planner without the re-roll (the baseline that measures what the re-roll is worth).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from generator.engine.kernel import rand_below

from generator.games.peak_dice import kernel as K
from generator.games.peak_dice.rules import Action, Game, Pass, Reroll, Roll, State, Write


@dataclass(frozen=True)
class Policy:
    """A named policy; `code` selects its branch in the kernel."""

    name: str
    code: int

    def choose(self, game: Game, state: State, rng: np.ndarray) -> Action:
        """The policy's action for the actor of `state` (a decision node), drawing from `rng`."""
        p = game.actor(state)
        if p is None:
            raise ValueError(f"no decision at step {state.phase}")
        sheet, filled = sheet_arrays(game, state)
        t = game.tables
        faces = np.asarray(state.faces, dtype=np.int64)
        sums = np.zeros(game.rows, dtype=np.int64)
        table = np.zeros((game.players, game.rows, t.cnt_lt.shape[1] - 1), dtype=np.float64)
        dirty = np.ones((game.players, game.rows), dtype=np.int64)
        planner = self.code in (K.POLICY_PLANNER, K.POLICY_PLANNER_KEEP)
        miss_cost = float(K.miss_value(state.misses[state.active], t.miss_cap, t.plan_params[0], t.plan_params[1]))
        if state.phase == "reroll":
            trial = np.zeros(game.rows, dtype=np.int64)
            if self.code == K.POLICY_PLANNER_KEEP:
                return Reroll(())
            if self.code == K.POLICY_PLANNER:
                work = K.plan_workspace(t.dice_colour, t.dice_value, t.dice_faces, t.cnt_lt, game.players, game.rows)
                mask = K.plan_reroll(sheet, filled, t.peaks, game.row_length, t.cnt_lt, t.totals, t.plan_v,
                                     t.plan_q, t.plan_params, not game.step_b_optional, t.dice_colour,
                                     t.dice_value, t.dice_faces, p, miss_cost, int(t.plan_params[2]), faces, sums,
                                     table, dirty, *work)
                return Reroll(tuple(d for d in range(t.dice) if (mask >> d) & 1))
            mask = K.choose_reroll(self.code, rng, sheet, filled, t.peaks, game.row_length, t.cnt_lt, t.totals,
                                   t.mass_lt, t.dice_colour, t.dice_value, t.dice_faces, p, faces, sums, table,
                                   dirty, trial)
            return Reroll(tuple(d for d in range(t.dice) if (mask >> d) & 1))
        K.colour_sums(t.dice_colour, t.dice_value, faces, game.rows, sums)
        scratch = np.zeros(game.rows + 2, dtype=np.int64)
        out_u = np.zeros(1, dtype=np.float64)
        if planner:
            b_step = state.phase == "b"
            c = K.plan_choose(sheet, filled, t.peaks, game.row_length, t.cnt_lt, t.totals, t.plan_v, t.plan_q,
                              t.plan_params, not game.step_b_optional, p, sums, -1 if b_step else state.chosen, game.step_b_optional or not b_step,
                              b_step or (p == state.active and not state.wrote), miss_cost, table, dirty)
        elif state.phase == "b":
            c = K.choose_b(self.code, rng, sheet, filled, t.peaks, game.row_length, t.cnt_lt, t.totals, t.mass_lt,
                           p, sums, game.step_b_optional, scratch, out_u)
        else:
            avoid = p == state.active and not state.wrote
            c = K.choose_c(self.code, rng, sheet, filled, t.peaks, game.row_length, t.cnt_lt, t.totals, t.mass_lt,
                           p, sums, state.chosen, avoid, scratch, out_u)
        return Write(p, int(c)) if c >= 0 else Pass(p)


RANDOM = Policy("random", K.POLICY_RANDOM)
GREEDY = Policy("greedy", K.POLICY_GREEDY)
REROLL = Policy("reroll", K.POLICY_REROLL)
PLANNER = Policy("planner", K.POLICY_PLANNER)
PLANNER_KEEP = Policy("planner_keep", K.POLICY_PLANNER_KEEP)
POLICIES = {p.name: p for p in (RANDOM, GREEDY, REROLL, PLANNER, PLANNER_KEEP)}


def sheet_arrays(game: Game, state: State) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's view of the sheets: values[p, r, i] and filled[p, r]."""
    sheet = np.zeros((game.players, game.rows, game.row_length), dtype=np.int64)
    filled = np.zeros((game.players, game.rows), dtype=np.int64)
    for p, sh in enumerate(state.sheets):
        for r, row in enumerate(sh):
            filled[p, r] = len(row)
            sheet[p, r, : len(row)] = row
    return sheet, filled


def roll(game: Game, state: State, rng: np.ndarray) -> Roll:
    """The chance outcome for the dice to roll now, drawn in dice order (as the kernel draws them)."""
    return Roll(tuple(int(rand_below(rng, int(game.tables.dice_faces[d]))) for d in game.dice_to_roll(state)))


def play_reference(game: Game, policies: Sequence[Policy], rng: np.ndarray) -> list[tuple[State, Action]]:
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
