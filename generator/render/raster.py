"""Pages of drawing ops -> pixels: the pages are drawn into one PDF (the same ReportLab drawing as the build)
and each page is rasterised by pdfium, so an exported image is exactly what the printed kit shows."""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from generator.errors import RenderError
from generator.layout.ops import Page
from generator.render.pdf import write_pdf

PNG_LEVEL = 3
"""zlib level for PNGs: 3 writes about 30 % faster than 6 for files about 30 % larger (card art is flat colour)."""

Crop = tuple[float, float, float, float]
"""Points cut off the left, bottom, right and top of a page before rasterising (a card's bleed)."""


def rasterize(pages: Sequence[Page], sizes: Sequence[tuple[int, int]], crops: Sequence[Crop] | None = None, *,
              done: Callable[[], None] | None = None) -> Iterator[Image.Image]:
    """Each page (less its crop) as an RGB image of exactly the given pixel size, in order."""
    if len(sizes) != len(pages) or (crops is not None and len(crops) != len(pages)):
        raise RenderError("rasterize: one size (and crop) per page")
    if not pages:
        return
    fd, name = tempfile.mkstemp(prefix=".pnpkit-raster-", suffix=".pdf")
    os.close(fd)
    path = Path(name)
    try:
        write_pdf(pages, path, title="pnpkit export")
        doc = pdfium.PdfDocument(str(path))
        try:
            for i, (w_px, h_px) in enumerate(sizes):
                crop = crops[i] if crops is not None else (0.0, 0.0, 0.0, 0.0)
                width = pages[i].width - crop[0] - crop[2]
                height = pages[i].height - crop[1] - crop[3]
                scale = max(w_px / width, h_px / height)
                image = doc[i].render(scale=scale, crop=crop, draw_annots=False).to_pil().convert("RGB")
                if image.size != (w_px, h_px):
                    # whole pixels: a card whose proportions round differently is cut by at most a pixel or
                    # two at the right/bottom (no resampling, which would blur and cost more than the render)
                    if image.width >= w_px and image.height >= h_px and image.width - w_px <= 2 and image.height - h_px <= 2:
                        image = image.crop((0, 0, w_px, h_px))
                    else:
                        image = image.resize((w_px, h_px), Image.Resampling.LANCZOS)
                yield image
                if done is not None:
                    done()
        finally:
            doc.close()
    finally:
        path.unlink(missing_ok=True)


def encode(image: Image.Image, fmt: str = "png", *, quality: int = 90, dpi: int | None = None) -> bytes:
    """PNG or JPEG bytes of an image; no timestamps or other varying chunks (same image, same bytes)."""
    buf = io.BytesIO()
    extra: dict[str, object] = {"dpi": (dpi, dpi)} if dpi else {}
    if fmt == "png":
        image.save(buf, format="PNG", optimize=False, compress_level=PNG_LEVEL, **extra)
    elif fmt == "jpeg":
        image.save(buf, format="JPEG", quality=quality, optimize=False, progressive=False, subsampling=0, **extra)
    else:
        raise RenderError(f"unknown image format {fmt!r}; expected png or jpeg")
    return buf.getvalue()


def new_sheet(size: tuple[int, int]) -> Image.Image:
    """A blank (white) sheet to paste cards on."""
    return Image.new("RGB", size, (255, 255, 255))


def paste(sheet: Image.Image, card: Image.Image, at: tuple[int, int]) -> None:
    """Put a card image on a sheet with its top-left corner at `at`."""
    sheet.paste(card, at)
