"""A shipped kit with its own Arabic font prints its Arabic title shaped, right to left: the glyphs on the
rules page are HarfBuzz's for the title (read back from the PDF). The style and
catalog lines are the ones docs/text.md shows."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from generator.pipeline import build
from tests.fuzz.harness import ROOT
from tests.render.test_shaping import DEJAVU, FONTS, drawn_glyphs, harfbuzz

DOC = (ROOT / "docs" / "text.md").read_text(encoding="utf-8")


def _block(lang: str, containing: str) -> str:
    """The fenced block of docs/text.md in `lang` that holds `containing`."""
    blocks = re.findall(rf"^```{lang}\n(.*?)^```$", DOC, flags=re.MULTILINE | re.DOTALL)
    return next(b for b in blocks if containing in b)


STYLE = _block("yaml", "style:")
TITLE = re.search(r'msgstr "(.*)"', _block("po", "kit.title")).group(1)


def _kit(tmp_path: Path) -> Path:
    kit = tmp_path / "ripple_rush"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    (kit / "assets" / "fonts").mkdir(parents=True)
    shutil.copy(FONTS / DEJAVU, kit / "assets" / "fonts" / DEJAVU)
    with (kit / "kit.yaml").open("a", encoding="utf-8") as f:
        f.write("\n" + STYLE)
    po = kit / "locales" / "en.po"
    po.write_text(
        po.read_text(encoding="utf-8").replace('msgstr "Ripple Rush"', f'msgstr "{TITLE}"', 1),
        encoding="utf-8",
    )
    return kit


def _outlines(glyphs) -> list[tuple]:
    return [g[0] for g in glyphs]


def _contains(seq: list, part: list) -> bool:
    return any(seq[i : i + len(part)] == part for i in range(len(seq) - len(part) + 1))


def test_an_arabic_title_prints_shaped_in_a_kit(tmp_path):
    """Built as PDF/A-2b: the shaped glyphs' private codes and ToUnicode entries pass pikepdf's validator."""
    from pikepdf import pdfa

    out = tmp_path / "out"
    build([_kit(tmp_path)], out=out, langs=["en"], pdfa=True)
    for pdf in sorted((out / "ripple_rush" / "en").glob("*.pdf")):
        assert pdfa.validate_written(pdf, "2b").passed, pdf.name
    drawn = _outlines(drawn_glyphs(out / "ripple_rush" / "en" / "rules-a4.pdf"))
    assert _contains(drawn, _outlines(harfbuzz(DEJAVU, TITLE, 0, 0)))
    # the letters one by one (isolated, in memory order) are not what is printed
    assert not _contains(drawn, [o for ch in TITLE for o in _outlines(harfbuzz(DEJAVU, ch, 0, 0))])


def test_arabic_in_a_font_without_it_is_located_at_its_catalog_line(tmp_path):
    """The built-in font has no Arabic: validate names the catalog line, the id and the characters."""
    from generator.contract.load import load_kit
    from generator.errors import KitError
    from generator.pipeline.compose import verify_layout

    kit = tmp_path / "ripple_rush"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    po = kit / "locales" / "en.po"
    po.write_text(
        po.read_text(encoding="utf-8").replace('msgstr "Ripple Rush"', f'msgstr "{TITLE}"', 1),
        encoding="utf-8",
    )
    try:
        verify_layout([load_kit(kit)], langs=["en"])
    except KitError as e:
        message = str(e)
    else:
        raise AssertionError("validate accepted Arabic in a font without it")
    assert f"{po}:7: kit.title: characters missing from the font" in message, message
