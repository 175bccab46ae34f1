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


ElementId = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_-]*$", max_length=60)]
"""An element's name, by which a template that `extends` another replaces or removes it."""


class Gradient(SpecModel):
    """A linear gradient fill: `{gradient: ['#f6e7b0', '#c98a2b'], angle: 90}` runs from the first colour to
    the second across the box; angle 0 runs left to right, 90 bottom to top (counter-clockwise, in
    degrees)."""

    gradient: list[Colour] = Field(
        min_length=2, max_length=2, description="the two colours: where the gradient starts and ends"
    )
    angle: float = Field(
        90.0, ge=-360.0, le=360.0, description="direction in degrees: 0 left to right, 90 bottom to top"
    )


Fill = Annotated[Colour | Gradient, Field(description="a colour, or {gradient: [c1, c2], angle: 90}")]
"""A fill: a colour (or a template giving one) or a linear gradient."""


class Element(SpecModel):
    """What every element shares."""

    id: ElementId | None = Field(
        None, description="a name a template that extends this one uses to replace or remove the element"
    )
    when: Tmpl | None = Field(
        None,
        description="a condition over the row's fields, e.g. \"type == 'resource'\"; "
        "the element is drawn only when it is true",
    )
    rotate: float = Field(
        0.0,
        ge=-360.0,
        le=360.0,
        description=(
            "degrees counter-clockwise about the element's box centre (the checks see the turned box)"
        ),
    )
    opacity: float = Field(1.0, ge=0.0, le=1.0, description="0 (invisible) .. 1 (opaque)")


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
    fill: Fill | None = Field(None, description="a box drawn behind the text (a colour or a gradient)")
    padding: Length = Field(
        0.0, description="room kept between the box's edges and the text, e.g. '1.5mm' (the text fits inside)"
    )

    @field_validator("padding")
    @classmethod
    def _padding(cls, v: float) -> float:
        if not 0 <= v <= 100 * 2.8346:
            raise ValueError(f"expected a padding in 0..100mm; got {v / 2.8346:.1f}mm")
        return v

    @model_validator(mode="after")
    def _room(self) -> TextElement:
        for value, pct in (self.w, self.h):
            if not pct and 2 * self.padding >= value:
                raise ValueError(
                    "the padding leaves no room for the text: twice the padding must be under w and h"
                )
        return self


class RectElement(BoxElement):
    """A rectangle."""

    type: Literal["rect"]
    fill: Fill | None = Field(None, description="fill colour or gradient (none if omitted)")
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
            "an .svg file inside the kit folder, e.g. 'assets/{suit}.svg': {field} is the row's column "
            "(give name or "
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
                    "an icon's src must be an .svg file (use an image element for pictures); "
                    f"got {self.src!r}"
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
    align: Literal["left", "center", "right"] = Field(
        "left",
        description=(
            "where each line of copies sits: left, the element's position is the first copy's; center, the "
            "middle "
            "of the line's; right, the last copy's (so 1, 2 or 3 pips stay centred)"
        ),
    )


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

    extends: str | None = Field(
        None,
        max_length=100,
        description=(
            "another template this one inherits: its elements, with this one's replacing those of the same "
            "id, "
            "`remove` ids left out and the others added after them"
        ),
    )
    front: list[AnyElement] | None = Field(
        None, max_length=MAX_ELEMENTS, description="elements of the front, drawn in order"
    )
    back: list[AnyElement] | None = Field(
        None,
        max_length=MAX_ELEMENTS,
        description=(
            "elements of the back; in a template that `extends` another, `back: null` drops the inherited "
            "back (left out, the parent's is kept)"
        ),
    )
    remove: list[ElementId] = Field(
        default_factory=list, max_length=MAX_ELEMENTS, description="ids of inherited elements to leave out"
    )
    radius: Length = Field(
        0.0,
        description=(
            "the card's corner radius, e.g. '3mm': images are clipped to the rounded card (art that runs "
            "into the "
            "bleed to the rounded bleed edge)"
        ),
    )

    @field_validator("radius")
    @classmethod
    def _radius(cls, v: float) -> float:
        if not 0 <= v <= 50 * 2.8346:
            raise ValueError(f"expected a radius in 0..50mm; got {v / 2.8346:.1f}mm")
        return v

    @model_validator(mode="after")
    def _ids(self) -> FaceTemplate:
        for side, elements in (("front", self.front), ("back", self.back)):
            seen: set[str] = set()
            for el in elements or []:
                if el.id is not None and el.id in seen:
                    raise ValueError(f"{side}: two elements have the id {el.id!r}; ids name one element each")
                if el.id is not None:
                    seen.add(el.id)
        if self.extends is None and self.front is None:
            raise ValueError("front: give the front's elements (or `extends:` a template that has them)")
        if self.extends is None and self.remove:
            raise ValueError("remove: only a template that `extends` another removes elements")
        return self


def _merge(
    parent: list[AnyElement] | None, child: list[AnyElement] | None, remove: list[str]
) -> list[AnyElement] | None:
    """The parent's elements with the child's of the same id in their place, `remove` ids dropped and the
    child's other elements after them."""
    if parent is None:
        return child
    mine = {el.id: el for el in child or [] if el.id is not None}
    out = [mine.pop(el.id, el) if el.id is not None else el for el in parent if el.id not in remove]
    out += [el for el in child or [] if el.id is None or el.id in mine]
    return out


def resolve_extends(templates: Mapping[str, FaceTemplate]) -> dict[str, FaceTemplate]:
    """Every template with what it `extends` merged in (parents first); ValueError naming the template for an
    unknown parent, a cycle, or a removed id the parent does not have."""
    done: dict[str, FaceTemplate] = {}

    def resolve(name: str, chain: tuple[str, ...]) -> FaceTemplate:
        if name in done:
            return done[name]
        tpl = templates[name]
        if tpl.extends is None:
            done[name] = tpl
            return tpl
        if tpl.extends not in templates:
            raise ValueError(
                f"{name}.extends: no template {tpl.extends!r}; expected one of {', '.join(sorted(templates))}"
            )
        if tpl.extends in chain:
            raise ValueError(f"{name}.extends: a cycle {' -> '.join((*chain, tpl.extends))}")
        parent = resolve(tpl.extends, (*chain, tpl.extends))
        have = {el.id for el in (parent.front or []) + (parent.back or []) if el.id is not None}
        unknown = [r for r in tpl.remove if r not in have]
        if unknown:
            raise ValueError(f"{name}.remove: {tpl.extends!r} has no element with id {unknown[0]!r}")
        merged = tpl.model_copy(
            update={
                "front": _merge(parent.front, tpl.front, tpl.remove),
                # `back: null` written in the child drops the inherited back (a card printed one-sided)
                "back": None
                if "back" in tpl.model_fields_set and tpl.back is None
                else _merge(parent.back, tpl.back, tpl.remove),
                "radius": tpl.radius if "radius" in tpl.model_fields_set else parent.radius,
            }
        )
        done[name] = merged
        return merged

    for name in templates:
        resolve(name, (name,))
    return done


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
    "Fill",
    "Gradient",
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
    "resolve_extends",
]
