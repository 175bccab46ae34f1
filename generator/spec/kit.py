"""A kit folder -> one frozen, validated Kit: kit.yaml (meta, print, game, components) + locale catalogs."""

from __future__ import annotations

import collections.abc
import difflib
import os
import re
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    Field,
    ValidationError,
    WithJsonSchema,
    field_validator,
)

from generator.errors import OptionError, Problem, SpecError, did_you_mean
from generator.spec.assets import ArtSpec, Asset, KitArt, resolve_art, resolve_icons
from generator.spec.base import LENGTH_JSON, MAX_ANY_INT, MAX_SEED, SpecModel, bounded_length
from generator.spec.catalogs import PSEUDO, Catalog, read_catalog
from generator.spec.fonts import KitFonts, StyleSpec, resolve_fonts, svg_text_chain, svg_text_missing
from generator.spec.paths import Read, read_bytes, recording_reads, resolve_dir, resolve_inside
from generator.spec.print import PrintSpec
from generator.spec.tune import TuneSpec
from generator.spec.yamlio import MAX_SPEC_BYTES, Loc, clip, dotted, line_of, parse_dotted, parse_yaml
from generator.units import CARD_PRESETS

LANGUAGE_TAG = re.compile(r"[a-z]{2,3}(?:_[A-Z][a-z]{3})?(?:_(?:[A-Z]{2}|[0-9]{3}))?")
"""A language as Babel names it and as the catalog file is named: `de`, `pt_BR`, `zh_Hant_TW`."""


def language_tag(text: str) -> str:
    """A language as a user may type it (`EN`, `ja-JP`, `pt-br`, `zh-hant-tw`) written as Babel names it and
    as a catalog file is named (`en`, `ja_JP`, `pt_BR`, `zh_Hant_TW`); text that is no such tag comes back as
    it was given, for the caller to refuse."""
    parts = text.replace("-", "_").split("_")
    if not 1 <= len(parts) <= 3 or not all(p.isascii() and p.isalnum() for p in parts):
        return text
    head, *rest = parts
    return "_".join([head.lower(), *(p.title() if len(p) == 4 else p.upper() for p in rest)])


MAX_COPIES = 50
MAX_MESSAGE = 300
PieceLength = Annotated[float, BeforeValidator(bounded_length(5, 420)), WithJsonSchema(LENGTH_JSON)]
"""A printed piece's side: 5 mm (a small token) up to 420 mm (the long side of A3, the largest paper)."""


class SizeSpec(SpecModel):
    """An explicit piece size."""

    width: PieceLength = Field(description="trim width, e.g. '63.5mm' (5..420mm)")
    height: PieceLength = Field(description="trim height, e.g. '88.9mm' (5..420mm)")


class ComponentSpec(SpecModel):
    """One printed component of the kit; the game's composer knows how to draw it."""

    title: str = Field(description="text id of the component's name (PDF bookmark and file title)")
    size: Literal["poker", "bridge", "mini", "tarot", "square"] | SizeSpec | None = Field(
        None, description="card preset or explicit size; sheets and boards take their size from the paper"
    )
    per_page: int | None = Field(None, ge=1, le=16, description="sheets per page (score pads, boards)")
    landscape: bool | None = Field(
        None, description="paper orientation for sheets; cards choose the best fit"
    )
    back: bool = Field(True, description="print a back for every card (duplex)")
    copies: int = Field(1, ge=1, le=MAX_COPIES, description="how many sheets or sets to print")
    enabled: bool = Field(True, description="set false to leave the component out of the build")
    art: dict[str, ArtSpec] = Field(
        default_factory=dict,
        max_length=20,
        description=(
            "the designer's art by slot name (`pnpkit list --slots KIT` shows each component's slots and "
            "their boxes): a file path, or a mapping with path, fit, bleed, opacity and tint; an empty slot "
            "keeps the built-in drawing"
        ),
    )

    def trim_size(self) -> tuple[float, float] | None:
        """Width and height in points, or None when the composer sizes it from the paper."""
        if self.size is None:
            return None
        if isinstance(self.size, str):
            return CARD_PRESETS[self.size]
        return (self.size.width, self.size.height)


def language_problem(lang: str) -> str | None:
    """Why `lang` is not a language a kit can ship (not a Babel locale identifier, or unknown to Babel), or
    None."""
    from babel import Locale, UnknownLocaleError

    shown = clip(repr(lang), 60)
    if not LANGUAGE_TAG.fullmatch(lang):
        return (
            f"expected a language such as en, de, fr or pt_BR (the catalog is locales/<lang>.po); got {shown}"
        )
    try:
        Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        return f"expected a language or locale Babel knows, such as en, de, fr or pt_BR; got {shown}"
    return None


def _language(lang: str) -> str:
    problem = language_problem(lang)
    if problem:
        raise ValueError(problem)
    return lang


Language = Annotated[str, AfterValidator(_language)]
"""A language a kit may ship (validated against Babel's locale data)."""


class KitMeta(SpecModel):
    """Who the kit is and which languages it ships."""

    id: str = Field(
        description=(
            "folder-safe kit id: a lower-case letter, then lower-case letters, digits and _ (at most 40)"
        )
    )
    title: str = Field(description="text id of the kit's title")
    languages: list[Language] = Field(
        min_length=1,
        max_length=50,
        description=(
            "languages the kit ships: any language or locale Babel knows (CLDR plural rules and number "
            "formats come from Babel), written as the catalog file is named, e.g. en, de, fr, pt_BR, "
            "zh_Hant; each needs locales/<lang>.po; en is required (the fallback)"
        ),
    )
    seed: int = Field(ge=0, le=MAX_SEED, description="default seed for everything random in the kit")
    version: str = Field("1", description="the kit's own version, printed small on the rules card")

    @field_validator("id")
    @classmethod
    def _slug(cls, v: str) -> str:
        if not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", v):
            raise ValueError(f"expected lower-case letters, digits and _ (at most 40), got {v!r}")
        return v

    @field_validator("languages")
    @classmethod
    def _english_first(cls, v: list[str]) -> list[str]:
        if "en" not in v:
            raise ValueError("English (en) must be among the languages: it is the fallback")
        if len(set(v)) != len(v):
            raise ValueError(f"languages repeat: {v}")
        return v


class KitFile(SpecModel):
    """The top level of kit.yaml (the game section is validated against its game's model)."""

    kit: KitMeta
    print: PrintSpec = Field(default_factory=PrintSpec)
    style: StyleSpec = Field(
        default_factory=StyleSpec,
        description="the kit's own look: fonts by role, and the `min_size` floors per text role",
    )
    game: dict[str, Any] = Field(description="the game's parameters; `kind` picks the game")
    components: dict[str, ComponentSpec] = Field(description="printed components by id")
    tune: TuneSpec | None = Field(None, description="what `pnpkit tune` may change and what it aims for")


@dataclass(frozen=True)
class Kit:
    """A loaded kit: validated models, catalogs and where every key sits in kit.yaml."""

    dir: Path
    display: str
    meta: KitMeta
    print: PrintSpec
    game: Any
    """The game every hook of the kit's game receives: the validated `game:` section, or, for a game whose
    `with_files` hook reads files of the kit folder, the record that hook returned (a deck's section, rows and
    art)."""
    components: dict[str, ComponentSpec]
    catalogs: dict[str, Catalog]
    lines: dict[Loc, int] = field(repr=False, compare=False)
    style: StyleSpec = field(default_factory=StyleSpec)
    fonts: KitFonts | None = field(default=None, repr=False, compare=False)
    """The resolved, checked `style.fonts` (None: every text in the built-in BIZ UDPGothic)."""
    art: KitArt | None = field(default=None, repr=False, compare=False)
    """Every filled art slot, its files checked and decoded (None: no component has art)."""
    icons: Mapping[str, Asset] = field(default_factory=dict, repr=False, compare=False)
    """The kit's own inline icons (`style.icons`) by name, each SVG checked and decoded."""
    game_files: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)
    """The files of the kit folder the game section read when it loaded (a deck's data and art), by path
    relative to the folder, with their content digests as the door recorded them: part of every build key."""
    loaded_from: Any = field(default=None, repr=False, compare=False)
    """The validated `game:` section the game's `with_files` hook loaded `game` from (None: the game reads no
    files, and `game` is the section itself)."""

    @property
    def section(self) -> Any:
        """The validated `game:` section as kit.yaml writes it (the game's pydantic model): what the game's
        kind, the build keys and the check's settings read."""
        return self.game if self.loaded_from is None else self.loaded_from

    @property
    def game_id(self) -> str:
        """The game kind (a registered game id)."""
        return str(self.section.kind)

    def chosen_languages(self, langs: Sequence[str] | None) -> list[str]:
        """The languages a command works on: those asked for (`--lang`), or every one the kit ships; asking
        for one the kit does not ship is an OptionError (a usage error, exit 2). The pseudo-locale `qps` is
        made from English, so every kit has it."""
        for lang in langs or ():
            if lang not in self.meta.languages and lang != PSEUDO:
                shipped = self.meta.languages
                base = lang.split("_")[0]
                hint = f"; did you mean {base}?" if base in shipped else did_you_mean(lang, shipped)
                raise OptionError(f"--lang: {self.display} ships {', '.join(shipped)}; got {lang!r}{hint}")
        return list(langs or self.meta.languages)

    def problem(self, key: str, message: str) -> Problem:
        """A located problem for a dotted key of kit.yaml (the message clipped to MAX_MESSAGE characters,
        control characters escaped: a game's check may quote a 200,000-character value)."""
        return Problem(
            self.display, line_of(self.lines, parse_dotted(key)), clip(key, 120), clip(message, MAX_MESSAGE)
        )


@dataclass(frozen=True)
class GameSection:
    """The `game:` section of a kit.yaml as parsed, with what a validator needs to read the files it names and
    to locate its problems. `spec/` knows no game: the load phase validates the section through the game
    contract (generator/contract/load.py)."""

    raw: dict[str, Any]
    """The section as YAML gave it."""
    top: KitFile | None
    """The rest of the kit file, validated (None when it has problems of its own)."""
    root: Path
    """The kit folder, resolved: files the section names are read inside it."""
    display: str
    """The kit.yaml path as messages show it."""
    lines: dict[Loc, int]
    """Where each key of kit.yaml is."""
    kit_dir: Path
    """The kit folder as given (for showing a file of the kit)."""

    def line(self, key: str) -> int | None:
        """The line of a dotted key of kit.yaml."""
        return line_of(self.lines, parse_dotted(key))

    def problem(self, key: str, message: str) -> Problem:
        """A problem located at a dotted key of kit.yaml."""
        return Problem(self.display, self.line(key), key, message)

    def shown(self, rel: str) -> str:
        """A file of the kit folder as messages show it."""
        return _display(self.kit_dir / rel)

    def validation_problems(self, e: ValidationError, model: Any) -> list[Problem]:
        """The located problems of the section's pydantic errors against `model`."""
        return _problems(e, ("game",), self.raw, self.lines, self.display, model)


GameCheck = Callable[[GameSection], "tuple[Any, Any, list[Problem]]"]
"""What validates a kit's game section: the validated section, the game its hooks receive (the section
itself, or what the game loaded from the kit folder for it; both None on a problem) and every problem
found."""


def describe(value: Any) -> str:
    """A value for a message: repr (control characters escaped), at most 80 characters."""
    return _describe(value)


def _describe(value: Any) -> str:
    """A value for a message: repr (control characters escaped), at most 80 characters."""
    if isinstance(value, str) and len(value) > 200:
        value = value[:200]
    elif isinstance(value, (dict, list)) and len(value) > 20:
        return f"a {type(value).__name__} of {len(value)} items"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


_SEED_KEYS = ("seed", "seed_offset")


def _huge_ints(data: Any, loc: Loc, lines: dict[Loc, int], display: str) -> list[Problem]:
    """The safety net under every field's own cap: no whole number beyond MAX_ANY_INT (seeds: MAX_SEED)."""
    out: list[Problem] = []
    if isinstance(data, dict):
        for k, v in data.items():
            out += _huge_ints(v, loc + (k,), lines, display)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _huge_ints(v, loc + (i,), lines, display)
    elif isinstance(data, int) and not isinstance(data, bool):
        limit = MAX_SEED if loc and loc[-1] in _SEED_KEYS else MAX_ANY_INT
        if abs(data) > limit:
            shown = str(data) if len(str(data)) <= 24 else f"{str(data)[:6]}... ({len(str(data))} digits)"
            out.append(
                Problem(
                    display,
                    line_of(lines, loc),
                    dotted(loc),
                    f"expected a whole number of at most {limit:,} in size; got {shown}",
                )
            )
    return out


def _union_branch(loc: tuple[Any, ...], data: Any) -> tuple[tuple[Any, ...], str] | None:
    """(where, member) when `loc` passes through a union member's name (a step not present in the data)."""
    cur = data
    for i, part in enumerate(loc):
        if (isinstance(cur, dict) and part in cur) or (
            isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cur)
        ):
            cur = cur[part]
        elif isinstance(part, str) and (part[:1].isupper() or part in _UNION_STEPS or "[" in part):
            return loc[:i], part
        else:
            return None
    return None


def _closest_branches(errors: list[Any], data: Any) -> list[Any]:
    """When a value matches no member of a union, pydantic reports every member's errors; keep those of the
    member the author most likely meant (a model for a mapping, else the member with the fewest errors)."""
    counts: dict[tuple[Any, ...], dict[str, int]] = {}
    for err in errors:
        hit = _union_branch(tuple(err["loc"]), data)
        if hit:
            counts.setdefault(hit[0], {}).setdefault(hit[1], 0)
            counts[hit[0]][hit[1]] += 1

    def value_at(where: tuple[Any, ...]) -> Any:
        cur = data
        for part in where:
            cur = cur[part]
        return cur

    def rank(where: tuple[Any, ...], member: str, n: int) -> tuple[int, int]:
        # a mapping was meant for a model member, a scalar for a scalar member; then the fewest errors
        return (0 if isinstance(value_at(where), dict) == member[:1].isupper() else 1, n)

    best = {
        where: min(by.items(), key=lambda kv: rank(where, kv[0], kv[1]))[0] for where, by in counts.items()
    }
    kept = []
    for err in errors:
        hit = _union_branch(tuple(err["loc"]), data)
        if hit is None or best.get(hit[0]) == hit[1]:
            kept.append(err)
    return kept


def _keys_at(model: Any, loc: Loc) -> list[str]:
    """The keys the spec allows at `loc` inside `model` (a pydantic model type), following fields, list items,
    mapping values and the branches of unions; [] where the path leaves the models."""

    def models(tp: Any) -> list[type[BaseModel]]:
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            return [tp]
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            return models(typing.get_args(tp)[0])
        if origin in (typing.Union, types.UnionType):
            return [m for a in typing.get_args(tp) for m in models(a)]
        return []

    def inner(tp: Any) -> list[Any]:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            return inner(typing.get_args(tp)[0])
        if origin in (typing.Union, types.UnionType):
            return [x for a in typing.get_args(tp) for x in inner(a)]
        if origin in (list, tuple, dict, collections.abc.Mapping, collections.abc.Sequence):
            return [typing.get_args(tp)[-1]] if typing.get_args(tp) else []
        return []

    current: list[Any] = [model]
    for part in loc:
        nxt: list[Any] = []
        for tp in current:
            if isinstance(part, int) or not models(tp):
                nxt += inner(tp)
            for m in models(tp):
                f = m.model_fields.get(str(part)) or next(
                    (f for f in m.model_fields.values() if f.alias == part), None
                )
                if f is not None:
                    nxt.append(f.annotation)
        current = nxt
    names: list[str] = []
    for tp in current:
        for m in models(tp):
            names += [f.alias or n for n, f in m.model_fields.items()]
    return list(dict.fromkeys(names))


def _did_you_mean(model: Any, loc: Loc) -> str:
    """ "; did you mean goals?" for an unknown key close to a known one (difflib), else ""."""
    if model is None or not loc or not isinstance(loc[-1], str):
        return ""
    keys = _keys_at(model, loc[:-1])
    if loc[-1] in keys:  # allowed on another branch of a union (`opacity` is an image's, not a rect's)
        return "; that key belongs to another kind of element here"
    close = difflib.get_close_matches(loc[-1], keys, n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


def _problems(
    e: ValidationError, prefix: Loc, data: Any, lines: dict[Loc, int], display: str, model: Any = None
) -> list[Problem]:
    out = []
    for err in _closest_branches(e.errors(include_url=False), data):
        loc = _real_loc(tuple(err["loc"]), data)
        full = prefix + loc
        msg = err["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, ") :]
        if err["type"] == "missing":
            text = "required key is missing"
        elif err["type"] == "extra_forbidden":
            text = (
                f"unknown key (not part of the spec); got {_describe(err['input'])}"
                f"{_did_you_mean(model, loc)}"
            )
        elif "got" in msg:
            text = msg
        else:
            if msg.startswith("Input should be "):
                msg = "expected " + msg[len("Input should be ") :]
            text = f"{msg[0].lower() + msg[1:]}; got {_describe(err['input'])}"
        out.append(Problem(display, line_of(lines, full), clip(dotted(full), 120), clip(text, MAX_MESSAGE)))
    return out


def _real_loc(loc: tuple[Any, ...], data: Any) -> Loc:
    """Drop the union/tag steps pydantic adds to a location, keeping the path that exists in the data."""
    out: list[str | int] = []
    cur = data
    for n, part in enumerate(loc):
        if (
            isinstance(cur, dict)
            and n + 1 < len(loc)
            and cur.get("type") == part
            and isinstance(part, str)
            and not isinstance(cur.get(part), (dict, list))
        ):
            # a discriminated union's tag step (`text` of a text element), not the element's `text` key
            continue
        if isinstance(cur, dict) and part in cur:
            out.append(part)
            cur = cur[part]
        elif isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cur):
            out.append(part)
            cur = cur[part]
        elif isinstance(cur, dict) and isinstance(part, str) and not out[-1:] == [part]:
            # a missing or extra key: keep it as the last step if it is a plain name
            if re.fullmatch(r"[a-z_][A-Za-z0-9_]*", part) and part not in _UNION_STEPS:
                out.append(part)
                cur = None
    return tuple(out)


_UNION_STEPS = {
    "str",
    "int",
    "float",
    "bool",
    "list",
    "dict",
    "SizeSpec",
    "literal",
    "function-before",
    "function-after",
}


ParseYaml = Callable[[bytes, str], tuple[Any, dict[Loc, int]]]
"""`parse_yaml(data, display)` or a function that answers as it does (a build's memo of the last parse)."""


def read_kit(path: Path | str, *, check_game: GameCheck, parse: ParseYaml = parse_yaml) -> Kit:
    """Read and validate a kit folder (or its kit.yaml); every problem is reported at once as SpecError. The
    game section is validated by `check_game` (the game contract's, in `generator.contract.load.load_kit`):
    this room knows no game.

    Files are resolved once: kit.yaml and every catalog must resolve (symlinks followed) inside the kit
    folder and be regular files; nothing outside the folder is opened. `parse` reads kit.yaml's bytes.
    """
    p = Path(path)
    if p.is_file() and p.name != "kit.yaml":  # another file: never the kit.yaml beside it in its stead
        raise SpecError(
            [
                Problem(
                    _display(p),
                    None,
                    "",
                    "expected a kit folder (holding kit.yaml) or its kit.yaml; got a file",
                )
            ]
        )
    kit_dir = p.parent if p.name == "kit.yaml" else p
    root, display, data, lines = _read_kit_yaml(kit_dir, parse)
    problems: list[Problem] = []
    top: KitFile | None = None
    try:
        top = KitFile.model_validate(data)
    except ValidationError as e:
        problems.extend(_problems(e, (), data, lines, display, KitFile))
    game: Any = None
    section: Any = None
    raw_game = data.get("game")
    game_files: dict[str, str] = {}
    if isinstance(raw_game, dict):
        with recording_reads() as looks:  # the files the game's section reads (a deck's data and art)
            section, game, found = check_game(GameSection(raw_game, top, root, display, lines, kit_dir))
        problems.extend(found)
        game_files = _files_read(looks, root)
    catalogs: dict[str, Catalog] = {}
    fonts: KitFonts | None = None
    art: KitArt | None = None
    icons: dict[str, Asset] = {}
    if top is not None:
        catalogs = _read_catalogs(top, kit_dir, root, display, lines, problems)
        fonts = _read_fonts(top, root, display, lines, problems)
        art = _read_art(top, fonts, root, display, lines, problems)
        icons = _read_icons(top, fonts, root, display, lines, problems)
    if problems:
        raise SpecError(sorted(problems, key=lambda p: (p.line or 0, p.key)))
    assert top is not None  # for the type checker: no problems means it validated
    return Kit(
        root,
        display,
        top.kit,
        top.print,
        game,
        dict(top.components),
        catalogs,
        lines,
        top.style,
        fonts,
        art,
        icons,
        game_files,
        None if game is section else section,
    )


def _files_read(looks: Mapping[Read, str | None], root: Path) -> dict[str, str]:
    """Each file of the kit folder a look read, by its path relative to the folder, with its content
    digest."""
    out: dict[str, str] = {}
    for (kind, path, _), seen in looks.items():
        real = Path(path)
        if kind == "read" and seen is not None and (real == root or root in real.parents):
            out[real.relative_to(root).as_posix()] = seen
    return dict(sorted(out.items()))


def kits_inside(folder: Path, *, one: bool = False, look_at: int = 1000, named: int = 8) -> str:
    """ "; its folders a, b are kits: name them instead" when `folder` holds kit folders (a user gave the
    folder of several kits, `layouts`), else "" (`one`: for a command that takes one kit). Looks at most
    `look_at` entries (a stranger's folder)."""
    found: list[str] = []
    try:
        with os.scandir(folder) as entries:
            for _, entry in zip(range(look_at), entries, strict=False):
                if entry.is_dir(follow_symlinks=False) and os.path.isfile(
                    os.path.join(entry.path, "kit.yaml")
                ):
                    found.append(entry.name)
    except OSError:
        return ""
    if not found:
        return ""
    names = ", ".join(sorted(found)[:named]) + (", ..." if len(found) > named else "")
    if len(found) == 1:
        return f"; its folder {names} is a kit: name it instead"
    return f"; its folders {names} are kits: name {'one of them' if one else 'them'} instead"


def _read_kit_yaml(kit_dir: Path, parse: ParseYaml) -> tuple[Path, str, dict[str, Any], dict[Loc, int]]:
    """The kit folder resolved, kit.yaml's display name, its top-level mapping and its line table; SpecError
    when there is no kit.yaml, it holds no mapping, or an integer is too large for the models."""
    yaml_path = kit_dir / "kit.yaml"
    display = _display(yaml_path)
    root = resolve_dir(kit_dir, _display(kit_dir))
    yaml_real = resolve_inside(root, root / "kit.yaml", display, "kit.yaml")
    if yaml_real is None:
        raise SpecError([Problem(display, None, "", "no kit.yaml in this folder" + kits_inside(root))])
    data, lines = parse(read_bytes(yaml_real, display, MAX_SPEC_BYTES, "the file"), display)
    if not isinstance(data, dict):
        raise SpecError(
            [Problem(display, 1, "", f"expected a mapping at the top level; got {_describe(data)}")]
        )
    problems: list[Problem] = _huge_ints(data, (), lines, display)
    if problems:  # the models would repeat them (or overflow on them): report the net's findings alone
        raise SpecError(problems)
    return root, display, data, lines


def _read_catalogs(
    top: KitFile, kit_dir: Path, root: Path, display: str, lines: dict[Loc, int], problems: list[Problem]
) -> dict[str, Catalog]:
    """The catalog of each language of the kit (locales/<lang>.po); a missing or bad one adds its problems."""
    catalogs: dict[str, Catalog] = {}
    for i, lang in enumerate(top.kit.languages):
        po = kit_dir / "locales" / f"{lang}.po"
        if not os.path.lexists(po):  # a language is available when its catalog exists
            problems.append(
                Problem(
                    display,
                    line_of(lines, ("kit", "languages", i)),
                    f"kit.languages[{i}]",
                    f"no catalog for language {lang!r}: expected locales/{lang}.po in the kit folder",
                )
            )
            continue
        try:
            catalogs[lang] = read_catalog(root / "locales" / f"{lang}.po", _display(po), lang, root=root)
        except SpecError as e:
            problems.extend(e.problems)
    return catalogs


def _read_fonts(
    top: KitFile, root: Path, display: str, lines: dict[Loc, int], problems: list[Problem]
) -> KitFonts | None:
    """The kit's own fonts (style.fonts), if it names any; their problems are added to `problems`."""
    if top.style.fonts is None:
        return None
    try:
        return resolve_fonts(top.style.fonts, root, display, lambda key: line_of(lines, parse_dotted(key)))
    except SpecError as e:
        problems.extend(e.problems)
        return None


def _read_art(
    top: KitFile,
    fonts: KitFonts | None,
    root: Path,
    display: str,
    lines: dict[Loc, int],
    problems: list[Problem],
) -> KitArt | None:
    """The components' art, read only when nothing else is wrong; its problems, and characters of an SVG's
    text that no face of the kit has, are added to `problems`."""
    if not any(c.art for c in top.components.values()) or problems:
        return None
    try:
        art = resolve_art(top.components, root, display, lambda key: line_of(lines, parse_dotted(key)))
    except SpecError as e:
        problems.extend(e.problems)
        return None
    problems.extend(_svg_text_problems(art, fonts, display))
    return art


def _read_icons(
    top: KitFile,
    fonts: KitFonts | None,
    root: Path,
    display: str,
    lines: dict[Loc, int],
    problems: list[Problem],
) -> dict[str, Asset]:
    """The kit's own inline icons (style.icons); their problems, and characters of an icon's text that no
    face of the kit has, are added to `problems`."""
    if not top.style.icons:
        return {}
    icons, bad = resolve_icons(top.style.icons, root, display, lambda key: line_of(lines, parse_dotted(key)))
    problems.extend(bad)
    for i, name in enumerate(top.style.icons):  # an icon's own text is drawn in the kit's faces, as art's is
        for text, weight in icons[name].svg_texts() if name in icons else ():
            missing = svg_text_missing(text, svg_text_chain(fonts, weight))
            if missing:
                codes = " ".join(f"U+{ord(c):04X} {c!r}" for c in missing)
                problems.append(
                    Problem(
                        display,
                        line_of(lines, ("style", "icons", i)),
                        f"style.icons[{i}]",
                        f"{icons[name].shown}: the SVG's text {text[:40]!r} has characters no "
                        f"{weight} face of the kit has: {codes}; convert the text to paths",
                    )
                )
                break
    return icons


def _svg_text_problems(art: KitArt | None, fonts: KitFonts | None, display: str) -> list[Problem]:
    """An SVG's text is drawn in the kit's body faces (embedded, so PDF/A holds it): a character none of them
    has is a located problem at the slot, naming the file and the characters."""
    out: list[Problem] = []
    for (cid, slot), slot_art in sorted(art.slots.items()) if art is not None else ():
        for asset in slot_art.assets.values():
            for text, weight in asset.svg_texts():
                missing = svg_text_missing(text, svg_text_chain(fonts, weight))
                if missing:
                    faces = ", ".join(
                        f.shown if not f.builtin else "BIZ UDPGothic" for f in svg_text_chain(fonts, weight)
                    )
                    codes = " ".join(f"U+{ord(c):04X} {c!r}" for c in missing)
                    out.append(
                        Problem(
                            display,
                            slot_art.line,
                            f"components.{cid}.art.{slot}",
                            f"{asset.shown}: the SVG's text {text[:40]!r} has characters no {weight} face "
                            f"of the kit has ({faces}): {codes}; convert the text to paths or add a font",
                        )
                    )
                    break
    return out


def _display(path: Path) -> str:
    """The path as the user sees it (relative to the working folder when inside it); symlinks are NOT
    resolved, so a message never names the file a link points to."""
    absolute = Path(os.path.abspath(path))
    try:
        return str(absolute.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
