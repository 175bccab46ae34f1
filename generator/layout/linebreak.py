"""Where a line may break: the Unicode line-breaking rules (UAX #14) a rules text needs, BudouX phrases for
Japanese, a number kept with its unit, and pyphen hyphenation for a word wider than its line.

`segments` cuts a paragraph into pieces no line may break inside (each with its trailing spaces); the wrappers
(`text.wrap`, `rich.wrap_rich`) set pieces greedily. `hyphenate` splits a Latin word that does not fit a whole
line at the dictionary's hyphenation points, `split_cjk` a Japanese phrase wider than the line between its
characters (kinsoku kept). docs/text.md lists the rules."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from typing import TYPE_CHECKING

import budoux

if TYPE_CHECKING:  # pyphen loads its dictionary list on import: only when a word must be hyphenated
    import pyphen

SPACE = " "
"""The only breaking space: NO-BREAK SPACE (U+00A0) and NARROW NO-BREAK SPACE (U+202F) glue (UAX #14 GL)."""

CLOSING = frozenset(
    ")]}»›”’"  # CL / CP / QU closing (LB13, LB19)
    ".,:;!?%‰°"  # IS, EX, PO: never start a line, spaces before them included (French "Attention !")
    "、。，．・：；？！ー）」』】〕〉》〗〙〛｝］"  # CJK CL and NS (kinsoku: never at a line start)
    # small kana and iteration marks
    "ゝゞ々ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
)
"""Characters no line starts with."""

OPENING = frozenset("([{«‹„¿¡（「『【〔〈《〖〘〚｛［")
"""Characters no line ends with (OP: nor the spaces after them)."""

HYPHENS = frozenset("-\u2010/")
"""After these a line may break between two letters (HY, BA; SY before a letter)."""

GLUE_BEFORE = frozenset("→·×=")
"""Infix signs that never start a line: "12 → 10", "Die 1 · Lilac", "3 × 4"."""

GLUE_AFTER = frozenset("→×=")
"""Infix signs that never end a line when a number follows them: the result stays with its sign."""

UNITS = frozenset(
    "mm cm m km in pt px dpi % ‰ ° °C °F g kg l ml s min h x × € $ £ ¥ Min. Sek. Std. cl dl".split()
)
"""Words that are a number's unit: no break between "16" and "mm"."""

_WORD_END = ".,;:!?)]}»”’"


def is_cjk(ch: str) -> bool:
    """Whether `ch` is a Japanese/CJK character: kana, ideographs, CJK punctuation, full-width forms."""
    o = ord(ch)
    return 0x3000 <= o <= 0x9FFF or 0xFF00 <= o <= 0xFFEF or 0xF900 <= o <= 0xFAFF


def _has_cjk(text: str) -> bool:
    return any(is_cjk(ch) for ch in text)


@cache
def _budoux() -> budoux.Parser:
    return budoux.load_default_japanese_parser()


@lru_cache(maxsize=4096)
def _phrase_starts(text: str) -> frozenset[int]:
    """Offsets where a BudouX phrase of `text` starts (0 excluded)."""
    starts: set[int] = set()
    pos = 0
    for phrase in _budoux().parse(text):
        pos += len(phrase)
        starts.add(pos)
    starts.discard(len(text))
    return frozenset(starts)


def _is_number_end(word: str) -> bool:
    return bool(word) and word[-1].isdigit()


def _next_word(text: str, i: int) -> str:
    j = i
    while j < len(text) and text[j] != SPACE:
        j += 1
    return text[i:j]


def _unit(word: str) -> bool:
    """Whether `word` is a unit, or starts with one before a hyphen ("mm-Würfel")."""
    return word in UNITS or word.rstrip(_WORD_END) in UNITS or word.split("-", 1)[0] in UNITS


def may_break(text: str, i: int, *, phrases: bool = True, japanese: bool | None = None) -> bool:
    """Whether a line may break before `text[i]` (0 < i < len(text)). `phrases`: inside Japanese, only
    between BudouX phrases (else between any two characters, kinsoku kept); `japanese`: whether `text` holds
    Japanese (computed when not given)."""
    a, b = text[i - 1], text[i]
    if b == SPACE:  # LB7: spaces stay on the line they end
        return False
    if b in CLOSING or b in GLUE_BEFORE:  # LB13, LB16: never before closing punctuation (spaces or not)
        return False
    k = i - 1
    while k >= 0 and text[k] == SPACE:
        k -= 1
    before = text[k] if k >= 0 else ""
    if before in OPENING:  # LB14: never after an opening bracket (spaces or not)
        return False
    if a == SPACE:
        word = text[text.rfind(SPACE, 0, k + 1) + 1 : k + 1]
        if _is_number_end(word) and _unit(_next_word(text, i)):
            return False  # "16 mm": a number keeps its unit
        if before in GLUE_AFTER and b.isdigit():
            return False  # "→ 10": a result keeps its arrow
        return True  # LB18: after spaces
    if is_cjk(a) or is_cjk(b):  # LB31 between ideographs (ID), kana; NS and CL handled above
        if a.isdigit() and b.isdigit():
            return False
        if japanese is None:
            japanese = _has_cjk(text)
        return not phrases or not japanese or i in _phrase_starts(text)
    if a in HYPHENS:  # LB21, LB25: after a hyphen between letters ("Würfel-/Wert"), never before a digit
        return i >= 2 and text[i - 2].isalpha() and b.isalpha()
    return False


def segments(text: str, *, phrases: bool = True) -> list[str]:
    """`text` (one paragraph) cut at its break opportunities: pieces that concatenate to `text`, each ending
    with the spaces after it."""
    return list(_segments(text, phrases))


@lru_cache(maxsize=8192)
def _segments(text: str, phrases: bool) -> tuple[str, ...]:
    # cached: a fit wraps the same paragraph at every size it tries
    out: list[str] = []
    start = 0
    japanese = _has_cjk(text)
    for i in range(1, len(text)):
        if may_break(text, i, phrases=phrases, japanese=japanese):
            out.append(text[start:i])
            start = i
    if start < len(text):
        out.append(text[start:])
    return tuple(out)


def split_cjk(token: str) -> list[str]:
    """A Japanese phrase too wide for its line, cut between its characters (kinsoku kept)."""
    return segments(token, phrases=False)


@lru_cache(maxsize=32)
def _dictionary(lang: str) -> pyphen.Pyphen | None:
    import pyphen

    found = pyphen.language_fallback(lang.replace("-", "_")) if lang else None
    return pyphen.Pyphen(lang=found, left=3, right=3) if found else None


HYPHEN = "-"
"""The hyphen drawn at the end of a hyphenated line."""


def hyphenate(word: str, lang: str, fits: Callable[[str], bool]) -> tuple[str, str] | None:
    """`word` (a word and its trailing spaces) cut at the latest hyphenation point of `lang`'s dictionary
    whose head, with its hyphen, `fits`: (head with its hyphen, tail). None when no point fits, the word
    is not all letters or the language has no dictionary."""
    dic = _dictionary(lang)
    core = word.rstrip(SPACE)
    lead = len(core) - len(core.lstrip(_WORD_END + "(\"'„“«"))
    stem = core[lead:].rstrip(_WORD_END)
    if dic is None or not stem.isalpha():
        return None
    for pos in sorted(dic.positions(stem), reverse=True):
        head = core[: lead + pos]
        hyphen = "" if head.endswith(tuple(HYPHENS)) else HYPHEN
        if fits(head + hyphen):
            return head + hyphen, word[lead + pos :]
    return None
