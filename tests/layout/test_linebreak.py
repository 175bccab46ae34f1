"""Where a line may break (generator/layout/linebreak.py): one test per rule of UAX #14 the rules texts need,
BudouX phrases in Japanese, a number kept with its unit, and hyphenation of a word wider than its line."""

from __future__ import annotations

import pytest

from generator.layout.linebreak import hyphenate, segments, split_cjk
from generator.layout.rich import parse_rich, wrap_rich
from generator.layout.text import fit_block, wrap


def _measure(text: str, font: str, size: float) -> float:
    return len(text) * size * 0.5


def test_a_line_breaks_after_spaces_and_keeps_them():
    assert segments("Gain two  coins") == ["Gain ", "two  ", "coins"]
    assert "".join(segments("a b c")) == "a b c"


def test_no_break_before_closing_punctuation_even_after_a_space():
    # LB13: French "Attention !" and "« mot »" never leave the sign alone at a line start
    assert segments("Attention ! Go") == ["Attention ! ", "Go"]
    assert segments("dit « mot » ici") == ["dit ", "« mot » ", "ici"]


def test_no_break_after_an_opening_bracket_even_before_a_space():
    assert segments("a ( b ) c") == ["a ", "( b ) ", "c"]


def test_a_break_after_a_hyphen_between_letters_but_not_before_a_digit():
    assert segments("Würfel-Wert") == ["Würfel-", "Wert"]
    assert segments("and/or") == ["and/", "or"]
    assert segments("score -5 now") == ["score ", "-5 ", "now"]
    assert segments("2–4 players") == ["2–4 ", "players"]


@pytest.mark.parametrize(
    "text, glued",
    [
        ("one blank 16 mm die", "16 mm "),
        ("at 100 % on paper", "100 % "),
        ("a 16 mm-Würfel here", "16 mm-"),
        ("costs 5 €.", "5 €."),
    ],
)
def test_a_number_keeps_its_unit(text, glued):
    assert glued in segments(text)


def test_a_number_is_not_a_unit_of_the_word_before():
    assert segments("Die 16 stickers") == ["Die ", "16 ", "stickers"]


def test_an_arrow_keeps_the_numbers_on_both_sides_and_a_dot_never_starts_a_line():
    assert segments("(9, 10, 9 und 12 → 10)") == ["(9, ", "10, ", "9 ", "und ", "12 → 10)"]
    assert segments("Würfel 1 · Lila") == ["Würfel ", "1 · ", "Lila"]
    assert segments("3 × 4 = 12") == ["3 × 4 = 12"]


def test_japanese_breaks_between_budoux_phrases_not_inside_a_word():
    text = "ボーナスカードをボードの上に置きます。"
    parts = segments(text)
    assert parts == ["ボーナスカードを", "ボードの", "上に", "置きます。"]
    # the old character-by-character breaking allowed "ボー/ナス" and "ボ/ード"
    assert all(not p.endswith(("ボ", "ボー")) for p in parts)


def test_japanese_kinsoku_holds_inside_and_between_phrases():
    parts = segments("カード（例：赤の5）です。")
    assert not any(p.endswith("（") for p in parts)
    assert not any(p.startswith(("）", "。", "ー")) for p in parts)
    chars = split_cjk("ゲームを終えます。")
    assert "".join(chars) == "ゲームを終えます。" and not any(p.startswith(("ー", "。")) for p in chars)


def test_a_wide_japanese_phrase_is_cut_between_its_characters():
    lines = wrap("ボーナスカードを", "regular", 10, 40, lambda t, f, s: len(t) * s)
    assert all(len(line) <= 4 for line in lines)
    assert "".join(lines) == "ボーナスカードを"


def test_hyphenation_cuts_at_the_dictionary_points_and_only_when_the_head_fits():
    assert hyphenate("Jokertropfen ", "de", lambda h: len(h) <= 10) == ("Jokertrop-", "fen ")
    assert hyphenate("Jokertropfen ", "de", lambda h: len(h) <= 3) is None
    assert hyphenate("Jokertropfen ", "ja", lambda h: True) is None  # no dictionary
    assert hyphenate("12345678", "de", lambda h: True) is None  # not a word


def test_a_word_wider_than_the_line_is_hyphenated_the_hyphen_drawn_and_measured():
    text = "ein Regentropfenplättchen."
    lines = wrap(text, "regular", 10, 60, _measure, lang="de")  # 12 characters a line
    assert lines[0].endswith("-") and all(_measure(line, "", 10) <= 60 for line in lines)
    assert "".join(line.removesuffix("-") for line in lines).replace(" ", "") == text.replace(" ", "")
    # without a dictionary the word keeps a line of its own and the fit shrinks it
    assert wrap(text, "regular", 10, 60, _measure) == ["ein", "Regentropfenplättchen."]


def test_hyphenation_lets_a_narrow_box_keep_its_size():
    plain = fit_block("Regentropfenplättchen", "regular", 60, 100, _measure, size=10, min_size=4)
    hyph = fit_block("Regentropfenplättchen", "regular", 60, 100, _measure, size=10, min_size=4, lang="de")
    assert plain.size < 10 and hyph.size == 10 and len(hyph.lines) == 2


def test_a_word_that_fits_a_line_is_never_hyphenated():
    lines = wrap("aaaa Jokertropfen", "regular", 10, 70, _measure, lang="de")
    assert lines == ["aaaa", "Jokertropfen"]


def test_rich_text_breaks_on_the_whole_paragraph_a_bold_number_keeping_its_plain_unit():
    pieces = parse_rich("stick **16** mm stickers on a die")
    lines = wrap_rich(pieces, "regular", 10, 45, _measure)  # 9 characters a line
    texts = ["".join(p.text for p in line) for line in lines]
    assert "16 mm" in texts and not any(t.endswith("16") for t in texts)


def test_rich_text_hyphenates_a_word_across_its_weights():
    pieces = parse_rich("**Regen**tropfenplättchen")
    lines = wrap_rich(pieces, "regular", 10, 60, _measure, lang="de")
    assert len(lines) == 2 and lines[0][-1].text.endswith("-")
    assert lines[0][0].bold and lines[0][0].text == "Regen"
