"""`python -m generator.engine.compile_part MODULE:FUNCTION`: run one registered compile part of a game's
kernels (`kernel.compile_part`) in a process of its own, so that numba compiles it into its disk cache while
the process that started this one compiles another part (`kernel.compile_parts`)."""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    """Run the part named by the one argument; 2 (and a line on stderr) when it names no registered part."""
    from generator.process import collect_seldom

    collect_seldom()  # numba's compile makes objects by the hundred thousand
    from generator.engine.kernel import run_part

    if len(argv) != 1 or ":" not in argv[0]:
        sys.stderr.write("usage: python -m generator.engine.compile_part MODULE:FUNCTION\n")
        return 2
    try:
        run_part(argv[0])
    except (ImportError, ValueError) as exc:
        sys.stderr.write(f"{exc}\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
