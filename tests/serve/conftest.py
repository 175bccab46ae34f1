"""Fixtures of the preview tests: a copy of the Ripple Rush kit and a running `pnpkit serve` on a free
port."""

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RR = ROOT / "layouts" / "ripple_rush"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def kit(tmp_path):
    dst = tmp_path / "my_rr"
    shutil.copytree(RR, dst)
    return dst


@pytest.fixture
def server(kit, tmp_path):
    """`pnpkit serve KIT` in a child process; yields its base URL once the first build is served."""
    yield from serving(kit, tmp_path)


def serving(kit: Path, tmp_path: Path):
    """`pnpkit serve KIT` (English, 20 games) in a child process: yields its base URL once the first build is
    served, and stops it after."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    log = open(tmp_path / "serve.log", "w+", encoding="utf-8")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "generator",
            "serve",
            str(kit),
            "--port",
            str(port),
            "--out",
            str(tmp_path / "out"),
            "--lang",
            "en",
            "--games",
            "20",
        ],
        cwd=tmp_path,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(url + "/api/state", timeout=5) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            log.seek(0)
            pytest.fail(f"pnpkit serve did not start:\n{log.read()}")
        time.sleep(0.3)
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
