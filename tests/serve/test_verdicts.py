"""The preview's check panel (issue 26 item 6): UNDECIDED shows as undecided with the games it would need,
never as FAIL; infinite and missing figures show as such instead of breaking the page's JSON."""

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")  # starlette.testclient's client (httpx is deprecated there)
from starlette.testclient import TestClient

from generator.serve import CHECK_JSON, PAGE, Preview, _summary, _verdicts, make_app

ROOT = Path(__file__).resolve().parents[2]


def _tol(name, verdict, measured, lo=None, hi=None, needed=None):
    return {
        "name": name,
        "verdict": verdict,
        "ok": verdict == "HOLDS",
        "measured": measured,
        "minimum": lo,
        "maximum": hi,
        "spec_key": f"game.balance.{name}",
        "needed_games": needed,
    }


DOC = {
    "ok": False,
    "reports": [
        {
            "kit": "my_rr",
            "games_per_setting": 2000,
            "ok": False,
            "verdict": "UNDECIDED",
            "tolerances": [
                _tol("tie_rate", "HOLDS", 0.05, hi=0.1),
                _tol("goal_spread", "UNDECIDED", 2.98, hi=3.0, needed=12000),
                _tol("skill_gap", "HOLDS", float("inf"), lo=3.0),
                {
                    "name": "seat_win_share",
                    "verdict": "UNDECIDED",
                    "ok": False,
                    "minimum": 0.85,
                    "maximum": 1.15,
                },
                _tol("odd", "HOLDS", float("nan"), lo=float("-inf")),
            ],
        }
    ],
}


def test_a_kit_of_counted_verdicts_is_shown_as_exact_not_as_games():
    counted = {"name": "crop", "verdict": "HOLDS", "ok": True, "evidence": {"kind": "Exact", "value": 0.9}}
    sampled = {**counted, "evidence": {"kind": "Proportion", "successes": 9, "n": 10}}
    reports = [
        {"kit": k, "games_per_setting": 4000, "tolerances": t}
        for k, t in (("deck", [counted]), ("mixed", [counted, sampled]), ("none", []))
    ]
    assert [r["exact"] for r in _verdicts({"reports": reports})] == [True, False, False]
    assert [r["exact"] for r in _verdicts(DOC)] == [False]  # tolerances without their evidence: sampled
    assert "every verdict exact" in PAGE


def test_undecided_is_not_fail_and_names_the_games_it_needs():
    [rep] = _verdicts(DOC)
    assert rep["verdict"] == "UNDECIDED" and rep["ok"] is False
    rows = {r["name"]: r for r in rep["rows"]}
    assert rows["goal_spread"]["verdict"] == "UNDECIDED" and rows["goal_spread"]["needed"] == 12000
    assert rows["tie_rate"]["verdict"] == "HOLDS"
    assert (
        _summary([rep])
        == "2 tolerances undecided, none fails: about 12,000 games per setting would decide them"
    )
    failing = json.loads(json.dumps(DOC))
    failing["reports"][0]["tolerances"][0]["verdict"] = "FAILS"
    assert _summary(_verdicts(failing)) == "some tolerances fail"


def test_infinite_and_missing_figures_are_shown_as_such():
    rows = {r["name"]: r for r in _verdicts(DOC)[0]["rows"]}
    assert rows["skill_gap"]["measured"] == "∞"
    assert rows["odd"]["measured"] == "not measured" and rows["odd"]["min"] == "-∞"
    assert rows["seat_win_share"]["measured"] is None  # missing: the page writes "not measured"
    json.dumps(_verdicts(DOC), allow_nan=False)  # what the page receives is strict JSON


def test_the_page_reads_an_undecided_check_with_infinities(tmp_path):
    kit = tmp_path / "my_rr"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    out = tmp_path / "out"
    (out / "my_rr").mkdir(parents=True)
    (out / "my_rr" / CHECK_JSON).write_text(json.dumps(DOC), encoding="utf-8")  # Python writes Infinity, NaN
    with TestClient(make_app(Preview(kit, out, lang="en"), watch=False)) as c:
        r = c.get("/api/state")
        assert r.status_code == 200
        check = r.json()["check"]
    assert check["status"] == "done" and check["message"].startswith("2 tolerances undecided")
    assert [row["verdict"] for row in check["reports"][0]["rows"]] == [
        "HOLDS",
        "UNDECIDED",
        "HOLDS",
        "UNDECIDED",
        "HOLDS",
    ]


def test_the_page_draws_undecided_apart_from_fail():
    assert 'UNDECIDED: ["undecided", "undecided"]' in PAGE and "games would decide" in PAGE
    assert '${t.ok ? "ok" : "FAIL"}' not in PAGE
    assert '"not measured"' in PAGE
