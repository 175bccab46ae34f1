"""Art slots: each game's composer declares, as data, the named boxes on its faces that a kit may fill with
its own art (`components.<id>.art.<slot>`); `pnpkit list --slots` and `pnpkit schema` read the same
declaration. A composer asks `slot_art` for the op that draws a filled slot and keeps its own drawing when the
slot is empty. The print checks on placed art (`art_problems`: resolution, bleed coverage, an opaque bleed
band) read the ops and the art's own pixels."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from generator.errors import LayoutError
from generator.layout.compose import Context
from generator.layout.ops import Image, Op, Page, Vector, art_op, fitted, iter_art
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
        """How art fills this slot when the kit names no `fit`: a back or background fills its box (cover); a
        logo, an icon or any other mark is drawn whole (contain), never cropped."""
        return "cover" if self.name in ("back", "background") else "contain"

    def box_on(self, width: float, height: float) -> Box:
        """The box in points on a face of `width` x `height` points."""
        x, y, w, h = self.box
        return x * width, y * height, w * width, h * height


Slots = Mapping[str, Sequence[Slot]]
"""A composer's SLOTS: component id -> its slots."""

BACKGROUND_SLOTS = frozenset({"back", "background", "image"})
"""Slots whose art is its face's background: strings and shapes may sit on it (the contrast check judges
what is drawn there). Art of any other slot meeting a string or a shape is a collision (layout/collide.py).
`image` is a deck template's picture element: the template orders its layers itself."""

FADED_OPACITY = 0.25
"""The most opacity a raster drawn as a faded backdrop keeps (`slot_art(faded=True)`): a raster is never
tinted, so it is faded instead."""

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
    faded: bool = False,
) -> Op | None:
    """The op drawing the kit's art in `slot` of component `cid` on a face of `width` x `height` (its box, or
    the given `box` in points, e.g. wherever a suit symbol goes), None when the kit leaves the slot empty.
    `values` fill the path's {field}s; `colour` is what `tint: true` paints in. `faded`: the art is a pale
    backdrop the composer prints on (a card's big number): an SVG is painted in `colour` whatever the kit's
    `tint` says, a raster drawn at FADED_OPACITY at most."""
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
    band = (0.0, 0.0, 0.0, 0.0)
    if spec.bleed and bleed > 0:  # run into the bleed on every side where the box touches the trim
        band = (
            bleed if x <= 1e-6 else 0.0,
            bleed if y <= 1e-6 else 0.0,
            bleed if x + w >= width - 1e-6 else 0.0,
            bleed if y + h >= height - 1e-6 else 0.0,
        )
        x, y, w, h = x - band[0], y - band[1], w + band[0] + band[2], h + band[1] + band[3]
    tint = colour if spec.tint is True else (spec.tint if isinstance(spec.tint, str) else None)
    opacity = spec.opacity
    if faded and asset.is_vector:
        tint = colour or tint
    elif faded:
        opacity = min(opacity, FADED_OPACITY)
    return art_op(
        asset,
        x,
        y,
        w,
        h,
        fit=spec.fit or slot.default_fit,
        opacity=opacity,
        tint=tint,
        slot=slot.name,
        bleed=spec.bleed,
        band=band,
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


_SIDES = ("left", "bottom", "right", "top")


def _clear_band(op: Image | Vector) -> str:
    """Where the bleed band of full-bleed raster art holds pixels that are not opaque ('' where none do):
    '12 % of the 3 mm band on the left, top'. The band is read from the file's pixels where the art lands."""
    fx, fy, fw, fh = fitted(op)
    if fw <= 0 or fh <= 0:
        return ""
    x0, y0, x1, y1 = op.x, op.y, op.x + op.w, op.y + op.h
    left, bottom, right, top = op.band
    bands = (
        (x0, y0, x0 + left, y1),
        (x0, y0, x1, y0 + bottom),
        (x1 - right, y0, x1, y1),
        (x0, y1 - top, x1, y1),
    )
    found: list[tuple[str, float]] = []
    for side, width, (bx0, by0, bx1, by1) in zip(_SIDES, op.band, bands, strict=True):
        if width <= 0:
            continue
        bx0, by0, bx1, by1 = max(bx0, fx), max(by0, fy), min(bx1, fx + fw), min(by1, fy + fh)
        if bx1 <= bx0 or by1 <= by0:
            continue
        share = op.asset.transparent_share(
            ((bx0 - fx) / fw, 1 - (by1 - fy) / fh, (bx1 - fx) / fw, 1 - (by0 - fy) / fh)
        )
        if share > 0:
            found.append((side, share))
    return band_where(found, max(op.band))


def band_where(found: Sequence[tuple[str, float]], width: float) -> str:
    """'12 % of the 3.0 mm band on the left, top' for the (side, share of it not opaque) found ('' for
    none)."""
    if not found:
        return ""
    worst = max(share for _, share in found)
    shown = f"{worst * 100:.0f} %" if worst >= 0.005 else "under 1 %"
    return f"{shown} of the {mm_text(width)} band on the {', '.join(side for side, _ in found)}"


def band_message(shown: str, where: str) -> str:
    """The error for art whose bleed band is not opaque (`where`: `band_where`'s answer)."""
    return (
        f"{shown}: transparent pixels in the bleed band ({where}) print as white gutters where the cut "
        f"strays; make the art opaque out to its edges, or drop `bleed: true`"
    )


def art_problems(pages: Sequence[Page], dpi_warn: int, dpi_min: int) -> list[tuple[str, str, bool]]:
    """(slot, message, is_error) for the art placed on `pages`: raster art printed below `dpi_warn` (a
    warning) or `dpi_min` (an error) dots per inch, art that must cover its box (bleed) but does not, and
    full-bleed art whose bleed band holds transparent pixels (errors). Each problem once per slot and file."""
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
            if op.bleed and any(op.band) and (op.slot, op.asset.shown, "band") not in seen:
                clear = _clear_band(op)
                if clear:
                    seen.add((op.slot, op.asset.shown, "band"))
                    out.append((op.slot, band_message(op.asset.shown, clear), True))
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


__all__ = [
    "BACKGROUND_SLOTS",
    "FULL",
    "band_message",
    "band_where",
    "RULES_LOGO",
    "Slot",
    "Slots",
    "art_or",
    "art_problems",
    "slot_art",
]
