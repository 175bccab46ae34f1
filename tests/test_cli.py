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
