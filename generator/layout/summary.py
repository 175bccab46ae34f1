"""The rules summary every kit prints: a title band, sections of localized rule text set at the largest
size at which everything fits, and the kit's version. Games add their own pictures between sections."""

from __future__ import annotations

from collections.abc import Callable

from generator.errors import LayoutError
from generator.layout.compose import Context
from generator.layout.ops import Face, Op, Rect, Text
from generator.layout.text import block_ops, fit_block, fit_line
from generator.units import mm

Body = Callable[[Context, float, float, float, float], tuple[list[Op], float]]
"""(ctx, x, top, width, size) -> (ops, y below the last line)."""


def section(ctx: Context, head_id: str, body_id: str, x: float, y: float, width: float, size: float,
            colour: str, *, gap: float = 0.6) -> tuple[list[Op], float]:
    """A bold heading and its wrapped paragraph; returns the ops and the y under them."""
    hs = size * 1.12
    ops: list[Op] = [Text(x, y - hs, ctx.texts(head_id), hs, font="bold", fill=colour, text_id=head_id)]
    y -= hs * 1.45
    fitted = fit_block(ctx.texts(body_id), "regular", width, 10_000, ctx.measure, size=size, min_size=size,
                       where=f"{body_id} ({ctx.lang})")
    ops += block_ops(fitted, x, y, text_id=body_id)
    return ops, y - fitted.height - size * gap


def summary_face(ctx: Context, w: float, h: float, body: Body, *, band: str, pad: float = mm(6.5),
                 size: float = mm(3.6), min_size: float = 5.5, bottom: float = mm(9)) -> Face:
    """The whole summary face: the body is drawn at the largest size (in 0.25 pt steps) that ends above
    `bottom`; below `min_size` the texts are too long for the component, a LayoutError naming the locale."""
    t = ctx.texts
    ops: list[Op] = [Rect(0, 0, w, h, fill="#ffffff", stroke="muted", width=0.4)]
    title = t(ctx.kit.meta.title)
    ts = fit_line(title, "bold", w * 0.55, ctx.measure, size=mm(7), min_size=9, where=f"rules title ({ctx.lang})")
    ops.append(Rect(0, h - pad - ts * 1.4, w, ts * 1.4 + pad, fill=band, stroke=None))
    ops.append(Text(pad, h - pad - ts * 0.95, title, ts, font="bold", fill="#ffffff", text_id=ctx.kit.meta.title))
    if t.has("rules.subtitle"):
        sub = t("rules.subtitle")
        ss = fit_line(sub, "regular", w * 0.4, ctx.measure, size=mm(3), min_size=5, where=f"rules.subtitle ({ctx.lang})")
        ops.append(Text(w - pad, h - pad - ts * 0.95, sub, ss, fill="#ffffff", anchor="end", text_id="rules.subtitle"))
    top = h - pad - ts * 1.4 - mm(4.5)
    s = size
    while True:
        drawn, y = body(ctx, pad, top, w - 2 * pad, s)
        if y >= bottom:
            break
        if s - 0.25 < min_size:
            raise LayoutError(f"rules summary ({ctx.lang}) runs off the page even at {min_size} pt; "
                              f"shorten the texts or give the component more room (per_page, landscape)")
        s -= 0.25
    ops += drawn
    # the footer names the game as the reader knows it (the localized title), not the kit's internal id
    ops.append(Text(w - pad, mm(3.5), f"{title} v{ctx.kit.meta.version}", mm(2.2), fill="muted", anchor="end",
                    text_id=ctx.kit.meta.title))
    return Face("rules", w, h, tuple(ops), 0.0)
