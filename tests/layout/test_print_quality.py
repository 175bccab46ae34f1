"""Issue 26 item 3: the print defects a designer would reject, each measured on the drawn ops of the shipped kits
(the room between two drawn things, from the font metrics and the shapes' geometry)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.build import load_kits, print_data, with_tool_catalogs
from generator.i18n.texts import Texts
from generator.layout.compose import Context, compose_kit, template_context
from generator.layout.geometry import drawn
from generator.layout.marks import MARK_GAP, MARK_LENGTH
from generator.layout.ops import Line, Op, Page, Place, Rect, Text, iter_texts
from generator.layout.textfit import text_box
from generator.render.fonts import text_width

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def kits():
    cache: dict[tuple[str, str], dict[str, list[Page]]] = {}

    def get(name: str, lang: str = "en") -> dict[str, list[Page]]:
        if (name, lang) not in cache:
            (kit,) = load_kits([ROOT / "layouts" / name])
            extras = print_data(kit, kit.meta.seed)
            texts = Texts(lang, with_tool_catalogs(kit), template_context(kit, extras), warn=lambda _: None)
            ctx = Context(kit, lang, texts, text_width, kit.print.paper, kit.meta.seed, kit.print, extras)
            cache[name, lang] = {c.id: c.pages for c in compose_kit(ctx)}
        return cache[name, lang]

    return get


def test_crop_marks_and_the_ruler_go_around_the_cloud_tokens_that_exist(kits):
    # page 1 holds 12 tokens in the top two rows of a six-row grid: no marks down the four empty rows, and the
    # ruler lies flat in the free space below the cards instead of turned on its side at mid right
    (page,) = [p for p in kits("raindrops")["cloud_tokens"] if "front" in p.label][:1]
    cards = [d.box for d in drawn([op for op in page.ops if isinstance(op, Place) and op.clip], text_width)]
    lowest = min(b[1] for b in cards)
    marks = [op for op in page.ops if isinstance(op, Line)]
    assert marks
    assert min(min(m.y1, m.y2) for m in marks) >= lowest - MARK_GAP - MARK_LENGTH - 3.5, "marks beside empty rows"
    rulers = [op for op in page.ops if isinstance(op, Place) and not op.clip]
    assert rulers and all(r.rotate == 0 for r in rulers)
    assert all(r.y < lowest for r in rulers)


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
@pytest.mark.parametrize("kit", ["ripple_rush", "peak_dice", "raindrops", "rummy_cards"])
def test_the_rules_footer_shows_the_localized_title_not_the_kit_id(kits, kit, lang):
    (kit_spec,) = load_kits([ROOT / "layouts" / kit])
    texts = Texts(lang, with_tool_catalogs(kit_spec), {}, warn=lambda _: None)
    title = texts(kit_spec.meta.title)
    strings = [t.text for p in kits(kit, lang)["rules"] for t in iter_texts(p.ops)]
    assert not [s for s in strings if kit_spec.meta.id in s]
    assert f"{title} v{kit_spec.meta.version}" in strings


def faces_on(pages: list[Page]) -> list[tuple[Op, ...]]:
    """The ops of every card placed on N-up pages (the clipped places)."""
    return [op.ops for p in pages for op in p.ops if isinstance(op, Place) and op.clip]


@pytest.mark.parametrize("kit", ["ripple_rush", "rummy_cards"])
def test_every_6_and_9_is_underlined_in_the_centre_and_in_both_corners(kits, kit):
    # an upside-down corner 6 must not read 9: every drawn 6 or 9 (turned or not) has its bar under the glyph
    checked = 0
    for ops in faces_on(kits(kit)["number_cards"]):
        texts = [t for t in ops if isinstance(t, Text) and t.text in ("6", "9")]
        bars = [r for r in ops if isinstance(r, Rect) and r.fill]
        for t in texts:
            (tx0, _, tx1, _) = text_box(t, text_width)
            below = [b for b in bars if b.h <= 0.08 * t.size and b.x >= tx0 - 0.5 and b.x + b.w <= tx1 + 0.5
                     and (b.y + b.h <= t.y and b.y >= t.y - 0.2 * t.size if not t.rotate
                          else b.y >= t.y and b.y + b.h <= t.y + 0.2 * t.size)]
            assert below, f"{kit}: {t.text!r} at {t.x:.0f},{t.y:.0f} rotated {t.rotate} has no bar"
            checked += 1
    assert checked >= 12
