"""Hostile `*italic*`: star soup through parsing, fitting and the PDF writer; hostile `italic` and
`bold_italic` font files in style.fonts (garbage, a link out of the kit, '..', a FIFO, a missing file). Each
is pieces that print or a clean located error, never a traceback or a hang."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.errors import LayoutError, SpecError
from generator.layout.ops import Page, Text, is_italic
from generator.layout.rich import fit_rich, parse_rich, rich_ops
from generator.render.fonts import text_width
from generator.render.pdf import write_pdf
from generator.spec.fonts import FontsSpec, RoleFonts, resolve_fonts

STARS = st.lists(
    st.one_of(
        st.sampled_from(["*", "**", "***", "\\*", " ", "a", "Wb", "\n", " * ", "*a*"]),
        st.text(alphabet="*\\ aW_", max_size=5),
    ),
    max_size=14,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=STARS)
def test_any_star_soup_prints_or_is_a_located_error(tmp_path, parts):
    text = "".join(parts)
    try:
        pieces = parse_rich(text, "cards.csv:2")
        block = fit_rich(pieces, "regular", 200, 120, text_width, size=9, min_size=4, where="cards.csv:2")
    except LayoutError as e:
        assert str(e).startswith("cards.csv:2: ")
        return
    ops = rich_ops(block, 10, 180, text_width, text_id="cards.csv:2")
    texts = [op for op in ops if isinstance(op, Text)]
    assert any(is_italic(t.font) for t in texts) == any(p.italic and p.text.strip() for p in pieces)
    write_pdf([Page(220, 200, ops)], tmp_path / "s.pdf", title="t")


def _resolve(root: Path, italic: str):
    spec = FontsSpec(body=RoleFonts(regular="builtin", bold="builtin", italic=italic, bold_italic=italic))
    return resolve_fonts(spec, root, "kit.yaml", lambda key: 7)


@pytest.mark.parametrize("how", ["garbage", "link_out", "dotdot", "fifo", "missing", "absolute"])
def test_a_hostile_italic_file_is_a_located_problem(tmp_path, how):
    root = tmp_path / "kit"
    root.mkdir()
    name = "f.ttf"
    if how == "garbage":
        (root / name).write_bytes(b"\x00\x01\x00\x00" + os.urandom(500))
    elif how == "link_out":
        os.symlink("/etc/passwd", root / name)
    elif how == "dotdot":
        name = "../f.ttf"
    elif how == "fifo":
        os.mkfifo(root / name)  # opening it for reading would block forever
    elif how == "absolute":
        name = "/etc/passwd"
    with pytest.raises(SpecError) as e:
        _resolve(root, name)
    keys = {p.key for p in e.value.problems}
    assert keys == {"style.fonts.body.italic", "style.fonts.body.bold_italic"}, e.value
    assert all(p.line == 7 and p.message for p in e.value.problems)
