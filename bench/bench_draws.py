"""Seconds per exact draw check (generator/games/deck/algebra.py): the hand classes and sums of a 60-card deck
(15 ranks x 4 suits, 5-card hands; a 24-land constructed deck, 7 cards and 10 by turn 3) and of a 1,000-row
deck (one card per row: 10 costs, 5 types, 4 colours, 25 ranks), best of N runs each, the exact count
printed beside its time so a fast wrong answer shows. The issue asks < 0.1 s per check of a 60-card deck and
< 1 s for the 1,000-row deck.

    python bench/bench_draws.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.games.deck.algebra import HandCondition
from generator.games.deck.counting import count_hands

RANKS = [str(r) for r in range(1, 16)]
STRAIGHT = {"run": "rank", "length": 5, "order": RANKS}
FLUSH = {"same": "suit", "at_least": 5}
CLASSES: dict[str, dict[str, Any]] = {
    "straight flush": {"all_of": [STRAIGHT, FLUSH]},
    "four of a kind": {"same": "rank", "exactly": 4},
    "full house": {"all_of": [{"same": "rank", "exactly": 3}, {"same": "rank", "exactly": 2}]},
    "flush": {"all_of": [FLUSH, {"none_of": [STRAIGHT]}]},
    "straight": {"all_of": [STRAIGHT, {"none_of": [FLUSH]}]},
    "three of a kind": {
        "all_of": [{"same": "rank", "exactly": 3}, {"none_of": [{"same": "rank", "exactly": 2}]}]
    },
    "two pair": {"same": "rank", "exactly": 2, "values": 2},
    "one pair": {
        "all_of": [
            {"same": "rank", "exactly": 2, "values": 1},
            {"none_of": [{"same": "rank", "at_least": 3}]},
        ]
    },
    "high card": {"all_of": [{"distinct": "rank"}, {"none_of": [STRAIGHT, FLUSH]}]},
    "sum of 5 at most 30": {"sum": "value", "at_most": 30},
}
LANDS: dict[str, tuple[dict[str, Any], int]] = {
    "2-4 lands in 7": ({"where": "type == 'land'", "between": [2, 4]}, 7),
    "3 lands by turn 3 on the draw": ({"where": "type == 'land'", "at_least": 3}, 10),
    "mana value of 7 at most 12": ({"sum": "cost", "at_most": 12}, 7),
    "a land and a 2-drop": (
        {"all_of": [{"where": "type == 'land'", "at_least": 1}, {"where": "cost == 2", "at_least": 1}]},
        7,
    ),
}
BIG: dict[str, tuple[dict[str, Any], int]] = {
    "sum of 7 costs at most 20": ({"sum": "cost", "at_most": 20}, 7),
    "3 creatures and 2 of one colour": (
        {"all_of": [{"where": "type == 'creature'", "at_least": 3}, {"same": "colour", "at_least": 2}]},
        7,
    ),
    "4 of one colour, 4 types": (
        {"all_of": [{"same": "colour", "at_least": 4}, {"distinct": "type", "at_least": 4}]},
        7,
    ),
    "a pair of ranks, no 3 of a colour": (
        {"all_of": [{"same": "rank", "at_least": 2}, {"none_of": [{"same": "colour", "at_least": 3}]}]},
        7,
    ),
    "a run of 4 ranks": ({"run": "rank", "length": 4}, 7),
}


def _where(expr: str, card: dict[str, Any]) -> bool:
    return bool(
        {
            "type == 'land'": card.get("type") == "land",
            "cost == 2": card.get("cost") == 2,
            "type == 'creature'": card.get("type") == "creature",
        }[expr]
    )


def _time(cards: list[dict[str, Any]], cond: dict[str, Any], hand: int, repeat: int) -> tuple[float, str]:
    c = HandCondition.model_validate(cond)
    best = float("inf")
    got = None
    for _ in range(repeat):
        t = time.perf_counter()
        got = count_hands(cards, c, hand, _where)
        best = min(best, time.perf_counter() - t)
    assert got is not None
    return best, f"{got.good:,} / {got.total:,}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sixty = [{"rank": r, "suit": s, "value": int(r)} for r in RANKS for s in "abcd"]
    lands = [{"type": "land", "cost": 0}] * 24 + [{"type": "spell", "cost": 1 + i % 6} for i in range(36)]
    big = [
        {
            "cost": i % 10,
            "type": ["creature", "spell", "land", "item", "event"][i % 5],
            "colour": ["w", "u", "b", "r"][(i // 5) % 4],
            "rank": str(1 + (i // 20) % 25),
        }
        for i in range(1000)
    ]
    rows: list[tuple[str, str, float, str]] = []
    for name, cond in CLASSES.items():
        rows.append(("60 cards, 5 drawn", name, *_time(sixty, cond, 5, args.repeat)))
    for name, (cond, hand) in LANDS.items():
        rows.append(("60 cards, 24 lands", name, *_time(lands, cond, hand, args.repeat)))
    for name, (cond, hand) in BIG.items():
        rows.append(("1,000 rows", name, *_time(big, cond, hand, args.repeat)))
    width = max(len(r[1]) for r in rows)
    for deck, name, seconds, count in rows:
        print(f"{deck:<20} {name:<{width}} {seconds * 1000:8.1f} ms  {count}")
    print(
        f"slowest 60-card check: {max(r[2] for r in rows if r[0] != '1,000 rows') * 1000:.1f} ms; "
        f"slowest 1,000-row check: {max(r[2] for r in rows if r[0] == '1,000 rows') * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
