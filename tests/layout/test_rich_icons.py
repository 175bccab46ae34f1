"""The kit's own inline icons (`style.icons`, assets/icons/NAME.svg) in rich text: the SVG one x-height tall
on the baseline after the words before it, its advance taken from its shape, tinted only in a colour span; an
unknown `:name:` says which icons there are and the nearest."""

from __future__ import annotations

import pytest

from generator.errors import LayoutError
from generator.layout.ops import Text, Vector, fitted
from generator.layout.rich import ICON_SIDE, X_HEIGHT, fit_rich, parse_rich, rich_ops
from generator.spec.assets import probe

COIN = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><circle cx="10" cy="10" r="9" '
    b'fill="#e0a000"/></svg>'
)
WIDE = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><rect width="40" height="20" '
    b'fill="#336699"/></svg>'
)


def measure(text: str, font: str, size: float) -> float:
    return 0.5 * size * len(text) * (1.2 if font == "bold" else 1.0)


def icons() -> dict:
    return {"coin": probe(COIN, "assets/icons/coin.svg"), "bar": probe(WIDE, "assets/icons/bar.svg")}


def draw(text: str, width: float = 300.0, size: float = 10.0) -> list:
    kit = icons()
    block = fit_rich(
        parse_rich(text, "cards.csv:2", icons=kit), "regular", width, 200, measure, size=size, min_size=5
    )
    return rich_ops(block, 0.0, 100.0, measure, icons=kit, text_id="effect")


def test_a_bold_run_then_the_kit_icon_on_the_baseline_one_x_height_tall():
    drawn = draw("**Gain** 2 :coin:")
    texts = [op for op in drawn if isinstance(op, Text)]
    assert [(t.text, t.font) for t in texts] == [("Gain", "bold"), (" 2 ", "regular")]
    (icon,) = [op for op in drawn if isinstance(op, Vector)]
    assert icon.asset.shown == "assets/icons/coin.svg" and icon.tint is None  # its own colours
    x, y, w, h = fitted(icon)
    baseline, size = texts[0].y, texts[0].size
    assert y == pytest.approx(baseline, abs=0.01)
    assert h == pytest.approx(X_HEIGHT * size, abs=0.01) and w == pytest.approx(h, abs=0.01)
    assert x == pytest.approx(texts[1].x + measure(" 2 ", "regular", size) + ICON_SIDE * size, abs=0.01)


def test_a_wide_icon_keeps_its_shape_and_moves_the_pen_by_its_width():
    drawn = draw(":bar: x")
    (icon,) = [op for op in drawn if isinstance(op, Vector)]
    (after,) = [op for op in drawn if isinstance(op, Text)]
    x, y, w, h = fitted(icon)
    assert w == pytest.approx(2 * h, abs=0.01) and h == pytest.approx(X_HEIGHT * 10, abs=0.01)
    assert after.x == pytest.approx(x + w + ICON_SIDE * 10, abs=0.01)


def test_an_icon_in_a_colour_span_is_tinted_and_wraps_with_its_words():
    drawn = draw(
        "one two three [#c33a2b]four :coin:[/] five", width=measure("one two three ", "regular", 10) + 1
    )
    (icon,) = [op for op in drawn if isinstance(op, Vector)]
    assert icon.tint == "#c33a2b"
    lines = sorted({op.y for op in drawn if isinstance(op, Text)}, reverse=True)
    assert len(lines) == 2 and fitted(icon)[1] == pytest.approx(lines[1], abs=0.01)  # on the second line


def test_an_unknown_icon_names_the_kits_icons_and_the_nearest():
    with pytest.raises(
        LayoutError,
        match=r"^cards.csv:2: no icon :coins: \(did you mean :coin: or :cross:\? built-in symbols: "
        r".*the kit's icons \(style.icons\): bar, coin; .*got 'Gain :coins:'$",
    ):
        parse_rich("Gain :coins:", "cards.csv:2", icons=icons())


def test_hostile_icon_names_are_never_paths():
    """`:../../etc/passwd:` is not an icon token at all (names are [a-z][a-z0-9_]*): it prints as written."""
    pieces = parse_rich(r"**x** :../../etc/passwd: :/dev/zero: :A:", icons=icons())
    assert all(not p.icon for p in pieces)
    assert "".join(p.text for p in pieces) == "x :../../etc/passwd: :/dev/zero: :A:"


def test_the_collision_check_sees_an_inline_icon_and_the_line_clears_it():
    from generator.layout.collide import face_collisions
    from generator.layout.geometry import drawn

    drawn_ops = draw("**Gain** 2 :coin: then :bar: more")
    assert face_collisions(drawn_ops, measure) == []  # the words keep ICON_SIDE away from each icon
    (coin,) = [op for op in drawn_ops if isinstance(op, Vector) and op.slot == "icon:coin"]
    x, y, w, h = fitted(coin)
    assert [d.box for d in drawn([coin], measure)] == [
        pytest.approx((x, y, x + w, y + h))
    ]  # measured, not skipped
    over = Text(x, y, "XX", 10.0, text_id="other")  # a string drawn where the coin is
    found = face_collisions([over, *drawn_ops], measure)
    assert (over, "an inline icon (coin) drawn over it") in found
