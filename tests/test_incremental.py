"""Incremental builds: unchanged components are kept, the kit PDF is reassembled from the component PDFs with
its bookmarks, and the result is byte-identical to a clean build; --force draws everything; nothing is
written when an edit breaks the kit."""

import json
import re
from pathlib import Path

import pypdf
import pytest

from generator.errors import KitError
from generator.pipeline import build
from tests.kitcopy import RR, clean_build, edit, fresh_copy, tree

ROOT = Path(__file__).resolve().parents[1]
PARTS = 30  # 4 components + the calibration sheet + the print checklist, in 5 languages


# one xdist worker runs the tests of this group (test_build_memo, test_incremental, fuzz/test_hostile_folder),
# so each clean build they share (`clean_build`) is made once a run
pytestmark = pytest.mark.xdist_group("kit_builds")


@pytest.fixture
def kit():
    """A pristine copy of Ripple Rush, at the same path in every test of this process (see `fresh_copy`)."""
    return fresh_copy(RR)


def rebuilt_names(out: Path, before: dict[str, bytes]) -> list[str]:
    after = tree(out)
    return sorted(
        k for k in after if before.get(k) != after[k] and ".pnpkit" not in k.split("/")
    )  # bookkeeping aside


def test_one_rules_msgstr_redraws_only_the_rules_card_and_matches_a_clean_build(kit, tmp_path):
    out = tmp_path / "out"
    first = clean_build(kit, out)
    assert (first.rebuilt, first.skipped) == (PARTS, 0)
    before = tree(out)
    edit(
        kit / "locales" / "en.po",
        'msgid "rules.setup"\nmsgstr "',
        'msgid "rules.setup"\nmsgstr "Shuffle well. ',
    )
    again = build([kit], out=out)
    assert (again.rebuilt, again.skipped) == (
        2,
        PARTS - 2,
    )  # the rules and the checklist that counts their sheets
    assert sorted(p.relative_to(out).as_posix() for p in again.files) == [
        "ripple_rush/en/kit-a4.pdf",
        "ripple_rush/en/rules-a4.pdf",
    ]
    assert rebuilt_names(out, before) == ["ripple_rush/en/kit-a4.pdf", "ripple_rush/en/rules-a4.pdf"]
    clean_build(kit, tmp_path / "clean")
    assert tree(out) == tree(tmp_path / "clean")


def test_an_unchanged_kit_writes_nothing_and_force_redraws_everything(kit, tmp_path):
    """In one language: `force` is one switch for the whole build (the five-language forced rebuild is
    test_unchanged_inputs_are_keyed_before_anything_is_loaded's last step)."""
    out = tmp_path / "out"
    clean_build(kit, out, langs=["en"])
    before = tree(out)
    same = build([kit], out=out, langs=["en"])
    assert (same.rebuilt, same.skipped, same.files) == (0, PARTS // 5, [])
    forced = build([kit], out=out, force=True, langs=["en"])
    assert (forced.rebuilt, forced.skipped) == (PARTS // 5, 0)
    assert tree(out) == before


def test_a_game_figure_redraws_every_part(kit, tmp_path):
    """In one language: the game section is in every part's key whatever its language
    (`buildkeys.spec_key`), so the other four would run the same code again."""
    out = tmp_path / "out"
    clean_build(kit, out, langs=["en"])
    edit(kit / "kit.yaml", "goals: {points: 3, revealed: 2}", "goals: {points: 4, revealed: 2}")
    r = build([kit], out=out, langs=["en"])
    assert (r.rebuilt, r.skipped) == (PARTS // 5, 0)
    clean_build(kit, tmp_path / "clean", langs=["en"])
    assert tree(out) == tree(tmp_path / "clean")


def test_a_string_falling_back_to_english_is_keyed_on_the_english_text(kit, tmp_path):
    out = tmp_path / "out"
    clean_build(kit, out, langs=["ja", "en"])
    ja = kit / "locales" / "ja.po"
    text = ja.read_text(encoding="utf-8")
    cut = re.sub(r'msgid "rules\.setup"\nmsgstr "[^\n]*"\n', "", text, count=1)
    assert cut != text
    ja.write_text(cut, encoding="utf-8")
    r = build([kit], out=out, langs=["ja", "en"])
    assert r.rebuilt == 2  # ja rules card now prints the English string (and the ja checklist is redrawn)
    edit(kit / "locales" / "en.po", 'msgid "rules.setup"\nmsgstr "', 'msgid "rules.setup"\nmsgstr "Now. ')
    r = build([kit], out=out, langs=["ja", "en"])
    assert r.rebuilt == 4  # both rules cards print the edited English string (and both checklists)
    clean_build(kit, tmp_path / "clean", langs=["ja", "en"])
    assert tree(out) == tree(tmp_path / "clean")


def test_a_tampered_output_file_is_drawn_again(kit, tmp_path):
    out = tmp_path / "out"
    clean_build(kit, out, langs=["en"])
    target = out / "ripple_rush" / "en" / "goal_cards-a4.pdf"
    good = target.read_bytes()
    target.write_bytes(good[:-10])
    r = build([kit], out=out, langs=["en"])
    assert r.rebuilt == 2 and target.read_bytes() == good  # the goal cards and the checklist


def test_kit_pdf_keeps_every_components_bookmark_at_its_first_page(kit, tmp_path):
    out = tmp_path / "out"
    clean_build(kit, out, langs=["en"])
    folder = out / "ripple_rush" / "en"
    reader = pypdf.PdfReader(folder / "kit-a4.pdf")
    marks = [(item.title, reader.get_destination_page_number(item)) for item in reader.outline]
    sheets = json.loads((folder / ".pnpkit" / "build.json").read_text(encoding="utf-8"))["entries"][
        "kit-a4.pdf"
    ]["sheets"]
    names = ("checklist", "calibration", "score_sheet", "number_cards", "goal_cards", "rules")
    starts = [next(i for i, row in enumerate(sheets) if row["component"] == name) for name in names]
    assert starts[:2] == [0, 2] and all(i % 2 == 0 for i in starts)  # each on the front of a sheet
    assert marks == list(
        zip(
            [
                "Print checklist",
                "Duplex calibration",
                "Score sheets",
                "Number cards",
                "Goal cards",
                "Rules summary",
            ],
            starts,
            strict=True,
        )
    )
    assert len(reader.pages) == len(sheets)
    assert reader.metadata.title == "Ripple Rush"
    assert reader.trailer["/Root"]["/PageMode"] == "/UseOutlines"


def test_a_broken_edit_writes_nothing(kit, tmp_path):
    out = tmp_path / "out"
    clean_build(kit, out)
    before = tree(out)
    edit(kit / "locales" / "en.po", 'msgid "rules.setup"\nmsgstr "', 'msgid "rules.setup"\nmsgstr "{{ nope( ')
    with pytest.raises(KitError, match=r"en\.po:\d+: rules\.setup: "):
        build([kit], out=out)
    assert tree(out) == before


def test_cli_build_reports_kept_parts_and_force_redraws(kit, tmp_path):
    """What `pnpkit build` prints of an incremental build (in-process: the command's output is the point,
    not the interpreter; tests/test_cli.py starts the real one)."""
    from typer.testing import CliRunner

    from generator.cli import app

    def cli(*args):
        r = CliRunner().invoke(
            app, ["build", str(kit), "--lang", "en", "--out", str(tmp_path / "out"), *args]
        )
        assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
        return r

    first = cli()
    assert first.exit_code == 0, first.stderr
    # 4 components, the calibration sheet and the kit PDF; parts: the components, calibration and checklist
    assert "6 files written (6 parts drawn, 0 unchanged)" in first.stdout.replace("\n", " ")
    assert "ripple_rush/en:\n  1. Print kit-a4.pdf" in first.stdout
    assert "ripple_rush/en: 19 sheets of paper" in first.stdout
    again = cli()
    assert "0 files written (0 parts drawn, 6 unchanged)" in again.stdout.replace("\n", " ")
    # the summary is kept with the build record
    assert (
        "ripple_rush/en:\n  1. Print kit-a4.pdf" in again.stdout
        and "ripple_rush/en: 19 sheets" in again.stdout
    )
    forced = cli("--force")
    assert "6 files written (6 parts drawn, 0 unchanged)" in forced.stdout.replace("\n", " ")


def test_unchanged_inputs_are_keyed_before_anything_is_loaded(kit, tmp_path, monkeypatch):
    """A rebuild whose input files (kit.yaml, catalogs), generator, fonts, options and outputs are those of
    the last build of the same kit and options reports what that build reported and loads nothing; when an
    output file, the options or a catalog's bytes differ, the kit is loaded and keyed part by part again."""
    import generator.pipeline as b

    out = tmp_path / "out"
    first = clean_build(kit, out)
    before = tree(out)
    loads: list[int] = []
    real = b.load_kits
    monkeypatch.setattr(b, "load_kits", lambda paths, **kw: loads.append(1) or real(paths, **kw))
    same = build([kit], out=out)
    assert (same.rebuilt, same.skipped, same.files, same.pages, loads) == (0, PARTS, [], first.pages, [])
    assert same.warnings == first.warnings and tree(out) == before
    target = out / "ripple_rush" / "ja" / "number_cards-a4.pdf"
    target.write_bytes(b"%PDF-1.4 tampered")
    fixed = build([kit], out=out)
    assert (fixed.rebuilt, loads) == (2, [1]) and tree(out) == before
    en_only = build([kit], out=out, langs=["en"])
    assert (en_only.rebuilt, en_only.skipped, loads) == (0, PARTS // 5, [1, 1])  # 5 languages
    po = kit / "locales" / "es.po"
    po.write_bytes(po.read_bytes() + b"\n")  # new bytes, the same strings: loaded, nothing redrawn
    again = build([kit], out=out)
    assert (again.rebuilt, again.skipped, again.files, loads) == (0, PARTS, [], [1, 1, 1])
    assert build([kit], out=out).rebuilt == 0 and loads == [1, 1, 1]
    # the key covers the files the kit uses, not the folder: a file it does not name changes nothing (and is
    # never opened); new bytes of kit.yaml load the kit again
    (kit / "assets").mkdir(exist_ok=True)
    (kit / "assets" / "back.svg").write_text("<svg/>", encoding="utf-8")
    assert build([kit], out=out).rebuilt == 0 and loads == [1, 1, 1]
    yaml = kit / "kit.yaml"
    yaml.write_bytes(yaml.read_bytes() + b"\n")
    assert build([kit], out=out).rebuilt == 0 and loads == [1, 1, 1, 1]
    assert build([kit], out=out).rebuilt == 0 and loads == [1, 1, 1, 1]
    assert build([kit], out=out, force=True).rebuilt == PARTS and loads == [1, 1, 1, 1, 1]


@pytest.mark.parametrize("used", ["data/cards.csv", "assets/emblem.svg", "locales/ja.po"])
def test_an_edit_to_any_file_a_deck_kit_uses_loads_it_again(tmp_path, monkeypatch, used):
    """The whole-build shortcut is keyed on the files the kit names (its data, art and catalogs besides
    kit.yaml): new bytes in any one of them load the kit again, and the build matches a clean one."""
    import generator.pipeline as b

    kit = fresh_copy(ROOT / "layouts" / "harvest_deck")
    out = tmp_path / "out"
    clean_build(kit, out, langs=["en"])
    loads: list[int] = []
    real = b.load_kits
    monkeypatch.setattr(b, "load_kits", lambda paths, **kw: loads.append(1) or real(paths, **kw))
    assert build([kit], out=out, langs=["en"]).files == [] and loads == []
    path = kit / used
    path.write_bytes(path.read_bytes() + b"\n")
    build([kit], out=out, langs=["en"])
    assert loads == [1]
    assert build([kit], out=out, langs=["en"]).files == [] and loads == [1]
    clean_build(kit, tmp_path / "clean", langs=["en"])
    assert {k: v for k, v in tree(out).items() if not k.startswith(".pnpkit/")} == {
        k: v for k, v in tree(tmp_path / "clean").items() if not k.startswith(".pnpkit/")
    }
