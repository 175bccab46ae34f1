"""Static legality of a Raindrops kit: component counts and colours, then the generated memory deck and its
proofs (stored covers, fit, distinct patterns, cloud spread, points range).

Light on purpose (`pnpkit validate`): nothing here imports numba or a kernel; generating the deck measures
card difficulty, and `memory.generate_memory_cards` loads that compiled code only when it runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from generator.errors import KitError
from generator.games.raindrops.components import MemoryCard, build_bag, component_problems
from generator.games.raindrops.cover import verify_cover
from generator.games.raindrops.memory import Pattern, generate_memory_cards

if TYPE_CHECKING:
    from generator.games.raindrops.spec import RaindropsGame


def card_problems(spec: RaindropsGame, cards: tuple[MemoryCard, ...]) -> list[tuple[str, str]]:
    """Problems of a generated deck: stored covers, fit, distinctness, cloud spread, points range."""
    mc = spec.memory_cards
    bag = build_bag(spec)
    probs: list[tuple[str, str]] = []
    if len(cards) != mc.count:
        probs.append(("memory_cards.count", f"generator made {len(cards)} cards, expected {mc.count}"))
    first: dict[Pattern, int] = {}
    for card in cards:
        key = f"memory_cards (seed {spec.seed}) card {card.id}"
        probs += [("memory_cards", m) for m in verify_cover(card, bag)]
        rows, cols = len(card.pattern), max((len(r) for r in card.pattern), default=0)
        if rows > mc.grid.rows or cols > mc.grid.columns:
            probs.append(
                (
                    "memory_cards.grid",
                    f"{key}: pattern is {rows} x {cols}, the card grid {mc.grid.rows} x {mc.grid.columns}",
                )
            )
        if not mc.cells.min <= card.cells <= mc.cells.max:
            probs.append(
                ("memory_cards.cells", f"{key}: {card.cells} drops, allowed {mc.cells.min}..{mc.cells.max}")
            )
        if card.pattern in first:
            probs.append(("memory_cards", f"{key}: same pattern as card {first[card.pattern]}"))
        first.setdefault(card.pattern, card.id)
        if card.cat == (card.cloud is not None):
            probs.append(("memory_cards", f"{key}: a card shows either a cloud symbol or a cat"))
        hi = mc.points.max + (mc.points.cat_bonus if card.cat else 0)
        lo = mc.points.min + (mc.points.cat_bonus if card.cat else 0)
        if not lo <= card.points <= hi:
            probs.append(("memory_cards.points", f"{key}: {card.points} points, expected {lo}..{hi}"))
    cats = sum(c.cat for c in cards)
    if cats != mc.cats:
        probs.append(("memory_cards.cats", f"generator made {cats} cat cards, expected {mc.cats}"))
    counts = symbol_counts(spec, cards)
    if counts and max(counts.values()) - min(counts.values()) > 1:
        shown = ", ".join(f"{k} {v}" for k, v in counts.items())
        probs.append(("memory_cards", f"cloud symbols are not spread evenly over the types: {shown}"))
    for i, t in enumerate(spec.cloud_tokens.types):
        for sym, need in t.condition.items():
            if sym in counts and counts[sym] < need:
                probs.append(
                    (
                        f"cloud_tokens.types[{i}].condition.{sym}",
                        f"needs {need} cards showing {sym}, but the deck has {counts[sym]}",
                    )
                )
    return probs


def symbol_counts(spec: RaindropsGame, cards: tuple[MemoryCard, ...]) -> dict[str, int]:
    """How many cards show each cloud symbol (cloud-type order)."""
    return {t.id: sum(c.cloud == t.id for c in cards) for t in spec.cloud_tokens.types}


def legal_problems(spec: RaindropsGame) -> list[tuple[str, str]]:
    """Every static problem of the spec: component counts and colours, then the generated deck and its
    proofs."""
    probs = component_problems(spec)
    if any(
        k.startswith(("colours", "bag", "memory_cards", "cloud_tokens", "window", "rules")) for k, _ in probs
    ):
        return probs  # the deck cannot be generated meaningfully from a broken bag, grid or colour list
    try:
        cards = generate_memory_cards(spec, spec.seed)
    except KitError as e:
        return probs + [("memory_cards", str(e))]
    return probs + card_problems(spec, cards)
