"""Tier-2 goldens: the drawing ops of the first page of every component of every shipped kit (English, A4),
as the readable text dump. A layout change shows up as a diff a reviewer can read; regenerate with
`pytest --update-goldens` and read the diff before committing."""

from pathlib import Path

import pytest

from generator.layout.ops import dump
from generator.pipeline import check_kits, load_kits, plan_build, shipped_kits
from generator.render.fonts import text_width

GOLDEN = Path(__file__).parent / "golden"
KITS = shipped_kits()


@pytest.mark.parametrize("kit_dir", KITS, ids=[k.name for k in KITS])
def test_first_page_of_every_component_matches_its_golden(kit_dir, golden, tmp_path):
    kits = load_kits([kit_dir])
    check_kits(kits)
    planned = plan_build(
        kits, out=tmp_path, langs=["en"], paper="a4", seed=None, measure=text_width, warn=lambda m: None
    )
    seen = 0
    for p in planned:
        if p.path.name.startswith("kit-"):
            continue
        component = p.path.name.removesuffix("-a4.pdf")
        golden.check(GOLDEN / kit_dir.name / f"{component}.txt", dump(p.pages[:1]))
        seen += 1
    assert seen >= 3
