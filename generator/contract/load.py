"""The load phase's door to the games: a kit's `game:` section, parsed raw by `spec/`, validated through the
game contract (the kind, the game's model, the files its hook reads, the art slots its composer declares)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from generator.contract import registry
from generator.errors import Problem, SpecError
from generator.spec.kit import GameSection, Kit, KitFile, ParseYaml, describe, read_kit
from generator.spec.yamlio import parse_yaml


def load_kit(path: Path | str, *, parse: ParseYaml = parse_yaml) -> Kit:
    """Load and validate a kit folder (or its kit.yaml), its game section through the game contract; every
    problem is reported at once as SpecError."""
    return read_kit(path, check_game=check_game, parse=parse)


def game_model(kind: str) -> type[BaseModel]:
    """The pydantic model of a game's section (from the game registry)."""
    return registry.get(kind).load.spec()


def check_game(section: GameSection) -> tuple[Any, Any, list[Problem]]:
    """The validated game section, the game its hooks receive (the section itself, or what the game's
    `with_files` hook loaded from the kit folder for it; both None when there are problems) and every problem:
    an unknown kind, the game model's errors, the files its `with_files` hook reads and art in slots its
    composer does not declare."""
    problems: list[Problem] = []
    kind = section.raw.get("kind")
    known = registry.game_ids()
    if not isinstance(kind, str) or kind not in known:
        problems.append(
            section.problem("game.kind", f"expected one of {', '.join(known)}; got {describe(kind)}")
        )
        return None, None, problems
    plugin = registry.get(kind)
    model = plugin.load.spec()
    validated: Any = None
    try:
        validated = model.model_validate(section.raw)
    except ValidationError as e:
        problems.extend(section.validation_problems(e, model))
    game = validated
    with_files = plugin.load.with_files()
    if validated is not None and with_files is not None:
        try:  # a game that reads files of the kit folder (the data rows of a `deck` kit): confined, capped
            game = with_files(validated, section.root, section.shown, section.line, section.display)
        except SpecError as e:
            problems.extend(e.problems)
            game = None
    if section.top is not None and any(c.art for c in section.top.components.values()):
        problems.extend(slot_problems(kind, section.top, section))
    if problems:
        return None, None, problems
    return validated, game, problems


def slot_problems(kind: str, top: KitFile, section: GameSection) -> list[Problem]:
    """Art in a slot the game's composer does not declare for that component (its slots): located problems."""
    declared = registry.get(kind).load.slots()
    out = []
    for cid, comp in top.components.items():
        slots = {s.name: s for s in declared.get(cid, ())}
        for slot, art in comp.art.items():
            where = f"components.{cid}.art.{slot}"
            if slot not in slots:
                expected = (
                    f"one of {', '.join(slots)}" if slots else "nothing: this component has no art slots"
                )
                out.append(
                    section.problem(where, f"no such art slot; expected {expected} (pnpkit list --slots)")
                )
                continue
            unknown = [
                f for f in re.findall(r"\{([a-z_][a-z0-9_]*)\}", art.path) if f not in slots[slot].fields
            ]
            if unknown:
                known = ", ".join("{" + f + "}" for f in slots[slot].fields) or "none"
                out.append(
                    section.problem(
                        where,
                        f"{art.path!r}: this slot's faces have no field "
                        f"{{{unknown[0]}}}; its fields: {known}",
                    )
                )
    return out


__all__ = ["check_game", "game_model", "load_kit", "slot_problems"]
