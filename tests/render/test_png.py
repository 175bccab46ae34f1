"""PNG output: size from dpi, real pixels where the ops put colour, atomic writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from generator.errors import RenderError
from generator.layout.ops import Page, Place, Rect
from generator.render.pdf import write_pdf
from generator.render.png import write_png


def test_png_pixels_and_size(tmp_path: Path) -> None:
    pdf = tmp_path / "a.pdf"
    # a red square placed, rotated 90 degrees and clipped: only its left half (in its own coordinates) shows
    square = Place(
        150, 50, (Rect(0, 0, 100, 100, fill="#ff0000", stroke=None),), clip=(0, 0, 50, 100), rotate=90
    )
    write_pdf([Page(200, 200, [square]), Page(100, 50)], pdf, title="t")
    png = tmp_path / "a.png"
    write_png(pdf, png, dpi=72)
    with Image.open(png) as im:
        assert im.size == (200, 200)
        rgb = im.convert("RGB")
        # rotated 90 ccw about (150, 50): own (0..50, 0..100) -> page x 50..150, y 50..100 (PDF, bottom-up)
        assert rgb.getpixel((100, 200 - 75)) == (255, 0, 0)
        assert rgb.getpixel((100, 200 - 125)) == (255, 255, 255)  # clipped half
        assert rgb.getpixel((20, 20)) == (255, 255, 255)
    write_png(pdf, png, page=1, dpi=144)
    with Image.open(png) as im:
        assert im.size == (200, 100)


def test_png_bad_page_keeps_old_file(tmp_path: Path) -> None:
    pdf = tmp_path / "a.pdf"
    write_pdf([Page(100, 100)], pdf, title="t")
    png = tmp_path / "a.png"
    png.write_bytes(b"old")
    with pytest.raises(RenderError, match="has 1 page"):
        write_png(pdf, png, page=3)
    assert png.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdf", "a.png"]
