"""Write one value back into a kit.yaml, keeping its comments and layout (round-trip), atomically."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap

from generator.errors import Problem, SpecError
from generator.resources import atomic_write
from generator.spec.paths import read_kit_file
from generator.spec.yamlio import MAX_SPEC_BYTES


def set_value(path: Path, keys: tuple[str, ...], value: Any) -> None:
    """Set kit.yaml[keys...] = value (creating missing mappings), preserving everything else."""
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    data = yaml.load(read_kit_file(path, str(path), MAX_SPEC_BYTES, "kit.yaml").decode("utf-8"))
    node = data
    for k in keys[:-1]:
        if not isinstance(node, dict):
            raise SpecError([Problem(str(path), None, ".".join(keys), "cannot write here: not a mapping")])
        if k not in node or node[k] is None:
            node[k] = CommentedMap()
        node = node[k]
    node[keys[-1]] = value
    buf = io.StringIO()
    yaml.dump(data, buf)
    atomic_write(path, buf.getvalue().encode("utf-8"), what="the spec")
