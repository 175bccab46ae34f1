"""One page of a PDF -> PNG (pypdfium2 rasteriser), written atomically."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pypdfium2 as pdfium

from generator.errors import RenderError
from generator.render.pdfium_lock import PDFIUM
from generator.resources import atomic_write


@contextmanager
def _document(pdf_path: Path) -> Iterator[pdfium.PdfDocument]:
    """The PDF at `pdf_path`, open for the block with PDFIUM held; a located error if it cannot be read."""
    with PDFIUM:
        try:
            doc = pdfium.PdfDocument(str(pdf_path))
        except (OSError, pdfium.PdfiumError) as e:
            raise RenderError(f"cannot read {pdf_path}: {e}") from e
        try:
            yield doc
        finally:
            doc.close()


@contextmanager
def _page(pdf_path: Path, page: int) -> Iterator[pdfium.PdfPage]:
    """Page `page` (0-based) of the PDF at `pdf_path`, open for the block; located errors if it is missing."""
    with _document(pdf_path) as doc:
        if not 0 <= page < len(doc):
            raise RenderError(f"{pdf_path} has {len(doc)} page(s); no page {page} (pages count from 0)")
        yield doc[page]


def write_png(pdf_path: Path, png_path: Path, *, page: int = 0, dpi: int = 110) -> None:
    """Rasterise page `page` (0-based) of `pdf_path` at `dpi` into `png_path` (replaced atomically)."""
    pdf_path, png_path = Path(pdf_path), Path(png_path)
    if dpi <= 0:
        raise RenderError(f"dpi must be positive, got {dpi}")
    if not png_path.parent.is_dir():
        raise RenderError(f"cannot write {png_path}: folder {png_path.parent} does not exist")
    with _page(pdf_path, page) as pg:
        image = pg.render(scale=dpi / 72).to_pil()
    atomic_write(png_path, lambda tmp: image.save(tmp, format="PNG", dpi=(dpi, dpi)), what="the PNG")


def page_png(pdf_path: Path, page: int, *, dpi: int = 80) -> bytes:
    """Page `page` (0-based) of `pdf_path` as PNG bytes (the live preview's pictures)."""
    from generator.render.raster import png_bytes

    with _page(pdf_path, page) as pg:
        return png_bytes(pg.render(scale=dpi / 72).to_pil())


def page_count(pdf_path: Path) -> int:
    """How many pages the PDF at `pdf_path` has."""
    with _document(pdf_path) as doc:
        return len(doc)
