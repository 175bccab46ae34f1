"""Colour science of the contrast check over art (render/contrast.py): CIEDE2000 against the published test
data of Sharma, Wu and Dalal (2005), the WCAG 2 contrast ratio against its reference points."""

from __future__ import annotations

import pytest

from generator.render.contrast import contrast_ratio, delta_e00, luminance, to_lab

# G. Sharma, W. Wu, E. N. Dalal, "The CIEDE2000 color-difference formula: implementation notes, supplementary
# test data, and mathematical observations", Color Research & Application 30(1), 2005, table 1:
# L1, a1, b1, L2, a2, b2, ΔE00
SHARMA = [
    (50.0000, 2.6772, -79.7751, 50.0000, 0.0000, -82.7485, 2.0425),
    (50.0000, 3.1571, -77.2803, 50.0000, 0.0000, -82.7485, 2.8615),
    (50.0000, 2.8361, -74.0200, 50.0000, 0.0000, -82.7485, 3.4412),
    (50.0000, -1.3802, -84.2814, 50.0000, 0.0000, -82.7485, 1.0000),
    (50.0000, -1.1848, -84.8006, 50.0000, 0.0000, -82.7485, 1.0000),
    (50.0000, -0.9009, -85.5211, 50.0000, 0.0000, -82.7485, 1.0000),
    (50.0000, 0.0000, 0.0000, 50.0000, -1.0000, 2.0000, 2.3669),
    (50.0000, -1.0000, 2.0000, 50.0000, 0.0000, 0.0000, 2.3669),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0009, 7.1792),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0010, 7.1792),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0011, 7.2195),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0012, 7.2195),
    (50.0000, -0.0010, 2.4900, 50.0000, 0.0009, -2.4900, 4.8045),
    (50.0000, -0.0010, 2.4900, 50.0000, 0.0010, -2.4900, 4.8045),
    (50.0000, -0.0010, 2.4900, 50.0000, 0.0011, -2.4900, 4.7461),
    (50.0000, 2.5000, 0.0000, 50.0000, 0.0000, -2.5000, 4.3065),
    (50.0000, 2.5000, 0.0000, 73.0000, 25.0000, -18.0000, 27.1492),
    (50.0000, 2.5000, 0.0000, 61.0000, -5.0000, 29.0000, 22.8977),
    (50.0000, 2.5000, 0.0000, 56.0000, -27.0000, -3.0000, 31.9030),
    (50.0000, 2.5000, 0.0000, 58.0000, 24.0000, 15.0000, 19.4535),
    (50.0000, 2.5000, 0.0000, 50.0000, 3.1736, 0.5854, 1.0000),
    (50.0000, 2.5000, 0.0000, 50.0000, 3.2972, 0.0000, 1.0000),
    (50.0000, 2.5000, 0.0000, 50.0000, 1.8634, 0.5757, 1.0000),
    (50.0000, 2.5000, 0.0000, 50.0000, 3.2592, 0.3350, 1.0000),
    (60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644),
    (63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.2630),
    (61.2901, 3.7196, -5.3901, 61.4292, 2.2480, -4.9620, 1.8731),
    (35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645),
    (22.7233, 20.0904, -46.6940, 23.0331, 14.9730, -42.5619, 2.0373),
    (36.4612, 47.8580, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146),
    (90.8027, -2.0831, 1.4410, 91.1528, -1.6435, 0.0447, 1.4441),
    (90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381),
    (6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377),
    (2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082),
]


@pytest.mark.parametrize("row", SHARMA, ids=[f"pair{i}" for i in range(1, len(SHARMA) + 1)])
def test_ciede2000_matches_the_published_test_pairs(row):
    *lab, expected = row
    assert delta_e00(tuple(lab[:3]), tuple(lab[3:])) == pytest.approx(expected, abs=5e-5)
    assert delta_e00(tuple(lab[3:]), tuple(lab[:3])) == pytest.approx(expected, abs=5e-5)  # symmetric


def test_the_array_forms_agree_with_the_scalar_ones():
    import numpy as np

    from generator.render.contrast import delta_e00_array, to_lab_array

    lab1 = np.array([row[:3] for row in SHARMA])
    lab2 = np.array([row[3:6] for row in SHARMA])
    assert delta_e00_array(lab1, lab2) == pytest.approx([row[6] for row in SHARMA], abs=5e-5)
    pixels = np.array([[0, 0, 0], [255, 255, 255], [214, 45, 58], [31, 111, 209], [12, 200, 3]])
    for rgb, lab in zip(pixels, to_lab_array(pixels), strict=True):
        assert tuple(lab) == pytest.approx(to_lab(tuple(float(c) for c in rgb)), abs=1e-9)


def test_wcag_contrast_reference_points():
    assert contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast_ratio((255, 255, 255), (255, 255, 255)) == pytest.approx(1.0)
    assert contrast_ratio((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)  # #767676
    assert luminance((255, 0, 0)) == pytest.approx(0.2126)


def test_lab_of_srgb_reference_colours():
    assert to_lab((255, 255, 255)) == pytest.approx((100.0, 0.0, 0.0), abs=0.01)
    assert to_lab((255, 0, 0)) == pytest.approx((53.24, 80.09, 67.20), abs=0.02)
    assert to_lab((0, 0, 255)) == pytest.approx((32.30, 79.19, -107.86), abs=0.02)


# ---------------------------------------------------------------- the check on rendered pixels


def _png(
    size: tuple[int, int], colour: tuple[int, int, int], stripes: tuple[int, int, int] | None = None
) -> bytes:
    import io

    from PIL import Image, ImageDraw

    image = Image.new("RGB", size, colour)
    if stripes is not None:  # a busy picture: bars a few points wide
        draw = ImageDraw.Draw(image)
        for x in range(0, size[0], 12):
            draw.rectangle((x, 0, x + 5, size[1]), fill=stripes)
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def _svg(fill: str) -> bytes:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="50" cy="50" r="48" '
        f'fill="{fill}"/></svg>'
    ).encode()


def _component(*ops):  # type: ignore[no-untyped-def]
    from generator.layout.compose import Component
    from generator.layout.ops import Page, Place

    face = Place(0, 0, tuple(ops), clip=(0, 0, 180, 250), name="card-1")
    return Component("cards", "Cards", [Page(180, 250, [face])])


def _picture(data: bytes, shown: str = "assets/bg.png"):  # type: ignore[no-untyped-def]
    from generator.spec.assets import probe

    return probe(data, shown)


def test_a_string_over_a_busy_picture_is_reported_and_over_a_calm_one_not():
    from generator.layout.ops import Text, art_op
    from generator.render.contrast import art_contrast
    from generator.render.fonts import text_width

    busy = art_op(
        _picture(_png((360, 500), (245, 245, 245), (20, 20, 20))), 0, 0, 180, 250, slot="background"
    )
    calm = art_op(_picture(_png((360, 500), (245, 245, 245))), 0, 0, 180, 250, slot="background")
    label = Text(20, 120, "Harvest", 12, fill="ink", text_id="card.name")
    (low,) = art_contrast([_component(busy, label)], text_width)
    assert (low.component, low.face, low.slot, low.file) == ("cards", "card-1", "background", "assets/bg.png")
    assert low.what == "text card.name 'Harvest' at 12.0 pt" and low.needed == 4.5 and low.measured < 1.5
    assert low.message().startswith(
        "cards: face card-1: text card.name 'Harvest' at 12.0 pt over the art of slot background "
        "(assets/bg.png) keeps a contrast of 1."
    )
    assert art_contrast([_component(calm, label)], text_width) == []


def test_large_type_needs_3_to_1_and_small_type_4_5_to_1():
    from generator.layout.ops import Text, art_op
    from generator.render.contrast import art_contrast, contrast_ratio
    from generator.render.fonts import text_width

    grey = (110, 110, 110)  # about 3.6:1 against the ink
    ratio = contrast_ratio(grey, (0x1A, 0x1A, 0x1A))
    assert 3.0 < ratio < 4.5
    field = art_op(_picture(_png((360, 500), grey)), 0, 0, 180, 250, slot="background")
    small = Text(20, 120, "Harvest", 12, fill="ink")
    large = Text(20, 120, "Harvest", 20, fill="ink")
    bold = Text(20, 120, "Harvest", 14.5, font="bold", fill="ink")
    (low,) = art_contrast([_component(field, small)], text_width)
    assert low.measured == pytest.approx(ratio, abs=0.1)
    assert art_contrast([_component(field, large)], text_width) == []
    assert art_contrast([_component(field, bold)], text_width) == []


def test_an_icon_that_melts_into_the_art_under_it_is_reported():
    from generator.layout.ops import art_op
    from generator.render.contrast import ICON_DELTA_E, art_contrast
    from generator.render.fonts import text_width

    field = art_op(_picture(_png((360, 500), (200, 40, 50))), 0, 0, 180, 250, slot="background")
    icon = _picture(_svg("#000000"), "assets/suits/red.svg")
    near = art_op(icon, 50, 80, 80, 80, slot="icon", tint="#c0303c")  # a red a shade off the field
    far = art_op(icon, 50, 80, 80, 80, slot="icon", tint="#ffffff")
    (low,) = art_contrast([_component(field, near)], text_width)
    assert low.what == "the icon of slot icon (assets/suits/red.svg)" and low.slot == "background"
    assert low.measured < ICON_DELTA_E and low.unit == " ΔE00"
    assert art_contrast([_component(field, far)], text_width) == []


def test_a_drawn_symbol_over_a_picture_is_an_icon_too():
    """The composer's own symbols (a suit's shape) drawn over art are judged like art icons."""
    from generator.layout.ops import Circle, art_op
    from generator.render.contrast import art_contrast
    from generator.render.fonts import text_width

    field = art_op(_picture(_png((360, 500), (30, 30, 30))), 0, 0, 180, 250, slot="background")
    dark = Circle(90, 125, 30, fill="#222222", stroke=None)
    light = Circle(90, 125, 30, fill="#f2b705", stroke=None)
    (low,) = art_contrast([_component(field, dark)], text_width)
    assert low.what == "a symbol (#222222)" and low.measured < 5
    assert art_contrast([_component(field, light)], text_width) == []


# ---------------------------------------------------------------- faces drawn once for every language


def _rasterized(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the pages the check draws (a fresh store of kept pictures for the test)."""
    from generator.render import contrast, raster

    drawn: list[int] = []
    real = raster.rasterize

    def counting(pages, sizes, *args, **kwargs):  # type: ignore[no-untyped-def]
        drawn.append(len(pages))
        return real(pages, sizes, *args, **kwargs)

    monkeypatch.setattr(raster, "rasterize", counting)
    monkeypatch.setattr(contrast, "_PICTURES", contrast._Pictures(contrast.PICTURES_LIMIT))
    return drawn


def test_a_face_in_another_language_is_judged_on_the_picture_drawn_for_the_first(monkeypatch):
    """The strings that lie far from everything judged are left out of a face's picture, so the same card
    in another language (other words in its title band, the same art and corner indices) is not drawn
    again, and is judged as if it had been."""
    from generator.layout.ops import Rect, Text, art_op
    from generator.render import contrast
    from generator.render.fonts import text_width

    busy = art_op(_picture(_png((360, 200), (245, 245, 245), (20, 20, 20))), 0, 0, 180, 100, slot="art")
    index = Text(20, 60, "7", 14, fill="ink")  # over the art: judged
    band = Rect(0, 150, 180, 100, fill="#f5f0e6", stroke=None)

    def card(title: str):  # type: ignore[no-untyped-def]
        return _component(busy, index, band, Text(20, 200, title, 12, fill="ink", text_id="card.name"))

    drawn = _rasterized(monkeypatch)
    english = contrast.art_contrast([card("Harvest")], text_width)
    german = contrast.art_contrast([card("Ernte")], text_width)
    assert drawn == [1]  # the German face came from the English picture
    from generator.layout.compose import Component
    from generator.layout.ops import Page, Place

    def face(number: str, name: str) -> Page:
        ops = (busy, Text(20, 60, number, 14, fill="ink"), band, Text(20, 200, "Harvest", 12, fill="ink"))
        return Page(180, 250, [Place(0, 0, ops, clip=(0, 0, 180, 250), name=name)])

    drawn = _rasterized(monkeypatch)  # nothing kept
    pair = Component("cards", "Cards", [face("7", "card-7"), face("8", "card-8")])
    assert [low.face for low in contrast.art_contrast([pair], text_width)] == ["card-7", "card-8"]
    assert drawn == [1]  # two cards alike but for their judged numbers: one picture
    assert [low.what for low in english] == [low.what for low in german] == ["text (no id) '7' at 14.0 pt"]
    monkeypatch.setattr(contrast, "_PICTURES", contrast._Pictures(contrast.PICTURES_LIMIT))
    assert contrast.art_contrast([card("Ernte")], text_width) == german  # drawn afresh: the same verdict


def test_new_art_under_the_same_file_name_is_drawn_again(monkeypatch):
    """What is kept is found by the art's content, not its name: a picture edited while `serve` runs is
    judged on its new pixels."""
    from generator.layout.ops import Text, art_op
    from generator.render import contrast
    from generator.render.fonts import text_width

    label = Text(20, 120, "Harvest", 12, fill="ink")
    calm = art_op(_picture(_png((360, 500), (245, 245, 245))), 0, 0, 180, 250, slot="background")
    busy = art_op(
        _picture(_png((360, 500), (245, 245, 245), (20, 20, 20))), 0, 0, 180, 250, slot="background"
    )
    assert calm.asset.shown == busy.asset.shown
    drawn = _rasterized(monkeypatch)
    assert contrast.art_contrast([_component(calm, label)], text_width) == []
    assert len(contrast.art_contrast([_component(busy, label)], text_width)) == 1
    assert drawn == [1, 1]


def test_a_string_that_shows_under_a_judged_one_stays_in_its_picture(monkeypatch):
    """A string near a judged one is drawn with it: here one under half-transparent art, which shows through
    behind the label and lowers its contrast (left out, the label would read as legible)."""
    from generator.layout.ops import Text, art_op
    from generator.render import contrast
    from generator.render.fonts import text_width

    veil = art_op(_picture(_png((360, 500), (245, 245, 245))), 0, 0, 180, 250, slot="background", opacity=0.3)
    behind = Text(16, 116, "MMMMMMMMMM", 18, font="bold", fill="ink")  # drawn before the art: not judged
    label = Text(20, 120, "Harvest", 12, fill="ink")
    _rasterized(monkeypatch)
    (low,) = contrast.art_contrast([_component(behind, veil, label)], text_width)
    assert low.what == "text (no id) 'Harvest' at 12.0 pt"
    _rasterized(monkeypatch)
    assert contrast.art_contrast([_component(veil, label)], text_width) == []


def test_an_icons_verdict_is_measured_once_per_picture_and_place(monkeypatch):
    """Two icons on one face are judged each in its own place (one melts into the field, one stands out);
    the same face in another language reuses both verdicts without measuring them again."""
    from generator.layout.ops import Text, art_op
    from generator.render import contrast
    from generator.render.fonts import text_width

    field = art_op(_picture(_png((360, 500), (200, 40, 50))), 0, 0, 180, 250, slot="background")
    icon = _picture(_svg("#000000"), "assets/suits/red.svg")
    melting = art_op(icon, 20, 150, 60, 60, slot="icon", tint="#c0303c")
    standing = art_op(icon, 100, 150, 60, 60, slot="icon", tint="#ffffff")
    measured: list[object] = []
    real = contrast._icon_difference

    def counting(*args):  # type: ignore[no-untyped-def]
        measured.append(args[2])
        return real(*args)

    monkeypatch.setattr(contrast, "_icon_difference", counting)
    _rasterized(monkeypatch)
    verdicts = []
    for title in ("Harvest", "Ernte"):
        (low,) = contrast.art_contrast(
            [_component(field, melting, standing, Text(200, 20, title, 12, fill="ink"))], text_width
        )
        verdicts.append((low.what, low.measured))
    assert verdicts[0] == verdicts[1] and verdicts[0][1] < contrast.ICON_DELTA_E
    assert len(measured) == 2 and measured[0] != measured[1]  # each icon once, in its own box
