"""The command line: exit codes, messages without tracebacks, nothing written on bad input."""

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.clirun import pnpkit, pnpkit_process

ROOT = Path(__file__).resolve().parents[1]
RR = ROOT / "layouts" / "ripple_rush"


# `pnpkit(...)` runs a command in this process (tests/clirun.py); `pnpkit_process(...)` starts an interpreter
# where the process is the point: start-up imports, signals, a second run with another hash seed.


@pytest.fixture
def bad_kit(tmp_path):
    dst = tmp_path / "bad"
    shutil.copytree(RR, dst)
    p = dst / "kit.yaml"
    p.write_text(p.read_text(encoding="utf-8").replace("rows: 8", "rows: eight"), encoding="utf-8")
    return dst


def test_bad_spec_exit_1_message_no_traceback_nothing_written(bad_kit, tmp_path):
    out = tmp_path / "out"
    r = pnpkit("build", str(bad_kit), "--out", str(out))
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert "kit.yaml:" in r.stderr and "game.rows: expected a valid integer; got 'eight'" in r.stderr
    assert not out.exists() or not any(out.rglob("*"))


def test_validate_ok_and_bad(bad_kit):
    # one language: every language of Ripple Rush validates in the start-up probe below (the same command)
    ok = pnpkit("validate", str(RR), "--lang", "en")
    assert ok.returncode == 0, ok.stderr
    assert "ok" in ok.stdout
    bad = pnpkit("validate", str(bad_kit))
    assert bad.returncode == 1 and "Traceback" not in bad.stderr


def test_illegal_kit_is_refused_by_build(tmp_path):
    dst = tmp_path / "illegal"
    shutil.copytree(RR, dst)
    p = dst / "kit.yaml"
    p.write_text(
        p.read_text(encoding="utf-8").replace(
            "bonuses: [5, 10, blue, red,", "bonuses: [5, 10, blue, purple,"
        ),
        encoding="utf-8",
    )
    r = pnpkit("build", str(dst), "--out", str(tmp_path / "o"))
    assert r.returncode == 1
    assert "game.bonuses[3]" in r.stderr and "purple" in r.stderr
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").rglob("*.pdf"))


def test_unknown_language_and_paper_are_clear_errors():
    r = pnpkit("build", str(RR), "--lang", "en,it")
    # a language the kit does not ship is a usage error like a bad paper (issue 26: --lang xx exits 2)
    assert r.returncode == 2 and "--lang" in r.stderr and "ships en, ja, es, de, fr; got 'it'" in r.stderr
    r = pnpkit("build", str(RR), "--paper", "a5")
    assert (
        r.returncode == 2
        and "Invalid value for '--paper'" in r.stderr
        and "'a5' is not one of 'a4', 'letter', 'a3'" in r.stderr
    )


@pytest.mark.parametrize(
    ("typed", "tag"),
    [
        ("EN", "en"),
        ("ja-JP", "ja_JP"),
        ("pt-br", "pt_BR"),
        ("zh-hant-tw", "zh_Hant_TW"),
        ("de_DE", "de_DE"),
        ("e$", "e$"),
        ("en-", "en-"),
        ("a_b_c_d", "a_b_c_d"),
    ],
)
def test_a_language_is_taken_as_users_type_it(typed, tag):
    from generator.spec.kit import LANGUAGE_TAG, language_tag

    assert language_tag(typed) == tag
    assert bool(LANGUAGE_TAG.fullmatch(tag)) == (typed not in {"e$", "en-", "a_b_c_d"})


def test_kit_ids_and_languages_in_a_users_case_and_a_near_miss_named(tmp_path):
    r = pnpkit("validate", "Ripple_Rush", "--lang", "EN,Ja", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = pnpkit("validate", "ripple_rush", "--lang", "en-US", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.endswith("got 'en_US'; did you mean en?\n"), r.stderr
    r = pnpkit("validate", "rummy", cwd=tmp_path)
    assert (
        r.returncode == 1
        and "rummy: no such kit folder, nor a shipped kit id; did you mean rummy_cards? (" in (r.stderr)
    )


def test_a_build_in_several_languages_says_its_print_steps_once_per_kit(tmp_path):
    """The steps in English, one to a line and wrapped at 80 columns in a pipe; the languages whose kit PDFs
    open with them; one paper line for the kit where its languages print on as many sheets."""
    r = pnpkit("build", str(RR), "--lang", "ja,en", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    start = lines.index("ripple_rush/en:")
    assert lines[start + 1].startswith("  1. Print kit-a4.pdf at 100 % ") and "ripple_rush/ja:" not in lines
    assert "  (every kit PDF opens with these steps in its language: ja, en)" in lines
    paper = [line for line in lines if line.startswith("ripple_rush (ja, en): ")]
    assert len(paper) == 1 and re.match(r".*: \d+ sheets of paper each, ink on \d+(-\d+)?% of the", paper[0])
    assert all(len(line) <= 80 for line in lines[: lines.index(paper[0]) + 1])
    assert "50\nmm" not in r.stdout and "50 mm" in r.stdout  # a number keeps its unit
    again = pnpkit(
        "build", str(RR), "--lang", "ja,en", "--out", str(tmp_path)
    )  # nothing to do: the same says
    pdfs = [line for line in lines if line.startswith("kit PDF: ")]
    assert again.returncode == 0 and "0 files written" in again.stdout, again.stderr
    assert (
        len(pdfs) == 2
        and [line for line in again.stdout.splitlines() if line.startswith("kit PDF: ")] == pdfs
    )

    def steps(out: str) -> str:  # what the summary says before its counts line
        return out[: out.index(" files written")].rsplit("\n", 1)[0]

    assert steps(again.stdout) == steps(r.stdout)


def test_japanese_print_steps_wrap_within_80_columns_between_phrases(tmp_path):
    """A Japanese character takes two columns of a terminal: the steps wrap by columns (rich's own count
    here), inside Japanese only between BudouX phrases, never before a closing mark, and lose nothing."""
    from rich.cells import cell_len

    from generator.layout.linebreak import CLOSING

    r = pnpkit("build", str(RR), "--lang", "ja", "--out", str(tmp_path), env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    counts = next(line for line in lines if " files written" in line)
    steps = lines[lines.index("ripple_rush/ja:") + 1 : lines.index(counts)]
    assert len(steps) > 4 and all(cell_len(line) <= 80 for line in steps), steps
    assert not any(line.strip()[:1] in CLOSING for line in steps)
    assert any(line.startswith("     ") for line in steps)  # a step went on to a second line, indented
    # the wrapped text is the step as written: joined again without the breaks, each step is one catalog line
    joined = re.sub(r"\n {5}", "", "\n".join(steps))
    assert "を普通紙に印刷し、表と裏がそろうことを確かめてから残りを印刷します。" in joined
    assert "50 mm" in joined


def test_wrapped_lines_count_columns_keep_paths_whole_and_units_with_numbers():
    from rich.cells import cell_len

    from generator.render.columns import wrap_columns

    path = "/home/someone/kits/my_very_own_kit/output/my_kit/en/kit-letter.pdf"
    lines = wrap_columns(f"1. Print {path} at 100 % on 12 sheets; the ruler reads 50 mm.", 40, "  ", "     ")
    assert f"     {path}" in lines or f"  1. Print {path}" in lines  # wider than the line, but whole
    assert not any(line.endswith((" 100", " 50")) for line in lines)  # a number keeps its unit
    text = f"1. Print {path} at 100 % on 12 sheets; the ruler reads 50 mm."
    assert " ".join(line.strip() for line in lines) == text
    wide = wrap_columns("あ" * 50, 40)  # no phrase boundary: cut between characters, 20 to a line
    assert [cell_len(line) for line in wide] == [40, 40, 20]
    assert wrap_columns("", 40) == []


def test_build_prints_a_summary_and_every_file_with_v(tmp_path):
    r = pnpkit("build", str(RR), "--lang", "es", "--paper", "letter", "--out", str(tmp_path / "quiet"))
    assert r.returncode == 0, r.stderr
    # no part listed: the print checklist's steps (naming the kit PDF to print), the counts, where the kit
    # PDF is
    lines = r.stdout.splitlines()
    assert "ripple_rush/es:\n  1. Imprime kit-letter.pdf al 100 %" in r.stdout
    assert re.search(
        r"^ripple_rush/es: \d+ sheets of paper, ink on \d+% of the printable area$", r.stdout, re.M
    )
    assert "6 files written" in r.stdout and "pages in" in r.stdout
    assert [line for line in lines if line.endswith(".pdf")] == [
        f"kit PDF: {tmp_path / 'quiet' / 'ripple_rush' / 'es' / 'kit-letter.pdf'}"
    ]
    r = pnpkit("build", str(RR), "--lang", "es", "--paper", "letter", "--out", str(tmp_path / "quiet"))
    assert r.returncode == 0 and "0 files written" in r.stdout, r.stderr  # nothing to do: where it is, still
    assert (
        r.stdout.splitlines()[-1]
        == f"kit PDF: {tmp_path / 'quiet' / 'ripple_rush' / 'es' / 'kit-letter.pdf'}"
    )
    r = pnpkit("build", str(RR), "--lang", "es", "--paper", "letter", "--out", str(tmp_path), "-v")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == f"kit PDF: {tmp_path / 'ripple_rush' / 'es' / 'kit-letter.pdf'}"
    listed = [
        Path(line)
        for line in r.stdout.splitlines()
        if line.endswith(".pdf") and not line.startswith("kit PDF: ")
    ]
    assert sorted(p.name for p in listed) == sorted(
        [
            "score_sheet-letter.pdf",
            "number_cards-letter.pdf",
            "goal_cards-letter.pdf",
            "rules-letter.pdf",
            "kit-letter.pdf",
            "calibration-letter.pdf",
        ]
    )
    assert all(p.is_file() for p in listed)
    assert not list(tmp_path.glob(".pnpkit-*"))  # the staging folder is gone


def test_list_and_schema():
    r = pnpkit("list")
    assert r.returncode == 0 and "ripple_rush" in r.stdout
    games = r.stdout[r.stdout.index("registered games") :]
    from generator.contract import BUILTIN
    from generator.contract import games as registered

    for gid in BUILTIN:  # every built-in game with its ruleset version (the subprocess sees no test plugin)
        assert gid in games and registered()[gid].ruleset in games
    s = pnpkit("schema")
    assert s.returncode == 0
    import json

    schema = json.loads(s.stdout)
    assert "kit" in schema["properties"] and "game" in schema["properties"]
    from generator.spec.kit import KitFile

    # every top-level section kit.yaml accepts is in the schema an editor completes from (`tune` was missing)
    assert set(schema["properties"]) == set(KitFile.model_fields)
    assert "proof_max_games" in schema["$defs"]["TuneSpec"]["properties"]


@pytest.mark.slow  # validates every shipped kit (in the probe's interpreters)
def test_works_from_another_folder(probed, tmp_path, monkeypatch):
    """Every shipped kit validates by its id in a fresh interpreter started in a folder without layouts/
    (the probe's, below: the id is found through the same list of shipped kits as no kit at all); and there
    `validate` with no kit is every shipped kit (seen here in this process, not validated a second time)."""
    import generator.pipeline

    names = [k.parent.name for k in KITS]
    assert {name: probed[f"validate:{name}"][0] for name in names} == dict.fromkeys(names, 0)
    asked: list[Path] = []

    def load_run(run, **kw):  # the load phase of `validate`: what it was asked for, then no kit to validate
        asked.extend(run.paths)
        return run.with_kits([])

    monkeypatch.setattr(generator.pipeline, "load_run", load_run)
    r = pnpkit("validate", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert asked == [k.parent for k in KITS]


def test_print_shop_and_duplex_options(tmp_path):
    import pypdf

    r = pnpkit("build", str(RR), "--lang", "en", "--mode", "shop", "--out", str(tmp_path / "shop"))
    assert r.returncode == 0, r.stderr
    assert not list(
        (tmp_path / "shop").rglob("*-a4.pdf")
    )  # shop pages have no paper size: not named after one
    page = pypdf.PdfReader(str(tmp_path / "shop" / "ripple_rush" / "en" / "number_cards-shop.pdf")).pages[0]
    assert float(page.mediabox.width) == pytest.approx(
        180.0 + 2 * 3 * 72 / 25.4, abs=0.1
    )  # poker + 3 mm bleed
    assert float(page.trimbox.width) == pytest.approx(180.0, abs=0.1)
    r = pnpkit("build", str(RR), "--lang", "en", "--duplex", "none", "--out", str(tmp_path / "simplex"))
    assert r.returncode == 0, r.stderr
    pages = pypdf.PdfReader(str(tmp_path / "simplex" / "ripple_rush" / "en" / "number_cards-a4.pdf")).pages
    assert len(pages) == 13  # fronts only, 8 cards a page (suits differ: gutters), no back pages
    bad = pnpkit("build", str(RR), "--mode", "poster")
    assert (
        bad.returncode == 2
        and "'poster' is not one of 'home', 'shop'" in bad.stderr
        and "--mode" in bad.stderr
    )


def _loosen(kit: Path, **bounds: str) -> None:
    y = kit / "kit.yaml"
    text = y.read_text(encoding="utf-8")
    for key, value in bounds.items():
        start = text.index(f"    {key}:")
        end = text.index("\n", start)
        text = text[:start] + f"    {key}: {value}" + text[end:]
    y.write_text(text, encoding="utf-8")


@pytest.mark.slow  # three checks, one in a fresh interpreter
def test_check_exit_codes_json_and_report(tmp_path):
    """`check` exits 0 when every tolerance holds and 1 (naming the failed one) when one does not; the JSON
    is the same for the same seed, written here and by a fresh interpreter (another hash seed: an order
    taken from a set would show); the HTML report is written."""
    import json

    ok = tmp_path / "ok"
    shutil.copytree(RR, ok)
    wide = "{min: 0.0, max: 1.0}"
    _loosen(
        ok,
        goal_completion=wide,
        goal_spread="{max: 100}",
        unplaceable_share=wide,
        tie_rate=wide,
        seat_win_share="{min: 0.0, max: 10.0}",
        skill_gap="{min: -100}",
    )
    a, b, html = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "r.html"
    r = pnpkit(
        "check",
        str(ok),
        "--games",
        "120",
        "--workers",
        "1",
        "--seed",
        "3",
        "--json",
        str(a),
        "--report",
        str(html),
    )
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    again = pnpkit_process(
        "check", str(ok), "--games", "120", "--workers", "1", "--seed", "3", "--json", str(b)
    )
    assert again.returncode == 0, again.stderr
    assert a.read_bytes() == b.read_bytes()
    assert json.loads(a.read_text())["ok"] is True and html.stat().st_size > 1000
    bad = tmp_path / "bad"
    shutil.copytree(ok, bad)
    _loosen(bad, skill_gap="{min: 1000}")
    r = pnpkit("check", str(bad), "--games", "120", "--workers", "1", "--seed", "3")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "tolerances failed" in r.stderr or "tolerance failed" in r.stderr
    assert "game.balance.skill_gap" in r.stdout


@pytest.mark.slow  # a check played to balance.max_games
def test_check_exit_3_when_undecided_at_the_cap(tmp_path):
    """A bound the estimate sits on cannot be decided within balance.max_games: exit 3 (not 0, not 1), the
    message says how many games the estimate needs, the JSON gives each tolerance's verdict, interval, method
    and games; the batches double from --games up to the cap."""
    import json

    kit = tmp_path / "kit"
    shutil.copytree(RR, kit)
    wide = "{min: 0.0, max: 1.0}"
    _loosen(
        kit,
        max_games="480",
        goal_completion=wide,
        goal_spread="{max: 1000000}",
        unplaceable_share=wide,
        tie_rate=wide,
        seat_win_share="{min: 0.97, max: 10.0}",
        skill_gap="{min: -100}",
    )
    out = tmp_path / "r.json"
    r = pnpkit("check", str(kit), "--games", "120", "--workers", "1", "--seed", "3", "--json", str(out))
    assert r.returncode == 3, r.stdout[-2000:] + r.stderr
    assert "undecided at balance.max_games" in r.stderr and "games per setting" in r.stderr
    assert "Traceback" not in r.stderr
    rep = json.loads(out.read_text())["reports"][0]
    assert rep["verdict"] == "UNDECIDED" and rep["looks"] == [120, 240, 480]
    seats = [t for t in rep["tolerances"] if t["spec_key"] == "game.balance.seat_win_share"]
    assert {t["verdict"] for t in seats} <= {"HOLDS", "UNDECIDED"} and "UNDECIDED" in {
        t["verdict"] for t in seats
    }
    open_ = [t for t in seats if t["verdict"] == "UNDECIDED"]
    assert all(t["games"] == 480 and t["look"] == 3 and t["method"] == "Wilson score" for t in open_)
    assert all(t["low"] < 0.97 < t["high"] for t in open_)


@pytest.mark.slow  # two checks to 9,600 games, one with a pool of two
def test_check_json_same_bytes_for_1_and_2_workers(tmp_path):
    """The sequential check (batches, cached chunks) gives byte-identical JSON whatever the worker count, and
    whatever the process (the pool's run is a fresh interpreter's: another hash seed)."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    r1 = pnpkit("check", str(RR), "--games", "300", "--workers", "1", "--seed", "5", "--json", str(a))
    r2 = pnpkit_process("check", str(RR), "--games", "300", "--workers", "2", "--seed", "5", "--json", str(b))
    assert r1.returncode == r2.returncode and r1.returncode in (0, 3), r1.stderr + r2.stderr
    assert a.read_bytes() == b.read_bytes()


def test_check_of_a_kit_with_a_static_problem_says_it_plays_nothing_and_writes_nothing(tmp_path):
    """Issue 38: the static checks may run while the pool plays the first batch; a static problem is still
    all the check says (exit 1, no report, no JSON), as when they ran first."""
    kit = tmp_path / "kit"
    shutil.copytree(RR, kit)
    y = kit / "kit.yaml"
    text = y.read_text(encoding="utf-8")
    line = text[: text.index("title: component.number_cards")].count("\n") + 1
    y.write_text(text.replace("title: component.number_cards", "title: component.nope"), encoding="utf-8")
    out = tmp_path / "r.json"
    r = pnpkit("check", str(kit), "--seed", "3", "--workers", "2", "--json", str(out))
    assert (r.returncode, r.stdout, out.exists()) == (1, "", False)
    said = r.stderr.splitlines(keepends=True)
    assert "".join(said[-2:]) == (
        f"error: 1 problem in {y}\n  {y}:{line}: components.number_cards.title: text id 'component.nope' is "
        f"not in the English catalog\n"
    )
    assert all(s.startswith("compiling the Ripple Rush engine once") for s in said[:-2])  # a first run's


# ------------------------------------------------------------------ hostile output (issue 12)


def _inodes(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_ino for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def rr_en_ja(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An OUT folder holding a build of Ripple Rush in English and Japanese, made once for the tests that
    start from an earlier build (each copies it: their builds change it)."""
    from generator import pipeline

    out = tmp_path_factory.mktemp("rr_en_ja") / "out"
    pipeline.build([RR], out=out, langs=["en", "ja"])
    return out


def test_folder_in_the_way_of_one_output_file_changes_nothing(tmp_path, rr_en_ja):
    out = tmp_path / "out"
    shutil.copytree(rr_en_ja, out)  # an earlier build (copied: `pnpkit build ... --lang en,ja` made it)
    (out / "ripple_rush" / "ja" / "kit-a4.pdf").unlink()
    (out / "ripple_rush" / "ja" / "kit-a4.pdf").mkdir()
    before = _inodes(out)
    r = pnpkit("build", str(RR), "--lang", "en,ja", "--out", str(out))
    assert r.returncode == 1
    assert r.stderr.endswith(
        "kit-a4.pdf: a folder (or other non-file) is in the way of an output file; nothing was written\n"
    )
    assert "Traceback" not in r.stderr
    assert _inodes(out) == before
    assert not list(out.glob(".pnpkit-*"))


@pytest.mark.parametrize("case", ["file", "below_file"])
def test_out_that_is_a_file_or_below_a_file_is_a_clear_error(tmp_path, case):
    f = tmp_path / "f"
    f.write_text("x", encoding="utf-8")
    out = f if case == "file" else f / "sub" / "dir"
    r = pnpkit("build", str(RR), "--lang", "en", "--out", str(out))
    assert r.returncode == 1
    expected = (
        "this is a file (or a broken link), not a folder"
        if case == "file"
        else f"{f} is a file, so no folder can be made below it"
    )
    assert r.stderr == f"error: --out {out}: {expected}\n"
    assert f.read_text(encoding="utf-8") == "x"


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write anywhere")
def test_unwritable_out_is_a_clear_error(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        r = pnpkit("build", str(RR), "--lang", "en", "--out", str(ro / "out"))
    finally:
        ro.chmod(0o700)
    assert r.returncode == 1
    assert r.stderr == f"error: --out {ro / 'out'}: {ro} is not writable\n"


def test_failed_swap_puts_every_folder_back(tmp_path, monkeypatch, rr_en_ja):
    """The second kit/language folder cannot be moved into place: the first is moved back (all or nothing)."""
    from generator import pipeline as b
    from generator.errors import RenderError
    from generator.pipeline import staging

    out = tmp_path / "out"
    shutil.copytree(rr_en_ja, out)  # the earlier build of the same kit and languages
    before = _inodes(out)
    real_rename = os.rename
    calls = []

    def flaky(src, dst):
        calls.append((src, dst))
        if "new" in Path(src).parts and Path(dst).name == "ja":
            raise OSError(28, "No space left on device")
        real_rename(src, dst)

    monkeypatch.setattr(staging.os, "rename", flaky)  # where the swap calls it
    with pytest.raises(
        RenderError,
        match="cannot move the new files into place .No space left on device.; every folder was put back",
    ):
        b.build([RR], out=out, langs=["en", "ja"], seed=7)
    assert any(
        Path(d).name == "en" and Path(d).parent == out / "ripple_rush" for _, d in calls
    )  # en was swapped, then put back
    assert _inodes(out) == before
    assert not list(out.glob(".pnpkit-*"))


def test_other_papers_files_survive_a_build(tmp_path):
    out = tmp_path / "out"
    assert pnpkit("build", str(RR), "--lang", "en", "--out", str(out)).returncode == 0
    assert pnpkit("build", str(RR), "--lang", "en", "--out", str(out), "--paper", "letter").returncode == 0
    names = sorted(p.name for p in (out / "ripple_rush" / "en").iterdir())
    assert "kit-a4.pdf" in names and "kit-letter.pdf" in names


@pytest.mark.parametrize("sig,code", [("SIGTERM", 143), ("SIGINT", 130)])
def test_signal_mid_build_cleans_the_staging_folder(tmp_path, sig, code):
    """The signal arrives while the build writes into its staging folder (a first PDF is there): exit 130/143,
    no traceback, OUT left empty. One kit in its five languages with PNG previews writes for about 3 s after
    1.5 s of composing (every shipped kit composed 13 s first: the same path, four times the time)."""
    import signal
    import time

    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "build", str(RR), "--out", str(out), "--png"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while (
        not list(out.glob(".pnpkit-stage-*/**/*.pdf")) and proc.poll() is None and time.monotonic() < deadline
    ):
        time.sleep(0.005)
    assert proc.poll() is None, "the build ended before a staged file was seen"
    proc.send_signal(getattr(signal, sig))
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    assert "Traceback" not in err
    assert err.strip().endswith("terminated" if code == 143 else "interrupted")
    assert sorted(p.name for p in out.iterdir()) == []


def test_ctrl_c_reaching_the_build_and_its_workers_cleans_up_and_leaves_no_process(tmp_path):
    """Ctrl-C in a terminal signals the whole process group, the build's folder workers too: exit 130, no
    traceback, OUT left empty, and no worker left running."""
    import signal
    import time

    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "build", str(RR), "--out", str(out), "--workers", "2"],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    deadline = time.monotonic() + 120
    while not list(out.glob(".pnpkit-stage-*")) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert proc.poll() is None, "the build ended before its staging folder was seen"
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.strip().endswith("interrupted")
    assert sorted(p.name for p in out.iterdir()) == []

    def left() -> list[str]:
        found = []
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            try:
                if str(out).encode() in cmdline.read_bytes():
                    found.append(cmdline.parent.name)
            except OSError:
                pass
        return found

    deadline = time.monotonic() + 10
    while left() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert left() == []


@pytest.mark.parametrize(
    "args,message",
    [
        (
            ["--games", "1000000000000"],
            "error: Invalid value for '--games': at most 1,000,000 games per setting; got 1000000000000 "
            "(estimated time: up to ",
        ),
        (
            ["--games", str(10**30)],
            "error: Invalid value for '--games': at most 1,000,000 games per setting; got 100000...(31 "
            "digits) (estimated time: up to ",
        ),
        (["--games", "0"], "error: Invalid value for '--games': expected a number >= 1; got 0"),
        (["--games", "-1"], "error: Invalid value for '--games': expected a number >= 1; got -1"),
        (
            ["--seed", "-1"],
            "error: Invalid value for '--seed': expected a whole number in 0..2**63-1 (the same rule as "
            "kit.seed); got -1",
        ),
        (
            ["--seed", str(2**63)],
            "error: Invalid value for '--seed': expected a whole number in 0..2**63-1 (the same rule as "
            "kit.seed); got 9223372036854775808",
        ),
        (
            ["--dask", ""],
            "error: Invalid value for '--dask': expected 'local' or a scheduler address such as "
            "tcp://host:8786; got ''",
        ),
        (["--workers", "0"], "error: Invalid value for '--workers': expected a number >= 1; got 0"),
    ],
)
def test_check_refuses_impossible_options_up_front(args, message):
    r = pnpkit("check", str(RR), *args)
    assert r.returncode == 2
    assert message in r.stderr and r.stderr.startswith("Usage: "), r.stderr
    assert "Traceback" not in r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize(
    "command,args,message",
    [
        (
            "build",
            ["--paper", "tabloid"],
            "Invalid value for '--paper': 'tabloid' is not one of 'a4', 'letter', 'a3'.",
        ),
        ("build", ["--seed", "-1"], "Invalid value for '--seed': expected a whole number in 0..2**63-1"),
        ("build", ["--duplex", "both"], "'both' is not one of 'long', 'short', 'none'"),
        ("export", ["--seed", "-1"], "Invalid value for '--seed': expected a whole number in 0..2**63-1"),
        ("export", ["--workers", "0"], "Invalid value for '--workers': expected a number >= 1; got 0"),
        ("export", ["--dpi", "5"], "Invalid value for '--dpi': expected a number in 72..1200; got 5"),
        (
            "export",
            ["--quality", "101"],
            "Invalid value for '--quality': expected a number in 1..100; got 101",
        ),
        (
            "export",
            ["--format", "gif"],
            "Invalid value for '--format': expected one of png, jpeg (or jpg); got 'gif'",
        ),
        (
            "export",
            ["--size", "huge"],
            "Invalid value for '--size': expected one of tgc-poker, tgc-bridge, tgc-mini, tgc-square, "
            "mpc-poker, mpc-bridge, mpc-mini, mpc-tarot, dtc-poker, dtc-tarot; got 'huge'",
        ),
        ("serve", ["--paper", "tabloid"], "'tabloid' is not one of 'a4', 'letter', 'a3'"),
        ("serve", ["--port", "0"], "Invalid value for '--port': expected a number in 1..65535; got 0"),
        ("serve", ["--games", "0"], "Invalid value for '--games': expected a number in 1..100000; got 0"),
        ("warmup", ["--games", "-1"], "Invalid value for '--games': expected a number >= 1; got -1"),
        ("check", ["--games", "-1"], "Invalid value for '--games': expected a number >= 1; got -1"),
    ],
)
def test_every_bad_option_is_a_usage_error_naming_the_value_and_what_is_allowed(command, args, message):
    """One rule for every command (it was exit 1 in one command, 2 in another for the same option): the option
    parser refuses the value before anything runs, exit 2, the allowed values in the message."""
    r = pnpkit(command, str(RR), *args)
    assert r.returncode == 2, r.stderr
    assert message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""


@pytest.mark.slow  # a check with a pool of every core
def test_check_caps_workers_at_the_core_count_with_a_warning(tmp_path):
    r = pnpkit("check", str(RR), "--games", "2", "--workers", str(2**31), "--json", str(tmp_path / "r.json"))
    assert r.returncode in (0, 1)  # 2 games may miss tolerances; the point is no traceback and a capped pool
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert (
        f"warning: --workers 2147483648 is more than the {cores} cores available; using {cores}" in r.stderr
    )
    assert "Traceback" not in r.stderr


def _po_line(po: Path, text_id: str) -> int:
    return next(
        i for i, s in enumerate(po.read_text(encoding="utf-8").splitlines(), 1) if s == f'msgid "{text_id}"'
    )


def test_validate_fits_every_text_and_names_its_catalog_line(tmp_path):
    """validate renders and fits every string without writing (the README promises it); the error names the
    .po line."""
    kit = tmp_path / "rr"
    shutil.copytree(RR, kit)
    po = kit / "locales" / "en.po"
    po.write_text(
        po.read_text(encoding="utf-8").replace(
            'msgstr "RIPPLE RUSH"', 'msgstr "' + "SUPERCALIFRAGILISTIC" * 10 + '"'
        ),
        encoding="utf-8",
    )
    r = pnpkit("validate", str(kit))
    assert r.returncode == 1
    assert f"en.po:{_po_line(po, 'cards.back')}: cards.back: does not fit (en): " in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_validate_checks_glyphs_and_names_the_catalog_line(tmp_path):
    kit = tmp_path / "rr"
    shutil.copytree(RR, kit)
    po = kit / "locales" / "ja.po"
    text = po.read_text(encoding="utf-8")
    line = _po_line(po, "sheet.total")
    lines = text.splitlines()
    assert lines[line].startswith('msgstr "')
    lines[line] = lines[line][:-1] + ' \U0001f3b2"'
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = pnpkit("validate", str(kit))
    assert r.returncode == 1
    assert f"ja.po:{line}: sheet.total: characters missing from the font (" in r.stderr, r.stderr
    assert "language ja): U+1F3B2" in r.stderr


def test_staging_folder_of_a_killed_build_is_removed_by_the_next(tmp_path):
    """kill -9 cannot be cleaned up after; the next build into the same OUT removes the dead build's stage."""
    from generator import pipeline as b

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True
    )
    out = tmp_path / "out"
    stale = out / f"{b.STAGE_PREFIX}{int(dead.stdout)}-abc"
    (stale / "new" / "ripple_rush").mkdir(parents=True)
    live = out / f"{b.STAGE_PREFIX}{os.getppid()}-def"  # a running process's stage is left alone
    live.mkdir()
    b.build([RR], out=out, langs=["en"])
    assert not stale.exists() and live.exists()


@pytest.mark.slow  # compiles the Ripple Rush kernels into an empty cache folder, unless this run already did
def test_warmup_compiles_the_kernels_into_the_disk_cache(tmp_path, suite_warmup):
    """`warmup` plays a tiny check of each kit: numba compiles the kernels into its cache folder and says so;
    a bad option or folder is a one-line error. A whole-suite run starts with that very command for every kit
    (tests/conftest.py, into this run's cache folder), so its exit code and output are read here rather than
    compiling Ripple Rush a second time; otherwise the command runs here, into an empty folder."""
    pytest.importorskip("numba")
    ran = suite_warmup("ripple_rush")
    if ran is None:
        cache = tmp_path / "numba"
        env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(cache), PNPKIT_PURE="0")
        r = subprocess.run(
            [sys.executable, "-m", "generator", "warmup", str(RR), "--games", "1"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        ran = (r.returncode, r.stdout, cache)
    code, stdout, cache = ran
    assert code == 0, stdout
    assert "warm: ripple_rush" in stdout and str(cache) in stdout
    assert any(p.name.startswith("kernel.play_loop") for p in cache.rglob("*.nbi"))
    bad = pnpkit("warmup", "--games", "0")
    assert bad.returncode == 2 and "Invalid value for '--games': expected a number >= 1; got 0" in bad.stderr
    missing = pnpkit("warmup", str(tmp_path / "nope"))
    assert (
        missing.returncode == 1
        and "no such kit folder" in missing.stderr
        and "Traceback" not in missing.stderr
    )


def test_schema_of_a_game_in_any_case_and_of_an_unknown_one():
    from generator.contract.schema import kit_schema
    from generator.errors import KitError

    assert kit_schema("Deck") == kit_schema("deck")
    with pytest.raises(KitError, match=r"got 'dek'; did you mean deck\?$"):
        kit_schema("dek")
    # a fresh interpreter: this process has the test plugins' games registered too (tests/conftest.py)
    r = pnpkit_process("schema", "--game", "foo")
    assert r.returncode == 1
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert (
        r.stderr
        == "error: --game: expected one of ripple_rush, peak_dice, raindrops, rummy_cards, deck; got 'foo'\n"
    )


# The start-up probe: a fresh interpreter runs commands in-process through the typer app, one after another,
# and after each reports its exit code and which heavy modules are loaded so far: the heavy packages, and
# any module named kernel, planner, sheet or sim (a game's engine). sys.modules only grows, so a module absent
# after the n-th command was imported by none of the first n: one interpreter for many commands proves of
# each what a fresh interpreter per command proved (one per kit took 1-5 s each). Checking a spec needs no
# self-play kernels (numba); `--help` and `validate` need no rasteriser or statistics either.
PROBE = """
import json, sys
{pre}
from generator.cli import app
for args in json.loads(sys.argv[1]):
    try:
        app(args, prog_name='pnpkit')
    except SystemExit as e:
        code = e.code
    heavy = sorted(
        {{m.split('.')[0] for m in sys.modules}} & {{'numba', 'pypdfium2', 'statsmodels'}}
        | {{m for m in sys.modules if m.split('.')[-1] in ('kernel', 'planner', 'sheet', 'sim')}}
    )
    print(json.dumps([args, code, heavy]))
{post}
"""


def _probe(commands: list[list[str]], pre: str = "", cwd: Path = ROOT) -> list[tuple[int, list[str]]]:
    """(exit code, heavy modules loaded so far) after each command, run in order in one fresh interpreter
    started in `cwd`."""
    return _probe_then(commands, pre=pre, cwd=cwd)[0]


def _probe_then(
    commands: list[list[str]], *, pre: str = "", post: str = "", cwd: Path = ROOT
) -> tuple[list[tuple[int, list[str]]], str]:
    """`_probe`, then the code `post` run in the same interpreter: the probe's answers and what it printed
    last."""
    import json

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run(
        [sys.executable, "-c", PROBE.format(pre=pre, post=post), json.dumps(commands)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert "Traceback" not in r.stderr, r.stderr
    lines = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("[[")]
    assert [args for args, _, _ in lines] == commands, r.stdout + r.stderr
    return [(code, heavy) for _, code, heavy in lines], r.stdout.splitlines()[-1]


SELF_PLAY_IN_PRINT = {"raindrops"}
"""Kits whose printed pieces come from seeded self-play, so composing them (validate composes everything)
runs a kernel: Raindrops memory-card points are ranks of a measured difficulty (10,800 solo games; compiled
1.9 s, pure Python 13.7 s), so it keeps numba. Its legal checks alone load none
(tests/games/raindrops/test_shape.py)."""

KITS = sorted((ROOT / "layouts").glob("*/kit.yaml"))
START_UP = {"help": ["--help"], "check-help": ["check", "--help"], "validate": ["validate", RR.name]}


@pytest.fixture(scope="module")
def probed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, list[str]]]:
    """Command id -> (exit code, heavy modules loaded). One interpreter runs the start-up commands, then
    `validate` of every other kit that prints no self-play (Ripple Rush's is the start-up one, first, so its
    line is its own and the help's), then of one self-play kit, which loads numba: last, so numba is absent
    before its command and present after it (its interpreter of its own cost 2 s more); any other self-play
    kit is validated in an interpreter of its own. Each starts in an empty folder, far from layouts/, and
    names the shipped kits by id (as a user does there)."""
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    self_play = [k.parent.name for k in KITS if k.parent.name in SELF_PLAY_IN_PRINT]
    light = [k.parent.name for k in KITS if k.parent.name not in SELF_PLAY_IN_PRINT | {RR.name}]
    commands = {**START_UP, **{f"validate:{name}": ["validate", name] for name in light + self_play[:1]}}
    out = dict(zip(commands, _probe(list(commands.values()), cwd=elsewhere), strict=True))
    out[f"validate:{RR.name}"] = out["validate"]
    for name in self_play[1:]:
        out[f"validate:{name}"] = _probe([["validate", name]], cwd=elsewhere)[0]
    return out


@pytest.mark.parametrize("kit", KITS, ids=lambda p: p.parent.name)
def test_validate_does_not_import_numba(kit, probed):
    loads = kit.parent.name in SELF_PLAY_IN_PRINT
    code, heavy = probed[f"validate:{kit.parent.name}"]
    assert (code, "numba" in heavy) == (0, loads)


def test_validate_of_peak_dice_loads_no_kernel_planner_sheet_or_sim(probed):
    """`pnpkit validate` on Peak Dice checks legality and composes nothing compiled: numba and its kernel.py,
    planner.py, sheet.py and sim.py stay unloaded (issue 13; tables.py imports the planner only when it
    builds). Its line in the probe comes after the commands before it, so none of them loaded one either
    (the rasteriser, which a kit validated before it may load, is not asked about here)."""
    code, heavy = probed["validate:peak_dice"]
    assert (code, [m for m in heavy if m not in ("pypdfium2", "statsmodels")]) == (0, [])


def test_the_numba_probe_sees_numba():
    """The probe can fail: with numba imported before a command it says so (the command is --help: what is
    loaded is read from sys.modules whatever ran; a validate took 3 s more)."""
    pytest.importorskip("numba")
    code, heavy = _probe([["--help"]], pre="import numba")[0]
    assert (code, "numba" in heavy) == (0, True)


# ------------------------------------------------------------------ constants once, start-up light

SHARED_CONSTANTS = ("PAPERS", "PRINT_MODES", "DUPLEXES", "MAX_SEED", "MAX_GAMES")
"""The closed sets and caps the CLI and the spec share (generator/spec/choices.py)."""


def _definitions(root: Path, name: str) -> list[str]:
    """Where `name` is assigned at module level in a .py file under `root` (file:line). A file whose text does
    not hold the name cannot assign it, so only the others are parsed (parsing all 1.5 MB took 1.3 s a
    call)."""
    import ast

    out = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if name not in text:
            continue
        for node in ast.parse(text).body:
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign)
                else []
            )
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                out.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return out


@pytest.mark.parametrize("name", SHARED_CONSTANTS)
def test_each_shared_constant_is_defined_once(name):
    assert _definitions(ROOT / "generator", name) == [_definitions(ROOT / "generator" / "spec", name)[0]]


def test_the_values_of_the_closed_sets_are_written_once():
    """No second copy of a set under another name: the literal lists appear in generator/spec/choices.py
    only."""
    import re

    written = {
        "papers": r"""["']a4["'],\s*["']letter["'],\s*["']a3["']""",
        "modes": r"""["']home["'],\s*["']shop["']""",
        "duplex": r"""["']long["'],\s*["']short["'],\s*["']none["']""",
        "seed cap": r"=\s*2\s*\*\*\s*63\s*-\s*1",
        "games cap": r"\b1_000_000\b",
    }
    for what, pattern in written.items():
        found = [
            str(p.relative_to(ROOT))
            for p in sorted((ROOT / "generator").rglob("*.py"))
            if re.search(pattern, p.read_text(encoding="utf-8"))
        ]
        assert found == ["generator/spec/choices.py"], (what, found)


def test_the_definition_walker_finds_definitions():
    lines = (ROOT / "generator" / "spec" / "choices.py").read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text.startswith("MAX_SEED"))
    assert _definitions(ROOT / "generator", "MAX_SEED") == [f"generator/spec/choices.py:{line}"]


@pytest.mark.parametrize("command", list(START_UP))
def test_help_and_validate_load_no_kernels_rasteriser_or_statistics(command, probed):
    assert probed[command] == (0, [])


def test_the_start_up_probe_sees_a_heavy_import():
    """The probe names a heavy package from any of its modules in sys.modules: the package itself is enough
    (`statsmodels.stats.proportion`, which the exact checks once imported, took 1.1 CPU-s to import)."""
    assert _probe([["--help"]], pre="import statsmodels") == [(0, ["statsmodels"])]


# ------------------------------------------------------------------ what a user types (issue 38 item 3)


def test_build_a_shipped_kit_by_its_id_from_an_empty_folder(tmp_path):
    """`pnpkit build ripple_rush --paper A4 --out o` in a folder with no layouts/: the id names the shipped
    kit, the paper is matched whatever its case, and the summary ends with where the kit PDF is."""
    import pypdf

    r = pnpkit("build", "ripple_rush", "--lang", "en", "--paper", "A4", "--out", "o", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    pdf = tmp_path / "o" / "ripple_rush" / "en" / "kit-a4.pdf"
    assert r.stdout.splitlines()[-1] == f"kit PDF: {Path('o') / 'ripple_rush' / 'en' / 'kit-a4.pdf'}"
    sizes = {
        tuple(sorted((round(float(p.mediabox.width)), round(float(p.mediabox.height)))))
        for p in pypdf.PdfReader(pdf).pages
    }
    assert sizes == {(595, 842)}  # A4 in points, upright or landscape


def test_a_local_folder_wins_over_a_shipped_id_and_an_unknown_one_is_named(tmp_path):
    shutil.copytree(RR, tmp_path / "ripple_rush")
    spec = tmp_path / "ripple_rush" / "kit.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("rows: 8", "rows: eight"), encoding="utf-8")
    r = pnpkit("validate", "ripple_rush", cwd=tmp_path)  # the broken local copy, not the shipped kit
    assert r.returncode == 1 and r.stderr.startswith("error: 1 problem in ripple_rush/kit.yaml\n"), r.stderr
    r = pnpkit("validate", "ripple_rsh", cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr == (
        "error: ripple_rsh: no such kit folder, nor a shipped kit id; did you mean ripple_rush? "
        "(shipped: harvest_deck, peak_dice, raindrops, ripple_rush, rummy_cards, sprout_sheet)\n"
    )


def test_version_is_the_package_version():
    import tomllib

    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    r = pnpkit("--version")
    assert (r.returncode, r.stdout, r.stderr) == (0, f"pnpkit {version}\n", "")


PYTHON_TYPE = re.compile(r"<(?:int|str|float|bool|path|Path|list\[[^\]]*\]|[a-z0-9_-]+(?:\|[a-z0-9_-]+)+)>")
"""What typer prints after a parameter when no metavar is given: a Python type or `<a|b>` choices."""


def _help(*args: str) -> str:
    r = pnpkit(*args, "--help", env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_help_lists_every_command_on_one_full_line_at_80_columns():
    import typer

    from generator.cli import app

    text = _help()
    assert text.startswith("Usage: pnpkit ")
    section = text[text.index("Commands:") :].splitlines()[1:]
    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    assert len(section) == len(commands) >= 10  # one line each
    for line, (name, cmd) in zip(section, commands.items(), strict=False):
        assert len(line) <= 80 and "..." not in line
        assert line.split(None, 1) == [name, cmd.short_help]


def _every_command() -> list[str]:
    """Every command as typed after `pnpkit`, those of a group (`i18n extract`) included."""
    import typer

    from generator.cli import app

    out = []
    for name, cmd in typer.main.get_command(app).commands.items():  # type: ignore[attr-defined]
        subs = getattr(cmd, "commands", None)
        out += [f"{name} {sub}" for sub in subs] if subs else [name]
    return out


def test_every_command_is_in_the_help_checks():
    assert {"build", "check", "tune", "cache", "i18n extract"} <= set(_every_command())


@pytest.mark.parametrize("command", _every_command())
def test_command_help_names_values_not_python_types(command):
    text = _help(*command.split())
    assert not PYTHON_TYPE.search(text), PYTHON_TYPE.search(text)
    assert text.startswith(f"Usage: pnpkit {command} ")
    assert re.search(r"^  --help +show this message and exit$", text, re.M), text  # as every option reads


@pytest.mark.parametrize("group", ["", "i18n"])
def test_a_groups_help_option_reads_like_the_others(group):
    text = _help(*group.split())
    assert re.search(r"^  --help +show this message and exit$", text, re.M) and "Show this" not in text, text


def test_a_groups_help_lists_its_commands_on_full_lines_at_80_columns():
    import typer

    from generator.cli import app

    group = typer.main.get_command(app).commands["i18n"]  # type: ignore[attr-defined]
    text = _help("i18n")
    section = text[text.index("Commands:") :].splitlines()[1:]
    assert len(section) == len(group.commands) >= 1
    for line, (name, cmd) in zip(section, group.commands.items(), strict=True):
        assert len(line) <= 80 and "..." not in line
        assert line.split(None, 1) == [name, cmd.short_help]


def test_the_type_pattern_sees_typers_labels():
    assert [
        PYTHON_TYPE.search(t) is not None
        for t in ("kits... <list[Path]>", "--seed <int>", "--paper <a4|letter>", "--seed SEED", "[KIT]...")
    ] == [True, True, True, False, False]


def test_usage_errors_and_kit_errors_share_one_style(tmp_path):
    usage = pnpkit("build", str(RR), "--paper", "A5", "--out", str(tmp_path))
    assert usage.returncode == 2 and "Error" not in usage.stderr
    assert (
        usage.stderr.splitlines()[-1]
        == "error: Invalid value for '--paper': 'A5' is not one of 'a4', 'letter', 'a3'."
    )
    unknown = pnpkit("bogus")
    assert unknown.returncode == 2 and unknown.stderr.splitlines()[-1] == "error: No such command 'bogus'."
    assert not list(tmp_path.iterdir())


def test_list_a_kit_folder_at_80_columns_with_its_slots(tmp_path):
    """`pnpkit list KIT --slots` of a designer's own folder (long path): its languages, components (one of
    them disabled, so '1 component' is counted) and slots, every line within 80 columns but the folder's,
    which is printed whole."""
    from generator.contract.compose import composer
    from generator.pipeline import load_kits

    kit = tmp_path / ("a_rather_long_folder_name_" * 4) / "my_kit"
    shutil.copytree(RR, kit)
    spec = kit / "kit.yaml"
    text = spec.read_text(encoding="utf-8")
    for cid in ("score_sheet", "goal_cards", "rules"):
        text = text.replace(f"\n  {cid}:\n", f"\n  {cid}:\n    enabled: false\n", 1)
    spec.write_text(text.replace("languages: [en, ja, es, de, fr]", "languages: [en, de]"), encoding="utf-8")
    r = pnpkit("list", str(kit), "--slots", cwd=tmp_path, env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[:3] == [
        "ripple_rush: Ripple Rush, a ripple_rush kit in en, de",
        "  1 component: number_cards",
        f"  folder: {kit}",
    ]
    assert all(len(line) <= 80 for line in lines if not line.startswith("  folder: "))
    assert "registered games" not in r.stdout  # only the kits asked for
    (loaded,) = load_kits([kit])
    declared = [f"{slot.name} (" for slot in composer(loaded.game_id).SLOTS["number_cards"]]
    shown = [line.strip()[len("number_cards.") :] for line in lines if line.startswith("    number_cards.")]
    assert len(shown) == len(declared) >= 2 and all(
        s.startswith(d) for s, d in zip(shown, declared, strict=False)
    )
    assert not any(line.startswith("    goal_cards.") for line in lines)  # a disabled component has no slots


# --------------------------------------------------------- a first run that explains itself (issue 38 item 1)


def test_a_check_that_must_compile_says_what_and_why_first(tmp_path, monkeypatch, capsys):
    """With Ripple Rush's kernels missing from the cache folder, the check says what it compiles and why,
    compiles it by a warm-up run, says how long it took (kept as the next estimate); with them cached it says
    nothing. The warm-up itself is replaced here (compiling is what bench/ and the warmup test measure)."""
    pytest.importorskip("numba")
    import generator.checking
    from generator.cli import _compile_first
    from generator.engine import kernel  # noqa: F401  (sets NUMBA_CACHE_DIR as every command does)
    from generator.engine.kernelcache import module_cache_dir
    from generator.pipeline import load_kits

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "xdg" / "pnpkit" / "numba" / "0123456789abcdef"))
    warmed = []

    def fake_warm_up(kits, *, games, progress):
        warmed.extend(k.meta.id for k in kits)
        yield kits[0].meta.id, 12.34

    monkeypatch.setattr(generator.checking, "warm_up", fake_warm_up)
    kits = load_kits([RR, RR])  # the same game twice: compiled once
    _compile_first(kits)
    cache = tmp_path / "xdg" / "pnpkit" / "numba" / "0123456789abcdef"
    assert warmed == ["ripple_rush"]
    assert capsys.readouterr().err == (
        "compiling the Ripple Rush engine once (about 5 s on a 2-core machine); later runs start in under a "
        "second\n"
        f"compiled the Ripple Rush engine in 12.3 s, cached in {cache}\n"
    )
    _compile_first(kits)  # the warm-up's mark: done, even though the fake compiled nothing
    assert capsys.readouterr().err == ""
    for mark in cache.rglob(".pnpkit-warm"):
        mark.unlink()
    _compile_first(kits)  # not cached: the estimate is the last run's
    assert capsys.readouterr().err.startswith(
        "compiling the Ripple Rush engine once (about 12 s as last time)"
    )
    for mark in cache.rglob(".pnpkit-warm"):
        mark.unlink()
    for package in (ROOT / "generator" / "games" / "ripple_rush", ROOT / "generator" / "engine"):
        where = module_cache_dir(cache, package / "kernel.py")
        where.mkdir(parents=True, exist_ok=True)
        for stem in ("kernel", "kernel_choice"):  # Ripple Rush's modules with kernels (and the engine's)
            (where / f"{stem}.play-1.py311.nbi").write_bytes(b"")
    warmed.clear()
    _compile_first(kits)
    assert (warmed, capsys.readouterr().err) == ([], "")


def test_a_first_compile_notice_without_a_figure_says_so(tmp_path, monkeypatch, capsys):
    """A game that declares no `compile_seconds` (a plugin) and has not compiled on this machine: the notice
    gives no number it does not have."""
    import dataclasses

    import generator.contract
    from generator.cli.play import _announce

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    real = generator.contract.get
    monkeypatch.setattr(
        generator.contract, "get", lambda gid: dataclasses.replace(real(gid), compile_seconds=None)
    )
    assert _announce({"ripple_rush": (None, tmp_path)}) == ["Ripple Rush"]
    assert capsys.readouterr().err == (
        "compiling the Ripple Rush engine once (up to a minute or two); later runs start in under a second\n"
    )


def test_a_check_without_numba_says_its_games_run_as_plain_python(monkeypatch, capsys):
    """Installed without the `fast` extra, a check of a compiled game warns once, before playing, that its
    self-play runs uncompiled (a default Rummy Cards check would take hours); asked for with PNPKIT_PURE=1,
    or for a deck kit (no kernel), nothing is said."""
    import generator.engine.kernelcache
    from generator.cli.play import _needs_compile
    from generator.pipeline import load_kits

    monkeypatch.setattr(generator.engine.kernelcache, "salted_cache_dir", lambda pkg=None: None)
    monkeypatch.delenv("PNPKIT_PURE", raising=False)
    kits = load_kits([RR, ROOT / "layouts" / "rummy_cards", ROOT / "layouts" / "harvest_deck"])
    assert _needs_compile(kits) is False
    said = capsys.readouterr().err
    assert (
        said.startswith(
            "warning: numba is not installed, so the self-play of Ripple Rush and Rummy Cards runs as "
            "plain Python"
        )
        and said.endswith("pip install 'pnpkit[fast]' compiles it\n")
        and said.count("\n") == 1
    ), said
    monkeypatch.setenv("PNPKIT_PURE", "1")
    assert _needs_compile(kits) is False and capsys.readouterr().err == ""
    monkeypatch.delenv("PNPKIT_PURE")
    assert _needs_compile(kits[2:]) is False and capsys.readouterr().err == ""


def test_the_compile_notice_comes_before_the_static_checks(tmp_path, monkeypatch, capsys):
    """The notice is written before the block (the static checks, which compile Raindrops' difficulty kernels)
    runs, and the time it reports and keeps includes the block's."""
    pytest.importorskip("numba")
    import generator.checking
    from generator.cli import _compiling
    from generator.engine.kernelcache import last_compile_seconds
    from generator.pipeline import load_kits

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "xdg" / "pnpkit" / "numba" / "0123456789abcdef"))

    def fake_warm_up(kits, *, games, progress):
        yield kits[0].meta.id, 1.0

    monkeypatch.setattr(generator.checking, "warm_up", fake_warm_up)
    kits = load_kits([RR])
    with _compiling(kits):
        assert capsys.readouterr().err.startswith("compiling the Ripple Rush engine once")
        time.sleep(0.3)  # the static checks
    said = capsys.readouterr().err
    seconds = float(re.fullmatch(r"compiled the Ripple Rush engine in ([\d.]+) s, cached in .*\n", said)[1])
    assert seconds >= 1.3 and last_compile_seconds("ripple_rush") == seconds


def test_build_warm_starts_a_warmup_of_the_kits_that_outlives_it(monkeypatch, capsys):
    """`build --warm` starts `pnpkit warmup KIT...` as a process of its own session with its output dropped
    (the build does not wait for it); a build without --warm starts nothing (checked through the help)."""
    pytest.importorskip("numba")
    import subprocess as sp

    from generator.cli import _warm_in_background

    started = []

    class FakePopen:
        pid = 4242

        def __init__(self, args, **kw):
            started.append((args, kw))

    monkeypatch.setattr(sp, "Popen", FakePopen)
    _warm_in_background([RR])
    ((args, kw),) = started
    assert args == [sys.executable, "-m", "generator", "warmup", str(RR.resolve())]
    assert kw["start_new_session"] and kw["stdout"] is sp.DEVNULL and kw["stderr"] is sp.DEVNULL
    assert "in the background (pnpkit warmup, process 4242)" in capsys.readouterr().out
    monkeypatch.setenv("PNPKIT_PURE", "1")
    _warm_in_background([RR])
    assert len(started) == 1 and "nothing to compile" in capsys.readouterr().out


def test_cache_lists_and_clears_the_kernel_folders(tmp_path):
    base = tmp_path / "pnpkit" / "numba"
    for salt, size in (("1111111111111111", 2_500_000), ("2222222222222222", 400_000)):
        (base / salt / "engine_x").mkdir(parents=True)
        (base / salt / "engine_x" / "kernel.f-1.py311.nbc").write_bytes(b"x" * size)
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(tmp_path))
    env.pop("NUMBA_CACHE_DIR", None)

    def cache(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "generator", "cache", *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    r = cache()
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    # with this pnpkit's own folder, which numba makes (empty) when the kernels' module is imported
    assert lines[0] == f"3 kernel cache folders, 2.9 MB in {base}"
    shown = sorted(
        line.split()[:3] + (["this"] if line.endswith("(this pnpkit)") else []) for line in lines[1:]
    )
    from generator.engine.kernel import source_salt

    assert shown == sorted(
        [
            ["1111111111111111", "2.5", "MB"],
            ["2222222222222222", "0.4", "MB"],
            [source_salt(), "0.0", "MB", "this"],
        ]
    )
    r = cache("--clear")
    assert (r.returncode, r.stdout) == (0, f"removed 3 kernel cache folders, 2.9 MB from {base}\n")
    assert not any(base.iterdir())
    mine = tmp_path / "mine"
    r = subprocess.run(
        [sys.executable, "-m", "generator", "cache", "--clear"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**env, "NUMBA_CACHE_DIR": str(mine)},
    )
    assert r.returncode == 0 and "NUMBA_CACHE_DIR is set" in r.stdout


def test_a_deck_kits_check_loads_no_kernels_rasteriser_or_statistics_package():
    """A deck kit plays no compiled game and its draws are exact or sampled by numpy: its check imports
    neither numba, pypdfium2 nor statsmodels (nor scipy.stats, which statsmodels' absence does not prove).
    One interpreter answers both (the probe's line, then the modules of the second list after it)."""
    after = "print(sorted(m for m in sys.modules if m in ('scipy.stats', 'pandas', 'numba')))"
    ((code, heavy),), last = _probe_then([["check", str(ROOT / "layouts" / "harvest_deck")]], post=after)
    assert (code, heavy) == (0, [])
    assert last == "[]"


DECK_CHECK_SKIPS = ("numpy", "numba", "scipy", "pypdfium2", "svglib", "reportlab", "statsmodels", "pyphen")
"""What a warm check of a deck kit does not use: every draw of Harvest Hands is exact (no sampler, no
runner), nothing is drawn or rasterised (its SVG emblem was drawn by svglib once, and what svglib found in it
is remembered by content hash), no word is hyphenated."""


def _deck_check_imports(cache: Path) -> list[str]:
    """The modules of DECK_CHECK_SKIPS loaded after `check layouts/harvest_deck` in a fresh interpreter."""
    r = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from generator.cli import app\n"
            "try: app(['check', 'layouts/harvest_deck'], prog_name='pnpkit')\n"
            "except SystemExit as e: assert e.code == 0, e.code\n"
            f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({DECK_CHECK_SKIPS!r})))",
        ],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(cache)),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stdout + r.stderr
    return list(eval(r.stdout.splitlines()[-1]))


def test_a_warm_deck_check_imports_nothing_it_does_not_use(tmp_path):
    """The first check of the kit draws its SVG with svglib (and so loads reportlab) to find the texts the
    glyph check covers (reportlab, which svglib draws with, imports pyphen); the second, as a user's every
    later check, loads none of DECK_CHECK_SKIPS."""
    first = _deck_check_imports(tmp_path)
    assert "svglib" in first and set(first) <= {"svglib", "reportlab", "pyphen"}, first
    assert _deck_check_imports(tmp_path) == []


@pytest.mark.parametrize("terminal", ["0", "1"])
def test_paths_are_printed_as_they_are_never_read_as_markup(tmp_path, terminal):
    """A folder or file named like rich markup ("[red]k") is printed as it is, on a terminal and in a pipe:
    the path a user copies from the output is the path written."""
    shutil.copytree(ROOT / "layouts" / "harvest_deck", tmp_path / "[red]k")
    env = {"TTY_COMPATIBLE": terminal, "COLUMNS": "200"}
    r = pnpkit("check", "[red]k", "--json", "[b]x.json", cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "[b]x.json").is_file() and "wrote [b]x.json\n" in r.stdout, r.stdout
    r = pnpkit("new", "my_k", "--from", "[red]k", cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("created my_k/ from [red]k (kit.id my_k,"), r.stdout
    assert "  pnpkit build my_k\n" in r.stdout


def test_json_and_report_to_standard_output(tmp_path):
    """`--json -` writes the JSON document (the same bytes as a file) to stdout and the report people read to
    stderr, so `pnpkit check KIT --json - | jq` works; no file named '-' appears; `--report -` the HTML; both
    at once is a usage error."""
    deck = str(ROOT / "layouts" / "harvest_deck")
    r = pnpkit("check", deck, "--json", "-", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    f = pnpkit("check", deck, "--json", "doc.json", cwd=tmp_path)
    assert r.stdout == (tmp_path / "doc.json").read_text(encoding="utf-8")
    assert "harvest_deck: all 6 tolerances hold" in r.stderr and "wrote" not in r.stderr
    assert "harvest_deck: all 6 tolerances hold" in f.stdout and f.stdout.endswith("wrote doc.json\n")
    h = pnpkit("check", deck, "--report", "-", "--json", "doc2.json", cwd=tmp_path)
    assert h.returncode == 0 and h.stdout.startswith("<!DOCTYPE html>") and "wrote doc2.json" in h.stderr
    both = pnpkit("check", deck, "--json", "-", "--report", "-", cwd=tmp_path)
    assert both.returncode == 2 and both.stderr == (
        "error: --json - and --report -: only one of them can write to standard output\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.json", "doc2.json"]


def test_warmup_of_a_data_kit_says_there_is_nothing_to_compile():
    r = pnpkit("warmup", "harvest_deck")
    assert (r.returncode, r.stdout) == (
        0,
        "harvest_deck: nothing to compile (its checks play no compiled games)\n",
    )


def test_dask_local_in_any_case():
    from generator.cli.options import _dask

    assert _dask("LOCAL") == "local" == _dask("local") and _dask("tcp://h:8786") == "tcp://h:8786"
    assert _dask(None) is None


def test_list_names_each_kit_by_its_title(tmp_path):
    """`pnpkit list` says the title a reader knows a kit by (the README's "Harvest Hands" is harvest_deck); a
    title that is a template is not rendered there, so it is left out."""
    r = pnpkit("list")
    assert r.returncode == 0, r.stderr
    assert "harvest_deck: Harvest Hands, a deck kit in en, ja, es, de, fr\n" in r.stdout
    assert "sprout_sheet: Sprout Sheet, a deck kit in" in r.stdout
    kit = tmp_path / "mine"
    shutil.copytree(ROOT / "layouts" / "harvest_deck", kit)
    po = kit / "locales" / "en.po"
    po.write_text(
        po.read_text(encoding="utf-8").replace('msgstr "Harvest Hands"', 'msgstr "Harvest {{ 2 }}"'),
        encoding="utf-8",
    )
    r = pnpkit("list", str(kit))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("harvest_deck: a deck kit in en, ja, es, de, fr\n"), r.stdout
