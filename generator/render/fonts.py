"""The vendored fonts: registered once with ReportLab, measured, and checked for missing glyphs."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from generator.errors import RenderError
from generator.layout.ops import Page, iter_texts
from generator.resources import fonts_dir

FONT_FILES: Final[dict[str, Path]] = {
    "regular": fonts_dir() / "BIZUDPGothic-Regular.ttf",
    "bold": fonts_dir() / "BIZUDPGothic-Bold.ttf",
}
"""Font key (as in Text.font) -> vendored TTF."""

FONT_NAMES: Final[dict[str, str]] = {"regular": "BIZUDPGothic-Regular", "bold": "BIZUDPGothic-Bold"}
"""Font key -> the name registered with ReportLab (and the embedded font's base name)."""

_registered = False


def register_fonts() -> None:
    """Register the vendored fonts with ReportLab (idempotent; parses each TTF once per process)."""
    global _registered
    if _registered:
        return
    for key, path in FONT_FILES.items():
        if not path.is_file():
            raise RenderError(f"font file missing: {path}")
        if FONT_NAMES[key] not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(FONT_NAMES[key], str(path)))
    _registered = True


def font_name(font: str) -> str:
    """The registered name for a font key; a RenderError for an unknown key."""
    try:
        return FONT_NAMES[font]
    except KeyError:
        raise RenderError(f"unknown font {font!r}; expected one of {', '.join(FONT_NAMES)}") from None


@cache
def _cmap(font: str) -> frozenset[int]:
    register_fonts()
    face = pdfmetrics.getFont(font_name(font)).face
    return frozenset(face.charToGlyph)


def text_width(text: str, font: str, size: float) -> float:
    """Advance width of `text` in points set in font key `font` at `size`."""
    register_fonts()
    return float(pdfmetrics.stringWidth(text, font_name(font), size))


def missing_glyphs(text: str, font: str) -> str:
    """The distinct characters of `text` that the font lacks, in order of first appearance."""
    cmap = _cmap(font)
    return "".join(dict.fromkeys(ch for ch in text if ord(ch) not in cmap))


def _codes(chars: str) -> str:
    return " ".join(f"U+{ord(c):04X} {c!r}" for c in chars)


def check_glyphs(pages: Sequence[Page]) -> None:
    """Raise one RenderError listing every text (id, page, characters) whose characters the font lacks."""
    problems: list[str] = []
    for number, page in enumerate(pages, 1):
        where = f"page {number}" + (f" ({page.label})" if page.label else "")
        for t in iter_texts(page.ops):
            missing = missing_glyphs(t.text, t.font)
            if missing:
                tid = t.text_id or "(no id)"
                problems.append(f"  {where}: text {tid} {t.text!r}: {_codes(missing)}")
    if problems:
        n = len(problems)
        raise RenderError(f"{n} text{'s' if n != 1 else ''} with characters missing from the font "
                          f"(BIZ UDPGothic):\n" + "\n".join(problems))


_INK_PX = 200
"""Pixel size at which ink extents are measured (then scaled to the asked size)."""


@lru_cache(maxsize=4096)
def _ink_unit(text: str, font: str) -> tuple[float, float]:
    from PIL import ImageFont

    face = ImageFont.truetype(str(FONT_FILES[font]), _INK_PX)
    _, top, _, bottom = face.getbbox(text, anchor="ls")
    return -bottom / _INK_PX, -top / _INK_PX


def ink_extent(text: str, font: str, size: float) -> tuple[float, float]:
    """How far the drawn glyphs of `text` reach below and above the baseline, in points (bottom <= 0 < top):
    the real outline box, where layout's fit check uses a fixed ascent and descent."""
    bottom, top = _ink_unit(text, font)
    return bottom * size, top * size
