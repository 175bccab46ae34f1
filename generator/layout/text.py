"""Text fitting and wrapping, measured with a function the hallway passes in (the render room's metrics)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from generator.errors import LayoutError
from generator.layout.linebreak import HYPHEN, hyphenate, is_cjk, segments, split_cjk
from generator.layout.ops import Anchor, FontKey, Op, Rect, Role, Text
from generator.units import pt_text

Measure = Callable[[str, str, float], float]
"""(text, font key, size) -> width in points."""

_BREAK_RE = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
"""A hard line break: LF, CR LF, CR, NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR."""


def paragraphs(text: str) -> list[str]:
    """`text` cut at its hard line breaks (every newline convention counts as one break)."""
    return _BREAK_RE.split(text)


def has_line_break(text: str) -> bool:
    """Whether `text` holds a hard line break."""
    return _BREAK_RE.search(text) is not None


def control_characters(text: str) -> str:
    """The distinct control characters of `text` that cannot be printed (tabs, NUL, ESC, ...), line breaks
    excepted, in order of first appearance."""
    return "".join(dict.fromkeys(ch for ch in _BREAK_RE.sub("", text) if unicodedata.category(ch) == "Cc"))


def _codes(chars: str) -> str:
    return ", ".join(f"U+{ord(ch):04X}" for ch in chars)


class UnprintableTextError(LayoutError):
    """A text that cannot be set as it is: a line break where one line is drawn, a control character, broken
    rich-text markup. Carries the text so the build can locate it at its catalog line."""

    def __init__(self, where: str, text: str, problem: str):
        self.text = text
        self.problem = problem
        super().__init__(f"{where}: {problem}; got {text[:80]!r}")


def check_printable(text: str, where: str, *, one_line: bool = False) -> None:
    """Raise a UnprintableTextError naming `where` when `text` holds a control character, or (`one_line`) a
    line break: a one-line slot cannot show one, and a shaper or rasteriser would fail or draw a box for
    it."""
    bad = control_characters(text)
    if bad:
        raise UnprintableTextError(where, text, f"control character {_codes(bad)} cannot be printed")
    if one_line and has_line_break(text):
        raise UnprintableTextError(
            where, text, "a line break in a text printed on one line (only wrapped text breaks lines)"
        )


def _is_cjk(ch: str) -> bool:
    return is_cjk(ch)


def _tokens(text: str) -> list[str]:
    """Break opportunities of one paragraph (docs/text.md, "Where a line breaks"): pieces with their trailing
    spaces, cut by UAX #14 and, in Japanese, between BudouX phrases."""
    return segments(text)


WIDOW_CJK = 4
"""Fewest characters a Japanese paragraph's last line may hold (a lone 「ん。」 is a widow)."""
WIDOW_WORDS = 2
"""Fewest words a Latin paragraph's last line may hold."""


def _short_last(tokens: list[str]) -> bool:
    text = "".join(tokens).strip()
    if any(_is_cjk(ch) for ch in text):
        return len(text) < WIDOW_CJK
    return len(text.split()) < WIDOW_WORDS


def _no_widow(lines: list[list[str]], font: str, size: float, width: float, measure: Measure) -> None:
    """Widow control: while a paragraph's last line is too short, move the previous line's last token down,
    as long as the last line still fits and the previous one keeps two tokens."""
    if len(lines) < 2:
        return
    last, prev = lines[-1], lines[-2]
    while _short_last(last) and len(prev) > 2:
        trial = [prev[-1]] + last
        if measure("".join(trial).strip(), font, size) > width:
            return
        if not prev[-1].endswith(" ") and not any(_is_cjk(ch) for ch in prev[-1]):
            return
        last.insert(0, prev.pop())


def _too_wide(
    tok: str, lang: str, room: float, width: float, fits: Callable[[str, float], bool]
) -> list[str]:
    """A piece wider than a whole line, cut: a Japanese phrase between its characters (kinsoku kept), a word
    at its hyphenation points (`lang`'s dictionary; the first part filling `room`, the rest `width`). Pieces
    that cannot be cut stay whole (the fit shrinks the size)."""
    if any(is_cjk(ch) for ch in tok):
        return split_cjk(tok)
    out: list[str] = []
    rest = tok
    while not fits(rest.rstrip(), width):
        cut = hyphenate(rest, lang, lambda head: fits(head, room if not out else width))
        if cut is None and not out and room < width:
            cut = hyphenate(rest, lang, lambda head: fits(head, width))
        if cut is None:
            break
        out.append(cut[0])
        rest = cut[1]
    return out + [rest] if rest else out


def wrap(text: str, font: str, size: float, width: float, measure: Measure, *, lang: str = "") -> list[str]:
    """Greedy line breaking at the break opportunities of UAX #14 (spaces, after hyphens, between Japanese
    BudouX phrases; never before closing punctuation, after an opening bracket or between a number and its
    unit), a piece wider than a whole line cut (`lang`'s hyphenation, a hyphen drawn and measured), then
    widow control (a paragraph does not end on one word or on fewer than 4 Japanese characters when the line
    above can give some); explicit newlines are kept."""

    def fits(line: str, room: float) -> bool:
        return measure(line, font, size) <= room

    lines: list[str] = []
    for para in paragraphs(text):
        rows: list[list[str]] = [[]]
        for whole in _tokens(para):
            parts = [whole]
            if not fits(whole.rstrip(), width):
                used = "".join(rows[-1])
                room = width - measure(used, font, size) if used.strip() else width
                parts = _too_wide(whole, lang, room, width, fits)
            for n, tok in enumerate(parts):
                trial = "".join(rows[-1]) + tok
                if rows[-1] and (n > 0 and parts[n - 1].endswith(HYPHEN) or not fits(trial.rstrip(), width)):
                    rows.append([tok.lstrip()])
                else:
                    rows[-1].append(tok)
        _no_widow(rows, font, size, width, measure)
        lines.extend("".join(r).rstrip() for r in rows)
    return lines


@dataclass(frozen=True)
class Fitted:
    """A wrapped block: its lines, the size chosen and the line height."""

    lines: tuple[str, ...]
    size: float
    leading: float

    @property
    def height(self) -> float:
        """Height of the block from the first baseline's top to the last baseline."""
        return self.leading * len(self.lines)


def fit_block(
    text: str,
    font: str,
    width: float,
    height: float,
    measure: Measure,
    *,
    size: float,
    min_size: float,
    leading: float = 1.3,
    where: str = "",
    lang: str = "",
) -> Fitted:
    """Wrap `text` into width x height, shrinking the size in 0.25 pt steps down to min_size; a text that
        still does not fit is a LayoutError naming `where`; a control character is a UnprintableTextError.
    `lang` picks the hyphenation dictionary for a word wider than the box."""
    check_printable(text, where)
    s = size
    while True:
        lines = wrap(text, font, s, width, measure, lang=lang)
        too_wide = any(measure(line, font, s) > width + 0.01 for line in lines)
        if not too_wide and len(lines) * s * leading <= height + 0.01:
            return Fitted(tuple(lines), s, s * leading)
        if s - 0.25 < min_size:
            raise LayoutError(
                f"{where}: text does not fit a {width:.0f}x{height:.0f} pt box even at {pt_text(min_size)}: "
                f"{text[:60]!r}"
            )
        s -= 0.25


def fit_line(
    text: str, font: str, width: float, measure: Measure, *, size: float, min_size: float, where: str = ""
) -> float:
    """The largest size <= size at which one line fits `width` (LayoutError below min_size; a
    UnprintableTextError for a line break or control character)."""
    check_printable(text, where, one_line=True)
    w = measure(text, font, size)
    if w <= width:
        return size
    s = size * width / w
    if s < min_size:
        raise LayoutError(
            f"{where}: {text!r} needs {pt_text(w)} at {pt_text(size)} but the box is {pt_text(width)} wide "
            f"(min size {pt_text(min_size)})"
        )
    return s


def block_ops(
    fitted: Fitted,
    x: float,
    top: float,
    *,
    font: FontKey = "regular",
    fill: str = "ink",
    anchor: Anchor = "start",
    text_id: str = "",
    role: Role = "body",
) -> list[Text]:
    """Text ops for a fitted block whose first line's top sits at `top`."""
    ops: list[Text] = []
    y = top - fitted.size
    for line in fitted.lines:
        ops.append(
            Text(x, y, line, fitted.size, font=font, fill=fill, anchor=anchor, text_id=text_id, role=role)
        )
        y -= fitted.leading
    return ops


def number_ops(
    text: str,
    x: float,
    baseline: float,
    size: float,
    fill: str,
    measure: Measure,
    *,
    rotate: float = 0.0,
    font: FontKey = "bold",
) -> list[Op]:
    """A centred number; 6 and 9 underlined so they read the same upside down (a corner index turned 180
    degrees gets its bar under the turned glyph). Every card number and corner index draws through this."""
    ops: list[Op] = [
        Text(x, baseline, text, size, font=font, fill=fill, anchor="middle", rotate=rotate, role="number")
    ]
    if text in ("6", "9"):
        uw = measure(text, font, size)
        thick = size * 0.06
        y = (
            baseline - size * 0.09 - thick if not rotate else baseline + size * 0.09
        )  # clear of the glyph's ink
        ops.append(Rect(x - uw / 2, y, uw, thick, fill=fill, stroke=None))
    return ops


def circle_text(
    text: str,
    cx: float,
    cy: float,
    r: float,
    measure: Measure,
    *,
    size: float,
    stroke: float = 1.0,
    room: float | None = None,
    font: FontKey = "bold",
    fill: str = "ink",
    ascent: float = 0.72,
) -> Text:
    """A number centred in a circle of radius r, at `size` or smaller so that the corners of its box (advance
    width x cap height) keep `room` points (default the larger of 1.5 pt and 0.22 r) inside the circle's
    stroke: two-digit numbers no longer touch it."""
    inner = r - stroke / 2 - (max(1.5, 0.22 * r) if room is None else room)
    w = measure(text, font, size)
    half_w, half_h = w / 2, size * ascent / 2
    reach = (half_w**2 + half_h**2) ** 0.5
    if reach > inner > 0:
        size *= inner / reach
    return Text(cx, cy - size * ascent / 2, text, size, font=font, fill=fill, anchor="middle", role="number")


def vertical_label(
    text: str,
    cx: float,
    cy: float,
    size: float,
    length: float,
    measure: Measure,
    *,
    font: FontKey = "regular",
    fill: str = "ink",
    text_id: str = "",
    min_size: float = 4.0,
    where: str = "",
) -> list[Text]:
    """A label running up a narrow column, centred on (cx, cy) within `length` points along it. Japanese is
    set vertically (tategaki): each character upright, top to bottom, one em apart; a long-vowel mark is
    turned to run down the column. Latin text is turned 90 degrees to read bottom to top, its glyphs centred
    on cx."""
    if text and all(_is_cjk(ch) for ch in text):
        s = min(size, length / len(text))
        if s < min_size:
            raise LayoutError(
                f"{where}: {text!r} needs {pt_text(len(text) * min_size)} of column at {pt_text(min_size)}; "
                f"the column has {pt_text(length)}"
            )
        ops: list[Text] = []
        top = cy + s * len(text) / 2
        for i, ch in enumerate(text):
            centre = top - (i + 0.5) * s
            if ch in "ー−～〜":  # a horizontal stroke becomes vertical in a vertical line
                ops.append(
                    Text(
                        cx - s * 0.38,
                        centre,
                        ch,
                        s,
                        font=font,
                        fill=fill,
                        anchor="middle",
                        text_id=text_id,
                        rotate=-90,
                    )
                )
            else:
                ops.append(
                    Text(cx, centre - s * 0.38, ch, s, font=font, fill=fill, anchor="middle", text_id=text_id)
                )
        return ops
    s = fit_line(text, font, length, measure, size=size, min_size=min_size, where=where)
    return [
        Text(cx + s * 0.36, cy, text, s, font=font, fill=fill, anchor="middle", rotate=90, text_id=text_id)
    ]
