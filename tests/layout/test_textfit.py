"""The text-fit check over drawn pages: every string of every face and back inside its box and its trim."""

from pathlib import Path

import pytest

from generator.contract.compose import compose_kit, template_context
from generator.errors import LayoutError
from generator.i18n.texts import Texts
from generator.layout.compose import Context
from generator.layout.ops import Page, Place, Rect, Text
from generator.layout.textfit import text_fit_problems, text_overflows
from generator.pipeline import load_kits, print_data, with_tool_catalogs
from generator.render.fonts import text_width

ROOT = Path(__file__).resolve().parents[2]
KITS = sorted(p.name for p in (ROOT / "layouts").iterdir() if (p / "kit.yaml").is_file())


def fixed(text: str, font: str, size: float) -> float:
    """A measure that makes every character 0.5 em wide (numbers below are easy to check by hand)."""
    return len(text) * size * 0.5


def test_a_string_wider_than_the_white_box_it_sits_on_is_reported_with_both_sides():
    box = Rect(20, 40, 60, 20, fill="#ffffff", stroke=None)
    label = Text(50, 45, "ABCDEFGHIJ", 10, anchor="middle", text_id="cards.back")  # 50 pt wide, box 60: fits
    wide = Text(50, 45, "ABCDEFGHIJKLMN", 10, anchor="middle", text_id="cards.back")  # 70 pt: 5 pt each side
    page = [
        Place(
            0, 0, (Rect(-3, -3, 106, 146, fill="#0f4c5c", stroke=None), box, label), clip=(-3, -3, 106, 146)
        )
    ]
    assert text_overflows([Page(200, 200, page)], fixed) == []
    page = [
        Place(0, 0, (Rect(-3, -3, 106, 146, fill="#0f4c5c", stroke=None), box, wide), clip=(-3, -3, 106, 146))
    ]
    pages = [Page(200, 200, page, label="deck back 1")]
    assert text_fit_problems(pages, fixed, "deck (en)", origin="kit.yaml") == [
        "kit.yaml: deck (en): page 1 (deck back 1): text cards.back 'ABCDEFGHIJKLMN' runs past its box: "
        "left 5.00 pt, right 5.00 pt"
    ]
    assert text_fit_problems(
        pages, fixed, "deck (en)", lambda tid: "locales/en.po:23", origin="kit.yaml"
    ) == [
        (
            "locales/en.po:23: cards.back: deck (en): page 1 (deck back 1): text cards.back 'ABCDEFGHIJKLMN' "
            "runs past its box: "
            "left 5.00 pt, right 5.00 pt"
        )
    ]


def test_rotated_cards_and_the_trim_clip_are_followed():
    # a card turned 90 degrees on the page (as N-up grids do); its string runs 10 pt past the card's right
    # edge
    face = (Rect(0, 0, 100, 50, fill="#ffffff", stroke=None), Text(60, 10, "ABCDEFGHIJ", 10, text_id="t"))
    page = Page(300, 300, [Place(200, 20, face, clip=(0, 0, 100, 50), rotate=90)])
    (o,) = text_overflows([page], fixed)
    # turned 90 degrees the card's right edge is the page's top; the text's page box is x 182..191.2,
    # y 80..130
    assert (o.what, round(o.top, 2), round(o.left, 2), round(o.right, 2), round(o.bottom, 2)) == (
        "the trim",
        10.0,
        -32.0,
        -8.8,
        -60.0,
    )


def test_a_clip_that_keeps_bleed_is_not_taken_for_the_trim():
    # a card in a gutter keeps 8.5 pt of art beyond its trim; its string runs 5 pt past the trim's right edge
    face = (Rect(-9, -9, 118, 68, fill="#ffffff", stroke=None), Text(50, 20, "ABCDEFGHIJ", 10, text_id="t"))
    bleed = (-8.5, -8.5, 117.0, 67.0)
    assert text_overflows([Page(300, 300, [Place(20, 20, face, clip=bleed)])], fixed) == []  # the old reading
    (o,) = text_overflows([Page(300, 300, [Place(20, 20, face, clip=bleed, trim=(0, 0, 95, 50))])], fixed)
    assert (o.what, round(o.right, 2)) == ("the trim", 5.0)


def test_a_tiled_window_may_cut_a_string_but_its_own_box_still_counts():
    face = (Rect(0, 0, 400, 100, fill="#ffffff", stroke=None), Text(180, 50, "ABCDEFGHIJ", 10, text_id="t"))
    strip = Page(300, 300, [Place(0, 0, face, clip=(0, 0, 200, 100), window=True)])
    assert text_overflows([strip], fixed) == []
    trimmed = Page(300, 300, [Place(0, 0, face, clip=(0, 0, 200, 100))])
    assert [o.what for o in text_overflows([trimmed], fixed)] == ["the trim"]


def test_a_string_on_a_neighbouring_cards_bleed_is_judged_by_its_own_card():
    # card A's bleed rect reaches under card B; B's label sits on B's own (narrower) white box and overflows
    # it
    a = Place(0, 0, (Rect(-3, -3, 106, 56, fill="#ff0000", stroke=None),), clip=(0, 0, 100, 50))
    b = Place(
        100,
        0,
        (Rect(10, 10, 20, 20, fill="#ffffff", stroke=None), Text(20, 15, "ABCDEFGH", 10, anchor="middle")),
        clip=(0, 0, 100, 50),
    )
    (o,) = text_overflows([Page(300, 300, [a, b])], fixed)
    assert (o.what, o.left, o.right) == ("its box", 10.0, 10.0)


@pytest.fixture(scope="module")
def composed():
    cache: dict[str, object] = {}

    def get(name: str):
        if name not in cache:
            (kit,) = load_kits([ROOT / "layouts" / name])
            extras = print_data(kit, kit.meta.seed)
            out = []
            for (
                lang
            ) in kit.meta.languages:  # composed directly: the build's own fit check would stop at the first
                texts = Texts(
                    lang, with_tool_catalogs(kit), template_context(kit, extras), warn=lambda _: None
                )
                ctx = Context(kit, lang, texts, text_width, kit.print.paper, kit.meta.seed, kit.print, extras)
                out.append((lang, compose_kit(ctx)))
            cache[name] = out
        return cache[name]

    return get


@pytest.mark.parametrize("kit", KITS)
def test_every_string_of_every_face_and_back_fits_in_every_language(kit, composed):
    problems = [
        p
        for lang, components in composed(kit)
        for comp in components
        for p in text_fit_problems(comp.pages, text_width, f"{comp.id} ({lang})", origin=kit)
    ]
    assert problems == []


def test_the_rummy_back_label_fits_its_white_box_in_english_spanish_and_japanese(composed):
    # issue 14 item 6: "RUMMY CARDS" ran 3.4 pt past both sides of the white box; the Japanese label fitted
    for lang, components in composed("rummy_cards"):
        (cards,) = [c for c in components if c.id == "number_cards"]
        backs = [p for p in cards.pages if "back" in p.label]
        assert backs, "the deck has back pages"
        assert text_overflows(backs, text_width) == [], lang


def test_the_build_refuses_a_string_that_runs_past_its_trim_and_writes_nothing(tmp_path, monkeypatch):
    from generator.games.rummy_cards import layout as rc
    from generator.pipeline import build

    real = rc.back_face

    def wide_label(ctx, w, h, bleed):
        face = real(ctx, w, h, bleed)
        ops = tuple(
            Text(o.x, o.y, o.text * 3, o.size, font=o.font, fill=o.fill, anchor=o.anchor, text_id=o.text_id)
            if isinstance(o, Text)
            else o
            for o in face.ops
        )
        return type(face)(face.name, face.width, face.height, ops, face.bleed)

    monkeypatch.setattr(rc, "back_face", wide_label)
    with pytest.raises(
        LayoutError,
        match=r"^layouts/rummy_cards/locales/en.po:22: cards.back: number_cards \(en\): "
        r"page 2 \(number_cards back 1\): text cards.back "
        r"'RUMMY CARDSRUMMY CARDSRUMMY CARDS' runs past the trim: bottom 93.32 pt, top 93.32 pt",
    ):
        build([ROOT / "layouts" / "rummy_cards"], out=tmp_path / "out", langs=["en"])
    assert not (tmp_path / "out" / "rummy_cards").exists()
