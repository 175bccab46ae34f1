"""PDF/A-2b: a written PDF rewritten for archiving (sRGB OutputIntent, XMP metadata declaring PDF/A-2 level B
and agreeing with the document info, no page transitions, no JavaScript), then validated by pikepdf's PDF/A
allowlist validator on the bytes written. Same input, same bytes.

What is validated: everything pikepdf.pdfa checks (it approves only constructs it recognises as conforming:
objects and filters, fonts embedded with consistent widths and encodings, colour spaces against the output
intent, XMP schema and its agreement with the info dictionary, annotations, actions). What is not: veraPDF,
the reference validator, is not available here, so no full ISO 19005-2 conformance run has been made."""

from __future__ import annotations

import os
from pathlib import Path

from generator.errors import RenderError

FLAVOUR = "2b"


def to_pdfa(path: Path, shown: Path | None = None) -> None:
    """Rewrite the PDF at `path` as PDF/A-2b (replaced atomically); a RenderError lists the validator's findings
    when the written file does not pass, naming `shown` (the output the user asked for: `path` is a staging
    file of it) rather than `path`."""
    try:
        import pikepdf
        from pikepdf import pdfa
    except ImportError as e:
        raise RenderError(f"--pdfa needs pikepdf with its PDF/A extras (pip install 'pikepdf[pdfa]>=10.18'): {e}") from None
    path = Path(path)
    name = Path(shown) if shown is not None else path
    tmp = path.with_name(f".{path.name}.{os.getpid()}.pdfa.part")
    try:
        with pikepdf.open(path) as pdf:
            for page in pdf.pages:  # ReportLab writes an empty /Trans on every page; PDF/A wants no transitions
                if "/Trans" in page.obj:
                    del page.obj["/Trans"]
            pdfa.prepare(pdf, FLAVOUR)
            with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
                # prepare() stamps the current time; the document's own (invariant) date keeps bytes reproducible
                meta["xmp:MetadataDate"] = meta["xmp:ModifyDate"]
            kwargs = pdfa.resolve_save_kwargs(FLAVOUR, deterministic_id=True)
            pdf.save(tmp, **kwargs)
        report = pdfa.validate_written(tmp, FLAVOUR, kwargs)
        if not report.passed:
            findings = "\n".join(f"  {f}" for f in report.findings[:20])
            raise RenderError(f"{name}: not valid PDF/A-{FLAVOUR} after conversion ({len(report.findings)} findings):\n{findings}")
        os.replace(tmp, path)
    except OSError as e:
        raise RenderError(f"cannot write {name}: {e.strerror or e}") from e
    finally:
        if tmp.exists():
            tmp.unlink()
