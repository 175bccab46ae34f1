"""The command line: exit codes, messages without tracebacks, nothing written on bad input."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RR = ROOT / "layouts" / "ripple_rush"


def pnpkit(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


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
    ok = pnpkit("validate", str(RR))
    assert ok.returncode == 0, ok.stderr
    assert "ok" in ok.stdout
    bad = pnpkit("validate", str(bad_kit))
    assert bad.returncode == 1 and "Traceback" not in bad.stderr


def test_illegal_kit_is_refused_by_build(tmp_path):
    dst = tmp_path / "illegal"
    shutil.copytree(RR, dst)
    p = dst / "kit.yaml"
    p.write_text(p.read_text(encoding="utf-8").replace("bonuses: [5, 10, blue, red,", "bonuses: [5, 10, blue, purple,"), encoding="utf-8")
    r = pnpkit("build", str(dst), "--out", str(tmp_path / "o"))
    assert r.returncode == 1
    assert "game.bonuses[3]" in r.stderr and "purple" in r.stderr
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").rglob("*.pdf"))


def test_unknown_language_and_paper_are_clear_errors():
    r = pnpkit("build", str(RR), "--lang", "en,fr")
    assert r.returncode == 1 and "--lang" in r.stderr and "fr" in r.stderr
    r = pnpkit("build", str(RR), "--paper", "a5")
    assert r.returncode == 1 and "--paper" in r.stderr and "a5" in r.stderr


def test_build_prints_every_file(tmp_path):
    r = pnpkit("build", str(RR), "--lang", "es", "--paper", "letter", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    listed = [Path(line) for line in r.stdout.splitlines() if line.endswith(".pdf")]
    assert sorted(p.name for p in listed) == sorted(
        ["score_sheet-letter.pdf", "number_cards-letter.pdf", "goal_cards-letter.pdf", "rules-letter.pdf", "kit-letter.pdf"])
    assert all(p.is_file() for p in listed)
    assert not list(tmp_path.glob(".pnpkit-*"))  # the staging folder is gone


def test_list_and_schema():
    r = pnpkit("list")
    assert r.returncode == 0 and "ripple_rush" in r.stdout
    s = pnpkit("schema")
    assert s.returncode == 0
    import json

    schema = json.loads(s.stdout)
    assert "kit" in schema["properties"] and "game" in schema["properties"]


def test_works_from_another_folder(tmp_path):
    r = pnpkit("validate", cwd=tmp_path)
    assert r.returncode == 0, r.stderr


def test_print_shop_and_duplex_options(tmp_path):
    import pypdf

    r = pnpkit("build", str(RR), "--lang", "en", "--mode", "shop", "--out", str(tmp_path / "shop"))
    assert r.returncode == 0, r.stderr
    page = pypdf.PdfReader(str(tmp_path / "shop" / "ripple_rush" / "en" / "number_cards-a4.pdf")).pages[0]
    assert float(page.mediabox.width) == pytest.approx(180.0 + 2 * 3 * 72 / 25.4, abs=0.1)  # poker + 3 mm bleed
    assert float(page.trimbox.width) == pytest.approx(180.0, abs=0.1)
    r = pnpkit("build", str(RR), "--lang", "en", "--duplex", "none", "--out", str(tmp_path / "simplex"))
    assert r.returncode == 0, r.stderr
    pages = pypdf.PdfReader(str(tmp_path / "simplex" / "ripple_rush" / "en" / "number_cards-a4.pdf")).pages
    assert len(pages) == 12  # fronts only: no back pages
    bad = pnpkit("build", str(RR), "--mode", "poster")
    assert bad.returncode == 1 and "--mode" in bad.stderr and "poster" in bad.stderr


def _loosen(kit: Path, **bounds: str) -> None:
    y = kit / "kit.yaml"
    text = y.read_text(encoding="utf-8")
    for key, value in bounds.items():
        start = text.index(f"    {key}:")
        end = text.index("\n", start)
        text = text[:start] + f"    {key}: {value}" + text[end:]
    y.write_text(text, encoding="utf-8")


def test_check_exit_codes_json_and_report(tmp_path):
    """`check` exits 0 when every tolerance holds and 1 (naming the failed one) when one does not; the JSON
    is the same for the same seed; the HTML report is written."""
    import json

    ok = tmp_path / "ok"
    shutil.copytree(RR, ok)
    wide = "{min: 0.0, max: 1.0}"
    _loosen(ok, goal_completion=wide, goal_spread="{max: 100}", unplaceable_share=wide, tie_rate=wide,
            seat_win_share="{min: 0.0, max: 10.0}", skill_gap="{min: -100}")
    a, b, html = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "r.html"
    r = pnpkit("check", str(ok), "--games", "120", "--workers", "1", "--seed", "3", "--json", str(a), "--report", str(html))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    pnpkit("check", str(ok), "--games", "120", "--workers", "1", "--seed", "3", "--json", str(b))
    assert a.read_bytes() == b.read_bytes()
    assert json.loads(a.read_text())["ok"] is True and html.stat().st_size > 1000
    bad = tmp_path / "bad"
    shutil.copytree(ok, bad)
    _loosen(bad, skill_gap="{min: 1000}")
    r = pnpkit("check", str(bad), "--games", "120", "--workers", "1", "--seed", "3")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "tolerances failed" in r.stderr or "tolerance failed" in r.stderr
    assert "game.balance.skill_gap" in r.stdout


def test_check_exit_3_when_undecided_at_the_cap(tmp_path):
    """A bound the estimate sits on cannot be decided within balance.max_games: exit 3 (not 0, not 1), the
    message says how many games the estimate needs, the JSON gives each tolerance's verdict, interval, method
    and games; the batches double from --games up to the cap."""
    import json

    kit = tmp_path / "kit"
    shutil.copytree(RR, kit)
    wide = "{min: 0.0, max: 1.0}"
    _loosen(kit, games="2000\n    max_games: 480", goal_completion=wide, goal_spread="{max: 1000000}",
            unplaceable_share=wide, tie_rate=wide, seat_win_share="{min: 0.97, max: 10.0}", skill_gap="{min: -100}")
    out = tmp_path / "r.json"
    r = pnpkit("check", str(kit), "--games", "120", "--workers", "1", "--seed", "3", "--json", str(out))
    assert r.returncode == 3, r.stdout[-2000:] + r.stderr
    assert "undecided at balance.max_games" in r.stderr and "games per setting" in r.stderr
    assert "Traceback" not in r.stderr
    rep = json.loads(out.read_text())["reports"][0]
    assert rep["verdict"] == "UNDECIDED" and rep["looks"] == [120, 240, 480]
    seats = [t for t in rep["tolerances"] if t["spec_key"] == "game.balance.seat_win_share"]
    assert {t["verdict"] for t in seats} <= {"HOLDS", "UNDECIDED"} and "UNDECIDED" in {t["verdict"] for t in seats}
    open_ = [t for t in seats if t["verdict"] == "UNDECIDED"]
    assert all(t["games"] == 480 and t["look"] == 3 and t["method"] == "Wilson score" for t in open_)
    assert all(t["low"] < 0.97 < t["high"] for t in open_)


def test_check_json_same_bytes_for_1_and_2_workers(tmp_path):
    """The sequential check (batches, cached chunks) gives byte-identical JSON whatever the worker count."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    r1 = pnpkit("check", str(RR), "--games", "300", "--workers", "1", "--seed", "5", "--json", str(a))
    r2 = pnpkit("check", str(RR), "--games", "300", "--workers", "2", "--seed", "5", "--json", str(b))
    assert r1.returncode == r2.returncode and r1.returncode in (0, 3), r1.stderr + r2.stderr
    assert a.read_bytes() == b.read_bytes()
