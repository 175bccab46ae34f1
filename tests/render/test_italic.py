"""`*italic*` in the PDF: a role with no italic file (the built-in BIZ UDPGothic has none) prints its upright
face slanted 12 degrees in the text matrix, advances unchanged; a kit's own italic TTF is embedded and drawn
upright (it leans by itself). Read back with pikepdf (the content stream's Tm and the font resources) and
pdfplumber (each character's matrix and font)."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pdfplumber
import pikepdf
import pytest
from fontTools.ttLib import TTFont

from generator.errors import SpecError
from generator.layout.ops import ITALIC_SLANT, Page, Rect, Text
from generator.layout.textfit import text_box
from generator.render.fonts import kit_measure, text_width
from generator.render.pdf import write_pdf
from generator.spec.fonts import FontsSpec, RoleFonts, resolve_fonts

FONTS = Path(__file__).parent / "fonts"
DEJAVU = "DejaVuSans-ArabicHebrew.ttf"
SIZE = 20.0
TAN12 = math.tan(math.radians(12))


def _page(*texts: Text) -> list[Page]:
    return [Page(400, 200, [Rect(0, 0, 400, 200, fill="#ffffff", stroke=None), *texts])]


def _chars(pdf: Path) -> dict[str, tuple[str, tuple[float, ...]]]:
    """Each drawn character's font name and matrix, by character (the texts of a test share none)."""
    with pdfplumber.open(pdf) as doc:
        return {c["text"]: (c["fontname"], tuple(c["matrix"])) for c in doc.pages[0].chars}


def _skews(pdf: Path) -> list[float]:
    """The c entry of every Tm of page 1, in order (0 upright, tan(12 degrees) for an oblique)."""
    with pikepdf.open(pdf) as doc:
        return [float(ops[2]) for ops, op in pikepdf.parse_content_stream(doc.pages[0]) if str(op) == "Tm"]


def test_the_slant_is_twelve_degrees():
    assert ITALIC_SLANT == pytest.approx(TAN12)


def test_builtin_italic_is_the_upright_face_slanted_in_the_text_matrix(tmp_path):
    pdf = tmp_path / "i.pdf"
    write_pdf(
        _page(
            Text(10, 150, "Up", SIZE),
            Text(10, 100, "slnt", SIZE, font="italic"),
            Text(10, 50, "BOLD", SIZE, font="bold_italic"),
            Text(200, 50, "XYZ", SIZE, font="bold"),
        ),
        pdf,
        title="t",
    )
    chars = _chars(pdf)
    assert chars["U"][0].endswith("BIZUDPGothic-Regular") and chars["U"][1][2] == 0
    assert chars["s"][0].endswith("BIZUDPGothic-Regular") and chars["s"][1][2] == pytest.approx(
        TAN12, abs=1e-5
    )
    assert chars["B"][0].endswith("BIZUDPGothic-Bold") and chars["B"][1][2] == pytest.approx(TAN12, abs=1e-5)
    assert chars["X"][0].endswith("BIZUDPGothic-Bold") and chars["X"][1][2] == 0
    # the pen moves as upright: the slanted 't' stands where the upright face's advances put it
    assert chars["t"][1][4] == pytest.approx(10 + text_width("sln", "regular", SIZE), abs=0.01)
    assert sum(1 for k in _skews(pdf) if k == pytest.approx(TAN12, abs=1e-5)) == 2


def test_italic_measures_as_upright_and_its_box_leans_right():
    assert text_width("Fitting", "italic", SIZE) == text_width("Fitting", "regular", SIZE)
    assert text_width("Fitting", "bold_italic", SIZE) == text_width("Fitting", "bold", SIZE)
    upright = text_box(Text(0, 0, "Fitting", SIZE), text_width)
    leaning = text_box(Text(0, 0, "Fitting", SIZE, font="italic"), text_width)
    assert leaning[1] == upright[1] and leaning[3] == upright[3]
    assert leaning[2] == pytest.approx(upright[2] + upright[3] * TAN12)  # the top leans right by the slant
    assert leaning[0] == pytest.approx(upright[0] + upright[1] * TAN12)  # the descenders lean left


def _kit(tmp_path: Path, **faces: str):
    root = tmp_path / "kit"
    root.mkdir(exist_ok=True)
    (root / DEJAVU).write_bytes((FONTS / DEJAVU).read_bytes())
    italic = TTFont(FONTS / DEJAVU)  # a face of its own: another PostScript name, the italic style bits
    italic["name"].removeNames(nameID=6)
    italic["name"].setName("PnpkitTestItalic", 6, 3, 1, 0x409)
    italic["head"].macStyle |= 2
    italic.save(root / "Italic.ttf")
    spec = FontsSpec(body=RoleFonts(regular=DEJAVU, bold=DEJAVU, **faces), heading_size="100pt")
    return resolve_fonts(spec, root, "kit.yaml", lambda key: None), (root / "Italic.ttf").read_bytes()


def test_a_kit_italic_file_is_embedded_and_drawn_upright(tmp_path):
    fonts, _ = _kit(tmp_path, italic="Italic.ttf")
    pdf = tmp_path / "k.pdf"
    write_pdf(
        _page(Text(10, 150, "Up", SIZE), Text(10, 100, "AV office", SIZE, font="italic")),
        pdf,
        title="t",
        fonts=fonts,
    )
    chars = _chars(pdf)
    assert chars["A"][0].endswith("+PnpkitTestItalic") and chars["A"][1][2] == 0  # its own face: no slant
    assert chars["U"][0].endswith("+DejaVuSans")
    with pikepdf.open(pdf) as doc:
        (own,) = [
            f for f in doc.pages[0].Resources.Font.values() if str(f.BaseFont).endswith("+PnpkitTestItalic")
        ]
        subset = TTFont(io.BytesIO(own.FontDescriptor.FontFile2.read_bytes()))
    assert subset["name"].getDebugName(6) == "PnpkitTestItalic" and subset["head"].macStyle & 2
    assert all(k == 0 for k in _skews(pdf))


def test_a_kit_role_without_italic_slants_its_regular_face_shaped_text_too(tmp_path):
    fonts, _ = _kit(tmp_path)
    pdf = tmp_path / "o.pdf"
    write_pdf(
        _page(Text(10, 100, "AV office", SIZE, font="italic")), pdf, title="t", fonts=fonts
    )  # kerned, ligated
    assert _skews(pdf) and all(k == pytest.approx(TAN12, abs=1e-5) for k in _skews(pdf) if k)
    assert sum(1 for k in _skews(pdf) if k) >= 1
    measure = kit_measure(fonts)
    assert measure("AV office", "italic", SIZE) == measure("AV office", "regular", SIZE)


def test_italic_builtin_in_a_kit_chain_is_slanted(tmp_path):
    fonts, _ = _kit(tmp_path, italic="builtin")
    (face,) = fonts.chain("x", "italic", 10)
    assert face.builtin and face.oblique and face.name == "BIZUDPGothic-Regular"
    assert not fonts.chain("x", "regular", 10)[0].oblique


def test_an_italic_file_goes_through_the_same_door(tmp_path):
    with pytest.raises(SpecError) as e:
        _kit(tmp_path, italic="../Italic.ttf", bold_italic="nope.ttf")
    text = str(e.value)
    assert "style.fonts.body.italic" in text and "'..'" in text
    assert "style.fonts.body.bold_italic" in text and "nope.ttf" in text


def test_same_italic_same_bytes(tmp_path):
    runs = []
    for name in ("a", "b"):
        pdf = tmp_path / f"{name}.pdf"
        write_pdf(_page(Text(10, 100, "slant *", SIZE, font="italic")), pdf, title="t")
        runs.append(pdf.read_bytes())
    assert runs[0] == runs[1]
