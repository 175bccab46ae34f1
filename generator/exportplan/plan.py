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
        return (
            round((self.trim_w + 2 * self.bleed) * dpi / INCH),
            round((self.trim_h + 2 * self.bleed) * dpi / INCH),
        )


POD_SIZES: Final[dict[str, PodSize]] = {
    # The Game Crafter templates: 1/8 in bleed, 1/8 in safe area inside the trim
    "tgc-poker": PodSize(
        "tgc-poker", 2.5 * INCH, 3.5 * INCH, 0.125 * INCH, 0.125 * INCH
    ),  # 825 x 1125 px at 300 dpi
    "tgc-bridge": PodSize("tgc-bridge", 2.25 * INCH, 3.5 * INCH, 0.125 * INCH, 0.125 * INCH),  # 750 x 1125 px
    "tgc-mini": PodSize("tgc-mini", 1.75 * INCH, 2.5 * INCH, 0.125 * INCH, 0.125 * INCH),  # 600 x 825 px
    "tgc-square": PodSize("tgc-square", 2.5 * INCH, 2.5 * INCH, 0.125 * INCH, 0.125 * INCH),  # 825 x 825 px
    # MakePlayingCards templates: 0.12 in bleed, 0.12 in safe area inside the trim
    "mpc-poker": PodSize("mpc-poker", 2.5 * INCH, 3.5 * INCH, 0.12 * INCH, 0.12 * INCH),  # 822 x 1122 px
    "mpc-bridge": PodSize("mpc-bridge", 2.25 * INCH, 3.5 * INCH, 0.12 * INCH, 0.12 * INCH),  # 747 x 1122 px
    "mpc-mini": PodSize("mpc-mini", 1.75 * INCH, 2.5 * INCH, 0.12 * INCH, 0.12 * INCH),  # 597 x 822 px
    "mpc-tarot": PodSize("mpc-tarot", 2.75 * INCH, 4.75 * INCH, 0.12 * INCH, 0.12 * INCH),  # 897 x 1497 px
    # DriveThruCards templates: 1/8 in bleed, 1/8 in safe area inside the trim
    "dtc-poker": PodSize("dtc-poker", 2.5 * INCH, 3.5 * INCH, 0.125 * INCH, 0.125 * INCH),  # 825 x 1125 px
    "dtc-tarot": PodSize("dtc-tarot", 2.75 * INCH, 4.75 * INCH, 0.125 * INCH, 0.125 * INCH),  # 900 x 1500 px
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
    name: str = ""
    """what a player calls the card (the row's name), or its id"""
    description: str = ""
    """the card's text, for a hover in Tabletop Simulator"""


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
            cards = tuple(
                Card(i, p.face, p, backs.get(_card_number(p.label)), *comp.captions.get(p.face, (p.face, "")))
                for i, p in enumerate(fronts, 1)
            )
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
            return Page(
                cw,
                ch,
                [Place(-cx, -cy, op.ops, clip=(cx, cy, cw, ch), window=op.window)],
                label=f"{component} 1",
                face=component,
            )
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
    dpi = min(
        max_dpi, TTS_MAX_PX * INCH / (TTS_MAX_COLS * trim_w), TTS_MAX_PX * INCH / (TTS_MAX_ROWS * trim_h)
    )
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
    return (
        abs(deck.trim_w - size.trim_w) <= SIZE_TOLERANCE and abs(deck.trim_h - size.trim_h) <= SIZE_TOLERANCE
    ) or (
        abs(deck.trim_w - size.trim_h) <= SIZE_TOLERANCE and abs(deck.trim_h - size.trim_w) <= SIZE_TOLERANCE
    )


def describe(deck: Deck) -> str:
    """'63.5 x 88.9 mm' for messages."""
    return f"{to_mm(deck.trim_w):.1f} x {to_mm(deck.trim_h):.1f} mm"


# ---------------------------------------------------------------- pictures: every page, a hand of cards

SHOWCASE_MAX = 9
"""Most cards a showcase fans out."""
SHOWCASE_DEFAULT = 5
"""Cards a showcase shows when it names none: the deck's first distinct fronts."""
SHOWCASE_SPREAD = 50.0
"""Degrees between the outermost cards of a full fan."""


def page_file(component: str, paper: str, number: int) -> str:
    """`<component>-<paper>-<NN>.png`: pages sort in print order within a component."""
    return f"{safe_name(component)}-{paper}-{number:02d}.png"


def showcase_hand(deck: Deck, ids: Sequence[str]) -> list[Card]:
    """The cards a showcase fans out: those named (first card of each id, in the order given) or the deck's
    first distinct fronts. Raises ValueError naming an id the deck does not hold."""
    by_id: dict[str, Card] = {}
    for card in deck.cards:
        by_id.setdefault(card.id, card)
    if not ids:
        return list(by_id.values())[:SHOWCASE_DEFAULT]
    unknown = [i for i in ids if i not in by_id]
    if unknown:
        known = ", ".join(list(by_id)[:8]) + (", ..." if len(by_id) > 8 else "")
        raise ValueError(f"no card {unknown[0]!r} in {deck.component} (its ids: {known})")
    return [by_id[i] for i in ids[:SHOWCASE_MAX]]


@dataclass(frozen=True)
class FanSlot:
    """Where one card of a fanned hand goes: its turn (degrees, counter-clockwise) and the pixel offset of its
    rotated image's top-left corner on the canvas."""

    angle: float
    x: int
    y: int


def fan_layout(n: int, card_px: tuple[int, int]) -> tuple[tuple[int, int], list[FanSlot]]:
    """A hand of `n` cards fanned like a hand held up: each turned about a point below the hand's middle, the
    leftmost drawn first. Returns the canvas size and a slot per card; the canvas holds every turned card."""
    w, h = card_px
    step = SHOWCASE_SPREAD / max(n - 1, 1) if n > 1 else 0.0
    angles = [SHOWCASE_SPREAD / 2 - i * step if n > 1 else 0.0 for i in range(n)]
    radius = 1.6 * h  # the pivot lies this far below each card's centre
    boxes = []
    for a in angles:
        t = math.radians(a)
        # the card's centre turned about the pivot (0, radius) below the hand's centre; y grows downwards
        cx, cy = -radius * math.sin(t), radius - radius * math.cos(t)
        rw = abs(w * math.cos(t)) + abs(h * math.sin(t))
        rh = abs(w * math.sin(t)) + abs(h * math.cos(t))
        boxes.append((cx - rw / 2, cy - rh / 2, rw, rh))
    margin = 0.04 * h
    x0 = min(b[0] for b in boxes) - margin
    y0 = min(b[1] for b in boxes) - margin
    x1 = max(b[0] + b[2] for b in boxes) + margin
    y1 = max(b[1] + b[3] for b in boxes) + margin
    slots = [FanSlot(a, round(b[0] - x0), round(b[1] - y0)) for a, b in zip(angles, boxes)]
    return (math.ceil(x1 - x0), math.ceil(y1 - y0)), slots
