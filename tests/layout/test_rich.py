"""Rich text in a template text element: **bold** runs and :symbol: inline icons, escapes, wrapping and the
located errors."""

from __future__ import annotations

import pytest

from generator.errors import LayoutError
from generator.layout.ops import Place, Polygon, Text
from generator.layout.rich import X_HEIGHT, Piece, fit_rich, is_rich, parse_rich
from tests.layout.test_template import ops


def _box(op) -> tuple[float, float, float, float]:
    xs = [p[0] for p in op.points]
    ys = [p[1] for p in op.points]
    return min(xs), min(ys), max(xs), max(ys)


def test_markup_is_parsed_into_bold_runs_icons_and_escapes():
    assert parse_rich("**Gain** 2 :star:") == [
        Piece("Gain", True),
        Piece(" 2 ", False),
        Piece("", False, "star"),
    ]
    assert parse_rich(r"2 \* 3 \:star\: \:coinage: 4:5") == [Piece("2 * 3 :star: :coinage: 4:5", False)]
    assert not is_rich("Score: 5, 4:5 at 12:30:00") and is_rich("a **b**") and is_rich(r"a \* b")
    assert is_rich("a :coinage: b")  # an unknown icon is refused by parse_rich, not printed as written


def test_an_unknown_icon_is_refused_with_the_nearest_names():
    with pytest.raises(
        LayoutError,
        match=r"^cards.csv:2: no icon :starr: \(did you mean :star:\? built-in symbols: "
        r"circle, .*the kit's icons \(style.icons\): none; .*got 'Gain :starr:'$",
    ):
        parse_rich("Gain :starr:", "cards.csv:2")


def test_italic_and_bold_nest_either_way_and_a_lone_star_stays_a_star():
    assert parse_rich("a *very* good card") == [
        Piece("a ", False),
        Piece("very", False, italic=True),
        Piece(" good card", False),
    ]
    assert parse_rich("*it **both** it*") == [
        Piece("it ", False, italic=True),
        Piece("both", True, italic=True),
        Piece(" it", False, italic=True),
    ]
    assert parse_rich("**b *both* b**") == [
        Piece("b ", True),
        Piece("both", True, italic=True),
        Piece(" b", True),
    ]
    assert parse_rich("***both***") == [Piece("both", True, italic=True)]
    assert parse_rich(r"2 \* 3 * 4 **b**") == [Piece("2 * 3 * 4 ", False), Piece("b", True)]
    assert is_rich("a *very* good card") and not is_rich("2 * 3")


def test_an_unclosed_italic_names_the_element():
    with pytest.raises(
        LayoutError,
        match=r"^en.po:7: a \* \(italic\) is not closed \(write \\\* for a literal "
        r"star\); got 'a \*very good card'$",
    ):
        parse_rich("a *very good card", "en.po:7")


def test_italic_runs_are_drawn_in_the_italic_keys():
    drawn = ops(
        {
            "type": "text",
            "x": "0mm",
            "y": "0mm",
            "w": "60mm",
            "h": "10mm",
            "text": "*Once* **per *turn***",
            "size": "10pt",
            "align": "left",
        }
    )
    texts = [op for op in drawn if isinstance(op, Text)]
    assert [(t.text, t.font) for t in texts] == [
        ("Once", "italic"),
        ("per ", "bold"),
        ("turn", "bold_italic"),
    ]
    assert len({t.y for t in texts}) == 1


def test_an_unclosed_bold_names_the_element():
    with pytest.raises(LayoutError, match=r"^cards.csv:2: a \*\* \(bold\) is not closed; got 'a \*\*b'$"):
        parse_rich("a **b", "cards.csv:2")


def test_a_card_prints_a_bold_run_and_an_icon_on_the_baseline():
    drawn = ops(
        {
            "type": "text",
            "x": "0mm",
            "y": "0mm",
            "w": "60mm",
            "h": "10mm",
            "text": "**Gain** 2 :triangle:",
            "size": "10pt",
            "align": "left",
        }
    )
    texts = [op for op in drawn if isinstance(op, Text)]
    assert [(t.text, t.font) for t in texts] == [("Gain", "bold"), (" 2 ", "regular")]
    assert texts[0].y == texts[1].y and texts[1].x == pytest.approx(texts[0].x + 0.5 * 10 * 4)
    icon = next(op for op in drawn if isinstance(op, Polygon))
    x0, y0, x1, y1 = _box(icon)
    baseline, size = texts[0].y, texts[0].size
    assert y0 == pytest.approx(baseline, abs=0.01)  # sits on the baseline
    assert y1 - y0 == pytest.approx(X_HEIGHT * size, abs=0.01)  # one x-height tall
    assert x0 > texts[1].x + 0.5 * size * 3 - 0.01  # after ' 2 '


def test_rich_text_wraps_between_words_and_keeps_hard_breaks():
    def measure(text: str, font: str, size: float) -> float:
        return 0.5 * size * len(text) * (1.2 if font == "bold" else 1.0)

    pieces = parse_rich("**Gain two** coins :star: then draw\nEnd")
    block = fit_rich(pieces, "regular", 60, 200, measure, size=10, min_size=5)
    lines = ["".join(p.text or f":{p.icon}:" for p in line) for line in block.lines]
    assert lines == ["Gain two", "coins :star:", "then draw", "End"]
    assert block.size == 10


def test_rich_text_that_cannot_fit_is_located():
    with pytest.raises(
        LayoutError,
        match=r"^front\[1\]: text does not fit a 10x10 pt box even at 5.00 pt: 'Gain a great many coins'$",
    ):
        fit_rich(
            parse_rich("**Gain** a great many coins"),
            "regular",
            10,
            10,
            lambda t, f, s: len(t) * s,
            size=10,
            min_size=5,
            where="front[1]",
        )


def test_a_line_break_in_one_line_rich_text_is_refused():
    with pytest.raises(LayoutError, match="a line break in a text printed on one line"):
        ops({"type": "text", "x": "0mm", "y": "0mm", "w": "60mm", "h": "10mm", "text": "**a**\nb"})


def test_plain_text_is_unchanged():
    drawn = ops({"type": "text", "x": "0mm", "y": "0mm", "w": "60mm", "h": "10mm", "text": "Score: 5 * 2"})
    assert [op.text for op in drawn if isinstance(op, Text)] == ["Score: 5 * 2"]
    assert not any(isinstance(op, Place) for op in drawn)


def test_the_example_of_docs_text_md_prints_bold_runs_and_icons():
    import re

    from tests.fuzz.harness import ROOT

    doc = (ROOT / "docs" / "text.md").read_text(encoding="utf-8")
    msgstr = re.search(r'^msgid "effect.resource"\nmsgstr "(.*)"$', doc, flags=re.MULTILINE).group(1)
    text = msgstr.replace("\\n", "\n").replace("{{ n }}", "3")
    drawn = ops(
        {
            "type": "text",
            "x": "6mm",
            "y": "59mm",
            "w": "51.5mm",
            "h": "17mm",
            "text": text,
            "wrap": True,
            "size": "9.5pt",
            "min_size": "6pt",
        }
    )
    texts = [op for op in drawn if isinstance(op, Text)]
    assert [t.text for t in texts if t.font == "bold"] == ["Plant", "3"]
    assert len({t.y for t in texts}) == 2  # the hard break: two lines
    assert [op.fill for op in drawn if not isinstance(op, Text)] == ["ink", "#2e7d32"]  # the leaf, the star
    assert next(t.fill for t in texts if t.text == "3") == "#2e7d32"


def test_a_colour_span_paints_its_words_and_icons():
    assert parse_rich("a [#c33a2b]red :star:[/] b [coin] [muted]m[/]") == [
        Piece("a ", False),
        Piece("red ", False, colour="#c33a2b"),
        Piece("", False, "star", "#c33a2b"),
        Piece(" b [coin] ", False),
        Piece("m", False, colour="muted"),
    ]
    drawn = ops(
        {
            "type": "text",
            "x": "0mm",
            "y": "0mm",
            "w": "60mm",
            "h": "10mm",
            "colour": "ink",
            "text": "Pay [#c33a2b]**2** :drop:[/] now",
            "align": "left",
        }
    )
    assert [(op.text, op.font, op.fill) for op in drawn if isinstance(op, Text)] == [
        ("Pay ", "regular", "ink"),
        ("2", "bold", "#c33a2b"),
        (" now", "regular", "ink"),
    ]
    assert [op.fill for op in drawn if not isinstance(op, Text)] == ["#c33a2b"]


@pytest.mark.parametrize(
    "text, problem",
    [
        ("a [#c33a2b]b", r"a colour span \[#c33a2b\] is not closed with \[/\]"),
        ("a [/] b", r"a \[/\] closes no colour span"),
    ],
)
def test_a_broken_colour_span_is_located(text, problem):
    with pytest.raises(LayoutError, match=f"^front: {problem}; got "):
        parse_rich(text, "front")


@pytest.mark.parametrize("lang", ["en", "ja", "es", "de", "fr"])
def test_ripple_rush_rules_print_each_suit_symbol_inline_and_a_bold_run(lang, tmp_path):
    """The rules summary sets catalog strings as rich text: Ripple Rush's 'Writing a number' names each suit's
    symbol in its colour (from the spec, not typed into the catalogs), one x-height tall on the text's
    baseline, and its 'must' is a bold run."""
    from generator.layout.ops import Circle, iter_texts
    from generator.pipeline import load_kits, plan_build
    from generator.render.fonts import text_width
    from tests.kitcopy import RR

    (kit,) = load_kits([RR])
    planned = plan_build(
        [kit], out=tmp_path, langs=[lang], paper="a4", seed=None, measure=text_width, warn=lambda m: None
    )
    page = next(p for p in planned if p.path.name == "rules-a4.pdf").pages[0]
    face = next(op for op in page.ops if isinstance(op, Place)).ops  # the first summary on the sheet
    write = [op for op in iter_texts(face) if op.text_id == "rules.write"]
    assert any(op.font == "bold" for op in write) and any(op.font == "regular" for op in write)
    assert "**" not in "".join(op.text for op in write) and ":circle:" not in "".join(op.text for op in write)
    first = write[0]
    start, end = face.index(first), face.index(write[1])
    shapes = [op for op in face[start:end] if isinstance(op, (Circle, Polygon))]
    suits = {s.colour: s.symbol for s in kit.game.suits}
    assert [op.fill for op in shapes] == list(suits)  # column order, each in its suit's colour
    assert type(shapes[0]) is Circle and suits[shapes[0].fill] == "circle"
    baseline = next(op.y for op in write if op.x > first.x)  # the text after the icons, on the same line
    for op in shapes:
        lo = op.cy - op.r if isinstance(op, Circle) else _box(op)[1]
        hi = op.cy + op.r if isinstance(op, Circle) else _box(op)[3]
        assert lo == pytest.approx(baseline, abs=0.01) and hi - lo == pytest.approx(
            X_HEIGHT * first.size, abs=0.01
        )


@pytest.mark.parametrize(
    ("kit_name", "tid", "old"),
    [
        ("ripple_rush", "rules.end", "Highest total wins;"),
        ("raindrops", "rules.house.bag_empties.last_tile_drawn", "put the discarded"),  # a bulleted paragraph
    ],
)
def test_an_unknown_icon_in_rules_text_is_located_at_its_catalog_line(tmp_path, kit_name, tid, old):
    import shutil

    from generator.errors import KitError
    from generator.pipeline import load_kits, plan_build
    from generator.render.fonts import text_width
    from tests.kitcopy import ROOT, edit

    kit = tmp_path / kit_name
    shutil.copytree(ROOT / "layouts" / kit_name, kit)
    edit(kit / "locales" / "en.po", old, old.replace(" ", " :starr: ", 1))
    line = next(
        n
        for n, text in enumerate((kit / "locales" / "en.po").read_text().splitlines(), 1)
        if text == f'msgid "{tid}"'
    )
    (loaded,) = load_kits([kit])
    with pytest.raises(KitError) as e:
        plan_build(
            [loaded],
            out=tmp_path,
            langs=["en"],
            paper="a4",
            seed=None,
            measure=text_width,
            warn=lambda m: None,
        )
    assert f"en.po:{line}: {tid}: no icon :starr: (did you mean :star:?" in str(e.value)


def test_an_italic_run_leans_into_the_next_run_of_its_line_but_not_into_other_things():
    from generator.layout.collide import face_collisions
    from generator.layout.ops import Rect

    def measure(text: str, font: str, size: float) -> float:
        return 0.5 * size * len(text)

    line = [
        Text(10, 50, "then ", 10, font="italic", text_id="c:2"),
        Text(35, 50, "draw", 10, font="bold_italic", text_id="c:2"),
    ]
    assert face_collisions(line, measure) == []  # runs of one line, set side by side
    beside = Rect(
        35.5, 49, 20, 8, fill=None, stroke="#000000"
    )  # just right of 'then ', at the height of its top
    assert face_collisions([line[0], beside], measure)  # the leaning top reaches it
    assert (
        face_collisions([Text(10, 50, "then ", 10, text_id="c:2"), beside], measure) == []
    )  # upright: clear
    below = Text(35.5, 45, "x", 10, text_id="c:3")  # another line: the lean counts
    assert face_collisions([line[0], below], measure)
