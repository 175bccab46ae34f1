"""Shaped text: one line ordered by the Unicode bidi algorithm (python-bidi) and shaped by HarfBuzz (kerning,
ligatures, Arabic joining, Indic reordering) in the faces ReportLab embeds. The same shaped line gives the
layout room its width (`line_width`) and the PDF its glyphs and their positions (`ShapedLine.runs`), so what
is fitted is what is drawn.

A line whose glyphs are exactly its characters' glyphs at their plain advances, left to right (most Latin and
Japanese text in the built-in font), is `plain`: it is measured and drawn character by character as before,
which keeps those PDFs byte for byte what they were.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import uharfbuzz as hb
from bidi import algorithm as bidi_algorithm
from reportlab.pdfbase import pdfmetrics, ttfonts

FEATURES: dict[str, Any] = {"kern": True, "liga": True, "clig": True, "calt": True}
"""OpenType features asked of every shaped run (HarfBuzz turns on the script's required ones itself)."""

_NEEDS_RULES: dict[str, tuple[str, tuple[str, ...]]] = {
    "Arab": ("Arabic", ("arab",)),
    "Syrc": ("Syriac", ("syrc",)),
    "Nkoo": ("N'Ko", ("nko ",)),
    "Deva": ("Devanagari", ("dev2", "deva")),
    "Beng": ("Bengali", ("bng2", "beng")),
    "Guru": ("Gurmukhi", ("gur2", "guru")),
    "Gujr": ("Gujarati", ("gjr2", "gujr")),
    "Orya": ("Oriya", ("ory2", "orya")),
    "Taml": ("Tamil", ("tml2", "taml")),
    "Telu": ("Telugu", ("tel2", "telu")),
    "Knda": ("Kannada", ("knd2", "knda")),
    "Mlym": ("Malayalam", ("mlm2", "mlym")),
    "Sinh": ("Sinhala", ("sinh",)),
    "Khmr": ("Khmer", ("khmr",)),
    "Mymr": ("Myanmar", ("mym2", "mymr")),
    "Tibt": ("Tibetan", ("tibt",)),
}
"""Scripts whose letters change shape or order by the font's OpenType rules: a font without rules for the
script (GSUB script tags) prints isolated, unordered letters, a silently wrong page."""


@dataclass(frozen=True)
class Glyph:
    """One positioned glyph: its id in the face, the index of the first character of its cluster in the line,
    and its advance and offsets in thousandths of the size (PDF text space units)."""

    gid: int
    cluster: int
    x_advance: float
    y_advance: float
    x_offset: float
    y_offset: float


@dataclass(frozen=True)
class GlyphRun:
    """Glyphs of one face and one direction, left to right as printed."""

    face: str
    """ReportLab's registered name of the face."""
    rtl: bool
    script: str
    """HarfBuzz's ISO 15924 script tag of the run (e.g. 'Arab', 'Latn')."""
    glyphs: tuple[Glyph, ...]
    start: int
    """Index of the run's first character in the line."""
    end: int
    """Index past its last character."""

    @property
    def advance(self) -> float:
        """Advance of the run in thousandths of the size."""
        return sum(g.x_advance for g in self.glyphs)


@dataclass(frozen=True)
class ShapedLine:
    """One line shaped: its runs in visual order (left to right) and whether it is plain (see the module)."""

    text: str
    runs: tuple[GlyphRun, ...]
    plain: bool

    @property
    def advance(self) -> float:
        """Advance of the line in thousandths of the size."""
        return sum(r.advance for r in self.runs)


@lru_cache(maxsize=64)
def _hb_font(face: str) -> tuple[Any, float, frozenset[str]]:
    """HarfBuzz font of a registered face (the very bytes ReportLab embeds), its units-to-1000 scale and the
    scripts its GSUB has rules for."""
    ttf = pdfmetrics.getFont(face)
    hb_face = hb.Face(hb.Blob(ttf.face._ttf_data))
    font = hb.Font(hb_face)
    if hasattr(hb_face, "get_table_script_tags"):
        scripts = frozenset(hb_face.get_table_script_tags("GSUB"))
    else:  # uharfbuzz before 0.42
        scripts = frozenset(hb.ot_layout_table_get_script_tags(hb_face, "GSUB"))
    return font, 1000.0 / hb_face.upem, scripts


_RTL = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\u200f\u202b\u202e\u2067"
    "\U00010800-\U00010fff\U0001e800-\U0001efff]"
)
"""Characters that can make a line right to left: the Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan and
Mandaic blocks, their presentation forms, the right-to-left historic blocks, RLM, RLE, RLO and RLI. A line
without any is one left-to-right run."""
_WORDS = re.compile("[^ ]+| +")

_ISOLATES = str.maketrans({"\u2066": "\u202a", "\u2067": "\u202b", "\u2068": "\u202a", "\u2069": "\u202c"})
"""Isolates (LRI, RLI, FSI, PDI) read as the embeddings they nest like (LRE, RLE, LRE, PDF): python-bidi's
level resolver predates isolates (and refuses them)."""


def bidi_levels(text: str) -> list[int]:
    """The resolved embedding level of each character of one line (even: left to right, odd: right to left),
    the paragraph direction taken from its first strong character."""
    if not _RTL.search(text):
        return [0] * len(text)
    # unassigned code points have no bidi class here; UAX #9 gives them L, or R in the right-to-left blocks
    text = "".join(
        ch if unicodedata.bidirectional(ch) else "\u05d0" if _RTL.match(ch) else "a"
        for ch in text.translate(_ISOLATES)
    )
    storage = bidi_algorithm.get_empty_storage()
    try:
        storage["base_level"] = bidi_algorithm.get_base_level(text)
        storage["base_dir"] = ("L", "R")[storage["base_level"]]
        bidi_algorithm.get_embedding_levels(text, storage, False)
        bidi_algorithm.explicit_embed_and_overrides(storage, False)
        bidi_algorithm.resolve_weak_types(storage, False)
        bidi_algorithm.resolve_neutral_types(storage, False)
        bidi_algorithm.resolve_implicit_levels(storage, False)
    except (AssertionError, LookupError, ValueError, TypeError) as e:  # a case python-bidi's resolver refuses
        from generator.errors import RenderError

        raise RenderError(
            f"text {text[:60]!r}: the Unicode bidi algorithm cannot order it ({type(e).__name__}: "
            f"{str(e)[:80]}); remove its direction control characters"
        ) from None
    chars = storage["chars"]
    if len(chars) != len(text):  # explicit embedding controls were removed: level them with their neighbours
        levels: list[int] = []
        kept = iter(chars)
        current = storage["base_level"]
        for ch in text:
            if unicodedata.bidirectional(ch) in bidi_algorithm.X9_REMOVED:
                levels.append(current)
            else:
                current = next(kept)["level"]
                levels.append(current)
        return levels
    base = storage["base_level"]
    levels = [c["level"] for c in chars]
    # rule L1: trailing whitespace takes the paragraph level
    i = len(text)
    while i > 0 and text[i - 1].isspace():
        i -= 1
        levels[i] = base
    return levels


def _visual_order(levels: list[int]) -> list[int]:
    """Rule L2: indices of items (by their levels) in visual order."""
    order = list(range(len(levels)))
    if not levels:
        return order
    highest = max(levels)
    lowest_odd = min((lv for lv in levels if lv % 2), default=highest + 1)
    for level in range(highest, lowest_odd - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] >= level:
                j = i
                while j < len(order) and levels[order[j]] >= level:
                    j += 1
                order[i:j] = reversed(order[i:j])
                i = j
            else:
                i += 1
    return order


_Piece = tuple[tuple[tuple[int, int, float, float, float, float], ...], str, bool, float]
"""A shaped piece: its glyphs (gid, cluster in the piece, x/y advance, x/y offset), script, plain, advance."""


@lru_cache(maxsize=65536)
def _shape_piece(piece: str, face: str, rtl: bool) -> _Piece:
    """One word (or run of spaces) of one face and direction, shaped; cached, as wrapping measures the same
    words over and over."""
    font, scale, _ = _hb_font(face)
    buf = hb.Buffer()
    buf.add_str(piece)
    buf.direction = "rtl" if rtl else "ltr"
    buf.guess_segment_properties()
    buf.cluster_level = hb.BufferClusterLevel.MONOTONE_CHARACTERS
    hb.shape(font, buf, FEATURES)
    glyphs = tuple(
        (
            info.codepoint,
            info.cluster,
            pos.x_advance * scale,
            pos.y_advance * scale,
            pos.x_offset * scale,
            pos.y_offset * scale,
        )
        for info, pos in zip(buf.glyph_infos, buf.glyph_positions, strict=True)
    )
    plain = not rtl and len(glyphs) == len(piece)
    if plain:
        rl_face = pdfmetrics.getFont(face).face
        to_glyph, widths = rl_face.charToGlyph, rl_face.charWidths
        for i, (ch, (gid, cluster, x_advance, _, x_offset, y_offset)) in enumerate(
            zip(piece, glyphs, strict=True)
        ):
            code = ord(ch)
            if (
                cluster != i
                or gid != to_glyph.get(code)
                or x_offset
                or y_offset
                or abs(x_advance - widths.get(code, -1)) > 0.01
            ):
                plain = False
                break
    return glyphs, str(buf.script or ""), plain, sum(g[2] for g in glyphs)


def _items(
    text: str, faces: tuple[tuple[str, str], ...], levels: list[int]
) -> list[tuple[int, int, str, int]]:
    """(start, end, face, level) pieces of a line in logical order: one face, one level, and either a word or
    a run of spaces (HarfBuzz shapes words; nothing joins or ligates across a space)."""
    items: list[tuple[int, int, str, int]] = []
    pos = 0
    for face, part in faces:
        for k in range(pos, pos + len(part)):
            if (
                items
                and items[-1][1] == k
                and items[-1][2] == face
                and items[-1][3] == levels[k]
                and (text[k] == " ") == (text[k - 1] == " ")
            ):
                items[-1] = (items[-1][0], k + 1, face, levels[k])
            else:
                items.append((k, k + 1, face, levels[k]))
        pos += len(part)
    return items


@lru_cache(maxsize=16384)
def line_metrics(text: str, faces: tuple[tuple[str, str], ...]) -> tuple[float, bool]:
    """(advance in thousandths of the size, plain) of one line given as (face, characters) runs: what the
    layout measures, from the same shaped pieces `shape_runs` draws."""
    if len(faces) == 1 and not _RTL.search(text):  # the common case, word by word at C speed
        face = faces[0][0]
        advance, plain = 0.0, True
        for word in _WORDS.findall(text):
            _, _, piece_plain, piece_advance = _shape_piece(word, face, False)
            advance += piece_advance
            plain = plain and piece_plain
        return advance, plain
    levels = bidi_levels(text)
    advance, plain = 0.0, not any(levels)
    for start, end, face, level in _items(text, faces, levels):
        _, _, piece_plain, piece_advance = _shape_piece(text[start:end], face, bool(level % 2))
        advance += piece_advance
        plain = plain and piece_plain
    return advance, plain


_COMMON = {"Zyyy", "Zinh", "Zzzz", ""}
"""HarfBuzz's script tags of spaces, digits and punctuation (common), marks (inherited) and unknown."""


@lru_cache(maxsize=1024)
def shape_runs(text: str, faces: tuple[tuple[str, str], ...]) -> ShapedLine:
    """Shape one line given as (face, characters) runs in logical order (what the font chain chose): its
    glyph runs in visual order, pieces of one face and direction that meet on the line merged."""
    levels = bidi_levels(text)
    items = _items(text, faces, levels)
    pieces: list[GlyphRun] = []
    for start, end, face, level in items:
        glyphs, script, _, _ = _shape_piece(text[start:end], face, bool(level % 2))
        pieces.append(
            GlyphRun(
                face,
                bool(level % 2),
                script,
                tuple(Glyph(g, c + start, xa, ya, xo, yo) for g, c, xa, ya, xo, yo in glyphs),
                start,
                end,
            )
        )
    runs: list[GlyphRun] = []
    for i in _visual_order([lv for _, _, _, lv in items]):
        piece = pieces[i]
        last = runs[-1] if runs else None
        scripts = {last.script, piece.script} - _COMMON if last is not None else set()
        if last is not None and last.face == piece.face and last.rtl == piece.rtl and len(scripts) <= 1:
            runs[-1] = GlyphRun(
                last.face,
                last.rtl,
                scripts.pop() if scripts else last.script,
                last.glyphs + piece.glyphs,
                min(last.start, piece.start),
                max(last.end, piece.end),
            )
        else:
            runs.append(piece)
    return ShapedLine(text, tuple(runs), line_metrics(text, faces)[1])


@lru_cache(maxsize=4096)
def line_problem(text: str, faces: tuple[tuple[str, str], ...]) -> str:
    """Why a line would print wrong, or '': the characters no face has a glyph for (HarfBuzz gave .notdef),
    or a complex script in a face without OpenType rules for it (its letters would print unjoined or out of
    order)."""
    levels = bidi_levels(text)
    missing: dict[str, None] = {}
    for start, end, face, level in _items(text, faces, levels):
        glyphs, script, _, _ = _shape_piece(text[start:end], face, bool(level % 2))
        missing.update((text[start + g[1]], None) for g in glyphs if g[0] == 0)
        need = _NEEDS_RULES.get(script)
        if need is not None and not missing:
            name, tags = need
            if not _hb_font(face)[2] & set(tags):
                return (
                    f"the font {face} cannot shape {name}: it has no OpenType rules for the script "
                    f"(GSUB {' or '.join(repr(t) for t in tags)}), "
                    "so its letters would print unjoined or out of order"
                )
    if missing:
        return "no glyph for " + " ".join(f"U+{ord(c):04X} {c!r}" for c in missing)
    return ""


@lru_cache(maxsize=64)
def _private_codes(face: str) -> dict[int, int]:
    """Glyph id -> a private-use character code for every glyph the face's own cmap does not reach (ligatures,
    joining forms): ReportLab subsets and embeds by character, so such a glyph is drawn through a code of its
    own. Assigned in glyph order to the codes U+E000..U+F8FF the font's cmap leaves free (read from the font
    bytes, not ReportLab's tables, which gain these codes as they are used), so a glyph has the same code in
    every process: same spec, same bytes."""
    font, _, _ = _hb_font(face)
    unicodes = font.face.unicodes
    reached = {font.get_nominal_glyph(u) for u in unicodes}
    unmapped = [g for g in range(font.face.glyph_count) if g not in reached]
    free = [c for c in range(0xE000, 0xF900) if c not in unicodes]
    return dict(zip(unmapped, free, strict=False))


_ADDED: dict[str, set[int]] = {}
"""Registered face name -> the private codes `pdf_string` added to ReportLab's tables of the face."""


def added_codes(face: str) -> frozenset[int]:
    """The private codes shaping added to a registered face's character tables (not the font's own)."""
    return frozenset(_ADDED.get(face, ()))


_PRIVATE_TEXT: dict[tuple[bytes, int], str] = {}
"""(face's PostScript name, private code) -> the characters the glyph stands for (its cluster), for the PDF's
ToUnicode map: copying 'office' out of a PDF whose 'ffi' is one glyph gives 'office', not a private-use
code."""


def _to_unicode_cmap(fontname: str, subset: list[int]) -> str:
    """ReportLab's ToUnicode CMap of a font subset, with each private code of a shaped glyph mapped to its
    characters (UTF-16BE, as a CMap's bfchar destination string is)."""
    face = fontname.split("+", 1)[-1].encode("latin-1", "replace")
    text: str = _RL_TO_UNICODE(fontname, subset)
    changes = {i: _PRIVATE_TEXT[face, code] for i, code in enumerate(subset) if (face, code) in _PRIVATE_TEXT}
    if not changes:
        return text
    lines = text.split("\n")
    for i, chars in changes.items():
        old = f"<{i:02X}> <{subset[i]:04X}>"
        at = lines.index(old)
        lines[at] = f"<{i:02X}> <{chars.encode('utf-16-be').hex().upper()}>"
    return "\n".join(lines)


_RL_TO_UNICODE = ttfonts.makeToUnicodeCMap
ttfonts.makeToUnicodeCMap = (
    _to_unicode_cmap  # TTFont.addObjects looks it up in its module when a PDF is saved
)


def pdf_string(run: GlyphRun, text: str) -> Any:
    """ReportLab's ShapedStr of a run of the line `text`: one character code per glyph (the glyph's own
    character, else a private code mapped to it in the face) with the HarfBuzz advance and offsets ReportLab's
    text object turns into TJ adjustments and text rise."""
    from reportlab.pdfbase.ttfonts import ShapeData, ShapedStr

    from generator.errors import RenderError

    ttf = pdfmetrics.getFont(run.face)
    face = ttf.face
    hb_font, scale, _ = _hb_font(run.face)
    chars: list[str] = []
    data: list[Any] = []
    starts = sorted({g.cluster for g in run.glyphs})
    ends = [*starts[1:], run.end]
    clusters = {a: text[a:b].rstrip(" ") or text[a:b] for a, b in zip(starts, ends, strict=True)}
    for g in run.glyphs:
        reach = face.glyphToChar.get(g.gid)
        if reach:
            code = min(reach)
        else:
            code = _private_codes(run.face).get(g.gid, -1)
            if code < 0:
                raise RenderError(
                    f"{run.face}: glyph {g.gid} cannot be embedded (no character code left for it)"
                )
            if code not in face.charToGlyph:
                face.charToGlyph[code] = g.gid
                face.glyphToChar.setdefault(g.gid, []).append(code)
                face.charWidths[code] = hb_font.get_glyph_h_advance(g.gid) * scale
                _ADDED.setdefault(run.face, set()).add(code)
            if clusters.get(g.cluster):
                _PRIVATE_TEXT.setdefault((face.name, code), clusters[g.cluster])
        chars.append(chr(code))
        data.append(
            ShapeData(g.cluster, g.x_advance, g.y_advance, g.x_offset, g.y_offset, face.getCharWidth(code))
        )
    return ShapedStr("".join(chars), shapeData=data)
