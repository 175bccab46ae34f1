"""The options the commands share, defined once as `Annotated` aliases, and the callbacks that check an option
as it is parsed: a bad one is a usage error (exit 2) naming the option, the value given and what is allowed.
The closed sets and caps come from `generator.spec.choices`, shared with the spec models. A kit argument is
resolved (`kit_paths`) and the command's options gathered into a `Run` (`run_of`) in one place."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from generator.cli.base import fail
from generator.cli.output import clean, clip_number, duration
from generator.spec.choices import MAX_GAMES, MAX_SEED, Duplex, Paper, PrintMode

if TYPE_CHECKING:
    from generator.pipeline.load import Run

#: Core-seconds per 1,000 games per setting of the slowest shipped game's default check (Raindrops full games,
#: docs/benchmarks.md); the estimate a refused --games prints is an upper bound.
CORE_SECONDS_PER_1000_GAMES = 45.0
SERVE_MAX_CHECK_GAMES = 100_000
"""Most games per setting the preview's 'run check' button may start with (a click, not a night's run)."""
DPI_RANGE = (72, 1200)
"""`export --dpi`: pixels per inch of card images."""
QUALITY_RANGE = (1, 100)
"""`export --quality`: JPEG quality."""


def bad(message: str) -> typer.BadParameter:
    """A usage error on the option being parsed: click names the option, prints usage and exits 2."""
    return typer.BadParameter(clean(message))


def at_least(low: int, high: int | None = None) -> Callable[[int | None], int | None]:
    """An option callback: a whole number in low..high (no upper bound when high is None)."""

    def check(value: int | None) -> int | None:
        if value is not None and (value < low or (high is not None and value > high)):
            expected = f"a number >= {low}" if high is None else f"a number in {low}..{high}"
            raise bad(f"expected {expected}; got {clip_number(value)}")
        return value

    return check


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def check_seed(value: int | None) -> int | None:
    """--seed: 0..MAX_SEED, the rule of kit.seed."""
    if value is not None and not 0 <= value <= MAX_SEED:
        raise bad(
            f"expected a whole number in 0..2**63-1 (the same rule as kit.seed); got {clip_number(value)}"
        )
    return value


def check_games(value: int | None) -> int | None:
    """check --games: 1..MAX_GAMES; a refused large count says how long it would have taken."""
    at_least(1)(value)
    if value is not None and value > MAX_GAMES:
        n = cores()
        est = min(value, 10**30) / 1000 * CORE_SECONDS_PER_1000_GAMES / max(n, 1)
        raise bad(
            f"at most {MAX_GAMES:,} games per setting; got {clip_number(value)} "
            f"(estimated time: up to {duration(est)} per setting on {n} core{'s' if n != 1 else ''})"
        )
    return value


def _workers(value: int | None) -> int | None:
    """--workers: at least 1; more than the cores this process may use is capped, with a warning."""
    at_least(1)(value)
    n = cores()
    if value is not None and value > n:
        sys.stderr.write(
            f"warning: --workers {clip_number(value)} is more than the {'core' if n == 1 else f'{n} cores'} "
            f"available; using {n}\n"
        )
        return n
    return value


def _dask(value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise bad("expected 'local' or a scheduler address such as tcp://host:8786; got ''")
    return "local" if value is not None and value.lower() == "local" else value


def pod_size(value: str | None) -> str | None:
    """export --size: a print-on-demand size (the export room's table, read only when the option is given)."""
    if value is not None:
        from generator.exportplan.plan import POD_SIZES

        if value.lower() not in POD_SIZES:
            raise bad(f"expected one of {', '.join(POD_SIZES)}; got {value!r}")
        return value.lower()
    return value


def image_format(value: str) -> str:
    """export --format: an image format the TTS export writes."""
    from generator.export import FORMATS

    chosen = {"jpg": "jpeg"}.get(value.lower(), value.lower())  # the file suffix people know it by
    if chosen not in FORMATS:
        raise bad(f"expected one of {', '.join(FORMATS)} (or jpg); got {value!r}")
    return chosen


def langs(value: str | None) -> list[str] | None:
    """--lang: a comma-separated list of language tags (which of them a kit ships is checked against its
    kit.languages when it is loaded: `Kit.chosen_languages`)."""
    if not value:
        return None
    out = [v.strip() for v in value.split(",") if v.strip()]
    from generator.spec.kit import LANGUAGE_TAG, language_tag

    out = [language_tag(v) for v in out]
    wrong = [v for v in out if not LANGUAGE_TAG.fullmatch(v)]
    if wrong:
        raise typer.BadParameter(
            clean(
                f"expected a comma-separated list of languages such as en,de,pt_BR; got {', '.join(wrong)}"
            ),
            param_hint="'--lang'",
        )
    return out


KIT_HELP = (
    "kit folders, or ids of shipped kits (pnpkit list); a folder of that name here wins "
    "(default: every shipped kit)"
)
"""The help of every KIT... argument."""

Kits = Annotated[list[Path] | None, typer.Argument(metavar="KIT", help=KIT_HELP)]
Lang = Annotated[
    str | None, typer.Option("--lang", help="comma-separated languages (default: all the kit ships)")
]
PaperOption = Annotated[
    Paper | None,
    typer.Option("--paper", case_sensitive=False, help="paper size (default: the kit's print.paper)"),
]
Out = Annotated[Path, typer.Option("--out", help="output folder")]
Seed = Annotated[
    int | None,
    typer.Option(
        "--seed",
        callback=check_seed,
        help="seed for everything random, 0..2**63-1 (default: the kit's kit.seed)",
    ),
]
RunSeed = Annotated[
    int | None,
    typer.Option("--seed", callback=check_seed, help="run seed, 0..2**63-1 (default: the kit's kit.seed)"),
]
Workers = Annotated[
    int | None,
    typer.Option("--workers", callback=_workers, help="worker processes (default: all cores)"),
]
BuildWorkers = Annotated[
    int | None,
    typer.Option(
        "--workers",
        callback=_workers,
        help="processes composing and drawing kit folders side by side (default: all cores; 1 = none)",
    ),
]
Dask = Annotated[
    str | None,
    typer.Option(
        "--dask", callback=_dask, help="'local' for a LocalCluster or tcp://host:port of a scheduler"
    ),
]
Mode = Annotated[
    PrintMode | None,
    typer.Option(
        "--mode",
        case_sensitive=False,
        help="home (N-up sheets) or shop (one card per page with bleed and TrimBox); overrides print.mode",
    ),
]
DuplexOption = Annotated[
    Duplex | None,
    typer.Option(
        "--duplex",
        case_sensitive=False,
        help="how the sheet is flipped for the backs; overrides print.duplex",
    ),
]


def kit_path(path: Path) -> Path:
    """A kit as the user typed it: a folder that exists is taken as given (a local folder wins over an id);
    otherwise a shipped kit's id (`pnpkit list`) names its folder, from any working folder, installed or
    not."""
    if path.exists():
        return path
    from generator.errors import did_you_mean
    from generator.resources import shipped_kit, shipped_kits

    found = shipped_kit(str(path))
    if found is not None:
        return found
    shipped = [p.name for p in shipped_kits()]
    fail(
        f"{path}: no such kit folder, nor a shipped kit id{did_you_mean(str(path), shipped)} "
        f"(shipped: {', '.join(shipped) or 'none'})"
    )


def kit_paths(kits: list[Path] | None) -> list[Path]:
    """The kits of a KIT... argument: each resolved by `kit_path`; none given: every shipped kit."""
    from generator.pipeline import shipped_kits

    if kits:
        return [kit_path(k) for k in kits]
    found = shipped_kits()
    if not found:
        fail("no kits found in layouts/")
    return found


def run_of(
    kits: list[Path] | None,
    *,
    lang: str | None = None,
    print_overrides: Mapping[str, Any] | None = None,
    **options: Any,
) -> Run:
    """A command's run: its kit arguments resolved, --lang split, the print overrides given (not None)."""
    from generator.pipeline import Run

    given = {k: v for k, v in (print_overrides or {}).items() if v is not None}
    return Run.of(kit_paths(kits), langs=langs(lang), print_overrides=given, **options)
