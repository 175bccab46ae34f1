"""Hard line breaks and control characters in text: a newline breaks a wrapped line, and is a located error
where one line is drawn; a control character is an error everywhere."""

from __future__ import annotations

import pytest

from generator.errors import SpecError
from generator.layout.text import (
    UnprintableTextError,
    control_characters,
    fit_block,
    fit_line,
    paragraphs,
    wrap,
)
from generator.spec.catalogs import parse_catalog


def _measure(text: str, font: str, size: float) -> float:
    return len(text) * size * 0.5


@pytest.mark.parametrize("sep", ["\n", "\r\n", "\r", "\u2028", "\u2029", "\x85"])
def test_every_newline_convention_is_one_hard_break(sep):
    assert paragraphs(f"one{sep}two{sep}{sep}three") == ["one", "two", "", "three"]
    assert wrap(f"Gain two{sep}then draw", "regular", 10, 1000, _measure) == ["Gain two", "then draw"]


def test_a_break_inside_a_wrapped_block_starts_a_line_the_width_does_not_need():
    fitted = fit_block("a b\nc d", "regular", 200, 100, _measure, size=10, min_size=5)
    assert fitted.lines == ("a b", "c d")
    assert fit_block("a b c d", "regular", 200, 100, _measure, size=10, min_size=5).lines == ("a b c d",)


def test_a_break_in_a_one_line_slot_names_the_slot_and_the_text():
    with pytest.raises(UnprintableTextError) as e:
        fit_line("a\nb\nc", "regular", 100, _measure, size=10, min_size=5, where="title")
    assert str(e.value) == (
        "title: a line break in a text printed on one line (only wrapped text breaks lines); got 'a\\nb\\nc'"
    )
    assert e.value.text == "a\nb\nc"


@pytest.mark.parametrize("ch", ["\t", "\x00", "\x07", "\x1b", "\x7f", "\x9b"])
def test_a_control_character_is_an_error_wrapped_or_not(ch):
    assert control_characters(f"a{ch}b\nc") == ch
    with pytest.raises(UnprintableTextError, match=f"control character U\\+{ord(ch):04X} cannot be printed"):
        fit_line(f"a{ch}b", "regular", 100, _measure, size=10, min_size=5, where="w")
    with pytest.raises(UnprintableTextError, match=f"U\\+{ord(ch):04X}"):
        fit_block(f"a{ch}b", "regular", 100, 100, _measure, size=10, min_size=5, where="w")


def test_plain_text_has_no_control_characters():
    assert control_characters("Gain 2 coins, 「ラミー」 \u200d\u200c") == ""


def _po(msgstr: str) -> bytes:
    return (
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        f'msgid "kit.title"\nmsgstr "{msgstr}"\n'
    ).encode()


def test_a_catalog_string_with_a_tab_is_located_at_its_line():
    with pytest.raises(SpecError) as e:
        parse_catalog(_po("a\\tb"), "locales/en.po", "en")
    assert str(e.value).splitlines()[1] == (
        "  locales/en.po:4: kit.title: control character U+0009 cannot be printed "
        "(a line break is \\n); got 'a\\tb'"
    )


def test_a_catalog_string_with_newlines_loads():
    assert parse_catalog(_po("a\\nb\\nc"), "en.po", "en").messages["kit.title"] == "a\nb\nc"
