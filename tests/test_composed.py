"""tests/composed.py shares a shipped kit's plan between the tests of a process: the same kit, print settings,
paper and language get the very plan composed the first time; any other kit, print setting, paper or language
gets its own."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from generator.pipeline import load_kits, with_print
from tests.composed import SHARED_PLANS, composed_parts, loaded_kits, planned

ROOT = Path(__file__).resolve().parents[1]
pytestmark = SHARED_PLANS
SPROUT = ROOT / "layouts" / "sprout_sheet"  # the quickest shipped kit to compose


def test_a_shipped_kits_plan_is_composed_once_per_process() -> None:
    (kit,) = loaded_kits([SPROUT])
    (first,) = planned([kit])
    assert planned([kit])[0] is first
    assert planned(loaded_kits([SPROUT / "." / ".." / SPROUT.name]))[0] is first  # the same folder
    assert planned([with_print(kit, {"duplex": kit.print.duplex})])[0] is first  # the same print settings
    assert composed_parts(SPROUT)["sheet"] is next(p for p in first.parts if p.cid == "sheet")


def test_another_setting_paper_language_or_kit_gets_its_own_plan() -> None:
    (kit,) = loaded_kits([SPROUT])
    (first,) = planned([kit])
    (short,) = planned([with_print(kit, {"duplex": "short"})])
    assert short is not first and short.kit.print.duplex == "short"
    assert planned([kit], paper="letter")[0] is not first
    assert planned([kit], lang="de")[0].lang == "de"
    # a kit loaded or edited by a test itself is composed afresh, whatever its folder
    (own,) = load_kits([SPROUT])
    assert planned([own])[0] is not first
    comps = dict(kit.components)
    comps["rules"] = comps["rules"].model_copy(update={"copies": 2 * comps["rules"].copies})
    (edited,) = planned([replace(kit, components=comps)])
    assert _pages(edited, "rules") == 2 * _pages(first, "rules")


def _pages(plan: object, cid: str) -> int:
    return len(next(p for p in plan.parts if p.cid == cid).pages)  # type: ignore[attr-defined]
