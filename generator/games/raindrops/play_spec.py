"""`game.balance.play`: the full-game tolerances of Raindrops (self-play of the rules engine).

The spec owner hangs `PlayBalance` under `game.balance.play`; every value lives in the kit's YAML.
"""

from __future__ import annotations

from pydantic import Field

from generator.spec.base import Bound, SpecModel


class PartShares(SpecModel):
    """Share of all points scored that comes from each score part (greedy self-play, all seats)."""

    cards: Bound = Field(description="(A) completed memory cards.")
    bonus: Bound = Field(description="(B) bonus tiles, unused points and +1 per used tile.")
    clouds: Bound = Field(description="(C) cloud tokens.")
    thunder: Bound = Field(description="(D) thunder tokens.")
    incomplete: Bound = Field(description="(E) tiles on one incomplete card.")


class PlayBalance(SpecModel):
    """Bounds on full games played by the greedy policy in every seat (and greedy against random)."""

    turn_limit: int = Field(ge=1, description="Safety stop: a game still running after this many turns (all "
                                              "players together) is stopped and counted as 'limit'.")
    seat_advantage: Bound = Field(description="Largest |win share of a seat - 1/players| (shared wins split).")
    rounds: Bound = Field(description="Mean game length in rounds (turns per player).")
    cards_trigger_share: Bound = Field(
        description="Share of games ended by a 10th completed card (the rest: the bag emptied again).")
    limit_share: Bound = Field(description="Share of games stopped by turn_limit (should be 0).")
    parts: PartShares = Field(description="Score composition bounds.")
    greedy_win_share: Bound = Field(
        description="Win share of one greedy player against random players (the policy gap; fair is 1/players).")
    points_speed_spearman: Bound = Field(
        description="Rank correlation of printed card points with turns a card is held per completion in play "
                    "(harder cards should give more points).")
    cloud_take_spread: Bound = Field(
        description="Largest minus smallest take rate (tokens taken per player per game) over cloud types.")
    refit_total_tolerance: float = Field(
        ge=0, le=1, description="`check --refit` keeps the deck's total points within this share of today's.")
