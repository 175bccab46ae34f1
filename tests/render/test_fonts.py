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
    """text_width remembers its answers: each differs with the text, the font key and the size, and a
    repeated question gets the width measured afresh."""
    from generator.render.fonts import _text_width

    asked = [
        ("Wave", "regular", 10.0),
        ("Wave", "bold", 10.0),
        ("Wave", "regular", 12.0),
        ("wave", "regular", 10.0),
    ]
    widths = [text_width(*a) for a in asked]
    assert len(set(widths)) == len(asked)
    assert [text_width(*a) for a in asked] == widths == [_text_width.__wrapped__(*a) for a in asked]
    with pytest.raises(RenderError, match="unknown font 'light'"):
        text_width("Wave", "light", 10)
    with pytest.raises(RenderError, match="unknown font 'light'"):  # an error is not remembered as a width
        text_width("Wave", "light", 10)
