"""build --pdfa: PDF/A-2b read back with pikepdf (structure) and pikepdf's PDF/A-2b allowlist validator.
Not validated here: a full ISO 19005-2 run with veraPDF (not available on this machine)."""

from pathlib import Path

import pikepdf
import pytest
from pikepdf import pdfa
from typer.testing import CliRunner

from generator.cli import app
from generator.pipeline import build

ROOT = Path(__file__).resolve().parents[2]
RUMMY = ROOT / "layouts" / "rummy_cards"


@pytest.fixture(scope="module")
def archived(tmp_path_factory):
    out = tmp_path_factory.mktemp("pdfa")
    build([RUMMY], out=out, langs=["ja"], pdfa=True)
    return sorted((out / "rummy_cards" / "ja").glob("*.pdf"))


def test_every_file_passes_pikepdfs_pdfa_2b_validator(archived):
    assert len(archived) == 6  # 4 components, the calibration sheet and the kit PDF (with its blank backs)
    for path in archived:
        report = pdfa.validate_written(path, "2b")
        assert report.passed, (path.name, [str(f) for f in report.findings[:5]])


def test_the_plain_build_does_not_pass_so_the_check_can_fail(tmp_path):
    build([RUMMY], out=tmp_path, langs=["ja"])
    report = pdfa.validate_written(tmp_path / "rummy_cards" / "ja" / "score_pad-a4.pdf", "2b")
    assert not report.passed
    assert any("OutputIntents" in str(f) for f in report.findings)


def test_xmp_declares_pdfa_2b_and_agrees_with_the_info_dictionary(archived):
    for path in archived:
        with pikepdf.open(path) as pdf:
            meta = pdf.open_metadata()
            assert (meta["pdfaid:part"], meta["pdfaid:conformance"]) == ("2", "B")
            assert meta["dc:title"] == str(pdf.docinfo["/Title"])
            assert meta["xmp:MetadataDate"] == meta["xmp:ModifyDate"]  # no clock time in the file
            (intent,) = pdf.Root.OutputIntents
            assert intent.S == "/GTS_PDFA1"
            profile = intent.DestOutputProfile
            assert int(profile.N) == 3 and profile.read_bytes()[36:40] == b"acsp"  # an RGB ICC profile


def test_no_transitions_javascript_or_actions_and_every_font_embedded(archived):
    for path in archived:
        with pikepdf.open(path) as pdf:
            assert "/OpenAction" not in pdf.Root and "/AA" not in pdf.Root
            assert "/JavaScript" not in pdf.Root.get("/Names", {})
            fonts = 0
            for page in pdf.pages:
                assert "/Trans" not in page.obj and "/AA" not in page.obj
                for font in page.Resources.get("/Font", {}).values():
                    fonts += 1
                    desc = font.get("/FontDescriptor")
                    assert desc is not None and (
                        "/FontFile2" in desc or "/FontFile" in desc or "/FontFile3" in desc
                    )
            assert fonts > 0


def test_two_pdfa_builds_are_byte_identical(archived, tmp_path):
    build([RUMMY], out=tmp_path, langs=["ja"], pdfa=True)
    again = sorted((tmp_path / "rummy_cards" / "ja").glob("*.pdf"))
    assert [p.name for p in again] == [p.name for p in archived]
    assert [p.read_bytes() for p in again] == [p.read_bytes() for p in archived]


def test_the_build_command_takes_pdfa(tmp_path):
    res = CliRunner().invoke(app, ["build", str(RUMMY), "--lang", "en", "--pdfa", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.stderr
    assert pdfa.validate_written(tmp_path / "rummy_cards" / "en" / "kit-a4.pdf", "2b").passed


# ------------------------------------------------------------------ SVG art (docs/examples/make_it_yours)

MAKE_IT_YOURS = ROOT / "docs" / "examples" / "make_it_yours"
TEXT_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 100" width="400" height="100">'
    '<rect width="400" height="100" fill="#0b3954"/>'
    '<text x="20" y="45" font-family="Arial" font-size="30" fill="#ffd23f">{regular}</text>'
    '<text x="380" y="85" font-family="Times" font-weight="bold" font-size="24" text-anchor="end" '
    'fill="#8ecae6">{bold}</text></svg>'
)


def _fonts(path: Path) -> list[tuple[str, bool]]:
    """Every font dictionary in the file (pages and the form XObjects SVG art is drawn in): (base font,
    embedded); a composite font's descendant carries the descriptor."""
    found = []
    with pikepdf.open(path) as pdf:
        for obj in pdf.objects:
            if (
                isinstance(obj, pikepdf.Dictionary)
                and obj.get("/Type") == "/Font"
                and obj.get("/Subtype") != "/Type0"
            ):
                desc = obj.get("/FontDescriptor")
                embedded = desc is not None and any(
                    k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")
                )
                found.append((str(obj.get("/BaseFont")), embedded))
    return found


def _kit_with_text_logo(tmp_path: Path, regular: str = "Ripple Rush", bold: str = "MADE BY YOU") -> Path:
    import shutil

    kit = tmp_path / "make_it_yours"
    shutil.copytree(MAKE_IT_YOURS, kit)
    (kit / "assets" / "logo.svg").write_text(TEXT_SVG.format(regular=regular, bold=bold), encoding="utf-8")
    return kit


def test_make_it_yours_with_svg_art_builds_as_pdfa_and_every_file_passes(tmp_path):
    res = CliRunner().invoke(
        app, ["build", str(MAKE_IT_YOURS), "--lang", "en", "--pdfa", "--out", str(tmp_path)]
    )
    assert res.exit_code == 0, res.output
    files = sorted((tmp_path / "make_it_yours" / "en").glob("*.pdf"))
    assert {p.name for p in files} >= {"kit-a4.pdf", "score_sheet-a4.pdf", "goal_cards-a4.pdf"}
    for path in files:
        report = pdfa.validate_written(path, "2b")
        assert report.passed, (path.name, [str(f) for f in report.findings[:5]])
        assert all(embedded for _, embedded in _fonts(path)), (path.name, _fonts(path))
    with pikepdf.open(tmp_path / "make_it_yours" / "en" / "score_sheet-a4.pdf") as pdf:
        forms = [
            x
            for page in pdf.pages
            for x in page.Resources.get("/XObject", {}).values()
            if x.get("/Subtype") == "/Form"
        ]
        assert forms, "the SVG logo is drawn as a form XObject"


def test_svg_text_is_set_in_an_embedded_font_and_reads_back(tmp_path):
    import pdfplumber

    kit = _kit_with_text_logo(tmp_path)
    build([kit], out=tmp_path / "out", langs=["en"], pdfa=True)
    sheet = tmp_path / "out" / "make_it_yours" / "en" / "score_sheet-a4.pdf"
    report = pdfa.validate_written(sheet, "2b")
    assert report.passed, [str(f) for f in report.findings[:5]]
    fonts = _fonts(sheet)
    assert fonts and all(embedded for _, embedded in fonts), fonts
    assert not any("Helvetica" in name or "Times" in name or "Arial" in name for name, _ in fonts), fonts
    with pdfplumber.open(sheet) as pdf:
        words = {w["text"] for w in pdf.pages[0].extract_words()}
    assert {"Ripple", "Rush", "MADE", "BY", "YOU"} <= words, words
    # the plain build embeds the SVG's text too (the same faces; no unembedded standard font)
    build([kit], out=tmp_path / "plain", langs=["en"])
    assert all(
        embedded for _, embedded in _fonts(tmp_path / "plain" / "make_it_yours" / "en" / "score_sheet-a4.pdf")
    )


def test_svg_text_no_font_can_draw_is_refused_at_the_slot_naming_the_file(tmp_path):
    kit = _kit_with_text_logo(tmp_path, regular="wave \U0001f30a")
    for command in (
        ["validate", str(kit)],
        ["build", str(kit), "--lang", "en", "--pdfa", "--out", str(tmp_path / "out")],
    ):
        res = CliRunner().invoke(app, command)
        assert res.exit_code == 1, res.output
        assert "Traceback" not in res.output
        lines = [line.strip() for line in res.output.splitlines() if "art.logo" in line]
        assert lines[0] == (
            f"{kit / 'kit.yaml'}:80: components.score_sheet.art.logo: assets/logo.svg: the SVG's text "
            "'wave \U0001f30a' has characters no regular face of the kit has (BIZ UDPGothic): "
            "U+1F30A '\U0001f30a'; convert the text to paths or add a font"
        ), res.output
        assert ".part" not in res.output and ".pnpkit-stage" not in res.output, res.output
    assert not (tmp_path / "out" / "make_it_yours").exists()


def test_the_renderer_names_the_slot_and_file_of_an_svg_text_it_cannot_set():
    """The kit check refuses such a slot first; the renderer's own guard (deck images, a bypassed check) names
    the art, never a staging path."""
    import io

    from svglib.svglib import svg2rlg

    from generator.errors import RenderError
    from generator.render.pdf import _embedded_text

    drawing = svg2rlg(io.BytesIO(TEXT_SVG.format(regular="ok", bold="\U0001f30a").encode()))
    with pytest.raises(
        RenderError,
        match=r"^art logo \(assets/logo\.svg\): the SVG's text '.' has characters no "
        r"bold face has: U\+1F30A",
    ):
        _embedded_text(drawing, None, "art logo (assets/logo.svg)")


def test_a_pdfa_failure_names_the_output_file_not_its_staging_copy(tmp_path):
    from reportlab.pdfgen.canvas import Canvas

    from generator.errors import RenderError
    from generator.render.pdfa import to_pdfa

    staged = tmp_path / ".kit-a4.pdf.x1y2.part"
    c = Canvas(str(staged), invariant=1)
    c.setFont("Helvetica", 12)  # a standard Type 1 font: never embedded, refused by PDF/A
    c.drawString(72, 72, "unembedded")
    c.showPage()
    c.save()
    with pytest.raises(RenderError) as info:
        to_pdfa(staged, shown=tmp_path / "out" / "kit-a4.pdf")
    message = str(info.value)
    assert message.startswith(f"{tmp_path / 'out' / 'kit-a4.pdf'}: not valid PDF/A-2b"), message
    assert "FontDescriptor" in message and ".part" not in message


def test_a_pdfa_finding_inside_svg_art_names_the_output_the_slot_and_the_file(tmp_path, monkeypatch):
    """With svglib's own fonts (as before SVG text was set in the kit's faces) the validator refuses an
    unembedded font inside the art's form: the message names the output file and the art that draws with
    it."""
    import generator.render.pdf as pdf_module

    monkeypatch.setattr(pdf_module, "_embedded_text", lambda drawing, fonts, where, lenient=False: drawing)
    res = CliRunner().invoke(
        app, ["build", str(MAKE_IT_YOURS), "--lang", "en", "--pdfa", "--out", str(tmp_path)]
    )
    assert res.exit_code == 1, res.output
    assert (
        "Traceback" not in res.output and ".part" not in res.output and ".pnpkit-stage" not in res.output
    ), res.output
    first = res.output.splitlines()[0]
    assert (
        first.startswith(f"error: {tmp_path / 'make_it_yours' / 'en'}/")
        and "-a4.pdf: not valid PDF/A-2b" in first
    ), first
    finding = next(line for line in res.output.splitlines() if "FontDescriptor" in line)
    assert "(in art logo (assets/logo.svg)" in finding or "(in art icon (assets/suits/" in finding, finding
    assert not (tmp_path / "make_it_yours").exists()
