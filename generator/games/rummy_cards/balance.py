"""The balance report: seeded self-play of meld finders at every player count (compiled kernel, sim.py),
figures, charts and the tolerances of `game.balance`."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from generator.engine.report import BalanceReport, Bars, Headline, Histogram, Table, Tolerance, bounded
from generator.engine.runner import Tally, run
from generator.engine.sequential import Budget, as_budget
from generator.engine.stats import mean_ci, wilson
from generator.engine.verdict import Evidence, Mean, Proportion
from generator.games.rummy_cards import GAME
from generator.games.rummy_cards.sim import ROTATE_RANDOM, simulation_from_spec
from generator.games.rummy_cards.spec import RummyCardsGame, measured_thresholds, unmeasured_thresholds


def balance_report(
    spec: RummyCardsGame,
    *,
    games: int | Budget,
    seed: int,
    executor: object = None,
    progress: Callable[[int], None] | None = None,
    kit: str = "",
) -> BalanceReport:
    """Self-play of meld finders at every player count (like tables: meld finders in every seat); figures,
    charts and tolerances; one random-legal seat in turn as a skill comparison."""
    budget = as_budget(games)
    rep = BalanceReport(kit=kit, game=GAME.id, games_per_setting=budget.default, seed=seed)
    rows_turns, rows_seat, rows_round, rows_skill = [], [], [], []  # type: ignore[var-annotated]
    figs: dict[str, object] = {}
    tol: list[Tolerance] = []
    for P in range(spec.players.min, spec.players.max + 1):
        sim = simulation_from_spec(spec, P)
        setting = f"{P}p meld finders"
        games = budget(setting)
        t = run(sim, games, seed + P, executor, chunk_size=50, progress=progress)  # type: ignore[arg-type]
        n = len(t["games.winner"])
        f: dict[str, object] = {"rounds": n, "solver_giveups": int(t["solver_giveups"].sum())}
        f["turns_to_initial_meld"] = _turns_to_meld(spec, P, t, setting, rows_turns, tol)
        seats = _seat_shares(spec, P, t, setting, rows_seat, tol)
        f["seat_win_share"] = seats
        rep.charts.append(
            Bars(
                f"Win share by seat, {P} players",
                [f"seat {s + 1}" for s in range(P)],
                [x["share"] for x in seats],
                [x["low"] for x in seats],
                [x["high"] for x in seats],
                reference=1 / P,
                y_label="share of rounds",
            )
        )
        rows_round.append(_round_figures(spec, P, t, setting, seats, f, rep, tol))
        f["skill"] = _skill(
            spec,
            P,
            max(1, budget(f"{P}p one random seat", cap=max(1, budget.default // 4))),
            seed,
            executor,
            progress,
            rows_skill,
        )
        figs[f"{P}p"] = f
    rep.tables += _tables(rows_turns, rows_seat, rows_round, rows_skill)
    rep.figures.update(figs)
    rep.tolerances.extend(tol)
    rep.notes += NOTES
    if above := unmeasured_thresholds(spec):
        rep.notes.append(
            f"balance.meld_thresholds {', '.join(map(str, above))}: above initial_meld {spec.initial_meld}, "
            "not measured (a player opens at the initial meld, before reaching them)."
        )
    return rep


NOTES = (
    "Meld finders (exact solver) in every seat; thresholds below initial_meld are measured "
    "in the same rounds, before each player's opening.",
    "Skill: games/4 further rounds per player count with one random-legal player (uniform over "
    "Game.legal_actions: draw, one new meld, one card added to a table meld; under rules.draw "
    "only_when_unable no draw while a turn lays a card, the meld finder's lay alone when none of "
    "those lays) in seat g % players; "
    "per-player mean round score and win share (fair share 1/players), 95% intervals.",
)
"""How the report's figures are measured."""


def _bound(
    spec: RummyCardsGame, tol: list[Tolerance], name: str, evidence: Evidence, key: str, setting: str
) -> None:
    """Add the tolerance `game.balance.<key>` judged on `evidence` to `tol`."""
    tol.append(bounded(name, evidence, getattr(spec.balance, key), f"game.balance.{key}", (setting,)))


def _turns_to_meld(
    spec: RummyCardsGame,
    P: int,
    t: Tally,
    setting: str,
    rows: list[list[object]],
    tol: list[Tolerance],
) -> dict[str, dict[str, float]]:
    """Own turns until a meld of each threshold is possible: figures, table rows, and the tolerance at the
    initial meld."""
    first = t["games.first_possible"]
    ttm = {}
    for ti, thr in enumerate(measured_thresholds(spec)):
        x = first[:, :, ti].ravel()
        ok = x[x > 0].astype(float)
        m, sd, lo, hi = mean_ci(ok.sum(), (ok**2).sum(), len(ok))
        ttm[str(thr)] = {
            "mean": m,
            "sd": sd,
            "low": lo,
            "high": hi,
            "never_share": float((x <= 0).mean()),
        }
        rows.append([P, thr, round(m, 2), round(lo, 2), round(hi, 2), round(float((x <= 0).mean()), 3)])
        if thr == spec.initial_meld:
            # one observation per player-round; players of one round share a deal, but the bound is wide
            _bound(
                spec,
                tol,
                f"turns until the initial meld is possible ({P} players)",
                Mean(len(ok), m, sd),
                "turns_to_initial_meld",
                setting,
            )
    return ttm


def _seat_shares(
    spec: RummyCardsGame,
    P: int,
    t: Tally,
    setting: str,
    rows: list[list[object]],
    tol: list[Tolerance],
) -> list[dict[str, float]]:
    """Each seat's win share with its 95% interval, its table row and its tolerance."""
    n = len(t["games.winner"])
    wins = win_credit(t["games.winners"], P).sum(axis=0)
    seats = []
    for s in range(P):
        p, lo, hi = wilson(float(wins[s]), n)
        seats.append({"share": p, "low": lo, "high": hi})
        rows.append([P, s + 1, round(p, 3), round(lo, 3), round(hi, 3)])
        _bound(
            spec,
            tol,
            f"seat {s + 1} win share / fair share ({P} players)",
            Proportion(float(wins[s]), n, scale=float(P)),
            "seat_win_share",
            setting,
        )
    return seats


def _round_figures(
    spec: RummyCardsGame,
    P: int,
    t: Tally,
    setting: str,
    seats: list[dict[str, float]],
    f: dict[str, object],
    rep: BalanceReport,
    tol: list[Tolerance],
) -> list[object]:
    """Round length, exhausted piles and the winner's margin: figures into `f`, their tolerances, the
    length chart and the headline; returns the row of the rounds table."""
    n = len(t["games.winner"])
    turns = t["games.turns"].astype(float)
    m, sd, lo, hi = mean_ci(turns.sum(), (turns**2).sum(), n)
    f["round_length"] = {"mean": m, "sd": sd, "low": lo, "high": hi}
    _bound(spec, tol, f"mean turns per round ({P} players)", Mean.of(turns), "round_length", setting)
    rep.charts.append(
        Histogram(
            f"Round length, {P} players", {f"{P}p": (0, np.bincount(t["games.turns"]).tolist())}, "turns"
        )
    )
    ex, elo, ehi = wilson(float(t["games.exhausted"].sum()), n)
    f["exhausted_share"] = {"share": ex, "low": elo, "high": ehi}
    _bound(
        spec,
        tol,
        f"rounds ending with an exhausted pile ({P} players)",
        Proportion(float(t["games.exhausted"].sum()), n),
        "exhausted_share",
        setting,
    )
    sc = t["games.scores"]
    srt = np.sort(sc, axis=1)
    margin = (srt[:, -1] - srt[:, -2]).astype(float)
    mm, msd, mlo, mhi = mean_ci(margin.sum(), (margin**2).sum(), n)
    f["winner_margin"] = {"mean": mm, "sd": msd, "low": mlo, "high": mhi}
    f["zero_sum_violations"] = int((sc.sum(axis=1) != 0).sum())
    _bound(
        spec,
        tol,
        f"winner's margin over the best loser ({P} players)",
        Mean.of(margin),
        "winner_margin",
        setting,
    )
    # round scores are zero-sum (their mean is always 0): the headline score is the winner's round score
    rep.headline[str(P)] = Headline(
        policy="meld finder",
        score_mean=float(srt[:, -1].astype(float).mean()),
        score_label="winner's round score",
        seat_shares=[x["share"] for x in seats],
        game_length=m,
        length_unit="turns per round",
    )
    f["joker_retrievals"] = int(t["joker_retrievals"].sum())
    return [P, round(m, 1), round(ex, 3), round(mm, 1), f["solver_giveups"], f["joker_retrievals"]]


def _tables(
    rows_turns: list[list[object]],
    rows_seat: list[list[object]],
    rows_round: list[list[object]],
    rows_skill: list[list[object]],
) -> list[Table]:
    """The report's tables: turns until a meld, win share by seat, rounds, and the skill comparison."""
    return [
        Table(
            "Own turns until the initial meld is possible",
            ["players", "threshold", "mean", "low", "high", "never"],
            rows_turns,
        ),
        Table("Win share by seat", ["players", "seat", "share", "low", "high"], rows_seat),
        Table(
            "Rounds",
            [
                "players",
                "mean turns",
                "exhausted share",
                "winner margin",
                "solver give-ups",
                "joker retrievals",
            ],
            rows_round,
        ),
        Table(
            "How much skill matters: one random-legal seat (rotating) among meld finders",
            ["players", "player", "mean score", "low", "high", "win share", "low", "high"],
            rows_skill,
        ),
    ]


def _skill(
    spec: RummyCardsGame,
    P: int,
    games: int,
    seed: int,
    executor: object,
    progress: Callable[[int], None] | None,
    rows: list[list[object]],
) -> dict[str, object]:
    """Meld finder versus random-legal at P players: mean score and win share of each, 95% intervals."""
    t = run(
        simulation_from_spec(spec, P, ROTATE_RANDOM),
        games,
        seed + 100 + P,
        executor,  # type: ignore[arg-type]
        chunk_size=50,
        progress=progress,
    )
    sc = t["games.scores"].astype(float)
    seat = t["games.random_seat"]
    n = len(seat)
    rnd = sc[np.arange(n), seat]
    finder = (sc.sum(axis=1) - rnd) / (P - 1)  # zero-sum: the meld finders' mean, one value per round
    rnd_wins = float(win_credit(t["games.winners"], P)[np.arange(n), seat].sum())
    out: dict[str, object] = {"rounds": n}
    for name, x, wins, trials in (
        ("random", rnd, rnd_wins, n),
        ("meld_finder", finder, n - rnd_wins, n * (P - 1)),
    ):
        m, sd, lo, hi = mean_ci(x.sum(), (x**2).sum(), n)
        p, plo, phi = wilson(wins, trials)
        out[name] = {"mean_score": m, "low": lo, "high": hi, "win_share": p, "win_low": plo, "win_high": phi}
        rows.append(
            [P, name, round(m, 1), round(lo, 1), round(hi, 1), round(p, 3), round(plo, 3), round(phi, 3)]
        )
    return out


def win_credit(winners: np.ndarray, players: int) -> np.ndarray:
    """Per round and seat, the share of the win: 1 for a sole winner, 1/k each for k players sharing it
    (rules.exhausted_tie share); `winners` holds a seat bit mask per round."""
    bits = ((winners[:, None] >> np.arange(players)[None, :]) & 1).astype(float)
    credit: np.ndarray = bits / bits.sum(axis=1, keepdims=True)
    return credit


__all__ = ["balance_report", "win_credit"]
