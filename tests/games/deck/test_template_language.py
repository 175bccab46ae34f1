"""The template language's newer words (docs/deck-kind.md): extends, rotate, a card radius that clips art,
gradients, opacity on shapes, text padding, repeat alignment, ref lookups, sheet-only kits and empty cells.
Each is read back from real output: the PDF's structure (pikepdf), its text boxes (pdfplumber) and its pixels
(pypdfium2), and the Pillow raster is compared with pdfium's."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pdfplumber
import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image
from pydantic import TypeAdapter, ValidationError

from generator.i18n.sandbox import CatalogEnvironment
from generator.layout.geometry import drawn
from generator.layout.ops import Page, Place, Rect, iter_texts
from generator.layout.template import FaceRenderer
from generator.render.pdf import write_pdf
from generator.render.pilraster import draw_page
from generator.spec.assets import probe
from generator.spec.template import AnyElement
from generator.units import mm
from tests.games.deck.helpers import ROOT, deck
from tests.games.deck.test_data import pnpkit

W, H = mm(60), mm(90)
ELEMENT: TypeAdapter[Any] = TypeAdapter(AnyElement)
RED, BLUE = "#d01010", "#1010d0"


def measure(text: str, font: str, size: float) -> float:
    return 0.5 * size * len(text)


def _art() -> Any:
    buf = io.BytesIO()
    Image.new("RGB", (60, 90), (20, 160, 40)).save(buf, format="PNG")
    return probe(buf.getvalue(), "assets/a.png")


def face(elements: list[dict[str, Any]], row: dict[str, Any] | None = None, **kw: Any) -> Any:
    draw = FaceRenderer(CatalogEnvironment(), measure, assets={"assets/a.png": _art()})
    return draw.face("f", [ELEMENT.validate_python(e) for e in elements], row or {}, W, H, 0.0, "t", **kw)


def pdf(tmp_path: Path, ops: Any) -> Path:
    """One page the size of the face holding `ops`."""
    out = tmp_path / "f.pdf"
    write_pdf([Page(W, H, list(ops))], out, title="t")
    return out


def pixels(path: Path, dpi: int = 72) -> Image.Image:
    doc = pdfium.PdfDocument(str(path))
    try:
        return doc[0].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def at(image: Image.Image, x_mm: float, y_mm: float) -> tuple[int, ...]:
    """The pixel at (x, y) mm from the top-left of a 72-dpi raster of the face."""
    return tuple(image.getpixel((round(mm(x_mm)), round(mm(y_mm)))))


def near(a: tuple[int, ...], b: str, tol: int = 12) -> bool:
    want = tuple(int(b[i : i + 2], 16) for i in (1, 3, 5))
    return all(abs(x - y) <= tol for x, y in zip(a, want, strict=True))


# ------------------------------------------------------------------ extends


def _templates(**extra: Any) -> dict[str, Any]:
    return {
        "base": {
            "front": [
                {"id": "bg", "type": "rect", "x": 0, "y": 0, "w": "100%", "h": "100%", "fill": RED},
                {"id": "title", "type": "text", "x": 0, "y": 0, "w": "100%", "h": "20%", "text": "{{ id }}"},
                {"id": "badge", "type": "ellipse", "x": "40%", "y": "40%", "w": "10mm", "h": "10mm"},
            ],
            "back": [{"id": "b", "type": "rect", "x": 0, "y": 0, "w": "100%", "h": "100%", "fill": BLUE}],
        },
        **extra,
    }


def test_extends_replaces_by_id_removes_and_adds_after_the_parent():
    child = {
        "extends": "base",
        "remove": ["badge"],
        "front": [
            {"id": "bg", "type": "rect", "x": 0, "y": 0, "w": "100%", "h": "100%", "fill": BLUE},
            {"type": "text", "x": 0, "y": "80%", "w": "100%", "h": "20%", "text": "new"},
        ],
    }
    game = deck([{"id": "a", "count": 1, "cost": 1}], templates=_templates(child=child)).spec
    tpl = game.templates["child"]
    assert [getattr(e, "id", None) for e in tpl.front or []] == ["bg", "title", None]
    assert tpl.front[0].fill == BLUE  # type: ignore[index, union-attr]
    assert tpl.back == game.templates["base"].back  # the side it does not give is inherited whole


def test_back_null_drops_the_inherited_back_and_a_grandchild_keeps_it_dropped():
    """`back: null` in a child prints no back (left out, the parent's is kept); its own children inherit the
    dropped back unless they give one."""
    templates = _templates(
        bare={"extends": "base", "back": None},
        kept={"extends": "base"},
        again={"extends": "bare"},
        own={"extends": "bare", "back": [{"type": "rect", "x": 0, "y": 0, "w": "1mm", "h": "1mm"}]},
    )
    game = deck([{"id": "a", "count": 1, "cost": 1}], templates=templates).spec
    assert game.templates["bare"].back is None
    assert game.templates["again"].back is None
    assert game.templates["kept"].back == game.templates["base"].back
    assert [e.type for e in game.templates["own"].back or []] == ["rect"]
    assert game.templates["bare"].front == game.templates["base"].front


@pytest.mark.parametrize(
    ("templates", "message"),
    [
        ({"x": {"extends": "nope"}}, r"x\.extends: no template 'nope'; expected one of base, x"),
        ({"x": {"extends": "y"}, "y": {"extends": "x"}}, r"a cycle x -> y -> x"),
        (
            {"x": {"extends": "base", "remove": ["ghost"]}},
            r"x\.remove: 'base' has no element with id 'ghost'",
        ),
    ],
)
def test_an_unknown_parent_a_cycle_or_an_unknown_id_is_refused(templates, message):
    with pytest.raises(ValidationError, match=message):
        deck([{"id": "a", "count": 1, "cost": 1}], templates=_templates(**templates))


def test_a_cycle_is_a_located_error_of_validate(tmp_path):
    kit = tmp_path / "harvest_deck"
    shutil.copytree(ROOT / "layouts" / "harvest_deck", kit)
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    text = text.replace("    card:  # what every card shares", "    card:\n      extends: crop  # ")
    (kit / "kit.yaml").write_text(text, encoding="utf-8")
    done = pnpkit("validate", str(kit))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "kit.yaml:" in done.stderr and "game.templates" in done.stderr
    assert "a cycle card -> crop -> card" in done.stderr


# ------------------------------------------------------------------ rotate


def test_rotate_turns_an_element_about_its_box_centre_and_the_checks_see_the_turned_box(tmp_path):
    rect = {"type": "rect", "x": "10mm", "y": "40mm", "w": "40mm", "h": "10mm", "fill": RED, "stroke": None}
    flat = face([rect])
    turned = face([{**rect, "rotate": 90}])
    (box_flat,) = [d.box for d in drawn(flat.ops, measure)]
    (box_turned,) = [d.box for d in drawn(turned.ops, measure)]
    centre = ((box_flat[0] + box_flat[2]) / 2, (box_flat[1] + box_flat[3]) / 2)
    assert ((box_turned[0] + box_turned[2]) / 2, (box_turned[1] + box_turned[3]) / 2) == pytest.approx(centre)
    assert box_turned[2] - box_turned[0] == pytest.approx(mm(10))  # the collision box is the turned one
    assert box_turned[3] - box_turned[1] == pytest.approx(mm(40))
    image = pixels(pdf(tmp_path, turned.ops))
    assert near(at(image, 30, 30), RED) and near(at(image, 15, 45), "#ffffff")  # upright now, not lying


@pytest.mark.parametrize(
    "element",
    [
        {"type": "text", "x": "10mm", "y": "40mm", "w": "40mm", "h": "10mm", "text": "Hello"},
        {"type": "icon", "name": "star", "x": "10mm", "y": "40mm", "w": "10mm", "h": "10mm"},
        {"type": "line", "x": "10mm", "y": "40mm", "x2": "50mm", "y2": "40mm"},
        {"type": "polygon", "points": [["10mm", "40mm"], ["50mm", "40mm"], ["30mm", "50mm"]]},
        {"type": "image", "src": "assets/a.png", "x": "10mm", "y": "40mm", "w": "40mm", "h": "10mm"},
        {
            "type": "repeat",
            "times": 3,
            "dx": "10mm",
            "element": {"type": "ellipse", "x": "10mm", "y": "40mm", "w": "5mm", "h": "5mm"},
        },
        {"type": "grid", "x": "10mm", "y": "40mm", "w": "40mm", "h": "10mm", "rows": 2, "columns": 2},
    ],
)
def test_every_element_kind_turns(element):
    (op,) = face([{**element, "rotate": 30}]).ops
    assert isinstance(op, Place) and op.rotate == 30
    assert face([element]).ops == op.ops[0].ops  # type: ignore[union-attr]


# ------------------------------------------------------------------ radius, gradient, opacity


def test_a_card_radius_clips_its_art_to_the_rounded_corners(tmp_path):
    art = {"type": "image", "src": "assets/a.png", "x": 0, "y": 0, "w": "100%", "h": "100%", "fit": "stretch"}
    square = pixels(pdf(tmp_path, face([art]).ops))
    assert near(at(square, 0.3, 0.3), "#14a028")  # no radius: the art reaches the corner
    rounded = pixels(pdf(tmp_path, face([art], radius=mm(6)).ops))
    assert near(at(rounded, 0.5, 0.5), "#ffffff") and near(at(rounded, 59.5, 89.5), "#ffffff")
    assert near(at(rounded, 30, 45), "#14a028") and near(at(rounded, 0.5, 45), "#14a028")


def test_a_gradient_fill_runs_from_its_first_colour_to_its_second(tmp_path):
    rect = {"type": "rect", "x": 0, "y": 0, "w": "100%", "h": "100%", "stroke": None}
    up = face([{**rect, "fill": {"gradient": [RED, BLUE], "angle": 90}}])
    path = pdf(tmp_path, up.ops)
    with pikepdf.open(path) as doc:
        assert "/Shading" in doc.pages[0].Resources or any(
            "/Shading" in x.Resources for x in doc.pages[0].Resources.get("/XObject", {}).values()
        )
    image = pixels(path)
    assert near(at(image, 30, 89), RED, 20) and near(at(image, 30, 1), BLUE, 20)  # 90: bottom to top
    across = pixels(pdf(tmp_path, face([{**rect, "fill": {"gradient": [RED, BLUE], "angle": 0}}]).ops))
    assert near(at(across, 1, 45), RED, 20) and near(at(across, 59, 45), BLUE, 20)


def test_opacity_on_a_shape_blends_it_with_what_is_under_it(tmp_path):
    box = {"type": "rect", "x": 0, "y": 0, "w": "100%", "h": "100%", "stroke": None}
    ops = face([{**box, "fill": BLUE}, {**box, "fill": RED, "opacity": 0.5}]).ops
    path = pdf(tmp_path, ops)
    with pikepdf.open(path) as doc:
        states = doc.pages[0].Resources.ExtGState
        assert any(float(s.get("/ca", 1)) == 0.5 for s in states.values())
    r, g, b = at(pixels(path), 30, 45)
    assert abs(r - 0x70) < 16 and abs(b - 0x70) < 16  # half red over blue


# ------------------------------------------------------------------ padding, repeat alignment


def test_text_padding_keeps_the_words_off_the_edges_of_their_box(tmp_path):
    el = {
        "type": "text",
        "x": "5mm",
        "y": "5mm",
        "w": "50mm",
        "h": "12mm",
        "text": "Wheat",
        "align": "left",
        "fill": "#eeeeee",
        "size": "30pt",
    }
    flush = [t for t in iter_texts(face([el]).ops)][0]
    padded = face([{**el, "padding": "3mm"}])
    (rect,) = [op for op in padded.ops if isinstance(op, Rect)]
    (text,) = list(iter_texts(padded.ops))
    assert flush.x == pytest.approx(mm(5)) and text.x == pytest.approx(mm(8))
    assert rect.w == pytest.approx(mm(50))  # the box still fills the whole element
    with pdfplumber.open(pdf(tmp_path, face([el]).ops)) as doc:
        flush_left = min(c["x0"] for c in doc.pages[0].chars)
    with pdfplumber.open(pdf(tmp_path, padded.ops)) as doc:
        chars = doc.pages[0].chars
    assert min(c["x0"] for c in chars) - flush_left == pytest.approx(mm(3), abs=0.5)
    assert text.size <= (mm(12) - 2 * mm(3)) / 0.95 + 1e-6 < flush.size  # fitted to the padded box's height


@pytest.mark.parametrize(("align", "first"), [("left", 20.0), ("center", 15.0), ("right", 10.0)])
def test_repeat_align_places_the_line_by_its_first_middle_or_last_copy(align, first):
    el = {
        "type": "repeat",
        "times": 3,
        "dx": "5mm",
        "align": align,
        "element": {"type": "rect", "x": "20mm", "y": "0mm", "w": "4mm", "h": "4mm"},
    }
    xs = [d.box[0] for d in drawn(face([el]).ops, measure)]
    assert [round(x / mm(1) + 0.25 / mm(1), 3) for x in xs] == pytest.approx([first, first + 5, first + 10])


# ------------------------------------------------------------------ cells, refs, sheet-only kits


def test_an_empty_text_cell_is_the_empty_string():
    game = deck(
        [{"id": "a", "count": 1, "cost": 1, "text": None}, {"id": "b", "count": 1, "cost": 2, "text": "hi"}]
    )
    rows = game.rows["cards"].rows
    assert rows[0]["text"] == "" and rows[1]["text"] == "hi"
    el = {"type": "rect", "x": 0, "y": 0, "w": "10mm", "h": "10mm", "when": "text != ''"}
    assert face([el], rows[0]).ops == () and len(face([el], rows[1]).ops) == 1


DOC = ROOT / "docs" / "deck-kind.md"


def documented(name: str) -> str:
    """The kit.yaml of docs/deck-kind.md's block marked `<!-- {name} example: kit.yaml -->`."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(rf"<!-- {name} example: kit\.yaml -->\n```yaml\n(.*?)\n```", text, re.S)
    assert found, name
    return found.group(1) + "\n"


def _people(tmp_path: Path, owner: str) -> Path:
    kit = tmp_path / "pets"
    (kit / "locales").mkdir(parents=True)
    text = documented("ref")
    assert text.count("owner: bo}") == 1
    (kit / "kit.yaml").write_text(text.replace("owner: bo}", f"owner: {owner}}}"), encoding="utf-8")
    (kit / "locales" / "en.po").write_text('msgid "kit.title"\nmsgstr "Pets"\n', encoding="utf-8")
    return kit


def test_ref_prints_the_referenced_rows_field_not_its_id(tmp_path):
    kit = _people(tmp_path, "bo")
    done = pnpkit("build", str(kit), "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    (path,) = list((tmp_path / "out").rglob("kit-a4.pdf"))
    with pdfplumber.open(path) as doc:
        text = " ".join(p.extract_text() or "" for p in doc.pages)
    text = text + " " + text[::-1]  # some minis print turned half round
    assert text.count("Annabel") == 2 and text.count("Bonifacio") == 2  # a person's card and a pet's ref
    assert " ann\n" not in text and "\nbo\n" not in text


def test_a_ref_to_an_unknown_id_is_a_located_error_of_validate(tmp_path):
    done = pnpkit("validate", str(_people(tmp_path, "nobody")))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "kit.yaml:" in done.stderr and "owner" in done.stderr and "'nobody'" in done.stderr


@pytest.mark.parametrize(
    ("ref", "hint"),
    [
        ("ownr", "did you mean 'owner'?"),
        ("name", "(declared: owner)"),
    ],
)
def test_a_ref_to_an_undeclared_field_is_a_located_error_at_the_template(tmp_path, ref, hint):
    """`ref('x')` must name a field of game.rules.<component>.refs: refused by the static checks at the
    template's kit.yaml line (before: a build-time error naming the first row drawn)."""
    kit = _people(tmp_path, "bo")
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    (kit / "kit.yaml").write_text(text.replace("ref('owner')", f"ref('{ref}')"), encoding="utf-8")
    line = next(n for n, t in enumerate(text.splitlines(), 1) if "ref('owner')" in t)
    done = pnpkit("validate", str(kit))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"kit.yaml:{line}: game.templates.pet.front[1].text: used by pets: ref('{ref}'): " in done.stderr
    assert "not a ref field of pets; declare it in game.rules.pets.refs" in done.stderr
    assert hint in done.stderr, done.stderr


def test_a_kit_of_sheets_only_builds_without_a_deal(tmp_path):
    kit = tmp_path / "pad"
    kit.mkdir()
    (kit / "kit.yaml").write_text(documented("sheet-only"), encoding="utf-8")
    (kit / "locales").mkdir()
    (kit / "locales" / "en.po").write_text('msgid "kit.title"\nmsgstr "Score pad"\n', encoding="utf-8")
    done = pnpkit("build", str(kit), "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    pdfs = list((tmp_path / "out").rglob("kit-a4.pdf"))
    assert pdfs
    with pdfplumber.open(pdfs[0]) as doc:
        assert any("Score pad" in (p.extract_text() or "") for p in doc.pages)


# ------------------------------------------------------------------ the Pillow raster draws the same


def test_the_pillow_raster_draws_rotation_gradient_opacity_and_clipped_art_as_pdfium_does(tmp_path):
    elements = [
        {"type": "rect", "x": 0, "y": 0, "w": "100%", "h": "100%", "fill": {"gradient": [RED, BLUE]}},
        {
            "type": "image",
            "src": "assets/a.png",
            "x": 0,
            "y": 0,
            "w": "100%",
            "h": "50%",
            "fit": "stretch",
            "opacity": 0.5,  # see-through art inside the rounded clip's layer: its alpha counts once
        },
        {"type": "rect", "x": "10mm", "y": "55mm", "w": "40mm", "h": "10mm", "fill": "#ffcc00", "rotate": 30},
        {
            "type": "ellipse",
            "x": "20mm",
            "y": "70mm",
            "w": "20mm",
            "h": "15mm",
            "fill": "#000000",
            "opacity": 0.4,
        },
    ]
    ops = face(elements, radius=mm(5)).ops
    size = (round(W), round(H))
    ours = draw_page(Page(W, H, list(ops)), size).convert("RGB")
    theirs = pixels(pdf(tmp_path, ops)).resize(size)
    diff = np.abs(np.asarray(ours, int) - np.asarray(theirs, int)).max(axis=2)
    far = float((diff > 48).mean())
    assert far < 0.03, f"{far:.1%} of the pixels differ"  # edges only: antialiasing and curve flattening
    for x, y in ((0.5, 0.5), (30, 20), (30, 60), (30, 80), (5, 88)):
        p, q = at(ours, x, y), at(theirs, x, y)
        assert max(abs(a - b) for a, b in zip(p, q, strict=True)) < 40, (x, y, p, q)
