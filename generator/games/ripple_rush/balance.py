"""Balance self-play: every player count x policy (plus mixed tables for win share by policy), measured
figures with 95% intervals, and the spec's tolerances checked against the reference policy."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from generator.engine.report import BalanceReport, Bars, Headline, Histogram, Table, Tolerance, bounded
from generator.engine.runner import Executor, Tally, derived_seed, run
from generator.engine.sequential import Budget, as_budget
from generator.engine.stats import mean_ci, wilson
from generator.engine.variants import rejudge_variants
from generator.engine.verdict import Evidence, Extreme, Mean, MeanDifference, Proportion, Ratio
from generator.games.ripple_rush import GAME, kernel_board
from generator.games.ripple_rush.sim import POLICY_NAMES, RippleRushSim, Setup, winners
from generator.games.ripple_rush.spec import RippleRushGame
from generator.spec.base import Bound


def _pct(values: np.ndarray, q: float) -> float:
    """Nearest-rank percentile of integer scores."""
    v = np.sort(values)
    if v.size == 0:
        return math.nan
    rank = max(1, math.ceil(q / 100.0 * v.size))
    return float(v[rank - 1])


def summarize(t: Tally, players: int, rows: int) -> dict[str, Any]:
    """Every figure of one setting's merged tally, JSON-able."""
    score = t["games.score"]
    games = score.shape[0]
    flat = score.reshape(-1).astype(np.float64)
    mean, sd, lo, hi = mean_ci(float(flat.sum()), float((flat * flat).sum()), flat.size)
    win, decided, shared = winners(score, t["games.colsdone"])
    frac = win / win.sum(axis=1, keepdims=True)
    seats = []
    for p in range(players):
        s, lo, h = wilson(float(frac[:, p].sum()), games)
        seats.append({"seat": p + 1, "share": s, "low": lo, "high": h})
    pol = t["games.policy"]
    by_policy = []
    for code in sorted(set(int(x) for x in np.unique(pol))):
        mask = pol == code
        n = int(mask.sum())
        s, lo, h = wilson(float(frac[mask].sum()), n)
        m = score[mask].astype(np.float64)
        by_policy.append(
            {
                "policy": POLICY_NAMES[code],
                "seat_games": n,
                "win_share": s,
                "low": lo,
                "high": h,
                "mean_score": float(m.mean()),
            }
        )
    pg = games * players
    row_rates = []
    for r in range(rows):
        s, lo, h = wilson(float(t["rows_done"][r]), pg)
        fired = float(t["bonus_fired"][r])
        row_rates.append(
            {
                "row": r + 1,
                "completion": s,
                "low": lo,
                "high": h,
                "bonus_fired_per_game": fired / pg,
                "bonus_used_share": (float(t["bonus_used"][r]) / fired) if fired else math.nan,
            }
        )
    c = t["counts"]
    un, un_lo, un_hi = wilson(float(c[kernel_board.COUNT_UNPLACEABLE]), float(c[kernel_board.COUNT_DRAWN]))
    tie, tie_lo, tie_hi = wilson(float(shared.sum()), games)
    dec, dec_lo, dec_hi = wilson(float(decided.sum()), games)
    return {
        "games": games,
        "players": players,
        "score": {
            "mean": mean,
            "sd": sd,
            "low": lo,
            "high": hi,
            "p5": _pct(flat, 5),
            "p50": _pct(flat, 50),
            "p95": _pct(flat, 95),
        },
        "score_hist": np.bincount(score.reshape(-1)).tolist(),
        "win_share_by_seat": seats,
        "win_share_by_policy": by_policy,
        "tie_rate": {"share": tie, "low": tie_lo, "high": tie_hi},
        "tie_break_decided": {"share": dec, "low": dec_lo, "high": dec_hi},
        "rows": row_rates,
        "unplaceable_share": {"share": un, "low": un_lo, "high": un_hi},
        "announced_written_share": (
            float(c[kernel_board.COUNT_ANNOUNCED_WRITTEN]) / float(c[kernel_board.COUNT_ANNOUNCED_OFFERED])
            if c[kernel_board.COUNT_ANNOUNCED_OFFERED]
            else math.nan
        ),
        "revealed_goals_completed_share": (
            float(c[kernel_board.COUNT_GOALS_COMPLETED]) / float(c[kernel_board.COUNT_GOALS_POSSIBLE])
            if c[kernel_board.COUNT_GOALS_POSSIBLE]
            else math.nan
        ),
    }


def _tol(name: str, evidence: Evidence, bound: Bound, key: str, *settings: str) -> Tolerance:
    return bounded(name, evidence, bound, f"game.balance.{key}", settings)


def balance_report(
    spec: RippleRushGame,
    *,
    games: int | Budget,
    seed: int,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
    kit: str = "",
) -> BalanceReport:
    """Self-play every player count x policy of the spec (like tables: one policy in every seat) and mixed
    tables (every seating of the policies, in turn); figures, tables, tolerances. Seat fairness is judged on
    the reference policy's like tables; mixed tables are a skill comparison only."""
    setup = Setup.from_spec(spec)
    bal = spec.balance
    pols = list(bal.policies)
    budget = as_budget(games)
    rep = BalanceReport(kit=kit, game=GAME.id, games_per_setting=budget.default, seed=seed)
    evidence: dict[str, dict[str, Tally]] = {}
    figures: dict[str, Any] = {"policies": pols, "reference_policy": bal.reference_policy, "players": {}}
    score_rows: list[list[Any]] = []
    for n in range(spec.players.min, spec.players.max + 1):
        per, evidence[str(n)] = _play_player_count(
            spec, setup, n, budget, seed, executor, progress, score_rows
        )
        figures["players"][str(n)] = per
        _tolerances(rep, spec, n, per, evidence[str(n)][bal.reference_policy])
        ref_f = per[bal.reference_policy]
        rep.headline[str(n)] = Headline(
            policy=bal.reference_policy,
            score_mean=ref_f["score"]["mean"],
            seat_shares=[s["share"] for s in ref_f["win_share_by_seat"]] if n >= 2 else [],
            game_length=float(spec.cards_per_player),
            length_unit="rounds",
        )
    rep.tables.append(_score_table(score_rows))
    ref = bal.reference_policy
    counts = [str(n) for n in range(spec.players.min, spec.players.max + 1)]
    rep.tables += _row_tables(spec, figures, ref, counts)
    rep.tables += _seat_tables(figures, ref, counts)
    _skill_gap(rep, spec, counts, evidence, figures)
    rep.charts += _charts(figures, pols, ref, counts)
    figures["variants"] = _variants_out_of_sample(spec, budget, seed, executor, progress, rep)
    rep.figures = figures
    return rep


def _play_player_count(
    spec: RippleRushGame,
    setup: Setup,
    n: int,
    budget: Budget,
    seed: int,
    executor: Executor | None,
    progress: Callable[[int], None] | None,
    score_rows: list[list[Any]],
) -> tuple[dict[str, Any], dict[str, Tally]]:
    """Self-play of `n` players: each policy at like tables, then mixed tables; the summaries and tallies
    by setting, a row of the score table per setting added to `score_rows`."""
    pols = list(spec.balance.policies)
    per: dict[str, Any] = {}
    evidence: dict[str, Tally] = {}
    settings: list[tuple[str, tuple[str, ...]]] = [(p, (p,)) for p in pols]
    if n >= 2 and len(pols) >= 2:
        settings.append(("mixed", tuple(pols)))
    for k, (label, mix) in enumerate(settings):
        sim = RippleRushSim(setup, n, mix, rotate=True, every_seating=label == "mixed")
        g = budget(f"{n}p {label}")
        tally = run(sim, g, derived_seed(seed, n, k), executor, progress=progress)
        evidence[label] = tally
        per[label] = summarize(tally, n, spec.rows)
        f = per[label]
        score_rows.append(
            [
                n,
                label,
                g,
                round(f["score"]["mean"], 3),
                round(f["score"]["sd"], 3),
                f["score"]["p5"],
                f["score"]["p50"],
                f["score"]["p95"],
                round(f["tie_rate"]["share"], 4),
                round(f["tie_break_decided"]["share"], 4),
                round(f["unplaceable_share"]["share"], 4),
            ]
        )
    return per, evidence


def _score_table(score_rows: list[list[Any]]) -> Table:
    """Score figures per player count and policy."""
    return Table(
        "Scores per player count and policy",
        [
            "players",
            "policy",
            "games",
            "mean",
            "sd",
            "p5",
            "p50",
            "p95",
            "tie rate",
            "tie-break decided",
            "unplaceable share",
        ],
        score_rows,
    )


def _row_tables(spec: RippleRushGame, figures: dict[str, Any], ref: str, counts: list[str]) -> list[Table]:
    """Each row's completion rate, and how often its bonus fires and is used, per player count."""
    return [
        Table(
            f"Row completion rate ({ref}) = each goal card's achievability",
            ["row", "bonus"] + [f"{n}p" for n in counts],
            [
                [r + 1, str(spec.bonuses[r])]
                + [round(figures["players"][n][ref]["rows"][r]["completion"], 4) for n in counts]
                for r in range(spec.rows)
            ],
        ),
        Table(
            f"Row bonuses ({ref}): fired per player-game, share used",
            ["row", "bonus"] + [f"{n}p fired" for n in counts] + [f"{n}p used" for n in counts],
            [
                [r + 1, str(spec.bonuses[r])]
                + [round(figures["players"][n][ref]["rows"][r]["bonus_fired_per_game"], 4) for n in counts]
                + [round(figures["players"][n][ref]["rows"][r]["bonus_used_share"], 4) for n in counts]
                for r in range(spec.rows)
            ],
        ),
    ]


def _seat_tables(figures: dict[str, Any], ref: str, counts: list[str]) -> list[Table]:
    """Win share by seat at like tables and, with mixed tables, by policy."""
    seat_rows = []
    pol_rows = []
    for key in counts:
        if int(key) < 2:
            continue
        for s in figures["players"][key][ref]["win_share_by_seat"]:
            seat_rows.append(
                [int(key), s["seat"], round(s["share"], 4), round(s["low"], 4), round(s["high"], 4)]
            )
        if "mixed" in figures["players"][key]:
            for s in figures["players"][key]["mixed"]["win_share_by_policy"]:
                pol_rows.append(
                    [
                        int(key),
                        s["policy"],
                        s["seat_games"],
                        round(s["win_share"], 4),
                        round(s["low"], 4),
                        round(s["high"], 4),
                        round(s["mean_score"], 3),
                    ]
                )
    tables = [
        Table(
            f"Win share by seat (like tables: {ref} in every seat, ties shared)",
            ["players", "seat", "share", "low", "high"],
            seat_rows,
        )
    ]
    if pol_rows:
        tables.append(
            Table(
                "Skill comparison: win share by policy (mixed tables, every seating in turn; "
                "not a seat test)",
                ["players", "policy", "seat-games", "share", "low", "high", "mean score"],
                pol_rows,
            )
        )
    return tables


def _skill_gap(
    rep: BalanceReport,
    spec: RippleRushGame,
    counts: list[str],
    evidence: dict[str, dict[str, Tally]],
    figures: dict[str, Any],
) -> None:
    """The mean score gap of the strongest policy to random, per player count: a tolerance each, their
    figures and a table (only when both policies are played)."""
    bal = spec.balance
    pols = list(bal.policies)
    gap_rows = []
    strongest = "strong" if "strong" in pols else ("greedy" if "greedy" in pols else None)
    if strongest and "random" in pols and strongest != "random":
        for key in counts:
            ev = MeanDifference(
                Mean.per_table(evidence[key][strongest]["games.score"]),
                Mean.per_table(evidence[key]["random"]["games.score"]),
            )
            tol = _tol(
                f"skill gap {strongest} - random mean score ({key} players)",
                ev,
                bal.skill_gap,
                "skill_gap",
                f"{key}p {strongest}",
                f"{key}p random",
            )
            gap = tol.measured
            figures["players"][key]["skill_gap"] = {
                "strong": strongest,
                "gap": gap,
                "low": tol.low,
                "high": tol.high,
                "confidence": tol.confidence,
            }
            gap_rows.append(
                [int(key), strongest, round(gap, 3), round(tol.low or 0.0, 3), round(tol.high or 0.0, 3)]
            )
            rep.tolerances.append(tol)
        rep.tables.append(
            Table(
                "How much skill matters: mean score gap to random (like tables)",
                ["players", "policy", "gap", "99% low", "99% high"],
                gap_rows,
            )
        )


def _charts(
    figures: dict[str, Any], pols: Sequence[str], ref: str, counts: list[str]
) -> list[Histogram | Bars]:
    """The score distribution and the row completion rates at four players (or the most there are)."""
    four = counts[min(len(counts) - 1, 3)] if counts else None
    if four is None:
        return []
    rr = figures["players"][four][ref]["rows"]
    return [
        Histogram(
            f"Score distribution, {four} players",
            {p: (0, list(figures["players"][four][p]["score_hist"])) for p in pols},
            x_label="score",
        ),
        Bars(
            f"Row completion rate ({ref}, {four} players)",
            [f"row {r['row']}" for r in rr],
            [r["completion"] for r in rr],
            [r["low"] for r in rr],
            [r["high"] for r in rr],
            y_label="share of player-games",
        ),
    ]


def _variants_out_of_sample(
    spec: RippleRushGame,
    budget: Budget,
    seed: int,
    executor: Executor | None,
    progress: Callable[[int], None] | None,
    rep: BalanceReport,
) -> list[dict[str, Any]]:
    """Each variant the build would print (accepted at this seed) is played again on an independent seed
    stream, side by side with the default sheet (same games), and its expected score over the default's is
    bounded by 1 +- variants.tolerance (a ratio of per-game means, delta method)."""
    if spec.variants.count <= 0:
        return []
    from generator.games.ripple_rush.variants import generate_variants

    v = spec.variants
    accepted = [x for x in generate_variants(spec, seed, executor) if x.accepted][: v.count]
    if not accepted:
        return []
    ref = spec.balance.reference_policy
    pol = (ref,)
    tols = rejudge_variants(
        rep,
        RippleRushSim(Setup.from_spec(spec), v.players, pol),
        ((var.code, RippleRushSim(Setup.from_spec(spec, var.bonuses), v.players, pol)) for var in accepted),
        games=budget("variants"),
        seed=seed,
        executor=executor,
        progress=progress,
        score="games.score",
        evidence=Ratio.of,
        name=lambda code: (
            f"variant {code}: expected score / default sheet's ({v.players} players, {ref}, out of sample)"
        ),
        bound=Bound(min=1 - v.tolerance, max=1 + v.tolerance),
        spec_key="game.variants.tolerance",
        accepted_on="the games of seed + variants.seed_offset",
    )
    return [
        {"code": var.code, "build_ratio": var.ratio, "ratio": tol.measured}
        for var, tol in zip(accepted, tols, strict=True)
    ]


def _tolerances(rep: BalanceReport, spec: RippleRushGame, n: int, per: dict[str, Any], t: Tally) -> None:
    """The reference policy's tolerances at n players, with the evidence counted from its like-table tally."""
    bal = spec.balance
    tag = f"{n} player{'s' if n != 1 else ''}, {bal.reference_policy}"
    setting = f"{n}p {bal.reference_policy}"
    score = t["games.score"]
    games = int(score.shape[0])
    pg = games * n
    rows = [Proportion(float(t["rows_done"][r]), pg) for r in range(spec.rows)]
    for r, ev in enumerate(rows):
        rep.tolerances.append(
            _tol(
                f"row {r + 1} completion rate = goal card {r + 1} ({tag})",
                ev,
                bal.goal_completion,
                "goal_completion",
                setting,
            )
        )
    rep.tolerances.append(
        _tol(
            f"easiest/hardest row completion ratio ({tag})",
            Extreme("ratio", tuple(rows)),
            bal.goal_spread,
            "goal_spread",
            setting,
        )
    )
    c = t["counts"]
    rep.tolerances.append(
        _tol(
            f"unplaceable card share ({tag})",
            Proportion(float(c[kernel_board.COUNT_UNPLACEABLE]), float(c[kernel_board.COUNT_DRAWN])),
            bal.unplaceable_share,
            "unplaceable_share",
            setting,
        )
    )
    if n >= 2:
        win, _, shared = winners(score, t["games.colsdone"])
        frac = win / win.sum(axis=1, keepdims=True)
        rep.tolerances.append(
            _tol(
                f"shared-win rate ({tag})",
                Proportion(float(shared.sum()), games),
                bal.tie_rate,
                "tie_rate",
                setting,
            )
        )
        for p in range(n):
            rep.tolerances.append(
                _tol(
                    f"seat {p + 1} win share / fair share 1/{n} ({tag})",
                    Proportion(float(frac[:, p].sum()), games, scale=float(n)),
                    bal.seat_win_share,
                    "seat_win_share",
                    setting,
                )
            )
