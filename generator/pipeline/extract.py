"""`pnpkit i18n extract KIT`: a gettext template (.pot) of a kit's text ids that tells a translator where each
one prints.

The kit is composed in English (as `validate` does, nothing drawn) and every text of every page is traced
back to the catalog string it came from; each entry then carries, as `#.` comments, the English text, the
template variables it may use and the pieces it prints on (component and face), and as `#:` the line of the
English catalog. Ids the kit's current settings never print (a house rule that is off) say so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from generator.pipeline.compose import compose_one, kit_measure, print_data
from generator.pipeline.load import kit_seed, with_tool_catalogs

if TYPE_CHECKING:
    from generator.layout.ops import Op, Page, Place
    from generator.spec.kit import Kit

PICTURES = "pot-pictures"
"""The folder beside the .pot that holds one picture per entry."""
MAX_PLACES = 8
"""How many (component, face) places one entry lists before it says how many more."""
_VARIABLE_RE = re.compile(r"\{\{-?\s*([A-Za-z_][A-Za-z0-9_]*)")
_SPACE_RE = re.compile(r"\s+")
_SAFE_RE = re.compile(r"[^A-Za-z0-9_.-]")


@dataclass
class Entry:
    """One text id of the template: its English text, catalog line and where it prints."""

    tid: str
    english: str
    line: int | None
    places: list[str] = field(default_factory=list)
    picture: tuple[Page, tuple[float, float, float, float]] | None = None
    """Where its first picture is cut from: a page and the points cut off its left, bottom, right and top."""
    picture_file: str = ""


@dataclass(frozen=True)
class Drawn:
    """One text op as drawn: its face (the innermost named place around it), text, text id and where a
    picture of it can be cut from (that face, else its position on the page when no rotation is in
    between)."""

    face: str
    text: str
    text_id: str
    place: Place | None
    at: tuple[float, float] | None


def _texts(
    ops: Iterable[Op], face: str, place: Place | None = None, at: tuple[float, float] | None = (0.0, 0.0)
) -> Iterable[Drawn]:
    """Every text op under `ops`, with its face and picture source."""
    from generator.layout.ops import Place, Text

    for op in ops:
        if isinstance(op, Place):
            inner = at if at is None or op.rotate or op.scale != 1 else (at[0] + op.x, at[1] + op.y)
            if op.name and op.clip is not None:
                yield from _texts(op.ops, op.name, op, (0.0, 0.0))  # positions in the face's own coordinates
            else:
                yield from _texts(
                    op.ops, op.name or face, place, None if op.rotate or op.scale != 1 else inner
                )
        elif isinstance(op, Text):
            yield Drawn(
                face, op.text, op.text_id, place, None if at is None else (at[0] + op.x, at[1] + op.y)
            )


def _norm(text: str) -> str:
    return _SPACE_RE.sub(" ", text).strip()


def extract(kit: Kit, *, paper: str | None = None) -> list[Entry]:
    """Every English text id of `kit` (its catalog and pnpkit's own strings), with the places it prints."""
    from generator.render.fonts import text_width

    catalogs = with_tool_catalogs(kit)
    english = catalogs["en"]
    seed = kit_seed(kit, None)  # a template is the kit's own: its kit.seed
    components, texts = compose_one(
        kit,
        "en",
        paper or kit.print.paper,
        seed,
        print_data(kit, seed),
        kit_measure(kit, text_width),
        lambda _: None,
    )
    rendered: dict[str, list[str]] = {}  # a string handed out -> the ids that gave it
    for out, (_, _, tid) in texts.origins.items():
        rendered.setdefault(_norm(out), []).append(tid)
    entries = {tid: Entry(tid, text, english.lines.get(tid)) for tid, text in english.messages.items()}
    calibrated = kit.print.calibration and kit.print.mode == "home" and kit.print.duplex in ("long", "short")
    for tid in set(entries) - set(kit.catalogs["en"].messages) if calibrated else ():
        entries[tid].places.append(
            "the duplex calibration sheet (pnpkit's own string; a kit catalog may override it)"
        )
    for comp in components:
        for number, page in enumerate(comp.pages, 1):
            if page.bookmark:  # the PDF's outline entry (the component's title)
                for tid in _sources(_norm(page.bookmark), "", rendered, entries):
                    entries[tid].places.append(f"{comp.id}: the PDF bookmark")
            for d in _texts(page.ops, page.face):
                where = f"{comp.id} ({comp.title}), {f'face {d.face}' if d.face else f'page {number}'}"
                for tid in _sources(_norm(d.text), d.text_id, rendered, entries):
                    if where not in entries[tid].places:
                        entries[tid].places.append(where)
                    if entries[tid].picture is None:
                        entries[tid].picture = _picture(page, d)
    return sorted(entries.values(), key=lambda e: (e.line is None, e.line or 0, e.tid))


PICTURE_BAND = 36.0
"""Points of page shown above and below a text drawn on a sheet (not on a face) in its picture."""


def _picture(page: Page, d: Drawn) -> tuple[Page, tuple[float, float, float, float]]:
    """A page and crop that show `d` in context: its face alone, else a band of its page around it."""
    from generator.layout.ops import Page, Place

    if d.place is not None and d.place.clip is not None:
        cx, cy, cw, ch = d.place.clip
        page = Page(cw, ch, [Place(-cx, -cy, d.place.ops, clip=d.place.clip)])
        if d.at is None or ch <= 8 * PICTURE_BAND:  # a card, tile or board half: the whole face
            return page, (0.0, 0.0, 0.0, 0.0)
        d = Drawn(d.face, d.text, d.text_id, None, (d.at[0] - cx, d.at[1] - cy))
    if d.at is None:
        return page, (0.0, 0.0, 0.0, 0.0)
    y = min(max(d.at[1], 0.0), page.height)
    bottom = max(0.0, y - 2 * PICTURE_BAND)  # text runs down from its first line: show more below it
    top = max(0.0, page.height - y - PICTURE_BAND)
    return page, (0.0, bottom, 0.0, top)


def write_pictures(entries: list[Entry], folder: Path, *, dpi: int = 100, fonts: object = None) -> None:
    """Render each entry's picture as folder/NNN-<id>.png (one PDF rasterised for all) and note its file."""
    from generator.render.raster import encode, rasterize

    todo = [e for e in entries if e.picture is not None]
    sizes, crops, pages = [], [], []
    for i, e in enumerate(todo):
        assert e.picture is not None
        page, crop = e.picture
        w = max(page.width - crop[0] - crop[2], 1.0)
        h = max(page.height - crop[1] - crop[3], 1.0)
        pages.append(page)
        crops.append(crop)
        sizes.append((max(1, round(w * dpi / 72)), max(1, round(h * dpi / 72))))
        e.picture_file = f"{i + 1:03d}-{_SAFE_RE.sub('_', e.tid)[:80]}.png"
    folder.mkdir(parents=True, exist_ok=True)
    images = rasterize(pages, sizes, crops, fonts=fonts)  # type: ignore[arg-type]
    for e, image in zip(todo, images, strict=True):
        (folder / e.picture_file).write_bytes(encode(image, "png", dpi=dpi))


def _sources(
    fragment: str, text_id: str, rendered: dict[str, list[str]], entries: dict[str, Entry]
) -> list[str]:
    """The ids a drawn line of text comes from: its own text id, else the strings it is (a part of)."""
    if text_id in entries:
        return [text_id]
    if not fragment:
        return []
    if fragment in rendered:
        return rendered[fragment]
    core = fragment.rstrip("-\u00ad")  # a line broken inside a word
    if len(core) < 6:  # too short to tell one string from another
        return []
    return [tid for out, tids in rendered.items() if core in out for tid in tids]


def _quote(text: str) -> str:
    body = (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\n", "\\n")
        .replace("\t", "\\t")
        .replace("\r", "\\r")
    )
    return f'"{body}"'


def _comment(text: str) -> str:
    return _SPACE_RE.sub(" ", text).strip()


def to_pot(kit: Kit, entries: list[Entry], pictures: str = "pictures") -> str:
    """The .pot text of `entries` (UTF-8, msgid = text id, msgstr empty)."""
    title = kit.catalogs["en"].messages.get(kit.meta.title, kit.meta.id)
    out = [
        f"# Translation template for {_comment(title)} (kit {kit.meta.id}), made by pnpkit i18n extract.",
        "# msgid is a text id; write the translation in msgstr. {{ ... }} are the spec's numbers: keep them.",
        "# Each entry's #. lines give the English text and where it prints (component, face).",
        'msgid ""',
        'msgstr ""',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Language: \\n"',
        '"X-Form-Of-Address: \\n"',
        "",
    ]
    for e in entries:
        out.append(f"#. en: {_comment(e.english)}")
        variables = sorted(set(_VARIABLE_RE.findall(e.english)) - {"plural", "num", "join"})
        if variables:
            out.append(f"#. variables: {', '.join(variables)}")
        if e.places:
            shown = e.places[:MAX_PLACES]
            more = f" and {len(e.places) - MAX_PLACES} more" if len(e.places) > MAX_PLACES else ""
            for place in shown:
                out.append(f"#. prints on: {_comment(place)}")
            if more:
                out.append(f"#. prints on:{more}")
        else:
            out.append(
                "#. prints on: nothing with this kit.yaml (a variant, house rule or option that is off)"
            )
        if e.picture_file:
            out.append(f"#. picture: {pictures}/{e.picture_file}")
        if e.line is not None:
            out.append(f"#: {kit.catalogs['en'].path}:{e.line}")
        out += [f"msgid {_quote(e.tid)}", 'msgstr ""', ""]
    return "\n".join(out)


def write_template(kit: Kit, out: Path, *, pictures: bool = True) -> tuple[Path, list[Entry]]:
    """Write OUT/<kit>/<kit>.pot (and, with `pictures`, OUT/<kit>/pot-pictures/): the template's path and
    entries. Everything is made in a stage beside them and moved in at the end: never a half-written
    template."""
    import os
    import shutil
    import tempfile

    entries = extract(kit)
    folder = out / kit.meta.id
    folder.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=".pnpkit-extract-", dir=folder))
    target = folder / f"{kit.meta.id}.pot"
    try:
        if pictures:
            write_pictures(entries, stage / PICTURES, fonts=kit.fonts)
        (stage / target.name).write_text(to_pot(kit, entries, PICTURES), encoding="utf-8")
        if (folder / PICTURES).exists():
            os.replace(folder / PICTURES, stage / "old")
        if pictures:
            os.replace(stage / PICTURES, folder / PICTURES)
        os.replace(stage / target.name, target)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return target, entries


__all__ = ["PICTURES", "Drawn", "Entry", "extract", "to_pot", "write_pictures", "write_template"]
