"""Peak Dice: score sheet pad, printable dice (cube nets and stickers for blank dice) and rules summary.

Every rule figure printed (circles per row, peak lines, miss boxes and their values, sums, examples, the
numbers of the rule texts) is read from `ctx.extras["figures"]`, what the game package's `print_data`
computed from the spec by the rules (figures.py); this module only draws them, with the spec's colours and
dice faces. Generated sheet variants arrive in `ctx.extras["variants"]` (the same print data)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.games.peak_dice.layout_colours import (
    INK_DARK,
    colour_name,
    ink_of,
)
from generator.games.peak_dice.layout_dice import compose_dice_nets, compose_dice_stickers, die_face_ops
from generator.games.peak_dice.layout_sheet import SHEET_ICON, SHEET_LOGO, compose_sheet
from generator.layout.art import RULES_LOGO, Slot, slot_art
from generator.layout.compose import Builders, Context, figures_of, summary_sheet
from generator.layout.ops import Circle, Face, Op, Rect, Text
from generator.layout.shapes import lighten
from generator.layout.summary import paragraph, section, summary_faces
from generator.layout.text import circle_text, fit_line
from generator.units import mm

# ---------------------------------------------------------------- numbers for the rule texts
# Figures that follow from the rules (sum range, example row and column, miss penalties) come from the game
# package through the build (print_data()["figures"]): layout never restates a rule.

_figures = figures_of("peak_dice")


TEXT_FIGURES = (
    "rows",
    "others",
    "row_length",
    "circles_total",
    "peak_after",
    "peak_uniform",
    "falling",
    "dice_count",
    "coloured_dice",
    "white_dice",
    "mixed_dice",
    "rerolls",
    "players_min",
    "players_max",
    "sum_min",
    "sum_max",
    "miss_boxes",
    "miss_max",
    "miss_next",
    "example_column",
    "example_score",
)
"""The rule figures the rule texts may name, each passed through as figures.py computed it."""


SLOTS: dict[str, tuple[Slot, ...]] = {
    "score_sheet": (SHEET_LOGO, SHEET_ICON),
    "rules": (RULES_LOGO,),
}
"""The art slots a kit may fill (components.<id>.art.<slot>); an empty slot keeps the drawing. Peak Dice has
no cards, so no back or background slot: dice faces keep their colour, pattern and pips (they carry the
rules)."""


def template_context(game: Any, extras: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Numbers the rule templates may use: every one is a figure of the game package's print data
    (figures.py computes them from the spec by the rules); only their printed form is chosen here."""
    fig = _figures(extras)
    out = {k: fig[k] for k in TEXT_FIGURES}
    out["miss_examples"] = [f"−{k}" for k in fig["miss_examples"]]
    return out


# ---------------------------------------------------------------- rules summary


def _example_row_ops(ctx: Context, x: float, top: float, width: float) -> tuple[list[Op], float]:
    """The first row filled with a legal example: rising to the peak line, falling after it."""
    game = ctx.kit.game
    fig = _figures(ctx.extras)
    values = list(fig["example_row"])
    if not values:
        return [], top
    c = game.colours[0]
    n = fig["row_length"]
    cw = min(mm(9), width / n)
    d = cw * 0.82
    cy = top - cw / 2
    ops: list[Op] = [Rect(x, top - cw, n * cw, cw, fill=lighten(c.colour, 0.82), stroke="ink", width=0.6)]
    for k, v in enumerate(values):
        cx = x + (k + 0.5) * cw
        ops.append(Circle(cx, cy, d / 2, fill="#ffffff", stroke=ink_of(c.colour), width=1.2))
        ops.append(circle_text(str(v), cx, cy, d / 2, ctx.measure, size=d * 0.5, stroke=1.2, fill=INK_DARK))
    peak = fig["peak_after"]
    if peak < n:
        px = x + peak * cw
        ops.append(Rect(px - mm(0.5), top - cw, mm(1), cw, fill=INK_DARK, stroke=None))
    return ops, top - cw - mm(3)


EXAMPLE_CELL = mm(8)
"""Side of a cell of the rules' worked column: its circles' two-digit numbers stay at the number floor."""


def _example_column_ops(ctx: Context, x: float, top: float) -> tuple[list[Op], float, float]:
    """The scoring example: one column of circles and the square holding its second lowest value."""
    game = ctx.kit.game
    fig = _figures(ctx.extras)
    values = list(fig["example_column"])
    cw = EXAMPLE_CELL
    ops: list[Op] = []
    for r, (c, v) in enumerate(zip(game.colours, values, strict=False)):
        cy = top - (r + 0.5) * cw
        ops.append(Rect(x, top - (r + 1) * cw, cw, cw, fill=lighten(c.colour, 0.82), stroke="ink", width=0.4))
        ops.append(Circle(x + cw / 2, cy, cw * 0.4, fill="#ffffff", stroke=ink_of(c.colour), width=1))
        ops.append(circle_text(str(v), x + cw / 2, cy, cw * 0.4, ctx.measure, size=cw * 0.4, stroke=1.0))
    score = fig["example_score"]
    sy = top - len(values) * cw - mm(1) - cw
    ops.append(Rect(x, sy, cw, cw, fill="#ffffff", stroke="ink", width=1.4))
    ops.append(Text(x + cw / 2, sy + cw * 0.3, str(score), cw * 0.45, font="bold", anchor="middle"))
    return ops, cw, sy


def _dice_legend(ctx: Context, x: float, top: float, width: float) -> tuple[list[Op], float]:
    """Every die as a small face in its colour and pattern with its name below."""
    game = ctx.kit.game
    s = mm(7)
    step = min(mm(17), width / max(1, len(game.dice)))
    ops: list[Op] = []
    for k, die in enumerate(game.dice):
        faces = die.expanded()
        fx = x + k * step + (step - s) / 2
        ops += die_face_ops(
            ctx,
            faces[0].colour,
            max(f.value for f in faces if f.value <= 6)
            if any(f.value <= 6 for f in faces)
            else faces[0].value,
            fx,
            top - s,
            s,
        )
        ops.append(Rect(fx, top - s, s, s, fill=None, stroke="ink", width=0.5))
        colours = {f.colour for f in faces}
        name = colour_name(ctx, faces[0].colour) if len(colours) == 1 else ctx.texts("dice.mixed")
        ns = fit_line(
            name,
            "regular",
            step - mm(1),
            ctx.measure,
            size=mm(2.4),
            min_size=ctx.kit.style.min_size.fine,
            where=f"colour name ({ctx.lang})",
        )
        ops.append(
            Text(x + k * step + step / 2, top - s - mm(1) - ns * 0.8, name, ns, anchor="middle", role="fine")
        )
    return ops, top - s - mm(5)


def rules_face(ctx: Context, w: float, h: float) -> list[Face]:
    """The rules summary, every figure from the spec (templates filled with template_context)."""
    return summary_faces(ctx, w, h, _rules_body, band=INK_DARK, logo=slot_art(ctx, "rules", RULES_LOGO, w, h))


def _rules_body(ctx: Context, pad: float, top: float, body_w: float, size: float) -> tuple[list[Op], float]:
    ops: list[Op] = []
    y = top
    rules = ctx.kit.game.rules  # each house-rule switch picks the paragraph that states its reading
    sections = [
        ("rules.dice.title", "rules.dice"),
        ("rules.turn.title", f"rules.turn.{rules.step_b}"),
        ("rules.write.title", "rules.write"),
        ("rules.score.title", f"rules.score.{rules.column_score}"),
        ("rules.miss.title", f"rules.miss.{rules.miss_track_full}"),
        ("rules.end.title", f"rules.end.{rules.final_turn_miss}"),
    ]
    if not _figures(ctx.extras)["peak_uniform"] or ctx.extras.get("variants"):
        sections.append(("rules.variants.title", "rules.variants"))
    for head_id, body_id in sections:
        text_w = body_w
        if body_id.startswith("rules.score."):  # a worked column beside the text
            col_ops, cw, low = _example_column_ops(
                ctx, pad + body_w - EXAMPLE_CELL, y - size * 1.12 * 1.45 + mm(1)
            )
            ops += col_ops
            text_w = body_w - cw - mm(4)
        drawn, y = section(ctx, head_id, body_id, pad, y, text_w, size, INK_DARK)
        ops += drawn
        if body_id.startswith("rules.score."):
            y = min(y, low - mm(2))
        if body_id == "rules.dice":
            legend, y = _dice_legend(ctx, pad, y - mm(1), body_w)
            ops += legend
        if body_id == "rules.write":
            row, y = _example_row_ops(ctx, pad, y, body_w)
            ops += row
        if body_id.startswith("rules.end."):  # the end's second switch: a sheet filled in step B
            tid = f"rules.end.sheet_full_in_b.{rules.sheet_full_in_b}"
            y += size * 0.6  # the paragraph continues the section above (section() left a gap under it)
            drawn, height = paragraph(ctx, tid, ctx.texts(tid), pad, y, body_w, size)
            ops += drawn
            y -= height + size * 0.6
    return ops, y


BUILDERS = Builders(
    "Peak Dice",
    {
        "score_sheet": compose_sheet,
        "dice_nets": compose_dice_nets,
        "dice_stickers": compose_dice_stickers,
        "rules": summary_sheet(rules_face),
    },
)
compose = BUILDERS.compose
component_ids = BUILDERS.component_ids


__all__ = ["compose", "template_context", "component_ids"]
