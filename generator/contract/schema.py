"""The JSON Schema of kit.yaml, assembled from the pydantic models (for editor completion)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, create_model

from generator.contract import registry
from generator.contract.load import game_model
from generator.errors import KitError, did_you_mean
from generator.spec.fonts import StyleSpec
from generator.spec.kit import ComponentSpec, KitFile, KitMeta
from generator.spec.print import PrintSpec
from generator.spec.tune import TuneSpec


def art_slots(games: list[str]) -> dict[str, Any]:
    """Every art slot each game declares (its plugin's `slots`): game -> component -> slot -> face, box
    (fractions of the face's trim: x, y, w, h from the bottom-left), {field}s and what it replaces."""
    out: dict[str, Any] = {}
    for gid in games:
        declared = registry.get(gid).load.slots()
        out[gid] = {
            cid: {
                s.name: {
                    "face": s.face,
                    "box": [round(v, 4) for v in s.box],
                    "fields": list(s.fields),
                    "description": s.what,
                }
                for s in slots
            }
            for cid, slots in declared.items()
        }
    return out


def art_slot_summary(games: list[str]) -> str:
    """The slots, one line per game, for the schema's description (`pnpkit list --slots KIT`: sizes)."""
    parts = []
    for gid, comps in art_slots(games).items():
        parts.append(f"{gid}: " + "; ".join(f"{cid}: {', '.join(slots)}" for cid, slots in comps.items()))
    return " | ".join(parts) + " (sizes: pnpkit list --slots KIT; x-art-slots below)"


def kit_schema(game: str | None = None) -> dict[str, Any]:
    """JSON Schema of a whole kit.yaml (game section: the union of every game's model, or one game's)."""
    known = registry.game_ids()
    if game is not None and game.lower() in known:  # game ids are lower-case: `--game Deck` is deck
        game = game.lower()
    if game is not None and game not in known:
        raise KitError(f"--game: expected one of {', '.join(known)}; got {game!r}{did_you_mean(game, known)}")
    models: list[Any] = [game_model(k) for k in ([game] if game else known)]  # a broken plugin says so
    from typing import Union

    game_type: Any = models[0] if len(models) == 1 else Union[tuple(models)]
    Kit = create_model(
        "KitYaml",
        kit=(KitMeta, Field(description="who the kit is")),
        print=(PrintSpec, Field(default_factory=PrintSpec, description="print settings")),
        style=(StyleSpec, Field(default_factory=StyleSpec, description="the kit's own look: fonts by role")),
        game=(game_type, Field(description="the game's parameters; `kind` picks the game")),
        components=(
            dict[str, ComponentSpec],
            Field(
                description=(
                    "printed components by id; each may fill its art slots (components.<id>.art.<slot>): "
                    + art_slot_summary([game] if game else known)
                )
            ),
        ),
        tune=(TuneSpec | None, KitFile.model_fields["tune"]),
    )
    schema = Kit.model_json_schema()
    schema["x-art-slots"] = art_slots([game] if game else known)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "pnpkit kit.yaml"
    return schema
