"""Shared test switches: `--update-goldens` rewrites golden files instead of comparing with them.

The suite runs on every core by default (pytest-xdist, `workers`/`dist` in pyproject's
[tool.pytest.ini_options]): options are set here rather than in addopts so that `pytest -p no:xdist` (and
`-n0`) still run it in one process. Before the workers of a whole-suite run start, the self-play kernels are
compiled once into numba's disk cache (`pnpkit warmup`, one process per shipped kit), so the workers load them
instead of each compiling its own."""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Python keeps each module's compiled bytecode (in __pycache__, which git ignores) unless
# PYTHONDONTWRITEBYTECODE is set, as some containers do: then each test worker compiled every test and pnpkit
# module from source to collect (about 5 CPU-s a worker) and each pnpkit command a test starts compiled pnpkit
# again (about 0.2 CPU-s). The suite's processes keep bytecode, as Python does by default; this process
# from here on, the workers and every command the tests start.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# The third-party example games in tests/plugins/<name>/ (a package + its *.dist-info) are registered in the
# test process the way an installed package is: their folder on sys.path, where importlib.metadata finds the
# entry point "pnpkit.games". So the protocol conformance (tests/games/test_protocol.py) plays them too.
# Subprocesses started by tests get only the PYTHONPATH they set.
for _dist in sorted((ROOT / "tests" / "plugins").glob("*/*.dist-info")):
    if str(_dist.parent) not in sys.path:
        sys.path.append(str(_dist.parent))

# numpy's BLAS on one thread in the test processes and every subprocess they start, as `pnpkit` runs it
# (its spinning threads cost each process that loads numpy about 0.16 CPU-s, on a machine of two cores)
from generator.cli.base import BLAS_THREADS  # noqa: E402
from generator.process import collect_seldom  # noqa: E402

for _var in BLAS_THREADS:
    os.environ.setdefault(_var, "1")

# Python's cycle collector as a `pnpkit` process runs it (generator.process): a test process holds composed
# kits, numba and reportlab, and the default walked them again and again (11 % of the CPU of the layout and
# kit tests, 3 % with this)
collect_seldom()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite golden files with the current output (read the diff before committing)",
    )
    parser.addini(
        "workers",
        "pytest-xdist workers when no -n is given (-n0 or -p no:xdist: one process)",
        default="auto",
    )
    parser.addini("dist", "pytest-xdist distribution when no -n is given", default="loadgroup")


def pytest_configure(config: pytest.Config) -> None:
    # xdist registers this mark itself; registered here too so a run without xdist (-p no:xdist) accepts it
    config.addinivalue_line("markers", "xdist_group(name): run the tests of a group on one xdist worker")
    if _is_worker(config):
        config.pluginmanager.register(_GroupedNodeIds(), "pnpkit-grouped-node-ids")


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput") or "PYTEST_XDIST_WORKER" in os.environ


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """`-n <workers> --dist <dist>` from the ini file, unless the command line chose (-n, --dist, --tx), asked
    for --pdb or --collect-only, or xdist is not loaded (-p no:xdist)."""
    if not config.pluginmanager.hasplugin("xdist") or _is_worker(config):
        return
    opt = config.option
    if opt.numprocesses is not None or opt.dist != "no" or opt.tx or opt.usepdb or opt.collectonly:
        return
    workers = str(config.getini("workers")).strip()
    opt.numprocesses = workers if workers in ("auto", "logical") else int(workers)
    opt.dist = str(config.getini("dist")).strip()


@pytest.hookimpl(tryfirst=True)  # before xdist's worker reads the xdist_group marks (--dist loadgroup)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a worker: the tests of a file that share a module- or session-scoped fixture of ours (a built kit, a
    played report) run on one worker, so the fixture is made once; tests marked `slow` are handed out first,
    so no worker is left running one long test at the end. A run in one process keeps the file order."""
    if not _is_worker(config):
        return
    # A worker parses the command line afresh and so never sees the --dist chosen above from the ini file;
    # xdist's own hook (after this one) suffixes the group to each node id only when this is set.
    config.option.loadgroup = getattr(config, "workerinput", {}).get("pnpkit_dist") == "loadgroup"
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        defs = info.name2fixturedefs.values() if info is not None else ()
        shared = any(
            d.scope in ("module", "package", "session") and str(d.baseid).startswith("tests")
            for chain in defs
            for d in chain
        )
        if shared and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: file order otherwise


def _group_suffix(item: pytest.Item) -> str:
    """The `@<group>` that --dist loadgroup expects at the end of a grouped test's node id ('' if
    ungrouped)."""
    names = sorted(
        {
            str(m.args[0] if m.args else m.kwargs.get("name", "default"))
            for m in item.iter_markers("xdist_group")
        }
    )
    return f"@{'_'.join(names)}" if names else ""


class _GroupedNodeIds:
    """Registered on xdist workers (pytest_configure): gives each grouped test the node id suffix that xdist
    meant to give it (see `pytest_collection_modifyitems` below)."""

    @pytest.hookimpl(trylast=True)  # after xdist's own hook, which suffixes the group to each grouped node id
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        """Make sure each grouped test's node id ends in `@<group>`, the only way the controller's loadgroup
        scheduler learns the group. pytest-xdist (3.8 and older) writes `item._nodeid`, which pytest 9 no
        longer reads (node ids are structured `NodeId`s in `item._id`): its suffix is lost there and every
        test is scheduled alone, so a module fixture is made on every worker. Here the suffix is written where
        this pytest keeps the id, and only when missing, so a pytest or xdist that does it already is left
        alone."""
        if not config.getvalue("loadgroup"):
            return
        for item in items:
            suffix = _group_suffix(item)
            if not suffix or item.nodeid.endswith(suffix):
                continue
            node_id = getattr(item, "_id", None)
            if node_id is None or isinstance(node_id, str):
                item._nodeid = item.nodeid + suffix  # type: ignore[attr-defined]  # pytest < 9
            else:
                item._id = type(node_id).parse(item.nodeid + suffix)  # type: ignore[attr-defined]  # pytest 9
            if not item.nodeid.endswith(suffix):
                raise pytest.UsageError(
                    f"cannot give {item.nodeid} its xdist group {suffix}: this pytest keeps "
                    "node ids where tests/conftest.py does not look"
                )


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Hand each worker the distribution chosen in `pytest_cmdline_main` (it rereads only the command
    line)."""
    node.workerinput["pnpkit_dist"] = node.config.option.dist


# ------------------------------------------------------------------ numba warm-up before the workers start

_warmup: list[tuple[str, subprocess.Popen[bytes], IO[bytes]]] = []
WARMUP_LOGS = "PNPKIT_SUITE_WARMUP"
"""Environment variable: the folder of this run's warm-up logs (<kit>.out, and <kit>.rc once it ended)."""
_warm_marker: list[Path] = []
_warm_cpu: list[float] = []
"""The clock and the CPU seconds of this process's reaped children when the warm-up started (the xdist
workers are reaped only when the run ends, so the difference once the warm-up processes are waited for is
their CPU time)."""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _whole_suite(config: pytest.Config) -> bool:
    """A run of the whole suite (no path given, or the tests folder itself): the one worth compiling every
    kernel for; a run of a few files compiles on demand what it plays."""
    for arg in config.args:
        path = Path(arg.split("::")[0])
        path = path if path.is_absolute() else Path(config.invocation_params.dir) / path
        if path.resolve() not in (ROOT / "tests", ROOT):
            return False
    return True


def _sources_stamp() -> str:
    """The checkout's path and each kernel source's size and mtime (`kernel_sources`: what the numba cache is
    salted with, and what numba's own index checks): an edit elsewhere keeps the kernels warm."""
    from generator.engine.kernel import kernel_sources

    h = hashlib.sha256(str(ROOT).encode())
    for path in kernel_sources(ROOT / "generator"):
        st = path.stat()
        h.update(f"{path.relative_to(ROOT)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]


def pytest_sessionstart(session: pytest.Session) -> None:
    """Start compiling the kernels (one `pnpkit warmup` process per kit) while the workers start and collect;
    skipped when this checkout's cache is known warm, when not distributing, or for part of the suite."""
    config = session.config
    if _is_worker(config) or getattr(config.option, "dist", "no") == "no" or not _whole_suite(config):
        return
    from generator.engine.kernel import HAVE_NUMBA  # sets NUMBA_CACHE_DIR (salted), inherited by the workers

    if not HAVE_NUMBA:
        return
    marker = Path(os.environ["NUMBA_CACHE_DIR"]) / f"warm-{_sources_stamp()}"
    if marker.exists():
        return
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    )
    from generator.pipeline import shipped_kits

    _warm_cpu[:] = [time.perf_counter(), _children_cpu()]
    logs = Path(tempfile.mkdtemp(prefix="pnpkit-warmup-"))
    os.environ[WARMUP_LOGS] = str(logs)  # before xdist starts the workers (its sessionstart is trylast)
    for kit in shipped_kits():
        err = tempfile.TemporaryFile()
        with open(logs / f"{kit.name}.out", "wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "generator", "warmup", str(kit)],
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
            )
        _warmup.append((kit.name, proc, err))
    _warm_marker.append(marker)


def _suite_warmup(kit: str) -> tuple[int, str, Path] | None:
    """This run's own `pnpkit warmup <kit>` (exit code, stdout, the numba cache folder it compiled into), for
    a test of that command to read instead of compiling the kit a second time; None where this run did not
    warm up (part of the suite, one process, or a cache already warm)."""
    logs = os.environ.get(WARMUP_LOGS)
    rc = Path(logs) / f"{kit}.rc" if logs else None
    if rc is None or not rc.exists():
        return None
    return (
        int(rc.read_text()),
        rc.with_suffix(".out").read_text(encoding="utf-8"),
        Path(os.environ["NUMBA_CACHE_DIR"]),
    )


def _finish_warmup(config: pytest.Config, *, wait: bool = True) -> None:
    """Wait for the warm-up (or end it); a kit that failed to warm is reported (its tests will say why)."""
    if not _warmup:
        return
    t = time.perf_counter()
    failed = []
    try:
        for name, proc, err in _warmup:
            if wait:
                Path(os.environ[WARMUP_LOGS], f"{name}.rc").write_text(str(proc.wait()))
            if wait and proc.returncode != 0:
                err.seek(0)
                failed.append(f"{name}: exit {proc.returncode}: {err.read().decode(errors='replace')[-600:]}")
    finally:
        for _, proc, err in _warmup:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            err.close()
        names = [name for name, _, _ in _warmup]
        _warmup.clear()
    if not wait:
        return
    if not failed:
        _warm_marker[0].parent.mkdir(parents=True, exist_ok=True)
        _warm_marker[0].touch()
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(
            f"numba kernels compiled once for all workers ({', '.join(names)}): waited "
            f"{time.perf_counter() - t:.0f} s of its {time.perf_counter() - _warm_cpu[0]:.0f} s, "
            f"{_children_cpu() - _warm_cpu[1]:.0f} CPU-s" + "".join(f"\nwarm-up failed: {f}" for f in failed)
        )


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    """The first worker has collected: hold the scheduling until the kernels are compiled."""
    _finish_warmup(node.config)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A run that ended before any worker collected (an error, Ctrl-C) ends the warm-up; the warm-up's logs
    go."""
    _finish_warmup(session.config, wait=False)
    if not _is_worker(session.config) and os.environ.get(WARMUP_LOGS):
        shutil.rmtree(os.environ.pop(WARMUP_LOGS), ignore_errors=True)


class Golden:
    """Compare text with a golden file beside the test, or rewrite it with --update-goldens."""

    def __init__(self, update: bool):
        self.update = update

    def check(self, path: Path, text: str) -> None:
        """Assert `text` equals the file at `path` (normalised line endings)."""
        if self.update or not path.exists():
            if not self.update:
                pytest.fail(f"golden file {path} is missing; run pytest --update-goldens and read the diff")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        expected = path.read_text(encoding="utf-8").replace("\r\n", "\n")
        assert text.replace("\r\n", "\n") == expected, (
            f"output differs from golden {path}; rerun with --update-goldens if intended"
        )


@pytest.fixture
def suite_warmup() -> Any:
    """suite_warmup(kit) -> (exit code, stdout, numba cache folder) of this run's `pnpkit warmup <kit>`, or
    None."""
    return _suite_warmup


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Golden:
    """The golden-file helper."""
    return Golden(bool(request.config.getoption("--update-goldens")))


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """built(kit_name, paper="a4", langs=None) -> the output folder of that kit (built once per session, paper
    and languages; None: every language of the kit). A test that reads one language of another paper asks for
    it alone (a third of the build); a build of every language, or of more languages, serves a request for
    some."""
    from generator.pipeline import build

    cache: dict[tuple[str, str, tuple[str, ...] | None], Path] = {}

    def get(name: str, paper: str = "a4", langs: tuple[str, ...] | None = None) -> Path:
        key = (name, paper, langs)
        for (n, p, have), folder in cache.items():  # a build of more languages serves a request for some
            if (n, p) == (name, paper) and (have is None or (langs is not None and set(langs) <= set(have))):
                return folder
        if key not in cache:
            out = tmp_path_factory.mktemp(f"{name}-{paper}")
            build(
                [ROOT / "layouts" / name], out=out, paper=paper, langs=None if langs is None else list(langs)
            )
            cache[key] = out / name
        return cache[key]

    return get
