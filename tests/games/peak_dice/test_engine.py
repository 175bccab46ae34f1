"""The fast kernel against itself uncompiled and against the reference rules; properties; the golden game."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from generator.engine.kernel import seed_state
from generator.engine.runner import run
from generator.games.peak_dice import POLICIES, Game, Simulation, build_tables, play_reference, transcript
from generator.games.peak_dice import kernel as K
from generator.games.peak_dice.planner import plan_arrays
from generator.games.peak_dice.sim import play
from tests.games.peak_dice.conftest import make_spec

HERE = Path(__file__).parent
ROOT = HERE.parents[2]


@pytest.mark.parametrize("policy", ["random", "greedy", "reroll", "planner", "planner_keep"])
def test_compiled_and_pure_kernels_give_identical_tallies(spec, policy) -> None:
    t = build_tables(spec)
    fast = play(t, [policy] * 3, spec.balance.turn_limit, seed_state(11), 4)
    pure = play(t, [policy] * 3, spec.balance.turn_limit, seed_state(11), 4, pure=True)
    assert fast.keys() == pure.keys()
    for k in fast:
        np.testing.assert_array_equal(fast[k], pure[k], err_msg=k)


def test_compiled_and_pure_plan_tables_are_identical(spec) -> None:
    t = build_tables(spec)
    v, q = plan_arrays(t.peaks, t.row_length, t.mass_lt, pure=True)
    np.testing.assert_array_equal(v, t.plan_v)
    np.testing.assert_array_equal(q, t.plan_q)


def test_mixed_policies_compiled_equal_pure(spec) -> None:
    t = build_tables(spec)
    seats = ["planner", "reroll", "greedy", "planner_keep"]
    fast = play(t, seats, spec.balance.turn_limit, seed_state(4), 3)
    pure = play(t, seats, spec.balance.turn_limit, seed_state(4), 3, pure=True)
    for k in fast:
        np.testing.assert_array_equal(fast[k], pure[k], err_msg=k)


def test_plan_values_follow_the_rules_of_a_row(spec) -> None:
    """A full row is worth 0; a row that cannot rise any more before the peak is lost (NEG); waiting for a
    value is never worth more than the best write; a high first value leaves less room than a low one."""
    t = build_tables(spec)
    lv = 3  # every row open
    assert (t.plan_v[:, :, 9, :] == 0).all()
    assert t.plan_v[lv, 0, 1, 18] <= K.NEG / 2          # 18 in circle 1: nothing can rise above it
    assert t.plan_v[lv, 0, 4, 17] > K.NEG / 2           # 17 in circle 4: 18 can still come
    assert t.plan_q[lv, 0, 0, 6] > t.plan_q[lv, 0, 0, 14]
    ok = t.plan_q[lv, 0, 0, 3:19]
    assert t.plan_v[lv, 0, 0, 0] <= ok.max()
    # the endgame tables wait at a higher cost, so a sheet with one open row values waiting less
    assert t.plan_v[0, 0, 8, 10] < t.plan_v[lv, 0, 8, 10]


def test_pure_mode_without_numba_matches_compiled(spec) -> None:
    code = ("import sys; sys.path.insert(0, '.');"
            "from tests.games.peak_dice.conftest import make_spec;"
            "from generator.engine import kernel;"
            "from generator.games.peak_dice import build_tables;"
            "from generator.games.peak_dice.sim import play;"
            "assert not kernel.HAVE_NUMBA;"
            "out = play(build_tables(make_spec()), ['reroll', 'planner'], 300, kernel.seed_state(5), 2);"
            "print(out['games.scores'].tolist(), out['games.turns'].tolist())")
    env = dict(os.environ, PNPKIT_PURE="1")
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True)
    out = play(build_tables(spec), ["reroll", "planner"], 300, seed_state(5), 2)
    assert res.stdout.strip() == f"{out['games.scores'].tolist()} {out['games.turns'].tolist()}"


@pytest.mark.parametrize("policy,players", [("random", 2), ("greedy", 3), ("reroll", 4), ("planner", 2),
                                            ("planner", 4), ("planner_keep", 3)])
def test_kernel_agrees_with_reference_rules(spec, policy, players) -> None:
    for seed in range(3):
        g = Game(spec, players)
        history = play_reference(g, [POLICIES[policy]] * players, seed_state(seed))
        final = g.apply(*history[-1])
        out = g.outcome(final)
        k = play(g.tables, [policy] * players, spec.balance.turn_limit, seed_state(seed), 1)
        assert tuple(k["games.scores"][0]) == out.scores
        assert tuple(k["games.misses"][0]) == final.misses
        assert int(k["games.turns"][0]) == final.turn


def test_kernel_log_replays_through_reference_apply(spec) -> None:
    """Every write the kernel logs is legal for the reference rules and gives the same sheets."""
    g = Game(spec, 3)
    k = play(g.tables, ["planner"] * 3, spec.balance.turn_limit, seed_state(3), 1, log_rows=4000)
    sheets = [[[] for _ in range(4)] for _ in range(3)]
    for row in k["log"]:
        kind, player, colour, value = int(row[0]), int(row[2]), int(row[3]), int(row[4])
        if kind in (3, 5):
            assert g.can_write(tuple(sheets[player][colour]), colour, value)
            faces = tuple(int(x) for x in row[5:])
            assert g.sums(faces)[colour] == value
            sheets[player][colour].append(value)
    scores = tuple(g.score(sh, int(m)) for sh, m in zip(sheets, k["games.misses"][0]))
    assert scores == tuple(k["games.scores"][0])


def test_runner_result_independent_of_chunking(spec) -> None:
    sim = Simulation(build_tables(spec), ("greedy",) * 2, spec.balance.turn_limit)
    a = run(sim, 30, 9, chunk_size=10)
    b = run(sim, 30, 9, chunk_size=10)
    np.testing.assert_array_equal(a["games.scores"], b["games.scores"])
    c = run(sim, 30, 10, chunk_size=10)
    assert not np.array_equal(a["games.scores"], c["games.scores"])


SPEC = make_spec()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4),
       policy=st.sampled_from(["random", "greedy", "reroll", "planner", "planner_keep"]))
def test_any_seed_ends_legally_rows_rise_then_fall_and_replay_is_identical(seed, players, policy) -> None:
    g = Game(SPEC, players)
    history = play_reference(g, [POLICIES[policy]] * players, seed_state(seed))
    final = g.apply(*history[-1])
    assert final.phase == "over" and final.end in ("sheet_full", "stalled", "turn_limit")
    if final.end == "sheet_full":
        assert any(g.is_full(sh) for sh in final.sheets)
    for sh in final.sheets:
        for r, row in enumerate(sh):
            pk = g.peaks[r]
            assert all(a < b for a, b in zip(row[:pk], row[1:pk]))       # rising up to the peak
            assert all(a > b for a, b in zip(row[pk - 1:], row[pk:]))    # falling after it
            assert all(v in g.tables.achievable(r) for v in row)
    again = play_reference(g, [POLICIES[policy]] * players, seed_state(seed))
    assert [a for _, a in again] == [a for _, a in history]
    out = g.outcome(final)
    assert out.scores == tuple(g.score(sh, m) for sh, m in zip(final.sheets, final.misses))


def test_golden_playthrough_3p(spec, golden) -> None:
    golden.check(HERE / "golden" / "playthrough_3p.txt", transcript(spec, 7, 3))


def test_transcript_is_deterministic(spec) -> None:
    assert transcript(spec, 3, 2) == transcript(spec, 3, 2)
    assert transcript(spec, 3, 2) != transcript(spec, 4, 2)


def test_planner_with_step_b_compulsory_agrees_with_reference_rules() -> None:
    spec = make_spec(step_b_optional=False)
    for seed in range(2):
        g = Game(spec, 3)
        history = play_reference(g, [POLICIES["planner"]] * 3, seed_state(seed))
        final = g.apply(*history[-1])
        k = play(g.tables, ["planner"] * 3, spec.balance.turn_limit, seed_state(seed), 1)
        assert tuple(k["games.scores"][0]) == g.outcome(final).scores
        assert int(k["games.turns"][0]) == final.turn


def test_planner_outplays_the_greedy_policies(spec) -> None:
    """Same seeds, 2 players (where stalling rows hurt most): the planner scores more and misses less."""
    t = build_tables(spec)
    res = {p: play(t, [p] * 2, spec.balance.turn_limit, seed_state(21), 150) for p in ("reroll", "planner")}
    assert res["planner"]["games.scores"].mean() > res["reroll"]["games.scores"].mean() + 20
    share = {p: r["miss_turns"][0] / r["active_turns"][0] for p, r in res.items()}
    assert share["planner"] < share["reroll"]
    assert res["planner"]["games.misses"].max() < res["reroll"]["games.misses"].max()
