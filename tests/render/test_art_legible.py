"""Art that leaves text legible (issue 33, item 8): logos kept whole, art boxes in the collision check, the
bleed band of full-bleed art opaque, text and icons over art kept in contrast, font roles by meaning."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from generator.contract.load import load_kit
from generator.layout.ops import fitted, iter_art

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "make_it_yours"


def _compose(kit_dir: Path, lang: str = "en"):  # type: ignore[no-untyped-def]
    from generator.pipeline import compose_one, print_data
    from generator.render.fonts import text_width

    kit = load_kit(kit_dir)
    comps, _ = compose_one(
        kit, lang, "a4", kit.meta.seed, print_data(kit, kit.meta.seed), text_width, lambda m: None
    )
    return kit, {c.id: c for c in comps}


def test_a_logo_slot_keeps_the_whole_logo_by_default():
    """make_it_yours names no `fit` for its logos: the logo is drawn whole inside its slot (contain), where
    the
    old default (cover) scaled it past the box and cut off its outer ring."""
    _, comps = _compose(EXAMPLE)
    logos = [
        (cid, op)
        for cid in ("score_sheet", "rules")
        for page in comps[cid].pages
        for op, _ in iter_art(page.ops)
        if op.slot == "logo"
    ]
    assert {cid for cid, _ in logos} == {"score_sheet", "rules"}
    for cid, op in logos:
        x, y, w, h = fitted(op)
        assert op.fit == "contain", (cid, op.fit)
        assert x >= op.x - 1e-6 and y >= op.y - 1e-6, (cid, (x, y), (op.x, op.y))
        assert x + w <= op.x + op.w + 1e-6 and y + h <= op.y + op.h + 1e-6, (cid, (x, y, w, h), op)


def test_other_slots_still_cover_and_a_named_fit_wins(tmp_path):
    """A back with no `fit` still fills its box (cover); a logo that names `fit: cover` gets it."""
    import shutil

    kit_dir = tmp_path / "kit"
    shutil.copytree(EXAMPLE, kit_dir)
    text = (kit_dir / "kit.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "logo: assets/logo.svg", "logo: {path: assets/logo.svg, fit: cover}", 1
    )  # score_sheet
    (kit_dir / "kit.yaml").write_text(text, encoding="utf-8")
    _, comps = _compose(kit_dir)
    fits = {
        (cid, op.slot): op.fit
        for cid in ("score_sheet", "rules", "number_cards")
        for page in comps[cid].pages
        for op, _ in iter_art(page.ops)
        if op.slot in ("logo", "back")
    }
    assert fits == {
        ("score_sheet", "logo"): "cover",
        ("rules", "logo"): "contain",
        ("number_cards", "back"): "cover",
    }


def _rules_lines(tmp_path: Path, heading_size: str) -> tuple[dict[str, set[str]], list[str], list[str]]:
    """make_it_yours' rules (en) drawn with style.fonts.heading_size set to `heading_size`: each printed
    line's text -> the fonts pdfplumber reads on it, the heading strings and the body (paragraph) lines."""
    import shutil

    import pdfplumber

    from generator.layout.ops import Place, Text
    from generator.render.pdf import write_pdf

    kit_dir = tmp_path / f"kit{heading_size}"
    shutil.copytree(EXAMPLE, kit_dir)
    text = (kit_dir / "kit.yaml").read_text(encoding="utf-8")
    text = text.replace("  fonts:\n", f"  fonts:\n    heading_size: {heading_size}\n", 1)
    (kit_dir / "kit.yaml").write_text(text, encoding="utf-8")
    kit, comps = _compose(kit_dir)
    pages = comps["rules"].pages
    texts: list[Text] = []

    def walk(ops: tuple[object, ...]) -> None:
        for op in ops:
            if isinstance(op, Place):
                walk(op.ops)
            elif isinstance(op, Text) and op.text.strip():
                texts.append(op)

    for page in pages:
        walk(page.ops)
    headings = [t.text for t in texts if t.role == "heading" and t.text_id.endswith(".title")]
    body = [t.text for t in texts if t.role == "body" and t.font == "regular" and len(t.text.split()) > 2]
    pdf = tmp_path / f"rules{heading_size}.pdf"
    write_pdf(pages, pdf, title="rules", fonts=kit.fonts)
    lines: dict[str, set[str]] = {}
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages:
            rows: dict[tuple[int, int], list[dict[str, Any]]] = {}
            for ch in page.chars:
                rows.setdefault((round(float(ch["top"])), round(float(ch["size"]) * 10)), []).append(ch)
            for row in rows.values():
                row.sort(key=lambda c: float(c["x0"]))
                segments: list[list[dict[str, Any]]] = []
                for ch in row:  # a wide gap parts two faces printed side by side on one sheet
                    gap = float(ch["x0"]) - float(segments[-1][-1]["x1"]) if segments else 1e9
                    if gap > 3 * float(ch["size"]):
                        segments.append([])
                    segments[-1].append(ch)
                for chars in segments:
                    line = "".join(str(c["text"]) for c in chars)
                    lines.setdefault(line.replace(" ", ""), set()).update(
                        str(c["fontname"]).split("+")[-1] for c in chars if str(c["text"]).strip()
                    )
    return lines, headings, body


@pytest.mark.parametrize("heading_size", ["9pt", "12pt"])
def test_font_roles_follow_meaning_not_size(tmp_path, heading_size):
    """make_it_yours sets its headings in DejaVu Serif and its body in BIZ UDPGothic. Its rules body is about
    10 pt and its section headings about 11 pt: with heading_size 9pt the old rule (by size) drew the body in
    the heading font, with 12pt the headings in the body font. By meaning: every rules heading line prints in
    the heading font, every paragraph line in the body font, whatever heading_size says."""
    lines, headings, body = _rules_lines(tmp_path, heading_size)
    assert len(headings) >= 5 and len(body) >= 10, (headings, body)
    for heading in headings:
        fonts = lines[heading.replace(" ", "")]
        assert fonts and all(f.startswith("DejaVuSerif") for f in fonts), (heading, fonts)
    for text in body:
        fonts = lines[text.replace(" ", "")]
        assert fonts and all(f.startswith("BIZUDPGothic") for f in fonts), (text, fonts)


def _framed_back(band_px: int, alpha: int) -> bytes:
    """A 300 dpi poker back with 3 mm bleed: an opaque field, its outer `band_px` pixels at `alpha`."""
    import io

    from PIL import Image, ImageDraw

    from tests.render.test_art import _back_px

    size = _back_px()
    image = Image.new("RGBA", size, (200, 30, 120, alpha))
    ImageDraw.Draw(image).rectangle(
        (band_px, band_px, size[0] - 1 - band_px, size[1] - 1 - band_px), fill=(200, 30, 120, 255)
    )
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def test_transparent_pixels_in_a_bleed_band_are_a_located_error(tmp_path):
    """A full-bleed back drawn at the trim size and padded with transparency out to the bleed prints white
    gutters when the cut strays: an error at the art slot naming the file, and nothing is written."""
    from generator.errors import SpecError
    from generator.pipeline import build
    from tests.render.test_art import make_kit

    kit = make_kit(
        tmp_path,
        {"number_cards": "{back: {path: assets/back.png, bleed: true}}"},
        {"assets/back.png": _framed_back(35, 0)},  # 35 px = 3 mm at 300 dpi: the whole band is clear
    )
    out = tmp_path / "out"
    with pytest.raises(SpecError) as e:
        build([kit], out=out, langs=["en"])
    (problem,) = [p for p in e.value.problems if "bleed band" in p.message]
    assert problem.key == "components.number_cards.art.back"
    assert problem.line is not None
    assert re.match(
        r"assets/back\.png: transparent pixels in the bleed band \((9\d|100) % of the 3\.0 mm band on the "
        r"left, bottom, right, top\) print as white gutters where the cut strays",
        problem.message,
    ), problem.message
    assert not out.exists() or not any(out.rglob("*.pdf"))


def test_an_opaque_bleed_band_and_a_band_outside_the_bleed_pass(tmp_path):
    """An RGBA back opaque to its edges passes; so does one whose clear frame lies only in art that is not
    drawn into the bleed (no `bleed: true`: it stops at the trim)."""
    from generator.layout.art import art_problems
    from tests.render.test_art import make_kit

    for name, yaml, data in (
        ("opaque", "{back: {path: assets/back.png, bleed: true}}", _framed_back(35, 255)),
        ("trim", "{back: {path: assets/back.png}}", _framed_back(35, 0)),
        ("faint", "{back: {path: assets/back.png, bleed: true}}", _framed_back(2, 128)),
    ):
        kit_dir = make_kit(tmp_path / name, {"number_cards": yaml}, {"assets/back.png": data})
        _, comps = _compose(kit_dir)
        problems = [m for _, m, _ in art_problems(comps["number_cards"].pages, 300, 150) if "bleed band" in m]
        if name == "faint":  # two half-clear pixels at the very edge are still a gutter's worth of paper
            assert len(problems) == 1 and "of the 3.0 mm band on the left, bottom, right, top" in problems[0]
        else:
            assert problems == [], (name, problems)


def _rummy(tmp_path: Path, art: str, files: dict[str, bytes]) -> Path:
    """A copy of layouts/rummy_cards whose number cards get `art` (the YAML of their art mapping)."""
    import shutil

    kit = tmp_path / "rummy"
    shutil.copytree(ROOT / "layouts" / "rummy_cards", kit)
    for rel, data in files.items():
        (kit / rel).parent.mkdir(parents=True, exist_ok=True)
        (kit / rel).write_bytes(data)
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    text = re.sub(r"(\n  number_cards:[^\n]*\n)", rf"\1    art: {art}\n", text)
    (kit / "kit.yaml").write_text(text, encoding="utf-8")
    return kit


def _dark_icons() -> dict[str, bytes]:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        '<circle cx="50" cy="50" r="45" fill="#123456"/></svg>'
    )
    return {f"assets/{c}.svg": svg.encode() for c in ("yellow", "blue", "black", "red")}


def test_the_rummy_centre_icon_is_pale_so_the_numerals_stay_legible(tmp_path):
    """An untinted dark icon in the Rummy number cards' icon slot: the centre copy (the numeral prints across
    it) is painted in the card colour's pale tint whatever the kit's `tint` says, so the contrast check finds
    nothing; the corner copies keep the icon's own colours. Before, the red numerals sat on the navy icon at
    2.3:1."""
    from generator.layout.ops import Place, Vector
    from generator.layout.shapes import lighten
    from generator.pipeline.check import check_contrast

    kit, comps = _compose(_rummy(tmp_path, '{icon: "assets/{colour}.svg"}', _dark_icons()))
    cards = comps["number_cards"]
    centre, corner = [], []

    def walk(ops: tuple[object, ...], backdrop: bool) -> None:
        for op in ops:
            if isinstance(op, Place):
                walk(op.ops, backdrop or op.backdrop)
            elif isinstance(op, Vector) and op.slot == "icon":
                (centre if backdrop else corner).append(op)

    for page in cards.pages:
        walk(tuple(page.ops), False)
    assert len(centre) == 104 and len(corner) == 208
    pale = {lighten(c.colour, 0.8) for c in kit.game.colours}  # what the composer draws without art
    assert len(pale) == 4 and {op.tint for op in centre} == pale
    assert {op.tint for op in corner} == {None}
    heard: list[str] = []
    check_contrast(kit, cards, heard.append)
    assert heard == []


def test_a_busy_background_behind_the_corner_indices_is_a_located_warning(tmp_path):
    """A busy picture in the number cards' background slot (dark and light bars) hides the corner indices:
    the contrast check names the kit.yaml line of the slot, the component, the face, the slot and the
    string."""
    import io

    from PIL import Image, ImageDraw

    from generator.games.rummy_cards.layout import INDEX_SIZE
    from generator.pipeline.check import check_contrast

    image = Image.new("RGB", (400, 560), (250, 250, 250))
    draw = ImageDraw.Draw(image)
    for x in range(0, 400, 10):
        draw.rectangle((x, 0, x + 4, 560), fill=(30, 30, 30))
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    kit_dir = _rummy(tmp_path, "{background: assets/bars.png}", {"assets/bars.png": buf.getvalue()})
    kit, comps = _compose(kit_dir)
    heard: list[str] = []
    check_contrast(kit, comps["number_cards"], heard.append)
    line = next(
        n
        for n, text in enumerate((kit_dir / "kit.yaml").read_text().splitlines(), 1)
        if "art: {background" in text
    )
    assert heard, "no warning"
    assert all(
        w.startswith(f"{kit.display}:{line}: components.number_cards.art.background: number_cards: face ")
        for w in heard
    ), heard[:2]
    sevens = {
        m.group(1)
        for w in heard
        for m in [
            re.search(
                r"face yellow-7-1: text \(no id\) '7' at (\d+\.\d) pt over the art of slot background "
                r"\(assets/bars\.png\) keeps a contrast of 1\.\d:1, under 3:1 \(WCAG\)",
                w,
            )
        ]
        if m
    }
    assert sevens == {f"{INDEX_SIZE:.1f}"}, heard[:8]  # the corner indices (the centre number has its symbol)


def test_the_checks_measure_a_heading_in_the_heading_fonts_at_any_size(tmp_path):
    """A rules heading under heading_size prints in the heading font: the fit and collision checks measure it
    in that font too (the printed line's width as pdfplumber reads it), not in the body font."""
    import pdfplumber

    from generator.contract.load import load_kit
    from generator.layout.ops import Page, Text
    from generator.layout.textfit import text_box
    from generator.render.fonts import kit_measure
    from generator.render.pdf import write_pdf

    kit = load_kit(EXAMPLE)
    assert kit.fonts is not None
    measure = kit_measure(kit.fonts)
    heading = Text(20, 100, "Set-up and scoring", 8, font="bold", role="heading")
    body = Text(20, 50, "Set-up and scoring", 8, font="bold")
    pdf = tmp_path / "h.pdf"
    write_pdf([Page(300, 150, [heading, body])], pdf, title="h", fonts=kit.fonts)
    with pdfplumber.open(pdf) as doc:
        chars = doc.pages[0].chars
    for op in (heading, body):
        line = [c for c in chars if abs(float(c["bottom"]) - (150 - op.y)) < 3]
        printed = max(float(c["x1"]) for c in line) - min(float(c["x0"]) for c in line)
        x0, _, x1, _ = text_box(op, measure)
        assert abs((x1 - x0) - printed) < 0.1, (op.role, x1 - x0, printed)
    assert abs((text_box(heading, measure)[2]) - text_box(body, measure)[2]) > 1  # two fonts, two widths


def _svg_back(inset: float) -> bytes:
    """An SVG poker back with 3 mm bleed (69.5 x 94.9 mm): a field inset `inset` mm from its edges, the rest
    left clear."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="69.5mm" height="94.9mm" viewBox="0 0 69.5 94.9">'
        f'<rect x="{inset}" y="{inset}" width="{69.5 - 2 * inset}" height="{94.9 - 2 * inset}" '
        'fill="#1d2b4f"/>'
        "</svg>"
    ).encode()


def test_a_clear_bleed_band_in_svg_art_is_an_error_too(tmp_path):
    """An SVG back drawn only out to the trim (its 3 mm band left clear): the band is judged on the pixels the
    PDF prints (the art on white and on black differ there), an error at the slot; an SVG opaque to its edges
    passes."""
    from generator.errors import SpecError
    from generator.pipeline.check import check_art
    from tests.render.test_art import make_kit

    yaml = "{back: {path: assets/back.svg, bleed: true}}"
    kit_dir = make_kit(tmp_path / "clear", {"number_cards": yaml}, {"assets/back.svg": _svg_back(3.0)})
    kit, comps = _compose(kit_dir)
    with pytest.raises(SpecError) as e:
        check_art(kit, comps["number_cards"], print)
    (problem,) = e.value.problems
    assert problem.key == "components.number_cards.art.back" and problem.line is not None
    assert re.match(
        r"assets/back\.svg: transparent pixels in the bleed band \((9\d|100) % of the 3\.0 mm band on the "
        r"left, bottom, right, top\) print as white gutters",
        problem.message,
    ), problem.message
    kit_dir = make_kit(tmp_path / "opaque", {"number_cards": yaml}, {"assets/back.svg": _svg_back(0.0)})
    kit, comps = _compose(kit_dir)
    check_art(kit, comps["number_cards"], print)
