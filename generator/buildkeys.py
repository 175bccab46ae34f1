"""Content keys of an incremental build: what one component's PDF in one language and paper depends on, and
the record (manifest) of the last build in each OUT/<kit>/<lang>/ folder. Knows nothing of drawing."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.resources import fonts_dir, tree_digest, tree_stamp

if TYPE_CHECKING:  # this module is imported before any kit is loaded (the unchanged-inputs check)
    from generator.spec.catalogs import Catalog
    from generator.spec.kit import Kit

CACHE_DIR = ".pnpkit"
"""The folder of build bookkeeping inside each kit/language folder (swapped in with the files)."""
MANIFEST = f"{CACHE_DIR}/build.json"
"""The record of the last build (content key and digest of every output)."""
FORMAT = 1
_PKG = Path(__file__).resolve().parent


def _digest(value: Any) -> str:
    return hashlib.sha256(
        json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")
    ).hexdigest()


def generator_digest() -> str:
    """The generator's version: the digest of its own code and catalogs (a changed composer changes every
    key)."""
    from generator import __version__

    suffixes = (".py", ".po")
    return f"{__version__}:{tree_digest(_PKG, suffixes)}"


def fonts_digest() -> str:
    """The digest of the vendored fonts (text metrics and glyphs)."""
    root = fonts_dir()
    suffixes = (".ttf", ".otf")
    return tree_digest(root, suffixes)


def tool_key() -> str:
    """The generator's and the fonts' digests together: computed once per build (a stat of each file)."""
    return _digest([generator_digest(), fonts_digest()])


def tool_stamp() -> str:
    """The path, size and modification time of every file `tool_key` reads (the generator's sources and
    catalogs, the fonts), as one digest: a stat of each, nothing read. While it holds, so does the tool key
    computed with it (`recorded_tool_key`): the rule `tree_digest` applies within a process, kept across
    builds."""
    return _digest([tree_stamp(_PKG, (".py", ".po")), tree_stamp(fonts_dir(), (".ttf", ".otf"))])


def recorded_tool_key(record: Mapping[str, Any], stamp: str) -> str:
    """The tool key an inputs record holds for this very `stamp` (its files unchanged since that build), else
    `tool_key()` -- which reads and digests some 11 MB of sources and fonts."""
    held = record.get("tool")
    if isinstance(held, Mapping) and held.get("stamp") == stamp and isinstance(held.get("key"), str):
        return str(held["key"])
    return tool_key()


def spec_key(
    kit: Kit, *, tool: str, part: str, lang: str, paper: str, seed: int, pdfa: bool, png: bool
) -> str:
    """The key of everything a part reads besides catalog strings: the generator and fonts (`tool`), the seed,
    language, paper and output options, and the spec subtrees a composer reads -- `kit`, `print`, `game`
    (rules text and generated decks come from the game's figures) and `components` (composers read sibling
    components' sizes)."""
    return _digest(
        {
            "format": FORMAT,
            "tool": tool,
            "part": part,
            "lang": lang,
            "paper": paper,
            "seed": seed,
            "pdfa": pdfa,
            "png": png,
            "kit": kit.meta.model_dump(mode="json"),
            "print": kit.print.model_dump(mode="json"),
            "game": kit.section.model_dump(mode="json"),
            "components": {cid: c.model_dump(mode="json") for cid, c in kit.components.items()},
            # how text is set (the min_size floors decide where a summary flows onto a second face) and the
            # kit's fonts by content (absent without style.fonts)
            "style": kit.style.model_dump(mode="json"),
            **({"fonts": kit.fonts.key()} if kit.fonts is not None else {}),
            # the art files this part draws, by content (absent without art, so those kits keep their keys): a
            # changed image redraws only the components that use it
            **({"art": kit.art.key(None if part == "kit" else part)} if kit.art is not None else {}),
            # the kit's inline icons by content (absent without style.icons)
            **({"icons": sorted((n, a.sha256) for n, a in kit.icons.items())} if kit.icons else {}),
            # the files the game section read from the kit folder (a deck's data and art), by the digests the
            # door recorded (absent for a game that reads none, so those kits keep their keys)
            **({"game_files": sorted(kit.game_files.items())} if kit.game_files else {}),
        }
    )


def texts_key(catalogs: Mapping[str, Catalog], lang: str, used: Iterable[str]) -> str:
    """The key of the catalog entries a part used: each id's string in the catalog that answers it (the
    language's own, else English), or its absence."""
    own, fallback = catalogs[lang].messages, catalogs["en"].messages
    entries: list[tuple[str, str | None, str | None]] = []
    for tid in sorted(set(used)):
        if tid in own:
            entries.append((tid, lang, own[tid]))
        elif tid in fallback:
            entries.append((tid, "en", fallback[tid]))
        else:
            entries.append((tid, None, None))
    return _digest(entries)


def part_key(spec: str, texts: str) -> str:
    """The content key of one output: spec part and catalog part together."""
    return _digest([spec, texts])


def file_digest(path: Path) -> str | None:
    """The sha256 of a file, None when it is missing or not a regular file."""
    try:
        if not path.is_file():
            return None
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def read_manifest(folder: Path) -> dict[str, Any]:
    """The entries of the last build's record in `folder` ({} when missing, unreadable or of another
    format)."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if (
        not isinstance(data, dict)
        or data.get("format") != FORMAT
        or not isinstance(data.get("entries"), dict)
    ):
        return {}
    return dict(data["entries"])


def dump_manifest(entries: Mapping[str, Any]) -> bytes:
    """The record as bytes (sorted, so the same build gives the same file)."""
    return (
        json.dumps({"format": FORMAT, "entries": dict(entries)}, sort_keys=True, ensure_ascii=False, indent=1)
        + "\n"
    ).encode("utf-8")


def is_unchanged(
    entry: Mapping[str, Any] | None,
    folder: Path,
    name: str,
    spec: str,
    catalogs: Mapping[str, Catalog],
    lang: str,
    png: bool,
) -> bool:
    """Whether the last build's output `name` in `folder` is still what this build would write: same spec key,
    same strings for the ids it used, and the file(s) on disk are the ones that build wrote."""
    if not entry or entry.get("spec") != spec or not isinstance(entry.get("used"), list):
        return False
    if entry.get("key") != part_key(spec, texts_key(catalogs, lang, entry["used"])):
        return False
    if file_digest(folder / name) != entry.get("sha256"):
        return False
    if png and file_digest((folder / name).with_suffix(".png")) != entry.get("png_sha256"):
        return False
    return True


# ------------------------------------------------------------------ inputs: a whole build keyed before
# loading

INPUTS = f"{CACHE_DIR}/inputs"
"""OUT/.pnpkit/inputs/<digest>.json: per set of kit folders and options, the key of every file the last
successful build read and the digest of every file it wrote or kept (see `unchanged_inputs`)."""


def _where(paths: Iterable[Path], options: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "kits": [os.path.abspath(p) for p in paths],
        "cwd": os.getcwd(),
        "options": dict(options),
    }


def inputs_name(paths: Iterable[Path], options: Mapping[str, Any]) -> str:
    """The name of the inputs record of a build of `paths` with `options`: one per kit folders, working folder
    (messages name files relative to it) and options."""
    return _digest(_where(paths, options))[:32]


def inputs_key(paths: Iterable[Path], options: Mapping[str, Any], tool: str, reads: Any) -> str:
    """The key of a build of `paths` with `options`: where and how it runs, the generator and fonts (`tool`)
    and every look the last load took through the kit door with what it saw (`reads`: kit folders, the paths
    it resolved, the digests of the files it read, the folders it listed -- see `spec.paths.replay_reads`)."""
    return _digest([_where(paths, options), tool, reads])


def recorded_reads(record: Mapping[str, Any], paths: Iterable[Path]) -> list[list[Any]] | None:
    """The looks through the kit door that the recorded build took, each seen again now
    (`spec.paths.replay_reads`): only the files that build used are opened, each confined to its kit folder
    and capped. None when the record holds none or a look is refused now (then the kit is loaded as usual).
    `paths`: the kits the user named."""
    from generator.spec.paths import replay_reads

    seen = replay_reads(record.get("reads"), paths)
    return None if seen is None else [[*read, value] for read, value in seen]


def read_inputs_record(out: Path, name: str) -> dict[str, Any]:
    """The inputs record `name` in OUT ({} when missing, unreadable or of another format)."""
    try:
        data = json.loads((out / INPUTS / f"{name}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return (
        data
        if isinstance(data, dict)
        and data.get("format") == FORMAT
        and isinstance(data.get("files"), dict)
        and all(_inside(rel) and (d is None or isinstance(d, str)) for rel, d in data["files"].items())
        else {}
    )


def _inside(rel: object) -> bool:
    """Whether a record's file name is one a build writes: a relative path below OUT, of printable characters
    (a record edited to name a file elsewhere, or a name that would be a terminal escape, is not trusted)."""
    if not isinstance(rel, str) or not rel or rel.startswith("/") or "\\" in rel:
        return False
    return all(part not in ("", ".", "..") for part in rel.split("/")) and rel.isprintable()


def dump_inputs_record(key: str, files: Mapping[str, str | None], result: Mapping[str, Any]) -> bytes:
    """The record of a successful build: its inputs key, the digest of every output file (relative to OUT) and
    what the build reported (warnings, pages, parts), sorted so the same build gives the same bytes."""
    return (
        json.dumps(
            {"format": FORMAT, "key": key, "files": dict(files), **result},
            sort_keys=True,
            ensure_ascii=False,
            indent=1,
        )
        + "\n"
    ).encode("utf-8")


def unchanged_inputs(out: Path, record: Mapping[str, Any], key: str) -> bool:
    """Whether the last build of the same kits and options read the same files and its outputs are still the
    ones it wrote: then a build would compose, draw and write nothing."""
    if not record or record.get("key") != key:
        return False
    return all(file_digest(out / rel) == digest for rel, digest in record["files"].items())


# ------------------------------------------------------------------ memo: parses and checks a rebuild may
# reuse


def _plain_json(value: Any, depth: int = 0) -> bool:
    """Whether `value` is made of JSON's own types only (so a JSON round trip gives it back as it was)."""
    if depth > 100:
        return False
    if value is None or isinstance(value, (bool, str)) or type(value) is int:
        return True
    if type(value) is float:
        return value == value and abs(value) != float("inf")
    if type(value) is list:
        return all(_plain_json(v, depth + 1) for v in value)
    if type(value) is dict:
        return all(type(k) is str and _plain_json(v, depth + 1) for k, v in value.items())
    return False


class Memo:
    """What the last successful build of the same kits and options into OUT computed that a rebuild may reuse:
    pure functions of their inputs (a kit.yaml's parse, a palette's colour-vision check, a catalog's template
    check), each filed under the digest of those inputs, the whole memo under the generator's digest (`tool`),
    so a changed generator (or font) starts from nothing. Kept in the inputs record (`dump_inputs_record`).

    Only the entries this build used are kept, so a clean build and a rebuild of the same inputs write the
    same record; a check is remembered only when it passed (a failing build writes nothing)."""

    def __init__(self, tool: str, stored: Any = None) -> None:
        self.tool = tool
        entries = (
            stored.get("entries") if isinstance(stored, Mapping) and stored.get("tool") == tool else None
        )
        self._stored: dict[str, Any] = dict(entries) if isinstance(entries, Mapping) else {}
        self.kept: dict[str, Any] = {}

    @staticmethod
    def key(kind: str, inputs: Any) -> str:
        """The entry name of `kind` computed on `inputs` (any JSON-able value)."""
        return f"{kind}:{_digest(inputs)}"

    def recall(self, key: str) -> Any:
        """The stored value of `key` (kept for the next build), or None."""
        if key not in self.kept and key in self._stored:
            self.kept[key] = self._stored[key]
        return self.kept.get(key)

    def remember(self, key: str, value: Any) -> None:
        """File a JSON-able `value` under `key` for the next build."""
        self.kept[key] = value

    def recall_json(self, key: str) -> Any:
        """A value filed with `remember_json` (its mappings in their order), or None."""
        hit = self.recall(key)
        if not isinstance(hit, str):
            return None
        try:
            return json.loads(hit)
        except ValueError:
            return None

    def remember_json(self, key: str, value: Any) -> bool:
        """File `value` as JSON text (so the order of its mappings survives the record's sorted keys) when it
        is plain JSON data -- dicts with str keys, lists, str, int, finite float, bool, None -- which then
        reads back equal and of the same types; anything else (tuples, objects) is not filed. Whether it was
        filed."""
        if not _plain_json(value):
            return False
        self.remember(key, json.dumps(value, ensure_ascii=False))
        return True

    def passed(self, kind: str, inputs: Any) -> bool:
        """Whether the check `kind` passed on these very inputs in the last build (then it passes again)."""
        return self.recall(self.key(kind, inputs)) is True

    def note_passed(self, kind: str, inputs: Any) -> None:
        """Remember that the check `kind` passed on `inputs`."""
        self.remember(self.key(kind, inputs), True)

    def dump(self) -> dict[str, Any]:
        """The memo as stored in the inputs record."""
        return {"tool": self.tool, "entries": dict(sorted(self.kept.items()))}


__all__ = [
    "CACHE_DIR",
    "INPUTS",
    "MANIFEST",
    "Memo",
    "dump_inputs_record",
    "dump_manifest",
    "file_digest",
    "fonts_digest",
    "generator_digest",
    "inputs_key",
    "inputs_name",
    "is_unchanged",
    "part_key",
    "read_inputs_record",
    "read_manifest",
    "recorded_reads",
    "recorded_tool_key",
    "spec_key",
    "texts_key",
    "tool_key",
    "tool_stamp",
    "unchanged_inputs",
]
