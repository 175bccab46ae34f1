"""build --pdfa: PDF/A-2b read back with pikepdf (structure) and pikepdf's PDF/A-2b allowlist validator.
Not validated here: a full ISO 19005-2 run with veraPDF (not available on this machine)."""

from pathlib import Path

import pikepdf
import pytest
from pikepdf import pdfa
from typer.testing import CliRunner

from generator.build import build
from generator.cli import app

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
                    assert desc is not None and ("/FontFile2" in desc or "/FontFile" in desc or "/FontFile3" in desc)
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
