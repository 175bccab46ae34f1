"""Shared by the incremental-build tests: a copy of the shipped Ripple Rush kit, a text edit that must find
its target, and a folder's files as bytes (to compare an incremental build with a clean one)."""

from __future__ import annotations

import shutil
from pathlib import Path

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
