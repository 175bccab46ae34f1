"""`pnpkit tune` (issue 27): declared tunables, located errors, the search, its storage and the tuned kit."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from generator.cli import app
from generator.contract import games
from generator.contract.load import load_kit
from generator.engine.executors import SerialExecutor
from generator.engine.tunables import Tunable, distance, find
from generator.pipeline import Run, load_run
from generator.spec.edit import set_value
from generator.tune.edit import tuned_yaml
from generator.tune.plan import Plan, TuneUsageError, make_plan, parse_param
from generator.tune.search import search
from tests.clirun import pnpkit as in_process

ROOT = Path(__file__).resolve().parents[2]
PD = ROOT / "layouts" / "peak_dice"
RR = ROOT / "layouts" / "ripple_rush"

runner = CliRunner()


def plan_of(
    kit: Path,
    *,
    seed: int,
    params: Sequence[str] = (),
    targets: Sequence[str] = (),
    trials: int | None = None,
) -> Plan:
    """The plan `pnpkit tune KIT --seed SEED` makes: from the run the load phase resolved."""
    return make_plan(load_run(Run.of([kit], seed=seed)), params=params, targets=targets, trials=trials)


def copy_kit(src: Path, dst: Path, edits: dict[tuple[str, ...], object]) -> Path:
    shutil.copytree(src, dst)
    for keys, value in edits.items():
        set_value(dst / "kit.yaml", keys, value)
    return dst


def quick_pd(tmp_path: Path, name: str = "pd") -> Path:
    """Peak Dice at 3 players with 3 miss boxes (about 10 % of games need more: fails a 0.03 overflow bound),
    loose other bounds and small budgets, so the whole tune (search and proof) runs in seconds."""
    return copy_kit(
        PD,
        tmp_path / name,
        {
            ("game", "miss_boxes"): 3,
            ("game", "players"): {"min": 3, "max": 3},
            ("game", "balance", "games"): 300,
            ("game", "balance", "max_games"): 600,
            ("game", "balance", "seat_win_share_gap"): {"min": -0.3, "max": 0.3},
            ("game", "balance", "miss_box_overflow"): {"max": 0.03},
            ("game", "balance", "game_turns"): {"min": 20, "max": 70},
            ("game", "balance", "miss_turn_share"): {"max": 0.5},
            ("game", "balance", "score_mean"): {"min": 0},
            ("game", "balance", "stalled_share"): {"max": 0.5},
            ("game", "balance", "reroll_gain"): {"min": 0},
            ("tune",): {
                "params": [{"path": "game.miss_boxes", "min": 3, "max": 14}],
                "trials": 6,
                "games": 100,
                "candidates": 3,
                "proofs": 1,
            },
        },
    )


# ---------------------------------------------------------------------------------------------- declarations


def test_every_shipped_game_declares_the_issue_tunables_at_real_spec_paths():
    wanted = {
        "ripple_rush": {"game.goals.points", "game.goals.revealed", "game.bonuses", "game.cards_per_player"},
        "peak_dice": {"game.miss_boxes", "game.rules.miss_track_full", "game.row_length", "game.peak_after"},
        "raindrops": {"game.memory_cards.points.min", "game.bonus_tiles.offer", "game.rules.cards_dealt"},
        "rummy_cards": {"game.initial_meld", "game.hand_size", "game.joker_penalty"},
    }
    for gid, paths in wanted.items():
        assert games()[gid].tunables is not None
        declared = games()[gid].load.tunables()
        assert paths <= {t.path for t in declared}
        kit = load_kit(ROOT / "layouts" / gid)
        model = type(kit.game)
        for t in declared:  # every path names a field of the game's spec model
            node: object = model
            for k in t.keys[1:]:
                fields = node.model_fields  # type: ignore[attr-defined]
                assert k in fields, f"{gid}: {t.path}"
                ann = fields[k].annotation
                node = ann if hasattr(ann, "model_fields") else object
    bonuses = find(games()["ripple_rush"].load.tunables(), "bonuses")
    assert bonuses is not None and bonuses.kind == "permutation"


def test_tunable_ranges_are_checked_and_distance_prefers_fewer_smaller_changes():
    with pytest.raises(ValueError):
        Tunable("x", "game.x", "int", 5, 1)
    from generator.engine.tunables import Space

    a = Space(Tunable("a", "game.a", "int", 0, 10), 0, 10)
    b = Space(Tunable("b", "game.b", "int", 0, 10), 0, 10)
    orig = {"game.a": 5, "game.b": 5}
    assert distance([a, b], orig, orig) == 0
    assert distance([a, b], orig, {"game.a": 6, "game.b": 5}) < distance(
        [a, b], orig, {"game.a": 9, "game.b": 5}
    )
    assert distance([a, b], orig, {"game.a": 10, "game.b": 5}) < distance(
        [a, b], orig, {"game.a": 6, "game.b": 6}
    )


def test_parse_param_forms():
    assert parse_param("game.miss_boxes=8..20") == ("game.miss_boxes", 8.0, 20.0, None)
    assert parse_param("rules.miss_track_full=choice:capped,keep_counting")[3] == ("capped", "keep_counting")
    assert parse_param("game.bonuses=permutation") == ("game.bonuses", None, None, None)
    for bad in ("game.miss_boxes", "game.miss_boxes=8-20", "game.miss_boxes=20..8", "x=choice:a"):
        with pytest.raises(TuneUsageError):
            parse_param(bad)


# --------------------------------------------------------------------------------------------- located errors


def test_option_errors_exit_2_naming_the_option(tmp_path):
    cases = [
        (["--param", "game.miss_boxes=8..40"], "leaves the legal range: an integer in 0..30"),
        (["--param", "game.dice=1..3"], "'game.dice' is not tunable in peak_dice"),
        (["--target", "seat_share=1"], "'seat_share' names no tolerance of game.balance"),
        (["--trials", "0"], "--trials"),
    ]
    for extra, message in cases:
        r = runner.invoke(app, ["tune", str(PD), "--out", str(tmp_path / "o"), *extra])
        assert r.exit_code == 2, (extra, r.output)
        assert message in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "o").exists()


def test_spec_errors_in_the_tune_section_exit_1_with_file_and_line(tmp_path):
    bad_path = copy_kit(
        PD, tmp_path / "a", {("tune", "params"): [{"path": "game.colours", "min": 1, "max": 2}]}
    )
    r = runner.invoke(app, ["tune", str(bad_path), "--out", str(tmp_path / "o")])
    assert r.exit_code == 1
    assert "kit.yaml:" in r.stderr and "tune.params.0.path" in r.stderr and "not tunable" in r.stderr
    bad_range = copy_kit(
        PD, tmp_path / "b", {("tune", "params"): [{"path": "game.miss_boxes", "min": 8, "max": 31}]}
    )
    r = runner.invoke(app, ["tune", str(bad_range), "--out", str(tmp_path / "o")])
    assert r.exit_code == 1 and "tune.params.0" in r.stderr and "legal range" in r.stderr
    bad_target = copy_kit(PD, tmp_path / "c", {("tune", "targets"): [{"tolerance": "fairness", "value": 0}]})
    r = runner.invoke(app, ["tune", str(bad_target), "--out", str(tmp_path / "o")])
    assert (
        r.exit_code == 1
        and "tune.targets.0.tolerance" in r.stderr
        and "'fairness' names no tolerance" in r.stderr
    )
    line = next(
        i for i, t in enumerate((bad_target / "kit.yaml").read_text().splitlines(), 1) if "fairness" in t
    )
    assert f"kit.yaml:{line}:" in r.stderr
    assert not (tmp_path / "o").exists()


# ----------------------------------------------------------------------------------------- the tuned kit.yaml


def test_tuned_yaml_keeps_comments_and_annotates_old_values():
    plan = plan_of(
        RR,
        params=["game.cards_per_player=15..25", "game.goals.points=1..6", "game.bonuses=permutation"],
        seed=1,
    )
    values = dict(plan.original)
    values["game.cards_per_player"] = 22
    values["game.goals.points"] = 5
    values["game.bonuses"] = list(reversed(plan.original["game.bonuses"]))
    text = tuned_yaml(plan, values)
    src = (RR / "kit.yaml").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert any(ln.startswith("  cards_per_player: 22") and "pnpkit tune: was 20" in ln for ln in lines)
    # goals is a flow mapping (no comments inside): the note names the key under it
    assert any(ln.startswith("  goals: {points: 5") and "pnpkit tune: points was 3" in ln for ln in lines)
    bon = next(ln for ln in lines if ln.startswith("  bonuses:"))
    assert "[20, 15, orange" in bon and "pnpkit tune: was [5, 10" in bon and "top row first" in bon
    # every other line is kept byte for byte (layout, alignment, comments)
    changed = [i for i, (a, b) in enumerate(zip(src.splitlines(), lines, strict=False)) if a != b]
    assert len(lines) == len(src.splitlines()) and len(changed) == 3


# ------------------------------------------------------------------------------------------- search and proof


def test_the_proof_budget_ladder_doubles_the_kits_cap_up_to_proof_max_games():
    from generator.tune.proof import budget_ladder

    assert budget_ladder(16000, 256000) == [16000, 32000, 64000, 128000, 256000]
    assert budget_ladder(16000, 100000) == [16000, 32000, 64000, 100000]
    assert budget_ladder(16000, None) == [16000] == budget_ladder(16000, 16000) == budget_ladder(16000, 8000)
    assert budget_ladder(None, 256000) == [None]


def test_the_proof_walks_outward_from_the_original_then_the_held_candidates(tmp_path):
    """Single integer parameter from 8: the search sampled 9 (hopeless), 11 (estimate outside its bound), 13
    and 17 (estimates held). The proof judges 10, 11, 12 (10 and 12 never sampled), then 13 and 17; hopeless 9
    and anything farther than 13 that did not hold are left out."""
    from generator.tune.judge import Judged
    from generator.tune.proof import proof_order
    from generator.tune.search import Search

    kit = copy_kit(PD, tmp_path / "pd", {("game", "miss_boxes"): 8})
    plan = plan_of(kit, params=["game.miss_boxes=8..20"], seed=1)
    sp = plan.space

    def j(v: int, violation: float, hopeless: bool = False) -> Judged:
        values = {"game.miss_boxes": v}
        return Judged(values, violation, distance(sp, plan.original, values), 0.0, hopeless)

    judged = {0: j(9, 3.0, True), 1: j(17, 0.0), 2: j(11, 0.2), 3: j(13, 0.0), 4: j(15, 0.5), 5: j(11, 0.2)}
    order = proof_order(plan, Search(None, judged, 0))
    assert [c.values["game.miss_boxes"] for c in order] == [10, 11, 12, 13, 17]


def test_a_raised_game_budget_is_written_and_annotated():
    plan = plan_of(PD, params=["game.miss_boxes=8..20"], seed=1)
    values = {"game.miss_boxes": 12}
    text = tuned_yaml(plan, values, {"game.balance.max_games": 64000})
    lines = text.splitlines()
    assert any(ln.startswith("  miss_boxes: 12") and "pnpkit tune: was 11" in ln for ln in lines)
    assert any(
        ln.startswith("    max_games: 64000") and "# pnpkit tune: was 16000; ... up to this" in ln
        for ln in lines
    )
    src = (PD / "kit.yaml").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(src) and sum(a != b for a, b in zip(src, lines, strict=False)) == 2


def test_tune_writes_a_checked_kit_with_the_fewest_boxes_and_the_same_bytes_twice(tmp_path):
    kit = quick_pd(tmp_path)
    outs = []
    for run in ("o1", "o2"):
        r = runner.invoke(
            app, ["tune", str(kit), "--seed", "3", "--workers", "1", "--out", str(tmp_path / run)]
        )
        assert r.exit_code == 0, r.output + r.stderr
        outs.append(tmp_path / run)
    a, b = ((o / "pd-tuned" / "kit.yaml").read_bytes() for o in outs)
    assert a == b
    assert f"  game.miss_boxes: 3 -> {load_kit(outs[0] / 'pd-tuned').game.miss_boxes}\n" in r.stdout
    assert (outs[0] / "pd-tune.html").read_bytes() == (outs[1] / "pd-tune.html").read_bytes()
    tuned = load_kit(outs[0] / "pd-tuned")
    assert tuned.game.miss_boxes > 3
    assert f"miss_boxes: {tuned.game.miss_boxes}" in a.decode() and "pnpkit tune: was 3" in a.decode()
    html = (outs[0] / "pd-tune.html").read_text()
    assert "Trials over time" in html and "<svg" in html and "candidate 1" in html
    # `pnpkit check` at the proof stream's seed passes the tuned kit, and fails the original there
    seed = "3"
    r = runner.invoke(app, ["check", str(outs[0] / "pd-tuned"), "--seed", seed, "--workers", "1"])
    assert r.exit_code == 0, r.output + r.stderr
    r = runner.invoke(app, ["check", str(kit), "--seed", seed, "--workers", "1"])
    assert r.exit_code == 1
    # and one box fewer does not hold there (the proof walked up from 3 boxes, so it judged that count too)
    fewer = tmp_path / "fewer"
    shutil.copytree(outs[0] / "pd-tuned", fewer)
    set_value(fewer / "kit.yaml", ("game", "miss_boxes"), tuned.game.miss_boxes - 1)
    assert runner.invoke(app, ["check", str(fewer), "--seed", seed, "--workers", "1"]).exit_code in (1, 3)


def test_a_tune_that_changes_nothing_says_the_kits_own_values_hold(tmp_path):
    """The search's best is the original (11 boxes already hold): the terminal says so, with the values, as
    the report does, instead of listing no change at all."""
    kit = quick_pd(tmp_path)
    set_value(kit / "kit.yaml", ("game", "miss_boxes"), 11)
    r = runner.invoke(app, ["tune", str(kit), "--seed", "3", "--workers", "1", "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output + r.stderr
    assert "  no change needed: the kit's own values hold (game.miss_boxes 11)\n" in r.stdout
    assert " -> " not in r.stdout and load_kit(tmp_path / "o" / "pd-tuned").game.miss_boxes == 11


def test_an_interrupted_search_continues_from_its_storage(tmp_path):
    kit = quick_pd(tmp_path)
    storage = f"sqlite:///{tmp_path / 'tune.db'}"
    plan = plan_of(kit, trials=5, seed=2)
    seen: list[int] = []

    def interrupt(done: int, total: int, what: str) -> None:
        seen.append(done)
        if done >= 3 and what.startswith("trial"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        search(plan, SerialExecutor(), storage=storage, progress=interrupt)
    first = search(plan_of(kit, trials=2, seed=2), SerialExecutor(), storage=storage)
    assert first.played == 0 and len(first.judged) == 2  # both finished trials were kept
    again = search(plan, SerialExecutor(), storage=storage)
    assert again.played == 3 and len(again.judged) == 5
    assert {k: v.values for k, v in first.judged.items()}.items() <= {
        k: v.values for k, v in again.judged.items()
    }.items()


def test_two_targets_run_a_multi_objective_study_and_report_its_pareto_front(tmp_path):
    """Issue 27 item 3: several targets are several objectives (optuna's multi-objective TPE, seeded); the
    report shows the Pareto front, the proof walks it closest to the original first, and the same seed writes
    the same bytes."""
    from generator.tune.proof import pareto, proof_order
    from generator.tune.search import ranked

    kit = quick_pd(tmp_path)
    targets = ["game_turns=45", "miss_turn_share=0.1"]
    plan = plan_of(
        kit, params=["game.miss_boxes=3..14", "game.rerolls=0..2"], targets=targets, trials=6, seed=5
    )
    found = search(plan, SerialExecutor())
    assert len(found.study.directions) == 2
    legal = [j for j in ranked(found) if not j.illegal]
    pool = [j for j in legal if j.violation == 0] or legal
    front = pareto(pool)
    assert front and all(len(j.gaps) == 2 for j in front)
    for j in front:  # nobody on the front is beaten on both targets by another candidate
        assert not any(o.gaps[0] <= j.gaps[0] and o.gaps[1] <= j.gaps[1] and o.gaps != j.gaps for o in pool)
    order = proof_order(plan, found)
    assert order and all(j in front for j in order)
    assert [j.distance for j in order] == sorted(j.distance for j in order)
    args = [
        "tune",
        str(kit),
        "--param",
        "game.miss_boxes=3..14",
        "--param",
        "game.rerolls=0..2",
        "--trials",
        "6",
        "--seed",
        "5",
        "--workers",
        "1",
        *(x for tg in targets for x in ("--target", tg)),
    ]
    pages = []
    for run in ("m1", "m2"):
        r = runner.invoke(app, [*args, "--out", str(tmp_path / run)])
        assert r.exit_code in (0, 1), r.output + r.stderr
        pages.append((tmp_path / run / "pd-tune.html").read_bytes())
    assert pages[0] == pages[1]
    html = pages[0].decode()
    assert "Pareto front (2 targets" in html and "gap to game_turns 45" in html


def _finished_trials(db: Path) -> list[tuple[int, str]]:
    """(number, params as text) of the finished (complete or pruned) trials in an optuna sqlite storage."""
    if not db.exists():
        return []
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        rows = con.execute(
            "SELECT t.number, group_concat(p.param_name || '=' || p.param_value, ';') FROM trials t "
            "LEFT JOIN trial_params p ON p.trial_id = t.trial_id WHERE t.state IN ('COMPLETE', "
            "'PRUNED') GROUP BY t.trial_id ORDER BY t.number"
        ).fetchall()
    except sqlite3.OperationalError:  # the schema is not written yet
        return []
    finally:
        con.close()
    return [(int(n), str(v)) for n, v in rows]


def _stored_tune(kit: Path, db: Path, out: Path) -> list[str]:
    """`pnpkit tune` of `kit` at seed 2 on one worker, its study kept in the SQLite file `db`."""
    return [
        "tune",
        str(kit),
        "--seed",
        "2",
        "--workers",
        "1",
        "--storage",
        f"sqlite:///{db}",
        "--out",
        str(out),
    ]


def test_ctrl_c_keeps_every_finished_trial_and_a_rerun_continues(tmp_path):
    """The real thing: `pnpkit tune --storage sqlite:///...` in its own process, SIGINT once trials are
    stored. It exits 130 (as every pnpkit command on Ctrl-C) with a message saying where the trials are kept,
    no traceback; the same command with more --trials continues the study: the finished trials are all still
    there, unchanged, and new ones follow."""
    kit = quick_pd(tmp_path)
    db = tmp_path / "tune.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cmd = [sys.executable, "-m", "generator", *_stored_tune(kit, db, tmp_path / "o")]
    proc = subprocess.Popen(
        [*cmd, "--trials", "1000"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 300
        while len(_finished_trials(db)) < 2:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "two trials were not stored within five minutes"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, (out, err)
    assert "Traceback" not in err and "tune interrupted: the finished trials are kept in sqlite:///" in err
    kept = _finished_trials(db)
    assert 2 <= len(kept) < 1000 and not (tmp_path / "o" / "pd-tuned").exists()
    # the rerun in this process: what it is asked is the command's (a fresh interpreter only started pnpkit)
    r = in_process(*cmd[3:], "--trials", str(len(kept) + 2))
    assert r.returncode == 0, r.stderr
    assert f"2 trials played, {len(kept) + 2} in the study" in r.stdout
    again = _finished_trials(db)
    assert len(again) == len(kept) + 2 and set(kept) <= set(again)


def test_ctrl_c_while_a_trial_is_written_lets_the_write_finish(tmp_path, monkeypatch):
    """Ctrl-C is acted on between trials and between batches of games, never inside optuna's storage writes
    (raised in a database commit, it printed a traceback): a signal that comes while a finished trial is
    written waits for the write, so that trial is kept, then the command exits 130 with its one line."""
    import optuna

    kit = quick_pd(tmp_path)
    db = tmp_path / "tune.db"
    real = optuna.storages.RDBStorage.set_trial_state_values
    finished = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    sent: list[int] = []

    def writing(self, trial_id, state, values=None):  # type: ignore[no-untyped-def]
        if state in finished and not sent:
            sent.append(trial_id)
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C as the first finished trial is being written
        return real(self, trial_id, state, values)

    monkeypatch.setattr(optuna.storages.RDBStorage, "set_trial_state_values", writing)
    r = in_process(*_stored_tune(kit, db, tmp_path / "o"), "--trials", "50")
    assert sent and r.returncode == 130, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr and "tune interrupted: the finished trials are kept" in r.stderr
    assert len(_finished_trials(db)) == 1  # the trial being written when the signal came, and no other


@pytest.mark.slow
def test_dask_local_finds_what_two_workers_find(tmp_path):
    from generator.engine.executors import make_executor
    from generator.tune.search import ranked

    kit = quick_pd(tmp_path)
    best = []
    for workers, dask in ((2, None), (None, "local")):
        with make_executor(workers, dask) as ex:
            found = search(plan_of(kit, trials=4, seed=4), ex)
        best.append([(j.values, j.score) for j in ranked(found)])
    assert best[0] == best[1]


ISSUE_27 = {
    ("game", "rules", "step_b"): "optional",
    ("game", "balance", "miss_box_overflow"): {"max": 0.001},
    ("game", "miss_boxes"): 8,
}
"""The issue's own case: step_b optional, the digest's 0.001 defect bound ("a box count that self-play
exceeds in more than 0.1% of games is a defect of the sheet"), 8 boxes (fails)."""


def issue_27_kit(dst: Path, boxes: int, max_games: int) -> Path:
    """The issue-27 kit with `boxes` miss boxes and balance.max_games at `max_games`, written by hand: what
    the tune of the next test writes, so the checks of its result run beside it instead of after it."""
    return copy_kit(
        PD,
        dst,
        {**ISSUE_27, ("game", "miss_boxes"): boxes, ("game", "balance", "max_games"): max_games},
    )


@pytest.mark.slow
def test_issue_27_peak_dice_optional_step_b_gets_the_fewest_miss_boxes_the_check_proves(tmp_path):
    """The issue's own case (ISSUE_27). The proof walks the box counts outward from 8 and raises the
    check's game budget up to tune.proof_max_games where a count fails nothing but stays undecided, so the
    tuned kit has the fewest boxes the check proves (11, with balance.max_games raised to 256,000; at 16,000
    games it needed zero overflows): its game section is the one `issue_27_kit(11, 256_000)` writes, which
    the next two tests check (`pnpkit check --seed 5` passes it, one box fewer does not hold at that
    budget).
    That a second run writes the same bytes is shown on the same path (search, outward walk, raised budget,
    two workers) at a smaller scale by test_a_tune_that_raises_the_game_budget_writes_the_same_bytes_twice:
    here a second run would cost another 100 CPU seconds."""
    kit = copy_kit(PD, tmp_path / "pd", ISSUE_27)
    args = ["tune", str(kit), "--param", "game.miss_boxes=8..20", "--trials", "20", "--seed", "1"]
    r1 = runner.invoke(app, [*args, "--out", str(tmp_path / "o1")])
    assert r1.exit_code == 0, r1.stderr
    tuned_dir = tmp_path / "o1" / "pd-tuned"
    a = (tuned_dir / "kit.yaml").read_bytes()
    tuned = load_kit(tuned_dir)
    boxes, budget = tuned.game.miss_boxes, tuned.game.balance.max_games
    assert boxes == 11 and budget == 256_000
    text = a.decode()
    assert "miss_boxes: 11  # pnpkit tune: was 8" in text and "max_games: 256000" in text
    assert "# pnpkit tune: was 16000;" in text
    assert tuned.game == load_kit(issue_27_kit(tmp_path / "by-hand", boxes, budget)).game


@pytest.fixture(scope="module")
def seed_5_games() -> dict[object, object]:
    """The tallies of the issue-27 checks at seed 5, kept between the two tests that run them: their kits
    differ in the miss track alone, which no game reads (Peak Dice's simulation does not hold it), so the
    second check replays the first one's games instead of playing them again (16 CPU seconds)."""
    return {}


@pytest.fixture
def shared_check_games(
    seed_5_games: dict[object, object], monkeypatch: pytest.MonkeyPatch
) -> dict[object, object]:
    """Make `pnpkit check` keep its games' tallies in `seed_5_games`: its CachingExecutor (keyed by
    simulation, chunk seed and games, so a tally is only ever served for the very games it counts) starts
    from the tallies the module's earlier checks kept. Each check still judges every look itself."""
    from generator.engine import sequential

    class Shared(sequential.CachingExecutor):
        def __init__(self, inner: object):
            super().__init__(inner)  # type: ignore[arg-type]
            self._cache = seed_5_games  # type: ignore[assignment]

    monkeypatch.setattr(sequential, "CachingExecutor", Shared)
    return seed_5_games


@pytest.mark.slow
def test_issue_27_the_tuned_peak_dice_passes_the_check(tmp_path, shared_check_games):
    """`pnpkit check --seed 5` passes the kit the issue-27 tune writes (11 boxes, 256,000 games)."""
    kit = issue_27_kit(tmp_path / "pd", 11, 256_000)
    assert runner.invoke(app, ["check", str(kit), "--seed", "5"]).exit_code == 0
    assert shared_check_games  # the games were kept for the next test


@pytest.mark.slow
def test_issue_27_one_box_fewer_does_not_hold_at_the_tuned_budget(tmp_path, shared_check_games):
    """One box fewer than the issue-27 tune wrote (10) does not hold at its 256,000-game budget."""
    kit = issue_27_kit(tmp_path / "pd", 10, 256_000)
    assert load_kit(kit).game.balance.max_games == 256_000
    assert runner.invoke(app, ["check", str(kit), "--seed", "5"]).exit_code in (1, 3)  # fails or undecided


def test_a_tune_that_raises_the_game_budget_writes_the_same_bytes_twice(tmp_path):
    """The issue-27 path at a small scale: the proof walks outward from 3 boxes and raises balance.max_games
    (600) up to tune.proof_max_games (4,800) for the count it proves; on two worker processes, twice, the
    tuned kit and the report are the same bytes, and the raised budget is written and annotated."""
    kit = quick_pd(tmp_path)
    set_value(kit / "kit.yaml", ("game", "balance", "miss_box_overflow"), {"max": 0.01})
    set_value(kit / "kit.yaml", ("tune", "proof_max_games"), 4800)
    outs = [tmp_path / "o1", tmp_path / "o2"]
    for out in outs:
        r = runner.invoke(app, ["tune", str(kit), "--seed", "3", "--workers", "2", "--out", str(out)])
        assert r.exit_code == 0, r.output + r.stderr
    a, b = ((o / "pd-tuned" / "kit.yaml").read_bytes() for o in outs)
    assert a == b
    assert f"  game.miss_boxes: 3 -> {load_kit(outs[0] / 'pd-tuned').game.miss_boxes}\n" in r.stdout
    assert (outs[0] / "pd-tune.html").read_bytes() == (outs[1] / "pd-tune.html").read_bytes()
    tuned = load_kit(outs[0] / "pd-tuned")
    assert tuned.game.miss_boxes > 3 and tuned.game.balance.max_games == 4800
    assert "max_games: 4800" in a.decode() and "# pnpkit tune: was 600;" in a.decode()
