"""A build's folders on forked workers (generator.pipeline.workers): results in order, the kit files a
worker reads keyed as if read here, a worker's error raised here as a serial build raises it; and a whole
build on two processes writes what it writes on one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.layout.text import UnprintableTextError
from generator.pipeline.workers import can_fork, run_jobs
from generator.spec.paths import read_bytes, recording_reads, resolve_dir, resolve_inside
from tests.clirun import pnpkit
from tests.kitcopy import tree

pytestmark = pytest.mark.skipif(not can_fork(), reason="workers are forked")


def _pid(i: int) -> tuple[int, int]:
    return i, os.getpid()


def test_jobs_come_back_in_order_from_other_processes_with_the_files_they_read(tmp_path):
    kit = tmp_path / "kit"
    kit.mkdir()
    (kit / "art.svg").write_text("<svg/>", encoding="utf-8")
    root = resolve_dir(kit, "kit")

    def reads_art() -> tuple[int, int]:
        path = resolve_inside(root, root / "art.svg", "kit/art.svg", "art")
        assert path is not None
        read_bytes(path, "kit/art.svg", 1000, "art")
        return 1, os.getpid()

    done: list[int] = []
    with recording_reads() as looks:
        got = run_jobs(
            [lambda: _pid(0), reads_art, lambda: _pid(2), lambda: _pid(3)], 2, lambda i, _: done.append(i)
        )
    assert [i for i, _ in got] == [0, 1, 2, 3] and done == [0, 1, 2, 3]
    # the first ran here, before the fork (the workers inherit what it loaded); the others in workers
    assert got[0][1] == os.getpid() and os.getpid() not in {pid for _, pid in got[1:]}
    assert [look for look in looks if look[0] == "read"] == [("read", str(root / "art.svg"), "1000")]


def test_a_job_that_fails_in_a_worker_raises_its_own_error_here_and_later_jobs_are_dropped():
    """UnprintableTextError does not survive pickling (its constructor takes three arguments): the job runs
    again here, so the build's message is the serial build's, whatever the error's type."""
    ran_here: list[int] = []

    def bad() -> int:
        ran_here.append(os.getpid())
        raise UnprintableTextError("locales/ja.po:12: kit.title", "a\x07b", "control character U+0007")

    done: list[int] = []
    with pytest.raises(UnprintableTextError) as e:
        run_jobs([lambda: 0, bad, lambda: 2], 2, lambda i, _: done.append(i))
    assert str(e.value) == "locales/ja.po:12: kit.title: control character U+0007; got 'a\\x07b'"
    assert done == [0] and os.getpid() in ran_here


def test_one_process_or_one_job_runs_here_and_two_jobs_both_go_to_workers():
    assert run_jobs([lambda: _pid(0), lambda: _pid(1)], 1) == [(0, os.getpid()), (1, os.getpid())]
    assert run_jobs([lambda: _pid(0)], 2) == [(0, os.getpid())]
    two = run_jobs([lambda: _pid(0), lambda: _pid(1)], 2)  # one here first would leave a single job to share
    assert [i for i, _ in two] == [0, 1] and os.getpid() not in {pid for _, pid in two}


def _build_tree(out: Path) -> dict[str, bytes]:
    # the build record's name and key hold the output folder's path; every other file must be the same
    return {k: v for k, v in tree(out).items() if not k.startswith(".pnpkit/inputs/")}


def test_a_build_on_two_processes_writes_what_one_process_writes(tmp_path):
    args = ["build", "ripple_rush", "--lang", "en,ja"]
    one = pnpkit(*args, "--workers", "1", "--out", str(tmp_path / "one"))
    two = pnpkit(*args, "--workers", "2", "--out", str(tmp_path / "two"))
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert _build_tree(tmp_path / "one") == _build_tree(tmp_path / "two")
    assert len([k for k in _build_tree(tmp_path / "two") if k.endswith("kit-a4.pdf")]) == 2

    def lines(text: str) -> list[str]:
        return [line for line in text.replace(str(tmp_path), "OUT").splitlines() if " pages in " not in line]

    assert lines(one.stdout.replace("/one/", "/")) == lines(two.stdout.replace("/two/", "/"))


def _overflowing(tmp_path: Path, lang: str, word: str) -> Path:
    """A copy of Ripple Rush whose card back in `lang` reads `word` ten times: more than its box holds."""
    import shutil

    kit = tmp_path / "rr"
    shutil.copytree(Path(__file__).resolve().parents[2] / "layouts" / "ripple_rush", kit)
    po = kit / "locales" / f"{lang}.po"
    text = po.read_text(encoding="utf-8")
    start = text.index('msgid "cards.back"\nmsgstr "') + len('msgid "cards.back"\nmsgstr "')
    po.write_text(text[:start] + word * 10 + text[text.index('"', start) :], encoding="utf-8")
    return kit


def test_an_error_in_one_folder_on_two_processes_is_the_serial_message_and_writes_nothing(tmp_path):
    """A string of one language that does not fit is found while its folder is composed (in a worker): the
    build fails with the serial build's message, naming the catalog line, and writes nothing."""
    kit = _overflowing(tmp_path, "es", "SUPERCALIFRAGILISTICO")
    ran = [
        pnpkit("build", str(kit), "--lang", "en,es,ja", "--workers", w, "--out", str(tmp_path / f"o{w}"))
        for w in ("1", "2")
    ]
    assert [r.returncode for r in ran] == [1, 1]
    assert "es.po:" in ran[0].stderr and "cards.back: does not fit (es)" in ran[0].stderr, ran[0].stderr
    assert ran[0].stderr.replace("/o1", "/o") == ran[1].stderr.replace("/o2", "/o")
    assert not any(p.is_file() for p in (tmp_path / "o2").rglob("*"))  # nothing written


def test_validate_on_two_processes_says_what_one_process_says(tmp_path):
    """validate composes every folder too (on workers): the same report and, for a string of one language
    that does not fit, the same located error."""
    ok = [pnpkit("validate", "ripple_rush", "--lang", "en,ja", "--workers", w) for w in ("1", "2")]
    assert (
        [r.returncode for r in ok] == [0, 0] and ok[0].stdout == ok[1].stdout and ok[0].stderr == ok[1].stderr
    )
    kit = _overflowing(tmp_path, "ja", "スーパーカリフラジリスティック")
    bad = [pnpkit("validate", str(kit), "--lang", "en,ja,es", "--workers", w) for w in ("1", "2")]
    assert [r.returncode for r in bad] == [1, 1] and "ja.po:" in bad[0].stderr, bad[0].stderr
    assert bad[0].stderr == bad[1].stderr


def test_a_result_that_does_not_come_back_is_made_here():
    """A result that does not pickle (a plugin's page holding a function, say) never reaches this process
    from a worker: that job runs here instead, and the results stay in order."""
    got = run_jobs([lambda: _pid(0), lambda: lambda: 1, lambda: _pid(2)], 2)
    assert got[0][0] == 0 and got[1]() == 1 and got[2][0] == 2
