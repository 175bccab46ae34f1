"""Self-play balance of Peak Dice: win share by seat, game length, scores, misses, the miss track's size,
stalled games and the value of the re-roll, checked against the spec's `balance:` tolerances."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from generator.engine.report import BalanceReport, Bars, Headline, Histogram, Table, Tolerance, bounded
from generator.engine.runner import Executor, Tally, run
from generator.engine.sequential import Budget, as_budget
from generator.engine.stats import hist_mean_sd, hist_percentiles, mean_ci, wilson
from generator.engine.variants import rejudge_variants
from generator.engine.verdict import Evidence, Exact, Extreme, Mean, MeanDifference, Proportion
from generator.games.peak_dice import kernel as K
from generator.games.peak_dice.sim import Simulation
from generator.games.peak_dice.spec import PeakDiceGame
from generator.games.peak_dice.tables import Tables, build_tables
from generator.spec.base import Bound

GAME_ID = "peak_dice"
REROLL_PLAYERS = 3
PERCENTILES = (5, 25, 50, 75, 95)


def win_shares(scores: np.ndarray) -> np.ndarray:
    """Per game and seat: 1/k for each of the k players sharing the top score, else 0."""
    top = scores.max(axis=1, keepdims=True)
    won = (scores == top).astype(np.float64)
    shares: np.ndarray = won / won.sum(axis=1, keepdims=True)
    return shares


def _tol(name: str, evidence: Evidence, bound: Bound, key: str, *settings: str) -> Tolerance:
    return bounded(name, evidence, bound, f"game.balance.{key}", settings)


def setting_figures(tally: Tally, players: int, miss_boxes: int) -> dict[str, Any]:
    """Every figure of one player count's self-play, JSON-able."""
    scores = tally["games.scores"]
    games = int(scores.shape[0])
    share = win_shares(scores)
    seats = []
    for s in range(players):
        p, lo, hi = wilson(float(share[:, s].sum()), games)
        seats.append({"seat": s + 1, "win_share": p, "low": lo, "high": hi, "gap": p - 1.0 / players})
    turns = tally["games.turns"]
    t_mean, t_sd, t_lo, t_hi = mean_ci(
        float(turns.sum()), float((turns.astype(np.float64) ** 2).sum()), games
    )
    flat = scores.ravel()
    offset = int(flat.min()) if flat.size else 0
    hist = np.bincount(flat - offset) if flat.size else np.zeros(1, dtype=np.int64)
    s_mean, s_sd = hist_mean_sd(hist, offset)
    pct = hist_percentiles(hist, PERCENTILES, offset)
    misses = tally["games.misses"]
    over = int((misses.max(axis=1) > miss_boxes).sum())
    o_p, o_lo, o_hi = wilson(over, games)
    active = float(tally["active_turns"].sum())
    miss_p, miss_lo, miss_hi = wilson(float(tally["miss_turns"].sum()), active)
    ends = np.bincount(tally["games.end"], minlength=3)
    stalled = int(ends[K.END_STALLED] + ends[K.END_LIMIT])
    st_p, st_lo, st_hi = wilson(stalled, games)
    tie = float((share.max(axis=1) < 1.0).mean()) if games else math.nan
    return {
        "players": players,
        "games": games,
        "seats": seats,
        "tie_share": tie,
        "turns": {
            "mean": t_mean,
            "sd": t_sd,
            "low": t_lo,
            "high": t_hi,
            "percentiles": dict(
                zip(map(str, PERCENTILES), hist_percentiles(np.bincount(turns), PERCENTILES))
            ),
        },
        "score": {
            "mean": s_mean,
            "sd": s_sd,
            "percentiles": dict(zip(map(str, PERCENTILES), pct)),
            "hist_offset": offset,
            "hist": [int(x) for x in hist],
        },
        "miss_turn_share": {"share": miss_p, "low": miss_lo, "high": miss_hi},
        "miss_box_overflow": {
            "share": o_p,
            "low": o_lo,
            "high": o_hi,
            "boxes": miss_boxes,
            "max_misses": int(misses.max()) if misses.size else 0,
            "p999_misses": float(np.percentile(misses.max(axis=1), 99.9)) if games else math.nan,
        },
        "stalled_share": {
            "share": st_p,
            "low": st_lo,
            "high": st_hi,
            "stalled": int(ends[K.END_STALLED]),
            "turn_limit": int(ends[K.END_LIMIT]),
        },
        "reroll_turn_share": float(tally["reroll_turns"].sum()) / active if active else math.nan,
    }


def balance_report(
    spec: PeakDiceGame,
    *,
    games: int | Budget,
    seed: int,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
    kit: str = "",
) -> BalanceReport:
    """Self-play every player count with the spec's policy in every seat (like tables), measure the re-roll's
    value, check tolerances."""
    b = spec.balance
    tables = build_tables(spec)
    budget = as_budget(games)
    rep = BalanceReport(kit=kit, game=GAME_ID, games_per_setting=budget.default, seed=seed)
    figures: dict[str, Any] = {"policy": b.policy, "settings": {}}
    summary: list[list[Any]] = []
    tallies: dict[int, Tally] = {}
    for n in range(spec.players.min, spec.players.max + 1):
        sim = Simulation(tables, (b.policy,) * n, b.turn_limit)
        setting = f"{n}p {b.policy}"
        g = budget(setting)
        tally = run(sim, g, seed, executor, progress=progress)
        tallies[n] = tally
        f = setting_figures(tally, n, spec.miss_boxes)
        figures["settings"][str(n)] = f
        rep.tolerances += _setting_tolerances(spec, n, g, tally, f, setting)
        rep.headline[str(n)] = Headline(
            policy=b.policy,
            score_mean=f["score"]["mean"],
            seat_shares=[s["win_share"] for s in f["seats"]],
            game_length=f["turns"]["mean"],
            length_unit="turns",
        )
        rep.tables.append(
            Table(
                f"Win share by seat ({n} players, {b.policy})",
                ["seat", "win share", "95% low", "95% high"],
                [
                    [s["seat"], round(s["win_share"], 4), round(s["low"], 4), round(s["high"], 4)]
                    for s in f["seats"]
                ],
            )
        )
        rep.charts += _setting_charts(spec, n, f)
        pc = f["score"]["percentiles"]
        summary.append(
            [n, g, round(f["turns"]["mean"], 2), round(f["score"]["mean"], 2), round(f["score"]["sd"], 2)]
            + [pc[str(q)] for q in PERCENTILES]
            + [
                round(f["miss_turn_share"]["share"], 4),
                round(f["miss_box_overflow"]["share"], 4),
                f["miss_box_overflow"]["max_misses"],
                round(f["stalled_share"]["share"], 4),
            ]
        )
    rep.tables.insert(
        0,
        Table(
            f"Self-play summary ({b.policy} at every seat)",
            ["players", "games", "turns", "score mean", "score sd"]
            + [f"p{q}" for q in PERCENTILES]
            + ["miss turns", f"> {spec.miss_boxes} misses", "max misses", "stalled"],
            summary,
        ),
    )
    figures["reroll"] = reroll_value(spec, tables, budget, seed, executor, progress, tallies, rep)
    figures["variants"] = _variants_out_of_sample(spec, budget, seed, executor, progress, rep)
    rep.figures = figures
    if any(t.failed for t in rep.tolerances if t.spec_key == "game.balance.miss_box_overflow"):
        rep.notes.append(
            f"sheet defect: the miss track has {spec.miss_boxes} boxes, but self-play needs more "
            f"in more than {b.miss_box_overflow.max} of games (see miss_box_overflow figures)"
        )
    return rep


def _setting_tolerances(
    spec: PeakDiceGame, n: int, g: int, tally: Tally, f: dict[str, Any], setting: str
) -> list[Tolerance]:
    """The tolerances of one player count: seat fairness, miss boxes, game length, misses, score, stalls."""
    b = spec.balance
    share = win_shares(tally["games.scores"])
    seats = tuple(Proportion(float(share[:, s].sum()), g) for s in range(n))
    over = int((tally["games.misses"].max(axis=1) > spec.miss_boxes).sum())
    stalled = f["stalled_share"]["stalled"] + f["stalled_share"]["turn_limit"]
    return [
        _tol(
            f"largest seat win share distance from fair 1/{n} ({n} players, like tables)",
            Extreme("max_distance", seats, 1.0 / n),
            b.seat_win_share_gap,
            "seat_win_share_gap",
            setting,
        ),
        _tol(
            f"games needing more than {spec.miss_boxes} miss boxes ({n} players)",
            Proportion(over, g),
            b.miss_box_overflow,
            "miss_box_overflow",
            setting,
        ),
        _tol(
            f"mean game length in turns ({n} players)",
            Mean(g, f["turns"]["mean"], f["turns"]["sd"]),
            b.game_turns,
            "game_turns",
            setting,
        ),
        # turns of one game are not independent, but the measured share (~0.13) sits far from its bound (0.2)
        _tol(
            f"share of turns with a miss ({n} players)",
            Proportion(float(tally["miss_turns"].sum()), float(tally["active_turns"].sum())),
            b.miss_turn_share,
            "miss_turn_share",
            setting,
        ),
        _tol(
            f"mean score ({n} players)",
            Mean.per_table(tally["games.scores"]),
            b.score_mean,
            "score_mean",
            setting,
        ),
        _tol(
            f"share of stalled games ({n} players)",
            Proportion(stalled, g),
            b.stalled_share,
            "stalled_share",
            setting,
        ),
    ]


def _setting_charts(spec: PeakDiceGame, n: int, f: dict[str, Any]) -> list[Bars | Histogram]:
    """Win share by seat and the final scores of one player count."""
    return [
        Bars(
            f"Win share by seat ({n} players)",
            [f"seat {s['seat']}" for s in f["seats"]],
            [s["win_share"] for s in f["seats"]],
            [s["low"] for s in f["seats"]],
            [s["high"] for s in f["seats"]],
            reference=1.0 / n,
            y_label="win share",
        ),
        Histogram(
            f"Final scores ({n} players)",
            {spec.balance.policy: (f["score"]["hist_offset"], f["score"]["hist"])},
            "score",
        ),
    ]


REROLL_PAIRS = {"planner": ("planner_keep", "planner"), "planner_keep": ("planner_keep", "planner")}
"""(never re-rolls, re-rolls) compared for the spec's policy; any other policy: greedy and reroll."""


def reroll_value(
    spec: PeakDiceGame,
    tables: Tables,
    budget: Budget,
    seed: int,
    executor: Executor | None,
    progress: Callable[[int], None] | None,
    tallies: dict[int, Tally],
    rep: BalanceReport,
) -> dict[str, Any]:
    """Mean score of the re-rolling policy minus its never-re-rolling twin (all seats alike)."""
    n = min(max(REROLL_PLAYERS, spec.players.min), spec.players.max)
    t = spec.balance.turn_limit
    pair = REROLL_PAIRS.get(spec.balance.policy, ("greedy", "reroll"))
    out: dict[str, Any] = {"players": n, "without": pair[0], "with": pair[1]}
    means: dict[str, Mean] = {}
    scores: dict[str, np.ndarray] = {}
    for name in pair:
        if spec.balance.policy == name:
            tally = tallies[n]
        else:
            tally = run(
                Simulation(tables, (name,) * n, t), budget(f"{n}p {name}"), seed, executor, progress=progress
            )
        sc = tally["games.scores"].astype(np.float64).ravel()
        m, sd, lo, hi = mean_ci(float(sc.sum()), float((sc**2).sum()), sc.size)
        means[name] = Mean.per_table(tally["games.scores"])
        scores[name] = tally["games.scores"]
        out[name] = {
            "score_mean": m,
            "score_sd": sd,
            "low": lo,
            "high": hi,
            "turns_mean": float(tally["games.turns"].mean()) if tally["games.turns"].size else math.nan,
            "miss_turn_share": float(tally["miss_turns"].sum() / max(1, tally["active_turns"].sum())),
            "reroll_turn_share": float(tally["reroll_turns"].sum() / max(1, tally["active_turns"].sum())),
        }
    without, with_ = pair
    alike = np.array_equal(scores[with_], scores[without])  # every game played the same: no re-roll taken
    if alike:
        rep.notes.append(
            f"reroll_gain: {with_} and {without} played every game alike (rerolls: {spec.rerolls}), so the "
            "re-roll gains exactly 0."
        )
    tol = _tol(
        f"re-roll gain in mean score, {with_} minus {without} ({n} players)",
        Exact(0.0, fraction=Fraction(0), shown="0 (played alike)")
        if alike
        else MeanDifference(means[with_], means[without]),
        spec.balance.reroll_gain,
        "reroll_gain",
        f"{n}p {with_}",
        f"{n}p {without}",
    )
    out["gain"] = tol.measured
    rep.tolerances.append(tol)
    rep.tables.append(
        Table(
            f"Value of the re-roll ({n} players, all seats alike)",
            ["policy", "score mean", "score sd", "turns", "miss turns", "re-roll turns"],
            [
                [
                    k,
                    round(out[k]["score_mean"], 2),
                    round(out[k]["score_sd"], 2),
                    round(out[k]["turns_mean"], 2),
                    round(out[k]["miss_turn_share"], 4),
                    round(out[k]["reroll_turn_share"], 4),
                ]
                for k in pair
            ],
        )
    )
    return out


def _variants_out_of_sample(
    spec: PeakDiceGame,
    budget: Budget,
    seed: int,
    executor: Executor | None,
    progress: Callable[[int], None] | None,
    rep: BalanceReport,
) -> list[dict[str, Any]]:
    """Each variant the build would print (accepted at this seed) is played again on an independent seed
    stream, side by side with the default sheet (same games); its expected score minus the default's (paired
    per game) is bounded by +- variants.score_tolerance."""
    if spec.variants.count <= 0:
        return []
    from generator.games.peak_dice.variants import generate_variants

    v = spec.variants
    accepted = [x for x in generate_variants(spec, seed) if x.accepted]
    if not accepted:
        return []
    pols = (spec.balance.policy,) * v.players
    tols = rejudge_variants(
        rep,
        Simulation(build_tables(spec), pols, spec.balance.turn_limit),
        (
            (var.code, Simulation(build_tables(spec, var.peaks), pols, spec.balance.turn_limit))
            for var in accepted
        ),
        games=budget("variants"),
        seed=seed,
        executor=executor,
        progress=progress,
        score="games.scores",
        evidence=lambda var, base: Mean.of(var - base),
        name=lambda code: (
            f"variant {code}: expected score minus the default sheet's ({v.players} players, out of sample)"
        ),
        bound=Bound(min=-float(v.score_tolerance), max=float(v.score_tolerance)),
        spec_key="game.variants.score_tolerance",
        accepted_on="the games of the build seed",
        note_tail=", paired with the default sheet",
    )
    return [
        {"code": var.code, "build_expected_score": var.expected_score, "difference": tol.measured}
        for var, tol in zip(accepted, tols, strict=True)
    ]
