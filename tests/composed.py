"""A kit composed in memory as a build would compose it (nothing written): the parts of one language on one
paper, by component id, for tests that read the drawing ops; and the kits this checkout ships, loaded once per
test process. A shipped kit's plan (kit, print settings, paper, language) is composed once per test process
too and shared by every test that asks for it: read it, never change it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from generator.buildkeys import Memo, tool_key
from generator.pipeline import load_kits, plan_incremental
from generator.render.fonts import text_width
from generator.spec.kit import Kit

ROOT = Path(__file__).resolve().parents[1]
SHARED_PLANS = pytest.mark.xdist_group("shipped-plans")
"""`pytestmark` of the test modules that read most of the shipped kits' shared plans (A4 and Letter, English
and German): in a distributed run they go to one worker, whose process composes each plan once for all of
them (in a worker of their own, each module composed them again)."""
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
        kits.append(_loaded(folder.resolve()))
    return kits


@cache
def _memo() -> Memo:
    """The memo of the shared plans: a kit's print data (a pure function of its game section and seed, the
    same on every paper and in every language; Raindrops' memory cards took 1.5 CPU-s) is asked of the game
    once per test process, as a rebuild asks it of the last build's memo."""
    return Memo(tool_key())


def _compose(kits: Sequence[Kit], paper: str, lang: str, memo: Memo | None = None) -> list[Any]:
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
        memo=memo,
    )


_PLANS: dict[tuple[Path, str, str, str], Any] = {}
"""The plan of a read-only kit by (folder, its print settings as JSON, paper, language)."""


def _shared_key(kit: Kit, paper: str, lang: str) -> tuple[Path, str, str, str] | None:
    """The cache key of `kit`'s plan: a kit loaded by `loaded_kits`, its print settings perhaps replaced
    (`with_print`: every other field the very object loaded), planned on `paper` in `lang`; None for any
    other kit (a copy, an edit, a kit loaded by the test), which is composed afresh."""
    folder = kit.dir.resolve()
    if not any(folder.is_relative_to(top) for top in READ_ONLY):
        return None
    base = _loaded(folder)
    if any(getattr(kit, f.name) is not getattr(base, f.name) for f in fields(Kit) if f.name != "print"):
        return None
    return folder, kit.print.model_dump_json(), paper, lang


def planned(kits: Sequence[Kit], paper: str = "a4", lang: str = "en") -> list[Any]:
    """The build plans of loaded `kits` in `lang` on `paper`, every part composed (nothing written). The plan
    of a kit from `loaded_kits` (print settings replaced or not) is composed once per test process and shared:
    a caller reads it and never changes it. Each kit's plan is its own (a run plans kit after kit)."""
    plans: list[Any] = []
    for kit in kits:
        key = _shared_key(kit, paper, lang)
        if key is None:
            plans += _compose([kit], paper, lang)
            continue
        if key not in _PLANS:
            (_PLANS[key],) = _compose([kit], paper, lang, _memo())
        plans.append(_PLANS[key])
    return plans


def component_pdfs(kit: Path, out: Path, lang: str = "en", paper: str = "a4") -> dict[str, Path]:
    """Component id -> the PDF of that component of `kit` in `lang` on `paper`, drawn into `out` from the
    shared plan as a build draws it (generator.pipeline.render: the part's pages, title and language, the
    kit's fonts and greyscale), for tests that read a component's PDF back and not the build around it (no
    kit PDF, checklist or calibration sheet)."""
    from generator.pipeline.compose import TOOL_PARTS
    from generator.render.pdf import write_pdf

    folder = Path(kit).resolve()
    (plan,) = planned(loaded_kits([folder]), paper, lang)
    out.mkdir(parents=True, exist_ok=True)
    pdfs: dict[str, Path] = {}
    for part in plan.parts:
        if part.cid in TOOL_PARTS:
            continue
        pdfs[part.cid] = out / part.name
        write_pdf(
            part.pages,
            pdfs[part.cid],
            title=part.title,
            lang=part.lang,
            fonts=plan.kit.fonts,
            greyscale=plan.kit.print.greyscale,
        )
    return pdfs


def composed_one(kit: Kit, lang: str, cid: str, extras: dict[str, Any], paper: str = "a4") -> Any:
    """Component `cid` of `kit` in `lang`, composed as generator.pipeline.compose_one composes the kit (the
    same context, with `extras` as its print data) and checked as it checks it (check_layout), the kit's other
    components left out (Context.only, as an incremental build leaves out the parts it keeps): for tests that
    read one card of a kit they change, where composing every component took most of their time."""
    from generator.contract.compose import compose_kit, template_context
    from generator.i18n.texts import Texts
    from generator.layout.compose import Context
    from generator.pipeline import with_tool_catalogs
    from generator.pipeline.check import check_layout

    catalogs = with_tool_catalogs(kit)
    texts = Texts(lang, catalogs, template_context(kit, extras), warn=lambda _: None)
    ctx = Context(
        kit, lang, texts, text_width, paper, kit.meta.seed, kit.print, extras, only=frozenset({cid})
    )
    (component,) = compose_kit(ctx)
    check_layout(kit, lang, [component], text_width, catalogs.get(lang))
    return component


def composed_parts(kit: Path, lang: str = "en", paper: str = "a4") -> dict[str, Any]:
    """Component id -> the planned part (its `pages` of ops) of `kit` in `lang` on `paper` (shared, as
    `planned`'s, for a kit of the read-only folders: read it, never change it)."""
    folder = Path(kit).resolve()
    shared = any(folder.is_relative_to(top) for top in READ_ONLY)
    (plan,) = planned(loaded_kits([folder]) if shared else load_kits([folder]), paper, lang)
    return {part.cid: part for part in plan.parts}
