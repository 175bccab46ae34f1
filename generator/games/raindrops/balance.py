"""Balance of a Raindrops kit: printed points vs measured difficulty (seeded solo games per memory card),
cloud-condition reachability, then the full games (self-play, `sim.full_game_report`). Static legality is in
`legal.py`."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np

from generator.engine.report import BalanceReport, Bars, Table, bounded
from generator.engine.runner import Executor, Tally, derived_seed, run
from generator.engine.sequential import Budget, as_budget
from generator.engine.stats import mean_ci, spearman, wilson
from generator.engine.verdict import Extreme, Proportion, RankCorrelationOfMeans
from generator.games.raindrops.components import build_bag
from generator.games.raindrops.difficulty import measure
from generator.games.raindrops.legal import symbol_counts
from generator.games.raindrops.memory import generate_memory_cards

if TYPE_CHECKING:
    from generator.games.raindrops.spec import RaindropsGame


@dataclass(frozen=True)
class CloudReach:
    """Picklable simulation: a player completes `k` cards, easier cards more likely (weight 1/difficulty);
    which cloud conditions do their symbols meet?"""

    symbol: np.ndarray  # [cards] symbol index, -1 on cat cards
    weight: np.ndarray  # [cards] > 0
    need: np.ndarray  # [types, symbols] cards needed per symbol
    k: int

    def play(self, seed: np.random.SeedSequence, games: int) -> Tally:
        """Draw `games` sets of k completed cards (Gumbel top-k) and count met conditions per type."""
        rng = np.random.default_rng(seed)
        keys = np.log(self.weight)[None, :] + rng.gumbel(size=(games, self.weight.shape[0]))
        top = np.argsort(-keys, axis=1, kind="stable")[:, : self.k]
        sym = self.symbol[top]
        n_sym = self.need.shape[1]
        counts = np.stack([(sym == s).sum(axis=1) for s in range(n_sym)], axis=1)  # [games, symbols]
        met = np.all(counts[:, None, :] >= self.need[None, :, :], axis=2)  # [games, types]
        return {"met": met.sum(axis=0).astype(np.int64), "runs": np.array([games], np.int64)}


REACH_PER_GAME = 50
"""Simulated players per unit of the games budget for the cloud-reach check (numpy draws, no game played)."""
OUT_OF_SAMPLE = 0x4F4F53
"""Spawn key of the check's solo-game stream: SeedSequence([seed, OUT_OF_SAMPLE]) never equals the build's
SeedSequence(game.seed), so the printed points (fitted on the build sample) are judged on fresh games even
when the check runs at the kit's own seed."""


def balance_report(
    spec: RaindropsGame,
    *,
    games: int | Budget,
    seed: int,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
    kit: str = "",
) -> BalanceReport:
    """Card-level balance: seeded solo games per memory card re-measure difficulty against the printed
    points (out of sample: a seed stream the build never used); simulated players measure how often each
    cloud condition is met; then the full games."""
    mc = spec.memory_cards
    bal = spec.balance
    budget = as_budget(games)
    games = budget("cards", cap=bal.max_games)
    cards = generate_memory_cards(spec, spec.seed)
    bag = build_bag(spec)
    tally = measure(
        spec, [c.pattern for c in cards], bag, games, derived_seed(seed, OUT_OF_SAMPLE), executor, progress
    )
    n = tally["runs"].astype(float)
    stats = [
        mean_ci(float(tally["drops_sum"][i]), float(tally["drops_sq"][i]), n[i]) for i in range(len(cards))
    ]
    diff = np.array([s[0] for s in stats])
    points = np.array([c.points for c in cards], float)
    base = points - np.array([mc.points.cat_bonus if c.cat else 0 for c in cards], float)
    # spearman takes any 1-D float sequence (it calls np.asarray); a 1-D array is one at run time
    diff_seq = cast(Sequence[float], diff)
    rho = spearman(cast(Sequence[float], points), diff_seq)
    rho_base = spearman(cast(Sequence[float], base), diff_seq)
    rho_build = spearman([c.difficulty for c in cards], diff_seq)
    unf = float(tally["unfinished"].sum()) / max(1.0, float(n.sum()))

    types = [t.id for t in spec.cloud_tokens.types]
    sidx = {t: i for i, t in enumerate(types)}
    need = np.array([[t.condition.get(s, 0) for s in types] for t in spec.cloud_tokens.types], np.int64)
    reach_sim = CloudReach(
        np.array([sidx[c.cloud] if c.cloud else -1 for c in cards], np.int64),
        1.0 / np.maximum(diff, 1e-9),
        need,
        bal.cloud_reach_cards,
    )
    # a simulated player costs microseconds (no game is played): REACH_PER_GAME of them per solo game budget
    reach_games = REACH_PER_GAME * budget("reach", cap=bal.max_games)
    reach = run(reach_sim, reach_games, derived_seed(seed, 0x434C), executor)
    runs = float(reach["runs"].sum())
    reach_iv = {t: wilson(float(reach["met"][i]), runs) for i, t in enumerate(types)}
    rates = [reach_iv[t][0] for t in types]
    spread = (max(rates) - min(rates)) if runs else math.nan

    rep = BalanceReport(kit=kit, game="raindrops", games_per_setting=budget.default, seed=seed)
    ses = tuple(float(s[1]) / math.sqrt(max(1.0, float(k))) for s, k in zip(stats, n, strict=True))
    rep.tolerances += [
        bounded(
            "memory cards: Spearman rank correlation of printed points with measured difficulty "
            "(out of sample)",
            RankCorrelationOfMeans(tuple(float(x) for x in points), tuple(float(x) for x in diff), ses),
            bal.points_difficulty_spearman,
            "game.balance.points_difficulty_spearman",
            ("cards",),
        ),
        bounded(
            f"cloud conditions: spread of reach rates after {bal.cloud_reach_cards} completed cards",
            Extreme("range", tuple(Proportion(float(reach["met"][i]), runs) for i in range(len(types)))),
            bal.cloud_reach_spread,
            "game.balance.cloud_reach_spread",
            ("cards", "reach"),
        ),
        bounded(
            f"memory cards: share of solo games unfinished after {mc.difficulty.max_drops} drops",
            Proportion(float(tally["unfinished"].sum()), float(n.sum())),
            bal.unfinished_share,
            "game.balance.unfinished_share",
            ("cards",),
        ),
    ]
    rows = []
    for c, (m, _sd, lo, hi), u in zip(cards, stats, tally["unfinished"], strict=True):
        rows.append(
            [
                c.id,
                c.cells,
                c.cloud or "cat",
                c.points,
                round(c.difficulty, 3),
                round(m, 3),
                round(lo, 3),
                round(hi, 3),
                int(u),
            ]
        )
    rep.tables.append(
        Table(
            "Memory cards: printed points and measured difficulty (mean drops to complete alone)",
            [
                "card",
                "drops",
                "symbol",
                "points",
                "difficulty (build)",
                "difficulty (check)",
                "95% low",
                "95% high",
                "unfinished",
            ],
            rows,
        )
    )
    rep.tables.append(
        Table(
            f"Cloud tokens: share of players meeting each condition after "
            f"{bal.cloud_reach_cards} completed cards",
            ["type", "condition", "cards showing it", "reach", "95% low", "95% high"],
            [
                [
                    t.id,
                    ", ".join(f"{v} {s}" for s, v in sorted(t.condition.items())),
                    symbol_counts(spec, cards)[t.id],
                    round(reach_iv[t.id][0], 4),
                    round(reach_iv[t.id][1], 4),
                    round(reach_iv[t.id][2], 4),
                ]
                for t in spec.cloud_tokens.types
            ],
        )
    )
    order = sorted(range(len(cards)), key=lambda i: (cards[i].points, diff[i]))
    rep.charts.append(
        Bars(
            "Memory cards by printed points: measured difficulty (mean drops)",
            [f"#{cards[i].id} {cards[i].points}p{' cat' if cards[i].cat else ''}" for i in order],
            [float(diff[i]) for i in order],
            [float(stats[i][2]) for i in order],
            [float(stats[i][3]) for i in order],
            None,
            "drops",
        )
    )
    rep.charts.append(
        Bars(
            "Cloud conditions: reach rate",
            types,
            rates,
            [reach_iv[t][1] for t in types],
            [reach_iv[t][2] for t in types],
            float(np.mean(rates)) if rates else None,
            "share",
        )
    )
    rep.figures["memory_cards"] = {
        "generation_seed": spec.seed,
        "spearman_points_difficulty": rho,
        "spearman_points_less_cat_bonus_difficulty": rho_base,
        "spearman_build_vs_check_difficulty": rho_build,
        "unfinished_share": unf,
        "cards": [
            {
                "id": c.id,
                "cells": c.cells,
                "cloud": c.cloud,
                "cat": c.cat,
                "points": c.points,
                "difficulty_build": c.difficulty,
                "difficulty": s[0],
                "difficulty_sd": s[1],
                "difficulty_low": s[2],
                "difficulty_high": s[3],
                "unfinished": int(u),
            }
            for c, s, u in zip(cards, stats, tally["unfinished"], strict=True)
        ],
    }
    rep.figures["cloud_reach"] = {
        "cards_completed": bal.cloud_reach_cards,
        "spread": spread,
        "symbol_counts": symbol_counts(spec, cards),
        "types": {t: {"rate": reach_iv[t][0], "low": reach_iv[t][1], "high": reach_iv[t][2]} for t in types},
    }
    rep.notes.append(
        f"Difficulty: mean drops for one player to complete a card alone under the reference policy "
        f"'{mc.difficulty.policy}' (no special actions, no bonus tiles); printed points come from a "
        f"{mc.difficulty.samples}-game sample per card at build (seed {spec.seed}), re-measured here "
        f"out of sample with {games} games per card (seed {seed}, spawn key {OUT_OF_SAMPLE:#x}: "
        f"never the build's stream, even at the kit seed)."
    )
    rep.notes.append(
        "Cloud reach: completed cards drawn without replacement with weight 1/difficulty; "
        "cat cards count for no cloud."
    )
    if bal.play is not None:
        from generator.games.raindrops.sim import full_game_report

        tables, charts, tols, figures = full_game_report(
            spec, cards, games=budget, seed=derived_seed(seed, 0x46554C), executor=executor, progress=progress
        )
        rep.tables += tables
        rep.charts += charts
        rep.tolerances += tols
        rep.headline = figures.pop("headline", {})
        rep.figures["full_game"] = figures
        rep.notes.append(
            "Full games: per player count and mode (greedy in every seat = like tables for the seat "
            "test; one greedy against random, the greedy seat rotating = a skill comparison), at most "
            "game.balance.play.games each because a full game costs far more than a solo card."
        )
    return rep
