"""tests/pdftext.py reads what pdfplumber reads, in the same order, on real pages of the kits: a sheet's top
face and each half of a rules page (Peak Dice, every shipped language), and a whole card page (Rummy
Cards)."""

from __future__ import annotations

import re

import pdfplumber
import pytest

from tests.pdftext import page_text


def _plumber(pdf, box=None) -> str:  # type: ignore[no-untyped-def]
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        return re.sub(r"\s+", "", (page.crop(box) if box else page).extract_text() or "")


def _size(pdf) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    with pdfplumber.open(pdf) as doc:
        return doc.pages[0].width, doc.pages[0].height


@pytest.mark.parametrize("lang", ["en", "ja", "es", "de", "fr"])
def test_pdfium_reads_what_pdfplumber_reads_in_the_same_order(built, lang):
    sheet = built("peak_dice") / lang / "score_sheet-a4.pdf"
    rules = built("peak_dice") / lang / "rules-a4.pdf"
    (sw, sh), (w, h) = _size(sheet), _size(rules)
    for pdf, box in (
        (sheet, (0, 0, sw, sh / 2)),
        (rules, (0, 0, w / 2, h)),
        (rules, (w / 2, 0, w, h)),
        (rules, None),
    ):
        text = page_text(pdf, box)
        assert len(text) > 100 and text == _plumber(pdf, box), (pdf.name, box)


def test_a_box_keeps_only_its_characters(built):
    rules = built("peak_dice") / "en" / "rules-a4.pdf"
    w, h = _size(rules)
    left, right = page_text(rules, (0, 0, w / 2, h)), page_text(rules, (w / 2, 0, w, h))
    assert left and right and left != right and len(left) + len(right) == len(page_text(rules))
