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
from typing import TYPE_CHECKING

from generator.build.compose import compose_one, kit_measure, print_data
from generator.build.load import with_tool_catalogs

if TYPE_CHECKING:
    from generator.layout.ops import Op
    from generator.spec.kit import Kit

MAX_PLACES = 8
"""How many (component, face) places one entry lists before it says how many more."""
_VARIABLE_RE = re.compile(r"\{\{-?\s*([A-Za-z_][A-Za-z0-9_]*)")
_SPACE_RE = re.compile(r"\s+")


@dataclass
class Entry:
    """One text id of the template: its English text, catalog line and where it prints."""

    tid: str
    english: str
    line: int | None
    places: list[str] = field(default_factory=list)


def _texts(ops: Iterable[Op], face: str) -> Iterable[tuple[str, str, str]]:
    """(face, text, text_id) of every text op, with the name of the innermost named face around it."""
    from generator.layout.ops import Place, Text

    for op in ops:
        if isinstance(op, Place):
            yield from _texts(op.ops, op.name or face)
        elif isinstance(op, Text):
            yield face, op.text, op.text_id


def _norm(text: str) -> str:
    return _SPACE_RE.sub(" ", text).strip()


def extract(kit: Kit, *, paper: str | None = None) -> list[Entry]:
    """Every English text id of `kit` (its catalog and pnpkit's own strings), with the places it prints."""
    from generator.render.fonts import text_width

    catalogs = with_tool_catalogs(kit)
    english = catalogs["en"]
    seed = kit.meta.seed
    components, texts = compose_one(kit, "en", paper or kit.print.paper, seed, print_data(kit, seed),
                                    kit_measure(kit, text_width), lambda _: None)
    rendered: dict[str, list[str]] = {}  # a string handed out -> the ids that gave it
    for out, (_, _, tid) in texts.origins.items():
        rendered.setdefault(_norm(out), []).append(tid)
    entries = {tid: Entry(tid, text, english.lines.get(tid)) for tid, text in english.messages.items()}
    calibrated = kit.print.calibration and kit.print.mode == "home" and kit.print.duplex != "none"
    for tid in set(entries) - set(kit.catalogs["en"].messages) if calibrated else ():
        entries[tid].places.append("the duplex calibration sheet (pnpkit's own string; a kit catalog may override it)")
    for comp in components:
        for number, page in enumerate(comp.pages, 1):
            if page.bookmark:  # the PDF's outline entry (the component's title)
                for tid in _sources(_norm(page.bookmark), "", rendered, entries):
                    entries[tid].places.append(f"{comp.id}: the PDF bookmark")
            for face, text, text_id in _texts(page.ops, page.face):
                where = f"{comp.id} ({comp.title}), {f'face {face}' if face else f'page {number}'}"
                for tid in _sources(_norm(text), text_id, rendered, entries):
                    if where not in entries[tid].places:
                        entries[tid].places.append(where)
    return sorted(entries.values(), key=lambda e: (e.line is None, e.line or 0, e.tid))


def _sources(fragment: str, text_id: str, rendered: dict[str, list[str]], entries: dict[str, Entry]) -> list[str]:
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
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
    return f'"{body}"'


def _comment(text: str) -> str:
    return _SPACE_RE.sub(" ", text).strip()


def to_pot(kit: Kit, entries: list[Entry]) -> str:
    """The .pot text of `entries` (UTF-8, msgid = text id, msgstr empty)."""
    title = kit.catalogs["en"].messages.get(kit.meta.title, kit.meta.id)
    out = [f"# Translation template for {_comment(title)} (kit {kit.meta.id}), made by pnpkit i18n extract.",
           "# msgid is a text id; write the translation in msgstr. {{ ... }} are the spec's numbers: keep them.",
           "# Each entry's #. lines give the English text and where it prints (component, face).",
           'msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', '"Language: \\n"',
           '"X-Form-Of-Address: \\n"', ""]
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
            out.append("#. prints on: nothing with this kit.yaml (a variant, house rule or option that is off)")
        if e.line is not None:
            out.append(f"#: {kit.catalogs['en'].path}:{e.line}")
        out += [f"msgid {_quote(e.tid)}", 'msgstr ""', ""]
    return "\n".join(out)


__all__ = ["Entry", "extract", "to_pot"]
