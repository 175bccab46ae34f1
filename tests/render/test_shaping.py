"""Shaped text in the PDF: the glyph ids and positions drawn are HarfBuzz's own for Arabic, Hebrew,
Devanagari and Thai; bidi order; kerning and ligatures; the layout measures what is drawn; a script the font
cannot shape is refused. The PDF is read back independently: pikepdf walks the content stream (Tm, Tf, Ts, TJ)
and fontTools decodes each shown code through the embedded subset font to its outline, compared with the
outline of the glyph HarfBuzz chose in the original font."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path

import pikepdf
import pytest
import uharfbuzz as hb
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.ttLib import TTFont

from generator.errors import RenderError
from generator.layout.ops import Page, Rect, Text
from generator.render.fonts import kit_measure
from generator.render.pdf import write_pdf
from generator.spec.fonts import FontPair, FontsSpec, RoleFonts, resolve_fonts

FONTS = Path(__file__).parent / "fonts"
DEJAVU = "DejaVuSans-ArabicHebrew.ttf"
NOTO_DEVA = "NotoSansDevanagari-Regular.ttf"
NOTO_THAI = "NotoSansThai-Regular.ttf"
SIZE = 20.0

ARABIC = "مرحبا بالعالم"
HEBREW = "שלום עולם"
DEVANAGARI = "नमस्ते क्षत्रिय"
THAI = "สวัสดีชาวโลก ที่นี่ น้ำ"
"""Thai with stacked marks: a tone mark over an upper vowel (ที่, นี่) and over a consonant (น้ำ, with SARA
AM)."""


def _fonts(root: Path, file: str):
    root.mkdir(exist_ok=True)
    (root / file).write_bytes((FONTS / file).read_bytes())
    spec = FontsSpec(
        body=RoleFonts(regular=file, bold=file, fallback=[FontPair(regular="builtin", bold="builtin")]),
        heading_size="100pt",
    )
    return resolve_fonts(spec, root, "kit.yaml", lambda key: None)


def _outline(font: TTFont, glyph: str) -> tuple:
    pen = DecomposingRecordingPen(font.getGlyphSet())
    font.getGlyphSet()[glyph].draw(pen)
    return tuple(pen.value)


def drawn_glyphs(pdf: Path) -> list[tuple[tuple, float, float]]:
    """(outline, x, y) of every glyph shown on page 1, in drawing order (form XObjects followed where they are
    drawn): x, y its origin in the text space of the stream that shows it, in points."""
    out: list[tuple[tuple, float, float]] = []
    with pikepdf.open(pdf) as doc:
        page = doc.pages[0]
        _show(page, page.obj.Resources, {}, out)
    return out


def _show(stream, resources, decoded: dict, out: list) -> None:
    x = y = size = rise = 0.0
    current = None
    for operands, op in pikepdf.parse_content_stream(stream):
        name = str(op)
        if name == "Do":
            xobj = resources.XObject[str(operands[0])]
            if xobj.Subtype == "/Form":
                _show(xobj, xobj.get("/Resources", resources), decoded, out)
        elif name == "Tm":
            x, y = float(operands[4]), float(operands[5])
        elif name == "Td":
            x, y = x + float(operands[0]), y + float(operands[1])
        elif name == "Ts":
            rise = float(operands[0])
        elif name == "Tf":
            f = resources.Font[str(operands[0])]
            size = float(operands[1])
            key = f.objgen
            if key not in decoded:
                tt = TTFont(io.BytesIO(f.FontDescriptor.FontFile2.read_bytes()))
                decoded[key] = (
                    tt,
                    tt.getBestCmap() or tt["cmap"].tables[0].cmap,
                    [float(w) for w in f.Widths],
                    int(f.FirstChar),
                )
            current = decoded[key]
        elif name in ("Tj", "TJ"):
            assert current is not None
            tt, cmap, widths, first = current
            items = operands[0] if name == "TJ" else [operands[0]]
            for item in items:
                if isinstance(item, (int, float, Decimal)):
                    x -= float(item) / 1000 * size
                    continue
                for code in bytes(item):
                    out.append((_outline(tt, cmap[code]), x, y + rise))
                    x += widths[code - first] / 1000 * size


def harfbuzz(
    file: str, text: str, x0: float, y0: float, features: dict | None = None
) -> list[tuple[tuple, float, float]]:
    """HarfBuzz's own glyphs for `text` (direction and script guessed), as (outline, x, y) from (x0, y0)."""
    data = (FONTS / file).read_bytes()
    face = hb.Face(hb.Blob(data))
    font = hb.Font(face)
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    hb.shape(font, buf, features or {})
    tt = TTFont(io.BytesIO(data))
    order = tt.getGlyphOrder()
    scale = SIZE / face.upem
    out, x = [], x0
    for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
        out.append((_outline(tt, order[info.codepoint]), x + pos.x_offset * scale, y0 + pos.y_offset * scale))
        x += pos.x_advance * scale
    return out


def _draw(tmp_path: Path, file: str, texts: list[Text]) -> Path:
    fonts = _fonts(tmp_path / "kit", file)
    pdf = tmp_path / "shaped.pdf"
    write_pdf(
        [Page(400, 200, [Rect(0, 0, 400, 200, fill="#ffffff", stroke=None), *texts])],
        pdf,
        title="t",
        fonts=fonts,
    )
    return pdf


def _same(drawn, expected) -> None:
    assert len(drawn) == len(expected)
    for i, ((o1, x1, y1), (o2, x2, y2)) in enumerate(zip(drawn, expected)):
        assert o1 == o2, f"glyph {i} differs"
        assert x1 == pytest.approx(x2, abs=0.01) and y1 == pytest.approx(y2, abs=0.01), (i, x1, x2, y1, y2)


@pytest.mark.parametrize(
    "file, text",
    [(DEJAVU, ARABIC), (DEJAVU, HEBREW), (NOTO_DEVA, DEVANAGARI), (NOTO_THAI, THAI)],
    ids=["arabic", "hebrew", "devanagari", "thai"],
)
def test_drawn_glyphs_and_positions_are_harfbuzz_own(tmp_path, file, text):
    pdf = _draw(tmp_path, file, [Text(30, 100, text, SIZE)])
    _same(drawn_glyphs(pdf), harfbuzz(file, text, 30, 100))


def test_arabic_is_joined_and_right_to_left(tmp_path):
    """Not the letters one by one: the shaped glyphs differ from each letter's isolated glyph, and the first
    letter in memory is drawn rightmost."""
    pdf = _draw(tmp_path, DEJAVU, [Text(30, 100, "محمد", SIZE)])
    drawn = drawn_glyphs(pdf)
    isolated = [g for ch in "محمد" for g in harfbuzz(DEJAVU, ch, 0, 0)]
    assert len(drawn) == 4 and [d[0] for d in drawn] != [i[0] for i in isolated][::-1]
    first_letter = harfbuzz(DEJAVU, "محمد", 0, 0)[-1][0]  # HarfBuzz puts the first letter last (rightmost)
    assert max(drawn, key=lambda d: d[1])[0] == first_letter


def test_thai_tone_mark_rises_over_an_upper_vowel(tmp_path):
    """The tone mark MAI EK over the upper vowel SARA II (ที่) is drawn higher than over a bare consonant
    (ท่): the font's own rules pick the raised form, drawn as HarfBuzz chose it, not the marks stacked
    blindly."""

    def mark_bottom(text: str) -> float:
        pdf = _draw(tmp_path, NOTO_THAI, [Text(30, 100, text, SIZE)])
        drawn = drawn_glyphs(pdf)
        _same(drawn, harfbuzz(NOTO_THAI, text, 30, 100))
        outline, _, y = drawn[-1]  # the tone mark comes last
        return y + min(pt[1] for _, pts in outline for pt in pts) * SIZE / upem  # in points

    upem = TTFont(FONTS / NOTO_THAI)["head"].unitsPerEm
    assert mark_bottom("ที่") > mark_bottom("ท่") + 0.1 * SIZE


def test_anchors_place_the_shaped_width(tmp_path):
    fonts = _fonts(tmp_path / "kit", DEJAVU)
    width = kit_measure(fonts)(HEBREW, "regular", SIZE)
    expected = harfbuzz(DEJAVU, HEBREW, 0, 0)
    assert width == pytest.approx(expected[-1][1] - expected[0][1] + _advance(DEJAVU, HEBREW, -1), abs=0.01)
    pdf = _draw(tmp_path, DEJAVU, [Text(200, 100, HEBREW, SIZE, anchor="end")])
    _same(drawn_glyphs(pdf), harfbuzz(DEJAVU, HEBREW, 200 - width, 100))


def _advance(file: str, text: str, index: int) -> float:
    face = hb.Face(hb.Blob((FONTS / file).read_bytes()))
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    hb.shape(hb.Font(face), buf, {})
    return buf.glyph_positions[index].x_advance * SIZE / face.upem


def test_mixed_directions_follow_the_bidi_algorithm(tmp_path):
    """Latin, Hebrew and digits in one line: the glyphs come in python-bidi's display order."""
    from bidi import get_display

    text = "abc שלום 123 def"
    pdf = _draw(tmp_path, DEJAVU, [Text(30, 100, text, SIZE)])
    drawn = [d[0] for d in drawn_glyphs(pdf)]
    expected = [g[0] for ch in get_display(text) for g in harfbuzz(DEJAVU, ch, 0, 0)]
    assert drawn == expected


def test_a_kerned_pair_is_drawn_closer_than_unkerned(tmp_path):
    pdf = _draw(tmp_path, DEJAVU, [Text(30, 100, "AV", SIZE)])
    (_, ax, _), (_, vx, _) = drawn_glyphs(pdf)
    unkerned = harfbuzz(DEJAVU, "AV", 30, 100, {"kern": False})
    assert vx - ax < unkerned[1][1] - unkerned[0][1] - 0.5
    _same(drawn_glyphs(pdf), harfbuzz(DEJAVU, "AV", 30, 100))
    fonts = _fonts(tmp_path / "kit", DEJAVU)
    assert (
        kit_measure(fonts)("AV", "regular", SIZE)
        < kit_measure(fonts)("A", "regular", SIZE) + kit_measure(fonts)("V", "regular", SIZE) - 0.5
    )


def test_a_ligature_is_one_glyph_and_copies_as_its_letters(tmp_path):
    import pdfplumber

    pdf = _draw(tmp_path, DEJAVU, [Text(30, 100, "office", SIZE)])
    drawn = drawn_glyphs(pdf)
    assert len(drawn) < len("office")
    _same(drawn, harfbuzz(DEJAVU, "office", 30, 100))
    with pdfplumber.open(pdf) as doc:
        assert doc.pages[0].extract_text() == "office"


def test_a_script_the_font_has_no_rules_for_is_refused(tmp_path):
    """Devanagari letters in a font with no GSUB would print unordered: a glyph problem, not a page."""
    tt = TTFont(FONTS / NOTO_DEVA)
    del tt["GSUB"]
    tt["name"].removeNames(nameID=6)  # a PostScript name of its own: ReportLab keys faces by it
    tt["name"].setName("PnpkitTestNoRules", 6, 3, 1, 0x409)
    root = tmp_path / "kit"
    root.mkdir()
    tt.save(root / "NoRules.ttf")
    spec = FontsSpec(body=RoleFonts(regular="NoRules.ttf", bold="NoRules.ttf"))
    fonts = resolve_fonts(spec, root, "kit.yaml", lambda key: None)
    page = Page(400, 200, [Text(30, 100, DEVANAGARI, SIZE, text_id="rules.title")])
    with pytest.raises(
        RenderError,
        match=r"text rules.title 'नमस्ते क्षत्रिय': the font .* cannot shape Devanagari: "
        r"it has no OpenType rules for the script \(GSUB 'dev2' or 'deva'\)",
    ):
        write_pdf([page], tmp_path / "x.pdf", title="t", fonts=fonts)
    assert not (tmp_path / "x.pdf").exists()


def test_same_text_same_bytes(tmp_path):
    runs = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        runs.append(_draw(tmp_path / name, DEJAVU, [Text(30, 100, ARABIC + " office", SIZE)]).read_bytes())
    assert runs[0] == runs[1]
