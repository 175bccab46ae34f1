"""Every shipped kit: loads, passes its static legal checks, plays a few seeded games through the engine
(same figures twice), composes and renders. A new game or layout is covered the day it lands."""

import json
from pathlib import Path

import pytest

from generator.contract import registry
from generator.contract.load import load_kit
from generator.contract.plugin import REFS
from generator.engine.executors import SerialExecutor
from generator.layout.compose import Composer
from generator.pipeline import build, check_kit, shipped_kits
from generator.render.html_report import to_json_text

KITS = shipped_kits()
IDS = [k.name for k in KITS]


def test_every_built_in_game_ships_a_kit():
    from generator.contract import BUILTIN

    assert {load_kit(k).game_id for k in KITS} == set(BUILTIN)


@pytest.mark.parametrize("kit_dir", KITS, ids=IDS)
def test_kit_is_legal(kit_dir):
    kit = load_kit(kit_dir)
    assert check_kit(kit) == []


@pytest.mark.parametrize("kit_dir", KITS, ids=IDS)
def test_game_plugin_implements_the_contract(kit_dir):
    kit = load_kit(kit_dir)
    plugin = registry.get(kit.game_id)
    assert plugin.problems() == []
    assert set(REFS) <= set(plugin.refs())
    assert isinstance(plugin.load.composer(), Composer)
    assert plugin.load.spec() is type(kit.section)  # the hooks receive kit.game (the loaded game)
    assert list(plugin.load.players()(kit.game)), "the kit plays with no player count"


@pytest.mark.parametrize("kit_dir", KITS, ids=IDS)
def test_a_few_seeded_games_give_the_same_figures_twice(kit_dir):
    kit = load_kit(kit_dir)
    balance_report = registry.get(kit.game_id).load.balance_report()
    a = balance_report(kit.game, games=8, seed=5, executor=SerialExecutor(), kit=kit.meta.id)
    b = balance_report(kit.game, games=8, seed=5, executor=SerialExecutor(), kit=kit.meta.id)
    assert to_json_text([a]) == to_json_text([b])
    assert json.loads(to_json_text([a]))["reports"][0]["tolerances"]  # it measured something


@pytest.mark.parametrize("kit_dir", KITS, ids=IDS)
def test_kit_builds_on_letter_in_spanish(kit_dir, tmp_path):
    result = build([kit_dir], out=tmp_path, langs=["es"], paper="letter")
    pdfs = [p for p in result.files if p.suffix == ".pdf"]
    assert any(p.name == "kit-letter.pdf" for p in pdfs)
    assert all(p.stat().st_size > 1000 for p in pdfs)


PLUGIN_KITS = sorted(p.parent for p in (Path(__file__).parent / "plugins").glob("*/kit/kit.yaml"))


@pytest.mark.parametrize("kit_dir", PLUGIN_KITS, ids=[k.parent.name for k in PLUGIN_KITS])
def test_a_third_party_game_meets_the_same_conformance(kit_dir, tmp_path):
    """The example games registered by entry points (tests/plugins/, on sys.path via tests/conftest.py) pass
    every check a shipped kit passes."""
    test_kit_is_legal(kit_dir)
    test_game_plugin_implements_the_contract(kit_dir)
    test_a_few_seeded_games_give_the_same_figures_twice(kit_dir)
    test_kit_builds_on_letter_in_spanish(kit_dir, tmp_path)


def test_the_third_party_examples_are_found():
    """The glob above is not empty (a moved folder would silently test nothing)."""
    assert [k.parent.name for k in PLUGIN_KITS] == ["pig"]


@pytest.mark.parametrize("kit_dir", KITS, ids=IDS)
def test_rules_sheet_prints_one_page_per_copy(kit_dir, tmp_path):
    """`copies` on the rules summary means pages of it (it was ignored by three of the four games)."""
    from dataclasses import replace

    from generator.pipeline import check_kits, load_kits, plan_build
    from generator.render.fonts import text_width

    def rules_pages(copies: int) -> int:
        kit = load_kits([kit_dir])[0]
        comps = dict(kit.components)
        comps["rules"] = comps["rules"].model_copy(update={"copies": copies})
        kit = replace(kit, components=comps)
        check_kits([kit])
        planned = plan_build(
            [kit], out=tmp_path, langs=["en"], paper="a4", seed=None, measure=text_width, warn=lambda m: None
        )
        return sum(len(p.pages) for p in planned if p.path.name == "rules-a4.pdf")

    one = rules_pages(1)
    assert one >= 1 and rules_pages(3) == 3 * one
