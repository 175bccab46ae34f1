"""`pnpkit new`: a variant kit folder copied from an existing kit, renamed, validated, never overwriting."""

from __future__ import annotations

import io
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from generator.errors import KitError, did_you_mean
from generator.resources import shipped_kit, shipped_kits
from generator.spec.paths import read_kit_file
from generator.spec.yamlio import MAX_SPEC_BYTES, parse_yaml

KIT_ID = re.compile(r"[a-z][a-z0-9_]{0,39}")
TITLE_ID = "kit.title"


@dataclass(frozen=True)
class NewKit:
    """What `new_kit` made."""

    folder: Path
    kit_id: str
    title_id: str
    source: Path
    files: tuple[Path, ...]


TEMPLATES = Path(__file__).resolve().parent / "templates"
"""Starter kits for `pnpkit new NAME --template <name>`, a folder each (kit.yaml, data, catalogs, README)."""


def template_names() -> list[str]:
    """The starter kits `--template` offers."""
    return (
        sorted(p.name for p in TEMPLATES.iterdir() if (p / "kit.yaml").is_file())
        if TEMPLATES.is_dir()
        else []
    )


def template_folder(name: str) -> Path:
    """The folder of a starter kit, or a KitError listing them."""
    names = template_names()
    same = [n for n in names if n.lower() == name.lower()]
    if same:
        return TEMPLATES / same[0]
    raise KitError(f"--template: expected one of {', '.join(names)}; got {name!r}{did_you_mean(name, names)}")


def source_folder(source: str) -> Path:
    """A kit folder given as a path, or the id of a shipped kit (layouts/<id>)."""
    path = Path(source)
    if (path / "kit.yaml").is_file():
        return path
    shipped = shipped_kit(source)
    if shipped is not None:
        return shipped
    known = [p.name for p in shipped_kits()]
    raise KitError(
        f"--from: expected a kit folder (holding kit.yaml) or one of {', '.join(known)}; "
        f"got {source!r}{did_you_mean(source, known)}"
    )


def _renamed(yaml: YAML, data: Any, kit_id: str, title_id: str, text: str) -> str:
    """kit.yaml's text with `kit.id` and `kit.title` set: only those two values are rewritten where they
    stand, so every other line, comment and alignment stays as the designer wrote it (a YAML dump would refold
    long flow mappings and re-indent lists). A spec whose values cannot be found that way is dumped whole."""
    edited = _edited_in_place(data["kit"], {"id": kit_id, "title": title_id}, text)
    if edited is not None:
        return edited
    data["kit"]["id"] = kit_id
    data["kit"]["title"] = title_id
    buf = io.StringIO()
    yaml.dump(data, buf)
    return buf.getvalue()


def _edited_in_place(meta: Any, values: dict[str, str], text: str) -> str | None:
    """`text` with each key of the round-trip mapping `meta` given the new value in `values`, written over the
    old value where the loader saw it (the last on a line first, so a flow mapping's columns stay right);
    None when a key is missing or its value is not written plainly there (an alias, an escape)."""
    if any(key not in meta for key in values):
        return None
    lines = text.split("\n")
    for key in sorted(values, key=meta.lc.value, reverse=True):
        row, col = meta.lc.value(key)
        line, old = lines[row], str(meta[key])
        quoted = line[col : col + 1] in ("'", '"')
        if line[col + quoted : col + quoted + len(old)] != old:
            return None
        lines[row] = line[:col] + values[key] + line[col + len(old) + 2 * quoted :]
    out = "\n".join(lines)
    again = YAML(typ="safe").load(out)["kit"]
    return out if all(again.get(key) == value for key, value in values.items()) else None


def _prints_text_id(kit: Path, text_id: str) -> bool:
    """Whether a file of `kit` other than its catalogs names `text_id` beyond kit.yaml's `kit.title` key (a
    template's `t('kit.title')`): renaming the id in the catalogs would leave that text without one."""
    named = re.compile(rf"(?<![\w.]){re.escape(text_id)}(?![\w.])")
    for path in sorted(kit.rglob("*")):
        if path.is_symlink() or not path.is_file() or path.suffix in (".po", ".mo"):
            continue  # a link is not followed: a stranger's kit may point anywhere
        if path.stat().st_size > 2_000_000:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # art, fonts, spreadsheets: no template text
        if len(named.findall(text)) > (1 if path == kit / "kit.yaml" else 0):
            return True
    return False


def _rename_title_in_catalog(text: str, old_id: str, new_id: str, kit_id: str, source_id: str) -> str:
    """The catalog with the title's msgid renamed (translation kept), a header comment naming the variant."""
    pattern = re.compile(rf'^msgid "{re.escape(old_id)}"$', re.MULTILINE)
    text = pattern.sub(f'msgid "{new_id}"', text, count=1)
    return f"# {kit_id}: a variant of {source_id} made by `pnpkit new`; edit the msgstr lines.\n" + text


def _readme(kit_id: str, source_id: str, title_id: str, languages: list[str]) -> str:
    catalogs = ", ".join(f"locales/{lang}.po" for lang in languages)
    return (
        f"# {kit_id}\n\nA variant of the `{source_id}` kit, "
        f"made by `pnpkit new {kit_id} --from {source_id}`.\n\n"
        "## What to edit\n\n"
        "- `kit.yaml` `game:` -- the rules' numbers (the printed rules text is generated from them);\n"
        "  `game.balance` holds the tolerances `pnpkit check` holds the variant to.\n"
        "- `kit.yaml` `components:` -- which pieces are printed, their sizes and copies.\n"
        "- `kit.yaml` `print:` -- paper, margins, bleed, duplex.\n"
        f"- {catalogs} -- every printed word (`{title_id}` is the kit's title).\n"
        "- `kit.yaml` `kit.seed` -- the seed of everything random (decks, self-play).\n\n"
        "## Then\n\n"
        f"    pnpkit serve {kit_id}      # live preview while you edit\n"
        f"    pnpkit validate {kit_id}\n"
        f"    pnpkit check {kit_id}\n"
        f"    pnpkit build {kit_id}\n"
    )


def new_kit(target: Path, source: str | None = None, *, template: str | None = None) -> NewKit:
    """Copy the kit `source` to the new folder `target` (its name becomes kit.id), rename kit.id and the
    title's text id (comments and layout of kit.yaml kept), add a README stub. The folder appears whole or not
    at all; an existing path is never overwritten. Validation is the caller's (it needs the build room)."""
    kit_id = target.name
    if not KIT_ID.fullmatch(kit_id):
        raise KitError(
            f"NAME: expected lower-case letters, digits and _ (at most 40, a letter first), as kit.id; "
            f"got {kit_id!r}"
        )
    if os.path.lexists(target):
        raise KitError(
            f"{target}: already exists; pnpkit new never overwrites (choose another NAME or remove it)"
        )
    if (source is None) == (template is None):
        raise KitError("give either --from KIT (a variant of a kit) or --template NAME (a starter kit)")
    src = template_folder(template) if template is not None else source_folder(str(source))
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise KitError(f"{target}: the folder {parent} does not exist")
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    display = str(src / "kit.yaml")
    raw = read_kit_file(src / "kit.yaml", display, MAX_SPEC_BYTES, "kit.yaml")
    parse_yaml(raw, display)  # what a load refuses (not YAML, tags, bombs, too deep), located, before a copy
    data = yaml.load(source_text := raw.decode("utf-8-sig"))
    meta = data.get("kit") if isinstance(data, dict) else None
    if not isinstance(meta, dict):
        raise KitError(f"{src / 'kit.yaml'}: kit: expected a mapping with id and title")
    source_id = str(meta.get("id", src.name))
    old_title = str(meta.get("title", TITLE_ID))
    # a variant renames the title's text id (it may be merged back beside its source) unless the kit prints it
    # itself (a data kit's or starter kit's card templates print `t('kit.title')`): then it keeps it
    title_id = old_title if template is not None or _prints_text_id(src, old_title) else f"{kit_id}.title"
    spec_text = _renamed(yaml, data, kit_id, title_id, source_text)
    languages = [str(x) for x in meta.get("languages", ["en"])]
    tmp = Path(tempfile.mkdtemp(prefix=f".{kit_id}.", suffix=".new", dir=parent))
    try:
        shutil.copytree(
            src, tmp / "kit", symlinks=False, ignore=shutil.ignore_patterns("README.md", ".*", "__pycache__")
        )
        (tmp / "kit" / "kit.yaml").write_text(spec_text, encoding="utf-8")
        for po in sorted((tmp / "kit" / "locales").glob("*.po")):
            po.write_text(
                _rename_title_in_catalog(
                    po.read_text(encoding="utf-8"), old_title, title_id, kit_id, source_id
                ),
                encoding="utf-8",
            )
        # the starter README names {kit_id} and {title_id}; its {{ field }} examples are the template syntax
        # itself and stay as written (str.format would turn them into a lone { field })
        readme = (
            (src / "README.md")
            .read_text(encoding="utf-8")
            .replace("{kit_id}", kit_id)
            .replace("{title_id}", title_id)
            if template is not None
            else _readme(kit_id, source_id, title_id, languages)
        )
        (tmp / "kit" / "README.md").write_text(readme, encoding="utf-8")
        if os.path.lexists(target):  # appeared meanwhile
            raise KitError(f"{target}: already exists; pnpkit new never overwrites")
        os.rename(tmp / "kit", target)
    except OSError as e:
        raise KitError(f"{target}: cannot create the kit folder ({e.strerror or e})") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    files = tuple(sorted(p for p in target.rglob("*") if p.is_file()))
    return NewKit(target, kit_id, title_id, src, files)
