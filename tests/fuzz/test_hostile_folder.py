"""A kit folder holding things no kit names -- a link to /dev/zero, FIFOs, a socket, links to files and
folders outside, a huge sparse file -- builds exactly as the clean kit: the build keys itself on the files the
kit uses, seen through the kit door (generator.spec.paths), so none of these is ever opened, and nothing
outside the kit folder, the output folder, the package or Python's own files is opened at all."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.pipeline import build

# one xdist worker runs the tests of this group (test_build_memo, test_incremental, fuzz/test_hostile_folder),
# so each clean build they share (tests/kitcopy.clean_build) is made once a run
pytestmark = pytest.mark.xdist_group("kit_builds")

ROOT = Path(__file__).resolve().parents[2]
KIT = (
    ROOT / "layouts" / "harvest_deck"
)  # a small deck kit: data, art and five catalogs, built in about a second
MEMORY = 2_000_000 * 1024  # `ulimit -v 2000000`

HOSTILE = (
    "devzero",
    "urandom",
    "fifo",
    "socket",
    "outside_file",
    "outside_dir",
    "outside_po",
    "huge",
    "loop",
)
PLACES = (".", "assets", "data", "locales")


def add_hostile(kit: Path, kind: str, where: str, name: str, outside: Path) -> None:
    """Put one hostile entry named `name` in `kit/where` (nothing in kit.yaml names it)."""
    path = kit / where / name
    if kind == "devzero":
        os.symlink("/dev/zero", path)
    elif kind == "urandom":
        os.symlink("/dev/urandom", path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        here = os.getcwd()
        os.chdir(path.parent)  # a socket's path is limited to about 100 bytes: bind it by its short name
        try:
            with socket.socket(socket.AF_UNIX) as s:
                s.bind(name)
        finally:
            os.chdir(here)
    elif kind == "outside_file":
        os.symlink(outside / "secret.txt", path)
    elif kind == "outside_dir":
        os.symlink(outside, path)
    elif kind == "outside_po":  # a catalog of a language the kit does not declare, linked out
        os.symlink(outside / "secret.txt", path.with_suffix(".po"))
    elif kind == "huge":
        with open(path, "wb") as fh:
            fh.truncate(4 * 1024**3)  # sparse: 4 GB to a reader, nothing on disk
    elif kind == "loop":
        os.symlink(name, path)
    else:
        raise AssertionError(kind)


def hostile_kit(tmp: Path, outside: Path) -> Path:
    """A copy of the kit with every hostile kind in several places."""
    kit = tmp / "hostile"
    shutil.copytree(KIT, kit)
    for i, kind in enumerate(HOSTILE):
        for j, where in enumerate(PLACES):
            add_hostile(kit, kind, where, f"h{i}{j}", outside)
    return kit


def outside_folder(tmp: Path) -> Path:
    outside = tmp / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n", encoding="utf-8")
    return outside


def outputs(out: Path) -> dict[str, bytes]:
    """Every output file's bytes, less the inputs record (it names the kit folder, which differs)."""
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.relative_to(out).parts[:2] != (".pnpkit", "inputs")
    }


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


PROBE = """
import json, os, sys
opened = []
sys.addaudithook(lambda event, args: opened.append(os.fsdecode(args[0])) if event == "open" and args
                 and isinstance(args[0], (str, bytes, os.PathLike)) else None)
from generator.cli import main
sys.argv = ["pnpkit", *sys.argv[2:]]
try:
    main()
finally:
    with open(os.environ["PNPKIT_OPEN_LOG"], "w", encoding="utf-8") as fh:
        json.dump(opened, fh)
"""


def cli(*args: str, log: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m generator ARGS` under `ulimit -v 2000000`; with `log`, every file it opens is written
    there."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "generator", *args]
    if log is not None:
        env["PNPKIT_OPEN_LOG"] = str(log)
        cmd = [sys.executable, "-c", PROBE, "x", *args]
    return subprocess.run(
        cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, preexec_fn=_limited
    )


def test_a_folder_of_hostile_entries_builds_as_the_clean_kit(tmp_path, clean_build):
    """The same bytes (as the clean kit's build, `clean_build`) and no word on stderr. That none of the
    entries is opened (the huge file read, a FIFO waited on) is proven by the audit hook below, not by a
    stopwatch: a timed assertion only measured the machine's load."""
    outside = outside_folder(tmp_path)
    kit = hostile_kit(tmp_path, outside)
    r = cli("build", str(kit), "--lang", "en", "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    assert r.stderr == "", r.stderr
    assert outputs(tmp_path / "out") == clean_build
    again = cli("build", str(kit), "--lang", "en", "--out", str(tmp_path / "out"))  # the whole-build shortcut
    assert again.returncode == 0 and "0 files written" in again.stdout, again.stdout + again.stderr
    assert outputs(tmp_path / "out") == clean_build


def _allowed_roots(*folders: Path) -> list[str]:
    import site
    import sysconfig

    roots = {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sys.base_exec_prefix,
        str(ROOT / "generator"),
        str(ROOT / "fonts"),
        *sysconfig.get_paths().values(),
        *site.getsitepackages(),
        *map(str, folders),
    }
    # the drawing library's own optional settings files in the home folder, the time zone database, and
    # pnpkit's own cache folder (compiled kernels; notes of the texts svglib found in an SVG, by content hash)
    home = Path.home()
    extra = {
        str(Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache") / "pnpkit"),
        str(home / ".reportlab_mods"),
        str(home / ".reportlab_settings"),
        "/usr/share/zoneinfo",
        "/etc/localtime",
    }
    return sorted(os.path.realpath(r) for r in roots | extra)


@pytest.mark.parametrize("rebuild", [False, True], ids=["first", "rebuild"])
def test_nothing_outside_the_kit_output_package_or_python_is_opened(tmp_path, rebuild):
    """An audit hook in the build's process records every `open`; each resolves inside the kit folder, the
    output folder, the package or Python's own files (a bare name is an open relative to a folder's
    descriptor: the output stage's removal)."""
    outside = outside_folder(tmp_path)
    kit = hostile_kit(tmp_path, outside)
    out = tmp_path / "out"
    log = tmp_path / "opened.json"
    if rebuild:
        assert cli("build", str(kit), "--lang", "en", "--out", str(out)).returncode == 0
    r = cli("build", str(kit), "--lang", "en", "--out", str(out), log=log)
    assert r.returncode == 0, r.stderr
    opened = json.loads(log.read_text(encoding="utf-8"))
    assert any(
        os.path.realpath(p) == str((kit / "kit.yaml").resolve()) for p in opened
    )  # the hook saw the build
    roots = _allowed_roots(kit.resolve(), out.resolve(), log.resolve())
    strays = sorted(
        {
            p
            for p in opened
            if "/" in p
            and not any(os.path.realpath(p) == r or os.path.realpath(p).startswith(r + os.sep) for r in roots)
        }
    )
    assert strays == []
    kit_real = str(kit.resolve())
    used = {
        "kit.yaml",
        "data/cards.csv",
        "assets/emblem.svg",
        "locales/en.po",
        "locales/ja.po",
        "locales/es.po",
        "locales/de.po",
        "locales/fr.po",
    }
    in_kit = {
        os.path.relpath(os.path.realpath(p), kit_real)
        for p in opened
        if "/" in p and os.path.realpath(p).startswith(kit_real + os.sep)
    }
    assert in_kit <= used and "kit.yaml" in in_kit  # no hostile entry, nor anything else unused, is opened


# ------------------------------------------------------------------ property: any hostile extras, same build


class _Slow(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Slow()


@pytest.fixture(scope="module")
def clean_build(tmp_path_factory):
    """The clean kit built in English, once a test process (tests/kitcopy.py): its output files (less the
    inputs record)."""
    from tests.kitcopy import clean_build as built
    from tests.kitcopy import fresh_copy

    out = tmp_path_factory.mktemp("clean") / "out"
    built(fresh_copy(KIT), out, langs=["en"])
    return outputs(out)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(extras=st.lists(st.tuples(st.sampled_from(HOSTILE), st.sampled_from(PLACES)), min_size=1, max_size=8))
def test_any_hostile_extras_build_exactly_as_the_clean_kit(tmp_path_factory, clean_build, extras):
    tmp = tmp_path_factory.mktemp("hostile")
    outside = outside_folder(tmp)
    kit = tmp / "kit"
    shutil.copytree(KIT, kit)
    for i, (kind, where) in enumerate(extras):
        add_hostile(kit, kind, where, f"x{i}", outside)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(20)  # a hang (a FIFO opened) fails the example instead of the run
    limits = resource.getrlimit(resource.RLIMIT_AS)
    in_use = os.sysconf("SC_PAGE_SIZE") * int(Path("/proc/self/statm").read_text().split()[0])
    cap = in_use + MEMORY if limits[1] == resource.RLIM_INFINITY else min(in_use + MEMORY, limits[1])
    resource.setrlimit(
        resource.RLIMIT_AS, (cap, limits[1])
    )  # reading /dev/zero fails the example, not the machine
    try:
        build([kit], out=tmp / "out", langs=["en"])
        again = build([kit], out=tmp / "out", langs=["en"])  # keyed on the used files alone: nothing to do
    finally:
        resource.setrlimit(resource.RLIMIT_AS, limits)
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert again.rebuilt == 0 and again.files == []
    assert outputs(tmp / "out") == clean_build


@pytest.mark.parametrize("kind", ["devzero", "fifo", "outside_file"])
def test_a_used_file_swapped_for_a_hostile_entry_after_a_build_is_a_located_error(tmp_path, kind):
    """The shortcut re-reads the used files through the door: a data file that became a /dev/zero link, a FIFO
    or a link out is refused there (never opened), then reported by the load with its name; nothing
    written."""
    from tests.kitcopy import clean_build as built
    from tests.kitcopy import fresh_copy

    outside = outside_folder(tmp_path)
    kit = fresh_copy(KIT)
    out = tmp_path / "out"
    built(kit, out, langs=["en"])  # the build before: made once a test process (tests/kitcopy.py)
    before = outputs(out)
    (kit / "data" / "cards.csv").unlink()
    add_hostile(kit, kind, "data", "cards.csv", outside)
    r = cli("build", str(kit), "--lang", "en", "--out", str(out))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "cards.csv" in r.stderr and "secret" not in r.stderr
    assert outputs(out) == before
