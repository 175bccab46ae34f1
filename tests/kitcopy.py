"""Shared by the incremental-build tests: a copy of the shipped Ripple Rush kit, a text edit that must find
its target, and a folder's files as bytes (to compare an incremental build with a clean one)."""

from __future__ import annotations

import atexit
import copy
import hashlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RR = ROOT / "layouts" / "ripple_rush"


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def copy_ripple_rush(tmp_path: Path) -> Path:
    """A copy of layouts/ripple_rush in tmp_path."""
    dst = tmp_path / "ripple_rush"
    shutil.copytree(RR, dst)
    return dst


# ------------------------------------------------------------------ clean builds made once per test process

_STORE: list[Path] = []
_CLEAN: dict[str, tuple[Path, Any]] = {}


def _store() -> Path:
    """This process's folder of kit copies and clean builds (removed when the process ends)."""
    if not _STORE:
        _STORE.append(Path(tempfile.mkdtemp(prefix="pnpkit-test-builds-")))
        atexit.register(shutil.rmtree, _STORE[0], True)
    return _STORE[0]


def fresh_copy(src: Path) -> Path:
    """A pristine copy of the kit folder `src` at the same place every time in this test process (whatever
    the last test did to it), so that a build of it can be one `clean_build` made before: a build's records
    name the kit folder's absolute path."""
    dst = _store() / "kits" / src.name
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst, symlinks=True)
    return dst


def _kit_state(kit: Path) -> list[tuple[str, str, str]]:
    rows = []
    for p in sorted(kit.rglob("*")):
        rel = p.relative_to(kit).as_posix()
        if p.is_symlink():
            rows.append((rel, "link", os.readlink(p)))
        elif p.is_file():
            rows.append((rel, "file", hashlib.sha256(p.read_bytes()).hexdigest()))
    return rows


def clean_build(kit: Path, out: Path, *, fresh: bool = False, **options: Any) -> Any:
    """`build([kit], out=out, **options)` into an OUT that does not exist yet: the first time for these very
    inputs in this test process a real build, afterwards a copy of what it wrote and returned. The key is
    all a build reads that a test may change: the kit folder's path and every file's bytes, the working
    folder and the options (the generator and fonts are this process's). Determinism makes the copy the
    build's own bytes (test_incremental and test_build_memo compare rebuilds with clean builds byte for
    byte). `fresh`: build for real even so (a test that counts what a first build does) and keep that."""
    from generator.pipeline import build

    assert not out.exists(), out
    key = hashlib.sha256(
        repr((os.path.abspath(kit), os.getcwd(), _kit_state(kit), sorted(options.items()))).encode()
    ).hexdigest()
    if key in _CLEAN and not fresh:
        made, result = _CLEAN[key]
        shutil.copytree(made, out, symlinks=True)
        again = copy.deepcopy(result)
        again.files = [out / p.relative_to(made) for p in result.files]
        again.outputs = [out / p.relative_to(made) for p in result.outputs]
        return again
    result = build([kit], out=out, **options)
    made = _store() / "builds" / key
    shutil.rmtree(made, ignore_errors=True)
    shutil.copytree(out, made, symlinks=True)
    kept = copy.deepcopy(result)
    kept.files = [made / p.relative_to(out) for p in result.files]
    kept.outputs = [made / p.relative_to(out) for p in result.outputs]
    _CLEAN[key] = (made, kept)
    return result
