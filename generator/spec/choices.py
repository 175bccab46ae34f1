"""The closed sets and caps that the spec models and the command line share, defined once here (plain Python:
the CLI reads them to declare its options without importing pydantic)."""

from __future__ import annotations

from typing import Final, Literal, get_args

Paper = Literal["a4", "letter", "a3"]
"""A paper size name (the sizes in points are `generator.units.PAPER`)."""
PAPERS: Final[tuple[str, ...]] = get_args(Paper)
PrintMode = Literal["home", "shop"]
"""home = N-up sheets; shop = one card per page with TrimBox/BleedBox."""
PRINT_MODES: Final[tuple[str, ...]] = get_args(PrintMode)
Duplex = Literal["long", "short", "none"]
"""How the sheet is flipped for the backs: long or short edge, or no backs."""
DUPLEXES: Final[tuple[str, ...]] = get_args(Duplex)

# Caps on the integers of a spec, checked at validation (issue 12). Each is far above what any shipped kit or
# the seeds use, and small enough that a spec that validates also builds (in seconds to minutes, never by
# exhausting memory or overflowing a 64-bit counter). A game field states which cap it uses.
MAX_SEED: Final = 2**63 - 1
"""Seeds (kit.seed, a game's own seed, --seed): a non-negative 64-bit integer, as numpy's SeedSequence takes
it."""
MAX_GAMES: Final = 1_000_000
"""Self-play games per setting in `pnpkit check` (a spec default or --games; about 45 core-seconds per 1,000
games for the slowest shipped game)."""
