"""Hostile art for the legibility checks (issue 33, item 8): any picture (1x1, a sliver, fully clear, half
clear, opaque) in any bleed band, any art box (zero-sized, off the face, past its trim) under or over any
string. The bleed-band, collision and contrast checks answer with a list of problems, never a traceback."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from generator.layout.art import art_problems
from generator.layout.collide import art_collisions, face_collisions
from generator.layout.compose import Component
from generator.layout.ops import Page, Place, Rect, Text, art_op
from generator.render.contrast import art_contrast
from generator.render.fonts import text_width
from generator.spec.assets import probe


def _png(width: int, height: int, alpha: int, clear_band: int) -> bytes:
    image = Image.new("RGBA", (width, height), (90, 20, 160, alpha))
    if clear_band:
        inner = Image.new(
            "RGBA", (max(1, width - 2 * clear_band), max(1, height - 2 * clear_band)), "#123456"
        )
        image.paste(inner, (min(clear_band, width - 1), min(clear_band, height - 1)))
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


PICTURES = st.builds(
    _png,
    st.integers(1, 40),
    st.integers(1, 40),
    st.sampled_from([0, 1, 128, 249, 250, 255]),
    st.integers(0, 25),
)
LENGTHS = st.sampled_from([0.0, 1e-9, 0.5, 3.0, 8.5, 100.0, 1e6])
FITS = st.sampled_from(["cover", "contain", "stretch"])


@settings(max_examples=150, deadline=None)
@given(PICTURES, LENGTHS, LENGTHS, st.tuples(LENGTHS, LENGTHS, LENGTHS, LENGTHS), FITS)
def test_any_picture_in_any_bleed_band_is_judged(data, w, h, band, fit):
    asset = probe(data, "assets/back.png")
    op = art_op(asset, -band[0], -band[1], w, h, fit=fit, slot="back", bleed=True, band=band)
    page = Page(200, 200, [Place(0, 0, (op,), clip=(0, 0, 200, 200), name="back")])
    for slot, message, is_error in art_problems([page], 300, 150):
        assert slot == "back" and message.startswith("assets/back.png: ") and isinstance(is_error, bool)
    for u in (0.0, 0.5, 1.0, -3.0, 7.0):
        share = asset.transparent_share((u, u, u + 0.5, u + 0.5))
        assert 0.0 <= share <= 1.0


BOXES = st.tuples(
    st.sampled_from([-50.0, 0.0, 10.0, 150.0, 400.0]),
    st.sampled_from([-50.0, 0.0, 10.0, 150.0, 400.0]),
    LENGTHS,
    LENGTHS,
)


@settings(max_examples=25, deadline=None)
@given(PICTURES, BOXES, st.sampled_from(["logo", "icon", "background"]), st.booleans(), st.text(max_size=6))
def test_any_art_under_or_over_any_string_is_judged(data, box, slot, art_first, text):
    asset = probe(data, "assets/art.png")
    art = art_op(asset, *box, slot=slot)
    label = Text(20, 100, text, 12, fill="ink")
    field = Rect(0, 0, 180, 250, fill="#ffffff", stroke=None)
    ops = (field, art, label) if art_first else (field, label, art)
    for _, what in art_collisions(ops, text_width) + face_collisions(ops, text_width):
        assert isinstance(what, str) and what
    page = Page(180, 250, [Place(0, 0, ops, clip=(0, 0, 180, 250), name="card-1")])
    for low in art_contrast([Component("cards", "Cards", [page])], text_width):
        assert (
            low.slot == slot
            and low.measured < low.needed
            and low.message().startswith("cards: face card-1: ")
        )


@settings(max_examples=15, deadline=None)
@given(
    st.sampled_from([0.0, 1.0, 40.0, 60.0]),
    st.tuples(LENGTHS, LENGTHS, LENGTHS, LENGTHS),
    st.sampled_from([0.01, 1.0, 50.0, 300.0]),
    FITS,
)
def test_any_svg_in_any_bleed_band_is_judged(inset, band, size, fit):
    from generator.render.contrast import vector_bands

    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<rect x="{inset}" y="{inset}" width="{100 - 2 * inset}" height="{100 - 2 * inset}" '
        'fill="#123"/></svg>'
    ).encode()
    op = art_op(probe(svg, "assets/back.svg"), 0, 0, size, size, fit=fit, slot="back", bleed=True, band=band)
    page = Page(200, 200, [Place(0, 0, (op,), clip=(0, 0, 200, 200), name="back")])
    for slot, message in vector_bands([page]):
        assert slot == "back" and message.startswith("assets/back.svg: transparent pixels in the bleed band")
