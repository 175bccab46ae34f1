"""numba's cache locator for pnpkit's own kernels (numba imports this module by name, through
NUMBA_CACHE_LOCATOR_CLASSES, which `kernelcache.salted_cache_dir` sets beside NUMBA_CACHE_DIR).

numba's own locator files a module's compiled functions under a digest of the source folder's absolute path,
so a second checkout, a new virtual environment or a reinstall of the very same pnpkit compiled every kernel
again (about 100 CPU-s for the shipped games). Inside pnpkit's salted cache folder the path adds nothing: the
folder's name is already a digest of every module compiled code can depend on (`kernelcache.source_salt`), so
this locator files each module by its path inside the package (`generator/games/<game>/`) and stamps it
with its bytes' digest, not its modification time. Functions outside the package (a third-party game), or a
cache folder the user chose, are left to numba's own locators."""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path
from typing import Any

from numba.core import config
from numba.core.caching import UserProvidedCacheLocator

from generator.engine import kernelcache

_PACKAGE = Path(__file__).resolve().parents[1]


def _cache_dir() -> str:
    """numba's cache folder (its configuration, read from NUMBA_CACHE_DIR when numba was imported)."""
    return str(getattr(config, "CACHE_DIR", "") or "")


@cache
def _digest(path: str, mtime_ns: int, size: int) -> str:
    """The sha256 of a source file's bytes (memoised per modification time and size, as numba does)."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


@cache
def _module_folder(cache_dir: str, py_file: str) -> str | None:
    """The folder in the salted folder `cache_dir` the compiled functions of the pnpkit module `py_file` are
    filed in (`kernelcache.module_cache_dir`); None for a module outside the package. Once per module in a
    process, not once per function (its paths are resolved on disk: 1 ms a function)."""
    if kernelcache.package_part(Path(py_file)) is None:
        return None
    return str(kernelcache.module_cache_dir(Path(cache_dir), Path(py_file)))


_WRITABLE: set[str] = set()
"""The cache folders this process found writable (`PackageLocator.ensure_cache_path`)."""


class PackageLocator(UserProvidedCacheLocator):
    """Files the compiled functions of a pnpkit module in the salted cache folder by the module's path inside
    the package (`kernelcache.module_cache_dir`)."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        super().__init__(py_func, py_file)  # type: ignore[no-untyped-call]
        self._cache_path = _module_folder(_cache_dir(), py_file) or ""

    def ensure_cache_path(self) -> None:
        """numba's check that the folder can be written (it makes the folder, then a temporary file there),
        once per folder in a process while the folder is there: numba asks it for every cached function, and
        the kernels of one module share a folder (72 asks in a Raindrops check). A folder removed since
        (`pnpkit cache --clear`, another pnpkit pruning) is made again before numba saves into it. An OSError
        means not writable, as in numba."""
        path = self._cache_path
        if path not in _WRITABLE or not os.path.isdir(path):
            super().ensure_cache_path()  # type: ignore[no-untyped-call]
            _WRITABLE.add(path)

    def get_source_stamp(self) -> str:
        """The digest of the module's bytes: the same in every checkout of the same sources."""
        st = os.stat(self._py_file)
        return _digest(self._py_file, st.st_mtime_ns, st.st_size)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> PackageLocator | None:
        """This locator for a function of a pnpkit module while numba caches in pnpkit's salted folder; None
        otherwise (numba's next locator decides)."""
        if not _cache_dir() or not kernelcache.salted(Path(_cache_dir())):
            return None
        if _module_folder(_cache_dir(), py_file) is None:
            return None
        return super().from_function(py_func, py_file)  # type: ignore[no-untyped-call,no-any-return]


def register() -> None:
    """Put `PackageLocator` before numba's own locators (every cached function asks them in order). numba
    keeps that list on its cache implementation; a numba that no longer does is left as it is (its own locator
    then files the kernels, and pnpkit's cache checks see them as not compiled: a notice, never a wrong
    kernel). A locator list the user chose (NUMBA_CACHE_LOCATOR_CLASSES) wins over this one in numba."""
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)  # 0.68 / older names
    locators = getattr(impl, "_locator_classes", None)
    if isinstance(locators, list) and PackageLocator not in locators:
        locators.insert(0, PackageLocator)
