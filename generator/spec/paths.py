"""Files of a kit are read only from inside its folder: every path is resolved once (symlinks followed) and
refused when it leaves the folder, loops, or is not a plain file. Nothing outside the kit is ever opened, so no
message can quote it."""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path

from generator.errors import Problem, SpecError


def resolve_dir(path: Path, display: str) -> Path:
    """The kit folder itself, resolved (it may be reached through a symlink: the user named it)."""
    try:
        return path.resolve(strict=True)
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
        return None
    except (RuntimeError, OSError) as e:
        raise SpecError([Problem(display, None, "", f"cannot open {what} ({_why(e)})")]) from None
    if real != root and root not in real.parents:
        raise SpecError([Problem(display, None, "", f"{what} resolves outside the kit folder (symlink?); "
                                                    "kits may only read files inside their own folder")])
    try:
        mode = os.stat(real).st_mode
    except OSError as e:
        raise SpecError([Problem(display, None, "", f"cannot open {what} ({_why(e)})")]) from None
    if not stat.S_ISREG(mode):
        raise SpecError([Problem(display, None, "", f"{what} is not a regular file")])
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
    return data


def relative_path_problem(shown: str, expected: str) -> str | None:
    """Why a path written in kit.yaml is refused before it is opened (absolute, `..`, blank, too long), or None.
    `expected` says what the key wants, for the message."""
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
