"""The JSON Schema of kit.yaml, assembled from the pydantic models (for editor completion)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, create_model

import generator.games.registry as registry
from generator.errors import KitError
from generator.spec.fonts import StyleSpec
from generator.spec.kit import ComponentSpec, KitMeta, game_model
from generator.spec.print import PrintSpec


def kit_schema(game: str | None = None) -> dict[str, Any]:
    """JSON Schema of a whole kit.yaml (game section: the union of every game's model, or one game's)."""
    known = registry.game_ids()
    if game is not None and game not in known:
        raise KitError(f"--game: expected one of {', '.join(known)}; got {game!r}")
    models: list[Any] = [game_model(k) for k in ([game] if game else known)]  # a broken plugin says so
    from typing import Union

    game_type: Any = models[0] if len(models) == 1 else Union[tuple(models)]
    Kit = create_model(
        "KitYaml",
        kit=(KitMeta, Field(description="who the kit is")),
        print=(PrintSpec, Field(default_factory=PrintSpec, description="print settings")),
        style=(StyleSpec, Field(default_factory=StyleSpec, description="the kit's own look: fonts by role")),
        game=(game_type, Field(description="the game's parameters; `kind` picks the game")),
        components=(dict[str, ComponentSpec], Field(description="printed components by id")),
    )
    schema = Kit.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "pnpkit kit.yaml"
    return schema
