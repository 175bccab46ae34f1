"""Self-play balance of Pig: every seat holds at `balance.hold_at`; each player count is one setting, judged
on the seats' win shares and the game length with generator.engine.verdict, like the built-in games."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from generator.engine.report import BalanceReport, Bars, Headline, Table, bounded
from generator.engine.runner import Executor, Tally, run
from generator.engine.sequential import Budget, as_budget
from generator.engine.verdict import Extreme, Mean, Proportion
from pnpkit_pig.rules import HOLD, ROLL, Pig, State
from pnpkit_pig.spec import PigGame


def hold_at(game: Pig, state: State, threshold: int) -> str:
    """Hold once the turn total reaches `threshold` or would win; roll otherwise."""
    if state.turn_total >= threshold or state.scores[state.seat] + state.turn_total >= game.spec.target:
        return HOLD if HOLD in game.legal_actions(state) else ROLL
    return ROLL


@dataclass(frozen=True)
class SelfPlay:
    """A picklable Simulation (generator.engine.runner): `players` seats of the reference rules."""

    spec: PigGame
    players: int

    def play(self, seed: np.random.SeedSequence, games: int) -> Tally:
        """Play `games` games; per game the win share of every seat (ties split), the rounds and the
        scores."""
        rng = np.random.default_rng(seed)
        game = Pig(self.spec, self.players)
        shares = np.zeros((games, self.players))
        rounds = np.zeros(games, dtype=np.int64)
        scores = np.zeros((games, self.players), dtype=np.int64)
        for g in range(games):
            state = game.new_state(rng)
            while game.to_move(state) is not None:
                state = game.apply(state, hold_at(game, state, self.spec.balance.hold_at))
            out = game.outcome(state)
            shares[g, list(out.winners)] = 1.0 / len(out.winners)
            rounds[g] = -(-out.turns // self.players)
            scores[g] = out.scores
        return {"games.shares": shares, "games.rounds": rounds, "games.scores": scores}


def balance_report(
    spec: PigGame,
    *,
    games: int | Budget,
    seed: int,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
    kit: str = "",
) -> BalanceReport:
    """Self-play every player count of the kit and judge the spec's tolerances."""
    b, budget = spec.balance, as_budget(games)
    rep = BalanceReport(kit=kit, game="pig", games_per_setting=budget.default, seed=seed)
    rep.figures = {"hold_at": b.hold_at, "settings": {}}
    for n in range(spec.players.min, spec.players.max + 1):
        setting = f"{n}p hold at {b.hold_at}"
        g = budget(setting)
        tally = run(SelfPlay(spec, n), g, seed, executor, progress=progress)
        share, rounds = tally["games.shares"], tally["games.rounds"].astype(np.float64)
        seats = tuple(Proportion(float(share[:, s].sum()), g) for s in range(n))
        sd = float(rounds.std(ddof=1)) if g > 1 else 0.0
        rep.tolerances.append(
            bounded(
                f"largest seat win share distance from fair 1/{n} ({n} players)",
                Extreme("max_distance", seats, 1.0 / n),
                b.seat_win_share_gap,
                "game.balance.seat_win_share_gap",
                (setting,),
            )
        )
        rep.tolerances.append(
            bounded(
                f"mean game length in rounds ({n} players)",
                Mean(g, float(rounds.mean()), sd),
                b.game_rounds,
                "game.balance.game_rounds",
                (setting,),
            )
        )
        wins = [p.estimate() for p in seats]
        score_mean = float(tally["games.scores"].mean()) if g else math.nan
        rep.figures["settings"][str(n)] = {
            "games": g,
            "seat_win_share": wins,
            "rounds_mean": float(rounds.mean()),
            "rounds_sd": sd,
            "score_mean": score_mean,
        }
        rep.headline[str(n)] = Headline(
            policy=f"hold at {b.hold_at}",
            score_mean=score_mean,
            seat_shares=wins,
            game_length=float(rounds.mean()),
            length_unit="rounds",
        )
        rep.tables.append(
            Table(
                f"Win share by seat ({n} players, hold at {b.hold_at})",
                ["seat", "win share"],
                [[s + 1, round(w, 4)] for s, w in enumerate(wins)],
            )
        )
        rep.charts.append(
            Bars(
                f"Win share by seat ({n} players)",
                [f"seat {s + 1}" for s in range(n)],
                wins,
                reference=1.0 / n,
                y_label="win share",
            )
        )
    return rep
