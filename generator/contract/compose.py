"""The composer of a kit's game, looked up through the contract: `layout/` draws and knows no game; this is
where a kit meets its game's composer (its template context, its components, its declared art slots)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.contract import registry
from generator.layout.compose import Component, Composer, Context
from generator.layout.imposition import sheet_slot
from generator.spec.kit import Kit


def composer(game_id: str) -> Composer:
    """The composer of a game, from the registry."""
    return registry.get(game_id).load.composer()


def template_context(kit: Kit, extras: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Numbers from the spec (and the rules' print data) that rule templates may use."""
    return dict(composer(kit.game_id).template_context(kit.game, extras or {}))


def compose_kit(ctx: Context) -> list[Component]:
    """Every enabled component of the kit in one language."""
    return list(composer(ctx.kit.game_id).compose(ctx))


def slot_rows(kit: Kit) -> list[tuple[str, str, str, float, float, str, str, str]]:
    """Every art slot of every enabled component of `kit` as (component, slot, face, box width mm, box height
    mm, {field}s, what it replaces, the file the kit fills it with or ''): the game's declared slots on the
    component's trim size (cards) or its sheet slot on the kit's paper (sheets)."""
    declared = registry.get(kit.game_id).load.slots()
    rows = []
    for cid, comp in kit.components.items():
        if not comp.enabled:
            continue
        size = comp.trim_size() or sheet_slot(
            kit.print.paper, comp.per_page or 2, True if comp.landscape is None else comp.landscape, kit.print
        )
        for slot in declared.get(cid, ()):
            _, _, w, h = slot.box_on(*size)
            filled = comp.art[slot.name].path if slot.name in comp.art else ""
            rows.append(
                (
                    cid,
                    slot.name,
                    slot.face,
                    w / 72 * 25.4,
                    h / 72 * 25.4,
                    ", ".join("{" + f + "}" for f in slot.fields),
                    slot.what,
                    filled,
                )
            )
    return rows


__all__ = ["compose_kit", "composer", "slot_rows", "template_context"]
