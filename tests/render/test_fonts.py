"""The vendored fonts: registration, widths, the glyph check."""

from __future__ import annotations

import pytest

from generator.errors import RenderError
from generator.layout.ops import Page, Place, Text
from generator.render.fonts import FONT_FILES, check_glyphs, missing_glyphs, register_fonts, text_width


def test_font_files_are_vendored_with_licence() -> None:
    assert set(FONT_FILES) == {"regular", "bold"}
    for path in FONT_FILES.values():
        assert path.is_file()
        assert (path.parent / "OFL.txt").is_file()


def test_register_is_idempotent() -> None:
    register_fonts()
    register_fonts()
    assert text_width("Hello", "regular", 10) == pytest.approx(text_width("Hello", "regular", 20) / 2)
    assert text_width("WWW", "bold", 10) > text_width("iii", "bold", 10) > 0


def test_missing_glyphs() -> None:
    # Thai and emoji are outside BIZ UDPGothic; kana, the middle dot and Latin-1 are inside
    assert missing_glyphs("Aリ・ก😀é\u0e01", "regular") == "ก😀"
    assert missing_glyphs("ラッシュ 1-25 ×÷", "bold") == ""


def test_check_glyphs_lists_every_problem_inside_places() -> None:
    pages = [
        Page(10, 10, [Place(0, 0, (Text(0, 0, "x😀", 5, text_id="a.b"),))], label="p"),
        Page(10, 10, [Text(0, 0, "ก", 5, font="bold")]),
    ]
    with pytest.raises(RenderError) as err:
        check_glyphs(pages)
    assert str(err.value).splitlines() == [
        "2 texts with characters missing from the font (BIZ UDPGothic):",
        "  page 1 (p): text a.b 'x😀': U+1F600 '😀'",
        "  page 2: text (no id) 'ก': U+0E01 'ก'",
    ]
    check_glyphs([Page(10, 10, [Text(0, 0, "ripple リップル 100%", 5)])])


def test_unknown_font_key() -> None:
    with pytest.raises(RenderError, match="unknown font 'light'"):
        text_width("x", "light", 10)
    assert text_width("xA", "italic", 10) == text_width(
        "xA", "regular", 10
    )  # a slanted regular: same advances


def test_a_remembered_width_is_that_of_its_own_text_font_and_size() -> None:
    """text_width remembers a text's width at size 1 (or its shaped advance) per font key: each answer differs
    with the text, the key and the size, and is to the last bit what measuring afresh at that size gives."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from generator.render.fonts import font_name
    from generator.render.shaping import line_metrics

    def afresh(text: str, font: str, size: float) -> float:
        advance, plain = line_metrics(text, ((font_name(font), text),))
        return float(stringWidth(text, font_name(font), size)) if plain else advance * size / 1000

    asked = [
        (t, f, s)
        for t in ("Wave", "wave", "AVATAR ffi", "リップル・ラッシュ")
        for f in ("regular", "bold")
        for s in (10.0, 12.0, 7.3, 9, 10.25, 1e-3, 1234.5678)
    ]
    widths = [text_width(*a) for a in asked]
    assert len(set(widths)) == len(asked)
    assert [text_width(*a) for a in asked] == widths == [afresh(*a) for a in asked]
    with pytest.raises(RenderError, match="unknown font 'light'"):
        text_width("Wave", "light", 10)
    with pytest.raises(RenderError, match="unknown font 'light'"):  # an error is not remembered as a width
        text_width("Wave", "light", 10)
