"""Every shipped catalog has every id, every character exists in the font, numbers come from the spec."""

from pathlib import Path

import pytest

from generator.contract.compose import template_context
from generator.contract.load import load_kit
from generator.i18n.texts import Texts, missing_ids
from generator.pipeline import print_data, shipped_kits, with_tool_catalogs
from generator.render.fonts import missing_glyphs

KITS = shipped_kits()
TOOL = Path(__file__).resolve().parents[2] / "generator" / "i18n" / "locales"


@pytest.mark.parametrize("kit_dir", KITS, ids=[k.name for k in KITS])
def test_every_catalog_has_every_english_id(kit_dir):
    kit = load_kit(kit_dir)
    assert missing_ids(kit.catalogs) == {lang: [] for lang in kit.catalogs if lang != "en"}


@pytest.mark.parametrize("kit_dir", KITS, ids=[k.name for k in KITS])
def test_every_character_of_every_catalog_is_in_the_font(kit_dir):
    kit = load_kit(kit_dir)
    bad = {}
    for lang, cat in with_tool_catalogs(kit).items():
        for tid, text in cat.messages.items():
            for font in ("regular", "bold"):
                miss = missing_glyphs(text, font)
                if miss:
                    bad[(lang, tid, font)] = miss
    assert bad == {}


def test_tool_catalogs_agree():
    from generator.spec.catalogs import read_catalog

    cats = {lang: read_catalog(TOOL / f"{lang}.po", lang, lang) for lang in ("en", "ja", "es")}
    assert missing_ids(cats) == {"ja": [], "es": []}


def test_numbers_in_rule_text_come_from_the_spec():
    """A variant with 4 goal points prints 4 in all three languages without a catalog edit."""
    kit = load_kit(KITS[[k.name for k in KITS].index("ripple_rush")])
    game = kit.game.model_copy(update={"goals": kit.game.goals.model_copy(update={"points": 4})})
    kit4 = type(kit)(kit.dir, kit.display, kit.meta, kit.print, game, kit.components, kit.catalogs, kit.lines)
    ctx = template_context(
        kit4, print_data(kit4, kit.meta.seed)
    )  # rule figures come from the rules (issue 13)
    for lang, needle in (("en", "+4 points"), ("ja", "+4点"), ("es", "+4 puntos")):
        text = Texts(lang, kit.catalogs, ctx)("goal.row", row=2)
        assert needle in text, text
    ctx1 = dict(ctx, goal_points=1)
    assert "+1 point." in Texts("en", kit.catalogs, ctx1)("goal.row", row=2)
    assert "+1 punto." in Texts("es", kit.catalogs, ctx1)("goal.row", row=2)


def test_missing_translation_falls_back_to_english_with_a_warning():
    kit = load_kit(KITS[[k.name for k in KITS].index("ripple_rush")])
    from generator.spec.catalogs import Catalog

    ja = kit.catalogs["ja"]
    trimmed = Catalog("ja", ja.path, {k: v for k, v in ja.messages.items() if k != "sheet.total"}, ja.lines)
    warnings = []
    t = Texts(
        "ja",
        {**kit.catalogs, "ja": trimmed},
        template_context(kit, print_data(kit, kit.meta.seed)),
        warn=warnings.append,
    )
    assert t("sheet.total") == "Total"
    assert t("sheet.total") == "Total"
    assert len(warnings) == 1 and "sheet.total" in warnings[0] and "using English" in warnings[0]


def test_templates_are_sandboxed():
    from generator.errors import SpecError
    from generator.spec.catalogs import Catalog

    evil = Catalog("en", "evil.po", {"x": "{{ ''.__class__.__mro__[1].__subclasses__() }}"}, {"x": 7})
    with pytest.raises(SpecError, match="evil.po:7: x: template error"):
        Texts("en", {"en": evil}, {})("x")


def test_undefined_template_variable_is_located():
    from generator.errors import SpecError
    from generator.spec.catalogs import Catalog

    cat = Catalog("en", "k.po", {"x": "{{ nope }} cards"}, {"x": 12})
    with pytest.raises(SpecError, match="k.po:12: x: template error: 'nope' is undefined"):
        Texts("en", {"en": cat}, {})("x")
