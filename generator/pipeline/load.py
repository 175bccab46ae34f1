"""The load phase: a command's options and kit folders resolved once into a `Run` (validated kits, every
problem of every kit reported together, the CLI's print overrides applied), the shipped kits and pnpkit's own
catalogs merged into a kit's. Every command (build, validate, export, serve, check, tune) starts from a
`Run`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.errors import Problem, SpecError
from generator.resources import shipped_kits

if TYPE_CHECKING:  # imported where used: a rebuild whose inputs did not change loads none of them
    from generator.buildkeys import Memo
    from generator.spec.catalogs import Catalog
    from generator.spec.kit import Kit, ParseYaml
    from generator.spec.yamlio import Loc

TOOL_CATALOGS = Path(__file__).resolve().parents[1] / "i18n" / "locales"


def kit_seed(kit: Kit, seed: int | None) -> int:
    """The seed a run plays and draws `kit` with: the one given (--seed), else the kit's own kit.seed."""
    return kit.meta.seed if seed is None else seed


@dataclass(frozen=True)
class Run:
    """One command's run, resolved once: the kits (loaded, checked by the command, print overrides applied)
    and every option the phases read. The CLI checks the options as it parses them; the phases trust them."""

    paths: tuple[Path, ...]
    """The kit folders as given (a build keys its record on them)."""
    out: Path = Path("output")
    """The output folder: OUT/<kit>/<lang>/..."""
    langs: tuple[str, ...] | None = None
    """The languages asked for (--lang); None: every language each kit ships."""
    paper: str | None = None
    """The paper size (--paper); None: each kit's print.paper."""
    seed: int | None = None
    """The run seed (--seed); None: each kit's kit.seed (see `seed_for`)."""
    print_overrides: tuple[tuple[str, Any], ...] = ()
    """print settings replaced in every kit (--mode, --duplex, --greyscale), sorted by name."""
    png: bool = False
    """Also a PNG preview of each component's first page."""
    pdfa: bool = False
    """Write PDF/A-2b."""
    force: bool = False
    """Compose and draw every part again, whatever the last build kept."""
    workers: int | None = None
    """Worker processes (check, tune, export; build and validate for their folders); None: the command's
    default (one process for a build or validate through the Python API)."""
    kits: tuple[Kit, ...] = ()
    """The loaded kits, print overrides applied (`load_run`); () before the load phase."""

    @classmethod
    def of(
        cls,
        paths: Sequence[Path],
        *,
        langs: Sequence[str] | None = None,
        print_overrides: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> Run:
        """A run from a command's options as the CLI and the Python API hand them over (lists, a mapping)."""
        overrides = tuple(sorted((print_overrides or {}).items()))
        return cls(tuple(paths), langs=tuple(langs) if langs else None, print_overrides=overrides, **options)

    def seed_for(self, kit: Kit) -> int:
        """The seed this run plays and draws `kit` with."""
        return kit_seed(kit, self.seed)

    def paper_for(self, kit: Kit) -> str:
        """The paper this run prints `kit` on."""
        return self.paper or kit.print.paper

    def langs_for(self, kit: Kit) -> list[str]:
        """The languages of `kit` this run makes (a language it does not ship is an OptionError)."""
        return kit.chosen_languages(self.langs)

    def with_kits(self, kits: Sequence[Kit]) -> Run:
        """This run with its kits loaded: `kits` with the run's print overrides applied."""
        overrides = dict(self.print_overrides)
        return replace(self, kits=tuple(with_print(k, overrides) for k in kits))

    def options(self) -> dict[str, Any]:
        """The options that make a build's output (its record is keyed on them), as JSON data."""
        return {
            "langs": list(self.langs) if self.langs else None,
            "paper": self.paper,
            "seed": self.seed,
            "png": self.png,
            "pdfa": self.pdfa,
            "print": dict(self.print_overrides),
        }


def load_run(run: Run, *, memo: Memo | None = None) -> Run:
    """The load phase of every command: `run` with its kits loaded (every problem of every kit reported
    together) and its print overrides applied."""
    return run.with_kits(load_kits(run.paths, memo=memo))


def load_kits(paths: Sequence[Path], *, memo: Memo | None = None) -> list[Kit]:
    """Load every kit; problems of all kits are reported together. With a build's `memo`, a kit.yaml whose
    bytes the last build parsed is not parsed again; without, one parsed by an earlier command on this machine
    is read from the user's cache (`parsecache`)."""
    from generator.contract.load import load_kit
    from generator.pipeline.parsecache import cached_parse

    parse = cached_parse if memo is None else memo_parse(memo)
    kits: list[Kit] = []
    problems: list[Problem] = []
    for p in paths:
        try:
            kits.append(load_kit(p, parse=parse))
        except SpecError as e:
            problems.extend(e.problems)
    if problems:
        raise SpecError(problems)
    return kits


def memo_parse(memo: Memo) -> ParseYaml:
    """`parse_yaml` through the build's memo: the data and line map of bytes parsed by the last build (a YAML
    file is a pure function of its bytes), else parsed and filed for the next build. Only a parse that
    succeeded is filed (a failing one raises first)."""
    import hashlib

    from generator.spec.yamlio import parse_yaml

    def parse(data: bytes, display: str) -> tuple[Any, dict[Loc, int]]:
        key = memo.key("yaml", hashlib.sha256(data).hexdigest())
        hit = memo.recall_json(key)  # mappings in their order: it orders components and pages
        if isinstance(hit, list) and len(hit) == 2 and isinstance(hit[1], list):
            try:
                return hit[0], {tuple(loc): int(line) for loc, line in hit[1]}
            except (ValueError, TypeError):
                pass  # not a memo this code wrote: parse
        value, lines = parse_yaml(data, display)
        memo.remember_json(key, [value, [[list(loc), line] for loc, line in lines.items()]])
        return value, lines

    return parse


@lru_cache(maxsize=16)
def _tool_catalog(lang: str, stamp: tuple[int, int]) -> Catalog:
    """pnpkit's own catalog of a language, read once per version of the file (`stamp`: size, mtime)."""
    from generator.spec.catalogs import read_catalog

    return read_catalog(TOOL_CATALOGS / f"{lang}.po", f"pnpkit:{lang}.po", lang)


def with_tool_catalogs(kit: Kit) -> dict[str, Catalog]:
    """The kit's catalogs with pnpkit's own strings (calibration page) added where the kit lacks them, and the
    pseudo-locale's made from the English one."""
    from generator.spec.catalogs import PSEUDO, Catalog

    out = {}
    for lang, cat in kit.catalogs.items():
        try:
            st = (TOOL_CATALOGS / f"{lang}.po").stat()
            stamp = (st.st_size, st.st_mtime_ns)
        except OSError:
            stamp = (-1, -1)  # read_catalog reports the missing file (en is required)
        # pnpkit ships its own strings in a few languages; in any other the kit's catalog may give them, else
        # they fall back to English as every other string does
        merged = dict(_tool_catalog(lang, stamp).messages) if stamp != (-1, -1) or lang == "en" else {}
        merged.update(cat.messages)
        lines = dict(cat.lines)
        out[lang] = Catalog(lang, cat.path, merged, lines, cat.header)
    if "en" in out and PSEUDO not in out:
        from generator.i18n.pseudo import pseudo_catalog

        out[PSEUDO] = pseudo_catalog(out["en"])  # any kit can be tried in the pseudo-locale (--lang qps)
    return out


def with_print(kit: Kit, overrides: Mapping[str, Any]) -> Kit:
    """The kit with some print settings replaced (CLI options such as --mode shop or --duplex short)."""
    if not overrides:
        return kit
    return replace(kit, print=kit.print.model_copy(update=dict(overrides)))


__all__ = [
    "TOOL_CATALOGS",
    "Run",
    "kit_seed",
    "load_kits",
    "load_run",
    "memo_parse",
    "shipped_kits",
    "with_print",
    "with_tool_catalogs",
]
