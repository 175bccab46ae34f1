"""The deck kind's section models only validate kit.yaml; what the load phase reads (rows, art) is a record of
its own, `LoadedDeck`, that the hooks receive: frozen, read-only, picklable, and complete without the kit
folder (a balance worker gets it by pickle and reads no file)."""

from __future__ import annotations

import dataclasses
import pickle
import shutil

import pytest

from generator.contract import registry
from generator.contract.load import load_kit
from generator.games.deck.loaded import FrozenMap, LoadedDeck
from generator.games.deck.spec import DeckGame
from generator.spec.paths import recording_reads
from tests.games.deck.helpers import KIT, deck
from tests.games.deck.test_assets import _art_kit


def test_the_section_model_holds_no_file_data():
    """No private attribute, no method or field that carries rows or art: the model is kit.yaml, validated."""
    assert DeckGame.__private_attributes__ == {}
    for name in ("rows", "assets", "with_data", "_rows", "_assets"):
        assert not hasattr(DeckGame, name), name
    assert set(DeckGame.model_fields) == {"kind", "decks", "templates", "rules", "deal", "balance"}


def test_a_loaded_kit_hands_the_hooks_the_record_and_keeps_the_section_apart():
    kit = load_kit(KIT)
    assert isinstance(kit.game, LoadedDeck)
    assert type(kit.section) is DeckGame and kit.game.spec is kit.section
    assert kit.game_id == "deck"
    assert list(kit.game.rows) == list(kit.section.decks)
    assert len(kit.game.rows["cards"].rows) > 0
    # the section dumps as kit.yaml wrote it: no row of the data file is in it
    dumped = repr(kit.section.model_dump(mode="json"))
    first_id = str(kit.game.rows["cards"].rows[0]["id"])
    assert f"'{first_id}'" not in dumped


def test_the_record_is_immutable():
    loaded = deck([{"id": "a", "count": 2, "cost": 1}])
    with pytest.raises(dataclasses.FrozenInstanceError):
        loaded.spec = loaded.spec  # type: ignore[misc]
    with pytest.raises(TypeError):
        loaded.rows["cards"] = loaded.rows["cards"]  # type: ignore[index]
    with pytest.raises(TypeError):
        loaded.assets["x.png"] = None  # type: ignore[index]
    assert isinstance(loaded.rows, FrozenMap) and isinstance(loaded.assets, FrozenMap)


def test_the_record_keeps_its_own_copy_of_the_mappings_it_is_given():
    loaded = deck([{"id": "a", "count": 2, "cost": 1}])
    given = dict(loaded.rows)
    again = LoadedDeck(loaded.spec, given)
    given.clear()
    assert list(again.rows) == ["cards"] and dict(again.assets) == {}


def test_a_pickled_record_plays_checks_and_draws_without_its_kit_folder(tmp_path):
    """What a process-pool worker gets: the whole record (rows and decoded art), equal to the original, and
    every hook answers the same with the kit folder gone and no file read."""
    folder = _art_kit(tmp_path)
    kit = load_kit(folder)
    loaded = kit.game
    assert isinstance(loaded, LoadedDeck) and len(loaded.assets) == 3  # two SVG icons and a PNG
    data = pickle.dumps(loaded)
    shutil.rmtree(folder)
    load = registry.get("deck").load
    with recording_reads() as looks:
        copy = pickle.loads(data)
        assert isinstance(copy, LoadedDeck) and copy == loaded
        assert copy.assets["assets/banner.png"].picture.size == (301, 117)
        assert load.legal_problems()(copy) == load.legal_problems()(loaded)
        assert load.transcript()(copy, 3, 2) == load.transcript()(loaded, 3, 2)
        a = load.balance_report()(copy, games=50, seed=1)
        b = load.balance_report()(loaded, games=50, seed=1)
        assert a.figures == b.figures
    assert not looks, looks
