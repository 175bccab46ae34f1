"""Rich text in a template's text element: `**bold**` and `*italic*` runs, `[#c33a2b]colour spans[/]` and
`:symbol:` inline icons (pnpkit's built-in symbols and the kit's own `style.icons` SVGs), with `\\*`,
`\\:` and `\\[` for a literal star, colon or bracket. A `:name:` that names neither is an error with the
nearest names. Italic is the kit's italic face where `style.fonts` gives one, else the upright face slanted
(the renderer's synthetic oblique).
A rich text is cut into pieces, wrapped word by word with each piece measured in its own weight, and drawn
as one Text op per run of a line plus the icons' shapes, so the fit, glyph and collision checks see every
piece like any other text."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial

from generator.errors import LayoutError
from generator.layout.linebreak import HYPHEN, hyphenate, is_cjk, segments, split_cjk
from generator.layout.ops import (
    INKS,
    INLINE_ICON,
    Anchor,
    Circle,
    FontKey,
    Op,
    Path,
    Polygon,
    Text,
    art_op,
    is_italic,
)
from generator.layout.shapes import SYMBOLS, symbol
from generator.layout.text import (
    Measure,
    UnprintableTextError,
    check_printable,
    paragraphs,
)
from generator.spec.assets import Asset
from generator.spec.kit import Kit
from generator.units import pt_text

X_HEIGHT = 0.54
"""Height of an inline icon as a fraction of the text size when the kit has no fonts of its own: BIZ
UDPGothic's x-height (1108 of 2048 units). A kit with `style.fonts` uses its body face's (`kit_x_height`)."""
ICON_SIDE = 0.12
"""Room on each side of an inline icon, as a fraction of the size."""
MAX_ASPECT = 3.0
"""A kit icon is drawn at most three x-heights wide (a wider SVG is fitted into that, keeping its shape)."""

_TOKEN = re.compile(r"\\([*:\\\[])|\*\*|\*|:([a-z][a-z0-9_]*):|\[(#[0-9a-fA-F]{6}|[a-z]+)\]|\[/\]")
_HEX = re.compile(r"#[0-9a-fA-F]{6}")
_ITALIC = re.compile(r"(?<![*\\])\*(?=[^\s*])[^*\n]*?(?<=[^\s*\\])\*(?!\*)")
"""A single-star span `*word*` (after `**` and escapes are blanked out)."""


@dataclass(frozen=True)
class Piece:
    """A run of text in one weight, or one inline icon (`icon` names the symbol, `text` is empty)."""

    text: str
    bold: bool
    icon: str = ""
    colour: str | None = None
    """'#rrggbb' or an ink name; None: the element's colour."""
    aspect: float = 1.0
    """An icon's width over its height (a kit icon's SVG; 1 for a built-in symbol)."""
    own: bool = False
    """The icon is the kit's own SVG (`style.icons`), not a built-in symbol."""
    height: float = X_HEIGHT
    """An icon's height as a fraction of the size: the x-height of the text's face."""
    italic: bool = False


def _is_colour(name: str) -> bool:
    return bool(_HEX.fullmatch(name)) or name in INKS


def _italic(text: str) -> bool:
    """Whether `text` holds a single-star `*italic*` span (escapes and `**` do not count)."""
    return bool(_ITALIC.search(re.sub(r"\\.|\*\*", "  ", text)))


def is_rich(text: str) -> bool:
    """Whether `text` uses rich-text markup: `**`, an escape, an icon `:name:`, a colour span
    `[#rrggbb]...[/]` / `[ink name]...[/]`, or an `*italic*` span."""
    return any(
        m.group(0) in ("**", "[/]") or m.group(1) or m.group(2) or (m.group(3) and _is_colour(m.group(3)))
        for m in _TOKEN.finditer(text)
    ) or _italic(text)


def unknown_icon(name: str, icons: Collection[str] = ()) -> str:
    """The message for `:name:` naming neither a built-in symbol nor one of the kit's `icons`."""
    known = sorted(set(SYMBOLS) | set(icons))
    near = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    hint = f"did you mean {' or '.join(':' + n + ':' for n in near)}? " if near else ""
    return (
        f"no icon :{name[:40]}: ({hint}built-in symbols: {', '.join(SYMBOLS)}; "
        "the kit's icons (style.icons): "
        f"{', '.join(sorted(icons)) or 'none'}; write \\: for a literal colon)"
    )


def kit_x_height(kit: Kit) -> float:
    """The x-height (a fraction of the size) inline icons stand as tall as: the kit's body face's, else the
    built-in font's."""
    return kit.fonts.x_height if kit.fonts is not None else X_HEIGHT


def parse_rich(
    text: str,
    where: str = "",
    *,
    bold: bool = False,
    icons: Mapping[str, Asset] | None = None,
    x_height: float = X_HEIGHT,
) -> list[Piece]:
    """`text` as pieces: `**` switches bold on and off, `*` italic (a star with spaces or the text's ends on
    both sides stays a star), `:name:` of a built-in symbol or of one of the kit's `icons` is an icon,
    `[#rrggbb]` or `[ink]` starts a colour span and `[/]` ends it (any other `[word]` stays text), `\\*`,
    `\\:`, `\\[` and `\\\\` are literal. An unclosed `**`, `*` or span, a `[/]` with no span or a `:name:`
    that is no icon is an UnprintableTextError naming `where`."""
    kit_icons: Mapping[str, Asset] = icons or {}
    out: list[Piece] = []
    buf = ""
    start = bold
    italic = False
    colours: list[str] = []
    pos = 0

    def flush() -> None:
        nonlocal buf
        if buf:
            out.append(Piece(buf, bold, colour=colours[-1] if colours else None, italic=italic))
        buf = ""

    for m in _TOKEN.finditer(text):
        buf += text[pos : m.start()]
        pos = m.end()
        if m.group(1):
            buf += m.group(1)
        elif m.group(0) == "**":
            flush()
            bold = not bold
        elif m.group(0) == "*":
            if text[m.start() - 1 : m.start()].strip() or text[m.end() : m.end() + 1].strip():
                flush()
                italic = not italic
            else:  # "2 * 3": a star standing alone is a star
                buf += "*"
        elif m.group(2):
            name = m.group(2)
            own = kit_icons.get(name)
            if own is None and name not in SYMBOLS:
                raise UnprintableTextError(where, text, unknown_icon(name, kit_icons))
            flush()
            aspect = min(MAX_ASPECT, max(1 / MAX_ASPECT, own.width / own.height)) if own is not None else 1.0
            out.append(
                Piece(
                    "",
                    bold,
                    name,
                    colours[-1] if colours else None,
                    aspect,
                    own is not None,
                    x_height,
                    italic,
                )
            )
        elif m.group(3) and _is_colour(m.group(3)):
            flush()
            colours.append(m.group(3))
        elif m.group(0) == "[/]":
            if not colours:
                raise UnprintableTextError(where, text, "a [/] closes no colour span")
            flush()
            colours.pop()
        else:
            buf += m.group(0)
    buf += text[pos:]
    flush()
    if bold != start:
        raise UnprintableTextError(where, text, "a ** (bold) is not closed")
    if italic:
        raise UnprintableTextError(where, text, "a * (italic) is not closed (write \\* for a literal star)")
    if colours:
        raise UnprintableTextError(where, text, f"a colour span [{colours[-1]}] is not closed with [/]")
    return out


Atom = tuple[Piece, ...]
"""A word: pieces with no break opportunity inside (it may end with spaces)."""


OBJECT = "\ufffc"
"""An inline icon's place in the text its breaks are computed on (UAX #14 CB: like a letter beside its
neighbours, so an icon stays with a word it touches and breaks beside Japanese)."""


def _with_text(piece: Piece, text: str) -> Piece:
    return Piece(text, piece.bold, colour=piece.colour, italic=piece.italic)


def _paragraph_pieces(pieces: list[Piece]) -> list[list[Piece]]:
    """`pieces` cut at the hard line breaks of their text."""
    paras: list[list[Piece]] = [[]]
    for piece in pieces:
        if piece.icon:
            paras[-1].append(piece)
            continue
        for n, para in enumerate(paragraphs(piece.text)):
            if n:
                paras.append([])
            if para:
                paras[-1].append(_with_text(piece, para))
    return paras


def _atoms(pieces: list[Piece]) -> list[list[Atom]]:
    """Paragraphs (at hard line breaks) of words: the pieces cut at the break opportunities of the
    paragraph's whole text (`linebreak.segments`, so a bold number keeps its plain unit and markup never
    opens a break), each word with its spaces."""
    out: list[list[Atom]] = []
    for para in _paragraph_pieces(pieces):
        plain = "".join(OBJECT if p.icon else p.text for p in para)
        ends: set[int] = set()
        pos = 0
        for seg in segments(plain):
            pos += len(seg)
            ends.add(pos)
        atoms: list[Atom] = []
        current: list[Piece] = []
        pos = 0
        for p in para:
            if p.icon:
                current.append(p)
                pos += 1
            else:
                start = 0
                for k in range(1, len(p.text) + 1):
                    if pos + k in ends:
                        current.append(_with_text(p, p.text[start:k]))
                        start = k
                        atoms.append(tuple(current))
                        current = []
                if start < len(p.text):
                    current.append(_with_text(p, p.text[start:]))
                pos += len(p.text)
            if pos in ends and current:
                atoms.append(tuple(current))
                current = []
        if current:
            atoms.append(tuple(current))
        out.append(atoms)
    return out


def _font(piece: Piece, base: FontKey) -> FontKey:
    """The font key of a piece in an element of font `base`: bold and italic each from either."""
    bold = piece.bold or base in ("bold", "bold_italic")
    if piece.italic or is_italic(base):
        return "bold_italic" if bold else "italic"
    return "bold" if bold else "regular"


def _width(pieces: tuple[Piece, ...] | list[Piece], base: FontKey, size: float, measure: Measure) -> float:
    """Advance of pieces set side by side (each text run in its weight, each icon its x-height plus room)."""
    total = 0.0
    for p in pieces:
        total += _icon_advance(p, size) if p.icon else measure(p.text, _font(p, base), size)
    return total


def _icon_advance(p: Piece, size: float) -> float:
    """The pen's move over an inline icon: its width at one x-height tall, and room on each side."""
    return size * (p.height * p.aspect + 2 * ICON_SIDE)


def _trimmed(line: list[Piece]) -> list[Piece]:
    """A line without its trailing spaces."""
    out = list(line)
    while out and not out[-1].icon and not out[-1].text.strip():
        out.pop()
    if out and not out[-1].icon:
        out[-1] = Piece(out[-1].text.rstrip(" "), out[-1].bold, colour=out[-1].colour, italic=out[-1].italic)
    return out


def _cut(atom: Atom, k: int) -> tuple[list[Piece], list[Piece]]:
    """`atom` (text pieces only) cut after its k-th character."""
    head: list[Piece] = []
    tail: list[Piece] = []
    pos = 0
    for p in atom:
        if pos + len(p.text) <= k:
            head.append(p)
        elif pos >= k:
            tail.append(p)
        else:
            head.append(_with_text(p, p.text[: k - pos]))
            tail.append(_with_text(p, p.text[k - pos :]))
        pos += len(p.text)
    return head, tail


def _fits_head(
    hyphened: Callable[[str, Atom], list[Piece]],
    rest: Atom,
    fits: Callable[[list[Piece], float], bool],
    room: float,
    head: str,
) -> bool:
    return fits(hyphened(head, rest), room)


def _split_atom(
    atom: Atom, lang: str, room: float, width: float, fits: Callable[[list[Piece], float], bool]
) -> list[Atom]:
    """An atom wider than a whole line, cut as `text.wrap` cuts a word: Japanese between characters,
    a word at `lang`'s hyphenation points (the hyphen in the last piece's weight); an icon keeps it whole."""
    if any(p.icon for p in atom):
        return [atom]
    text = "".join(p.text for p in atom)
    if any(is_cjk(ch) for ch in text):
        out: list[Atom] = []
        rest = list(atom)
        for seg in split_cjk(text)[:-1]:
            head, tail = _cut(tuple(rest), len(seg))
            out.append(tuple(head))
            rest = tail
        return [*out, tuple(rest)]

    def hyphened(head_text: str, rest: Atom) -> list[Piece]:
        bare = head_text[: -len(HYPHEN)] if head_text.endswith(HYPHEN) else head_text
        head, _ = _cut(rest, len(bare))
        if len(bare) < len(head_text):
            head[-1] = _with_text(head[-1], head[-1].text + HYPHEN)
        return head

    parts: list[Atom] = []
    rest_atom = atom
    while not fits(_trimmed(list(rest_atom)), width):
        word = "".join(p.text for p in rest_atom)
        limit = room if not parts else width
        cut = hyphenate(word, lang, partial(_fits_head, hyphened, rest_atom, fits, limit))
        if cut is None and not parts and room < width:
            cut = hyphenate(word, lang, partial(_fits_head, hyphened, rest_atom, fits, width))
        if cut is None:
            break
        parts.append(tuple(hyphened(cut[0], rest_atom)))
        rest_atom = tuple(_cut(rest_atom, len(word) - len(cut[1]))[1])
    return [*parts, rest_atom] if rest_atom else parts


def wrap_rich(
    pieces: list[Piece], base: FontKey, size: float, width: float, measure: Measure, *, lang: str = ""
) -> list[list[Piece]]:
    """Greedy line breaking at the break opportunities of `linebreak.segments` (hard breaks kept); a word
    wider than the line is cut (Japanese between characters, Latin at `lang`'s hyphenation points), else it
    gets a line of its own."""

    def fits(line: list[Piece], room: float) -> bool:
        return _width(line, base, size, measure) <= room

    lines: list[list[Piece]] = []
    for para in _atoms(pieces):
        line: list[Piece] = []
        for whole in para:
            parts = [whole]
            if not fits(_trimmed(list(whole)), width):
                room = width - _width(line, base, size, measure) if _trimmed(line) else width
                parts = _split_atom(whole, lang, room, width, fits)
            for n, atom in enumerate(parts):
                trial = _trimmed(line + list(atom))
                hyphened = n > 0 and not parts[n - 1][-1].icon and parts[n - 1][-1].text.endswith(HYPHEN)
                if line and (hyphened or not fits(trial, width)):
                    lines.append(_trimmed(line))
                    line = list(atom)
                else:
                    line += atom
        lines.append(_trimmed(line))
    return lines


@dataclass(frozen=True)
class RichBlock:
    """Wrapped rich lines, the size chosen and the line height."""

    lines: tuple[tuple[Piece, ...], ...]
    size: float
    leading: float

    @property
    def height(self) -> float:
        """Height from the first line's top to the last baseline."""
        return self.leading * len(self.lines)


def fit_rich(
    pieces: list[Piece],
    base: FontKey,
    width: float,
    height: float,
    measure: Measure,
    *,
    size: float,
    min_size: float,
    leading: float = 1.3,
    wrap: bool = True,
    where: str = "",
    lang: str = "",
) -> RichBlock:
    """Wrap (or keep on one line) `pieces` into width x height, shrinking the size in 0.25 pt steps down to
    min_size; a LayoutError naming `where` when it still does not fit."""
    for p in pieces:
        check_printable(p.text, where, one_line=not wrap)
    s = size
    while True:
        lines = wrap_rich(pieces, base, s, width, measure, lang=lang) if wrap else [_trimmed(list(pieces))]
        too_wide = any(_width(line, base, s, measure) > width + 0.01 for line in lines)
        if not too_wide and len(lines) * s * leading <= height + 0.01:
            return RichBlock(tuple(tuple(line) for line in lines), s, s * leading)
        if s - 0.25 < min_size:
            shown = "".join(p.text or f":{p.icon}:" for p in pieces)
            raise LayoutError(
                f"{where}: text does not fit a {width:.0f}x{height:.0f} pt box even at "
                f"{pt_text(min_size)}: {shown[:60]!r}"
            )
        s -= 0.25


@cache
def _unit_extent(kind: str) -> tuple[float, float]:
    """How far a built-in symbol of radius 1 centred at 0 reaches below and above its centre."""
    ys: list[float] = []
    for op in symbol(kind, 0.0, 0.0, 1.0, fill="ink", stroke=None):
        if isinstance(op, Circle):
            ys += [op.cy - op.r, op.cy + op.r]
        elif isinstance(op, Polygon):
            ys += [y for _, y in op.points]
        elif isinstance(op, Path):
            ys += [float(v) for c in op.commands for v in c[2::2] if isinstance(v, (int, float))]
    return (min(ys), max(ys)) if ys else (-1.0, 1.0)


def _runs(pieces: Sequence[Piece]) -> list[Piece]:
    """A line's pieces with neighbouring words of one weight, slant and colour joined: one op per run of
    one weight, not per word (icons stay pieces of their own)."""
    line: list[Piece] = []
    for p in pieces:
        if (
            line
            and not p.icon
            and not line[-1].icon
            and (line[-1].bold, line[-1].italic, line[-1].colour) == (p.bold, p.italic, p.colour)
        ):
            line[-1] = Piece(line[-1].text + p.text, p.bold, colour=p.colour, italic=p.italic)
        else:
            line.append(p)
    return line


def rich_ops(
    block: RichBlock,
    x: float,
    top: float,
    measure: Measure,
    *,
    base: FontKey = "regular",
    fill: str = "ink",
    anchor: Anchor = "start",
    text_id: str = "",
    icons: Mapping[str, Asset] | None = None,
) -> list[Op]:
    """Ops of a fitted rich block whose first line's top sits at `top`: per line, one Text op per run of one
    weight (anchored at its start) and each icon on the baseline, one x-height tall: a built-in symbol in the
    text's colour, a kit icon (`icons`) as its SVG in its own colours (tinted inside a colour span); the line
    placed by `anchor` about x."""
    ops: list[Op] = []
    s = block.size
    y = top - s
    for pieces in block.lines:
        line = _runs(pieces)
        w = _width(line, base, s, measure)
        cx = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
        for p in line:
            if p.own:
                asset = (icons or {}).get(p.icon)
                if asset is None:
                    raise LayoutError(f"{text_id or 'text'}: the kit icon :{p.icon}: was not loaded")
                ops.append(
                    art_op(
                        asset,
                        cx + s * ICON_SIDE,
                        y,
                        s * p.height * p.aspect,
                        s * p.height,
                        fit="contain",
                        tint=p.colour,
                        slot=f"{INLINE_ICON}{p.icon}",
                    )
                )
                cx += _icon_advance(p, s)
            elif p.icon:
                bottom, top = _unit_extent(p.icon)
                r = s * p.height / (top - bottom)  # the symbol's own ink one x-height tall, on the baseline
                ops += symbol(
                    p.icon,
                    cx + s * (ICON_SIDE + p.height / 2),
                    y - bottom * r,
                    r,
                    fill=p.colour or fill,
                    stroke=None,
                )
                cx += _icon_advance(p, s)
            elif p.text:
                font = _font(p, base)
                if p.text.strip():  # a run of spaces only moves the pen
                    ops.append(
                        Text(
                            cx,
                            y,
                            p.text,
                            s,
                            font=font,
                            fill=p.colour or fill,
                            anchor="start",
                            text_id=text_id,
                        )
                    )
                cx += measure(p.text, font, s)
        y -= block.leading
    return ops
