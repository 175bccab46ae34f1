"""Output staging: every file is written into a staging folder inside OUT and whole kit/language folders are
swapped into place at the end with signals held, all or nothing (used by build and export)."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from generator.errors import RenderError

if TYPE_CHECKING:
    from generator.pipeline.compose import Planned


STAGE_PREFIX = ".pnpkit-stage-"


def check_out(out: Path) -> None:
    """Refuse an output folder that is a file, lies below a file, or cannot be written (before any work)."""
    if os.path.lexists(out) and not out.is_dir():
        raise RenderError(f"--out {out}: this is a file (or a broken link), not a folder")
    anchor = out
    while not os.path.lexists(anchor) and anchor != anchor.parent:
        anchor = anchor.parent
    if not anchor.is_dir():
        raise RenderError(f"--out {out}: {anchor} is a file, so no folder can be made below it")
    if not os.access(anchor, os.W_OK | os.X_OK):
        raise RenderError(f"--out {out}: {anchor} is not writable")


def check_targets(planned: Sequence[Planned], out: Path) -> list[Path]:
    """The kit/language folders the build replaces; refuses anything in the way before a byte is written."""
    folders = sorted({p.path.parent for p in planned})
    for folder in folders:
        rel = folder.relative_to(out)
        for i in range(1, len(rel.parts) + 1):
            step = out.joinpath(*rel.parts[:i])
            if os.path.lexists(step) and not step.is_dir():
                raise RenderError(
                    f"{step}: a file is in the way of the output folder {folder}; nothing was written"
                )
    for p in planned:
        for final in (p.path, p.path.with_suffix(".png")):
            if os.path.lexists(final) and not final.is_file():
                raise RenderError(
                    f"{final}: a folder (or other non-file) is in the way of an output file; "
                    "nothing was written"
                )
    return folders


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT/SIGTERM while output folders are swapped (or rolled back): the swap is never cut half-way;
    a signal that arrives meanwhile is delivered right after. The hold is a recording Python handler, not a
    thread signal mask: the kernel may hand a process signal to any thread (rich's refresh thread, a thread
    pool's), but Python runs every handler in the main thread, so the hold works however many threads run."""
    if threading.current_thread() is not threading.main_thread():  # handlers can only be set there
        yield
        return
    pending: list[int] = []

    def hold(signum: int, frame: object) -> None:
        pending.append(signum)

    held = (signal.SIGINT, signal.SIGTERM)
    before = {s: signal.signal(s, hold) for s in held}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, signal.SIG_DFL if handler is None else handler)  # None: set outside Python
        if pending:
            signal.raise_signal(
                pending[0]
            )  # to the handler that was in place: KeyboardInterrupt, Terminated, ...


def _swap(folders: Sequence[Path], out: Path, new_root: Path, old_root: Path) -> None:
    """Rename every staged kit/language folder into place, keeping the old ones in the stage; on any failure
    every folder already swapped is put back, so OUT holds all new folders or all old ones."""
    done: list[tuple[Path, bool, list[Path]]] = []
    try:
        for folder in folders:
            rel = folder.relative_to(out)
            made = [
                d
                for d in reversed(folder.parents)
                if d != out and out in d.parents and not os.path.lexists(d)
            ]
            backed = os.path.lexists(folder)
            if backed:
                (old_root / rel).parent.mkdir(parents=True, exist_ok=True)
                os.rename(folder, old_root / rel)
            try:
                folder.parent.mkdir(parents=True, exist_ok=True)
                os.rename(new_root / rel, folder)
            except OSError:
                if backed:
                    os.rename(old_root / rel, folder)
                raise
            done.append((folder, backed, made))
    except OSError as e:
        for folder, backed, made in reversed(done):
            rel = folder.relative_to(out)
            os.rename(folder, new_root / rel)
            if backed:
                os.rename(old_root / rel, folder)
            for d in reversed(made):
                try:
                    d.rmdir()
                except OSError:
                    pass
        raise RenderError(
            f"{out}: cannot move the new files into place ({e.strerror or e}); "
            "every folder was put back as it was"
        ) from e


def _remove_stale_stages(out: Path) -> None:
    """Staging folders left by a killed build (its process is gone) are removed."""
    for stage in out.glob(f"{STAGE_PREFIX}*"):
        pid = stage.name[len(STAGE_PREFIX) :].split("-")[0]
        if pid.isdigit() and int(pid) != os.getpid():
            try:
                os.kill(int(pid), 0)
                continue  # still running (another build)
            except ProcessLookupError:
                pass
            except OSError:
                continue
            shutil.rmtree(stage, ignore_errors=True)


@contextmanager
def staged_folders(out: Path, folders: Sequence[Path], *, keep_existing: bool = True) -> Iterator[Path]:
    """All-or-nothing output of whole folders below `out`: yields a staging root (inside
    `OUT/.pnpkit-stage-<pid>-*`, same filesystem) that mirrors `out`; write each folder's new content below
    it. With `keep_existing`, files already in a folder are hard-linked in first (other papers' files
    survive); without, a folder is replaced whole. When the block ends normally the staged folders are swapped
    in with signals held (rolled back if a rename fails); on any error or interrupt OUT is untouched. The
    stage is always removed. Used by build, incremental build and export."""
    stage: Path | None = None
    try:
        try:
            out.mkdir(parents=True, exist_ok=True)
            _remove_stale_stages(out)
            # made and named with signals held, inside the try that removes it: a Ctrl-C that lands right
            # after the folder exists is delivered once `stage` is set, so the finally below still removes it
            with signals_deferred():
                stage = Path(tempfile.mkdtemp(prefix=f"{STAGE_PREFIX}{os.getpid()}-", dir=out))
        except OSError as e:
            raise RenderError(f"--out {out}: cannot create the output folder ({e.strerror or e})") from None
        new_root, old_root = stage / "new", stage / "old"
        for folder in folders:
            rel = folder.relative_to(out)
            if keep_existing and folder.is_dir():
                shutil.copytree(folder, new_root / rel, symlinks=True, copy_function=_link_or_copy)
            else:
                (new_root / rel).mkdir(parents=True, exist_ok=True)
        yield new_root
        with signals_deferred():
            _swap(folders, out, new_root, old_root)
    except OSError as e:
        raise RenderError(
            f"{out}: cannot write the output ({e.strerror or e}); nothing was changed"
        ) from None
    finally:
        if stage is not None:
            with signals_deferred():
                shutil.rmtree(stage, ignore_errors=True)


__all__ = ["STAGE_PREFIX", "check_out", "check_targets", "signals_deferred", "staged_folders"]
