"""The PDF writer, measured with independent readers: pypdf/pdfplumber (text, lines, rects), pikepdf
(structure)."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pikepdf
import pypdf
import pytest

from generator.errors import RenderError
from generator.layout.imposition import card_grid, impose_cards
from generator.layout.ops import Face, Page, Place, Rect, Text
from generator.render.pdf import write_pdf
from generator.spec.print import PrintSpec
from generator.units import CARD_PRESETS, PAPER, mm
from tests.layout.faces import MARKER, card, marker_colour

POKER = CARD_PRESETS["poker"]


def _deck(n: int, preset: str = "poker") -> tuple[list[Face], list[Face]]:
    w, h = CARD_PRESETS[preset]
    return [card(i, w, h) for i in range(n)], [card(i, w, h, side=2) for i in range(n)]


def _markers(page: pdfplumber.page.Page) -> dict[str, tuple[float, float]]:
    """Centre (PDF coordinates, origin bottom-left) of every MARKER-sized filled square, by colour."""
    out: dict[str, tuple[float, float]] = {}
    for r in page.rects:
        if abs(r["width"] - MARKER) < 0.01 and abs(r["height"] - MARKER) < 0.01:
            rgb = r["non_stroking_color"]
            colour = "#" + "".join(f"{round(c * 255):02x}" for c in rgb)
            out[colour] = ((r["x0"] + r["x1"]) / 2, page.height - (r["top"] + r["bottom"]) / 2)
    return out


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("preset", ["poker", "mini"])  # mini cards are turned on the page
def test_back_lands_on_the_mirrored_position(tmp_path: Path, duplex: str, preset: str) -> None:
    settings = PrintSpec(duplex=duplex, back_offset={"x": "1.5mm", "y": "-0.7mm"})
    fronts, backs = _deck(9, preset)
    out = tmp_path / "deck.pdf"
    write_pdf(impose_cards("deck", fronts, backs, settings, "a4"), out, title="deck")
    grid = card_grid("a4", *CARD_PRESETS[preset], settings)
    with pdfplumber.open(out) as pdf:
        front, back = _markers(pdf.pages[0]), _markers(pdf.pages[1])
        width, height = pdf.pages[0].width, pdf.pages[0].height
    assert len(front) == len(back) == 9
    for n in range(9):
        row, col = divmod(n, grid.cols)
        fx, fy = front[marker_colour(1, n)]
        # the front of (row, col) is where the grid says (row 0 on top)
        cx, cy = grid.cell(row, col)
        assert (fx, fy) == pytest.approx((cx + grid.card_w / 2, cy + grid.card_h / 2), abs=0.1)
        bx, by = back[marker_colour(2, n)]
        if duplex == "long":  # portrait sheet turned over its long (vertical) edge
            expected = (width - fx - mm(1.5), fy + mm(0.7))
        else:
            expected = (fx - mm(1.5), height - fy + mm(0.7))
        assert (bx, by) == pytest.approx(expected, abs=0.1), (n, row, col)


def test_crop_marks_sit_on_the_trim_corners(tmp_path: Path) -> None:
    out = tmp_path / "deck.pdf"
    w, h = CARD_PRESETS["poker"]
    fronts = [card(i, w, h, inset=0) for i in range(9)]  # borders at the trim: the cards get gutters
    pages = impose_cards("deck", fronts, None, PrintSpec(), "a4")
    write_pdf(pages, out, title="deck")
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        h = page.height
        borders = [
            r
            for r in page.rects
            if sorted((round(r["width"], 1), round(r["height"], 1))) == sorted(round(v, 1) for v in POKER)
        ]
        lines = [ln for ln in page.lines if ln["stroking_color"] in ((0,), (0, 0, 0), [0], [0, 0, 0])]
    assert len(borders) == sum(isinstance(op, Place) and bool(op.name) for op in pages[0].ops) >= 8
    left = min(r["x0"] for r in borders)
    right = max(r["x1"] for r in borders)
    bottom = min(h - r["bottom"] for r in borders)
    top = max(h - r["top"] for r in borders)
    corners = {(x, y) for r in borders for x in (r["x0"], r["x1"]) for y in (h - r["bottom"], h - r["top"])}
    outer = [(x, y) for x, y in corners if x in (left, right) or y in (bottom, top)]
    for x, y in outer:
        if y in (bottom, top):  # a vertical mark continues the vertical trim edge beyond the cards
            assert any(
                abs(ln["x0"] - x) < 0.1
                and abs(ln["x1"] - x) < 0.1
                and (h - ln["top"] < bottom or h - ln["bottom"] > top)
                for ln in lines
            ), (x, y)
        if x in (left, right):
            assert any(
                abs(ln["top"] - (h - y)) < 0.1
                and abs(ln["bottom"] - (h - y)) < 0.1
                and (ln["x1"] < left or ln["x0"] > right)
                for ln in lines
            ), (x, y)
    for ln in lines:  # no mark enters the card area
        assert (
            ln["x1"] <= left + 0.1
            or ln["x0"] >= right - 0.1
            or h - ln["top"] <= bottom + 0.1
            or h - ln["bottom"] >= top - 0.1
        )


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_sizes_exact(tmp_path: Path, paper: str) -> None:
    out = tmp_path / "deck.pdf"
    fronts, backs = _deck(3)
    write_pdf(impose_cards("deck", fronts, backs, PrintSpec(), paper), out, title="deck")
    reader = pypdf.PdfReader(out)
    for page in reader.pages:
        box = page.mediabox
        assert (float(box.width), float(box.height)) == pytest.approx(PAPER[paper], abs=0.1)
    with pikepdf.open(out) as pdf:
        assert all("/TrimBox" not in p.obj and "/BleedBox" not in p.obj for p in pdf.pages)


def test_shop_trim_and_bleed_boxes_exact(tmp_path: Path) -> None:
    settings = PrintSpec(mode="shop")
    fronts, backs = _deck(2)
    out = tmp_path / "shop.pdf"
    write_pdf(impose_cards("deck", fronts, backs, settings, "a4"), out, title="deck")
    w, h = POKER
    b = mm(3)
    with pikepdf.open(out) as pdf:
        assert len(pdf.pages) == 4
        for p in pdf.pages:
            assert [float(v) for v in p.obj.MediaBox] == pytest.approx([0, 0, w + 2 * b, h + 2 * b], abs=0.1)
            assert [float(v) for v in p.obj.TrimBox] == pytest.approx([b, b, b + w, b + h], abs=0.1)
            assert [float(v) for v in p.obj.BleedBox] == pytest.approx([0, 0, w + 2 * b, h + 2 * b], abs=0.1)
    with pdfplumber.open(out) as pdf:
        assert [" ".join(w["text"] for w in p.extract_words()) for p in pdf.pages] == ["F0", "B0", "F1", "B1"]


def _fonts(pdf: pikepdf.Pdf) -> list[pikepdf.Dictionary]:
    seen: dict[tuple[int, int], pikepdf.Dictionary] = {}
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font":
            seen[obj.objgen] = obj
    return list(seen.values())


def test_every_font_embedded_and_subset(tmp_path: Path) -> None:
    out = tmp_path / "deck.pdf"
    fronts, backs = _deck(3)
    pages = impose_cards("deck", fronts, backs, PrintSpec(), "a4")
    pages.append(Page(*PAPER["a4"], [Text(50, 50, "リップル・ラッシュ", 12, text_id="title")]))
    write_pdf(pages, out, title="deck")
    with pikepdf.open(out) as pdf:
        fonts = _fonts(pdf)
        assert fonts
        for f in fonts:
            name = str(f.BaseFont)
            assert "Helvetica" not in name and "Times" not in name
            descendants = f.get("/DescendantFonts")
            target = descendants[0] if descendants is not None else f
            desc = target.get("/FontDescriptor")
            assert desc is not None, name
            assert any(k in desc for k in ("/FontFile2", "/FontFile", "/FontFile3")), name
            assert "+" in name and "BIZUDPGothic" in name, name  # subset tag
        raw = out.read_bytes()
        assert b"Helvetica" not in raw
    with pdfplumber.open(out) as pdf:
        names = {c["fontname"].split("+")[-1] for p in pdf.pages for c in p.chars}
    assert names == {"BIZUDPGothic-Regular", "BIZUDPGothic-Bold"}
    assert "リップル・ラッシュ" in pdfplumber.open(out).pages[-1].extract_text()


def test_byte_identical_rebuild(tmp_path: Path) -> None:
    fronts, backs = _deck(12)
    pages = impose_cards("deck", fronts, backs, PrintSpec(), "a4")
    write_pdf(pages, tmp_path / "a.pdf", title="deck")
    write_pdf(impose_cards("deck", *_deck(12), PrintSpec(), "a4"), tmp_path / "b.pdf", title="deck")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


def test_metadata_and_outline(tmp_path: Path) -> None:
    out = tmp_path / "kit.pdf"
    pages = impose_cards("deck", *_deck(10), PrintSpec(), "a4", bookmark="Cards")
    pages += impose_cards("minis", *_deck(2, "mini"), PrintSpec(), "a4")
    write_pdf(pages, out, title="Ripple Rush", subject="print and play")
    reader = pypdf.PdfReader(out)
    assert reader.metadata.title == "Ripple Rush" and reader.metadata.author == "pnpkit"
    assert reader.metadata.subject == "print and play"
    outline = [(o.title, reader.get_destination_page_number(o)) for o in reader.outline]
    assert outline == [("Cards", 0), ("minis", 4)]
    with pikepdf.open(out) as pdf:
        assert str(pdf.Root.Lang) == "en"


def test_missing_glyph_names_text_page_and_codepoints_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "x.pdf"
    out.write_bytes(b"old")
    bad = Page(
        100,
        100,
        [Text(10, 10, "ok", 10, text_id="fine"), Text(10, 30, "A😀B\u0e01😀", 10, text_id="card.title")],
        label="deck front 1",
    )
    with pytest.raises(RenderError) as err:
        write_pdf([Page(100, 100), bad], out, title="t")
    assert str(err.value) == (
        "1 text with characters missing from the font (BIZ UDPGothic):\n"
        "  page 2 (deck front 1): text card.title 'A😀Bก😀': U+1F600 '😀' U+0E01 'ก'"
    )
    assert out.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["x.pdf"]


def test_bad_colour_is_a_render_error_and_leaves_no_file(tmp_path: Path) -> None:
    out = tmp_path / "x.pdf"
    with pytest.raises(RenderError, match="unknown colour 'purple'"):
        write_pdf([Page(100, 100, [Rect(0, 0, 10, 10, fill="purple")])], out, title="t")
    assert list(tmp_path.iterdir()) == []


def test_missing_folder_is_a_render_error(tmp_path: Path) -> None:
    with pytest.raises(RenderError, match="does not exist"):
        write_pdf([Page(100, 100)], tmp_path / "nope" / "x.pdf", title="t")
