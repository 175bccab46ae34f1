"""A kit composed in memory as a build would compose it (nothing written): the parts of one language on one
paper, by component id, for tests that read the drawing ops; and the kits this checkout ships, loaded once per
test process."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from generator.pipeline import load_kits, plan_incremental
from generator.render.fonts import text_width
from generator.spec.kit import Kit

ROOT = Path(__file__).resolve().parents[1]
READ_ONLY = (ROOT / "layouts", ROOT / "docs" / "examples", ROOT / "tests" / "plugins")
"""The folders of kits no test edits: the shipped kits, the docs' examples, the test plugins' kits."""


@cache
def _loaded(folder: Path) -> Kit:
    (kit,) = load_kits([folder])
    return kit


def loaded_kits(folders: Iterable[Path]) -> list[Kit]:
    """The kits in `folders` (each under READ_ONLY), each loaded once per test process: a frozen model read by
    many test modules (parsing every shipped kit.yaml took a test module 1-3 CPU-s when it was collected, on
    every xdist worker). A kit a test copies or edits is loaded by the test itself."""
    kits = []
    for folder in map(Path, folders):
        if not any(folder.resolve().is_relative_to(top) for top in READ_ONLY):
            raise ValueError(
                f"{folder}: not a kit of this checkout's read-only folders; load it with load_kits"
            )
        kits.append(_loaded(folder))
    return kits


def planned(kits: Sequence[Kit], paper: str = "a4", lang: str = "en") -> list[Any]:
    """The build plans of loaded `kits` in `lang` on `paper`, every part composed (nothing written)."""
    return plan_incremental(
        list(kits),
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


def composed_parts(kit: Path, lang: str = "en", paper: str = "a4") -> dict[str, Any]:
    """Component id -> the planned part (its `pages` of ops) of `kit` in `lang` on `paper`."""
    (plan,) = planned(load_kits([kit]), paper, lang)
    return {part.cid: part for part in plan.parts}
