"""Pig's printed pieces: a score sheet (a column per player, a line per turn for the running total) and a
rules summary. Every number printed comes from the spec through `template_context`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.layout.compose import Builders, Component, Context, sheet_component, summary_sheet
from generator.layout.ops import Face, Op, Rect, Text
from generator.layout.summary import section, summary_face
from generator.layout.text import block_ops, fit_block, fit_line
from generator.units import mm

INK = "#7a2e4a"
HEAD = "#f3dde6"


def template_context(game: Any, extras: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Numbers the rule templates may use, all from the spec."""
    return {
        "target": game.target,
        "die_sides": game.die_sides,
        "bust_face": game.bust_face,
        "players_min": game.players.min,
        "players_max": game.players.max,
    }


def sheet_face(ctx: Context, w: float, h: float) -> Face:
    """Title, the goal line, then a grid: a turn number column and one running-total column per player."""
    game, t, pad = ctx.kit.game, ctx.texts, mm(8)
    ops: list[Op] = [Rect(0, 0, w, h, fill="#ffffff", stroke="muted", width=0.4)]
    title = t(ctx.kit.meta.title)
    ts = fit_line(
        title, "bold", w - 2 * pad, ctx.measure, size=mm(8), min_size=10, where=f"sheet title ({ctx.lang})"
    )
    y = h - pad - ts * 0.8
    ops.append(Text(pad, y, title, ts, font="bold", fill=INK, text_id=ctx.kit.meta.title))
    goal = fit_block(
        t("sheet.goal"),
        "regular",
        w - 2 * pad,
        mm(14),
        ctx.measure,
        size=mm(3.6),
        min_size=6,
        where=f"sheet.goal ({ctx.lang})",
    )
    ops += block_ops(goal, pad, y - mm(4), text_id="sheet.goal")
    top = y - mm(6) - goal.height
    turn_w = mm(14)
    col_w = (w - 2 * pad - turn_w) / game.players.max
    row_h = (top - pad) / (game.sheet_rows + 1)
    size = min(row_h * 0.5, mm(4))
    head = [("sheet.turn", t("sheet.turn"), turn_w)] + [
        ("sheet.player", t("sheet.player", n=p + 1), col_w) for p in range(game.players.max)
    ]
    x = pad
    for tid, text, cw in head:
        ops.append(Rect(x, top - row_h, cw, row_h, fill=HEAD, stroke="ink", width=0.8))
        s = fit_line(
            text, "bold", cw - mm(2), ctx.measure, size=size, min_size=5, where=f"{tid} ({ctx.lang})"
        )
        ops.append(
            Text(x + cw / 2, top - row_h / 2 - s * 0.35, text, s, font="bold", anchor="middle", text_id=tid)
        )
        x += cw
    for r in range(game.sheet_rows):
        ry = top - (r + 2) * row_h
        ops.append(Rect(pad, ry, turn_w, row_h, fill=HEAD, stroke="ink", width=0.5))
        ops.append(
            Text(
                pad + turn_w / 2,
                ry + row_h / 2 - size * 0.35,
                str(r + 1),
                size,
                fill="muted",
                anchor="middle",
            )
        )
        for p in range(game.players.max):
            ops.append(
                Rect(pad + turn_w + p * col_w, ry, col_w, row_h, fill="#ffffff", stroke="ink", width=0.5)
            )
    return Face("sheet", w, h, tuple(ops), 0.0)


def _rules_body(ctx: Context, pad: float, top: float, body_w: float, size: float) -> tuple[list[Op], float]:
    ops: list[Op] = []
    y = top
    for part in ("turn", "bust", "end"):
        drawn, y = section(ctx, f"rules.{part}.title", f"rules.{part}", pad, y, body_w, size, INK)
        ops += drawn
    return ops, y


def compose_sheet(ctx: Context, cid: str) -> Component:
    """The score pad: one sheet per page by default, `copies` pages."""
    return sheet_component(ctx, cid, sheet_face, landscape=False, per_page=1)


BUILDERS = Builders(
    "Pig",
    {
        "score_sheet": compose_sheet,
        "rules": summary_sheet(lambda c, w, h: summary_face(c, w, h, _rules_body, band=INK)),
    },
)
compose = BUILDERS.compose
component_ids = BUILDERS.component_ids
