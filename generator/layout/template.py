"""The template interpreter: declarative face elements (generator/spec/template.py) + a row's fields ->
drawing ops (generator/layout/ops.py). Any composer may use it; the `deck` game is built on it.

Positions in the spec are measured from the face's top-left corner; ops use PDF's bottom-left origin, so every
y is flipped here. Strings, colours, icon names and counts are sandboxed Jinja2 templates rendered with the
catalog sandbox (generator/i18n/sandbox.py), which caps time, size and loops; `t('msgid')` looks a message id
up in the kit's catalogs (English with a warning when a language lacks it). Text is fitted to its box with
generator/layout/text.py (shrunk to min_size, else a LayoutError naming where) and the build's fit and glyph
checks see it like every other string."""

from __future__ import annotations

import math
import re
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jinja2 import TemplateError

from generator.errors import LayoutError
from generator.i18n.sandbox import MAX_OUTPUT, CatalogEnvironment, TemplateLimit
from generator.layout.ops import (
    INKS,
    Anchor,
    Circle,
    Face,
    FontKey,
    Line,
    Op,
    Path,
    Place,
    Polygon,
    Rect,
    Text,
    art_op,
)
from generator.layout.rich import X_HEIGHT, fit_rich, is_rich, parse_rich, rich_ops
from generator.layout.shapes import SYMBOLS, symbol
from generator.layout.text import Measure, block_ops, fit_block, fit_line
from generator.spec.assets import Asset
from generator.spec.template import (
    MAX_DRAWN_OPS,
    MAX_REPEAT_COPIES,
    AnyElement,
    BoxElement,
    Coord,
    EllipseElement,
    Fill,
    Gradient,
    GridElement,
    IconElement,
    ImageElement,
    LineElement,
    PolygonElement,
    RectElement,
    RepeatElement,
    TextElement,
    fill_path,
)

_HEX = re.compile(r"#[0-9a-fA-F]{6}")
_ANCHORS: dict[str, Anchor] = {"left": "start", "center": "middle", "right": "end"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DRAWN: weakref.WeakKeyDictionary[CatalogEnvironment, list[int]] = weakref.WeakKeyDictionary()
BONUS_PAD = 72 / 25.4  # 1 mm: a grid cell's bonus label keeps off the cell's border
KAPPA = 0.5522847498
"""Bezier handle length of a quarter ellipse."""


@dataclass(frozen=True)
class _TextBox:
    """Where a text element sets its words: the box (padding taken off), its colour, catalog line, label."""

    x: float
    y: float
    w: float
    h: float
    colour: str
    text_id: str
    label: str

    def anchor_x(self, align: str) -> float:
        """The x the lines are anchored at for `align`."""
        return {"left": self.x, "center": self.x + self.w / 2, "right": self.x + self.w}[align]

    def top(self, valign: str, height: float) -> float:
        """The top of a block `height` tall set at `valign`."""
        return {"top": self.y + self.h, "middle": self.y + (self.h + height) / 2, "bottom": self.y + height}[
            valign
        ]


@dataclass
class FaceRenderer:
    """Renders element lists for one language: the sandbox, text metrics and the helpers templates may
    call."""

    env: CatalogEnvironment
    measure: Measure
    helpers: Mapping[str, Any] = field(default_factory=dict)
    assets: Mapping[str, Asset] = field(default_factory=dict)
    """The files image and icon elements draw, by path as written (read and decoded when the kit loaded)."""
    icons: Mapping[str, Asset] = field(default_factory=dict)
    """The kit's own inline icons (`style.icons`) a rich text may name as :name:."""
    x_height: float = X_HEIGHT
    """How tall an inline icon stands, as a fraction of the size (the body face's x-height)."""
    _cache: dict[str, Any] = field(default_factory=dict)
    _corner: tuple[float, float] = (0.0, 0.0)
    """The face being drawn: its corner radius and bleed (images are clipped to the rounded card)."""
    _shift: tuple[float, float] = (0.0, 0.0)
    """Where the copy of a repeat being drawn is placed (a mask is drawn in the face's coordinates)."""

    # ------------------------------------------------------------------ budget

    def charge(self, ops: int, where: str) -> None:
        """Count `ops` drawing ops against the command's MAX_DRAWN_OPS (shared by every renderer of the same
        template environment); a LayoutError naming `where` past it."""
        drawn = _DRAWN.setdefault(self.env, [0])
        drawn[0] += ops
        if drawn[0] > MAX_DRAWN_OPS:
            raise LayoutError(
                f"{where}: the faces of this command need over {MAX_DRAWN_OPS:,} drawing ops (rows x "
                f"elements x copies; {drawn[0]:,} so far); the budget of one command is "
                f"{MAX_DRAWN_OPS:,}: fewer rows, copies or repeated elements"
            )

    # ------------------------------------------------------------------ templates

    def render(self, source: str, context: Mapping[str, Any], where: str) -> str:
        """A template string rendered over `context` (a LayoutError naming `where` when it fails)."""
        if "{" not in source:
            return source
        try:
            tmpl = self._cache.get(source)
            if tmpl is None:
                tmpl = self.env.compile_checked(source)
                self._cache[source] = tmpl
            self.env.start()
            out: list[str] = []
            size = 0
            for chunk in tmpl.generate({**self.helpers, **context}):
                size += len(chunk)
                if size > MAX_OUTPUT:
                    raise TemplateLimit(f"renders to more than {MAX_OUTPUT} characters")
                out.append(chunk)
            return "".join(out)
        except TemplateError as e:
            problem = f"{type(e).__name__}: {e}"
        except (ArithmeticError, LookupError, TypeError, ValueError, RecursionError) as e:
            problem = f"{type(e).__name__}: {e}"
        raise LayoutError(f"{where}: template {source[:60]!r}: {problem}")

    def condition(self, source: str, context: Mapping[str, Any], where: str) -> bool:
        """A `when:` condition: true when the expression is."""
        return self.render("{% if " + source + " %}1{% endif %}", context, where) == "1"

    def colour(self, source: str | None, context: Mapping[str, Any], where: str) -> str | None:
        """A colour template -> '#rrggbb' or an ink name."""
        if source is None:
            return None
        value = self.render(source, context, where).strip()
        if value in ("", "none"):
            return None
        if _HEX.fullmatch(value) or value in INKS:
            return value
        raise LayoutError(
            f"{where}: expected a colour '#rrggbb' or one of {', '.join(INKS)}; got {value[:40]!r}"
        )

    def fill(
        self, source: Fill | None, context: Mapping[str, Any], where: str
    ) -> tuple[str | None, tuple[str, str, float] | None]:
        """A fill -> (colour, None) or, for a gradient, (its start colour, (start, end, angle))."""
        if not isinstance(source, Gradient):
            return self.colour(source, context, where), None
        ends = [self.colour(c, context, f"{where}.gradient[{i}]") for i, c in enumerate(source.gradient)]
        if ends[0] is None or ends[1] is None:
            raise LayoutError(f"{where}.gradient: both colours are needed; got {ends[0]!r} and {ends[1]!r}")
        return ends[0], (ends[0], ends[1], source.angle)

    def count(self, source: int | str, context: Mapping[str, Any], where: str) -> int:
        """A repeat count: a number, a field name or a template giving a whole number in
        0..MAX_REPEAT_COPIES."""
        value: Any
        if isinstance(source, int):
            value = source
        else:
            value = context.get(source) if _NAME.fullmatch(source) else self.render(source, context, where)
        if value is None or value == "":
            return 0
        try:
            n = int(str(value).strip())
        except ValueError:
            raise LayoutError(
                f"{where}: expected a whole number of copies; got {str(value)[:40]!r}"
            ) from None
        if not 0 <= n <= MAX_REPEAT_COPIES:
            raise LayoutError(f"{where}: expected 0..{MAX_REPEAT_COPIES} copies; got {n}")
        return n

    # ------------------------------------------------------------------ faces

    def face(
        self,
        name: str,
        elements: Sequence[AnyElement],
        context: Mapping[str, Any],
        width: float,
        height: float,
        bleed: float,
        where: str,
        table: Sequence[Mapping[str, Any]] = (),
        radius: float = 0.0,
    ) -> Face:
        """One face: every element whose `when` holds, in order. `table` gives grid rows their fields;
        `radius` rounds the card's corners, which clip its images."""
        ops: list[Op] = []
        self._corner = (min(radius, width / 2, height / 2), bleed)
        for i, el in enumerate(elements):
            drawn = self.element(el, context, width, height, f"{where}[{i}]", table)
            self.charge(len(drawn), f"{where}[{i}]")
            ops += drawn
        return Face(name, width, height, tuple(ops), bleed)

    def element(
        self,
        el: AnyElement,
        context: Mapping[str, Any],
        w: float,
        h: float,
        where: str,
        table: Sequence[Mapping[str, Any]] = (),
    ) -> list[Op]:
        """The ops of one element (none when its condition is false), turned by its `rotate` about its box's
        centre and drawn with its `opacity`."""
        if el.when is not None and not self.condition(el.when, context, f"{where}.when"):
            return []
        ops = self._draw(el, context, w, h, where, table)
        if ops and el.opacity < 1 and not isinstance(el, ImageElement):  # an image carries its own
            ops = [Place(0.0, 0.0, tuple(ops), opacity=el.opacity)]
        if ops and el.rotate % 360:
            cx, cy = _centre(el, ops, w, h, where)
            ops = [Place(cx, cy, (Place(-cx, -cy, tuple(ops)),), rotate=el.rotate)]
        return ops

    def _draw(
        self,
        el: AnyElement,
        context: Mapping[str, Any],
        w: float,
        h: float,
        where: str,
        table: Sequence[Mapping[str, Any]],
    ) -> list[Op]:
        if isinstance(el, TextElement):
            return self._text(el, context, w, h, where)
        if isinstance(el, RectElement):
            x, y, bw, bh = _box(el.x, el.y, el.w, el.h, w, h, where)
            fill, gradient = self.fill(el.fill, context, f"{where}.fill")
            return [
                Rect(
                    x,
                    y,
                    bw,
                    bh,
                    fill=fill,
                    stroke=self.colour(el.stroke, context, f"{where}.stroke"),
                    width=el.width,
                    radius=min(el.radius, bw / 2, bh / 2),
                    gradient=gradient,
                )
            ]
        if isinstance(el, EllipseElement):
            x, y, bw, bh = _box(el.x, el.y, el.w, el.h, w, h, where)
            return [
                ellipse(
                    x,
                    y,
                    bw,
                    bh,
                    fill=self.colour(el.fill, context, f"{where}.fill"),
                    stroke=self.colour(el.stroke, context, f"{where}.stroke"),
                    width=el.width,
                )
            ]
        if isinstance(el, LineElement):
            stroke = self.colour(el.stroke, context, f"{where}.stroke") or "ink"
            return [
                Line(
                    _at(el.x, w),
                    h - _at(el.y, h),
                    _at(el.x2, w),
                    h - _at(el.y2, h),
                    stroke=stroke,
                    width=el.width,
                )
            ]
        if isinstance(el, PolygonElement):
            pts = tuple((_at(px, w), h - _at(py, h)) for px, py in el.points)
            return [
                Polygon(
                    pts,
                    fill=self.colour(el.fill, context, f"{where}.fill"),
                    stroke=self.colour(el.stroke, context, f"{where}.stroke"),
                    width=el.width,
                )
            ]
        if isinstance(el, IconElement):
            return self._icon(el, context, w, h, where)
        if isinstance(el, ImageElement):
            return self._image(el, context, w, h, where)
        if isinstance(el, RepeatElement):
            return self._repeat(el, context, w, h, where)
        if isinstance(el, GridElement):
            return self._grid(el, context, w, h, where, table)
        raise LayoutError(f"{where}: unknown element {type(el).__name__}")

    def _text(self, el: TextElement, context: Mapping[str, Any], w: float, h: float, where: str) -> list[Op]:
        text = self.render(el.text, context, f"{where}.text").strip()
        x, y, bw, bh = _box(el.x, el.y, el.w, el.h, w, h, where)
        ops: list[Op] = []
        fill, gradient = self.fill(el.fill, context, f"{where}.fill")
        if fill is not None:
            ops.append(Rect(x, y, bw, bh, fill=fill, stroke=None, gradient=gradient))
        if not text:
            return ops
        pad = min(el.padding, bw / 2 - 0.5, bh / 2 - 0.5)  # a % box may be small on a small face
        if pad > 0:
            x, y, bw, bh = x + pad, y + pad, bw - 2 * pad, bh - 2 * pad
        colour = self.colour(el.colour, context, f"{where}.colour") or "ink"
        set_in = _TextBox(x, y, bw, bh, colour, str(context.get("text_id", "")), f"{where} {text[:40]!r}")
        if is_rich(text):
            return ops + self._rich_text(el, text, set_in)
        if el.wrap:
            return ops + self._paragraph(el, text, set_in)
        return ops + self._line(el, text, set_in)

    def _rich_text(self, el: TextElement, text: str, box: _TextBox) -> list[Op]:
        """Rich text (bold, italic, inline icons) fitted to the box, one line or wrapped."""
        block = fit_rich(
            parse_rich(text, box.label, icons=self.icons, x_height=self.x_height),
            el.font,
            box.w,
            box.h,
            self.measure,
            size=el.size if el.wrap else min(el.size, box.h / 1.3),
            min_size=el.min_size,
            wrap=el.wrap,
            where=box.label,
            lang=str(self.helpers.get("lang", "")),
        )
        return rich_ops(
            block,
            box.anchor_x(el.align),
            box.top(el.valign, block.height),
            self.measure,
            base=el.font,
            fill=box.colour,
            anchor=_ANCHORS[el.align],
            text_id=box.text_id,
            icons=self.icons,
        )

    def _paragraph(self, el: TextElement, text: str, box: _TextBox) -> list[Op]:
        """Plain text wrapped into lines that fit the box."""
        fitted = fit_block(
            text,
            el.font,
            box.w,
            box.h,
            self.measure,
            size=el.size,
            min_size=el.min_size,
            where=box.label,
            lang=str(self.helpers.get("lang", "")),  # the hyphenation dictionary
        )
        ops: list[Op] = []
        ops += block_ops(
            fitted,
            box.anchor_x(el.align),
            box.top(el.valign, fitted.height),
            font=el.font,
            fill=box.colour,
            anchor=_ANCHORS[el.align],
            text_id=box.text_id,
        )
        return ops

    def _line(self, el: TextElement, text: str, box: _TextBox) -> list[Op]:
        """Plain text on one line, shrunk to fit the box's width."""
        size = fit_line(
            text,
            el.font,
            box.w,
            self.measure,
            size=min(el.size, box.h / 0.95),
            min_size=el.min_size,
            where=box.label,
        )
        if el.valign == "top":
            base = box.y + box.h - size * 0.82
        elif el.valign == "bottom":
            base = box.y + size * 0.14
        else:
            base = box.y + box.h / 2 - size * 0.34
        font: FontKey = el.font
        anchor = _ANCHORS[el.align]
        return [
            Text(
                box.anchor_x(el.align),
                base,
                text,
                size,
                font=font,
                fill=box.colour,
                anchor=anchor,
                text_id=box.text_id,
            )
        ]

    def _icon(self, el: IconElement, context: Mapping[str, Any], w: float, h: float, where: str) -> list[Op]:
        x, y, bw, bh = _box(el.x, el.y, el.w, el.h, w, h, where)
        if el.src is not None:
            asset = self.asset(el.src, context, f"{where}.src")
            if asset is None:
                return []
            tint = self.colour(el.tint, context, f"{where}.tint")
            return [art_op(asset, x, y, bw, bh, fit="contain", tint=tint, slot="icon")]
        name = self.render(el.name or "", context, f"{where}.name").strip()
        if not name:
            return []
        if name not in SYMBOLS:
            raise LayoutError(f"{where}.name: expected one of {', '.join(SYMBOLS)}; got {name[:40]!r}")
        return symbol(
            name,
            x + bw / 2,
            y + bh / 2,
            min(bw, bh) / 2,
            fill=self.colour(el.fill, context, f"{where}.fill"),
            stroke=self.colour(el.stroke, context, f"{where}.stroke"),
            width=el.width,
        )

    def _image(
        self, el: ImageElement, context: Mapping[str, Any], w: float, h: float, where: str
    ) -> list[Op]:
        asset = self.asset(el.src, context, f"{where}.src")
        if asset is None:
            return []
        x, y, bw, bh = _box(el.x, el.y, el.w, el.h, w, h, where)
        # a box that runs past the trim into the bleed is full-bleed art: the print check wants it covered
        sx, sy = self._shift
        bleed = x + sx < 0 or y + sy < 0 or x + sx + bw > w or y + sy + bh > h
        art = art_op(asset, x, y, bw, bh, fit=el.fit, opacity=el.opacity, slot="image", bleed=bleed)
        radius, out = self._corner
        if radius <= 0:
            return [art]
        # the rounded card clips its pictures; full-bleed art to the rounded bleed edge, so the cut card shows
        # all of it and the bleed stays covered
        grow = out if bleed else 0.0
        mask = (-sx - grow, -sy - grow, w + 2 * grow, h + 2 * grow, radius + grow)
        return [Place(0.0, 0.0, (art,), mask=mask)]

    def asset(self, src: str, context: Mapping[str, Any], where: str) -> Asset | None:
        """The decoded file an asset path names for this face's fields (None when a named field is empty)."""
        try:
            shown = fill_path(src, context)
        except KeyError as e:
            raise LayoutError(
                f"{where}: {src!r} names {{{e.args[0]}}}, but the face has no such field"
            ) from None
        if shown is None:
            return None
        asset = self.assets.get(shown)
        if asset is None:  # every file is resolved when the kit loads; a path that differs here was not
            raise LayoutError(
                f"{where}: {shown!r} was not read when the kit loaded (a localized field in the path?)"
            )
        return asset

    def _repeat(
        self, el: RepeatElement, context: Mapping[str, Any], w: float, h: float, where: str
    ) -> list[Op]:
        n = self.count(el.times, context, f"{where}.times")
        ops: list[Op] = []
        step_x, step_y = _at(el.dx, w), _at(el.dy, h)
        share = {"left": 0.0, "center": 0.5, "right": 1.0}[el.align]
        for i in range(n):
            line, k = divmod(i, el.per_line)
            in_line = min(el.per_line, n - line * el.per_line)  # copies on this line
            back = (in_line - 1) * share  # steps the line moves back to sit as aligned
            dx = (k - back) * step_x + line * _at(el.line_dx, w)
            dy = (k - back) * step_y + line * _at(el.line_dy, h)
            self._shift = (dx, -dy)
            try:
                inner = self.element(el.element, {**context, "i": i}, w, h, f"{where}.element")
            finally:
                self._shift = (0.0, 0.0)
            self.charge(len(inner), f"{where}.element")
            if inner:
                ops.append(Place(dx, -dy, tuple(inner)))
        return ops

    def _grid(
        self,
        el: GridElement,
        context: Mapping[str, Any],
        w: float,
        h: float,
        where: str,
        table: Sequence[Mapping[str, Any]],
    ) -> list[Op]:
        x, y, bw, bh = _box(el.x, el.y, el.w, el.h, w, h, where)
        stroke = self.colour(el.stroke, context, f"{where}.stroke") or "ink"
        head_fill = self.colour(el.header_fill, context, f"{where}.header_fill")
        cell_fill = self.colour(el.fill, context, f"{where}.fill")
        label_w = _at(el.label_width, bw) if el.row_label else 0.0
        n_rows = el.rows + (1 if el.column_label else 0)
        cell_h = bh / n_rows
        cell_w = (bw - label_w) / el.columns
        top = y + bh
        ops: list[Op] = []
        if el.column_label:
            if label_w:
                ops.append(Rect(x, top - cell_h, label_w, cell_h, fill=head_fill, stroke=stroke, width=0.6))
            for c in range(el.columns):
                cx = x + label_w + c * cell_w
                ops.append(Rect(cx, top - cell_h, cell_w, cell_h, fill=head_fill, stroke=stroke, width=0.6))
                text = self.render(el.column_label, {**context, "c": c}, f"{where}.column_label").strip()
                ops += self._label(
                    text, (cx, top - cell_h, cell_w, cell_h), el.font_size, f"{where}.column_label"
                )
        first = top - (cell_h if el.column_label else 0.0)
        for r in range(el.rows):
            row_ctx = {**context, **(table[r] if r < len(table) else {}), "r": r}
            ry = first - (r + 1) * cell_h
            if label_w and el.row_label:
                ops.append(Rect(x, ry, label_w, cell_h, fill=head_fill, stroke=stroke, width=0.6))
                text = self.render(el.row_label, row_ctx, f"{where}.row_label").strip()
                ops += self._label(text, (x, ry, label_w, cell_h), el.font_size, f"{where}.row_label")
            for c in range(el.columns):
                cell = (x + label_w + c * cell_w, ry, cell_w, cell_h)
                ops += self._cell(el, cell, cell_fill, stroke, {**row_ctx, "c": c}, where)
        return ops

    def _label(self, text: str, box: tuple[float, float, float, float], size: float, where: str) -> list[Op]:
        """A header or row label centred in its cell, shrunk to fit it."""
        if not text:
            return []
        lx, ly, lw, lh = box
        s = fit_line(
            text,
            "bold",
            lw - 2 * BONUS_PAD,  # 1 mm from the line on either side (1 pt left "Jugador 2" on it)
            self.measure,
            size=min(size, lh * 0.6),
            min_size=4.0,
            where=f"{where} {text[:40]!r}",
        )
        return [Text(lx + lw / 2, ly + lh / 2 - s * 0.34, text, s, font="bold", anchor="middle")]

    def _cell(
        self,
        el: GridElement,
        box: tuple[float, float, float, float],
        fill: str | None,
        stroke: str,
        context: Mapping[str, Any],
        where: str,
    ) -> list[Op]:
        """One cell to write in: its box, its circle and its bonus label in the corner."""
        cx, ry, cell_w, cell_h = box
        ops: list[Op] = [Rect(cx, ry, cell_w, cell_h, fill=fill, stroke=stroke, width=0.6)]
        if el.cell == "circle":
            r = min(cell_w, cell_h) * 0.36
            ops.append(Circle(cx + cell_w / 2, ry + cell_h / 2, r, fill=None, stroke="muted", width=0.6))
        text = self.render(el.bonus, context, f"{where}.bonus").strip() if el.bonus else ""
        if text:
            bs = fit_line(
                text,
                "bold",
                cell_w * 0.45 - BONUS_PAD,
                self.measure,
                size=min(cell_h * 0.32, el.font_size * 0.8),
                min_size=3.5,
                where=f"{where}.bonus {text[:40]!r}",
            )
            pad = min(BONUS_PAD, cell_w * 0.08, cell_h * 0.08)  # off the cell's border, inside its corner
            ops.append(Text(cx + cell_w - pad, ry + pad + bs * 0.14, text, bs, font="bold", anchor="end"))
        return ops


def ellipse(
    x: float, y: float, w: float, h: float, *, fill: str | None, stroke: str | None, width: float
) -> Op:
    """An ellipse filling the box (a Circle when it is round, else four Bezier quarters)."""
    if abs(w - h) < 1e-6:
        return Circle(x + w / 2, y + h / 2, w / 2, fill=fill, stroke=stroke, width=width)
    cx, cy, rx, ry = x + w / 2, y + h / 2, w / 2, h / 2
    kx, ky = rx * KAPPA, ry * KAPPA
    cmds: tuple[tuple[object, ...], ...] = (
        ("M", cx + rx, cy),
        ("C", cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
        ("C", cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
        ("C", cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
        ("C", cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
        ("Z",),
    )
    return Path(cmds, fill=fill, stroke=stroke, width=width)


def _centre(el: AnyElement, ops: Sequence[Op], w: float, h: float, where: str) -> tuple[float, float]:
    """The point an element turns about (op coordinates): its box's centre; a line's middle; a polygon's or a
    repeat's box (every copy's) centre."""
    x0, y0, x1, y1 = _extent(el, w, h, where)
    if isinstance(el, RepeatElement):
        shifts = [(op.x, op.y) for op in ops if isinstance(op, Place)] or [(0.0, 0.0)]
        xs = [v for dx, _ in shifts for v in (x0 + dx, x1 + dx)]
        ys = [v for _, dy in shifts for v in (y0 + dy, y1 + dy)]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return (x0 + x1) / 2, (y0 + y1) / 2


def _extent(el: AnyElement, w: float, h: float, where: str) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of an element as written (a repeat's: its first copy's)."""
    if isinstance(el, RepeatElement):
        return _extent(el.element, w, h, where)
    if isinstance(el, BoxElement):
        x, y, bw, bh = _box(el.x, el.y, el.w, el.h, w, h, where)
        return x, y, x + bw, y + bh
    if isinstance(el, LineElement):
        pts = [(_at(el.x, w), h - _at(el.y, h)), (_at(el.x2, w), h - _at(el.y2, h))]
    else:
        pts = [(_at(px, w), h - _at(py, h)) for px, py in el.points]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def _at(c: Coord, extent: float) -> float:
    value, pct = c
    return extent * value / 100.0 if pct else value


def _box(
    x: Coord, y: Coord, w: Coord, h: Coord, fw: float, fh: float, where: str = ""
) -> tuple[float, float, float, float]:
    """(left, bottom, width, height) in op coordinates from a top-left spec box; `where` names the element
    (its row, template and index) in the error."""
    bx, by, bw, bh = _at(x, fw), _at(y, fh), _at(w, fw), _at(h, fh)
    if bw <= 0 or bh <= 0 or not all(math.isfinite(v) for v in (bx, by, bw, bh)):
        raise LayoutError(
            f"{where + ': ' if where else ''}a box of {bw:.1f} x {bh:.1f} pt: width and height must "
            "be positive"
        )
    return bx, fh - by - bh, bw, bh


__all__ = ["FaceRenderer", "ellipse"]
