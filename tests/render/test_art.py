"""The designer's art in a kit (issue 24): images and SVG files in assets/, filling the art slots the
composers declare, drawn at native resolution (rasters) or as vector paths (SVG), checked for print, keyed for
incremental builds. Every kit here is a copy of layouts/ripple_rush with art added."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw

from generator.contract.load import load_kit
from generator.errors import KitError, SpecError
from generator.layout.ops import Vector, iter_art
from generator.pipeline import build

ROOT = Path(__file__).resolve().parents[2]
MM = 72 / 25.4
BACK_COLOUR = (200, 30, 120)
SHAPES = {
    "blue": '<circle cx="50" cy="50" r="45" fill="#123456"/>',
    "red": '<rect x="8" y="8" width="84" height="84" fill="#123456"/>',
    "green": '<polygon points="50,5 95,50 50,95 5,50" fill="#123456"/>',
    "orange": '<path d="M50 5 L61 38 L95 38 L67 58 L78 92 L50 71 L22 92 L33 58 L5 38 L39 38 Z" '
    'fill="#123456"/>',
}


def _png(size: tuple[int, int], colour: tuple[int, ...] = BACK_COLOUR, mode: str = "RGB") -> bytes:
    image = Image.new(mode, size, colour)
    ImageDraw.Draw(image).rectangle(
        (size[0] // 3, size[1] // 3, size[0] // 2, size[1] // 2),
        fill=(250, 200, 40) + (() if mode == "RGB" else (255,)),
    )
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def _back_px(dpi: int = 300) -> tuple[int, int]:
    """A poker card with 3 mm bleed on every side at `dpi`."""
    return round((63.5 + 6) / 25.4 * dpi), round((88.9 + 6) / 25.4 * dpi)


def make_kit(tmp_path: Path, art: dict[str, str], files: dict[str, bytes], *, icons: bool = False) -> Path:
    """A copy of layouts/ripple_rush with `art` (component id -> YAML of its art mapping) and `files`
    added."""
    kit = tmp_path / "kit"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    if icons:
        for suit, shape in SHAPES.items():
            files[f"assets/suits/{suit}.svg"] = (
                f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{shape}</svg>'
            ).encode()
    for rel, data in files.items():
        (kit / rel).parent.mkdir(parents=True, exist_ok=True)
        (kit / rel).write_bytes(data)
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    for cid, yaml in art.items():
        marker = f"\n  {cid}:\n"
        at = text.rindex(marker) + len(marker)
        text = text[:at] + f"    art: {yaml}\n" + text[at:]
    (kit / "kit.yaml").write_text(text, encoding="utf-8")
    return kit


def _image_xobjects(pdf_path: Path) -> int:
    """How many image XObjects the PDF holds anywhere (pages and nested forms)."""
    with pikepdf.open(pdf_path) as pdf:
        return sum(
            1 for obj in pdf.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"
        )


def test_a_full_bleed_png_back_reaches_the_bleed(tmp_path):
    """Done means: components.number_cards.art.back: assets/back.png (full bleed) builds, and the back's
    pixels in the PDF show the image out to the bleed (print-shop pages: one card with its bleed per page)."""
    kit = make_kit(
        tmp_path,
        {"number_cards": "{back: {path: assets/back.png, bleed: true}}"},
        {"assets/back.png": _png(_back_px())},
    )
    out = tmp_path / "out"
    result = build([kit], out=out, langs=["en"], print_overrides={"mode": "shop"})
    pdf_path = out / "ripple_rush" / "en" / "number_cards-shop.pdf"  # shop files carry no paper size
    assert pdf_path in result.files
    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        page = doc[1]  # shop mode: front, back, front, back...
        w, h = page.get_size()
        assert (
            abs(w - (63.5 + 6) * MM) < 1 and abs(h - (88.9 + 6) * MM) < 1
        )  # the page is the card and its bleed
        image = page.render(scale=2).to_pil().convert("RGB")
    finally:
        doc.close()
    for x, y in (
        (1, 1),
        (image.width - 2, 1),
        (1, image.height - 2),
        (image.width - 2, image.height - 2),
        (image.width // 2, 2),
    ):
        assert all(abs(a - b) <= 3 for a, b in zip(image.getpixel((x, y)), BACK_COLOUR)), (
            x,
            y,
            image.getpixel((x, y)),
        )
    assert _image_xobjects(pdf_path) == 1  # one image, drawn on every back


def test_without_bleed_the_back_stops_at_the_trim(tmp_path):
    """The same image without `bleed: true` is fitted to the trim: the bleed keeps the paper colour."""
    kit = make_kit(
        tmp_path,
        {"number_cards": "{back: {path: assets/back.png, fit: cover}}"},
        {"assets/back.png": _png(_back_px())},
    )
    out = tmp_path / "out"
    build([kit], out=out, langs=["en"], print_overrides={"mode": "shop"})
    doc = pdfium.PdfDocument(str(out / "ripple_rush" / "en" / "number_cards-shop.pdf"))
    try:
        image = doc[1].render(scale=2).to_pil().convert("RGB")
    finally:
        doc.close()
    assert image.getpixel((1, 1)) != BACK_COLOUR
    assert all(
        abs(a - b) <= 3
        for a, b in zip(image.getpixel((image.width // 2, image.height // 2 + 40)), BACK_COLOUR)
    )


def test_svg_suit_icons_are_vector_paths_on_cards_sheet_and_goals(tmp_path):
    """Done means: an SVG icon for each suit appears as vector paths (no embedded raster) on the number cards,
    the score sheet and the goal cards."""
    icon = '{icon: {path: "assets/suits/{suit}.svg", tint: true}}'
    kit_dir = make_kit(
        tmp_path, {"number_cards": icon, "score_sheet": icon, "goal_cards": icon}, {}, icons=True
    )
    kit = load_kit(kit_dir)
    assert kit.art is not None
    assert sorted(a.shown for a in kit.art.get("number_cards", "icon").assets.values()) == [  # type: ignore[union-attr]
        "assets/suits/blue.svg",
        "assets/suits/green.svg",
        "assets/suits/orange.svg",
        "assets/suits/red.svg",
    ]
    out = tmp_path / "out"
    plain = tmp_path / "plain"
    build([kit_dir], out=out, langs=["en"])
    build([ROOT / "layouts" / "ripple_rush"], out=plain, langs=["en"])
    for cid in ("number_cards", "score_sheet", "goal_cards"):
        pdf_path = out / "ripple_rush" / "en" / f"{cid}-a4.pdf"
        assert _image_xobjects(pdf_path) == 0, cid
        assert pdf_path.read_bytes() != (plain / "ripple_rush" / "en" / f"{cid}-a4.pdf").read_bytes(), cid


def test_icons_replace_every_suit_symbol_in_the_ops(tmp_path):
    """The composer draws a Vector op wherever it drew a suit symbol, one file per suit ({suit} filled in)."""
    from generator.pipeline import compose_one, print_data
    from generator.render.fonts import text_width

    icon = '{icon: {path: "assets/suits/{suit}.svg", tint: true}}'
    kit = load_kit(
        make_kit(tmp_path, {"number_cards": icon, "score_sheet": icon, "goal_cards": icon}, {}, icons=True)
    )
    comps, _ = compose_one(
        kit, "en", "a4", kit.meta.seed, print_data(kit, kit.meta.seed), text_width, lambda m: None
    )
    by_id = {c.id: c for c in comps}
    for cid, least in (("number_cards", 100 * 3), ("score_sheet", 8), ("goal_cards", 8 * 4)):
        vectors = [op for page in by_id[cid].pages for op, _ in iter_art(page.ops)]
        assert all(isinstance(op, Vector) for op in vectors)
        assert len(vectors) >= least, (cid, len(vectors))
        assert {op.asset.shown.rsplit("/", 1)[1] for op in vectors} == {f"{s}.svg" for s in SHAPES}


def test_low_resolution_art_warns_then_errors(tmp_path):
    """Raster art below print.art_dpi_warn (300) at its printed size warns; below art_dpi_min (150) errors,
    before anything is written."""
    kit = make_kit(
        tmp_path,
        {"number_cards": "{back: {path: assets/back.png, bleed: true}}"},
        {"assets/back.png": _png(_back_px(200))},
    )
    result = build([kit], out=tmp_path / "out", langs=["en"])
    assert any(
        "components.number_cards.art.back: assets/back.png: 547x747 px printed at 69.5x94.9 mm is 200 dpi"
        in w
        and "under print.art_dpi_warn (300 dpi)" in w
        for w in result.warnings
    ), result.warnings
    (kit / "assets" / "back.png").write_bytes(_png(_back_px(100)))
    out = tmp_path / "out2"
    with pytest.raises(SpecError) as e:
        build([kit], out=out, langs=["en"])
    assert "is 100 dpi, under print.art_dpi_min (150 dpi)" in str(e.value)
    assert not out.exists() or not any(out.rglob("*.pdf"))


def test_full_bleed_art_that_does_not_cover_the_bleed_is_an_error(tmp_path):
    """`bleed: true` with fit: contain and a square image leaves the bleed uncovered: an error naming the
    key."""
    kit = make_kit(
        tmp_path,
        {"number_cards": "{back: {path: assets/back.png, bleed: true, fit: contain}}"},
        {"assets/back.png": _png((2000, 2000))},
    )
    with pytest.raises(SpecError) as e:
        build([kit], out=tmp_path / "out", langs=["en"])
    (problem,) = e.value.problems
    assert problem.key == "components.number_cards.art.back"
    assert problem.message.startswith(
        "assets/back.png: full-bleed art does not cover the bleed (fit: contain"
    )


def test_cmyk_jpeg_and_transparency(tmp_path):
    """A CMYK JPEG back is turned into sRGB (its colour survives, PDF/A stays RGB-only); an RGBA logo keeps
    its transparency (a soft mask) and the PDF/A build passes."""
    cmyk = Image.new("CMYK", _back_px(), (0, 255, 255, 0))  # full magenta and yellow ink: red
    buf = io.BytesIO()
    cmyk.save(buf, format="JPEG", quality=95)
    logo = _png((1200, 300), (0, 0, 0, 0), mode="RGBA")
    kit = make_kit(
        tmp_path,
        {"number_cards": "{back: {path: assets/back.jpg, bleed: true}}", "rules": "{logo: assets/logo.png}"},
        {"assets/back.jpg": buf.getvalue(), "assets/logo.png": logo},
    )
    loaded = load_kit(kit)
    back = next(iter(loaded.art.get("number_cards", "back").assets.values()))  # type: ignore[union-attr]
    assert back.source_mode == "CMYK" and back.picture.mode == "RGB"
    out = tmp_path / "out"
    build([kit], out=out, langs=["en"], pdfa=True, print_overrides={"mode": "shop"})
    doc = pdfium.PdfDocument(str(out / "ripple_rush" / "en" / "number_cards-shop.pdf"))
    try:
        r, g, b = doc[1].render(scale=1).to_pil().convert("RGB").getpixel((40, 40))
    finally:
        doc.close()
    assert r > 200 and g < 60 and b < 80, (r, g, b)
    with pikepdf.open(out / "ripple_rush" / "en" / "rules-shop.pdf") as pdf:
        images = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        assert any("/SMask" in im for im in images)
        assert all(im.get("/ColorSpace") != "/DeviceCMYK" for im in images)


def test_changing_one_image_redraws_only_its_component(tmp_path):
    """Build keys include each used asset's content hash: a changed back image redraws number_cards only, and
    the result is byte-identical to a clean build."""
    kit = make_kit(
        tmp_path,
        {
            "number_cards": "{back: {path: assets/back.png, bleed: true}}",
            "goal_cards": "{back: {path: assets/goal.png, bleed: true}}",
        },
        {"assets/back.png": _png(_back_px()), "assets/goal.png": _png(_back_px(), (10, 90, 200))},
    )
    out = tmp_path / "out"
    build([kit], out=out, langs=["en"])
    (kit / "assets" / "back.png").write_bytes(_png(_back_px(), (20, 160, 60)))
    again = build([kit], out=out, langs=["en"])
    assert again.rebuilt == 2, (
        again
    )  # number_cards and the checklist (the kit PDF is reassembled, not redrawn)
    clean = tmp_path / "clean"
    build([kit], out=clean, langs=["en"])
    for pdf in sorted((clean / "ripple_rush" / "en").glob("*.pdf")):
        assert (out / "ripple_rush" / "en" / pdf.name).read_bytes() == pdf.read_bytes(), pdf.name


def test_slot_names_and_placeholders_are_checked(tmp_path):
    """A slot the composer does not declare, and a {field} file that is missing for a face, are located
    errors."""
    kit = make_kit(tmp_path, {"number_cards": "{frog: assets/back.png}"}, {"assets/back.png": _png((64, 64))})
    with pytest.raises(SpecError) as e:
        load_kit(kit)
    assert e.value.problems[0].key == "components.number_cards.art.frog"
    assert e.value.problems[0].message == (
        "no such art slot; expected one of back, background, icon (pnpkit list --slots)"
    )
    kit2 = make_kit(tmp_path / "b", {"number_cards": '{icon: "assets/suits/{suit}.svg"}'}, {}, icons=True)
    (kit2 / "assets" / "suits" / "orange.svg").unlink()
    with pytest.raises(KitError) as e2:
        build([kit2], out=tmp_path / "out", langs=["en"])
    assert "components.number_cards.art.icon: no file 'assets/suits/{suit}.svg' for suit=orange" in str(
        e2.value
    )


def test_list_slots_and_the_schema_read_the_composers_declaration(tmp_path):
    """`pnpkit list --slots KIT` and `pnpkit schema` show the slots each composer declares, with box sizes."""
    import generator.games.ripple_rush.layout as composer
    from generator.contract.compose import slot_rows
    from generator.contract.schema import kit_schema

    kit = load_kit(
        make_kit(tmp_path, {"number_cards": "{back: assets/back.png}"}, {"assets/back.png": _png(_back_px())})
    )
    rows = {(cid, name): (w, h, filled) for cid, name, _, w, h, _, _, filled in slot_rows(kit)}
    assert rows[("number_cards", "back")] == pytest.approx((63.5, 88.9, "assets/back.png"))
    declared = {(cid, s.name) for cid, slots in composer.SLOTS.items() for s in slots}
    assert set(rows) == declared
    schema = kit_schema("ripple_rush")
    assert set(schema["x-art-slots"]["ripple_rush"]["number_cards"]) == {"back", "background", "icon"}
    for game in (
        "ripple_rush",
        "peak_dice",
        "raindrops",
        "rummy_cards",
    ):  # back/background on cards, logo on rules
        slots = kit_schema(game)["x-art-slots"][game]
        assert "logo" in slots["rules"], game
        assert any("icon" in s for s in slots.values()), game
        if game != "peak_dice":
            assert any({"back", "background"} <= set(s) for s in slots.values()), game


def test_the_make_it_yours_example_uses_every_slot_kind_and_builds(tmp_path):
    """docs/examples/make_it_yours (docs/make-it-yours.md): SVG suit icons, a PNG back with bleed, a logo and
    two fonts; it builds with no warning about its art."""
    kit = load_kit(ROOT / "docs" / "examples" / "make_it_yours")
    assert kit.art is not None and kit.fonts is not None
    back = kit.art.get("number_cards", "back")
    icon = kit.art.get("number_cards", "icon")
    logo = kit.art.get("score_sheet", "logo")
    assert back is not None and back.spec.bleed and [a.kind for a in back.assets.values()] == ["png"]
    assert icon is not None and {a.kind for a in icon.assets.values()} == {"svg"} and len(icon.assets) == 4
    assert logo is not None and kit.art.get("rules", "logo") is not None
    assert len({f.sha256 for by in kit.fonts.chains.values() for chain in by.values() for f in chain}) == 4
    result = build([kit.dir], out=tmp_path / "out", langs=["en", "ja"])
    assert not [w for w in result.warnings if ".art." in w], result.warnings
    assert (tmp_path / "out" / "make_it_yours" / "ja" / "kit-a4.pdf").is_file()


def test_the_pil_backend_draws_the_same_art(tmp_path):
    """render/pilraster.py (ops straight to pixels) shows the art as pdfium does: the back image and the SVG
    icons land in the same places (mean difference on the pages well under what a missing picture gives)."""
    import numpy as np

    from generator.pipeline import compose_one, print_data
    from generator.render.fonts import text_width
    from generator.render.pilraster import draw_page
    from generator.render.raster import rasterize

    icon = '{icon: {path: "assets/suits/{suit}.svg", tint: true}}'
    kit = load_kit(
        make_kit(
            tmp_path,
            {
                "number_cards": "{back: {path: assets/back.png, bleed: true}, icon: "
                '{path: "assets/suits/{suit}.svg", tint: true}}',
                "score_sheet": icon,
            },
            {"assets/back.png": _png(_back_px())},
            icons=True,
        )
    )
    comps, _ = compose_one(
        kit, "en", "a4", kit.meta.seed, print_data(kit, kit.meta.seed), text_width, lambda m: None
    )
    by_id = {c.id: c for c in comps}
    from dataclasses import replace

    from generator.layout.ops import Image as ImageOp
    from generator.layout.ops import Place

    def strip(ops):  # the page without its art
        return [
            replace(op, ops=tuple(strip(op.ops))) if isinstance(op, Place) else op
            for op in ops
            if not isinstance(op, (ImageOp, Vector))
        ]

    for page, margin in ((by_id["number_cards"].pages[1], 0.25), (by_id["score_sheet"].pages[0], 0.9)):
        size = (round(page.width), round(page.height))
        truth = np.asarray(next(rasterize([page], [size])), dtype=int)
        ours = np.abs(np.asarray(draw_page(page, size), dtype=int) - truth).mean()
        stripped = replace(page, ops=strip(page.ops))
        without = np.abs(np.asarray(draw_page(stripped, size), dtype=int) - truth).mean()
        assert ours < without * margin, (ours, without)


def test_a_placeholder_the_slot_does_not_have_is_located(tmp_path):
    """{colour} on a Ripple Rush icon (its faces know {suit}) is refused when the kit loads."""
    kit = make_kit(tmp_path, {"number_cards": '{icon: "assets/suits/{colour}.svg"}'}, {}, icons=True)
    with pytest.raises(SpecError) as e:
        load_kit(kit)
    assert [p.message for p in e.value.problems] == [
        "'assets/suits/{colour}.svg': this slot's faces have no field {colour}; its fields: {suit}"
    ]


def test_icc_profiles_are_applied_and_a_damaged_one_is_located(tmp_path):
    """An image with an ICC profile is converted to sRGB when loaded; a damaged profile is a located error."""
    from PIL import ImageCms

    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    files = {}
    for name, icc in (("good.png", srgb), ("bad.png", b"not a profile" * 10)):
        buf = io.BytesIO()
        Image.new("RGB", _back_px(), BACK_COLOUR).save(buf, format="PNG", icc_profile=icc)
        files[f"assets/{name}"] = buf.getvalue()
    kit = load_kit(
        make_kit(tmp_path, {"number_cards": "{back: {path: assets/good.png, bleed: true}}"}, dict(files))
    )
    picture = next(iter(kit.art.get("number_cards", "back").assets.values())).picture  # type: ignore[union-attr]
    assert picture.mode == "RGB" and "icc_profile" not in picture.info
    assert all(abs(a - b) <= 2 for a, b in zip(picture.getpixel((5, 5)), BACK_COLOUR))
    bad = make_kit(
        tmp_path / "b", {"number_cards": "{back: {path: assets/bad.png, bleed: true}}"}, dict(files)
    )
    with pytest.raises(SpecError) as e:
        load_kit(bad)
    assert e.value.problems[0].message.startswith("assets/bad.png: its colour profile (ICC) is damaged")
