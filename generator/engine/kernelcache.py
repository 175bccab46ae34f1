"""The compiled kernels' disk cache, seen from outside numba: where it is, whether a game's kernels are in it,
and the folders of other pnpkit versions (or edits) that nothing loads any more.

Kernels are cached under `<user cache>/pnpkit/numba/<salt>/`, one folder per digest of the modules compiled
code depends on (`engine.kernel.source_salt`): an upgrade or an edit of a kernel starts a new folder and the
old one is never read again (30-90 MB each). When `pnpkit check` is about to compile (the first run of a new
version) the oldest others are removed, keeping the newest `KEEP_CACHES` and any written to in the last
`KEEP_RECENT_SECONDS` (another pnpkit on this machine may be using it). `pnpkit cache` lists them; `pnpkit
cache --clear` removes them. A NUMBA_CACHE_DIR the user set is theirs: it is used as it is, never pruned or
cleared.

This module imports nothing heavy (no numba): the CLI asks it before a kernel is loaded."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

KEEP_CACHES = 3
"""Salted cache folders kept when a new one is started (the new one included)."""
KEEP_RECENT_SECONDS = 3600.0
"""A folder written to this recently is kept whatever its rank: a pnpkit running beside this one may use
it."""
_SALT = re.compile(r"[0-9a-f]{16}")
_TIMES = "compile-seconds.json"
"""Beside the salted folders: the seconds each game's kernels last took to compile (for the first-run
notice)."""


_IMPORT = re.compile(
    r"^(?:from\s+(generator(?:\.\w+)*)\s+import\s+(?:\(([\w\s,]+)\)|([\w ,]+))"
    r"|import\s+(generator(?:\.\w+)*))",
    re.M,
)


def _has_jit_line(text: str) -> bool:
    """Whether a line of `text` starts with `@jit` (a compiled function's decorator): what the regex `^@jit`
    (multiline) finds, by a substring search, 40 times faster over the package's 2 MB (every process that
    loads a kernel salts its cache first)."""
    return text.startswith("@jit") or "\n@jit" in text


def kernel_sources(pkg: Path) -> list[Path]:
    """The modules of the package `pkg` compiled code can depend on: every module with a compiled function
    (`@jit...` at the start of a line), `engine/kernel.py`, and what they import at module level from the
    package, transitively (numba freezes the globals a kernel reads, and those come from its module's
    imports). Function-level imports are left out: compiled code cannot import. Sorted paths."""
    files: dict[str, Path] = {}  # dotted module name -> its file (a module's .py before a package's)
    for p in sorted(pkg.rglob("*.py")):
        if "__pycache__" in p.parts:
            continue
        parts = p.relative_to(pkg.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            files.setdefault(".".join(parts[:-1]), p)
        else:
            files[".".join(parts)] = p
    texts = {name: f.read_text(encoding="utf-8") for name, f in files.items()}

    todo = [name for name, text in texts.items() if _has_jit_line(text)]
    todo += [m for m in (f"{pkg.name}.engine.kernel",) if m in files]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for m in _IMPORT.finditer(texts[name]):
            mod = (m.group(1) or m.group(4)).replace("generator", pkg.name, 1)
            names = [n.split()[0] for n in (m.group(2) or m.group(3) or "").split(",") if n.strip()]
            for f in (mod, *(f"{mod}.{n}" for n in names)):
                if f in files and f not in seen:
                    todo.append(f)
    return sorted(files[name] for name in seen)


def source_salt(pkg: Path) -> str:
    """The digest of the modules compiled code can depend on (`kernel_sources`, relative path and bytes)."""
    h = hashlib.sha256()
    for path in kernel_sources(pkg):
        h.update(path.relative_to(pkg).as_posix().encode("utf-8") + b"\0" + path.read_bytes())
    return h.hexdigest()[:16]


def salted_cache_dir(pkg: Path | None = None) -> Path | None:
    """The folder numba caches pnpkit's kernels in, found without importing numba (so the first-run notice can
    come before that import): NUMBA_CACHE_DIR when set, else `cache_base()/<source salt>`, which is then set
    as NUMBA_CACHE_DIR (before numba reads its configuration). None when no kernel is compiled: numba is not
    installed or PNPKIT_PURE=1."""
    import importlib.util

    if os.environ.get("PNPKIT_PURE") == "1" or importlib.util.find_spec("numba") is None:
        return None
    if not os.environ.get("NUMBA_CACHE_DIR"):
        os.environ["NUMBA_CACHE_DIR"] = str(
            cache_base() / source_salt(pkg or Path(__file__).resolve().parents[1])
        )
    return Path(os.environ["NUMBA_CACHE_DIR"])


def cache_base() -> Path:
    """The folder holding pnpkit's salted kernel caches: `$XDG_CACHE_HOME/pnpkit/numba` (`~/.cache/...`)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pnpkit" / "numba"


def user_cache_dir() -> bool:
    """Whether the user chose numba's cache folder (NUMBA_CACHE_DIR set before pnpkit set it)."""
    chosen = os.environ.get("NUMBA_CACHE_DIR") or ""
    return bool(chosen) and Path(chosen).parent != cache_base()


_PACKAGE = Path(__file__).resolve().parents[1]


def salted(cache_dir: Path) -> bool:
    """Whether `cache_dir` is one of pnpkit's salted folders (`cache_base()/<salt>`, named by the digest of
    every module compiled code can depend on), where numba files pnpkit's own kernels by their path inside the
    package (`engine/numba_locator.py`); not when the user chose numba's locators
    (NUMBA_CACHE_LOCATOR_CLASSES)."""
    return (
        cache_dir.parent == cache_base()
        and bool(_SALT.fullmatch(cache_dir.name))
        and not os.environ.get("NUMBA_CACHE_LOCATOR_CLASSES")
    )


def package_part(py_file: Path) -> tuple[str, ...] | None:
    """The folder of a module of this pnpkit package as parts inside it (`("games", "<game>")`), or
    None for a file outside it."""
    try:
        return Path(py_file).resolve().parent.relative_to(_PACKAGE).parts
    except ValueError:
        return None


def module_cache_dir(cache_dir: Path, py_file: Path) -> Path:
    """Where numba caches the compiled functions of `py_file` under `cache_dir`: for a module of this package
    in a salted folder, the module's folder inside the package (`numba_locator.PackageLocator`: the same in
    every checkout and installation of the same sources); else numba's own user-provided locator (the source
    folder's name and the sha1 of its absolute path)."""
    parts = package_part(py_file)
    if parts is not None and salted(cache_dir):
        return cache_dir.joinpath(_PACKAGE.name, *parts)
    folder = os.path.dirname(os.path.abspath(py_file))
    return cache_dir / f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"


def has_kernels(package: Path) -> bool:
    """Whether a game's package holds compiled functions (a line starting with `@jit` in one of its
    modules)."""
    jit = re.compile(r"^@jit", re.M)
    return any(jit.search(p.read_text(encoding="utf-8")) for p in sorted(package.glob("*.py")))


def is_cached(cache_dir: Path, package: Path) -> bool:
    """Whether numba holds compiled code for the modules of `package` in `cache_dir` (an index file of each
    module with compiled functions, or the mark of a warm-up that compiled what a check plays, in case a
    module's kernels serve another command): False means the next run that plays this game compiles it."""
    if is_warm(cache_dir, package):
        return True
    jit = re.compile(r"^@jit", re.M)
    modules = [p for p in sorted(package.glob("*.py")) if jit.search(p.read_text(encoding="utf-8"))]
    where = module_cache_dir(cache_dir, package / "x.py")
    return bool(modules) and all(any(where.glob(f"{p.stem}.*.nbi")) for p in modules)


def _warm_mark(cache_dir: Path, package: Path) -> Path:
    return module_cache_dir(cache_dir, package / "x.py") / ".pnpkit-warm"


def is_warm(cache_dir: Path, package: Path) -> bool:
    """Whether a warm-up of `package`'s game (this checkout's folder) has run into `cache_dir`."""
    return _warm_mark(cache_dir, package).is_file()


def mark_warm(cache_dir: Path, package: Path) -> None:
    """Note that a warm-up compiled `package`'s kernels into `cache_dir` (so the notice is not repeated even
    if one of its modules holds kernels that a check never plays); best effort."""
    try:
        mark = _warm_mark(cache_dir, package)
        mark.parent.mkdir(parents=True, exist_ok=True)
        mark.touch()
    except OSError:
        pass


@dataclass(frozen=True)
class CacheFolder:
    """One salted kernel cache folder."""

    path: Path
    size: int
    """Bytes of every file in it."""
    modified: float
    """The newest modification time of the folder or anything in it (seconds since the epoch)."""
    current: bool
    """Whether this pnpkit's kernels are cached there."""


def _scan(folder: Path) -> tuple[int, float]:
    size, newest = 0, folder.stat().st_mtime
    for root, dirs, files in os.walk(folder):
        for name in (*dirs, *files):
            try:
                st = os.stat(os.path.join(root, name))
            except OSError:  # removed meanwhile
                continue
            newest = max(newest, st.st_mtime)
            size += st.st_size if name in files else 0
    return size, newest


def cache_folders(current: Path | None = None) -> list[CacheFolder]:
    """Every salted cache folder of pnpkit, newest first."""
    base = cache_base()
    if not base.is_dir():
        return []
    out = []
    for p in base.iterdir():
        if p.is_dir() and _SALT.fullmatch(p.name):
            size, modified = _scan(p)
            out.append(CacheFolder(p, size, modified, current is not None and p == current))
    return sorted(out, key=lambda f: (-f.modified, f.path.name))


def prune(current: Path, keep: int = KEEP_CACHES, *, now: float | None = None) -> list[Path]:
    """Remove the salted folders beyond the newest `keep` (counting `current`, which is never removed), except
    those written to in the last KEEP_RECENT_SECONDS. Returns what was removed."""
    now = time.time() if now is None else now
    others = [f for f in cache_folders(current) if f.path != current]
    removed = []
    for f in others[max(0, keep - 1) :]:
        if now - f.modified < KEEP_RECENT_SECONDS:
            continue
        shutil.rmtree(f.path, ignore_errors=True)
        removed.append(f.path)
    return removed


def clear(current: Path | None = None) -> list[CacheFolder]:
    """Remove every salted folder (the next run compiles again); returns what was removed."""
    gone = cache_folders(current)
    for f in gone:
        shutil.rmtree(f.path, ignore_errors=True)
    (cache_base() / _TIMES).unlink(missing_ok=True)
    return gone


def last_compile_seconds(game: str) -> float | None:
    """How long this game's kernels took to compile the last time on this machine, if known."""
    try:
        value = json.loads((cache_base() / _TIMES).read_text(encoding="utf-8")).get(game)
    except (OSError, ValueError, AttributeError):
        return None
    return float(value) if isinstance(value, (int, float)) and value > 0 else None


def record_compile_seconds(game: str, seconds: float) -> None:
    """Remember how long a game's kernels took to compile (a hint for the next first run; best effort)."""
    path = cache_base() / _TIMES
    try:
        times = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        if not isinstance(times, dict):
            times = {}
        times[game] = round(seconds, 1)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        tmp.write_text(json.dumps(times, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except (OSError, ValueError):
        pass
