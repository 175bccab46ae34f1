"""Issue 26 item 2: a size floor per text role (`style.min_size`); text under its floor is an error naming the
string; a rules summary that does not fit at the floor flows onto another face instead of shrinking."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.contract.compose import compose_kit, template_context
from generator.contract.load import load_kit
from generator.errors import LayoutError, SpecError
from generator.i18n.texts import Texts
from generator.layout.compose import Component, Context
from generator.layout.legibility import check_min_sizes, undersized
from generator.layout.ops import Page, Place, Text, iter_texts
from generator.pipeline import build, load_kits, print_data, with_tool_catalogs
from generator.render.fonts import text_width
from generator.spec.style import MinSize

ROOT = Path(__file__).resolve().parents[2]
KITS = ["ripple_rush", "peak_dice", "raindrops", "rummy_cards"]


def _compose(kit_dir: Path, lang: str, kit=None) -> list[Component]:
    if kit is None:
        (kit,) = load_kits([kit_dir])
    extras = print_data(kit, kit.meta.seed)
    texts = Texts(lang, with_tool_catalogs(kit), template_context(kit, extras), warn=lambda _: None)
    ctx = Context(kit, lang, texts, text_width, kit.print.paper, kit.meta.seed, kit.print, extras)
    return compose_kit(ctx)


def test_the_floors_default_to_the_documented_sizes_and_a_designer_may_lower_them(tmp_path):
    assert MinSize() == MinSize(body=7, fine=6, heading=8, number=8)
    kit = load_kit(ROOT / "layouts" / "ripple_rush")
    assert kit.style.min_size.body == 7
    copy = tmp_path / "ripple_rush"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", copy)
    text = (copy / "kit.yaml").read_text(encoding="utf-8")
    (copy / "kit.yaml").write_text(
        text.replace("\ngame:", "\nstyle:\n  min_size: {body: 6.5, fine: 5.5}\n\ngame:", 1), encoding="utf-8"
    )
    lowered = load_kit(copy)
    assert (lowered.style.min_size.body, lowered.style.min_size.fine, lowered.style.min_size.heading) == (
        6.5,
        5.5,
        8,
    )
    (copy / "kit.yaml").write_text(
        text.replace("\ngame:", "\nstyle:\n  min_size: {body: 1}\n\ngame:", 1), encoding="utf-8"
    )
    with pytest.raises(SpecError, match="style.min_size.body"):
        load_kit(copy)


def test_a_string_under_its_floor_is_an_error_naming_component_language_and_string():
    page = Page(
        300,
        300,
        [
            Place(
                0,
                0,
                (
                    Text(10, 10, "Cadena más larga", 6.37, text_id="sheet.run"),
                    Text(10, 40, "v1.0", 6.2, role="fine"),
                    Text(10, 80, "12", 7.0, role="number"),
                ),
            )
        ],
    )
    comp = Component("score_sheet", "Score sheet", [page])
    found = undersized([comp], MinSize())
    assert sorted((u.text_id, u.role) for u in found) == [("", "number"), ("sheet.run", "body")]
    with pytest.raises(LayoutError) as e:
        check_min_sizes([comp], MinSize(), "layouts/ripple_rush/kit.yaml", None, "es")
    assert (
        "layouts/ripple_rush/kit.yaml: score_sheet (es): sheet.run 'Cadena más larga' is printed at 6.37 pt, "
        "under the body floor 7 pt (style.min_size.body)"
    ) in str(e.value)
    assert check_min_sizes([comp], MinSize(body=6, number=7), "k", None, "es") is None


@pytest.mark.parametrize("kit", KITS)
def test_every_shipped_string_is_at_or_above_its_floor_in_every_language(kit):
    # before: Raindrops rules body 6.7 pt (en) and 6.2 pt (es), the Spanish Ripple Rush sheet footnote 5.6 pt
    (spec,) = load_kits([ROOT / "layouts" / kit])
    for lang in spec.meta.languages:
        assert [
            (u.component, u.text_id, u.text, round(u.size, 2))
            for u in undersized(_compose(ROOT / "layouts" / kit, lang), spec.style.min_size)
        ] == [], lang


@pytest.mark.parametrize("lang", ["de", "es", "ja"])  # English fits one face at a tighter leading
def test_the_raindrops_rules_flow_onto_a_second_face_at_the_body_floor(lang):
    (rules,) = [c for c in _compose(ROOT / "layouts" / "raindrops", lang) if c.id == "rules"]
    body = [
        t
        for p in rules.pages
        for t in iter_texts(p.ops)
        if t.role == "body" and t.text_id.startswith("rules.")
    ]
    assert min(t.size for t in body) >= 7
    faces = [op for p in rules.pages for op in p.ops if isinstance(op, Place) and op.clip]
    footers = sorted(
        {t.text for f in faces for t in iter_texts(f.ops) if re.search(r"v1\.0 · \d/\d$", t.text)}
    )
    if lang == "ja":  # the Japanese text fits one face at 7 pt or more
        return
    assert [f[-3:] for f in footers] == ["1/2", "2/2"]
    ids = [
        t.text_id
        for f in faces[:2]
        for t in iter_texts(f.ops)
        if t.text_id.endswith(".title") and t.role == "heading" and t.text_id != "kit.title"
    ]
    assert len(ids) == len(set(ids)) >= 8, "a section printed twice across the two faces"


def _longer(tmp_path: Path, tid: str, times: int, per_page: int = 2) -> Path:
    copy = tmp_path / f"raindrops-{tid}"
    shutil.copytree(ROOT / "layouts" / "raindrops", copy)
    spec = copy / "kit.yaml"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(
        text.replace(
            "    title: component.rules\n    per_page: 2",
            f"    title: component.rules\n    per_page: {per_page}",
        ),
        encoding="utf-8",
    )
    po = copy / "locales" / "en.po"
    text = po.read_text(encoding="utf-8")
    m = re.search(rf'msgid "{re.escape(tid)}"\nmsgstr "([^"]*)"', text)
    assert m, tid
    po.write_text(
        text.replace(m.group(0), f'msgid "{tid}"\nmsgstr "{" ".join([m.group(1)] * times)}"'),
        encoding="utf-8",
    )
    return copy


def test_a_rules_paragraph_fourteen_times_longer_flows_on_at_the_floor_or_is_refused(tmp_path):
    # a Raindrops paragraph made 14x longer validated at 6.2 pt: now the summary flows onto more faces at
    # 7 pt...
    comps = _compose(_longer(tmp_path, "rules.turn", 14), "en")
    (rules,) = [c for c in comps if c.id == "rules"]
    body = [t for p in rules.pages for t in iter_texts(p.ops) if t.text_id == "rules.turn"]
    assert min(t.size for t in body) == 7
    assert any(t.text.endswith("· 2/2") for p in rules.pages for t in iter_texts(p.ops))
    assert len(body) >= 14
    # ...and a section taller than a face at the floor (6x, on a quarter-page face) is an error naming it
    with pytest.raises(
        SpecError,
        match=r"kit.yaml: cannot be laid out \(en\): rules summary \(en\): section rules.setup.title "
        r"does not fit one face even at the body floor 7 pt \(style.min_size.body\)",
    ):
        build([_longer(tmp_path, "rules.setup", 6, per_page=4)], out=tmp_path / "out", langs=["en"])
    assert not (tmp_path / "out" / "raindrops").exists()
