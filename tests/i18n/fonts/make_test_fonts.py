"""Build the tiny fonts the font tests use (run from the repository root to regenerate them):

    python3 tests/i18n/fonts/make_test_fonts.py

`PnpkitTestHangul.ttf` draws the Hangul syllables of KOREAN_TEXT (and a space) as simple boxes with
TrueType outlines; `PnpkitTestRestricted.ttf` is the same font marked "restricted licence" (OS/2 fsType 2),
which pdf embedding must refuse. Both are our own work, released under the SIL Open Font License 1.1
(see OFL.txt beside them)."""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

KOREAN_TEXT = "리플러시숫자카드목표점수표규칙요약"
"""Every Hangul syllable the test catalog uses."""


def _box(width: int, inset: int) -> object:
    pen = TTGlyphPen(None)
    pen.moveTo((inset, 0))
    pen.lineTo((inset, 700))
    pen.lineTo((width - inset, 700))
    pen.lineTo((width - inset, 0))
    pen.closePath()
    return pen.glyph()


def build(path: Path, *, family: str, fs_type: int) -> None:
    """One font: .notdef, space and a box per syllable of KOREAN_TEXT."""
    chars = sorted(set(KOREAN_TEXT))
    names = [".notdef", "space"] + [f"uni{ord(c):04X}" for c in chars]
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({32: "space", **{ord(c): f"uni{ord(c):04X}" for c in chars}})
    glyphs = {n: _box(900, 60) for n in names}
    glyphs["space"] = TTGlyphPen(None).glyph()
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics({n: (900 if n != "space" else 300, 60 if n != "space" else 0) for n in names})
    fb.setupHorizontalHeader(ascent=880, descent=-120)
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120, fsType=fs_type)
    fb.setupPost()
    fb.font["head"].created = fb.font["head"].modified = 3_600_000_000  # fixed: same bytes on every run
    fb.save(str(path))


def main() -> int:
    here = Path(__file__).resolve().parent
    build(here / "PnpkitTestHangul.ttf", family="PnpkitTestHangul", fs_type=0)
    build(here / "PnpkitTestRestricted.ttf", family="PnpkitTestRestricted", fs_type=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
