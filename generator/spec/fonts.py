"""`style.fonts` of kit.yaml: font roles -> TrueType files in the kit folder (or the built-in BIZ UDPGothic),
resolved once, confined to the kit folder like catalogs, and checked with fontTools before anything else
(ReportLab) reads them: a file that does not parse, is truncated, has PostScript (CFF) outlines, has no
Unicode character map or whose licence (OS/2 fsType) forbids embedding is a located error.

Which role draws a text is decided from the drawing op alone (`role_of`), so composers need not know about
fonts and a kit without `style.fonts` draws exactly as before."""

from __future__ import annotations

import hashlib
import io
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator

from generator.errors import Problem, SpecError
from generator.resources import fonts_dir
from generator.spec.base import Length, SpecModel
from generator.spec.colours import ColourSafety
from generator.spec.paths import read_bytes, relative_path_problem, resolve_inside
from generator.spec.style import Legibility

_ICON_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")

BUILTIN = "builtin"
"""The name that picks the vendored BIZ UDPGothic (fonts/) instead of a file."""
BUILTIN_FILES = {"regular": "BIZUDPGothic-Regular.ttf", "bold": "BIZUDPGothic-Bold.ttf"}
BUILTIN_NAMES = {"regular": "BIZUDPGothic-Regular", "bold": "BIZUDPGothic-Bold"}
MAX_FONT_BYTES = 32 * 1024 * 1024
"""A font file over 32 MiB is refused before it is parsed (BIZ UDPGothic is 3.6 MiB)."""
MAX_FALLBACKS = 6
ROLES = ("body", "heading", "number")
Weight = Literal["regular", "bold"]
WEIGHTS = ("regular", "bold", "italic", "bold_italic")
"""The chains of a role: each font key of a Text op."""
_NUMBER_TEXT = re.compile(r"[\s0-9+\-−×÷=%.,/:()–]*[0-9][\s0-9+\-−×÷=%.,/:()–]*")

_FILE_HELP = (
    "a TrueType font file (.ttf, or .otf with TrueType outlines) inside the kit folder, as a path "
    "relative to it (e.g. assets/fonts/Inter-Regular.ttf), or 'builtin' for BIZ UDPGothic"
)


class FontPair(SpecModel):
    """A regular and a bold face."""

    regular: str = Field(description=f"regular weight: {_FILE_HELP}")
    bold: str = Field(description=f"bold weight: {_FILE_HELP}")
    italic: str | None = Field(
        None,
        description=(
            f"italic, for rich text's *italic*: {_FILE_HELP}; without it italic is the regular face slanted "
            f"12 "
            "degrees (a synthetic oblique)"
        ),
    )
    bold_italic: str | None = Field(
        None,
        description=(
            f"bold italic, for **bold** inside *italic*: {_FILE_HELP}; without it the bold face slanted 12 "
            f"degrees"
        ),
    )


class RoleFonts(FontPair):
    """One role's faces and the fonts tried, in order, for characters its own faces lack."""

    fallback: list[FontPair] = Field(
        default_factory=list,
        max_length=MAX_FALLBACKS,
        description=(
            "the fallback chain: pairs tried in order for each character the role's own faces lack (one per "
            "script, e.g. a Korean font, then 'builtin' for Japanese); every character of every string must "
            "be "
            "in one of them"
        ),
    )


class FontsSpec(SpecModel):
    """Which fonts draw which text."""

    body: RoleFonts = Field(
        description="running text, labels and everything that is not a heading or a number"
    )
    heading: RoleFonts | None = Field(
        None, description=("text set at heading_size or larger (titles, card names); default: the body fonts")
    )
    number: RoleFonts | None = Field(
        None,
        description=(
            "texts made only of digits and number signs (card values, scores, sums); default: the body fonts"
        ),
    )
    heading_size: Length = Field(
        10.0, description="text at this size or larger is drawn with the heading role (default 10pt)"
    )


class StyleSpec(Legibility):
    """The kit's own look: fonts by role, and (from Legibility) the smallest size each text role may print
    at."""

    fonts: FontsSpec | None = Field(
        None,
        description=(
            "fonts by role (body, heading, number), each a regular and a bold face with a fallback chain; "
            "without "
            "it every text is set in the built-in BIZ UDPGothic. Font files are checked (TrueType outlines, "
            "embedding allowed by the licence), subset and embedded"
        ),
    )
    colour_safety: ColourSafety = Field(
        default_factory=ColourSafety,
        description=(
            "how far apart the game's colours stay for colour-blind readers and in greyscale prints"
        ),
    )
    icons: list[str] = Field(
        default_factory=list,
        max_length=64,
        description=(
            "the kit's own inline icons: each name is the SVG assets/icons/<name>.svg, printed where a text "
            "says "
            ":<name>: (one x-height tall, on the baseline), beside the built-in symbols; a name of a "
            "built-in "
            "symbol (e.g. star) replaces it in the kit's texts"
        ),
    )

    @field_validator("icons")
    @classmethod
    def _icon_names(cls, v: list[str]) -> list[str]:
        for name in v:
            if not _ICON_NAME.fullmatch(name):
                raise ValueError(
                    "an icon name is lower-case letters, digits and _ (starting with a letter, at most "
                    f"40), the file assets/icons/<name>.svg; got {name[:60]!r}"
                )
        dup = sorted({n for n in v if v.count(n) > 1})
        if dup:
            raise ValueError(f"icons named twice: {', '.join(dup)}")
        return v


@dataclass(frozen=True)
class FontFile:
    """One checked font file: its registration name (from its content), bytes and character map."""

    name: str
    shown: str
    data: bytes = field(repr=False)
    sha256: str
    cmap: frozenset[int] = field(repr=False)
    builtin: bool = False
    x_height: float = 0.54
    """The height of a lower-case x as a fraction of the size (OS/2 sxHeight, else the 'x' glyph's top): what
    an inline icon of rich text stands as tall as."""
    oblique: bool = False
    """In an italic chain: this upright face is drawn slanted (the role gave no italic file for it)."""


@dataclass(frozen=True)
class KitFonts:
    """The resolved `style.fonts`: for every role and weight the chain of faces tried per character."""

    chains: dict[str, dict[str, tuple[FontFile, ...]]]
    heading_size: float

    def role_of(self, text: str, size: float) -> str:
        """The role a text op is drawn with: number (digits and signs only), heading (heading_size and up),
        else body."""
        if _NUMBER_TEXT.fullmatch(text):
            return "number"
        return "heading" if size >= self.heading_size - 1e-9 else "body"

    def chain(self, text: str, weight: str, size: float) -> tuple[FontFile, ...]:
        """The faces that draw `text` (set in `weight` at `size`), first choice first."""
        return self.chains[self.role_of(text, size)][weight]

    def svg_chain(self, weight: str) -> tuple[FontFile, ...]:
        """The faces an SVG's text of `weight` is set in (the body role's: an SVG's own sizes are not
        points)."""
        return self.chains["body"][weight]

    @property
    def x_height(self) -> float:
        """The x-height of the body's regular face (a fraction of the size): inline icons are this tall."""
        return self.chains["body"]["regular"][0].x_height

    def key(self) -> list[tuple[str, str, list[str]]]:
        """What a build key needs: every chain's files by content."""
        return [
            (role, w, [f.sha256 for f in chain])
            for role, by in sorted(self.chains.items())
            for w, chain in sorted(by.items())
        ]


_BUILTIN_CACHE: dict[str, FontFile] = {}


def _builtin(weight: str) -> FontFile:
    """The vendored BIZ UDPGothic face of a weight (read once per process)."""
    if weight not in _BUILTIN_CACHE:
        from fontTools.ttLib import TTFont

        path = fonts_dir() / BUILTIN_FILES[weight]
        data = path.read_bytes()
        with TTFont(io.BytesIO(data), lazy=True) as font:
            cmap = frozenset(font.getBestCmap() or {})
            x_height = _x_height(font)
        _BUILTIN_CACHE[weight] = FontFile(
            BUILTIN_NAMES[weight],
            BUILTIN,
            data,
            hashlib.sha256(data).hexdigest(),
            cmap,
            builtin=True,
            x_height=x_height,
        )
    return _BUILTIN_CACHE[weight]


def _x_height(font: Any) -> float:
    """A face's x-height as a fraction of the em: OS/2 sxHeight (version 2 and later), else the top of its 'x'
    glyph, else 0.54; held to 0.3..0.8 (a damaged table must not make an icon vanish or tower)."""
    value = 0.54
    try:
        upm = float(font["head"].unitsPerEm)
        os2 = font["OS/2"] if "OS/2" in font else None
        if os2 is not None and getattr(os2, "version", 0) >= 2 and getattr(os2, "sxHeight", 0) > 0:
            value = os2.sxHeight / upm
        else:
            name = (font.getBestCmap() or {}).get(ord("x"))
            if name is not None and "glyf" in font:
                glyph = font["glyf"][name]
                if getattr(glyph, "numberOfContours", 0):
                    value = glyph.yMax / upm
    except Exception:  # fontTools raises many types for damaged tables; the face already passed font_problem
        pass
    return min(0.8, max(0.3, value))


def svg_text_chain(fonts: KitFonts | None, weight: str) -> tuple[FontFile, ...]:
    """The faces an SVG's text of `weight` is set in: the kit's body chain, else the built-in face."""
    return fonts.svg_chain(weight) if fonts is not None else (_builtin(weight),)


def svg_text_missing(text: str, chain: tuple[FontFile, ...]) -> str:
    """The distinct characters of an SVG text that no face of `chain` has (whitespace aside), in order."""
    return "".join(
        dict.fromkeys(ch for ch in text if not ch.isspace() and not any(ord(ch) in f.cmap for f in chain))
    )


def font_problem(data: bytes) -> str | None:
    """Why the bytes of a font file cannot be embedded (parsed with fontTools), or None when they can."""
    from fontTools.ttLib import TTFont

    if data[:4] == b"ttcf":
        return "a font collection (.ttc); give one TrueType font file (.ttf)"
    if data[:4] in (b"wOFF", b"wOF2"):
        return "a web font (WOFF); give the TrueType font file (.ttf)"
    logging.getLogger("fontTools").setLevel(
        logging.ERROR
    )  # its warnings about damaged tables are ours to report
    try:
        font = TTFont(io.BytesIO(data), lazy=True)
    except Exception as e:  # fontTools raises many types for garbage input
        return f"not a font fontTools can read ({_why(e)})"
    try:
        for tag, entry in font.reader.tables.items():
            end = int(entry.offset) + int(entry.length)
            if end > len(data):
                return f"truncated: table {tag.strip()!r} ends at byte {end:,}, the file has {len(data):,}"
        if "glyf" not in font:
            if "CFF " in font or "CFF2" in font:
                return (
                    "PostScript (CFF) outlines: only TrueType outlines (glyf) can be embedded; convert it to "
                    "TrueType (e.g. with fontTools' otf2ttf) or pick the .ttf release"
                )
            return "no TrueType outlines (no glyf table)"
        for tag in ("head", "hhea", "maxp", "hmtx", "loca", "cmap", "post", "name"):
            if tag not in font:
                return f"the required table {tag!r} is missing"
            font[tag]  # decompile: a damaged table fails here, not inside ReportLab
        if "OS/2" in font:
            fs_type = int(font["OS/2"].fsType)
            if fs_type & 0x0002:
                return (
                    f"its licence forbids embedding (OS/2 fsType {fs_type:#06x}: restricted licence); a PDF "
                    "must embed its fonts"
                )
            if fs_type & 0x0200:
                return f"its licence allows embedding bitmaps only (OS/2 fsType {fs_type:#06x})"
        cmap = font.getBestCmap()
        if not cmap:
            return "no Unicode character map (cmap)"
        ps_name = font["name"].getDebugName(6) or ""
        if ps_name and not all(33 <= ord(c) <= 126 and c not in "[](){}<>/%" for c in ps_name):
            return f"damaged: its PostScript name {ps_name[:40]!r} has characters a PDF font name cannot hold"
        glyf_length = int(font.reader.tables["glyf"].length)
        if font["loca"].locations and max(font["loca"].locations) > glyf_length:
            return "damaged: the glyph index (loca) points past the end of the outlines (glyf)"
    except Exception as e:  # any failure to read a table is the file's fault
        return f"damaged or truncated ({_why(e)})"
    finally:
        font.close()
    return None


def _why(e: BaseException) -> str:
    text = str(e).strip().splitlines()[0] if str(e).strip() else ""
    text = text[:100]
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def check_font_path(shown: str) -> str | None:
    """Why a font path written in kit.yaml is refused before it is opened, or None."""
    return relative_path_problem(shown, _FILE_HELP)


def resolve_fonts(
    spec: FontsSpec, root: Path, display: str, key_line: Callable[[str], int | None]
) -> KitFonts:
    """Every file of `style.fonts` resolved inside `root`, read once and checked; every problem located."""
    problems: list[Problem] = []
    files: dict[str, FontFile] = {}

    def load(shown: str, key: str) -> FontFile | None:
        weight = key.rsplit(".", 1)[1]
        if shown == BUILTIN:  # BIZ UDPGothic has no italic: its upright face, slanted by the caller
            return _builtin({"italic": "regular", "bold_italic": "bold"}.get(weight, weight))
        if shown in files:
            return files[shown]
        why = check_font_path(shown)
        real: Path | None = None
        if why is None:
            try:
                real = resolve_inside(root, root / shown, display, f"the font {shown!r}")
            except SpecError as e:
                why = e.problems[0].message
            else:
                if real is None:
                    why = f"no such file in the kit folder: {shown!r}"
        if why is None and real is not None:
            try:
                data = read_bytes(real, display, MAX_FONT_BYTES, f"the font {shown!r}")
            except SpecError as e:
                why = e.problems[0].message
            else:
                why = font_problem(data)
                if why is None:
                    from fontTools.ttLib import TTFont

                    with TTFont(io.BytesIO(data), lazy=True) as font:
                        cmap = frozenset(font.getBestCmap() or {})
                        x_height = _x_height(font)
                    sha = hashlib.sha256(data).hexdigest()
                    files[shown] = FontFile(f"pnpkit-{sha[:16]}", shown, data, sha, cmap, x_height=x_height)
                    return files[shown]
                why = f"{shown}: {why}"
        problems.append(Problem(display, key_line(key), key, str(why)))
        return None

    chains: dict[str, dict[str, tuple[FontFile, ...]]] = {}
    for role in ROLES:
        fonts = getattr(spec, role)
        base = f"style.fonts.{role}"
        if fonts is None:
            fonts, base = spec.body, "style.fonts.body"
        by: dict[str, tuple[FontFile, ...]] = {}
        for weight in WEIGHTS:
            chain: list[FontFile] = []
            pairs = [(fonts, base)] + [(p, f"{base}.fallback[{i}]") for i, p in enumerate(fonts.fallback)]
            for pair, where in pairs:
                upright = {"italic": "regular", "bold_italic": "bold"}.get(weight, weight)
                own = getattr(pair, weight)
                got = (
                    load(own, f"{where}.{weight}")
                    if own is not None
                    else load(getattr(pair, upright), f"{where}.{upright}")
                )
                if got is not None and weight != upright and (own is None or got.builtin):
                    got = replace(got, oblique=True)  # no italic file: the upright face, slanted
                if got is not None and all(got.name != f.name for f in chain):
                    chain.append(got)
            by[weight] = tuple(chain)
        chains[role] = by
    if problems:
        unique = list({(p.line, p.key, p.message): p for p in problems}.values())
        raise SpecError(unique)
    return KitFonts(chains, float(spec.heading_size))
