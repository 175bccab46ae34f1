"""The colour-vision section of the designers' report: one printed page of a kit rasterised as printed and
under each simulation of `spec.colours` (protanopia, deuteranopia, tritanopia, greyscale), with the table of
every pair of game colours and its CIEDE2000 difference under each. The pictures are PNGs with no varying
chunks (same page, same bytes), for the HTML report to embed as data: URIs."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image

from generator.layout.ops import Page, Place
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
"""Pixels per inch of the pictures: enough to tell the suits apart, one page each, a few hundred kB in all."""

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
    """What the report shows of one kit's colours: where the page comes from, its pictures and the pair table."""

    component: str
    page: int
    lang: str
    dpi: int
    key: str
    threshold: float
    views: tuple[ColourView, ...]
    pairs: tuple[PairRow, ...]


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


def page_views(page: Page, *, fonts: KitFonts | None, dpi: int = VIEW_DPI) -> tuple[ColourView, ...]:
    """The page drawn as printed (the build's own PDF drawing, rasterised by pdfium) and under each simulation."""
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


__all__ = [
    "NORMAL",
    "VIEW_DPI",
    "ColourCheck",
    "ColourView",
    "PairRow",
    "colour_check",
    "page_views",
    "pair_rows",
    "palette_colours",
]
