"""`build --greyscale` (issue 26 item 4): an ink-saving print with every colour as the grey of its lightness;
the symbols still tell the suits apart."""

from pathlib import Path

import numpy as np
import pypdfium2

from generator.pipeline import build
from generator.render.pdf import grey_rgb

ROOT = Path(__file__).resolve().parents[2]


def _chroma(pdf: Path, page: int = 0) -> int:
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        a = np.asarray(doc[page].render(scale=0.8).to_pil().convert("RGB")).astype(int)
    finally:
        doc.close()
    return int((a.max(2) - a.min(2)).max())


def test_grey_keeps_lightness_order():
    # Rummy's yellow prints lighter than its red, the red lighter than its black
    assert grey_rgb("#f2b705")[0] > grey_rgb("#d1262f")[0] > grey_rgb("#222222")[0]
    assert grey_rgb("#ffffff") == (1.0, 1.0, 1.0) and grey_rgb("#000000") == (0.0, 0.0, 0.0)


def test_greyscale_build_prints_no_colour_and_is_redrawn(tmp_path):
    out = tmp_path / "out"
    kit = [ROOT / "layouts" / "rummy_cards"]
    build(kit, out=out, langs=["en"])
    cards = out / "rummy_cards" / "en" / "number_cards-a4.pdf"
    assert _chroma(cards) > 100  # the colour print is in colour
    result = build(kit, out=out, langs=["en"], print_overrides={"greyscale": True})
    assert result.rebuilt > 0  # the option is part of the content key: the colour files are not kept
    assert _chroma(cards) <= 2
    assert _chroma(out / "rummy_cards" / "en" / "kit-a4.pdf") <= 2
