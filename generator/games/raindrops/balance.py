"""Balance of a Raindrops kit: printed points vs measured difficulty (seeded solo games per memory card),
cloud-condition reachability, then the full games (self-play, `sim.full_game_report`). Static legality is in
`legal.py`."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from generator.engine.report import BalanceReport, Bars, Table, Tolerance, bounded
from generator.engine.runner import Executor, Tally, derived_seed, run
from generator.engine.sequential import Budget, as_budget
from generator.engine.stats import mean_ci, spearman, wilson
from generator.engine.verdict import Extreme, Proportion, RankCorrelationOfMeans
from generator.games.raindrops import kernel_parts  # noqa: F401 (registers the game's compile parts)
from generator.games.raindrops.components import build_bag
from generator.games.raindrops.difficulty import measure
from generator.games.raindrops.legal import symbol_counts
from generator.games.raindrops.memory import generate_memory_cards

if TYPE_CHECKING:
    from generator.games.raindrops.components import MemoryCard
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
    bal = spec.balance
    budget = as_budget(games)
    games = budget("cards", cap=bal.max_games)
    cards = generate_memory_cards(spec, spec.seed)
    tally = measure(
        spec,
        [c.pattern for c in cards],
        build_bag(spec),
        games,
        derived_seed(seed, OUT_OF_SAMPLE),
        executor,
        progress,
    )
    n = tally["runs"].astype(float)
    stats = [
        mean_ci(float(tally["drops_sum"][i]), float(tally["drops_sq"][i]), n[i]) for i in range(len(cards))
    ]
    diff = np.array([s[0] for s in stats])
    reach = _cloud_reach(spec, cards, diff, budget, seed, executor)
    rep = BalanceReport(kit=kit, game="raindrops", games_per_setting=budget.default, seed=seed)
    rep.tolerances += _card_tolerances(spec, cards, tally, stats, diff, reach)
    rep.tables.append(_card_table(cards, stats, tally))
    rep.tables.append(_cloud_table(spec, cards, reach))
    rep.charts += _charts(cards, stats, diff, reach)
    rep.figures["memory_cards"] = _card_figures(spec, cards, tally, stats, diff)
    rep.figures["cloud_reach"] = {
        "cards_completed": bal.cloud_reach_cards,
        "spread": reach.spread,
        "symbol_counts": symbol_counts(spec, cards),
        "types": {
            t: {"rate": reach.iv[t][0], "low": reach.iv[t][1], "high": reach.iv[t][2]} for t in reach.types
        },
    }
    rep.notes += _notes(spec, games, seed)
    if bal.play is not None:
        _add_full_games(rep, spec, cards, budget, seed, executor, progress)
    return rep


@dataclass(frozen=True)
class _Reach:
    """How often simulated players meet each cloud condition: the tally, its runs, per type the rate with
    its 95% interval, the rates in type order and their spread."""

    tally: Tally
    runs: float
    types: list[str]
    iv: dict[str, tuple[float, float, float]]
    rates: list[float]
    spread: float


def _cloud_reach(
    spec: RaindropsGame,
    cards: tuple[MemoryCard, ...],
    diff: np.ndarray,
    budget: Budget,
    seed: int,
    executor: Executor | None,
) -> _Reach:
    """Simulated players complete `cloud_reach_cards` cards, easier ones more likely: which cloud
    conditions do they meet?"""
    bal = spec.balance
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
    return _Reach(reach, runs, types, reach_iv, rates, spread)


def _card_tolerances(
    spec: RaindropsGame,
    cards: tuple[MemoryCard, ...],
    tally: Tally,
    stats: list[tuple[float, float, float, float]],
    diff: np.ndarray,
    reach: _Reach,
) -> list[Tolerance]:
    """Points against difficulty, the spread of cloud reach rates and the share of unfinished solo games."""
    mc = spec.memory_cards
    bal = spec.balance
    n = tally["runs"].astype(float)
    points = np.array([c.points for c in cards], float)
    ses = tuple(float(s[1]) / math.sqrt(max(1.0, float(k))) for s, k in zip(stats, n, strict=True))
    return [
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
            Extreme(
                "range",
                tuple(Proportion(float(reach.tally["met"][i]), reach.runs) for i in range(len(reach.types))),
            ),
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


def _card_table(
    cards: tuple[MemoryCard, ...], stats: list[tuple[float, float, float, float]], tally: Tally
) -> Table:
    """Each memory card's printed points and its difficulty at build and here, with the 95% interval."""
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
    return Table(
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


def _cloud_table(spec: RaindropsGame, cards: tuple[MemoryCard, ...], reach: _Reach) -> Table:
    """Each cloud condition, the cards showing its symbol, and how often it is met."""
    bal = spec.balance
    return Table(
        f"Cloud tokens: share of players meeting each condition after "
        f"{bal.cloud_reach_cards} completed cards",
        ["type", "condition", "cards showing it", "reach", "95% low", "95% high"],
        [
            [
                t.id,
                ", ".join(f"{v} {s}" for s, v in sorted(t.condition.items())),
                symbol_counts(spec, cards)[t.id],
                round(reach.iv[t.id][0], 4),
                round(reach.iv[t.id][1], 4),
                round(reach.iv[t.id][2], 4),
            ]
            for t in spec.cloud_tokens.types
        ],
    )


def _charts(
    cards: tuple[MemoryCard, ...],
    stats: list[tuple[float, float, float, float]],
    diff: np.ndarray,
    reach: _Reach,
) -> list[Bars]:
    """Measured difficulty by printed points, and the reach rate of each cloud condition."""
    order = sorted(range(len(cards)), key=lambda i: (cards[i].points, diff[i]))
    return [
        Bars(
            "Memory cards by printed points: measured difficulty (mean drops)",
            [f"#{cards[i].id} {cards[i].points}p{' cat' if cards[i].cat else ''}" for i in order],
            [float(diff[i]) for i in order],
            [float(stats[i][2]) for i in order],
            [float(stats[i][3]) for i in order],
            None,
            "drops",
        ),
        Bars(
            "Cloud conditions: reach rate",
            reach.types,
            reach.rates,
            [reach.iv[t][1] for t in reach.types],
            [reach.iv[t][2] for t in reach.types],
            float(np.mean(reach.rates)) if reach.rates else None,
            "share",
        ),
    ]


def _card_figures(
    spec: RaindropsGame,
    cards: tuple[MemoryCard, ...],
    tally: Tally,
    stats: list[tuple[float, float, float, float]],
    diff: np.ndarray,
) -> dict[str, Any]:
    """The memory cards' figures: rank correlations of points (with and without the cat bonus) and of the
    build's difficulty with the measured one, the unfinished share, and each card."""
    mc = spec.memory_cards
    n = tally["runs"].astype(float)
    points = np.array([c.points for c in cards], float)
    base = points - np.array([mc.points.cat_bonus if c.cat else 0 for c in cards], float)
    # spearman takes any 1-D float sequence (it calls np.asarray); a 1-D array is one at run time
    diff_seq = cast(Sequence[float], diff)
    return {
        "generation_seed": spec.seed,
        "spearman_points_difficulty": spearman(cast(Sequence[float], points), diff_seq),
        "spearman_points_less_cat_bonus_difficulty": spearman(cast(Sequence[float], base), diff_seq),
        "spearman_build_vs_check_difficulty": spearman([c.difficulty for c in cards], diff_seq),
        "unfinished_share": float(tally["unfinished"].sum()) / max(1.0, float(n.sum())),
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


def _notes(spec: RaindropsGame, games: int, seed: int) -> list[str]:
    """How difficulty and cloud reach are measured."""
    mc = spec.memory_cards
    return [
        f"Difficulty: mean drops for one player to complete a card alone under the reference policy "
        f"'{mc.difficulty.policy}' (no special actions, no bonus tiles); printed points come from a "
        f"{mc.difficulty.samples}-game sample per card at build (seed {spec.seed}), re-measured here "
        f"out of sample with {games} games per card (seed {seed}, spawn key {OUT_OF_SAMPLE:#x}: "
        f"never the build's stream, even at the kit seed).",
        "Cloud reach: completed cards drawn without replacement with weight 1/difficulty; "
        "cat cards count for no cloud.",
    ]


def _add_full_games(
    rep: BalanceReport,
    spec: RaindropsGame,
    cards: tuple[MemoryCard, ...],
    budget: Budget,
    seed: int,
    executor: Executor | None,
    progress: Callable[[int], None] | None,
) -> None:
    """The full games (`sim.full_game_report`) added to the report."""
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
