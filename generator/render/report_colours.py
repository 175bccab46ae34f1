"""The colour-vision section of the designers' report: the printed faces that carry the game's suits or
colours (one face per colour where the kit has them: a card front of each suit, not a back that shows them
all), rasterised as printed and under each simulation of `spec.colours` (protanopia, deuteranopia,
tritanopia, greyscale), with the table of every pair of game colours and its CIEDE2000 difference under each.
The faces are chosen from what the components draw, for any game. The pictures are PNGs with no varying
chunks (same faces, same bytes), for the HTML report to embed as data: URIs."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image

from generator.layout.ops import Page, Place, Rect
from generator.render.raster import png_bytes, rasterize
from generator.spec.colours import (
    SIMULATIONS,
    ColourSafety,
    PairMeasure,
    Swatch,
    delta_e,
    palette,
    simulate_pixels,
)
from generator.spec.fonts import KitFonts

VIEW_DPI = 100
"""Pixels per inch of the pictures, at least: enough to tell the suits apart, a few hundred kB in all."""
MIN_FACE_PX = 300
"""The narrowest face pictured is drawn at least this many pixels wide (a poker card: 120 dpi)."""
MIN_PICTURE_PX = 600
"""A picture is at least this many pixels wide: the symbols of a suit can be read in it."""
MAX_DPI = 300
MAX_PICTURE_PX = 2400
"""A picture is at most this wide (unless VIEW_DPI needs more), so five of them stay a few MB at most."""
FACE_GAP = 12.0
"""Points between two faces pictured side by side (and around them)."""

NORMAL = "normal vision"


@dataclass(frozen=True)
class ColourView:
    """One picture of the page: how a reader with `label` sees it, as PNG bytes."""

    label: str
    png: bytes


@dataclass(frozen=True)
class PairRow:
    """Two game colours and their ΔE00 with normal vision and under each simulation, with the check's verdict:
    "error" (close somewhere and the same mark), "note" (close somewhere, marks differ) or "ok"."""

    a: Swatch
    b: Swatch
    normal: float
    under: tuple[tuple[str, float], ...]
    verdict: str


@dataclass(frozen=True)
class ColourCheck:
    """What the report shows of one kit's colours: where the page comes from, its pictures and the pair
    table."""

    component: str
    page: int
    lang: str
    dpi: int
    key: str
    threshold: float
    views: tuple[ColourView, ...]
    pairs: tuple[PairRow, ...]
    faces: tuple[str, ...] = ()
    """The faces pictured side by side (their names, one per colour where the kit has such faces); empty
    when the picture is page `page` of `component`."""


def palette_colours(ops: Sequence[Any]) -> Iterator[str]:
    """Every fill, stroke and tint colour the ops draw (placed faces included), lower-case."""
    for op in ops:
        if isinstance(op, Place):
            yield from palette_colours(op.ops)
            continue
        for name in ("fill", "stroke", "tint"):
            value = getattr(op, name, None)
            if isinstance(value, str):
                yield value.lower()


@dataclass(frozen=True)
class SwatchFace:
    """One printed face (a card front, a sheet) and the game colours it draws."""

    component: str
    """The component's title."""
    name: str
    place: Place
    swatches: frozenset[str]


def face_places(ops: Sequence[Any]) -> Iterator[Place]:
    """Every face a page places (a named Place clipped to its trim, as imposition places a piece; not a window
    onto a larger face), in order."""
    for op in ops:
        if isinstance(op, Place):
            if op.clip is not None and not op.window and op.name:
                yield op
            else:
                yield from face_places(op.ops)


def swatch_faces(component: str, pages: Sequence[Page], swatches: Sequence[str]) -> list[SwatchFace]:
    """The faces of a component's pages that draw any of `swatches` (lower-case hex), each face once."""
    wanted = {s.lower() for s in swatches}
    out: list[SwatchFace] = []
    seen: set[int] = set()
    for page in pages:
        for place in face_places(page.ops):
            if id(place.ops) in seen:
                continue
            seen.add(id(place.ops))
            found = wanted & set(palette_colours(place.ops))
            if found:
                out.append(SwatchFace(component, place.name, place, frozenset(found)))
    return out


def _area(place: Place) -> float:
    _, _, w, h = place.clip or (0.0, 0.0, 0.0, 0.0)
    return round(w * h, 3)


def pick_faces(faces: Sequence[SwatchFace], swatches: Sequence[str]) -> list[SwatchFace]:
    """For each swatch in order, the first face that draws it with the fewest other swatches (a card of that
    suit rather than a back that shows every suit) and, of those, the smallest clip (a piece inside the grid,
    pictured at its trim); each face once, in swatch order."""
    picked: list[SwatchFace] = []
    for swatch in (s.lower() for s in swatches):
        holding = [f for f in faces if swatch in f.swatches]
        if not holding:
            continue
        # min keeps the first of equals; of faces as specific, the one whose clip holds no outer bleed
        best = min(holding, key=lambda f: (len(f.swatches), _area(f.place)))
        if all(best is not p for p in picked):
            picked.append(best)
    return picked


def _trim(place: Place) -> tuple[float, float, float, float]:
    """A pictured face's own box (x, y, w, h): its trim where its clip keeps bleed too, else its clip."""
    return place.trim or place.clip or (0.0, 0.0, 0.0, 0.0)


def faces_page(faces: Sequence[SwatchFace], gap: float = FACE_GAP) -> Page:
    """The faces side by side on one white page, each upright at its own size, FACE_GAP apart."""
    ops: list[Any] = []
    x = gap
    height = max(_trim(f.place)[3] for f in faces) + 2 * gap
    for f in faces:
        cx, cy, cw, ch = _trim(f.place)
        ops.append(Place(x - cx, height - gap - ch - cy, f.place.ops, clip=(cx, cy, cw, ch), name=f.name))
        x += cw + gap
    return Page(x, height, [Rect(0, 0, x, height, fill="#ffffff", stroke=None), *ops])


def faces_dpi(faces: Sequence[SwatchFace], page: Page) -> int:
    """The resolution at which the narrowest face is MIN_FACE_PX wide and the picture MIN_PICTURE_PX (and
    VIEW_DPI at least)."""
    narrowest = min(_trim(f.place)[2] or 1.0 for f in faces)
    need = max(MIN_FACE_PX / (narrowest / 72), MIN_PICTURE_PX / (page.width / 72), VIEW_DPI)
    return min(math.ceil(need), MAX_DPI, max(VIEW_DPI, math.floor(MAX_PICTURE_PX / (page.width / 72))))


def page_views(page: Page, *, fonts: KitFonts | None, dpi: int = VIEW_DPI) -> tuple[ColourView, ...]:
    """The page drawn as printed (the build's own PDF drawing, rasterised by pdfium) and under each
    simulation."""
    size = (max(1, round(page.width / 72 * dpi)), max(1, round(page.height / 72 * dpi)))
    image = next(iter(rasterize([page], [size], fonts=fonts)))
    pixels = np.asarray(image.convert("RGB"), dtype=np.uint8)
    views = [ColourView(NORMAL, png_bytes(image))]
    for simulation in SIMULATIONS:
        views.append(ColourView(simulation, png_bytes(Image.fromarray(simulate_pixels(pixels, simulation)))))
    return tuple(views)


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def pair_rows(game: Any, safety: ColourSafety) -> tuple[str, tuple[PairRow, ...]]:
    """The spec key of the game's colours and one row per pair of them, in palette order."""
    from generator.spec.colours import check_palette

    key, swatches = palette(game)
    result = check_palette(game, safety)
    by_pair: dict[tuple[str, str], list[PairMeasure]] = {}
    for m in result.measures:
        by_pair.setdefault((m.a.id, m.b.id), []).append(m)
    rows = []
    for ms in by_pair.values():
        a, b = ms[0].a, ms[0].b
        close = [m for m in ms if m.delta_e < safety.min_delta_e]
        verdict = "ok" if not close else "error" if a.mark == b.mark else "note"
        rows.append(
            PairRow(
                a, b, delta_e(_rgb(a.hex), _rgb(b.hex)), tuple((m.simulation, m.delta_e) for m in ms), verdict
            )
        )
    return key, tuple(rows)


def colour_check(
    page: Page,
    *,
    component: str,
    page_number: int,
    lang: str,
    game: Any,
    safety: ColourSafety,
    fonts: KitFonts | None,
    dpi: int = VIEW_DPI,
) -> ColourCheck:
    """The report's colour section for `page` (page `page_number`, from 1, of `component`)."""
    key, rows = pair_rows(game, safety)
    return ColourCheck(
        component,
        page_number,
        lang,
        dpi,
        key,
        float(safety.min_delta_e),
        page_views(page, fonts=fonts, dpi=dpi),
        rows,
    )


def faces_check(
    faces: Sequence[SwatchFace],
    *,
    lang: str,
    game: Any,
    safety: ColourSafety,
    fonts: KitFonts | None,
) -> ColourCheck:
    """The report's colour section for `faces` pictured side by side (see `pick_faces`)."""
    key, rows = pair_rows(game, safety)
    page = faces_page(faces)
    dpi = faces_dpi(faces, page)
    titles = ", ".join(dict.fromkeys(f.component for f in faces))
    return ColourCheck(
        titles,
        0,
        lang,
        dpi,
        key,
        float(safety.min_delta_e),
        page_views(page, fonts=fonts, dpi=dpi),
        rows,
        tuple(f.name for f in faces),
    )


__all__ = [
    "MIN_FACE_PX",
    "MIN_PICTURE_PX",
    "NORMAL",
    "VIEW_DPI",
    "ColourCheck",
    "ColourView",
    "PairRow",
    "SwatchFace",
    "colour_check",
    "face_places",
    "faces_check",
    "faces_page",
    "page_views",
    "pick_faces",
    "swatch_faces",
    "pair_rows",
    "palette_colours",
]
