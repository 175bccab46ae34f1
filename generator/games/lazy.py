"""Lazy package attributes (PEP 562) for the game packages: `pnpkit build` and `validate` need only a game's
legal checks and must not pay for numba and the simulation kernels."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_getattr(package: str, where: Mapping[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """A module `__getattr__` importing `package.<where[name]>` on first use and caching the name."""

    def __getattr__(name: str) -> Any:
        if name in where:
            value = getattr(importlib.import_module(f"{package}.{where[name]}"), name)
            namespace[name] = value
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
