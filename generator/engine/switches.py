"""House-rule switches: the balance effect of flipping each one, side by side with the kit as specified.

A game spec with a `rules` model (the `game.rules:` section) has switches: its bool fields and its Literal
(choice) fields; numeric fields are figures, not switches, and are skipped. For each switch and each other
value, the spec is copied with that one value changed and the game's own `balance_report` runs with a modest
number of games; the rows compare the standard `headline` per player count (score mean, seat shares on like
tables, game length). This is a description of what a house rule does, not a verdict: no tolerance is judged.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, get_args, get_origin

from pydantic import BaseModel

if TYPE_CHECKING:
    from generator.engine.report import BalanceReport, Headline, Table


def switch_values(rules: BaseModel) -> list[tuple[str, Any, list[Any]]]:
    """(field, current value, other values) for each bool / Literal field of a rules model, in field order."""
    out: list[tuple[str, Any, list[Any]]] = []
    hints = typing.get_type_hints(type(rules))
    for name in type(rules).model_fields:
        ann = hints.get(name)
        current = getattr(rules, name)
        if ann is bool:
            out.append((name, current, [not current]))
        elif get_origin(ann) is Literal:
            out.append((name, current, [v for v in get_args(ann) if v != current]))
    return out


def _row(label: str, value: Any, headline: dict[str, Headline]) -> dict[str, Any]:
    return {
        "switch": label,
        "value": value if isinstance(value, (str, int, float)) else str(value),
        "players": {
            n: {
                "score_mean": h.score_mean,
                "seat_shares": list(h.seat_shares),
                "game_length": h.game_length,
                "length_unit": h.length_unit,
            }
            for n, h in headline.items()
        },
    }


def switch_effects(
    balance_report: Callable[..., BalanceReport],
    spec: BaseModel,
    *,
    games: int,
    seed: int,
    executor: Any = None,
    progress: Callable[..., None] | None = None,
) -> list[dict[str, Any]]:
    """Rows for the "house rules: effect of flipping each switch" table: first the kit as specified, then one
    row per switch and other value. Empty when the game spec has no `rules` model or it has no switches."""
    rules = getattr(spec, "rules", None)
    if not isinstance(rules, BaseModel):
        return []
    switches = switch_values(rules)
    if not switches:
        return []
    base = balance_report(spec, games=games, seed=seed, executor=executor, progress=progress)
    rows = [_row("as specified", "", base.headline)]
    for name, _current, others in switches:
        for value in others:
            flipped = spec.model_copy(update={"rules": rules.model_copy(update={name: value})})
            rep = balance_report(flipped, games=games, seed=seed, executor=executor, progress=progress)
            rows.append(_row(name, value, rep.headline))
    return rows


def switch_table(rows: list[dict[str, Any]]) -> Table:
    """The table of `switch_effects` rows, one line per setting and player count (score mean, seat shares,
    length): long rather than wide, so it stays readable within a 1,280 px page whatever the player range."""
    from generator.engine.report import Table

    counts = sorted({n for r in rows for n in r["players"]}, key=int)
    out = []
    for r in rows:
        for n in counts:
            h = r["players"].get(n)
            if h is None:
                continue
            shares = h.get("seat_shares") or []
            out.append(
                [
                    r["switch"],
                    r["value"],
                    int(n),
                    None if h.get("score_mean") is None else round(float(h["score_mean"]), 2),
                    " / ".join(f"{x:.3f}" for x in shares),
                    None if h.get("game_length") is None else round(float(h["game_length"]), 2),
                ]
            )
    return Table(
        "House rules: effect of flipping each switch (same seed and games; a description, not a verdict)",
        ["switch", "value", "players", "score mean", "seat shares", "length"],
        out,
    )
