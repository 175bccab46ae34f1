"""Test fixtures are the shipped kits plus explicit overrides: no hand copy of a kit's defaults.

game_section("ripple_rush")                              # layouts/ripple_rush/kit.yaml's game: as dicts
game_spec("ripple_rush", {"balance.games": 2000})        # validated, with dotted-key overrides
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from generator.contract import registry
from generator.spec.yamlio import read_yaml

ROOT = Path(__file__).resolve().parents[2]


@cache
def _raw(kit: str) -> Any:
    data, _ = read_yaml(ROOT / "layouts" / kit / "kit.yaml", f"layouts/{kit}/kit.yaml")
    return data["game"]


def game_section(
    kit: str, overrides: Mapping[str, Any] | None = None, *, new_keys: bool = False
) -> dict[str, Any]:
    """The shipped kit's `game:` section as plain data (a fresh copy), with dotted keys replaced:
    {"balance.games": 2000, "rules.draw": "always", "colours": [...]}; a key the kit lacks is refused unless
    `new_keys` (an optional field the kit leaves out), so a typo cannot pass silently."""
    data: dict[str, Any] = copy.deepcopy(_raw(kit))
    for dotted, value in (overrides or {}).items():
        *parents, last = dotted.split(".")
        node: Any = data
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if isinstance(node, list):
            node[int(last)] = copy.deepcopy(value)
        else:
            if last not in node and not new_keys:
                raise KeyError(
                    f"{kit}: game.{dotted} is not in the shipped kit (pass new_keys=True for an "
                    f"optional key the kit leaves out)"
                )
            node[last] = copy.deepcopy(value)
    return data


def game_spec(kit: str, overrides: Mapping[str, Any] | None = None, *, new_keys: bool = False) -> Any:
    """The shipped kit's game section with overrides, validated by the game's own model."""
    data = game_section(kit, overrides, new_keys=new_keys)
    return registry.get(data["kind"]).load.spec().model_validate(data)
