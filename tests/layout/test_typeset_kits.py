"""Type defects read back from the shipped kits' PDFs with pdfplumber: no Japanese line ends inside a katakana
word, no number is split from its unit, no line starts with an arrow or a middle dot (each failed on the
kits before line breaking followed UAX #14 and BudouX). The component PDFs are drawn as a build draws them
from the kits' shared plans (tests/composed.py), which the other modules of their group compose too."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pdfplumber
import pytest

from generator.layout.linebreak import UNITS
from tests.composed import SHARED_PLANS, component_pdfs

ROOT = Path(__file__).resolve().parents[2]
pytestmark = SHARED_PLANS

KATAKANA = re.compile(r"[\u30a1-\u30fa\u30fc]")
KITS = ["harvest_deck", "peak_dice", "raindrops", "ripple_rush", "rummy_cards", "sprout_sheet"]


def _component_pdfs(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.pdf") if not p.name.startswith(("kit-", "calibration-")))


def line_pairs(pdf: Path) -> Iterator[tuple[int, str, str]]:
    """(page, line, next line) for every two lines of one paragraph: same left edge, same font and size,
    the second one line height (1.1 to 1.7 sizes) below the first."""
    with pdfplumber.open(pdf) as doc:
        for n, page in enumerate(doc.pages, 1):
            lines = page.extract_text_lines(return_chars=True)
            for a in lines:
                for b in lines:
                    last, first = a["chars"][-1], b["chars"][0]
                    size = last["size"]
                    if b is a or abs(b["x0"] - a["x0"]) > 1.5:
                        continue
                    if abs(first["size"] - size) > 0.05 or last["fontname"] != first["fontname"]:
                        continue
                    if 1.1 * size < b["top"] - a["top"] < 1.7 * size:
                        yield n, a["text"], b["text"]


def katakana_splits(folder: Path) -> list[str]:
    """Every line of `folder`'s PDFs that ends inside a katakana word continued on the next line."""
    return [
        f"{pdf.name} p{n}: {a[-8:]!r} / {b[:8]!r}"
        for pdf in _component_pdfs(folder)
        for n, a, b in line_pairs(pdf)
        if a and b and KATAKANA.match(a[-1]) and KATAKANA.match(b[0])
    ]


def split_units(folder: Path) -> list[str]:
    """Every line break between a number and its unit, or before an arrow or a middle dot, or after an
    arrow."""
    bad = []
    for pdf in _component_pdfs(folder):
        for n, a, b in line_pairs(pdf):
            unit = b.split(" ")[0].rstrip(".,;:)")
            if (a[-1:].isdigit() and unit in UNITS) or b[:1] in "·→" or a.endswith("→"):
                bad.append(f"{pdf.name} p{n}: {a[-16:]!r} / {b[:16]!r}")
    return bad


@pytest.mark.parametrize("kit", KITS)
def test_no_japanese_line_ends_inside_a_katakana_word(tmp_path, kit):
    # before: Raindrops "ボー/ド", Ripple Rush "ボー/ナス", Rummy "ジョー/カー", "ラウン/ド"
    assert component_pdfs(ROOT / "layouts" / kit, tmp_path, "ja")
    assert katakana_splits(tmp_path) == []


@pytest.mark.parametrize("lang", ["en", "de", "fr", "es"])
def test_no_number_is_split_from_its_unit_or_arrow(tmp_path, lang):
    # before: "16 / mm die" (en stickers), "Würfel 1 / · Lila" (de nets),
    # "(9, 10, 9 und 12 / → 10)" (de sheet)
    assert component_pdfs(ROOT / "layouts" / "peak_dice", tmp_path, lang)
    assert split_units(tmp_path) == []
