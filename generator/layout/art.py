"""Art slots: each game's composer declares, as data, the named boxes on its faces that a kit may fill with its
own art (`components.<id>.art.<slot>`); `pnpkit list --slots` and `pnpkit schema` read the same declaration.
A composer asks `slot_art` for the op that draws a filled slot and keeps its own drawing when the slot is empty.
The print checks on placed art (`art_problems`: resolution, bleed coverage) read the ops alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from generator.errors import LayoutError
from generator.layout.compose import Context
from generator.layout.ops import Image, Op, Page, Vector, art_op, fitted, iter_art

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Slot:
    """One art slot of a component: its name, the face it is on, its box as fractions of that face's trim
    (x, y, w, h from the bottom-left) and the face data a path may name as {field}."""

    name: str
    face: str
    box: Box
    fields: tuple[str, ...] = ()
    what: str = ""
    """What the art replaces, for people (list --slots, schema)."""

    def box_on(self, width: float, height: float) -> Box:
        """The box in points on a face of `width` x `height` points."""
        x, y, w, h = self.box
        return x * width, y * height, w * width, h * height


Slots = Mapping[str, Sequence[Slot]]
"""A composer's SLOTS: component id -> its slots."""

FULL: Box = (0.0, 0.0, 1.0, 1.0)


def slot_art(ctx: Context, cid: str, slot: Slot, width: float, height: float, *, bleed: float = 0.0,
             values: Mapping[str, object] | None = None, box: Box | None = None,
             colour: str | None = None) -> Op | None:
    """The op drawing the kit's art in `slot` of component `cid` on a face of `width` x `height` (its box, or the
    given `box` in points, e.g. wherever a suit symbol goes), None when the kit leaves the slot empty.
    `values` fill the path's {field}s; `colour` is what `tint: true` paints in."""
    if ctx.kit.art is None:
        return None
    filled = ctx.kit.art.get(cid, slot.name)
    if filled is None:
        return None
    asset = filled.pick(values or {})
    if asset is None:
        got = ", ".join(f"{k}={v}" for k, v in sorted((values or {}).items()))
        raise LayoutError(f"{ctx.kit.display}:{filled.line or ''}: components.{cid}.art.{slot.name}: no file "
                          f"{filled.spec.path!r} for {got or 'this face'}")
    x, y, w, h = box if box is not None else slot.box_on(width, height)
    spec = filled.spec
    if spec.bleed and bleed > 0:  # run into the bleed on every side where the box touches the trim
        x0 = x - bleed if x <= 1e-6 else x
        y0 = y - bleed if y <= 1e-6 else y
        x1 = x + w + bleed if x + w >= width - 1e-6 else x + w
        y1 = y + h + bleed if y + h >= height - 1e-6 else y + h
        x, y, w, h = x0, y0, x1 - x0, y1 - y0
    tint = colour if spec.tint is True else (spec.tint if isinstance(spec.tint, str) else None)
    return art_op(asset, x, y, w, h, fit=spec.fit, opacity=spec.opacity, tint=tint, slot=slot.name,
                  bleed=spec.bleed)


def art_problems(pages: Sequence[Page], dpi_warn: int, dpi_min: int, where: str) -> tuple[list[str], list[str]]:
    """(warnings, errors) of the art placed on `pages`: raster art printed below `dpi_warn` / `dpi_min` dots per
    inch, and art that must cover its box (bleed) but does not."""
    warnings: list[str] = []
    errors: list[str] = []
    seen: set[tuple[str, str, int]] = set()
    for page in pages:
        for op, scale in iter_art(page.ops):
            x, y, w, h = fitted(op)
            if op.bleed and (x > op.x + 0.05 or y > op.y + 0.05 or x + w < op.x + op.w - 0.05
                             or y + h < op.y + op.h - 0.05):
                msg = (f"{where}: art.{op.slot} {op.asset.shown}: full-bleed art does not cover the bleed "
                       f"(fit: {op.fit} leaves {max(x - op.x, y - op.y):.1f} pt uncovered); use fit: cover or stretch")
                key = (msg, "bleed", 0)
                if key not in seen:
                    seen.add(key)
                    errors.append(msg)
            if isinstance(op, Image) and w > 0 and h > 0:
                dpi = min(op.asset.width / (w * scale / 72), op.asset.height / (h * scale / 72))
                if dpi < dpi_warn:
                    too_low = dpi < dpi_min
                    key = (op.asset.shown, op.slot, int(too_low))
                    if key in seen:
                        continue
                    seen.add(key)
                    limit = dpi_min if too_low else dpi_warn
                    msg = (f"{where}: art.{op.slot} {op.asset.shown}: {op.asset.width:.0f}x{op.asset.height:.0f} px "
                           f"printed at {w * scale / 72 * 25.4:.1f}x{h * scale / 72 * 25.4:.1f} mm is {dpi:.0f} dpi, "
                           f"under print.art_dpi_{'min' if too_low else 'warn'} ({limit} dpi)")
                    (errors if too_low else warnings).append(msg)
    return warnings, errors


__all__ = ["FULL", "Slot", "Slots", "Vector", "art_problems", "slot_art"]
