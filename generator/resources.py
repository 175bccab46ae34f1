"""Where the shipped layouts and fonts are (the checkout's folders, or the copies inside the wheel), and the
one atomic file writer every output goes through."""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from generator.errors import RenderError

_PKG = Path(__file__).resolve().parent


def _pick(name: str) -> Path:
    checkout = _PKG.parent / name
    if checkout.is_dir() and (_PKG.parent / "pyproject.toml").is_file():
        return checkout
    return _PKG / "_data" / name


def layouts_dir() -> Path:
    """The shipped kits' folder (`layouts/` in a checkout, `generator/_data/layouts` when installed)."""
    return _pick("layouts")


def shipped_kits() -> list[Path]:
    """Every kit folder shipped in layouts/ (those holding a kit.yaml), sorted."""
    root = layouts_dir()
    return sorted(p for p in root.iterdir() if (p / "kit.yaml").is_file()) if root.is_dir() else []


def shipped_kit(kit_id: str) -> Path | None:
    """The folder of the shipped kit a user named by its id (`pnpkit list`), letter case aside
    (`My_Kit`), or None."""
    return next((p for p in shipped_kits() if p.name.lower() == kit_id.lower()), None)


def fonts_dir() -> Path:
    """The vendored fonts' folder."""
    return _pick("fonts")


def tree_digest(root: Path, suffixes: tuple[str, ...]) -> str:
    """The sha256 of every file under `root` ending in one of `suffixes` (relative path and bytes, in path
    order; hidden folders and __pycache__ skipped). A file is re-read only when its size or mtime changed. The
    one digest of the package's sources (the build's tool key); the kernels' cache salt digests only the
    modules compiled code depends on (`engine.kernel.kernel_sources`)."""
    return _tree_digest(str(root), _stamp(root, suffixes))


def tree_stamp(root: Path, suffixes: tuple[str, ...]) -> list[tuple[str, int, int]]:
    """The relative path, size and mtime (ns) of every file `tree_digest` reads: a stat each, nothing read."""
    return list(_stamp(root, suffixes))


@lru_cache(maxsize=8)
def _tree_digest(root: str, stamp: tuple[tuple[str, int, int], ...]) -> str:
    h = hashlib.sha256()
    for rel, _, _ in stamp:
        h.update(rel.encode("utf-8") + b"\0")
        h.update((Path(root) / rel).read_bytes())
    return h.hexdigest()


def _stamp(root: Path, suffixes: tuple[str, ...]) -> tuple[tuple[str, int, int], ...]:
    """Every file's relative path, size and mtime: the cache key of the content digest."""
    out = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__pycache__")))
        for name in files:
            if name.endswith(suffixes):
                st = os.stat(os.path.join(folder, name))
                rel = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
                out.append((rel, st.st_size, st.st_mtime_ns))
    return tuple(sorted(out))


def atomic_write(path: Path, data: bytes | Callable[[Path], None], *, what: str = "the file") -> None:
    """Write `path` all-or-nothing: `data` (bytes, or a function that writes a given temporary path) goes to a
    temporary file in the same folder, is flushed to disk and renamed over `path`; on any failure or
    interrupt the temporary file is removed and `path` is untouched. The one writer of every output file
    (PDF, PNG, HTML/JSON reports, kit.yaml edits). OSError becomes a RenderError naming `path`."""
    path = Path(path)
    tmp: str | None = None
    try:
        if not path.parent.is_dir():
            raise RenderError(f"{path}: cannot write {what}: folder {path.parent} does not exist")
        if path.is_dir():
            raise RenderError(f"{path}: cannot write {what}: a folder is in the way")
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
        if isinstance(data, bytes):
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        else:
            os.close(fd)
            data(Path(tmp))
            with open(tmp, "rb+") as fh:
                os.fsync(fh.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; outputs are ordinary files
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise RenderError(f"{path}: cannot write {what} ({e.strerror or e})") from e
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
