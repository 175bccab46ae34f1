"""Rule figures are the rules' own (figures.py): the printed kit reads them from print_data, never restates
them."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pdfplumber
import pytest

from generator.contract.load import load_kit
from generator.errors import LayoutError
from generator.games.raindrops import layout
from generator.games.raindrops.figures import print_data, rule_figures
from generator.games.raindrops.rules import new_game
from generator.games.raindrops.state import MARKER_START, SPECIALS
from tests.games.shipped import game_spec

ROOT = Path(__file__).resolve().parents[3]
KIT = ROOT / "layouts" / "raindrops"


def test_markers_start_on_the_third_slot_top_in_play_and_in_print():
    # set-up step 6 of the seed: 「…スペシャルアクションエリアの3番目のスロットに置きます。」
    spec = game_spec("raindrops")
    assert SPECIALS[MARKER_START] == "top" and rule_figures(spec)["action_start_slot"] == 3
    play = new_game(spec, 3)
    st = play.new_state(np.random.default_rng(0))
    assert [p.marker for p in st.players] == [MARKER_START] * 3
    assert rule_figures(spec)["special_slots"] == list(SPECIALS)


def test_figures_follow_the_spec():
    spec = game_spec("raindrops", {"rules.end_cards": 7, "rules.reserve_slots": 3, "window.columns": 5})
    fig = rule_figures(spec)
    assert (fig["end_cards"], fig["reserve_slots"], fig["columns"]) == (7, 3, 5)
    assert fig["tiles"] == sum(k.count for k in spec.bag.tiles)
    assert fig["thunder_tokens"] == sum(v.count for v in spec.thunder_tokens.values)


def test_the_composer_refuses_to_guess_figures():
    with pytest.raises(LayoutError, match="figures are missing"):
        layout.template_context(game_spec("raindrops"), {})


PRINTED = {"en": "firstto{}cardsendsthegame", "ja": "{}枚目の完成で終了", "es": "terminacon{}cartas"}


@pytest.mark.parametrize("end_cards", [7, 10])
def test_a_changed_figure_is_printed_on_the_rules_card_in_every_language(end_cards, tmp_path):
    from generator.render.pdf import write_pdf
    from tests.composed import composed_one

    kit = load_kit(KIT)
    game = game_spec("raindrops", {"rules.end_cards": end_cards})
    kit = replace(kit, game=game)
    extras = dict(print_data(game, kit.meta.seed))
    for lang in ("en", "ja", "es"):
        rules = composed_one(kit, lang, "rules", extras)  # the rules card alone, as the build composes it
        pdf = tmp_path / f"rules-{lang}.pdf"
        write_pdf(rules.pages, pdf, title="rules", lang=lang)
        with pdfplumber.open(pdf) as doc:
            text = re.sub(r"\s+", "", "".join(p.extract_text() or "" for p in doc.pages))
        assert PRINTED[lang].format(end_cards) in text, (lang, text[:400])
        other = 17 - end_cards
        assert PRINTED[lang].format(other) not in text
