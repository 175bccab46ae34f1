"""Refit memory-card points to full-game play: harder cards in real play earn more points.

Difficulty in play is the censoring-aware mean number of own turns a card is held per completion
(turns held, completed or not, divided by completions). Points are re-dealt in proportion to it, per group
(cat cards and cloud cards separately, so the cat premium stays), by largest remainders so each group's total
is kept exactly; cards never held keep their points. The deck total is therefore unchanged (the guarantee of
the issue is "within 5%"; this keeps it within 0%).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.contract import Refit
from generator.games.raindrops.components import MemoryCard


@dataclass(frozen=True)
class CardPlay:
    """How a card fared in self-play: times taken into a hand, completions, own turns held in all."""

    held: int
    completed: int
    turns_held: float

    @property
    def turns_per_completion(self) -> float:
        """Own turns held per completion (inf when never completed, nan when never held)."""
        if self.held == 0:
            return math.nan
        return self.turns_held / self.completed if self.completed else math.inf


def refit_points(
    cards: Sequence[MemoryCard], completion_stats: Mapping[int, CardPlay], *, minimum: int = 1
) -> dict[int, int]:
    """Proposed points per card id; each group's (cat / cloud) total equals today's, every card >= minimum
    when the group's total allows it."""
    out = {c.id: c.points for c in cards}
    for cat in (False, True):
        group = [c for c in cards if c.cat == cat and completion_stats.get(c.id, CardPlay(0, 0, 0)).held > 0]
        if not group:
            continue
        speeds = [completion_stats[c.id].turns_per_completion for c in group]
        finite = [s for s in speeds if math.isfinite(s)]
        worst = max(finite) if finite else 1.0
        # never completed: at least as hard as the hardest completed card, and at least its turns held
        diff = [
            s if math.isfinite(s) else max(worst, completion_stats[c.id].turns_held) * 1.25
            for s, c in zip(speeds, group)
        ]
        total = sum(c.points for c in group)
        floor_total = minimum * len(group)
        if total < floor_total:
            continue  # cannot give every card the minimum: keep today's points
        spare = total - floor_total
        weight = sum(diff)
        raw = [spare * d / weight if weight > 0 else spare / len(group) for d in diff]
        base = [math.floor(x) for x in raw]
        left = spare - sum(base)
        order = sorted(range(len(group)), key=lambda i: (-(raw[i] - base[i]), -diff[i], group[i].id))
        for i in order[:left]:
            base[i] += 1
        for c, b in zip(group, base):
            out[c.id] = minimum + b
    return out


def total_change(cards: Sequence[MemoryCard], points: Mapping[int, int]) -> float:
    """Relative change of the deck's total points (0.02 = 2% more)."""
    old = sum(c.points for c in cards)
    new = sum(points.get(c.id, c.points) for c in cards)
    return (new - old) / old if old else 0.0


def refit_edit(report: Any) -> Refit | None:
    """The spec edit `pnpkit check --refit` writes: the card points proposed from full-game play
    (None when the check played no full games)."""
    proposal = report.figures.get("full_game", {}).get("refit")
    if not proposal:
        return None
    points = {int(k): int(v) for k, v in proposal["points"].items()}
    return Refit(
        ("game", "memory_cards", "points", "refit"),
        points,
        f"{len(points)} card points (deck total change {proposal['total_change']:+.1%})",
    )
