"""`style.icons` of kit.yaml: the kit's own inline icons, read through the kit door, drawn where a card text
or a rules string says `:name:`, listed by `pnpkit list --slots`; a missing or bad icon and an unknown
`:name:` are located errors; a lone `{name}` in a catalog is a located warning."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.clirun import Ran
from tests.clirun import pnpkit as run_cli

ROOT = Path(__file__).resolve().parents[2]
STARTER = ROOT / "generator" / "templates" / "deck"
COIN = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><circle cx="10" cy="10" r="9" '
    b'fill="#e0a000"/></svg>'
)
EFFECT = (
    '        - {type: text, x: 6mm, y: 64mm, w: 51.5mm, h: 10mm, text: "**Gain** {{ cost }} :coin:", '
    "size: 10pt, align: left}\n"
)


def starter(tmp_path: Path, *, icons: str = "[coin]", effect: str = EFFECT, svg: bytes | None = COIN) -> Path:
    """The starter deck kit with `style.icons`, assets/icons/coin.svg and a card text naming :coin:."""
    kit = tmp_path / "kit"
    shutil.copytree(STARTER, kit)
    spec = kit / "kit.yaml"
    text = spec.read_text(encoding="utf-8")
    anchor = "        - {type: text, x: 6mm, y: 76mm"
    assert anchor in text
    text = text.replace(anchor, effect + anchor, 1) + f"\nstyle:\n  icons: {icons}\n"
    spec.write_text(text, encoding="utf-8")
    if svg is not None:
        (kit / "assets" / "icons").mkdir(parents=True)
        (kit / "assets" / "icons" / "coin.svg").write_bytes(svg)
    return kit


def pnpkit(*args: str, cwd: Path) -> Ran:
    """`pnpkit ARGS...` in this process at 80 columns (tests/clirun.py): these tests read the command's exit
    code and messages, not the interpreter's (a fresh one cost each command about 0.4 CPU-s)."""
    return run_cli(*args, cwd=cwd, env={"COLUMNS": "80"})


def test_a_card_prints_the_kit_icon_from_its_svg(tmp_path):
    import pikepdf

    from generator.pipeline import build

    kit = starter(tmp_path)
    result = build([kit], out=tmp_path / "out", langs=["en"])
    pdf = next(p for p in result.files if p.name.startswith("cards") and p.suffix == ".pdf")
    with pikepdf.open(pdf) as doc:
        forms = [x for x in doc.pages[0].Resources.XObject.values() if x.get("/Subtype") == "/Form"]
        assert forms  # the SVG, drawn once as a Form XObject and placed on every card
        content = (
            doc.pages[0].Contents.read_bytes()
            if not isinstance(doc.pages[0].Contents, pikepdf.Array)
            else b"".join(c.read_bytes() for c in doc.pages[0].Contents)
        )
    assert content.count(b" Do") >= 4  # placed on every card of the sheet


def test_list_slots_names_the_kits_icons_and_the_built_in_ones(tmp_path):
    kit = starter(tmp_path)
    r = pnpkit("list", str(kit), "--slots", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (
        "  inline icons (kit.yaml: style.icons; in a text :name:):\n    :coin: assets/icons/coin.svg\n"
        in r.stdout
    )
    assert ":star:" in r.stdout and all(
        len(line) <= 80 for line in r.stdout.splitlines() if not line.startswith("  folder: ")
    )


def test_an_unknown_icon_in_a_card_text_is_a_located_error_with_did_you_mean(tmp_path):
    kit = starter(tmp_path, effect=EFFECT.replace(":coin:", ":coins:"))
    r = pnpkit("validate", str(kit), "--lang", "en", cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "data/cards.csv:2" in r.stderr and "no icon :coins: (did you mean :coin:" in r.stderr, r.stderr


def test_a_missing_icon_file_is_located_at_its_style_icons_entry(tmp_path):
    kit = starter(tmp_path, icons="[coin, gem]")
    r = pnpkit("validate", str(kit), cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    line = next(
        n for n, text in enumerate((kit / "kit.yaml").read_text().splitlines(), 1) if "icons:" in text
    )
    assert (
        f"kit.yaml:{line}: style.icons[1]: no such file in the kit folder: 'assets/icons/gem.svg' (the icon "
        f":gem:)" in r.stderr
    ), r.stderr


@pytest.mark.parametrize("name", ["../../etc/passwd", "Coin", "a b", "x" * 41, ""])
def test_an_icon_name_that_is_not_a_plain_name_is_refused_unread(tmp_path, name):
    kit = starter(tmp_path, icons=f"['{name}']")
    r = pnpkit("validate", str(kit), cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "style.icons[0]" in r.stderr or "style.icons:" in r.stderr, r.stderr
    assert "an icon name is lower-case letters, digits and _" in r.stderr, r.stderr


def test_a_lone_placeholder_in_a_catalog_is_a_located_warning(tmp_path):
    kit = starter(tmp_path)
    po = kit / "locales" / "en.po"
    text = po.read_text(encoding="utf-8")
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith('msgid "type.basic"'))
    lines[at + 1] = 'msgstr "Basic {hero} and { n }"'
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = pnpkit("validate", "kit", "--lang", "en", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (
        f"warning: kit/locales/en.po:{at + 1}: type.basic: {{hero}}, {{ n }} prints as written (a lone "
        "placeholder); write {{ hero }}, {{ n }}\n"
    ) in r.stderr, r.stderr
    assert r.stderr.count("lone placeholder") == 1  # the other catalogs hold none


def test_only_a_lone_brace_pair_is_a_placeholder_warning():
    from generator.spec.catalogs import Catalog, lone_placeholders

    cat = Catalog(
        "en",
        "en.po",
        {"a": "{{ hero }} {% if x %}{x}{% endif %}", "b": "{{hero}} { a, b } {}", "c": "{{ {x} }}"},
        {"a": 3, "b": 5, "c": 7},
    )
    assert lone_placeholders(cat) == ["en.po:3: a: {x} prints as written (a lone placeholder); write {{ x }}"]


def test_an_icon_whose_text_the_fonts_cannot_print_is_located(tmp_path):
    from generator.contract.load import load_kit
    from generator.errors import SpecError

    svg = (
        b'<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><text x="2" y="15">\xd7\x90\xd7\x91'
        b"</text></svg>"
    )  # Hebrew, which the built-in font has not
    kit = starter(tmp_path, svg=svg)
    with pytest.raises(SpecError) as e:
        load_kit(kit)
    assert (
        "style.icons[0]: assets/icons/coin.svg: the SVG's text 'אב' has characters no regular face of the "
        "kit "
        "has: U+05D0 'א' U+05D1 'ב'" in str(e.value)
    )


def test_the_icon_stands_as_tall_as_the_kit_body_fonts_x_height(tmp_path):
    """With `style.fonts`, an inline icon is the body face's x-height tall (DejaVu Sans: its 'x' glyph's top,
    the font has no OS/2 sxHeight), not the built-in font's."""
    from fontTools.ttLib import TTFont

    from generator.layout.ops import Place, Text, Vector, fitted
    from generator.pipeline import load_kits, plan_build
    from generator.render.fonts import text_width

    font = ROOT / "tests" / "render" / "fonts" / "DejaVuSans-ArabicHebrew.ttf"
    kit = starter(tmp_path)
    (kit / "assets" / "fonts").mkdir()
    shutil.copy(font, kit / "assets" / "fonts" / "body.ttf")
    spec = kit / "kit.yaml"
    spec.write_text(
        spec.read_text(encoding="utf-8").replace(
            "style:\n",
            "style:\n  fonts:\n    body: {regular: assets/fonts/body.ttf, bold: assets/fonts/body.ttf, "
            "fallback: [{regular: builtin, bold: builtin}]}\n",
        ),
        encoding="utf-8",
    )
    with TTFont(font) as tt:
        expected = tt["glyf"][tt.getBestCmap()[ord("x")]].yMax / tt["head"].unitsPerEm
    assert abs(expected - 0.54) > 0.005  # else the test could not tell the two apart
    (loaded,) = load_kits([kit])
    assert loaded.fonts is not None and loaded.fonts.x_height == pytest.approx(expected)
    planned = plan_build(
        [loaded], out=tmp_path, langs=["en"], paper="a4", seed=None, measure=text_width, warn=lambda m: None
    )
    page = next(p for p in planned if p.path.name.startswith("cards")).pages[0]

    def walk(ops):
        for op in ops:
            if isinstance(op, Place):
                yield from walk(op.ops)
            else:
                yield op

    ops = list(walk(page.ops))
    icon = next(op for op in ops if isinstance(op, Vector) and op.slot == "icon:coin")
    size = next(op.size for op in ops if isinstance(op, Text) and op.text == "Gain")
    assert fitted(icon)[3] == pytest.approx(expected * size, abs=0.01)
