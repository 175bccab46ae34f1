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


def test_every_pdfium_document_is_opened_and_drawn_under_the_one_lock(tmp_path: Path, monkeypatch) -> None:
    """PDFium is not thread-safe: `serve` draws previews in its request threads while a rebuild rasterises art
    for the contrast check. Every pnpkit call into pypdfium2 holds `render.pdfium_lock.PDFIUM`: previews,
    page counts, rasters and SVG art drawn to pixels, from whichever thread."""
    import threading

    import pypdfium2

    from generator.layout.ops import art_op
    from generator.render import pilraster
    from generator.render.pdfium_lock import PDFIUM
    from generator.render.png import page_count, page_png
    from generator.render.raster import rasterize
    from generator.spec.assets import probe

    opened: list[tuple[str, bool]] = []
    real = pypdfium2.PdfDocument

    def document(*args, **kwargs):  # type: ignore[no-untyped-def]
        opened.append((threading.current_thread().name, PDFIUM._is_owned()))  # type: ignore[attr-defined]
        return real(*args, **kwargs)

    monkeypatch.setattr(pypdfium2, "PdfDocument", document)
    page = Page(100, 100, [Place(0, 0, (Rect(10, 10, 50, 50, fill="#123456"),))])
    pdf = tmp_path / "a.pdf"
    write_pdf([page], pdf, title="a")
    svg = probe(
        b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>',
        "assets/x.svg",
    )
    icon = art_op(svg, 0, 0, 40, 40, slot="icon")

    def work() -> None:
        for _ in range(3):
            page_png(pdf, 0)
            assert page_count(pdf) == 1
            list(rasterize([page], [(50, 50)]))
        pilraster.draw_page(Page(40, 40, [Place(0, 0, (icon,))]), (40, 40))

    threads = [threading.Thread(target=work, name=f"t{i}") for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(opened) >= 2 * 9 + 1  # the SVG's pixels are drawn once (kept by content)
    assert {name for name, _ in opened} >= {"t0", "t1"}
    assert all(held for _, held in opened), opened
