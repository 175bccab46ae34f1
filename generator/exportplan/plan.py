"""What an export holds, as data: the decks and sheets of a composed kit, TTS sheet grids, card file names,
print-on-demand sizes. Built from a kit composed in print-shop mode (one face per page, trim + bleed)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from generator.layout.compose import Component
from generator.layout.ops import Page, Place
from generator.units import mm, to_mm

INCH: Final = 72.0

TTS_MAX_COLS: Final = 10
"""Tabletop Simulator reads at most 10 x 7 cards from one deck sheet."""
TTS_MAX_ROWS: Final = 7
TTS_MIN_GRID: Final = 2
"""TTS deck sheets are at least 2 x 2 (its import dialog starts there); spare slots stay blank."""
TTS_MAX_PX: Final = 4096
"""Longest side of a sheet TTS loads reliably."""
TTS_MAX_DPI: Final = 300


@dataclass(frozen=True)
class PodSize:
    """A print-on-demand card format: trim, bleed on each side and the safe inset inside the trim (points)."""

    name: str
    trim_w: float
    trim_h: float
    bleed: float
    safe: float

    def pixels(self, dpi: int) -> tuple[int, int]:
        """Width and height of one card image with its bleed at `dpi`."""
        return (round((self.trim_w + 2 * self.bleed) * dpi / INCH), round((self.trim_h + 2 * self.bleed) * dpi / INCH))


POD_SIZES: Final[dict[str, PodSize]] = {
    # The Game Crafter templates: 1/8 in bleed, 1/8 in safe area inside the trim
    "tgc-poker": PodSize("tgc-poker", 2.5 * INCH, 3.5 * INCH, 0.125 * INCH, 0.125 * INCH),      # 825 x 1125 px at 300 dpi
    "tgc-bridge": PodSize("tgc-bridge", 2.25 * INCH, 3.5 * INCH, 0.125 * INCH, 0.125 * INCH),   # 750 x 1125 px
    "tgc-mini": PodSize("tgc-mini", 1.75 * INCH, 2.5 * INCH, 0.125 * INCH, 0.125 * INCH),       # 600 x 825 px
    "tgc-square": PodSize("tgc-square", 2.5 * INCH, 2.5 * INCH, 0.125 * INCH, 0.125 * INCH),    # 825 x 825 px
}
"""--size choices; 'native' (the component's own trim and the kit's bleed) is the default."""

SIZE_TOLERANCE: Final = mm(0.6)
"""A component matches a size when its trim is within this of the size's trim (poker 63.5 mm = 2.5 in)."""


@dataclass(frozen=True)
class Card:
    """One card of a deck: its place in the deck (1-based), the name of its face and its shop pages."""

    index: int
    id: str
    front: Page
    back: Page | None


@dataclass(frozen=True)
class Deck:
    """A card-like component (cards, tiles, tokens) in deck order."""

    component: str
    title: str
    cards: tuple[Card, ...]
    trim_w: float
    trim_h: float
    bleed: float

    @property
    def shared_back(self) -> Page | None:
        """The one back every card shares, or None when cards have no backs or different ones."""
        backs = {c.back.face for c in self.cards if c.back is not None}
        if len(backs) == 1 and all(c.back is not None for c in self.cards):
            return self.cards[0].back
        return None

    @property
    def has_backs(self) -> bool:
        """Whether the cards print a back."""
        return any(c.back is not None for c in self.cards)


@dataclass(frozen=True)
class Board:
    """A sheet-like component (score sheet, board, rules): its first face, cut out of its first page."""

    component: str
    title: str
    page: Page
    """A page exactly the size of the face, holding it at (0, 0)."""


def _card_number(label: str) -> int:
    return int(label.rsplit(" ", 1)[1])


def decks_and_boards(components: Sequence[Component]) -> tuple[list[Deck], list[Board]]:
    """Split components composed in print-shop mode into decks (every page holds one face with a TrimBox)
    and boards (the rest)."""
    decks: list[Deck] = []
    boards: list[Board] = []
    for comp in components:
        if comp.pages and all(p.trim_box is not None and p.face for p in comp.pages):
            fronts = [p for p in comp.pages if f"{comp.id} front " in p.label]
            backs = {_card_number(p.label): p for p in comp.pages if f"{comp.id} back " in p.label}
            cards = tuple(Card(i, p.face, p, backs.get(_card_number(p.label))) for i, p in enumerate(fronts, 1))
            x0, y0, x1, y1 = fronts[0].trim_box or (0.0, 0.0, 0.0, 0.0)
            decks.append(Deck(comp.id, comp.title, cards, x1 - x0, y1 - y0, x0))
        elif comp.pages:
            boards.append(Board(comp.id, comp.title, first_face(comp.pages[0], comp.id)))
    return decks, boards


def first_face(page: Page, component: str) -> Page:
    """The first clipped face placed on a sheet page, as a page of its own size (no marks, no margins), or the
    whole page when nothing on it is a clipped face."""
    for op in page.ops:
        if isinstance(op, Place) and op.clip is not None and not op.rotate and op.scale == 1.0:
            cx, cy, cw, ch = op.clip
            return Page(cw, ch, [Place(-cx, -cy, op.ops, clip=(cx, cy, cw, ch), window=op.window)],
                        label=f"{component} 1", face=component)
    # no single clipped face (dice nets, stickers drawn straight on the page): the whole page
    return Page(page.width, page.height, list(page.ops), label=f"{component} 1", face=component)


# ---------------------------------------------------------------- Tabletop Simulator

@dataclass(frozen=True)
class SheetGrid:
    """One TTS deck sheet: which cards (indices into the deck), its grid and pixel sizes."""

    number: int
    cards: tuple[int, ...]
    cols: int
    rows: int
    card_px: tuple[int, int]

    @property
    def size_px(self) -> tuple[int, int]:
        """Width and height of the sheet image."""
        return self.cols * self.card_px[0], self.rows * self.card_px[1]


def tts_card_px(trim_w: float, trim_h: float, max_dpi: int = TTS_MAX_DPI) -> tuple[int, int]:
    """Pixel size of one card on a TTS sheet: the largest that lets a full 10 x 7 sheet stay within 4096 px
    on each side, at most max_dpi; the card's proportions are kept."""
    dpi = min(max_dpi, TTS_MAX_PX * INCH / (TTS_MAX_COLS * trim_w), TTS_MAX_PX * INCH / (TTS_MAX_ROWS * trim_h))
    w = min(math.floor(trim_w * dpi / INCH), TTS_MAX_PX // TTS_MAX_COLS)
    h = min(math.floor(trim_h * dpi / INCH), TTS_MAX_PX // TTS_MAX_ROWS)
    return max(w, 1), max(h, 1)


def tts_sheets(n_cards: int, card_px: tuple[int, int]) -> list[SheetGrid]:
    """Deck order split into sheets of at most 10 x 7 cards; each sheet's grid is the smallest holding its
    cards (at least 2 x 2)."""
    per = TTS_MAX_COLS * TTS_MAX_ROWS
    out: list[SheetGrid] = []
    for number, start in enumerate(range(0, n_cards, per), 1):
        idx = tuple(range(start, min(n_cards, start + per)))
        cols = max(TTS_MIN_GRID, min(TTS_MAX_COLS, len(idx)))
        rows = max(TTS_MIN_GRID, math.ceil(len(idx) / cols))
        out.append(SheetGrid(number, idx, cols, rows, card_px))
    return out


def sheet_slot(grid: SheetGrid, k: int) -> tuple[int, int]:
    """Top-left pixel of the k-th card of a sheet (row by row from the top-left, as TTS reads it)."""
    r, c = divmod(k, grid.cols)
    return c * grid.card_px[0], r * grid.card_px[1]


# ---------------------------------------------------------------- print-on-demand card files

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def safe_name(text: str) -> str:
    """A file-name-safe form of an id ('yellow-7-1' stays as it is)."""
    return _UNSAFE.sub("_", text).strip("._") or "card"


def card_file(component: str, index: int, card_id: str, side: str) -> str:
    """`<component>/<index>-<id>-<side>.png`, index zero-padded so files sort in deck order."""
    return f"{safe_name(component)}/{index:03d}-{safe_name(card_id)}-{side}.png"


def matches(deck: Deck, size: PodSize) -> bool:
    """Whether the deck's trim is the size's trim (either orientation)."""
    return ((abs(deck.trim_w - size.trim_w) <= SIZE_TOLERANCE and abs(deck.trim_h - size.trim_h) <= SIZE_TOLERANCE)
            or (abs(deck.trim_w - size.trim_h) <= SIZE_TOLERANCE and abs(deck.trim_h - size.trim_w) <= SIZE_TOLERANCE))


def describe(deck: Deck) -> str:
    """'63.5 x 88.9 mm' for messages."""
    return f"{to_mm(deck.trim_w):.1f} x {to_mm(deck.trim_h):.1f} mm"
