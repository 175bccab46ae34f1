"""A kit composed in memory as a build would compose it (nothing written): the parts of one language on one
paper, by component id, for tests that read the drawing ops."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from generator.pipeline import load_kits, plan_incremental
from generator.render.fonts import text_width


def composed_parts(kit: Path, lang: str = "en", paper: str = "a4") -> dict[str, Any]:
    """Component id -> the planned part (its `pages` of ops) of `kit` in `lang` on `paper`."""
    (plan,) = plan_incremental(
        load_kits([kit]),
        out=Path("/nonexistent"),
        langs=[lang],
        paper=paper,
        seed=None,
        png=False,
        pdfa=False,
        force=True,
        measure=text_width,
        warn=lambda _: None,
    )
    return {part.cid: part for part in plan.parts}
