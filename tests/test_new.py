"""`pnpkit new NAME --from KIT`: a renamed, validating copy; never overwrites; bad names refused."""

import re
from pathlib import Path

import pytest

from tests.clirun import pnpkit

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # new, validate and build (in this process: tests/clirun.py)
def test_new_then_validate_and_build(tmp_path):
    r = pnpkit("new", "my_rr", "--from", "ripple_rush", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "pnpkit build my_rr" in r.stdout and "pnpkit serve my_rr" in r.stdout
    kit = tmp_path / "my_rr"
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    assert "  id: my_rr\n" in text and "  title: my_rr.title\n" in text
    assert text.startswith("# Ripple Rush: flip-and-write")  # comments kept
    assert "bonuses: [5, 10, blue, red, green, orange, 15, 20]   # top row first" in text
    for lang in ("en", "ja", "es"):
        po = (kit / "locales" / f"{lang}.po").read_text(encoding="utf-8")
        assert 'msgid "my_rr.title"' in po and 'msgid "kit.title"' not in po
    assert "locales/en.po" in (kit / "README.md").read_text(encoding="utf-8")
    v = pnpkit("validate", "my_rr", cwd=tmp_path)
    assert v.returncode == 0, v.stderr
    b = pnpkit("build", "my_rr", "--lang", "en", "--out", "out", cwd=tmp_path)
    assert b.returncode == 0, b.stderr
    assert (tmp_path / "out" / "my_rr" / "en" / "kit-a4.pdf").stat().st_size > 10_000


def _changed_lines(a: str, b: str) -> list[tuple[str, str]]:
    one, two = a.split("\n"), b.split("\n")
    assert len(one) == len(two)
    return [(x, y) for x, y in zip(one, two, strict=True) if x != y]


@pytest.mark.parametrize("source", ["harvest_deck", "sprout_sheet", "peak_dice", "raindrops", "rummy_cards"])
def test_a_variant_of_every_shipped_kit_validates_and_keeps_its_spec_as_written(tmp_path, source):
    """A variant of each shipped kit validates (a data kit whose card templates print `t('kit.title')` keeps
    that text id), and its kit.yaml is the source's, byte for byte, but for the kit.id and kit.title values:
    long flow mappings, aligned columns and comments as the designer wrote them."""
    r = pnpkit("new", "mine", "--from", source, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    before = (ROOT / "layouts" / source / "kit.yaml").read_text(encoding="utf-8")
    after = (tmp_path / "mine" / "kit.yaml").read_text(encoding="utf-8")
    title = re.search(r"title text id ([\w.]+)\)", r.stdout.replace("\n  ", " "))
    assert title is not None, r.stdout
    changed = _changed_lines(before, after)
    assert changed[0] == (f"  id: {source}", "  id: mine"), changed
    assert changed[1:] == ([] if title[1] == "kit.title" else [("  title: kit.title", "  title: mine.title")])
    templated = "t('kit.title')" in before
    assert (title[1] == "kit.title") == templated


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (
            'kit: {id: "abc", title: kit.title, seed: 1}  # c\n',
            "kit: {id: mine, title: mine.title, seed: 1}  # c\n",
        ),
        (
            "kit:\n  id: 'abc'   # the id\n  title: kit.title\n",
            "kit:\n  id: mine   # the id\n  title: mine.title\n",
        ),
        ("kit:\n  id: abc\n", "kit:\n  id: mine\n  title: mine.title\n"),  # no title: the key is added
    ],
)
def test_only_the_two_values_are_rewritten(spec, expected):
    from ruamel.yaml import YAML

    from generator.newkit import _renamed

    yaml = YAML(typ="rt")
    assert _renamed(yaml, yaml.load(spec), "mine", "mine.title", spec) == expected


def test_new_refuses_to_overwrite(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "keep.txt").write_text("mine", encoding="utf-8")
    r = pnpkit("new", "mine", "--from", "ripple_rush", cwd=tmp_path)
    assert r.returncode == 1
    assert (
        r.stderr
        == "error: mine: already exists; pnpkit new never overwrites (choose another NAME or remove it)\n"
    )
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["keep.txt"]


def test_new_bad_name_and_source(tmp_path):
    r = pnpkit("new", "My-Kit", "--from", "ripple_rush", cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "NAME: expected lower-case letters, digits and _" in r.stderr and "got 'My-Kit'" in r.stderr
    r = pnpkit("new", "ok_name", "--from", "nope", cwd=tmp_path)
    assert r.returncode == 1
    assert (
        "--from: expected a kit folder (holding kit.yaml) or one of harvest_deck, peak_dice, raindrops, "
        "ripple_rush, "
        "rummy_cards, sprout_sheet; got 'nope'" in r.stderr
    )
    r = pnpkit("new", "ok_name", "--from", "Ripple", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr.endswith("got 'Ripple'; did you mean ripple_rush?\n"), r.stderr
    r = pnpkit("new", "ok_name", "--from", "../layouts/ripple_rush", cwd=tmp_path)  # no such path here
    assert r.returncode == 1 and "got '../layouts/ripple_rush'" in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_new_template_deck_scaffolds_a_data_kit_that_builds(tmp_path):
    """`pnpkit new my_game --template deck` (issue 25): CSV, templates, catalogs and a README naming what to
    edit; it validates and builds at once, and its cards print the CSV's rows."""
    import pdfplumber

    r = pnpkit("new", "my_game", "--template", "deck", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    kit = tmp_path / "my_game"
    assert (kit / "data" / "cards.csv").is_file() and "data/cards.csv" in (kit / "README.md").read_text()
    assert "id: my_game" in (kit / "kit.yaml").read_text()
    readme = (kit / "README.md").read_text(encoding="utf-8")
    # one placeholder syntax: the README shows {{ name }} as the templates and catalogs take it, never
    # { name }
    assert "`{{ field }}` prints a field" in readme and "{{ name }}" in readme
    assert not re.search(r"(?<!\{)\{ *[a-z_]+ *\}(?!\})", readme.replace("`{name}`", "")), readme
    assert "# my_game" in readme and "{kit_id}" not in readme
    csv_path = kit / "data" / "cards.csv"
    csv_path.write_text(csv_path.read_text(encoding="utf-8").replace("Spark,", "Ember,"), encoding="utf-8")
    r = pnpkit("build", "my_game", "--out", "out", "--lang", "en", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    with pdfplumber.open(tmp_path / "out" / "my_game" / "en" / "cards-a4.pdf") as pdf:
        assert pdf.pages[0].extract_text(char_dir_rotated="btt").count("Ember") == 4


def test_new_needs_exactly_one_of_from_and_template(tmp_path):
    for args in ([], ["--from", "ripple_rush", "--template", "deck"]):
        r = pnpkit("new", "x", *args, cwd=tmp_path)
        assert r.returncode == 1 and "either --from" in r.stderr and not (tmp_path / "x").exists()
    r = pnpkit("new", "x", "--template", "nope", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr.endswith("--template: expected one of deck; got 'nope'\n")
    r = pnpkit("new", "x", "--template", "dek", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr.endswith("got 'dek'; did you mean deck?\n")


def _shipped_languages() -> set[str]:
    """Every language some kit in layouts/ ships, read from the kit.yaml files with a YAML reader."""
    from ruamel.yaml import YAML

    out: set[str] = set()
    for spec in sorted((ROOT / "layouts").glob("*/kit.yaml")):
        out |= set(YAML(typ="safe").load(spec.read_text(encoding="utf-8"))["kit"]["languages"])
    return out


def test_new_template_deck_ships_every_language_pnpkit_ships(tmp_path):
    """The starter deck has a catalog and a card name for every language of the shipped kits (en ja es de fr),
    and builds in each: a name missing in the CSV would fall back to English with a warning."""
    import pdfplumber

    langs = _shipped_languages()
    assert {"en", "ja", "es", "de", "fr"} <= langs
    r = pnpkit("new", "my_game", "--template", "deck", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    kit = tmp_path / "my_game"
    assert {p.stem for p in (kit / "locales").glob("*.po")} == langs
    header = (kit / "data" / "cards.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    assert {f"name@{lang}" for lang in langs - {"en"}} <= set(header)
    b = pnpkit("build", "my_game", "--out", "out", "--lang", ",".join(sorted(langs)), cwd=tmp_path)
    assert b.returncode == 0 and "warning" not in b.stderr, b.stderr
    words = {"de": "Funke", "fr": "Étincelle", "es": "Chispa"}
    for lang, word in words.items():
        with pdfplumber.open(tmp_path / "out" / "my_game" / lang / "cards-a4.pdf") as pdf:
            assert pdf.pages[0].extract_text(char_dir_rotated="btt").count(word) == 4, lang
