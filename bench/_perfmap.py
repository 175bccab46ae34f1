"""Names for the compiled kernels in `perf report`.

numba has no profiler, and to Linux `perf` its machine code is anonymous memory: samples there show as bare
addresses. perf names such code from /tmp/perf-<pid>.map ("start size name" per line). `install()` keeps a
copy of the object code of every kernel library numba loads from its cache; `write_map()`, once the kernels
have run, writes each function symbol of those objects at the address it was loaded at. Kernels compiled in
the profiled process itself are not named (run the script once before, so that they come from the cache), and
functions that numba inlined count as their caller. A few hot bare addresses that remain are most likely
numba's reference counting (NRT_incref / NRT_decref: a lock-prefixed add and return), compiled at start-up.

    perf record -F 5000 -o /tmp/perf.data python bench/bench_rummy_cards.py --perf-map 3000
    perf report -i /tmp/perf.data --no-children --sort sym

Needs binutils' objdump. install() must run before the first call of a kernel (numba loads cached machine
code on a kernel's first call, not at import).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from typing import Any

_OBJECTS: list[tuple[Any, bytes]] = []


def install() -> None:
    """Keep the object code of every kernel library numba loads from its cache from now on."""
    from numba.core import codegen

    original = codegen.CPUCodeLibrary._set_compiled_object

    def keep(self: Any, value: bytes) -> None:
        _OBJECTS.append((self, bytes(value)))
        original(self, value)

    codegen.CPUCodeLibrary._set_compiled_object = keep  # type: ignore[method-assign]


def _symbols(obj: bytes) -> list[tuple[str, int, int, str, bool]]:
    """(section, offset, size, name, global) of each function symbol of an ELF object (objdump -t)."""
    with tempfile.NamedTemporaryFile(suffix=".o") as fh:
        fh.write(obj)
        fh.flush()
        table = subprocess.run(["objdump", "-t", fh.name], capture_output=True, text=True, check=True).stdout
    out = []
    for line in table.splitlines():
        # "0000000000000000 g     F .ltext	00000000000033d2 name"
        head, _, rest = line.partition("\t")
        parts = head.split()
        if len(parts) < 3 or parts[-2] != "F" or not rest:
            continue
        size, _, name = rest.partition(" ")
        out.append((parts[-1], int(parts[0], 16), int(size, 16), name.strip(), parts[1] == "g"))
    return out


def _short(name: str) -> str:
    """A mangled kernel name as module.function (numba mangles as `_ZN` + length-prefixed parts + argument
    types, kilobytes of them); other names unchanged."""
    if not name.startswith(("_ZN", "_ZN7cpython")):
        return name
    rest, parts = name[3:], []
    while rest[:1].isdigit():
        digits = len(rest) - len(rest.lstrip("0123456789"))
        size = int(rest[:digits])
        parts.append(rest[digits : digits + size])
        rest = rest[digits + size :]
    twin = "[python wrapper] " if parts[:1] == ["cpython"] else ""
    return twin + ".".join(parts[-2:]) if parts else name[:100]


def write_map() -> str:
    """Write /tmp/perf-<pid>.map for the objects kept since install(); returns its path."""
    placed: dict[int, tuple[int, str]] = {}
    for library, obj in _OBJECTS:
        symbols = _symbols(obj)
        engine = library._codegen._engine
        base: dict[str, int] = {}  # where each section was loaded, from a global symbol in it
        for section, offset, _, name, is_global in symbols:
            if is_global and section not in base:
                address = engine.get_function_address(name)
                if address:
                    base[section] = address - offset
        for section, offset, size, name, _ in symbols:
            if section in base and size:
                placed[base[section] + offset] = (size, _short(name))
    path = f"/tmp/perf-{os.getpid()}.map"
    with open(path, "w") as fh:
        for address in sorted(placed):
            size, name = placed[address]
            fh.write(f"{address:x} {size:x} {name}\n")
    return path
