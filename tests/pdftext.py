"""Text of a PDF page read with pdfium (pypdfium2), in the order pdfplumber's `extract_text` gives it: lines
top to bottom (characters whose tops lie within 3 pt of a line's first are on it), each left to right;
whitespace dropped. For tests that look for sentences on pattern-heavy pages: pdfplumber parses every path of
a page in Python (the Peak Dice sheets' waves made that 0.1-0.3 s a page, most of their house-rule tests'
time), pdfium reads the same text in C in a few milliseconds. tests/test_pdftext.py checks the two agree on
real pages."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

Box = tuple[float, float, float, float]
"""(x0, top, x1, bottom) in points from the page's top-left corner, as pdfplumber's `crop` takes it."""


def page_text(pdf: Path, box: Box | None = None, *, page: int = 0, y_tolerance: float = 3.0) -> str:
    """The characters of `page` (those overlapping `box`, if given), whitespace dropped."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        pg = doc[page]
        height = pg.get_height()
        textpage = pg.get_textpage()
        chars = []
        for i in range(textpage.count_chars()):
            ch = chr(pdfium_c.FPDFText_GetUnicode(textpage, i))
            if ch.isspace() or ch in ("\0", "\ufffe"):
                continue
            left, bottom, right, top = textpage.get_charbox(i, loose=True)
            top, bottom = height - top, height - bottom
            if box is not None and (right <= box[0] or left >= box[2] or bottom <= box[1] or top >= box[3]):
                continue
            chars.append((top, left, ch))
    finally:
        doc.close()
    lines: list[list[tuple[float, str]]] = []
    first = -1e9
    for top, left, ch in sorted(chars):
        if top - first > y_tolerance:
            lines.append([])
            first = top
        lines[-1].append((left, ch))
    return "".join(ch for line in lines for _, ch in sorted(line))


def page_size(pdf: Path, page: int = 0) -> tuple[float, float]:
    """(width, height) of the page in points."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        w, h = doc[page].get_size()
        return float(w), float(h)
    finally:
        doc.close()
