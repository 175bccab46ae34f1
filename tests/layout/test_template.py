"""The template interpreter (generator/layout/template.py): declarative elements -> drawing ops, positions
from the top-left in mm or %, conditions, repeats, grids, and errors that name where."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter

from generator.errors import LayoutError
from generator.i18n.sandbox import CatalogEnvironment
from generator.layout.ops import Circle, Path, Place, Polygon, Rect, Text, iter_texts
from generator.layout.template import FaceRenderer
from generator.spec.template import AnyElement
from generator.units import mm

W, H = mm(60), mm(90)
ELEMENT: TypeAdapter[Any] = TypeAdapter(AnyElement)


def measure(text: str, font: str, size: float) -> float:
    return 0.5 * size * len(text)


def ops(el: dict[str, Any], row: dict[str, Any] | None = None, table=()) -> list[Any]:  # type: ignore[no-untyped-def]
    face = FaceRenderer(CatalogEnvironment(), measure).face(
        "f", [ELEMENT.validate_python(el)], row or {}, W, H, 0.0, "cards.csv:2 front", table
    )
    return list(face.ops)


def test_a_rect_in_mm_and_percent_is_flipped_to_the_bottom_left_origin():
    (r,) = ops(
        {"type": "rect", "x": "10%", "y": "5mm", "w": "50%", "h": "10mm", "fill": "{{ c }}"}, {"c": "#112233"}
    )
    assert isinstance(r, Rect) and r.fill == "#112233"
    assert (r.x, r.y, r.w, r.h) == pytest.approx((W * 0.1, H - mm(5) - mm(10), W * 0.5, mm(10)))


def test_when_false_draws_nothing_and_true_draws():
    el = {"type": "ellipse", "x": "0mm", "y": "0mm", "w": "10mm", "h": "10mm", "when": "cost > 2"}
    assert ops(el, {"cost": 2}) == []
    (c,) = ops(el, {"cost": 3})
    assert isinstance(c, Circle) and c.r == pytest.approx(mm(5))
    (p,) = ops({**el, "w": "20mm"}, {"cost": 3})
    assert isinstance(p, Path)  # a non-round ellipse is four Bezier quarters


def test_text_is_fitted_to_its_box_and_shrinks():
    (t,) = ops(
        {
            "type": "text",
            "x": "0mm",
            "y": "0mm",
            "w": "20mm",
            "h": "10mm",
            "text": "{{ name }}",
            "size": "20pt",
            "min_size": "4pt",
        },
        {"name": "abcdefghij"},
    )
    assert isinstance(t, Text) and t.text == "abcdefghij" and 0.5 * t.size * 10 <= mm(20) + 1e-6


def test_text_that_cannot_fit_names_the_row_and_element():
    with pytest.raises(LayoutError, match=r"cards\.csv:2 front\[0\] 'x{40}"):
        ops(
            {
                "type": "text",
                "x": "0mm",
                "y": "0mm",
                "w": "5mm",
                "h": "5mm",
                "text": "{{ name }}",
                "min_size": "8pt",
            },
            {"name": "x" * 50},
        )


def test_wrapped_text_gives_several_lines_on_its_fill():
    out = ops(
        {
            "type": "text",
            "x": "0mm",
            "y": "0mm",
            "w": "30mm",
            "h": "30mm",
            "text": "one two three four five six",
            "wrap": True,
            "size": "12pt",
            "fill": "#ffffff",
        }
    )
    assert isinstance(out[0], Rect) and len(iter_texts(out)) > 1


def test_repeat_places_copies_a_step_apart_and_wraps():
    out = ops(
        {
            "type": "repeat",
            "times": "cost",
            "dx": "5mm",
            "per_line": 3,
            "line_dy": "6mm",
            "element": {"type": "icon", "name": "star", "x": "0mm", "y": "0mm", "w": "4mm", "h": "4mm"},
        },
        {"cost": 4},
    )
    # pytest 9's approx compares flat sequences only: the (x, y) pairs one after another, four copies
    assert [c for p in out for c in (p.x, p.y)] == pytest.approx([0, 0, mm(5), 0, mm(10), 0, 0, -mm(6)])
    assert all(isinstance(p, Place) and isinstance(p.ops[0], Polygon) for p in out)
    assert (
        ops(
            {
                "type": "repeat",
                "times": "{{ cost - 4 }}",
                "element": {"type": "rect", "x": "0mm", "y": "0mm", "w": "1mm", "h": "1mm"},
            },
            {"cost": 4},
        )
        == []
    )


def test_repeat_refuses_a_count_that_is_not_a_small_whole_number():
    el = {
        "type": "repeat",
        "times": "cost",
        "element": {"type": "rect", "x": "0mm", "y": "0mm", "w": "1mm", "h": "1mm"},
    }
    with pytest.raises(LayoutError, match="expected 0..100 copies; got 1000"):
        ops(el, {"cost": 1000})
    with pytest.raises(LayoutError, match="expected a whole number of copies; got 'x'"):
        ops(el, {"cost": "x"})


def test_grid_draws_rows_columns_labels_and_bonuses_from_the_table():
    out = ops(
        {
            "type": "grid",
            "x": "0mm",
            "y": "0mm",
            "w": "100%",
            "h": "50%",
            "rows": 2,
            "columns": 3,
            "column_label": "{{ c + 1 }}",
            "row_label": "{{ label }}",
            "bonus": "{{ '+2' if c == star else '' }}",
        },
        table=[{"label": "A", "star": 0}, {"label": "B", "star": 2}],
    )
    texts = [t.text for t in iter_texts(out)]
    assert texts == ["1", "2", "3", "A", "+2", "B", "+2"]
    assert sum(isinstance(o, Rect) for o in out) == 1 + 3 + 2 * (1 + 3)


def test_icons_come_from_the_built_in_symbols():
    with pytest.raises(LayoutError, match="name: expected one of circle, .*; got 'dragon'"):
        ops(
            {"type": "icon", "name": "{{ k }}", "x": "0mm", "y": "0mm", "w": "5mm", "h": "5mm"},
            {"k": "dragon"},
        )


def test_an_image_whose_file_was_not_loaded_names_where():
    """Files are read when the kit loads (tests/games/deck/test_assets.py draws them); a path the renderer was
    not given is a located LayoutError, and an empty field draws nothing."""
    with pytest.raises(
        LayoutError, match=r"front\[0\]\.src: 'assets/a\.png' was not read when the kit loaded"
    ):
        ops(
            {"type": "image", "src": "assets/{id}.png", "x": "0mm", "y": "0mm", "w": "5mm", "h": "5mm"},
            {"id": "a"},
        )
    assert (
        ops(
            {"type": "image", "src": "assets/{id}.png", "x": "0mm", "y": "0mm", "w": "5mm", "h": "5mm"},
            {"id": ""},
        )
        == []
    )


def test_a_bad_colour_and_a_template_error_name_where():
    with pytest.raises(LayoutError, match=r"front\[0\]\.fill: expected a colour '#rrggbb'"):
        ops(
            {"type": "rect", "x": "0mm", "y": "0mm", "w": "5mm", "h": "5mm", "fill": "{{ c }}"},
            {"c": "purple"},
        )
    with pytest.raises(LayoutError, match=r"front\[0\]\.text: template '\{\{ nope \}\}'"):
        ops({"type": "text", "x": "0mm", "y": "0mm", "w": "5mm", "h": "5mm", "text": "{{ nope }}"})
