"""The vendored fonts: registered once with ReportLab, measured, and checked for missing glyphs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from generator.errors import RenderError
from generator.layout.ops import Page, iter_texts
from generator.resources import fonts_dir
from generator.spec.fonts import FontFile, KitFonts

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


def missing_glyphs(text: str, font: str, fonts: KitFonts | None = None, size: float = 0.0) -> str:
    """The distinct characters of `text` that the font lacks, in order of first appearance; with a kit's
    `fonts`, those that no face of the chain the text is drawn with (its role at `size`) has."""
    if fonts is None:
        cmap = _cmap(font)
        return "".join(dict.fromkeys(ch for ch in text if ord(ch) not in cmap))
    chain = fonts.chain(text, font, size)
    return "".join(dict.fromkeys(ch for ch in text if not any(ord(ch) in f.cmap for f in chain)))


def font_names(fonts: KitFonts | None, text: str, font: str, size: float) -> str:
    """The faces a text is drawn with, for messages: 'BIZ UDPGothic' or the chain's files."""
    if fonts is None:
        return "BIZ UDPGothic"
    return ", ".join("BIZ UDPGothic" if f.builtin else f.shown for f in fonts.chain(text, font, size))


def _codes(chars: str) -> str:
    return " ".join(f"U+{ord(c):04X} {c!r}" for c in chars)


def check_glyphs(pages: Sequence[Page], fonts: KitFonts | None = None) -> None:
    """Raise one RenderError listing every text (id, page, characters) whose characters the font (the kit's
    chain for the text's role) lacks."""
    problems: list[str] = []
    for number, page in enumerate(pages, 1):
        where = f"page {number}" + (f" ({page.label})" if page.label else "")
        for t in iter_texts(page.ops):
            missing = missing_glyphs(t.text, t.font, fonts, t.size)
            if missing:
                tid = t.text_id or "(no id)"
                problems.append(f"  {where}: text {tid} {t.text!r}: {_codes(missing)}")
    if problems:
        n = len(problems)
        what = "BIZ UDPGothic" if fonts is None else "the kit's fonts"
        raise RenderError(f"{n} text{'s' if n != 1 else ''} with characters missing from the font "
                          f"({what}):\n" + "\n".join(problems))


def register_kit_fonts(fonts: KitFonts) -> None:
    """Register every face of a kit's chains with ReportLab (from the bytes fontTools checked; by content
    name, so a file shared by kits is parsed once per process). ReportLab subsets and embeds each."""
    import io

    register_fonts()
    known = set(pdfmetrics.getRegisteredFontNames())
    for by in fonts.chains.values():
        for chain in by.values():
            for face in chain:
                if face.name in known:
                    continue
                try:
                    pdfmetrics.registerFont(TTFont(face.name, io.BytesIO(face.data)))
                except Exception as e:  # ReportLab's TTF parser raises several types
                    raise RenderError(f"style.fonts: {face.shown}: the PDF writer cannot embed this font "
                                      f"({type(e).__name__}: {str(e)[:100]})") from None
                known.add(face.name)


def text_runs(text: str, font: str, size: float, fonts: KitFonts) -> list[tuple[str, str]]:
    """`text` cut into (registered font name, characters) runs: each character in the first face of its
    chain that has it (the first face when none has it: the glyph check refuses that before drawing)."""
    chain: tuple[FontFile, ...] = fonts.chain(text, font, size)
    runs: list[tuple[str, str]] = []
    for ch in text:
        face = next((f for f in chain if ord(ch) in f.cmap), chain[0])
        if runs and runs[-1][0] == face.name:
            runs[-1] = (face.name, runs[-1][1] + ch)
        else:
            runs.append((face.name, ch))
    return runs


def kit_measure(fonts: KitFonts | None) -> Callable[[str, str, float], float]:
    """The Measure of a kit: `text_width` for the built-in font, else the width of the chain's runs."""
    if fonts is None:
        return text_width
    register_kit_fonts(fonts)

    def measure(text: str, font: str, size: float) -> float:
        return float(sum(pdfmetrics.stringWidth(part, name, size) for name, part in text_runs(text, font, size, fonts)))

    return measure


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
