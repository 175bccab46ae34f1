"""The pages pnpkit adds to a home kit in its language: the duplex calibration sheet and the print checklist,
counted from the kit's sheet map (its opening lines are also the build summary's lines for the kit)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where used
    from generator.i18n.texts import Texts
    from generator.layout.ops import Page
    from generator.pipeline.compose import Part
    from generator.spec.kit import Kit

CALIBRATION = "calibration"
"""The part id of the duplex calibration sheet: written as calibration-<paper>.pdf beside the kit PDF (and
put right after the checklist in it, so it is printed first)."""
CHECKLIST = "checklist"
"""The part id of the print checklist, the kit PDF's first page: kept as a PDF in the folder's .pnpkit/
(beside the build record) so the kit PDF can be reassembled without drawing it again."""
TOOL_PARTS = (CHECKLIST, CALIBRATION)
"""Parts pnpkit adds to every kit (not components of the kit.yaml)."""


def calibration(
    kit: Kit, texts: Texts, paper: str, measure: Callable[[str, str, float], float]
) -> list[Page]:
    """The duplex calibration sheet in the kit's language."""
    from generator.layout.imposition import calibration_pages
    from generator.layout.text import wrap
    from generator.units import paper_size

    width = paper_size(paper)[0] - 2 * kit.print.margin - 40
    flip = texts(f"print.flip.{'short' if kit.print.duplex == 'short' else 'long'}")
    lines: list[str] = []
    for i in (1, 2, 3):
        lines += wrap(texts(f"print.calibration.step{i}", flip=flip), "regular", 9, width, measure)
    return calibration_pages(kit.print, paper, title=texts("print.calibration.title"), instructions=lines)


def sheet_span(sheets: Sequence[int]) -> str:
    """Sheet numbers as the checklist writes them, runs joined: [3, 5, 6, 7] -> '3, 5-7'."""
    runs: list[list[int]] = []
    for n in sorted(sheets):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}" if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def sheet_options(kit: Kit) -> dict[str, Any]:
    """How the kit's sheet map is laid (generator.layout.sheets.sheet_map): duplex or not, gang-up (home
    mode, `print.gang_up`) and the flip edge."""
    return {
        "duplex": kit.print.duplex in ("long", "short"),
        "gang_margin": kit.print.margin if kit.print.gang_up and kit.print.mode == "home" else None,
        "short_edge": kit.print.duplex == "short",
    }


def checklist_summary(
    kit: Kit, texts: Texts, paper: str, sheets: int, calibration_sheet: int | None
) -> list[str]:
    """The print checklist's opening steps (also the build summary's lines for this kit and language)."""
    duplex = kit.print.duplex if kit.print.mode == "home" else "none"
    lines = [
        texts(
            "print.checklist.print",
            file=f"kit-{paper}.pdf",
            paper=paper.upper() if paper != "letter" else "Letter",
            sheets=sheets,
        ),
        texts(f"print.checklist.duplex.{duplex}"),
    ]
    if calibration_sheet is not None:
        lines.append(
            texts("print.checklist.calibration", sheet=calibration_sheet, file=f"calibration-{paper}.pdf")
        )
    if kit.print.ruler:
        lines.append(texts("print.checklist.ruler"))
    return lines


def checklist(
    kit: Kit, texts: Texts, paper: str, measure: Callable[[str, str, float], float], parts: Sequence[Part]
) -> tuple[list[Page], list[str]]:
    """The print checklist page in the kit's language, counted from the sheet map of `parts` (the checklist
    itself is one one-sided page), and its opening lines for the build summary."""
    from generator.layout.checklist import ChecklistRow, checklist_page
    from generator.layout.sheets import PageSides, sheet_count, sheet_map

    sides = [(p.cid, [PageSides("single", 1, ())] if p.cid == CHECKLIST else p.sides()) for p in parts]
    sheets = sheet_map(sides, **sheet_options(kit))
    rows: list[ChecklistRow] = []
    calibration_sheet: int | None = None
    for p in parts:
        mine = sorted({s.sheet for s in sheets if p.cid in s.components()})
        if p.cid == CHECKLIST or not mine:
            continue
        span = sheet_span(mine)
        if p.cid == CALIBRATION:
            calibration_sheet = mine[0]
            rows.append(
                ChecklistRow(
                    texts("print.calibration.title"),
                    span,
                    len(mine),
                    texts("print.checklist.stock.plain"),
                    texts("print.checklist.do.calibration"),
                )
            )
            continue
        finish = p.record.get("finish", [])
        steps = "; ".join(texts(f"print.checklist.do.{f}") for f in finish)
        stock = texts("print.checklist.stock.card" if "cut" in finish else "print.checklist.stock.plain")
        rows.append(ChecklistRow(texts(kit.components[p.cid].title), span, len(mine), stock, steps))
    intro = checklist_summary(kit, texts, paper, sheet_count(sheets), calibration_sheet)
    after = [texts("print.checklist.cut1"), texts("print.checklist.cut2"), texts("print.checklist.cut3")]
    if any(s.guests for s in sheets):  # gang-up: parts sharing a sheet are cut apart before their own lines
        after.insert(0, texts("print.checklist.cut.gang"))
    columns = (
        texts("print.checklist.col.part"),
        texts("print.checklist.col.sheets"),
        texts("print.checklist.col.paper"),
        texts("print.checklist.col.steps"),
    )
    return [
        checklist_page(
            paper,
            kit.print.margin,
            title=texts("print.checklist.title"),
            intro=intro,
            table_heading=texts("print.checklist.parts"),
            columns=columns,
            rows=rows,
            after_heading=texts("print.checklist.after"),
            after=after,
            measure=measure,
        )
    ], intro


__all__ = [
    "CALIBRATION",
    "CHECKLIST",
    "TOOL_PARTS",
    "calibration",
    "checklist",
    "checklist_summary",
    "sheet_options",
    "sheet_span",
]
