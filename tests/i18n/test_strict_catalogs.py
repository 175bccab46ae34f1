"""Catalogs are parsed strictly (issue 12): unterminated strings, repeated msgids and non-UTF-8 charsets are
located errors, not silently truncated, merged or mis-decoded text."""

import pytest

from generator.errors import SpecError
from generator.spec.catalogs import parse_catalog

HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


def problems(text: str, data: bytes | None = None) -> list[str]:
    with pytest.raises(SpecError) as e:
        parse_catalog(data if data is not None else text.encode("utf-8"), "en.po", "en")
    return [str(p) for p in e.value.problems]


def test_unterminated_string_is_located_not_truncated():
    text = HEADER + 'msgid "kit.title"\nmsgstr "Ripple Rush\n'
    assert problems(text) == [
        "en.po:6: unterminated string (a closing \" is missing); got 'msgstr \"Ripple Rush'"
    ]


def test_repeated_msgid_is_located():
    text = HEADER + 'msgid "a"\nmsgstr "one"\n\nmsgid "a"\nmsgstr "two"\n'
    assert problems(text) == ["en.po:8: a: msgid repeats the entry at line 5; each text id appears once"]


def test_latin1_charset_header_is_refused():
    text = HEADER.replace("UTF-8", "ISO-8859-1") + 'msgid "a"\nmsgstr "caf\xe9"\n'
    assert problems(text) == ["en.po:1: charset: expected UTF-8 (catalogs are UTF-8 text); got 'ISO-8859-1'"]


def test_unknown_charset_is_refused_without_a_lookup_error():
    text = HEADER.replace("UTF-8", "klingon-42") + 'msgid "a"\nmsgstr "b"\n'
    assert problems(text) == ["en.po:1: charset: expected UTF-8 (catalogs are UTF-8 text); got 'klingon-42'"]


def test_latin1_bytes_are_refused_at_their_line():
    data = (HEADER + 'msgid "a"\nmsgstr "caf').encode("utf-8") + b'\xe9"\n'
    assert problems("", data) == [
        "en.po:6: not UTF-8 text (invalid continuation byte at byte 85); save the catalog as UTF-8"
    ]


def test_garbage_line_is_located():
    text = HEADER + 'msgid "a"\nmsgstr "b"\nhello there\n'
    assert problems(text) == [
        "en.po:7: expected msgid, msgstr, a quoted continuation or a # comment; got 'hello there'"
    ]


def test_well_formed_catalog_with_continuations_bom_and_cr_line_endings():
    text = "\ufeff" + HEADER + '#, fuzzy\nmsgid "f"\nmsgstr "skip"\n\nmsgid "a"\nmsgstr ""\n"one "\n"two"\n'
    cat = parse_catalog(text.replace("\n", "\r\n").encode("utf-8"), "en.po", "en")
    assert dict(cat.messages) == {"a": "one two"}
    assert cat.lines["a"] == 9
