"""The sheet map: every section starts on a front, every back side is the back drawn for its front (same
component, same sheet of it, same item slots), one-sided pages get blank backs -- for every shipped kit, paper
and duplex mode; and the assembled kit PDF follows the map (read back with pikepdf)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from generator.layout.marks import MARK_WIDTH
from generator.layout.ops import Line, Page, Place
from generator.layout.sheets import PageSides, page_sides, sheet_count, sheet_map
from generator.pipeline import build, load_kits, plan_incremental, shipped_kits, with_print
from generator.render.fonts import text_width
from generator.render.merge import merge_pdfs
from generator.units import mm
from tests.sheetcheck import duplex_problems, kit_sources

ROOT = Path(__file__).resolve().parents[2]
_LABEL = re.compile(r"^(?P<name>.*) (?P<side>front|back) (?P<n>\d+)$")


def _face(name: str) -> Place:
    return Place(0.0, 0.0, (), name=name)


def test_page_sides_reads_fronts_backs_and_single_pages() -> None:
    pages = [
        Page(10, 10, [_face("a"), _face("b")], label="deck front 1"),
        Page(10, 10, [_face("x"), _face("x")], label="deck back 1"),
        Page(10, 10, [_face("c")], label="deck front 2"),
        Page(10, 10, [_face("x")], label="deck back 2"),
        Page(10, 10, [_face("s")], label="rules 1"),
    ]
    assert page_sides(pages) == [
        PageSides("front", 1, (0, 1)),
        PageSides("back", 1, (0, 1)),
        PageSides("front", 2, (2,)),
        PageSides("back", 2, (2,)),
        PageSides("single", 1, (3,)),
    ]


def test_a_one_sided_page_gets_a_blank_back_and_the_next_part_a_new_sheet() -> None:
    one = [PageSides("single", 1, (0,))]
    deck = [PageSides("front", 1, (0, 1)), PageSides("back", 1, (0, 1))]
    tokens = [PageSides("front", 1, (0,))]  # a front whose back was not drawn (no backs)
    sides = sheet_map([("board", one), ("deck", deck), ("tokens", tokens)], duplex=True)
    assert [(s.sheet, s.side, s.component, s.page) for s in sides] == [
        (1, "front", "board", 0),
        (1, "back", "", None),
        (2, "front", "deck", 0),
        (2, "back", "deck", 1),
        (3, "front", "tokens", 0),
        (3, "back", "", None),
    ]
    assert sheet_count(sides) == 3
    flat = sheet_map([("board", one), ("tokens", tokens)], duplex=False)
    assert [(s.sheet, s.side) for s in flat] == [(1, "front"), (2, "front")]


KITS = load_kits(shipped_kits())


@pytest.mark.parametrize("duplex", ["long", "short", "none"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_back_belongs_to_its_front_in_every_shipped_kit(paper: str, duplex: str) -> None:
    plans = plan_incremental(
        [with_print(k, {"duplex": duplex}) for k in KITS],
        out=Path("/nonexistent"),
        langs=["en"],
        paper=paper,
        seed=None,
        png=False,
        pdfa=False,
        force=True,
        measure=text_width,
        warn=lambda _: None,
    )
    assert {p.kit.meta.id for p in plans} == {k.meta.id for k in KITS}
    for plan in plans:
        where = f"{plan.kit.meta.id} {paper} {duplex}"
        parts = {p.cid: p for p in plan.parts}
        sides = plan.sheet_map()
        seen: set[str] = set()
        for k, row in enumerate(sides):
            if row.component and row.component not in seen:
                seen.add(row.component)
                assert row.side == "front", f"{where}: {row.component} starts on a back"
            if row.side == "front":
                assert row.component, f"{where}: sheet {row.sheet} has a blank front"
                continue
            front = sides[k - 1]
            assert front.sheet == row.sheet and front.side == "front", where
            if duplex == "none":
                raise AssertionError(f"{where}: a single-sided kit has a back side on sheet {row.sheet}")
            if not row.component:
                continue
            assert row.component == front.component and row.slots == front.slots, (
                f"{where}: sheet {row.sheet}: back {row.component} {row.slots} on front {front.component} "
                f"{front.slots}"
            )
            pages = parts[row.component].pages
            assert pages is not None and row.page is not None and front.page is not None
            f_label, b_label = _LABEL.match(pages[front.page].label), _LABEL.match(pages[row.page].label)
            assert f_label and b_label, (pages[front.page].label, pages[row.page].label)
            assert (f_label["side"], b_label["side"]) == ("front", "back"), where
            assert f_label["n"] == b_label["n"], (
                f"{where}: {pages[front.page].label} backed by {pages[row.page].label}"
            )
            named = [op.name for op in pages[row.page].ops if isinstance(op, Place) and op.name]
            assert len(named) == len(row.slots), where
        for cid, part in parts.items():
            for page in part.pages or []:
                m = _LABEL.match(page.label)
                if (
                    cid != "calibration" and m and m["side"] == "front" and not page.trim_box
                ):  # a sheet of pieces
                    assert crop_mark_problems(page) == [], f"{where}: {page.label}"
        # every page of every part is printed exactly once
        printed = sorted((r.component, r.page) for r in sides if r.page is not None)
        assert printed == sorted((cid, i) for cid, p in parts.items() for i in range(len(p.pages or []))), (
            where
        )
        if any(r.side == "back" and r.component not in ("", "calibration") for r in sides):  # it prints backs
            assert any(r.component == "calibration" for r in sides), f"{where}: no calibration sheet"
            assert sides[0].component == "checklist" and sides[2].component == "calibration", where


def crop_mark_problems(page: Page) -> list[str]:
    """Cut lines of a sheet of pieces that lack a crop mark at either end: every vertical cut needs a mark
    above and below the pieces, every horizontal cut one left and right, each at least 2 mm long."""
    marks = [op for op in page.ops if isinstance(op, Line) and op.stroke == "cut" and op.width == MARK_WIDTH]
    vertical: dict[float, list[Line]] = {}
    horizontal: dict[float, list[Line]] = {}
    for m in marks:
        if abs(m.x1 - m.x2) < 1e-6:
            vertical.setdefault(round(m.x1, 3), []).append(m)
        else:
            horizontal.setdefault(round(m.y1, 3), []).append(m)
    problems = []
    if len(vertical) < 2 or len(horizontal) < 2:
        problems.append(f"{len(vertical)} vertical and {len(horizontal)} horizontal cuts marked")
    for name, cuts, along in (
        ("vertical", vertical, lambda m: (m.y1, m.y2)),
        ("horizontal", horizontal, lambda m: (m.x1, m.x2)),
    ):
        centres = [sum(along(m)) / 2 for ms in cuts.values() for m in ms]
        if not centres:
            continue
        middle = (min(centres) + max(centres)) / 2  # the marks before the pieces and those after them
        for at, ms in sorted(cuts.items()):
            long_enough = [m for m in ms if abs(along(m)[1] - along(m)[0]) >= mm(2) - 1e-6]
            before = any(sum(along(m)) / 2 < middle for m in long_enough)
            after = any(sum(along(m)) / 2 > middle for m in long_enough)
            if not (before and after):
                problems.append(
                    f"{name} cut at {at}: marks {[tuple(round(v, 1) for v in along(m)) for m in ms]}"
                )
    return problems


def _parts_and_sides(
    folder: Path, kit_pdf: str
) -> tuple[list[tuple[str, Path]], dict[str, list[PageSides]], dict[str, object]]:
    from generator.layout.sheets import sides_from_json

    entries = json.loads((folder / ".pnpkit" / "build.json").read_text(encoding="utf-8"))["entries"]
    parts: list[tuple[str, Path]] = []
    sides: dict[str, list[PageSides]] = {}
    for name, entry in sorted(entries.items()):
        if "sides" not in entry:
            continue
        cid = Path(name).name.rsplit("-", 1)[0]
        parts.append((cid, folder / name))
        got = sides_from_json(entry["sides"])
        assert got is not None
        sides[cid] = got
    return parts, sides, entries[kit_pdf]


@pytest.mark.parametrize(("paper", "duplex"), [("a4", "long"), ("letter", "short"), ("a4", "none")])
def test_the_assembled_kit_pdf_prints_each_back_behind_its_front(
    tmp_path: Path, paper: str, duplex: str
) -> None:
    build(
        [ROOT / "layouts" / "raindrops"],
        out=tmp_path,
        langs=["en"],
        paper=paper,
        print_overrides={"duplex": duplex},
    )
    folder = tmp_path / "raindrops" / "en"
    parts, sides, record = _parts_and_sides(folder, f"kit-{paper}.pdf")
    got = kit_sources(folder / f"kit-{paper}.pdf", parts)
    assert duplex_problems(got, sides, duplex=duplex != "none") == []
    # the build record's sheet map is the file
    assert isinstance(record, dict)
    assert [None if r["page"] is None else (r["component"], r["page"]) for r in record["sheets"]] == got
    assert (folder / f"calibration-{paper}.pdf").is_file() == (duplex != "none")
    # the old assembly, one part after the other, is caught
    joined = tmp_path / "joined.pdf"
    merge_pdfs([p for _, p in parts if p.name != "checklist-" + paper + ".pdf"], joined, title="t", lang="en")
    if duplex != "none":
        assert duplex_problems(kit_sources(joined, parts), sides, duplex=True)
