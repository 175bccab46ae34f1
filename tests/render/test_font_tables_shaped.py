"""Shaping draws ligatures through private codes added to ReportLab's tables of a face: the tables a build
keeps are the font's own, whatever was drawn before."""

from generator.layout.ops import Page, Text
from generator.render.fonts import font_tables
from generator.render.pdf import write_pdf


def test_kept_tables_leave_out_the_codes_of_shaped_ligatures(tmp_path):
    before = font_tables()
    write_pdf([Page(200, 100, [Text(10, 50, "office fluff", 12)])], tmp_path / "lig.pdf", title="t")
    from generator.render.shaping import added_codes

    assert added_codes("BIZUDPGothic-Regular")  # the fi / fl ligatures were drawn through private codes
    assert font_tables() == before
