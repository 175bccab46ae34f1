"""The vendored fonts: registered once with ReportLab, measured, and checked for missing glyphs."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from generator.errors import RenderError
from generator.layout.ops import Page, is_italic, iter_texts, upright
from generator.layout.textfit import RoleMeasure
from generator.render.shaping import line_metrics, line_problem, shape_runs
from generator.resources import fonts_dir
from generator.spec.fonts import FontFile, KitFonts

if TYPE_CHECKING:
    from generator.render.shaping import ShapedLine

FONT_FILES: Final[dict[str, Path]] = {
    "regular": fonts_dir() / "BIZUDPGothic-Regular.ttf",
    "bold": fonts_dir() / "BIZUDPGothic-Bold.ttf",
}
"""Font key (as in Text.font) -> vendored TTF."""

FONT_NAMES: Final[dict[str, str]] = {"regular": "BIZUDPGothic-Regular", "bold": "BIZUDPGothic-Bold"}
"""Font key -> the name registered with ReportLab (and the embedded font's base name)."""

_registered = False
_offered: Mapping[str, Any] | None = None


def register_fonts() -> None:
    """Register the vendored fonts with ReportLab (idempotent; parses each TTF once per process, or restores
    its per-character tables from those a build offered, see `offer_font_tables`)."""
    global _registered
    if _registered:
        return
    offered = _offered if isinstance(_offered, Mapping) else {}
    for key, path in FONT_FILES.items():
        if not path.is_file():
            raise RenderError(f"font file missing: {path}")
        if FONT_NAMES[key] not in pdfmetrics.getRegisteredFontNames():
            face = _face_from_tables(path, offered.get(key), offered.get("version"))
            pdfmetrics.registerFont(_tt_font(FONT_NAMES[key], path, face))
    _registered = True


def fonts_registered() -> bool:
    """Whether this process has registered the vendored fonts (something was measured or drawn)."""
    return _registered


# ------------------------------------------------------------------ the faces' per-character tables, kept
# ReportLab's TrueType parser reads the cmap, hmtx and loca of the two 4.6 MB faces entry by entry in Python
# (about 28 ms a face); the rest is a few header fields. A build keeps those tables beside its record as
# packed arrays (generator.pipeline: OUT/.pnpkit/fonts.json), so a rebuild that draws restores them and parses
# the headers only; the face is the same object, attribute for attribute (tests/render/test_font_tables.py).

_TABLES_FORMAT = 1


def font_tables_version() -> list[Any]:
    """What kept tables depend on besides the font files: this format, ReportLab's version, the byte order."""
    import sys

    from reportlab import Version

    return [_TABLES_FORMAT, Version, sys.byteorder]


def offer_font_tables(tables: Mapping[str, Any] | None) -> None:
    """Tables `font_tables` gave for these very font files: `register_fonts` restores the faces from them
    (when it has not run yet in this process). A table that does not fit is ignored and the font parsed."""
    global _offered
    _offered = tables


def _pack(values: Any, code: str = "q") -> str:
    import array
    import base64
    import zlib

    return base64.b64encode(zlib.compress(array.array(code, values).tobytes(), 1)).decode("ascii")


def _unpack(text: str, code: str = "q") -> list[Any]:
    import array
    import base64
    import zlib

    out = array.array(code)
    out.frombytes(zlib.decompress(base64.b64decode(text.encode("ascii"), validate=True)))
    return out.tolist()


def _pack_numbers(values: Sequence[Any]) -> dict[str, Any] | None:
    """Numbers that may mix int and float (ReportLab scales some advances and not others), each given back as
    the same type and value: the ints, the floats and the runs of each kind. None for anything else."""
    runs: list[list[int]] = []
    for v in values:
        kind = 1 if type(v) is float else 0 if type(v) is int and -(2**62) < v < 2**62 else -1
        if kind < 0:
            return None
        if runs and runs[-1][0] == kind:
            runs[-1][1] += 1
        else:
            runs.append([kind, 1])
    return {
        "runs": runs,
        "ints": _pack(v for v in values if type(v) is int),
        "floats": _pack((v for v in values if type(v) is float), "d"),
    }


def _unpack_numbers(packed: Mapping[str, Any]) -> list[Any]:
    ints, floats = _unpack(packed["ints"]), _unpack(packed["floats"], "d")
    out: list[Any] = []
    taken = [0, 0]
    for kind, count in packed["runs"]:
        source = floats if kind == 1 else ints
        start = taken[kind == 1]
        if count < 1 or start + count > len(source):
            raise ValueError("damaged number table")
        out += source[start : start + count]
        taken[kind == 1] += count
    if taken != [len(ints), len(floats)]:
        raise ValueError("damaged number table")
    return out


def font_tables() -> dict[str, Any]:
    """The per-character tables (cmap, widths, hmtx, loca) of the registered built-in faces, as JSON-able data
    for `offer_font_tables`; a face whose tables cannot be kept exactly is left out."""
    import itertools

    from generator.render.shaping import added_codes

    register_fonts()
    out: dict[str, Any] = {"version": font_tables_version()}
    for key in FONT_FILES:
        face = pdfmetrics.getFont(FONT_NAMES[key]).face
        added = added_codes(FONT_NAMES[key])  # a shaped glyph's private code is not the font's: left out
        char_to_glyph = {c: g for c, g in face.charToGlyph.items() if c not in added}
        glyph_to_char = {
            g: cs
            for g, cs in ((g, [c for c in cs if c not in added]) for g, cs in face.glyphToChar.items())
            if cs
        }
        char_widths = {c: w for c, w in face.charWidths.items() if c not in added}
        widths = _pack_numbers([*char_widths.values(), face.defaultWidth])
        advances = _pack_numbers([m[0] for m in face.hmetrics])
        bearings = _pack_numbers([m[1] for m in face.hmetrics])
        if (
            widths is None
            or advances is None
            or bearings is None
            or not all(type(p) is int for p in face.glyphPos)
        ):
            continue
        out[key] = {
            "chars": _pack(char_to_glyph.keys()),
            "glyphs": _pack(char_to_glyph.values()),
            "width_chars": _pack(char_widths.keys()),
            "widths": widths,
            "glyph_keys": _pack(glyph_to_char.keys()),
            "glyph_counts": _pack(map(len, glyph_to_char.values())),
            "glyph_chars": _pack(itertools.chain.from_iterable(glyph_to_char.values())),
            "advances": advances,
            "bearings": bearings,
            "positions": _pack(face.glyphPos),
        }  # not the parser's cursor (_pos): it moves as pages are drawn, and every later read seeks first
    return out


def _face_from_tables(path: Path, tables: Any, version: Any) -> Any:
    """The ReportLab face of `path`: its headers parsed and its per-character tables restored from `tables`
    when this ReportLab on this byte order kept them; None (parse it whole) otherwise or on any doubt."""
    import itertools

    from reportlab.pdfbase.ttfonts import TTFontFace, TTFontFile

    if not isinstance(tables, Mapping) or version != font_tables_version():
        return None
    try:
        face = TTFontFace.__new__(TTFontFace)
        pdfmetrics.TypeFace.__init__(face, None)
        TTFontFile.__init__(face, str(path), charInfo=0, validate=0, subfontIndex=0)  # the headers only
        chars, glyphs, width_chars = (_unpack(tables[k]) for k in ("chars", "glyphs", "width_chars"))
        *widths, default = _unpack_numbers(tables["widths"])
        keys, counts, flat = (_unpack(tables[k]) for k in ("glyph_keys", "glyph_counts", "glyph_chars"))
        advances, bearings = _unpack_numbers(tables["advances"]), _unpack_numbers(tables["bearings"])
        positions = _unpack(tables["positions"])
        if sum(counts) != len(flat) or len(positions) != face.numGlyphs + 1:
            return None
        starts = list(itertools.accumulate(counts, initial=0))
        face.charToGlyph = dict(zip(chars, glyphs, strict=True))
        face.glyphToChar = {g: flat[a:b] for g, a, b in zip(keys, starts, starts[1:], strict=False)}
        face.charWidths = dict(zip(width_chars, widths, strict=True))
        face.hmetrics = list(zip(advances, bearings, strict=True))
        face.defaultWidth = default
        face.glyphPos = positions  # the cursor (_pos) stays where the header parse left it: reads seek first
        return face
    except Exception:  # a damaged or foreign table: parse the font instead
        return None


def _tt_font(name: str, path: Path, face: Any) -> TTFont:
    """ReportLab's TTFont of `path`, around `face` when one is given (else parsed as usual)."""
    if face is None:
        return TTFont(name, str(path))
    from reportlab.pdfbase import ttfonts

    parse = ttfonts.TTFontFace
    ttfonts.TTFontFace = lambda *a, **k: face  # TTFont.__init__ builds its face by this name
    try:
        return TTFont(name, str(path))
    finally:
        ttfonts.TTFontFace = parse


def font_name(font: str) -> str:
    """The registered name for a font key (an italic key: its upright face, drawn slanted); a RenderError for
    an unknown key."""
    try:
        return FONT_NAMES[upright(font)]
    except KeyError:
        raise RenderError(f"unknown font {font!r}; expected one of {', '.join(FONT_NAMES)}") from None


@cache
def _cmap(font: str) -> frozenset[int]:
    register_fonts()
    face = pdfmetrics.getFont(font_name(font)).face
    return frozenset(face.charToGlyph)


def shaped_line(
    text: str, font: str, size: float, fonts: KitFonts | None = None, role: str = "body"
) -> ShapedLine:
    """One line of `text` shaped (bidi order, HarfBuzz glyphs) in font key `font`, or with a kit's `fonts` in
    the faces of its chain for the text's `role` (its op's) at `size`: what is measured and what is drawn."""
    register_fonts()
    if fonts is None:
        return shape_runs(text, ((font_name(font), text),))
    register_kit_fonts(fonts)
    return shape_runs(text, tuple(text_runs(text, font, size, fonts, role)))


def text_width(text: str, font: str, size: float) -> float:
    """Advance width of `text` in points set in font key `font` at `size`, as shaped (kerning, ligatures)."""
    register_fonts()
    plain, unit = _width_unit(text, font)
    # the very products ReportLab's stringWidth ((sum * 0.001) * size) and the shaped advance give
    return unit * size if plain else unit * size / 1000


@lru_cache(maxsize=65536)
def _width_unit(text: str, font: str) -> tuple[bool, float]:
    """(plain, width): a plain text's width at size 1 as ReportLab measures it, else its shaped advance in
    thousandths of the size. A kit's texts are measured again and again, at each size a block tries (each
    wrap tries its lines, each check measures the drawn ones); the built-in faces do not change once
    registered."""
    advance, plain = line_metrics(text, ((font_name(font), text),))
    if plain:
        return True, float(pdfmetrics.stringWidth(text, font_name(font), 1.0))
    return False, advance


def shaping_problem(
    text: str, font: str, fonts: KitFonts | None = None, size: float = 0.0, role: str = "body"
) -> str:
    """Why `text` would not print as written in its faces ('' when it does): a character no face has, or a
    script (Arabic, Devanagari, ...) whose face has no OpenType rules to join or order its letters."""
    if missing_glyphs(text, font, fonts, size, role):  # reported as missing glyphs, with the characters
        return ""
    register_fonts()
    if fonts is None:
        return line_problem(text, ((font_name(font), text),))
    register_kit_fonts(fonts)
    return line_problem(text, tuple(text_runs(text, font, size, fonts, role)))


def missing_glyphs(
    text: str, font: str, fonts: KitFonts | None = None, size: float = 0.0, role: str = "body"
) -> str:
    """The distinct characters of `text` that the font lacks, in order of first appearance; with a kit's
    `fonts`, those that no face of the chain the text is drawn with (its role at `size`) has."""
    if fonts is None:
        cmap = _cmap(font)
        return "".join(dict.fromkeys(ch for ch in text if ord(ch) not in cmap))
    chain = fonts.chain(text, font, size, role)
    return "".join(dict.fromkeys(ch for ch in text if not any(ord(ch) in f.cmap for f in chain)))


def font_names(fonts: KitFonts | None, text: str, font: str, size: float, role: str = "body") -> str:
    """The faces a text is drawn with, for messages: 'BIZ UDPGothic' or the chain's files."""
    if fonts is None:
        return "BIZ UDPGothic"
    chain = fonts.chain(text, font, size, role)
    return ", ".join("BIZ UDPGothic" if f.builtin else f.shown for f in chain)


def _codes(chars: str) -> str:
    return " ".join(f"U+{ord(c):04X} {c!r}" for c in chars)


def check_glyphs(pages: Sequence[Page], fonts: KitFonts | None = None) -> None:
    """Raise one RenderError listing every text (id, page, characters) whose characters the font (the kit's
    chain for the text's role) lacks."""
    problems: list[str] = []
    for number, page in enumerate(pages, 1):
        where = f"page {number}" + (f" ({page.label})" if page.label else "")
        for t in iter_texts(page.ops):
            missing = missing_glyphs(t.text, t.font, fonts, t.size, t.role)
            tid = t.text_id or "(no id)"
            if missing:
                problems.append(f"  {where}: text {tid} {t.text!r}: {_codes(missing)}")
                continue
            unshapable = shaping_problem(t.text, t.font, fonts, t.size, t.role)
            if unshapable:
                problems.append(f"  {where}: text {tid} {t.text!r}: {unshapable}")
    if problems:
        n = len(problems)
        what = "BIZ UDPGothic" if fonts is None else "the kit's fonts"
        raise RenderError(
            f"{n} text{'s' if n != 1 else ''} with characters missing from the font "
            f"({what}):\n" + "\n".join(problems)
        )


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
                    raise RenderError(
                        f"style.fonts: {face.shown}: the PDF writer cannot embed this font "
                        f"({type(e).__name__}: {str(e)[:100]})"
                    ) from None
                known.add(face.name)


def oblique_faces(
    text: str, font: str, size: float, fonts: KitFonts | None, role: str = "body"
) -> frozenset[str]:
    """The registered names of the faces `text` is drawn with that a synthetic oblique slants (ITALIC_SLANT):
    for an italic key, the built-in face, or each face of the kit's italic chain that is an upright one (the
    role gave no italic file); none for an upright key."""
    if not is_italic(font):
        return frozenset()
    if fonts is None:
        return frozenset({font_name(font)})
    return frozenset(f.name for f in fonts.chain(text, font, size, role) if f.oblique)


def text_runs(
    text: str, font: str, size: float, fonts: KitFonts, role: str = "body"
) -> list[tuple[str, str]]:
    """`text` cut into (registered font name, characters) runs: each character in the first face of its
    chain that has it (the first face when none has it: the glyph check refuses that before drawing)."""
    chain: tuple[FontFile, ...] = fonts.chain(text, font, size, role)
    runs: list[tuple[str, str]] = []
    for ch in text:
        face = next((f for f in chain if ord(ch) in f.cmap), chain[0])
        if runs and runs[-1][0] == face.name:
            runs[-1] = (face.name, runs[-1][1] + ch)
        else:
            runs.append((face.name, ch))
    return runs


class _KitMeasure(RoleMeasure):
    """The width of the runs of a kit's chain for a text's role, as the PDF draws them."""

    def __init__(self, fonts: KitFonts) -> None:
        self.fonts = fonts

    def by_role(self, text: str, font: str, size: float, role: str) -> float:
        runs = tuple(text_runs(text, font, size, self.fonts, role))
        advance, plain = line_metrics(text, runs)
        if plain:
            return float(sum(pdfmetrics.stringWidth(part, name, size) for name, part in runs))
        return advance * size / 1000


def kit_measure(fonts: KitFonts | None) -> Callable[[str, str, float], float]:
    """The Measure of a kit: `text_width` for the built-in font, else the width of the chain's runs (a
    RoleMeasure: drawn ops are measured in their role's fonts)."""
    if fonts is None:
        return text_width
    register_kit_fonts(fonts)
    return _KitMeasure(fonts)


_INK_PX = 200
"""Pixel size at which ink extents are measured (then scaled to the asked size)."""


@cache
def _ink_face(font: str) -> Any:
    """The built-in face of an upright font key, opened once at _INK_PX (not once a text)."""
    from PIL import ImageFont

    return ImageFont.truetype(str(FONT_FILES[font]), _INK_PX)


@lru_cache(maxsize=4096)
def _ink_unit(text: str, font: str) -> tuple[float, float]:
    _, top, _, bottom = _ink_face(upright(font)).getbbox(text, anchor="ls")
    return -bottom / _INK_PX, -top / _INK_PX


def ink_extent(text: str, font: str, size: float) -> tuple[float, float]:
    """How far the drawn glyphs of `text` reach below and above the baseline, in points (bottom <= 0 < top):
    the real outline box, where layout's fit check uses a fixed ascent and descent."""
    bottom, top = _ink_unit(text, font)
    return bottom * size, top * size
