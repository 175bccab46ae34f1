"""Rich text in a template's text element: `**bold**` and `*italic*` runs, `[#c33a2b]colour spans[/]` and
`:symbol:` inline icons (pnpkit's built-in symbols and the kit's own `style.icons` SVGs), with `\\*`, `\\:` and
`\\[` for a literal star, colon or bracket. A `:name:` that names neither is an error with the nearest names.
Italic is the kit's italic face where `style.fonts` gives one, else the upright face slanted (the renderer's
synthetic oblique).
A rich text is cut into pieces, wrapped word by word with each piece measured in its own weight, and drawn
as one Text op per run of a line plus the icons' shapes, so the fit, glyph and collision checks see every
piece like any other text."""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import cache

from generator.errors import LayoutError
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
    _NO_END,
    _NO_START,
    Measure,
    UnprintableTextError,
    _is_cjk,
    _tokens,
    check_printable,
    paragraphs,
)
from generator.spec.assets import Asset
from generator.spec.kit import Kit
from generator.units import pt_text

X_HEIGHT = 0.54
"""Height of an inline icon as a fraction of the text size when the kit has no fonts of its own: BIZ UDPGothic's
x-height (1108 of 2048 units). A kit with `style.fonts` uses its body face's (`kit_x_height`)."""
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
        f"no icon :{name[:40]}: ({hint}built-in symbols: {', '.join(SYMBOLS)}; the kit's icons (style.icons): "
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
    `[#rrggbb]` or `[ink]` starts a colour span and `[/]` ends it (any other `[word]` stays text), `\\*`, `\\:`,
    `\\[` and `\\\\` are literal. An unclosed `**`, `*` or span, a `[/]` with no span or a `:name:` that is no
    icon is an UnprintableTextError naming `where`."""
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


def _breakable(prev: Piece, nxt: Piece) -> bool:
    """Whether a line may break between `prev` and `nxt` (neither a space): beside a CJK character, as plain
    wrapping does, kinsoku kept (no break before a closing bracket or '。', none after an opening one); an icon
    counts as a CJK character when it stands beside one."""
    before = prev.text[-1:] if not prev.icon else ""
    after = nxt.text[:1] if not nxt.icon else ""
    if after in _NO_START or before in _NO_END:
        return False
    return (bool(before) and _is_cjk(before)) or (bool(after) and _is_cjk(after))


def _atoms(pieces: list[Piece]) -> list[list[Atom]]:
    """Paragraphs (at hard line breaks) of words: a word ends after its spaces, and beside CJK characters
    (Japanese breaks between characters)."""
    paras: list[list[Atom]] = [[]]
    current: list[Piece] = []

    def close() -> None:
        if current:
            paras[-1].append(tuple(current))
            current.clear()

    def add(piece: Piece) -> None:
        if current and _breakable(current[-1], piece):
            close()
        current.append(piece)
        if piece.text.endswith(" "):
            close()

    for piece in pieces:
        if piece.icon:
            add(piece)
            continue
        for n, para in enumerate(paragraphs(piece.text)):
            if n:
                close()
                paras.append([])
            for word in _tokens(para):
                add(Piece(word, piece.bold, colour=piece.colour, italic=piece.italic))
    close()
    return paras


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


def wrap_rich(
    pieces: list[Piece], base: FontKey, size: float, width: float, measure: Measure
) -> list[list[Piece]]:
    """Greedy line breaking between words (hard breaks kept); a word wider than the line gets a line."""
    lines: list[list[Piece]] = []
    for para in _atoms(pieces):
        line: list[Piece] = []
        for atom in para:
            trial = _trimmed(line + list(atom))
            if line and _width(trial, base, size, measure) > width:
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
) -> RichBlock:
    """Wrap (or keep on one line) `pieces` into width x height, shrinking the size in 0.25 pt steps down to
    min_size; a LayoutError naming `where` when it still does not fit."""
    for p in pieces:
        check_printable(p.text, where, one_line=not wrap)
    s = size
    while True:
        lines = wrap_rich(pieces, base, s, width, measure) if wrap else [_trimmed(list(pieces))]
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
        line: list[Piece] = []
        for p in pieces:  # one op per run of one weight, not per word
            if (
                line
                and not p.icon
                and not line[-1].icon
                and (line[-1].bold, line[-1].italic, line[-1].colour) == (p.bold, p.italic, p.colour)
            ):
                line[-1] = Piece(line[-1].text + p.text, p.bold, colour=p.colour, italic=p.italic)
            else:
                line.append(p)
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
