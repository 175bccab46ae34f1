"""An independent reader of ink coverage: a PDF's pages rastered at a low resolution (pypdfium2), the share of
the printable area (inside the printer's margin) that is not white, over the printed sides (blank backs left
out). The tests hold the build summary's estimate from the ops (generator.layout.ink) against it."""

from __future__ import annotations

from pathlib import Path
from typing import Final

INK_DPI: Final = 24
"""Raster resolution of the measure: about 1 mm a pixel, a few milliseconds a page."""
WHITE: Final = 250
"""A pixel with every channel at or above this is paper."""


def ink_coverage(pdf: Path, margin: float) -> float:
    """Share (0..1) of the printable area inked, over the pages of `pdf` that print anything; 0.0 for a file
    of blank pages. `margin`: the printer's margin in points."""
    import numpy as np
    import pypdfium2 as pdfium

    scale = INK_DPI / 72
    inked = 0
    area = 0
    doc = pdfium.PdfDocument(pdf)
    try:
        for page in doc:
            image = page.render(scale=scale).to_numpy()
            page.close()
            edge = int(round(margin * scale))
            inside = image[edge : image.shape[0] - edge, edge : image.shape[1] - edge, :3]
            ink = int(np.count_nonzero((inside < WHITE).any(axis=2)))
            if ink:
                inked += ink
                area += inside.shape[0] * inside.shape[1]
    finally:
        doc.close()
    return inked / area if area else 0.0


__all__ = ["ink_coverage"]
