"""PDF/A-2b: a written PDF rewritten for archiving (sRGB OutputIntent, XMP metadata declaring PDF/A-2 level B
and agreeing with the document info, no page transitions, no JavaScript), then validated by pikepdf's PDF/A
allowlist validator on the bytes written. Same input, same bytes.

What is validated: everything pikepdf.pdfa checks (it approves only constructs it recognises as conforming:
objects and filters, fonts embedded with consistent widths and encodings, colour spaces against the output
intent, XMP schema and its agreement with the info dictionary, annotations, actions). What is not: veraPDF,
the reference validator, is not available here, so no full ISO 19005-2 conformance run has been made."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from generator.errors import RenderError

FLAVOUR = "2b"


def to_pdfa(path: Path, shown: Path | None = None, art: Mapping[str, str] | None = None) -> None:
    """Rewrite the PDF at `path` as PDF/A-2b (replaced atomically); a RenderError lists the validator's
    findings when the written file does not pass, naming `shown` (the output the user asked for: `path` is a
    staging file of it) rather than `path`. `art`: the form XObjects that hold art, by name -> what to call it
    (the slot and file): a finding inside one says which."""
    try:
        import pikepdf
        from pikepdf import pdfa
    except ImportError as e:
        raise RenderError(
            f"--pdfa needs pikepdf with its PDF/A extras (pip install 'pikepdf[pdfa]>=10.18'): {e}"
        ) from None
    path = Path(path)
    name = Path(shown) if shown is not None else path
    tmp = path.with_name(f".{path.name}.{os.getpid()}.pdfa.part")
    try:
        with pikepdf.open(path) as pdf:
            for (
                page
            ) in pdf.pages:  # ReportLab writes an empty /Trans on every page; PDF/A wants no transitions
                if "/Trans" in page.obj:
                    del page.obj["/Trans"]
            pdfa.prepare(pdf, FLAVOUR)
            with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
                # prepare() stamps the current time; the document's own (invariant) date keeps the bytes
                # reproducible
                meta["xmp:MetadataDate"] = meta["xmp:ModifyDate"]
            kwargs = pdfa.resolve_save_kwargs(FLAVOUR, deterministic_id=True)
            pdf.save(tmp, **kwargs)
        report = pdfa.validate_written(tmp, FLAVOUR, kwargs)
        if not report.passed:
            inside = _art_objects(pikepdf, tmp, art) if art else {}

            def located(f: Any) -> str:
                m = re.match(r"obj (\d+) (\d+)", f.where)
                owner = inside.get((int(m.group(1)), int(m.group(2)))) if m else None
                return f"  {f}" + (f" (in {owner})" if owner else "")

            findings = "\n".join(located(f) for f in report.findings[:20])
            raise RenderError(
                f"{name}: not valid PDF/A-{FLAVOUR} after conversion "
                f"({len(report.findings)} findings):\n{findings}"
            )
        os.replace(tmp, path)
    except OSError as e:
        raise RenderError(f"cannot write {name}: {e.strerror or e}") from e
    finally:
        if tmp.exists():
            tmp.unlink()


_USES = {"Tf": "/Font", "gs": "/ExtGState", "Do": "/XObject", "sh": "/Shading"}
"""Content operators that name a resource, and the resource category the name is looked up in."""


def _art_objects(pikepdf: Any, path: Path, art: Mapping[str, str]) -> dict[tuple[int, int], str]:
    """The objects of the written file (fonts, graphics states, images, shadings and what they hold) that only
    the art form XObjects draw with, by what their content streams name (ReportLab shares one resource
    dictionary between pages and forms), mapped to the art's description (the slot and file)."""
    outside: set[tuple[int, int]] = set()  # drawn with outside any art
    owners: dict[tuple[int, int], list[str]] = {}
    visited: set[tuple[tuple[int, int], str | None]] = set()

    def reach(obj: Any, who: str | None, depth: int = 0) -> None:
        if depth > 16:
            return
        if getattr(obj, "is_indirect", False):
            if (obj.objgen, who) in visited or len(visited) > 200_000:
                return
            visited.add((obj.objgen, who))
            if who is None:
                outside.add(obj.objgen)
            else:
                owners.setdefault(obj.objgen, []).append(who)
        if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
            for key in obj.keys():
                if key not in ("/Parent", "/Resources"):
                    reach(obj[key], who, depth + 1)
        elif isinstance(obj, pikepdf.Array):
            for item in obj:
                reach(item, who, depth + 1)

    seen: set[tuple[tuple[int, int], str | None]] = set()

    def draw(container: Any, resources: Any, who: str | None, depth: int = 0) -> None:
        if resources is None or depth > 8:
            return
        for operands, op in pikepdf.parse_content_stream(container):
            category = _USES.get(str(op))
            if category is None or not operands or category not in resources:
                continue
            used = resources[category].get(operands[0])
            if used is None:
                continue
            if category == "/XObject" and used.get("/Subtype") == "/Form":
                key = (used.objgen, who)
                if key in seen:
                    continue
                seen.add(key)
                name = str(operands[0])[1:].removeprefix("FormXob.")  # ReportLab's prefix of a form's name
                inner = art.get(name, who)
                reach(used, inner)
                draw(used, used.get("/Resources", resources), inner, depth + 1)
            else:
                reach(used, who)

    try:
        with pikepdf.open(path) as pdf:
            for page in pdf.pages:
                draw(page, page.obj.get("/Resources"), None)
    except Exception:  # the findings are reported as they are; naming the art is a courtesy
        return {}
    return {
        objgen: ", ".join(dict.fromkeys(who[:3])) + (" and others" if len(set(who)) > 3 else "")
        for objgen, who in owners.items()
        if objgen not in outside
    }
