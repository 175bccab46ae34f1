"""Art slots: each game's composer declares, as data, the named boxes on its faces that a kit may fill with
its own art (`components.<id>.art.<slot>`); `pnpkit list --slots` and `pnpkit schema` read the same
declaration. A composer asks `slot_art` for the op that draws a filled slot and keeps its own drawing when the
slot is empty. The print checks on placed art (`art_problems`: resolution, bleed coverage) read the ops
alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from generator.errors import LayoutError
from generator.layout.compose import Context
from generator.layout.ops import Image, Op, Page, art_op, fitted, iter_art
from generator.spec.assets import Fit
from generator.units import mm_text

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

    @property
    def default_fit(self) -> Fit:
        """How art fills this slot when the kit names no `fit`: a logo whole (contain), anything else filling
        its box (cover)."""
        return "contain" if self.name == "logo" else "cover"

    def box_on(self, width: float, height: float) -> Box:
        """The box in points on a face of `width` x `height` points."""
        x, y, w, h = self.box
        return x * width, y * height, w * width, h * height


Slots = Mapping[str, Sequence[Slot]]
"""A composer's SLOTS: component id -> its slots."""

FULL: Box = (0.0, 0.0, 1.0, 1.0)
RULES_LOGO = Slot(
    "logo", "sheet", (0.035, 0.922, 0.5, 0.068), (), "the kit's title in the rules summary's band"
)
"""The logo slot of every rules summary (layout/summary.py draws its band the same for every game)."""


def slot_art(
    ctx: Context,
    cid: str,
    slot: Slot,
    width: float,
    height: float,
    *,
    bleed: float = 0.0,
    values: Mapping[str, object] | None = None,
    box: Box | None = None,
    colour: str | None = None,
) -> Op | None:
    """The op drawing the kit's art in `slot` of component `cid` on a face of `width` x `height` (its box, or
    the given `box` in points, e.g. wherever a suit symbol goes), None when the kit leaves the slot empty.
    `values` fill the path's {field}s; `colour` is what `tint: true` paints in."""
    if ctx.kit.art is None:
        return None
    filled = ctx.kit.art.get(cid, slot.name)
    if filled is None:
        return None
    asset = filled.pick(values or {})
    if asset is None:
        got = ", ".join(f"{k}={v}" for k, v in sorted((values or {}).items()))
        raise LayoutError(
            f"{ctx.kit.display}:{filled.line or ''}: components.{cid}.art.{slot.name}: no file "
            f"{filled.spec.path!r} for {got or 'this face'}"
        )
    x, y, w, h = box if box is not None else slot.box_on(width, height)
    spec = filled.spec
    if spec.bleed and bleed > 0:  # run into the bleed on every side where the box touches the trim
        x0 = x - bleed if x <= 1e-6 else x
        y0 = y - bleed if y <= 1e-6 else y
        x1 = x + w + bleed if x + w >= width - 1e-6 else x + w
        y1 = y + h + bleed if y + h >= height - 1e-6 else y + h
        x, y, w, h = x0, y0, x1 - x0, y1 - y0
    tint = colour if spec.tint is True else (spec.tint if isinstance(spec.tint, str) else None)
    return art_op(
        asset,
        x,
        y,
        w,
        h,
        fit=spec.fit or slot.default_fit,
        opacity=spec.opacity,
        tint=tint,
        slot=slot.name,
        bleed=spec.bleed,
    )


def art_or(
    ctx: Context,
    cid: str,
    slot: Slot,
    cx: float,
    cy: float,
    r: float,
    drawing: Sequence[Op],
    *,
    values: Mapping[str, object] | None = None,
    colour: str | None = None,
) -> list[Op]:
    """The kit's art for `slot` in the square of half-side `r` around (cx, cy) (where a symbol goes), else the
    composer's own `drawing` of it."""
    art = slot_art(ctx, cid, slot, 0, 0, values=values, box=(cx - r, cy - r, 2 * r, 2 * r), colour=colour)
    return [art] if art is not None else list(drawing)


def art_problems(pages: Sequence[Page], dpi_warn: int, dpi_min: int) -> list[tuple[str, str, bool]]:
    """(slot, message, is_error) for the art placed on `pages`: raster art printed below `dpi_warn` (a
    warning) or `dpi_min` (an error) dots per inch, and art that must cover its box (bleed) but does not (an
    error). Each problem once per slot and file."""
    out: list[tuple[str, str, bool]] = []
    seen: set[tuple[str, str, str]] = set()
    for page in pages:
        for op, scale in iter_art(page.ops):
            x, y, w, h = fitted(op)
            gap = max(x - op.x, y - op.y, op.x + op.w - x - w, op.y + op.h - y - h)
            if op.bleed and gap > 0.05 and (op.slot, op.asset.shown, "bleed") not in seen:
                seen.add((op.slot, op.asset.shown, "bleed"))
                out.append(
                    (
                        op.slot,
                        f"{op.asset.shown}: full-bleed art does not cover the bleed (fit: {op.fit} "
                        f"leaves {mm_text(gap)} uncovered); use fit: cover or stretch",
                        True,
                    )
                )
            if isinstance(op, Image) and w > 0 and h > 0:
                dpi = min(op.asset.width / (w * scale / 72), op.asset.height / (h * scale / 72))
                too_low = dpi < dpi_min
                if dpi >= dpi_warn or (op.slot, op.asset.shown, str(too_low)) in seen:
                    continue
                seen.add((op.slot, op.asset.shown, str(too_low)))
                limit = (
                    f"print.art_dpi_min ({dpi_min} dpi)"
                    if too_low
                    else f"print.art_dpi_warn ({dpi_warn} dpi)"
                )
                out.append(
                    (
                        op.slot,
                        f"{op.asset.shown}: {op.asset.width:.0f}x{op.asset.height:.0f} px printed at "
                        f"{w * scale / 72 * 25.4:.1f}x{h * scale / 72 * 25.4:.1f} mm is {dpi:.0f} dpi, "
                        f"under {limit}",
                        too_low,
                    )
                )
    return out


__all__ = ["FULL", "RULES_LOGO", "Slot", "Slots", "art_or", "art_problems", "slot_art"]
