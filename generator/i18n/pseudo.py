"""The pseudo-locale `qps`: English made 40 % longer and accented, as Android's en-XA, so a layout can be
tried against translation before a translator starts.

Every catalog string becomes `[Ŝţŕîñĝ ōñé ţŵō]`: its letters accented (a glyph test that the font has them),
brackets that show where a box cut it off, and filler words that make it 40 % longer than the English (German
and French run 20-35 % longer than English). Template tags (`{{ n }}`, `{% if %}`) are kept as they are, so
the spec's numbers and plural choices still print; so is rich-text markup (`:coin:`, `[#c33a2b]`, `[/]`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from generator.spec.catalogs import PSEUDO, Catalog

GROWTH = 0.4
"""How much longer than the English a pseudo string is (0.4 = 40 %, brackets included)."""

_ACCENTED = str.maketrans(
    "acdeghiklnorstuwyzABCDEGHIKLNORSTUWYZ",
    "åçđéĝĥîķĺñöŕšţûŵýžÅßÇĐÉĜĤÎĶĹÑÖŘŠŤÛŴÝŽ",  # letters the built-in font has accented
)
_FILLER = " öñé ţŵö ţĥŕéé ƒöûŕ ƒîvé šîx šévéñ éîĝĥţ ñîñé ţéñ"
_TAG_RE = re.compile(
    r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}|(:[a-z][a-z0-9_]*:|\[#[0-9a-fA-F]{6}\]|\[[a-z]+\]|\[/\]|\\(?!\{[{%#]).)",
    re.DOTALL,
)
"""Template tags, and rich-text markup (an icon `:name:`, a colour span's `[#rrggbb]` / `[ink]` / `[/]`, an
escape), which stay as written so the pseudo-locale prints the same icons and colours. A backslash before a
template tag escapes nothing: the tag is still a tag to Jinja."""


def accent(text: str) -> str:
    """`text` with its ASCII letters replaced by accented ones (the same length)."""
    return text.translate(_ACCENTED)


@lru_cache(maxsize=4096)
def pseudo_text(template: str) -> str:
    """One catalog string in the pseudo-locale: accented, bracketed and 40 % longer; tags untouched."""
    if not template:
        return template
    parts: list[str] = []
    visible = 0
    last = 0
    for m in _TAG_RE.finditer(template):
        chunk = template[last : m.start()]
        parts.append(accent(chunk))
        parts.append(m.group(0))
        visible += len(chunk) + (1 if m.group(1) else 2)  # a tag prints a value: count it as a short number
        last = m.end()
    chunk = template[last:]
    parts.append(accent(chunk))
    visible += len(chunk)
    extra = max(0, math.ceil(visible * GROWTH) - 2)  # the two brackets count towards the growth
    filler = (_FILLER * (extra // len(_FILLER) + 1))[:extra]
    if filler.endswith(" "):
        filler = filler[:-1] + "·"  # never end on a space the layout would trim
    return "[" + "".join(parts) + filler + "]"


def pseudo_catalog(english: Catalog, keep: frozenset[str] = frozenset()) -> Catalog:
    """The pseudo-locale's catalog, made from the English one (same ids, lines and file: an overflow in `qps`
    is located at the English string, which is what a translator will translate). Ids in `keep` stay English
    (a box already reported as overflowing, so the next one can be found)."""
    messages: Mapping[str, str] = MappingProxyType(
        {tid: text if tid in keep else pseudo_text(text) for tid, text in english.messages.items()}
    )
    return Catalog(PSEUDO, english.path, messages, english.lines, english.header)


__all__ = ["GROWTH", "PSEUDO", "accent", "pseudo_catalog", "pseudo_text"]
