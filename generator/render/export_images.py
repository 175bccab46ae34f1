"""Export writers: Tabletop Simulator deck sheets, back images and board tiles; print-on-demand card images.
Plans come from the export room; every image is rasterised from the same drawing as the printed PDF."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from generator.exportplan.plan import (
    INCH,
    TTS_MAX_PX,
    Board,
    Card,
    Deck,
    PodSize,
    SheetGrid,
    card_file,
    fan_layout,
    page_file,
    safe_name,
    sheet_slot,
    tts_card_px,
    tts_sheets,
)
from generator.exportplan.tts import DeckImages
from generator.layout.ops import Page
from generator.render.raster import encode, new_sheet, paste, png_rgba, rasterize
from generator.spec.fonts import KitFonts

Progress = Callable[[], None]


@dataclass(frozen=True)
class Look:
    """How the kit prints, for images drawn from its pages: its `style.fonts` (None: the built-in font) and
    `print.greyscale`, so an exported card shows exactly what the PDF prints."""

    fonts: KitFonts | None = None
    greyscale: bool = False


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _distinct(pages: list[Page]) -> list[Page]:
    """Pages by face name, first occurrence each (faces of the same name are drawn alike)."""
    seen: dict[str, Page] = {}
    for p in pages:
        seen.setdefault(p.face, p)
    return list(seen.values())


@dataclass
class TtsDeckFiles:
    """What was written for one deck: sheet files, back files (relative to the TTS folder) and grids."""

    deck: Deck
    sheets: list[SheetGrid]
    face_files: list[str] = field(default_factory=list)
    back_files: list[str] = field(default_factory=list)


def write_tts_deck(
    deck: Deck,
    folder: Path,
    *,
    fmt: str = "png",
    quality: int = 90,
    max_dpi: int = 300,
    progress: Progress | None = None,
    look: Look = Look(),
) -> TtsDeckFiles:
    """The deck's face sheets (10 x 7 at most, 4096 px at most) and its back: one image when all cards share
    a back, else back sheets laid out like the face sheets. Cards are cut at the trim."""
    ext = "jpg" if fmt == "jpeg" else "png"
    card_px = tts_card_px(deck.trim_w, deck.trim_h, max_dpi)
    sheets = tts_sheets(len(deck.cards), card_px)
    fronts = _distinct([c.front for c in deck.cards])
    backs = _distinct([c.back for c in deck.cards if c.back is not None])
    pages = fronts + backs
    b = deck.bleed
    crop = (b, b, b, b)
    images = dict(
        zip(
            [("front", p.face) for p in fronts] + [("back", p.face) for p in backs],
            rasterize(
                pages,
                [card_px] * len(pages),
                [crop] * len(pages),
                done=progress,
                fonts=look.fonts,
                greyscale=look.greyscale,
            ),
        )
    )
    out = TtsDeckFiles(deck, sheets)
    name = safe_name(deck.component)
    shared = deck.shared_back
    for grid in sheets:
        sheet = new_sheet(grid.size_px)
        back_sheet = new_sheet(grid.size_px) if deck.has_backs and shared is None else None
        for k, i in enumerate(grid.cards):
            card = deck.cards[i]
            paste(sheet, images[("front", card.front.face)], sheet_slot(grid, k))
            if back_sheet is not None and card.back is not None:
                paste(back_sheet, images[("back", card.back.face)], sheet_slot(grid, k))
        rel = f"{name}-sheet-{grid.number}.{ext}"
        _write(folder / rel, encode(sheet, fmt, quality=quality))
        out.face_files.append(rel)
        if back_sheet is not None:
            rel = f"{name}-back-{grid.number}.{ext}"
            _write(folder / rel, encode(back_sheet, fmt, quality=quality))
            out.back_files.append(rel)
    if shared is not None:
        rel = f"{name}-back.{ext}"
        _write(folder / rel, encode(images[("back", shared.face)], fmt, quality=quality))
        out.back_files.append(rel)
    elif not deck.has_backs:  # TTS needs a back: a plain one in the kit's paper white
        rel = f"{name}-back.{ext}"
        _write(folder / rel, encode(new_sheet(card_px), fmt, quality=quality))
        out.back_files.append(rel)
    return out


def tts_images(files: TtsDeckFiles, url: Callable[[str], str]) -> DeckImages:
    """The deck's files as the URLs the saved object points to."""
    unique = files.deck.has_backs and files.deck.shared_back is None
    return DeckImages(
        files.deck,
        tuple(files.sheets),
        tuple(url(f) for f in files.face_files),
        tuple(url(f) for f in files.back_files),
        unique_back=unique,
    )


BOARD_DPI = 150


def write_board(
    board: Board,
    folder: Path,
    *,
    fmt: str = "png",
    quality: int = 90,
    progress: Progress | None = None,
    look: Look = Look(),
) -> tuple[str, float, float]:
    """A board (score sheet, rules) as one image for a Custom_Tile, at 150 dpi or the largest within 4096 px;
    returns the file (relative to `folder`) and the board's width and height in points."""
    w, h = board.page.width, board.page.height
    dpi = min(BOARD_DPI, TTS_MAX_PX * INCH / max(w, h))
    size = (max(1, int(w * dpi / INCH)), max(1, int(h * dpi / INCH)))
    (image,) = rasterize([board.page], [size], done=progress, fonts=look.fonts, greyscale=look.greyscale)
    rel = f"{safe_name(board.component)}.{'jpg' if fmt == 'jpeg' else 'png'}"
    _write(folder / rel, encode(image, fmt, quality=quality))
    return rel, w, h


@dataclass(frozen=True)
class CardImage:
    """One written card image: its manifest row."""

    component: str
    index: int
    id: str
    side: str
    count: int
    file: str
    sha256: str
    size_px: tuple[int, int]


def write_cards(
    deck: Deck,
    folder: Path,
    *,
    dpi: int,
    size: PodSize | None,
    progress: Progress | None = None,
    look: Look = Look(),
) -> list[CardImage]:
    """One PNG per distinct front and back of the deck, trim plus bleed at `dpi` (a print-on-demand size
    fixes the pixels, e.g. tgc-poker 825 x 1125 at 300 dpi), named `<component>/<index>-<id>-<side>.png`."""
    counts: dict[tuple[str, str], int] = {}
    first: dict[tuple[str, str], tuple[int, str, Page]] = {}
    for card in deck.cards:
        for side, page in (("front", card.front), ("back", card.back)):
            if page is None:
                continue
            key = (side, page.face)
            counts[key] = counts.get(key, 0) + 1
            first.setdefault(key, (card.index, card.id if side == "front" else page.face, page))
    keys = list(first)
    pages = [first[k][2] for k in keys]
    if size is not None:
        px = [size.pixels(dpi)] * len(pages)
    else:
        px = [(round(p.width * dpi / INCH), round(p.height * dpi / INCH)) for p in pages]
    out: list[CardImage] = []
    for key, image, wh in zip(
        keys, rasterize(pages, px, done=progress, fonts=look.fonts, greyscale=look.greyscale), px
    ):
        side, _ = key
        index, ident, _page = first[key]
        rel = card_file(deck.component, index, ident, side)
        data = encode(image, "png", dpi=dpi)
        _write(folder / rel, data)
        out.append(
            CardImage(
                deck.component, index, ident, side, counts[key], rel, hashlib.sha256(data).hexdigest(), wh
            )
        )
    return out


PAGE_DPI = 100
"""Pixels per inch of `export --pages` pictures: a page fits a screen and a rulebook's column."""
SHOWCASE_CARD_PX = 600
"""Width of one card in a showcase."""


def write_pages(
    component: str,
    paper: str,
    pages: Sequence[Page],
    folder: Path,
    *,
    dpi: int = PAGE_DPI,
    progress: Progress | None = None,
    look: Look = Look(),
) -> list[str]:
    """Every page of a component as printed (marks, backs and all) as `<component>-<paper>-<NN>.png`."""
    sizes = [(max(1, round(p.width * dpi / INCH)), max(1, round(p.height * dpi / INCH))) for p in pages]
    out = []
    for n, image in enumerate(
        rasterize(pages, sizes, done=progress, fonts=look.fonts, greyscale=look.greyscale), 1
    ):
        rel = page_file(component, paper, n)
        _write(folder / rel, encode(image, "png", dpi=dpi))
        out.append(rel)
    return out


def write_showcase(
    deck: Deck, hand: Sequence[Card], path: Path, *, progress: Progress | None = None, look: Look = Look()
) -> tuple[int, int]:
    """A hand of cards fanned on one transparent PNG (cut at the trim, corners square), for a rulebook, a shop
    page or a crowdfunding post; returns its pixel size."""
    w = SHOWCASE_CARD_PX
    h = max(1, round(w * deck.trim_h / deck.trim_w))
    b = deck.bleed
    fronts = [c.front for c in hand]
    images = list(
        rasterize(
            fronts,
            [(w, h)] * len(fronts),
            [(b, b, b, b)] * len(fronts),
            done=progress,
            fonts=look.fonts,
            greyscale=look.greyscale,
        )
    )
    size, slots = fan_layout(len(images), (w, h))
    canvas = Image.new("RGBA", size, (0, 0, 0, 0))
    for image, slot in zip(images, slots):
        card = image.convert("RGBA")
        edge = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        edge.paste(card, (0, 0))
        turned = edge.rotate(slot.angle, resample=Image.Resampling.BICUBIC, expand=True)
        canvas.alpha_composite(turned, (slot.x, slot.y))
    _write(path, png_rgba(canvas))
    return size


def open_image(path: Path) -> Image.Image:
    """Read an exported image back (tests, checks)."""
    with Image.open(path) as im:
        im.load()
        return im.copy()
