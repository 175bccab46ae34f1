"""Composing a kit: every component of every language as pages of ops, before anything is written."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from generator.i18n.texts import Texts
from generator.layout.ops import Page
from generator.layout.text import Measure
from generator.spec.kit import Kit
from generator.spec.print import PrintSpec

COMPOSERS: dict[str, str] = {
    "ripple_rush": "generator.layout.kits.ripple_rush",
    "peak_dice": "generator.layout.kits.peak_dice",
    "raindrops": "generator.layout.kits.raindrops",
    "rummy_cards": "generator.layout.kits.rummy_cards",
}


@dataclass(frozen=True)
class Component:
    """A composed component: id, localized title and its pages (the first carries the bookmark)."""

    id: str
    title: str
    pages: list[Page]


@dataclass(frozen=True)
class Context:
    """What a composer gets: the kit, one language's texts, text metrics, paper and seed."""

    kit: Kit
    lang: str
    texts: Texts
    measure: Measure
    paper: str
    seed: int
    print: PrintSpec
    extras: Mapping[str, Any] = field(default_factory=dict)
    """Precomputed, language-independent data (generated decks, variants) shared across languages."""


def composer(game_id: str) -> Any:
    """The composer module of a game (has template_context, prepare, compose)."""
    return importlib.import_module(COMPOSERS[game_id])


def template_context(kit: Kit) -> dict[str, Any]:
    """Numbers from the spec that rule templates may use."""
    return dict(composer(kit.game_id).template_context(kit.game))


def compose_kit(ctx: Context) -> list[Component]:
    """Every enabled component of the kit in one language."""
    return list(composer(ctx.kit.game_id).compose(ctx))
