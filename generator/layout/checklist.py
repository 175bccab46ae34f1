"""The print checklist: the first page of a kit PDF, telling the player what to print on which paper, how to
turn the sheet, how many sheets it takes and how to cut and fold the pieces. Words come from the catalogs;
the counts come from the sheet map (generator.layout.sheets)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from generator.errors import LayoutError
from generator.layout.ops import Line, Op, Page, Place, Text
from generator.layout.text import wrap
from generator.units import mm, paper_size

TITLE_SIZE: Final = 16.0
HEADING_SIZE: Final = 10.5
BODY_SIZE: Final = 9.5
LEADING: Final = 1.3
_PIECES: Final = re.compile(r"^.* (front|back) \d+$")
_TILED: Final = re.compile(r"^.* sheet \d+$")
_FOLDED: Final = re.compile(r"^.* fold \d+$")


@dataclass(frozen=True)
class ChecklistRow:
    """One line of the sheet table: a part of the kit and the sheets it prints on."""

    name: str
    """the component's title (or the calibration sheet's)"""
    sheets: str
    """its sheets in the kit PDF, e.g. '3-8'"""
    count: int
    """how many sheets of paper"""
    stock: str
    """the paper to print it on"""
    steps: str
    """what to do after printing (cut, trim, fold, glue)"""


def has_fold_lines(pages: Sequence[Page]) -> bool:
    """Whether any page draws a dashed ink line (a fold line) in its pieces."""

    def walk(ops: Sequence[Op] | tuple[Op, ...]) -> bool:
        for op in ops:
            if isinstance(op, Line) and op.dash and op.stroke == "ink":
                return True
            if isinstance(op, Place) and walk(op.ops):
                return True
        return False

    return any(walk(p.ops) for p in pages)


def finishing(pages: Sequence[Page]) -> tuple[str, ...]:
    """What a part's printed pages ask of the player, as catalog keys (print.checklist.do.<key>): 'cut' for
    imposed pieces (pages labelled front/back), 'glue' for a face tiled over several sheets, 'trim' for other
    sheets; then 'fold' when a piece has fold lines. Fold-and-glue pages (`print.duplex: fold`) ask for
    'foldglue' alone: fold each pair along its line, glue, then cut."""
    labels = [p.label for p in pages]
    if any(_FOLDED.match(label) for label in labels):
        return ("foldglue",)
    if any(_PIECES.match(label) for label in labels):
        steps = ["cut"]
    elif any(_TILED.match(label) for label in labels):
        steps = ["glue"]
    else:
        steps = ["trim"]
    if has_fold_lines(pages):
        steps.append("fold")
    return tuple(steps)


def checklist_page(
    paper: str,
    margin: float,
    *,
    title: str,
    intro: Sequence[str],
    table_heading: str,
    columns: tuple[str, str, str, str],
    rows: Sequence[ChecklistRow],
    after_heading: str,
    after: Sequence[str],
    measure: Callable[[str, str, float], float],
) -> Page:
    """One portrait page: the title, the numbered steps of `intro`, a table of parts (name, sheets, paper,
    what to do) and the finishing steps of `after`. Raises LayoutError when it does not fit on one page."""
    page_w, page_h = paper_size(paper, False)
    left = margin + mm(10)
    width = page_w - 2 * left
    y = page_h - margin - mm(12)
    ops: list[Op] = [
        Text(left, y, title, TITLE_SIZE, font="bold", text_id="print.checklist.title", role="heading")
    ]
    y -= TITLE_SIZE * 1.6
    step = BODY_SIZE * LEADING

    def para(
        text: str, text_id: str, x: float, w: float, *, font: str = "regular", size: float = BODY_SIZE
    ) -> None:
        nonlocal y
        for line in wrap(text, font, size, w, measure):
            ops.append(Text(x, y, line, size, font="bold" if font == "bold" else "regular", text_id=text_id))
            y -= size * LEADING

    for i, text in enumerate(intro):
        para(text, f"print.checklist.intro[{i}]", left, width)
        y -= step * 0.4
    y -= step * 0.6
    ops.append(
        Text(
            left, y, table_heading, HEADING_SIZE, font="bold", text_id="print.checklist.parts", role="heading"
        )
    )
    y -= HEADING_SIZE * 1.5
    # columns: part 30 %, sheets 12 %, paper 22 %, steps the rest
    xs = [left, left + width * 0.30, left + width * 0.42, left + width * 0.64]
    ws = [width * 0.29, width * 0.11, width * 0.21, width * 0.36]
    for x, head in zip(xs, columns, strict=True):
        ops.append(Text(x, y, head, BODY_SIZE, font="bold", text_id="print.checklist.column"))
    y -= BODY_SIZE * 0.6
    ops.append(Line(left, y, left + width, y, stroke="ink", width=0.5))
    y -= step
    for row in rows:
        cells = [row.name, f"{row.sheets} ({row.count})", row.stock, row.steps]
        wrapped = [wrap(c, "regular", BODY_SIZE, w, measure) for c, w in zip(cells, ws, strict=True)]
        for x, lines in zip(xs, wrapped, strict=True):
            for k, line in enumerate(lines):
                ops.append(Text(x, y - k * step, line, BODY_SIZE, text_id="print.checklist.row"))
        y -= step * max(len(lines) for lines in wrapped)
        ops.append(Line(left, y + step * 0.6, left + width, y + step * 0.6, stroke="muted", width=0.3))
        y -= step * 0.3
    y -= step * 0.8
    ops.append(
        Text(
            left, y, after_heading, HEADING_SIZE, font="bold", text_id="print.checklist.after", role="heading"
        )
    )
    y -= HEADING_SIZE * 1.5
    for i, text in enumerate(after):
        para(text, f"print.checklist.after[{i}]", left, width)
        y -= step * 0.4
    if y < margin + mm(5):
        raise LayoutError(f"the print checklist does not fit on one {paper} page ({len(rows)} parts)")
    return Page(page_w, page_h, ops, bookmark=title, label="checklist")


__all__ = ["ChecklistRow", "checklist_page", "finishing", "has_fold_lines"]
