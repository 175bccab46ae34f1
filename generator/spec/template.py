"""Declarative face templates (docs/deck-kind.md): a face is a list of elements, each positioned in mm (any
length unit) or in % of the face, from its TOP-LEFT corner (as a designer measures a card). Strings that show
text, colours, icon names and counts are sandboxed Jinja2 templates over a row's fields
(generator/i18n/sandbox.py); `when:` is a condition in the same language. The interpreter that turns these
models into drawing ops is generator/layout/template.py, usable by any composer."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, StrictInt, WithJsonSchema, field_validator, model_validator

from generator.spec.base import LENGTH_JSON, Length, SpecModel
from generator.spec.paths import relative_path_problem
from generator.units import parse_length

MAX_ELEMENTS = 200
MAX_REPEAT = 100
MAX_GRID = 60
MAX_TEMPLATE = 2_000
MAX_REPEAT_COPIES = 100
"""Copies a repeat element draws (a number, a field or a template giving 0..MAX_REPEAT_COPIES)."""
MAX_DRAWN_OPS = 10**6
"""Drawing ops one language of one command may lay out (copies of a face included): thousands of rows times
repeated elements times copies stop as a located error instead of exhausting memory."""
_PERCENT = re.compile(r"(-?[0-9]+(\.[0-9]+)?)%")


def _coord(v: Any) -> tuple[float, bool]:
    """(value, is_percent): '50%' -> (50.0, True); '12mm' -> (points, False)."""
    if isinstance(v, str):
        m = _PERCENT.fullmatch(v.strip())
        if m:
            pct = float(m.group(1))
            if not -100 <= pct <= 200:
                raise ValueError(f"expected a percentage in -100..200%; got {v!r}")
            return (pct, True)
    if isinstance(v, (int, float)) and not isinstance(v, bool) and v == 0:
        return (0.0, False)
    points = parse_length(v)
    if not -500 * 2.8346 <= points <= 1000 * 2.8346:
        raise ValueError(f"expected a length in -500..1000mm; got {v!r}")
    return (points, False)


COORD_JSON: dict[str, Any] = {
    "anyOf": [*LENGTH_JSON["anyOf"], {"type": "string", "pattern": r"^-?[0-9]+(\.[0-9]+)?%$"}]
}
"""A Coord as written: a length (or 0) or a percentage."""
Coord = Annotated[tuple[float, bool], BeforeValidator(_coord), WithJsonSchema(COORD_JSON)]
"""A position or size: a length with a unit ('3mm', '0.5in') or a percentage of the face ('50%')."""
Tmpl = Annotated[str, Field(max_length=MAX_TEMPLATE)]
"""A sandboxed template over the row's fields, e.g. '{{ name }}' or '{{ t(rules) }}'."""
Colour = Annotated[
    str,
    Field(
        max_length=MAX_TEMPLATE,
        description=(
            "a colour '#rrggbb', an ink name (ink, muted, paper) or a template giving one, e.g. '{{ colour "
            "}}'"
        ),
    ),
]


class Element(SpecModel):
    """What every element shares."""

    when: Tmpl | None = Field(
        None,
        description="a condition over the row's fields, e.g. \"type == 'resource'\"; "
        "the element is drawn only when it is true",
    )


class BoxElement(Element):
    """An element with a box."""

    x: Coord = Field(description="left edge from the face's left (length or %)")
    y: Coord = Field(description="top edge from the face's top (length or %)")
    w: Coord = Field(description="width (length or %)")
    h: Coord = Field(description="height (length or %)")

    @field_validator("w", "h")
    @classmethod
    def _positive(cls, v: tuple[float, bool]) -> tuple[float, bool]:
        if v[0] <= 0:
            raise ValueError("expected a positive width and height (a box of no size draws nothing)")
        return v


class TextElement(BoxElement):
    """A string fitted to its box (shrunk down to min_size, else a located error) and glyph-checked."""

    type: Literal["text"]
    text: Tmpl = Field(description="the string: a template over the row's fields, e.g. '{{ name }}'")
    font: Literal["regular", "bold"] = Field(
        "regular", description="weight (the kit's style.fonts roles apply)"
    )
    size: Length = Field(10.0, description="largest size, e.g. '9pt'")
    min_size: Length = Field(5.0, description="smallest size before the text is an error")
    align: Literal["left", "center", "right"] = Field("center", description="horizontal alignment")
    valign: Literal["top", "middle", "bottom"] = Field("middle", description="vertical alignment")
    wrap: bool = Field(False, description="wrap into lines (a paragraph) instead of one line")
    colour: Colour = Field("ink", description="text colour")
    fill: Colour | None = Field(
        None, description="a box drawn behind the text (the fit check measures against it)"
    )


class RectElement(BoxElement):
    """A rectangle."""

    type: Literal["rect"]
    fill: Colour | None = Field(None, description="fill colour (none if omitted)")
    stroke: Colour | None = Field("ink", description="outline colour (null for none)")
    width: Length = Field(0.5, description="outline width, e.g. '0.5pt'")
    radius: Length = Field(0.0, description="corner radius, e.g. '2mm'")


class EllipseElement(BoxElement):
    """An ellipse filling its box."""

    type: Literal["ellipse"]
    fill: Colour | None = Field(None, description="fill colour")
    stroke: Colour | None = Field("ink", description="outline colour (null for none)")
    width: Length = Field(0.5, description="outline width")


class LineElement(Element):
    """A straight line from (x, y) to (x2, y2)."""

    type: Literal["line"]
    x: Coord = Field(description="start, from the left")
    y: Coord = Field(description="start, from the top")
    x2: Coord = Field(description="end, from the left")
    y2: Coord = Field(description="end, from the top")
    stroke: Colour = Field("ink", description="colour")
    width: Length = Field(0.5, description="line width")


class PolygonElement(Element):
    """A closed polygon through points [x, y] (each a length or %), from the top-left."""

    type: Literal["polygon"]
    points: list[Annotated[list[Coord], Field(min_length=2, max_length=2)]] = Field(
        min_length=2, max_length=64, description="the corners, [x, y] each"
    )
    fill: Colour | None = Field(None, description="fill colour")
    stroke: Colour | None = Field("ink", description="outline colour (null for none)")
    width: Length = Field(0.5, description="outline width")


class IconElement(BoxElement):
    """A built-in symbol (circle, square, hexagon, triangle, diamond, star, sun, moon, heart, drop, leaf,
    club, cross) centred in its box, or an SVG from the kit folder (`src`, e.g. assets/{suit}.svg) drawn as
    vector paths inside the box, optionally painted in one colour (`tint`)."""

    type: Literal["icon"]
    name: Tmpl | None = Field(
        None,
        description=(
            "the built-in symbol's name or a template giving it, e.g. '{{ suit_icon }}' (give name or src)"
        ),
    )
    src: str | None = Field(
        None,
        max_length=200,
        description=(
            "an .svg file inside the kit folder, e.g. 'assets/{suit}.svg': {field} is the row's column (give "
            "name or "
            "src); read and checked once when the kit loads"
        ),
    )
    tint: Colour | None = Field(
        None,
        description=(
            "src only: paint every shape of the SVG in this colour, e.g. '{{ colour }}' or '#2a6f3a' (own "
            "colours "
            "if omitted)"
        ),
    )
    fill: Colour | None = Field("ink", description="name only: fill colour of the built-in symbol")
    stroke: Colour | None = Field(None, description="name only: outline colour of the built-in symbol")
    width: Length = Field(0.8, description="name only: outline width of the built-in symbol")

    @model_validator(mode="after")
    def _one_source(self) -> IconElement:
        if (self.name is None) == (self.src is None):
            raise ValueError(
                "give either name (a built-in symbol) or src (an .svg file), not both or neither"
            )
        if self.src is not None:
            why = path_problem(self.src)
            if why is None and not self.src.lower().endswith(".svg"):
                why = (
                    f"an icon's src must be an .svg file (use an image element for pictures); got "
                    f"{self.src!r}"
                )
            if why:
                raise ValueError(why)
        return self


class ImageElement(BoxElement):
    """A picture (PNG, JPEG, WebP or SVG) from the kit folder, fitted to its box; the path may name the row's
    columns as {field}, e.g. assets/cards/{id}.png. Every file is read and checked once when the kit loads."""

    type: Literal["image"]
    src: str = Field(
        max_length=200,
        description=(
            "the file inside the kit folder, e.g. 'assets/cards/{id}.png': {field} is the row's column; a "
            "row whose "
            "field is empty draws no image"
        ),
    )
    fit: Literal["cover", "contain", "stretch"] = Field(
        "cover",
        description=(
            "cover: fill the box, cutting off what overflows; contain: all of the picture inside the box; "
            "stretch: "
            "fill the box exactly, distorting it"
        ),
    )
    opacity: float = Field(1.0, ge=0.0, le=1.0, description="0 (invisible) .. 1 (opaque)")

    @field_validator("src")
    @classmethod
    def _src(cls, v: str) -> str:
        why = path_problem(v)
        if why:
            raise ValueError(why)
        return v


_PATH_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
_PATH_HELP = "a file path relative to the kit folder, e.g. assets/{suit}.svg ({field} names a column)"


def path_problem(src: str) -> str | None:
    """Why an asset path template is refused before anything is opened (absolute, '..', a bad placeholder)."""
    why = relative_path_problem(src, _PATH_HELP)
    if why:
        return why
    rest = _PATH_FIELD.sub("", src)
    if "{" in rest or "}" in rest:
        return f"a placeholder is written {{field}} with a column name; got {src!r}"
    return None


def path_fields(src: str) -> tuple[str, ...]:
    """The columns an asset path names, in order."""
    return tuple(_PATH_FIELD.findall(src))


def fill_path(src: str, fields: Mapping[str, Any]) -> str | None:
    """The file an asset path names for a row's `fields`; None when a named field is empty (nothing drawn).
    KeyError (the column's name) when the row has no such column."""
    values: dict[str, str] = {}
    for name in path_fields(src):
        if name not in fields:
            raise KeyError(name)
        value = fields[name]
        if value is None or str(value).strip() == "":
            return None
        values[name] = str(value).strip()
    return _PATH_FIELD.sub(lambda m: values[m.group(1)], src)


Leaf = Annotated[
    TextElement | RectElement | EllipseElement | LineElement | PolygonElement | IconElement | ImageElement,
    Field(discriminator="type"),
]


class RepeatElement(Element):
    """One element drawn N times (N from a field), stepping by (dx, dy), in a row or wrapping into a grid; the
    element's own position is that of the first copy and it sees `i` (0, 1, ...)."""

    type: Literal["repeat"]
    times: StrictInt | Tmpl = Field(
        description="how many copies: a number, a field name or a template, e.g. 3, 'cost' "
        "or '{{ cost - 1 }}'"
    )
    element: Leaf = Field(description="the element to repeat")
    dx: Coord = Field((0.0, False), description="step to the right between copies")
    dy: Coord = Field((0.0, False), description="step down between copies")
    per_line: StrictInt = Field(
        MAX_REPEAT, ge=1, le=MAX_REPEAT, description="copies per line before wrapping"
    )
    line_dx: Coord = Field((0.0, False), description="step to the right between lines")
    line_dy: Coord = Field((0.0, False), description="step down between lines")


class GridElement(BoxElement):
    """A table of boxes to write in (score sheets, player boards): `rows` x `columns` cells under a header row
    and beside a label column; labels and per-cell bonus labels are templates (row fields of the component's
    data row r, `r` and `c` counting from 0)."""

    type: Literal["grid"]
    rows: StrictInt = Field(ge=1, le=MAX_GRID, description="rows of cells")
    columns: StrictInt = Field(ge=1, le=MAX_GRID, description="columns of cells")
    column_label: Tmpl | None = Field(
        None, description="header of column c, e.g. '{{ c + 1 }}' (no header if omitted)"
    )
    row_label: Tmpl | None = Field(None, description="label of row r, e.g. '{{ t(name) }}' from data row r")
    label_width: Coord = Field(
        (25.0, True), description="width of the label column (length or % of the grid)"
    )
    cell: Literal["square", "circle", "none"] = Field("square", description="shape drawn in each cell")
    bonus: Tmpl | None = Field(None, description="small label printed in a cell's corner (empty = none)")
    fill: Colour = Field("#ffffff", description="cell colour")
    header_fill: Colour = Field("#e8e8e8", description="header and label colour")
    stroke: Colour = Field("ink", description="grid lines")
    font_size: Length = Field(9.0, description="largest label size")


AnyElement = Annotated[
    TextElement
    | RectElement
    | EllipseElement
    | LineElement
    | PolygonElement
    | IconElement
    | ImageElement
    | RepeatElement
    | GridElement,
    Field(discriminator="type"),
]


class FaceTemplate(SpecModel):
    """A card's two faces (the back may be left out; the component then prints no per-row back)."""

    front: list[AnyElement] = Field(
        max_length=MAX_ELEMENTS, description="elements of the front, drawn in order"
    )
    back: list[AnyElement] | None = Field(None, max_length=MAX_ELEMENTS, description="elements of the back")


class TemplateChoice(SpecModel):
    """Pick a shared template by a field's value: {by: type, cases: {resource: res, action: act}, default:
    x}."""

    by: str = Field(description="the field whose value picks the template")
    cases: dict[str, str] = Field(max_length=100, description="field value -> template name")
    default: str | None = Field(None, description="template for any other value (an error if omitted)")


__all__ = [
    "AnyElement",
    "Coord",
    "FaceTemplate",
    "GridElement",
    "IconElement",
    "ImageElement",
    "Leaf",
    "RepeatElement",
    "TemplateChoice",
    "TextElement",
    "fill_path",
    "path_fields",
    "path_problem",
]
