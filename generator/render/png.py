"""One page of a PDF -> PNG (pypdfium2 rasteriser), written atomically."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from generator.errors import RenderError
from generator.resources import atomic_write


def write_png(pdf_path: Path, png_path: Path, *, page: int = 0, dpi: int = 110) -> None:
    """Rasterise page `page` (0-based) of `pdf_path` at `dpi` into `png_path` (replaced atomically)."""
    pdf_path, png_path = Path(pdf_path), Path(png_path)
    if dpi <= 0:
        raise RenderError(f"dpi must be positive, got {dpi}")
    if not png_path.parent.is_dir():
        raise RenderError(f"cannot write {png_path}: folder {png_path.parent} does not exist")
    try:
        doc = pdfium.PdfDocument(str(pdf_path))
    except (OSError, pdfium.PdfiumError) as e:
        raise RenderError(f"cannot read {pdf_path}: {e}") from e
    try:
        if not 0 <= page < len(doc):
            raise RenderError(f"{pdf_path} has {len(doc)} page(s); no page {page} (pages count from 0)")
        image = doc[page].render(scale=dpi / 72).to_pil()
        atomic_write(png_path, lambda tmp: image.save(tmp, format="PNG", dpi=(dpi, dpi)), what="the PNG")
    finally:
        doc.close()
