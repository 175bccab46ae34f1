"""Where drawn ops land (generator.layout.geometry): the boxes of a face's leaf ops, and the answers drawn
remembers for the checks that ask about one face in turn."""

from __future__ import annotations

from generator.layout.geometry import drawn
from generator.layout.ops import Image, Op, Place, Rect, Text
from generator.layout.textfit import ASCENT, DESCENT
from generator.spec.assets import Asset


def _narrow(text: str, font: str, size: float) -> float:
    return 0.5 * size * len(text)


def _wide(text: str, font: str, size: float) -> float:
    return 1.0 * size * len(text)


def test_boxes_follow_places_turns_and_strokes() -> None:
    ops: tuple[Op, ...] = (
        Rect(0, 0, 10, 20, fill="#000000", stroke="ink", width=2),
        Place(100, 50, (Text(0, 0, "ab", 10, anchor="end"),), rotate=90),
    )
    rect, text = drawn(ops, _narrow)
    assert rect.box == (-1.0, -1.0, 11.0, 21.0)
    assert text.order == 1 and text.matrix[4:] == (100.0, 50.0)
    x0, y0, x1, y1 = text.box  # 10 points of text ending at the anchor, turned a quarter: now going up
    assert (round(y0, 6), round(y1, 6)) == (40.0, 50.0) and x0 < 100 < x1


def _box(x0: float, x1: float) -> tuple[float, float, float, float]:
    """The box of a 10-point text from x0 to x1."""
    return (x0, -DESCENT * 10, x1, ASCENT * 10)


def test_a_remembered_answer_is_that_of_its_own_ops_measure_and_art() -> None:
    """drawn remembers a face's last answers: asking again with the same ops gets the same boxes in a list of
    its own, another measure, the art flag or other ops (equal ones too) are measured afresh, and a list
    of ops (which may change) is never remembered."""
    art = Image(Asset("a.png", "png", "0" * 64, 10, 10, b""), 0, 0, 10, 10)
    face: tuple[Op, ...] = (Text(0, 0, "abcd", 10), art)
    first = drawn(face, _narrow)
    again = drawn(face, _narrow)
    assert again == first and again is not first
    again.clear()  # the caller's own list
    assert [d.box for d in drawn(face, _narrow)] == [_box(0.0, 20.0)]
    assert [d.box for d in drawn(face, _wide)] == [_box(0.0, 40.0)]
    assert len(drawn(face, _narrow, art=True)) == 2 and len(drawn(face, _narrow)) == 1
    other: tuple[Op, ...] = (Text(5, 0, "abcd", 10), art)
    assert [d.box for d in drawn(other, _narrow)] == [_box(5.0, 25.0)]
    ops: list[Op] = [Text(0, 0, "abcd", 10)]
    assert [d.box for d in drawn(ops, _narrow)] == [_box(0.0, 20.0)]
    ops[0] = Text(0, 0, "ab", 10)
    assert [d.box for d in drawn(ops, _narrow)] == [_box(0.0, 10.0)]
