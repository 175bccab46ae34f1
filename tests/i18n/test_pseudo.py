"""The pseudo-locale qps: 40 % longer, accented, tags intact; every shipped kit fits it or names each box."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.contract.load import load_kit
from generator.i18n.pseudo import GROWTH, pseudo_text
from generator.pipeline import shipped_kits, with_tool_catalogs
from generator.pipeline.compose import pseudo_overflows
from generator.render.fonts import missing_glyphs
from generator.spec.catalogs import PSEUDO
from tests.clirun import pnpkit

ROOT = Path(__file__).resolve().parents[2]
KITS = shipped_kits()
TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}")


@pytest.mark.parametrize(
    "text",
    [
        "Set-up",
        "Shuffle the {{ n }} cards.",
        "{{ plural(n, one='card', other='cards') }} left",
        "{% if a %}Yes{% else %}No{% endif %}",
        "Ok",
        "2–4 players · {{ rounds }} rounds",
    ],
)
def test_a_pseudo_string_is_longer_accented_and_keeps_its_tags(text):
    out = pseudo_text(text)
    assert out.startswith("[") and out.endswith("]")
    printed = len(TAG.sub("00", text))  # a tag prints a value: counted as a short number
    assert len(TAG.sub("00", out)) >= printed * (1 + GROWTH)
    assert TAG.findall(out) == TAG.findall(text)
    outside = TAG.sub("", out)
    assert not re.search(r"[A-Za-z]{3}", re.sub(r"[bfjmpqvxBFJMPQVX]", "", outside[1:-1])) or "{" in text
    assert outside != TAG.sub("", text)


def test_a_pseudo_string_keeps_its_rich_text_markup():
    """Icons, colour spans and escapes stay as written, so qps prints the same icons in the same colours (an
    accented `:çöîñ:` would print as letters, an accented `[#ç33å2b]` as text); the words are accented."""
    from generator.layout.rich import parse_rich
    from generator.spec.assets import probe
    from tests.spec.test_icons import COIN

    out = pseudo_text(r"**Gain** 2 :coin: [#c33a2b]red :star:[/] [muted]x[/] \:no")
    assert ":coin:" in out and "[#c33a2b]" in out and ":star:[/]" in out and "[muted]" in out and "\\:" in out
    pieces = parse_rich(out, "qps", icons={"coin": probe(COIN, "assets/icons/coin.svg")})
    assert [p.icon for p in pieces if p.icon] == ["coin", "star"]
    assert [p.text for p in pieces if p.bold] == ["Ĝåîñ"] and {p.colour for p in pieces} == {
        None,
        "#c33a2b",
        "muted",
    }


def test_the_empty_string_stays_empty():
    assert pseudo_text("") == ""


@pytest.mark.parametrize("kit_dir", KITS, ids=[k.name for k in KITS])
def test_every_pseudo_string_has_its_glyphs(kit_dir):
    cat = with_tool_catalogs(load_kit(kit_dir))[PSEUDO]
    assert {
        tid: m
        for tid, text in cat.messages.items()
        for f in ("regular", "bold")
        if (m := missing_glyphs(text, f))
    } == {}


@pytest.mark.parametrize("kit_dir", KITS, ids=[k.name for k in KITS])
def test_every_shipped_kit_fits_qps_or_names_each_box(kit_dir):
    """validate --lang qps: each overflow is located at the English string a translator will translate."""
    kit = load_kit(kit_dir)
    english = with_tool_catalogs(kit)["en"]
    found, _ = pseudo_overflows(kit)
    for p in found:
        assert p.file == english.path and p.line == english.lines[p.key], str(p)
    assert len({p.key for p in found}) == len(found)  # each box once


def test_validate_in_qps_through_the_cli():
    run = pnpkit("validate", "layouts/sprout_sheet", "--lang", "qps", cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert "sprout_sheet/kit.yaml: ok (deck, 3 components, qps)" in run.stdout
    run = pnpkit("validate", "layouts/raindrops", "--lang", "qps", cwd=ROOT)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "layouts/raindrops/locales/en.po:" in run.stderr and "(qps)" in run.stderr


def test_each_overflowing_box_is_named_not_just_the_first(tmp_path):
    import shutil

    kit_dir = tmp_path / "sprout_sheet"
    shutil.copytree(ROOT / "layouts" / "sprout_sheet", kit_dir)
    spec = kit_dir / "kit.yaml"
    text = spec.read_text(encoding="utf-8")
    # the goal-name box made so narrow that English fits only near its smallest size: longer names overflow
    narrow = text.replace(
        "{type: text, x: 5mm, y: 20mm, w: 34mm, h: 9mm,", "{type: text, x: 5mm, y: 20mm, w: 24mm, h: 9mm,"
    )
    assert narrow != text
    spec.write_text(narrow, encoding="utf-8")
    kit = load_kit(kit_dir)
    found, _ = pseudo_overflows(kit)
    keys = {p.key for p in found}
    assert len(keys) >= 3 and all(k.startswith("goal.") and k.endswith(".name") for k in keys), keys
    assert all(p.file.endswith("sprout_sheet/locales/en.po") for p in found)
