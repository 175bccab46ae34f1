"""Files of a kit are read only from inside its folder: every path is resolved once (symlinks followed) and
refused when it leaves the folder, loops, or is not a plain file. Nothing outside the kit is ever opened, so
no message can quote it."""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from generator.errors import Problem, SpecError

Read = tuple[str, str, str]
"""What one look through the door was: (kind, path, detail) -- `dir` (a kit folder named by the user),
`resolve` (a path inside a kit folder), `read` (a resolved file's bytes, up to a cap) or `list` (a folder's
names)."""

_reads: dict[Read, str | None] | None = None
_reads_lock = threading.Lock()


@contextmanager
def recording_reads() -> Iterator[dict[Read, str | None]]:
    """Record every look through this door while the block runs: each (kind, path, detail) with what it saw (a
    resolved path, None for a missing file, a content digest, a folder's names). The build keys itself on
    exactly these (`replay_reads`), so files a kit does not use are never opened to key it."""
    global _reads
    with _reads_lock:
        outer, _reads = _reads, {}
        seen = _reads
    try:
        yield seen
    finally:
        with _reads_lock:
            if outer is not None:  # a recording around this one sees every look too (a build around a kit's)
                outer.update(seen)
            _reads = outer
    for marker in [look for look in seen if look[0] == "resolved"]:
        del seen[marker]


def recorded_now() -> dict[Read, str | None]:
    """A copy of what the recording in force has seen so far ({} when none is): a forked worker takes it
    before its job and hands back what its job added (`seen_since`)."""
    with _reads_lock:
        return dict(_reads) if _reads is not None else {}


def seen_since(before: dict[Read, str | None]) -> dict[Read, str | None]:
    """The looks the recording in force took since `before` (from `recorded_now`), markers included."""
    now = recorded_now()
    return {look: seen for look, seen in now.items() if look not in before or before[look] != seen}


def record_looks(looks: dict[Read, str | None]) -> None:
    """Add looks taken elsewhere (a forked worker's job, `seen_since`) to the recording in force, as if taken
    here: the build keys itself on every file its workers read too."""
    with _reads_lock:
        if _reads is not None:
            _reads.update(looks)


def _note(kind: str, path: str, detail: str, seen: str | None) -> None:
    with _reads_lock:
        if _reads is None:
            return
        if kind == "read" and ("resolved", path, "") not in _reads:
            return  # not a kit's file (pnpkit's own catalogs: part of the generator's key)
        if kind == "resolve" and seen is not None:
            _reads[("resolved", seen, "")] = None
        _reads[(kind, path, detail)] = seen


def replay_reads(reads: object, kits: Iterable[Path]) -> list[tuple[Read, str | None]] | None:
    """What the same looks see now, through the same door: every kit folder resolved again, every path
    resolved inside it (nothing outside a kit folder, no FIFO, device or socket is opened), every file re-read
    up to the same cap. `reads` is a record's list of [kind, path, detail, seen]; only the folders of `kits`
    (the paths the user named: a folder or its kit.yaml) are taken as kit folders, so an edited record cannot
    point the door elsewhere. None when it is malformed, or when a look is refused now (the build then loads
    as usual and reports it)."""
    if not isinstance(reads, list):
        return None
    named = {
        os.path.abspath(k.parent if (k.name == "kit.yaml" or k.is_file()) else k) for k in map(Path, kits)
    }
    roots: set[str] = set()
    resolved: set[str] = set()
    out: list[tuple[Read, str | None]] = []
    try:
        for entry in reads:
            if (
                not isinstance(entry, (list, tuple))
                or len(entry) != 4
                or not all(isinstance(x, str) for x in entry[:3])
            ):
                return None
            kind, path, detail = entry[0], entry[1], entry[2]
            seen: str | None
            if kind == "dir" and path in named:
                seen = str(resolve_dir(Path(path), path))
                roots.add(seen)
            elif kind == "resolve" and detail in roots:  # detail: the kit folder it is resolved in
                real = resolve_inside(Path(detail), Path(path), path, "a file")
                seen = None if real is None else str(real)
                if seen is not None:
                    resolved.add(seen)
            elif (
                kind == "read" and path in resolved and detail.isdigit()
            ):  # only a file resolved inside a kit
                seen = hashlib.sha256(read_bytes(Path(path), path, int(detail), "a file")).hexdigest()
            elif kind == "list" and detail in roots:
                seen = "/".join(list_names(Path(detail), Path(path)))
            else:
                return None
            out.append(((kind, path, detail), seen))
    except (SpecError, OSError, ValueError):
        return None
    return out


def list_names(root: Path, folder: Path) -> list[str]:
    """The sorted names in `folder`, which must resolve inside `root` (the resolved kit folder): a listing
    opens the folder, none of its entries. Raises ValueError naming why not."""
    try:
        base = folder.resolve(strict=True)
    except (OSError, RuntimeError):
        raise ValueError("no such folder") from None
    if base != root and root not in base.parents:
        raise ValueError("resolves outside the kit folder (symlink?)")
    names = sorted(p.name for p in base.iterdir())
    _note("list", str(folder), str(root), "/".join(names))
    return names


def resolve_dir(path: Path, display: str) -> Path:
    """The kit folder itself, resolved (it may be reached through a symlink: the user named it)."""
    try:
        real = path.resolve(strict=True)
        _note("dir", os.path.abspath(path), "", str(real))
        return real
    except FileNotFoundError:
        raise SpecError([Problem(display, None, "", "no such kit folder")]) from None
    except (RuntimeError, OSError) as e:
        raise SpecError([Problem(display, None, "", f"cannot open the kit folder ({_why(e)})")]) from None


def resolve_inside(root: Path, path: Path, display: str, what: str) -> Path | None:
    """`path` (inside `root`, already resolved) with symlinks resolved, or None when it does not exist.

    Raises a located SpecError when it resolves outside `root`, loops, or is not a regular file.
    """
    try:
        real = path.resolve(strict=True)
    except FileNotFoundError:
        if os.path.islink(path):
            raise SpecError([Problem(display, None, "", f"{what} is a symlink to a missing file")]) from None
        _note("resolve", str(path), str(root), None)
        return None
    except (RuntimeError, OSError) as e:
        raise SpecError([Problem(display, None, "", f"cannot open {what} ({_why(e)})")]) from None
    if real != root and root not in real.parents:
        raise SpecError(
            [
                Problem(
                    display,
                    None,
                    "",
                    f"{what} resolves outside the kit folder (symlink?); "
                    "kits may only read files inside their own folder",
                )
            ]
        )
    try:
        mode = os.stat(real).st_mode
    except OSError as e:
        raise SpecError([Problem(display, None, "", f"cannot open {what} ({_why(e)})")]) from None
    if not stat.S_ISREG(mode):
        raise SpecError([Problem(display, None, "", f"{what} is not a regular file")])
    _note("resolve", str(path), str(root), str(real))
    return real


def read_bytes(real: Path, display: str, limit: int, what: str) -> bytes:
    """The bytes of a resolved file, refusing files over `limit` bytes (read at most limit + 1)."""
    try:
        with open(real, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as e:
        raise SpecError([Problem(display, None, "", f"cannot read {what} ({_why(e)})")]) from None
    if len(data) > limit:
        raise SpecError([Problem(display, None, "", f"{what} is over {limit} bytes; the limit is {limit}")])
    _note("read", str(real), str(limit), hashlib.sha256(data).hexdigest())
    return data


def read_kit_file(path: Path, display: str, limit: int, what: str) -> bytes:
    """The bytes of `path`, a file directly in a kit folder (kit.yaml), through the door: resolved inside its
    folder, a regular file, read up to `limit` bytes. Every problem a located SpecError."""
    root = resolve_dir(path.parent, display)
    real = resolve_inside(root, root / path.name, display, what)
    if real is None:
        raise SpecError([Problem(display, None, "", f"no such file: {what}")])
    return read_bytes(real, display, limit, what)


def relative_path_problem(shown: str, expected: str) -> str | None:
    """Why a path written in kit.yaml is refused before it is opened (absolute, `..`, blank, too long), or
    None. `expected` says what the key wants, for the message."""
    if not shown or shown.strip() != shown:
        return f"expected {expected}; got {shown!r}"
    if shown.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", shown):
        return f"expected a path relative to the kit folder, not an absolute one; got {shown!r}"
    parts = re.split(r"[/\\]", shown)
    if ".." in parts:
        return f"expected a path inside the kit folder (no '..'); got {shown!r}"
    if "\0" in shown or len(shown) > 200:
        return f"expected a short file path; got {shown[:60]!r}"
    return None


def _why(e: BaseException) -> str:
    if isinstance(e, RuntimeError) or (isinstance(e, OSError) and e.errno == errno.ELOOP):
        return "symlink loop"
    if isinstance(e, OSError):
        return e.strerror or type(e).__name__
    return type(e).__name__
