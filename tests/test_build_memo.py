"""The build's memo (generator.buildkeys.Memo): a rebuild reuses what the last successful build of the same
kit into OUT parsed and checked -- kit.yaml's parse, the palette's colour-vision check, each catalog's
template check, the game's print data -- only where their inputs are byte for byte the same, never hides a
failing check, and leaves OUT byte-identical to a clean build."""

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.buildkeys import INPUTS, Memo
from generator.errors import KitError
from generator.pipeline import build
from tests.kitcopy import RR, clean_build, edit, fresh_copy, tree

ROOT = Path(__file__).resolve().parents[1]
SETUP = 'msgid "rules.setup"\nmsgstr "'
EN = ["en"]
"""The language of the tests whose memo entries are per build (kit.yaml's parse, the palette's check, the
print data: computed once, before any language is composed), so that more languages would run the same code
again (the tests of catalogs and the clean-build comparisons of a one-string edit build all five)."""


# one xdist worker runs the tests of this group (test_build_memo, test_incremental, fuzz/test_hostile_folder),
# so each clean build they share (`clean_build`) is made once a run
pytestmark = pytest.mark.xdist_group("kit_builds")


@pytest.fixture
def kit():
    """A pristine copy of Ripple Rush, at the same path in every test of this process (see `fresh_copy`)."""
    return fresh_copy(RR)


@pytest.fixture
def calls(monkeypatch):
    """Counts of the memoised computations: kit.yaml parses, colour checks, template checks, print data."""
    import generator.games.ripple_rush.figures as figures
    import generator.i18n.sandbox as sandbox
    import generator.spec.colours as colours
    import generator.spec.yamlio as yamlio

    counts = {"yaml": 0, "colours": 0, "templates": 0, "print_data": 0}

    def counted(name, fn):
        def wrapper(*a, **k):
            counts[name] += 1
            return fn(*a, **k)

        return wrapper

    monkeypatch.setattr(yamlio, "parse_yaml", counted("yaml", yamlio.parse_yaml))
    monkeypatch.setattr(colours, "colour_problems", counted("colours", colours.colour_problems))
    monkeypatch.setattr(sandbox, "template_problem", counted("templates", sandbox.template_problem))
    monkeypatch.setattr(figures, "print_data", counted("print_data", figures.print_data))
    return counts


def test_a_one_string_edit_reuses_parse_checks_and_print_data_and_matches_a_clean_build(kit, tmp_path, calls):
    out = tmp_path / "out"
    clean_build(kit, out, fresh=True)  # a real build: its counts are asserted
    assert calls["yaml"] == 1 and calls["colours"] == 1 and calls["print_data"] == 1
    templates = calls["templates"]
    assert templates > 100  # every string of the five catalogs
    en = kit / "locales" / "en.po"
    edit(en, SETUP, f"{SETUP}Shuffle well. ")
    again = build([kit], out=out)
    # the rules card and the print checklist (which counts every part's sheets)
    assert (again.rebuilt, calls["yaml"], calls["colours"], calls["print_data"]) == (2, 1, 1, 1)
    # only the edited catalog's strings are checked again
    assert calls["templates"] - templates == len(_messages(en))
    clean_build(kit, tmp_path / "clean")
    assert tree(out) == tree(tmp_path / "clean")  # the build record (with its memo) included


def _messages(po: Path) -> list[str]:
    from generator.spec.catalogs import read_catalog

    return list(read_catalog(po, po.name, "en").messages.values())


def test_a_changed_kit_yaml_is_parsed_checked_and_asked_again(kit, tmp_path, calls):
    """In one language (`EN`): the palette is in every part's key whatever its language."""
    out = tmp_path / "out"
    clean_build(kit, out, langs=EN)
    first = dict(calls)  # (a real first build counts one of each: the test above)
    edit(kit / "kit.yaml", '{id: red,    colour: "#d62d3a"', '{id: red,    colour: "#d62d3b"')
    r = build([kit], out=out, langs=EN)
    assert [calls[k] - first[k] for k in ("yaml", "colours", "print_data")] == [1, 1, 1] and r.rebuilt == 6
    clean_build(kit, tmp_path / "clean", langs=EN)
    assert tree(out) == tree(tmp_path / "clean")


def test_the_memo_never_hides_a_failing_check(kit, tmp_path):
    """A palette that fails after a build that passed is refused, and nothing is written (one language:
    `EN`)."""
    out = tmp_path / "out"
    clean_build(kit, out, langs=EN)
    before = tree(out)
    edit(
        kit / "kit.yaml",
        '{id: red,    colour: "#d62d3a", symbol: square}',
        '{id: red,    colour: "#1f6fd3", symbol: square}',
    )
    build([kit], out=out, langs=EN)  # close colours, different marks: a note, the build passes
    passed = tree(out)
    assert passed != before
    edit(
        kit / "kit.yaml",
        '{id: red,    colour: "#1f6fd3", symbol: square}',
        '{id: red,    colour: "#1f6fd3", symbol: circle}',
    )
    with pytest.raises(KitError, match=r"look alike under protanopia"):
        build([kit], out=out, langs=EN)
    assert tree(out) == passed


def test_force_reads_no_memo(kit, tmp_path, calls):
    """One language (`EN`): the memo is read once a build, or not at all."""
    out = tmp_path / "out"
    clean_build(kit, out, langs=EN)
    first = dict(calls)
    build([kit], out=out, force=True, langs=EN)
    assert [calls[k] - first[k] for k in ("yaml", "colours", "print_data")] == [1, 1, 1]


def test_a_memo_of_another_generator_is_ignored(kit, tmp_path, calls):
    """The memo is filed under the generator's and fonts' digest: another version of either starts afresh."""
    out = tmp_path / "out"
    clean_build(kit, out)
    first = dict(calls)
    (record,) = (out / INPUTS).glob("*.json")
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["memo"]["entries"]
    data["memo"]["tool"] = "another generator"
    record.write_text(json.dumps(data), encoding="utf-8")
    edit(kit / "locales" / "en.po", SETUP, f"{SETUP}Shuffle well. ")
    build([kit], out=out)
    assert [calls[k] - first[k] for k in ("yaml", "colours", "print_data")] == [1, 1, 1]


def test_only_plain_json_is_filed_and_it_reads_back_in_order():
    memo = Memo("tool")
    value = {"b": [1, 2.5, None, True, "x"], "a": {"z": 1, "y": [[]]}}
    assert memo.remember_json("k", value)
    again = Memo("tool", json.loads(json.dumps(memo.dump(), sort_keys=True)))  # the record is written sorted
    back = again.recall_json("k")
    assert back == value and list(back) == ["b", "a"] and list(back["a"]) == ["z", "y"]
    for bad in ({1: "int key"}, {"t": (1, 2)}, [math.nan], [math.inf], {"o": object()}, [1.0, {"s": {1, 2}}]):
        assert not memo.remember_json("bad", bad), bad
    assert memo.recall("bad") is None
    assert Memo("other tool", memo.dump()).recall("k") is None
    assert Memo("tool", {"tool": "tool", "entries": "not a mapping"}).recall("k") is None
    assert Memo("tool", {"tool": "tool", "entries": {"k": "{not json"}}).recall_json("k") is None


def test_a_one_string_edit_rebuild_loads_no_yaml_parser_colour_science_rules_or_rasteriser(kit, tmp_path):
    """The whole-process cost of a one-string edit (bench/bench_build.py): the rebuild imports neither the
    YAML parser, nor numpy and the colour-vision libraries, nor the game's rules, nor the rasteriser, and
    restores the fonts' tables instead of parsing them; its output is a clean build's, byte for byte."""
    out = tmp_path / "out"
    clean_build(kit, out)
    assert (out / ".pnpkit" / "fonts.json").is_file()
    edit(kit / "locales" / "en.po", SETUP, f"{SETUP}Shuffle well. ")
    code = (
        "import sys\nfrom pathlib import Path\nfrom reportlab.pdfbase.ttfonts import TTFontFile\n"
        "parsed = []\nreal = TTFontFile.extractInfo\n"
        "def counted(self, charInfo=1):\n    parsed.append(charInfo)\n    return real(self, charInfo)\n"
        "TTFontFile.extractInfo = counted\n"
        "from generator.pipeline import build\n"
        f"r = build([Path({str(kit)!r})], out=Path({str(out)!r}))\n"
        "heavy = ('ruamel', 'numpy', 'daltonlens', 'colorspacious', 'pypdfium2', 'numba', 'statsmodels')\n"
        "print(r.rebuilt, sorted(m for m in sys.modules if m.split('.')[0] in heavy"
        " or m.endswith(('.rules', '.figures'))), parsed)"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "[]", "[0,", "0]"], (
        done.stdout
    )  # rules + checklist; both faces: headers only
    clean_build(kit, tmp_path / "clean")
    assert tree(out) == tree(tmp_path / "clean")


def test_the_tool_key_is_read_once_per_version_of_the_sources_and_fonts(kit, tmp_path, monkeypatch):
    """Digesting the generator's sources and the fonts (some 11 MB) is skipped while a stat of each file
    matches the last build's; any other stamp digests them again, and a changed digest rebuilds everything.
    One language (`EN`): the tool is digested once a build, before any language, and its key is in every
    part's key whatever its language (`buildkeys.spec_key`)."""
    import generator.buildkeys as keys

    out = tmp_path / "out"
    digests: list[int] = []
    real = keys.tool_key
    monkeypatch.setattr(keys, "tool_key", lambda: digests.append(1) or real())
    clean_build(kit, out, fresh=True, langs=EN)  # a real first build: the tool is digested once
    assert digests == [1]
    edit(kit / "locales" / "en.po", SETUP, f"{SETUP}Shuffle well. ")
    # the recorded key, for the recorded stamp
    assert build([kit], out=out, langs=EN).rebuilt == 2 and digests == [1]
    assert build([kit], out=out, langs=EN).rebuilt == 0 and digests == [1]
    monkeypatch.setattr(keys, "tool_stamp", lambda: "another version of the sources")
    assert build([kit], out=out, langs=EN).rebuilt == 0 and digests == [1, 1]  # digested again: the same key
    monkeypatch.setattr(keys, "tool_key", lambda: digests.append(1) or "another generator")
    monkeypatch.setattr(keys, "tool_stamp", lambda: "yet another version")
    assert build([kit], out=out, langs=EN).rebuilt == 6 and digests == [1, 1, 1]  # every part of the language
