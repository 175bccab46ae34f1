"""Backs that give a card away: a deck shuffled into one face-down pile must print one back for all its rows
(`validate` warns, naming the deck, the template and two rows whose backs differ); a deck declared
`backs: per_row` (its cards lie face up or apart) does not warn."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.pipeline import load_kits, verify_layout
from tests.games.deck.helpers import ROOT

HARVEST = ROOT / "layouts" / "harvest_deck"
SPROUT = ROOT / "layouts" / "sprout_sheet"
PER_ROW_BACK = '        - {type: rect, x: 5mm, y: 5mm, w: 10mm, h: 10mm, fill: "{{ colour }}"}\n'


def _warnings(folder: Path) -> list[str]:
    return [w for w in verify_layout(load_kits([folder]), langs=["en"]) if "shuffled pile" in w]


def _copy(src: Path, tmp_path: Path, old: str, new: str) -> Path:
    kit = tmp_path / src.name
    shutil.copytree(src, kit)
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (kit / "kit.yaml").write_text(text.replace(old, new), encoding="utf-8")
    return kit


def test_a_per_row_back_in_one_shuffled_pile_warns(tmp_path: Path) -> None:
    emblem = "        - {type: icon, src: assets/emblem.svg, x: 19.75mm, y: 22mm, w: 24mm, h: 24mm}\n"
    kit = _copy(HARVEST, tmp_path, emblem, emblem + PER_ROW_BACK)
    found = _warnings(kit)
    assert len(found) == 1, found
    line = next(
        n
        for n, text in enumerate((kit / "kit.yaml").read_text(encoding="utf-8").splitlines(), 1)
        if text == "    cards:"
    )
    assert found[0].startswith(f"{kit / 'kit.yaml'}:{line}: game.decks.cards: "), found[0]
    assert "template 'crop'" in found[0]
    assert "players can tell 'wheat-1' from 'rice-1' face down" in found[0]


def test_the_shipped_harvest_deck_prints_one_back() -> None:
    assert _warnings(HARVEST) == []


def test_sprout_sheet_goals_lie_face_up_and_do_not_warn() -> None:
    assert _warnings(SPROUT) == []


def test_without_per_row_the_dealt_goals_warn(tmp_path: Path) -> None:
    """Sprout Sheet deals its goals; only its `backs: per_row` keeps its per-kind backs from warning."""
    old = (
        "      backs: per_row  # the goals are dealt face up beside the sheet: each back may show its kind\n"
    )
    kit = _copy(SPROUT, tmp_path, old, "")
    found = _warnings(kit)
    assert len(found) == 1 and "game.decks.goals" in found[0], found


def test_backs_one_declares_a_face_down_pile(tmp_path: Path) -> None:
    """`backs: one` says the cards lie in one face-down pile, whatever the deal and the draw checks name."""
    old = (
        "      backs: per_row  # the goals are dealt face up beside the sheet: each back may show its kind\n"
    )
    kit = _copy(SPROUT, tmp_path, old, "      backs: one\n")
    assert len(_warnings(kit)) == 1
