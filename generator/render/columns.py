"""Text for a terminal: how many columns a string takes there, and lines wrapped to a width in columns
(a Japanese character takes two). Shared by the commands' lines (`cli/output.say_wrapped`) and the check's
report (`render/console`); loads nothing but the standard library until a line holds Japanese."""

from __future__ import annotations

import re


def wrap_columns(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    """`text` in lines of at most `width` terminal columns (a wide character, as Japanese ones are, takes
    two), the first starting with `first` and the others with `rest` (an indent, a mark). Lines break at
    spaces, and inside Japanese between BudouX phrases with kinsoku kept (`layout.linebreak.may_break`); a
    number keeps its unit ("50 mm"). A word wider than a line stays whole (a path is never cut); Japanese
    wider than a line is cut between characters."""
    kept = _UNIT.sub("\\1\0\\2", text)
    room = max(1, width - max(columns(first), columns(rest)))
    tokens: list[tuple[str, str]] = []  # (piece, what joins it to the piece before it on one line)
    for word in kept.split(" "):
        if word:
            for k, piece in enumerate(_word_pieces(word, room)):
                tokens.append((piece, " " if k == 0 and tokens else ""))
    lines: list[str] = []
    line, pad = "", first
    for piece, joiner in tokens:
        if line and columns(pad + line + joiner + piece) > width:
            lines.append(pad + line)
            line, pad = piece, rest
        else:
            line = line + joiner + piece if line else piece
    if line:
        lines.append(pad + line)
    return [line.replace("\0", " ") for line in lines]


def columns(text: str) -> int:
    """How many terminal columns `text` takes: two for a wide or full-width character (East Asian Width W or
    F), none for a combining mark, one for any other."""
    import unicodedata

    wide = ("W", "F")
    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in wide else 1
        for ch in text
    )


def _word_pieces(word: str, room: int) -> list[str]:
    """`word` (no spaces) cut where a line may break inside it, only where Japanese meets Japanese or other
    text (a Latin word, a file name or a number stays whole); a piece wider than `room` columns that holds
    Japanese is cut between its characters."""
    from generator.layout.linebreak import is_cjk

    if not any(is_cjk(ch) for ch in word):
        return [word]
    from generator.layout.linebreak import may_break, split_cjk

    pieces: list[str] = []
    start = 0
    for i in range(1, len(word)):
        if (is_cjk(word[i - 1]) or is_cjk(word[i])) and may_break(word, i):
            pieces.append(word[start:i])
            start = i
    pieces.append(word[start:])
    return [
        part
        for piece in pieces
        for part in (split_cjk(piece) if columns(piece) > room and any(map(is_cjk, piece)) else [piece])
    ]


_UNIT = re.compile(r"(\d) (%|mm|cm|in|pt|s|dpi)(?![A-Za-z])")
"""A number and the unit after it, which `wrap_columns` keeps on one line."""
