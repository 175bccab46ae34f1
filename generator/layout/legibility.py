"""The legibility checks over drawn pages: no string is printed below the `style.min_size` floor of its role,
and no small string (under 9 pt) has less than `style.min_contrast` (WCAG 2, default 4.5:1) against the
colour under it.

Composers shrink strings to fit their boxes (`fit_line`, `fit_block`, the rules summary); this check looks at
what is drawn, Place scales included, so a string shrunk below its floor is an error naming the component, the
language and the string id, whatever code drew it."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from generator.errors import LocatedLayoutError
from generator.layout.compose import Component
from generator.layout.geometry import Drawn, drawn
from generator.layout.ops import (
    INKS,
    Circle,
    Image,
    Op,
    Path,
    Place,
    Polygon,
    Rect,
    Text,
    Vector,
    fitted,
    is_inline_icon,
)
from generator.layout.text import Measure
from generator.layout.textfit import _IDENTITY, Box, Matrix, _apply_box, _mul, _place_matrix
from generator.spec.catalogs import Catalog
from generator.spec.style import MinSize
from generator.units import pt_text

_HEX = re.compile(r"#[0-9a-fA-F]{6}")

TOLERANCE = 0.01
"""Points a size may fall short of its floor (rounding of mm sizes)."""


@dataclass(frozen=True)
class Undersized:
    """One string drawn below its role's floor."""

    component: str
    text_id: str
    text: str
    role: str
    size: float
    floor: float

    def message(self, lang: str) -> str:
        """One line for the error."""
        return (
            f"{self.component} ({lang}): {self.text_id or '(no id)'} {self.text[:60]!r} is printed at "
            f"{pt_text(self.size)}, under the {self.role} floor {self.floor:g} pt "
            f"(style.min_size.{self.role}); "
            f"shorten the text, give it more room, or lower the floor"
        )


def _walk(ops: Sequence[Op], scale: float, out: list[tuple[Text, float]]) -> None:
    for op in ops:
        if isinstance(op, Place):
            _walk(op.ops, scale * op.scale, out)
        elif isinstance(op, Text) and op.text.strip():
            out.append((op, op.size * scale))


def undersized(components: Sequence[Component], floors: MinSize) -> list[Undersized]:
    """Every distinct string of `components` printed below the floor of its role (first place it is drawn)."""
    found: dict[tuple[str, str, str, str], Undersized] = {}
    for comp in components:
        texts: list[tuple[Text, float]] = []
        for page in comp.pages:
            _walk(page.ops, 1.0, texts)
        for op, size in texts:
            floor = floors.floor(op.role)
            if size < floor - TOLERANCE:
                key = (comp.id, op.text_id, op.text, op.role)
                if key not in found or size < found[key].size:
                    found[key] = Undersized(comp.id, op.text_id, op.text, op.role, size, floor)
    return list(found.values())


def check_min_sizes(
    components: Sequence[Component], floors: MinSize, where: str, catalog: Catalog | None, lang: str
) -> None:
    """Raise one LocatedLayoutError naming every string printed below its role's floor, each located at its
    catalog line when it has a text id (else at `where`, the kit)."""
    problems = []
    for u in undersized(components, floors):
        line = catalog.lines.get(u.text_id) if catalog is not None and u.text_id else None
        source = f"{catalog.path}:{line}: {u.text_id}" if catalog is not None and line is not None else where
        problems.append(f"{source}: {u.message(lang)}")
    if problems:
        raise LocatedLayoutError("\n".join(problems))


SMALL_TEXT = 9.0
"""Text under this size (points, as printed) must keep `style.min_contrast` against what is under it."""


def relative_luminance(colour: str) -> float | None:
    """WCAG 2 relative luminance of '#rrggbb' or a named ink; None for anything else."""
    value = INKS.get(colour, colour)
    if not _HEX.fullmatch(value):
        return None
    channels = [int(value[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast_ratio(fore: str, back: str) -> float | None:
    """WCAG 2 contrast ratio (1 to 21) of two colours; None when either is not a colour."""
    a, b = relative_luminance(fore), relative_luminance(back)
    if a is None or b is None:
        return None
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


@dataclass(frozen=True)
class LowContrast:
    """One small string whose colour is too close to the colour under it."""

    component: str
    text_id: str
    text: str
    size: float
    colour: str
    under: str
    ratio: float
    floor: float
    more: int = 0
    """How many other strings of the component are printed the same way (same size, colours and face)."""

    def message(self, lang: str) -> str:
        """One line for the error."""
        others = f" (and {self.more} more strings like it)" if self.more else ""
        return (
            f"{self.component} ({lang}): {self.text_id or '(no id)'} {self.text[:60]!r}{others} is printed "
            f"at "
            f"{pt_text(self.size)} in {self.colour} on {self.under}: contrast {self.ratio:.2f}:1, under "
            f"{self.floor:g}:1 for text under {SMALL_TEXT:g} pt (style.min_contrast); darken the text or "
            f"lighten what is under it"
        )


def _inside(points: Sequence[tuple[float, float]], x: float, y: float) -> bool:
    """Whether (x, y) lies inside the polygon `points` (even-odd rule)."""
    inside = False
    for (xa, ya), (xb, yb) in zip(points, [*points[1:], points[0]], strict=True):
        if (ya > y) != (yb > y) and x < xa + (y - ya) * (xb - xa) / (yb - ya):
            inside = not inside
    return inside


def _covers(item: Drawn, x: float, y: float) -> bool:
    """Whether the filled shape `item` covers the point (x, y): a circle by its radius, a polygon by its
    outline, anything else by its box."""
    x0, y0, x1, y1 = item.box
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    if item.clip is not None and not (
        item.clip[0] <= x <= item.clip[2] and item.clip[1] <= y <= item.clip[3]
    ):
        return False  # the shape runs past its Place's clip (a background into the bleed): not printed there
    if isinstance(item.op, Circle):
        cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
        return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    if isinstance(item.op, Polygon) and len(item.op.points) >= 3:
        a, b, c, d, e, f = item.matrix
        return _inside([(a * px + c * py + e, b * px + d * py + f) for px, py in item.op.points], x, y)
    return True


def _art_boxes(ops: Sequence[Op], m: Matrix = _IDENTITY) -> list[Box]:
    """Where the art of `ops` lands (Places followed), inline icons excepted."""
    out: list[Box] = []
    for op in ops:
        if isinstance(op, Place):
            out += _art_boxes(op.ops, _mul(m, _place_matrix(op)))
        elif isinstance(op, (Image, Vector)) and not is_inline_icon(op):
            x, y, w, h = fitted(op)
            out.append(_apply_box(m, (x, y, x + w, y + h)))
    return out


def _under(items: Sequence[Drawn], upto: int, x: float, y: float) -> str | None:
    """The colour drawn under (x, y) by the ops before `upto`: the last filled shape covering it, the paper
    when none."""
    for item in reversed(items[:upto]):
        op = item.op
        fill = getattr(op, "fill", None)
        if isinstance(op, (Rect, Circle, Polygon, Path)) and fill and _covers(item, x, y):
            return str(fill)
    return "paper"


def low_contrast(components: Sequence[Component], measure: Measure, min_ratio: float) -> list[LowContrast]:
    """The small strings (under SMALL_TEXT points, as printed) whose contrast ratio against the colour under
    the middle of their box is below `min_ratio`: the first of each component, size, face and pair of
    colours, with the count of the others."""
    named = INKS
    found: dict[tuple[str, ...], LowContrast] = {}
    for comp in components:
        for page in comp.pages:
            items = drawn(page.ops, measure)
            art = _art_boxes(page.ops)
            for n, item in enumerate(items):
                op = item.op
                if not isinstance(op, Text) or not op.text.strip():
                    continue
                size = op.size * math.hypot(item.matrix[0], item.matrix[1])
                if size >= SMALL_TEXT:
                    continue
                x0, y0, x1, y1 = item.box
                cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
                if any(a[0] <= cx <= a[2] and a[1] <= cy <= a[3] for a in art):
                    continue  # text over art: the art checks read its pixels
                under = _under(items, n, cx, cy)
                if under is None:
                    continue
                ratio = contrast_ratio(named.get(op.fill, op.fill), named.get(under, under))
                fill = named.get(op.fill, op.fill)
                key = (comp.id, fill, named.get(under, under), f"{size:.2f}", op.font)
                if ratio is None or ratio >= min_ratio - 0.005:
                    continue
                if key in found:
                    if op.text != found[key].text:
                        found[key] = dataclasses.replace(found[key], more=found[key].more + 1)
                else:
                    found[key] = LowContrast(
                        comp.id,
                        op.text_id,
                        op.text,
                        size,
                        named.get(op.fill, op.fill),
                        named.get(under, under),
                        ratio,
                        min_ratio,
                    )
    return list(found.values())


def check_contrast(
    components: Sequence[Component],
    measure: Measure,
    min_ratio: float,
    where: str,
    catalog: Catalog | None,
    lang: str,
) -> None:
    """Raise one LocatedLayoutError naming every small string below `min_ratio` contrast, each located at its
    catalog line when it has a text id (else at `where`, the kit)."""
    problems = []
    for p in low_contrast(components, measure, min_ratio):
        line = catalog.lines.get(p.text_id) if catalog is not None and p.text_id else None
        source = f"{catalog.path}:{line}: {p.text_id}" if catalog is not None and line is not None else where
        problems.append(f"{source}: {p.message(lang)}")
    if problems:
        raise LocatedLayoutError("\n".join(problems))
