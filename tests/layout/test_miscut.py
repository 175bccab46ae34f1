"""Cuts that forgive a miscut: on every sheet of every shipped card and tile component (the kits in layouts/
and the examples in docs/examples/), front and back, a cut 1 mm off any cut line shows only the piece's own
colour -- no strip of the neighbour's, no white paper where the piece is coloured. Checked on pixels: the
sheet is drawn to PDF and rasterised with pypdfium2 at 100 dpi."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.layout.ops import Page, Place
from generator.pipeline import shipped_kits
from tests.composed import SHARED_PLANS, loaded_kits, planned
from tests.sheetcheck import _piece_cells, miscut_problems

ROOT = Path(__file__).resolve().parents[2]
pytestmark = SHARED_PLANS
EXAMPLES = sorted(p for p in (ROOT / "docs" / "examples").iterdir() if (p / "kit.yaml").is_file())
_FRONT = re.compile(r" front (\d+)$")
Sheet = tuple[str, list[tuple[Page, Page | None]], object]


def _sheets(paths: list[Path], paper: str) -> list[Sheet]:
    """(where, every front page with its back page or None, the kit's fonts) of every card and tile
    component."""
    plans = planned(loaded_kits(paths), paper)
    out = []
    for plan in plans:
        for part in plan.parts:
            pages = part.pages or []
            if part.cid == "calibration" or not pages or not _FRONT.search(pages[0].label):
                continue
            sheets: list[tuple[Page, Page | None]] = []
            for i, page in enumerate(pages):
                if m := _FRONT.search(page.label):
                    after = pages[i + 1] if i + 1 < len(pages) else None
                    is_back = after is not None and after.label.endswith(f" back {m[1]}")
                    sheets.append((page, after if is_back else None))
            out.append((f"{plan.kit.meta.id}/{part.cid}", sheets, plan.kit.fonts))
    return out


def _back_cells(front: Page, back: Page) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The cells of the back page: the front's cells mirrored across the flip axis (the one under which
    every back lands in a cell)."""
    cells = [box for _, box in _piece_cells(front)]
    w, h = front.width, front.height
    names = [op.name for op in back.ops if isinstance(op, Place) and op.name]
    for mirrored in (
        [(w - x1, y0, w - x0, y1) for x0, y0, x1, y1 in cells],
        [(x0, h - y1, x1, h - y0) for x0, y0, x1, y1 in cells],
    ):
        places = [op for op in back.ops if isinstance(op, Place) and op.name]
        corners = [(op.x - 0.01 if op.rotate == 90 else op.x + 0.01, op.y + 0.01) for op in places]
        if all(any(x0 <= cx <= x1 and y0 <= cy <= y1 for x0, y0, x1, y1 in mirrored) for cx, cy in corners):
            return [(n, box) for n, box in zip(names, mirrored, strict=False)]
    raise AssertionError(f"{back.label}: the backs sit in no mirrored cell of the front")


KITS = [*shipped_kits(), *EXAMPLES]
"""Composed by the test of each kit, not when the module is collected (that took every xdist worker 6 CPU-s
before its first test)."""
NO_CUT_PIECES = {"layouts/peak_dice"}
"""Kits with no card or tile component (score pads only): nothing of theirs is checked here."""


@pytest.mark.parametrize("kit", KITS, ids=[str(k.relative_to(ROOT)) for k in KITS])
def test_a_cut_1mm_off_any_line_shows_only_the_pieces_own_colour(tmp_path: Path, kit: Path) -> None:
    components = _sheets([kit], "a4")
    assert bool(components) != (str(kit.relative_to(ROOT)) in NO_CUT_PIECES), [c[0] for c in components]
    problems: list[str] = []
    # a sheet drawn exactly as one already checked (the full sheets of a deck's backs, of a run of like
    # tiles) shows what that one showed: each drawing is rastered and read once
    seen: list[tuple[object, ...]] = []
    for where, sheets, fonts in components:
        for front, back in sheets:
            if _first((front.width, front.height, front.ops, fonts, None), seen):
                problems += [f"{where}: {p}" for p in miscut_problems(front, tmp_path, fonts=fonts)]
            if back is not None:
                cells = _back_cells(front, back)
                if _first((back.width, back.height, back.ops, fonts, cells), seen):
                    problems += [
                        f"{where}: {p}" for p in miscut_problems(back, tmp_path, fonts=fonts, cells=cells)
                    ]
    assert problems == [], "\n".join(problems[:12])


def _first(drawing: tuple[object, ...], seen: list[tuple[object, ...]]) -> bool:
    """Whether `drawing` (page size, ops, fonts, cells) is none of those `seen` (compared by value); it is
    then added to them."""
    if any(drawing == other for other in seen):
        return False
    seen.append(drawing)
    return True
