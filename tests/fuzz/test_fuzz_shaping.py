"""Any string at all reaches the shaper (catalogs and data cells come from strangers): bidi levels, shaping,
measuring and the glyph check never raise, whatever the characters (controls, isolates, marks, surrogates'
neighbours, private use, unassigned code points), and the width is the sum the drawing will use."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.render.fonts import register_fonts, shaped_line, shaping_problem, text_width
from generator.render.shaping import bidi_levels

_ALPHABET = st.one_of(
    st.characters(codec="utf-8"),
    st.sampled_from(
        list("abc AV fi ffl שלום مرحبا لا ٣ 123 ()[]")
        + [
            "\u202a",
            "\u202b",
            "\u202c",
            "\u202d",
            "\u202e",
            "\u2066",
            "\u2067",
            "\u2068",
            "\u2069",
            "\u200d",
            "\u200c",
            "\u200f",
            "\u0651",
        ]
    ),
)


@settings(max_examples=300, deadline=None)
@given(st.text(_ALPHABET, max_size=40))
def test_any_text_shapes_and_measures_without_raising(text):
    register_fonts()
    levels = bidi_levels(text)
    assert len(levels) == len(text) and all(0 <= lv <= 125 for lv in levels)
    line = shaped_line(text, "regular", 10.0)
    width = text_width(text, "regular", 10.0)
    assert width >= 0 or any(g.x_advance < 0 for r in line.runs for g in r.glyphs)
    if not line.plain:
        assert abs(width - line.advance * 10.0 / 1000) < 1e-6
    assert isinstance(shaping_problem(text, "regular"), str)
