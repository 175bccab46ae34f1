"""Pages of drawing ops -> pixels: the pages are drawn into one PDF (the same ReportLab drawing as the build)
and each page is rasterised by pdfium, so an exported image is exactly what the printed kit shows."""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import pypdfium2 as pdfium
from PIL import Image

from generator.errors import RenderError
from generator.layout.ops import Page
from generator.render.pdf import pdf_bytes
from generator.render.pdfium_lock import PDFIUM
from generator.spec.fonts import KitFonts

PNG_LEVEL = 3
"""zlib level for PNGs: level 3 spends about half the CPU of level 6 on a card (7 vs 13 ms at 300 dpi) for
files about a third larger; the export is mostly encoding, so speed wins."""

Crop = tuple[float, float, float, float]
"""Points cut off the left, bottom, right and top of a page before rasterising (a card's bleed)."""


def rasterize(
    pages: Sequence[Page],
    sizes: Sequence[tuple[int, int]],
    crops: Sequence[Crop] | None = None,
    *,
    done: Callable[[], None] | None = None,
    fonts: KitFonts | None = None,
    greyscale: bool = False,
) -> Iterator[Image.Image]:
    """Each page (less its crop) as an RGB image of exactly the given pixel size, in order, drawn as the
    printed PDF draws it (the kit's `fonts` and `greyscale` included)."""
    if len(sizes) != len(pages) or (crops is not None and len(crops) != len(pages)):
        raise RenderError("rasterize: one size (and crop) per page")
    if not pages:
        return
    # drawn in memory: a raster for a check or an export opens no temporary file
    data = pdf_bytes(pages, title="pnpkit export", fonts=fonts, greyscale=greyscale)
    with PDFIUM:
        yield from _rendered(pdfium.PdfDocument(data), pages, sizes, crops, done)


def _rendered(
    doc: pdfium.PdfDocument,
    pages: Sequence[Page],
    sizes: Sequence[tuple[int, int]],
    crops: Sequence[Crop] | None,
    done: Callable[[], None] | None,
) -> Iterator[Image.Image]:
    """`rasterize`'s pictures of an open document (closed at the end)."""
    try:
        for i, (w_px, h_px) in enumerate(sizes):
            crop = crops[i] if crops is not None else (0.0, 0.0, 0.0, 0.0)
            width = pages[i].width - crop[0] - crop[2]
            height = pages[i].height - crop[1] - crop[3]
            # pdfium rounds the page and each crop to whole pixels, so ask for a pixel or so more and cut the
            # excess evenly off the edges (no resampling: it would blur, and would cost more than the render)
            scale = max(w_px / width, h_px / height) * (1 + 1.2 / min(w_px, h_px))
            image = doc[i].render(scale=scale, crop=crop, draw_annots=False).to_pil().convert("RGB")
            dx, dy = image.width - w_px, image.height - h_px
            if 0 <= dx <= 6 and 0 <= dy <= 6:
                image = image.crop((dx // 2, dy // 2, dx // 2 + w_px, dy // 2 + h_px))
            else:
                image = image.resize((w_px, h_px), Image.Resampling.LANCZOS)
            yield image
            if done is not None:
                done()
    finally:
        doc.close()


def encode(image: Image.Image, fmt: str = "png", *, quality: int = 90, dpi: int | None = None) -> bytes:
    """PNG or JPEG bytes of an image; no timestamps or other varying chunks (same image, same bytes)."""
    buf = io.BytesIO()
    extra: dict[str, object] = {"dpi": (dpi, dpi)} if dpi else {}
    if fmt == "png":
        return png_bytes(image, dpi=dpi)
    elif fmt == "jpeg":
        image.save(
            buf, format="JPEG", quality=quality, optimize=False, progressive=False, subsampling=0, **extra
        )
    else:
        raise RenderError(f"unknown image format {fmt!r}; expected png or jpeg")
    return buf.getvalue()


def new_sheet(size: tuple[int, int]) -> Image.Image:
    """A blank (white) sheet to paste cards on."""
    return Image.new("RGB", size, (255, 255, 255))


def paste(sheet: Image.Image, card: Image.Image, at: tuple[int, int]) -> None:
    """Put a card image on a sheet with its top-left corner at `at`."""
    sheet.paste(card, at)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def png_bytes(image: Image.Image, *, dpi: int | None = None, alpha: bool = False) -> bytes:
    """An 8-bit RGB (or, with `alpha`, RGBA) PNG with the 'Up' filter on every row (flat card art compresses
    as well as with Pillow's adaptive filters, in about half the time) and only IHDR, pHYs, IDAT, IEND: same
    pixels, same bytes."""
    channels, colour_type = (4, 6) if alpha else (3, 2)
    pixels = np.asarray(image.convert("RGBA" if alpha else "RGB"), dtype=np.uint8)
    h, w, _ = pixels.shape
    rows = pixels.reshape(h, w * channels)
    raw = np.empty((h, w * channels + 1), dtype=np.uint8)
    raw[:, 0] = 2  # filter type Up
    raw[0, 1:] = rows[0]
    np.subtract(rows[1:], rows[:-1], out=raw[1:, 1:])  # uint8 wraps modulo 256, as PNG wants
    out = [b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, colour_type, 0, 0, 0))]
    if dpi:
        ppm = round(dpi / 0.0254)
        out.append(_chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)))
    out.append(_chunk(b"IDAT", zlib.compress(raw.tobytes(), PNG_LEVEL)))
    out.append(_chunk(b"IEND", b""))
    return b"".join(out)


def png_rgba(image: Image.Image) -> bytes:
    """`png_bytes` keeping the image's transparency."""
    return png_bytes(image, alpha=True)
