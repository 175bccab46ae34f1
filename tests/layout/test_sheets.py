"""The sheet map: every section starts on a front, every back side is the back drawn for its front (same
component, same sheet of it, same item slots), one-sided pages get blank backs -- for every shipped kit, paper
and duplex mode; and the assembled kit PDF follows the map (read back with pikepdf)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from generator.layout.fold import FOLD_LABEL
from generator.layout.marks import MARK_WIDTH
from generator.layout.ops import Line, Page, Place
from generator.layout.sheets import (
    GANG_GAP,
    PageSides,
    SheetSide,
    page_frame,
    page_sides,
    sheet_count,
    sheet_map,
)
from generator.pipeline import build, shipped_kits, with_print
from generator.render.merge import merge_pdfs
from generator.units import mm
from tests.composed import SHARED_PLANS, loaded_kits, planned
from tests.sheetcheck import duplex_problems, fold_problems, guest_problems, kit_guests, kit_sources

ROOT = Path(__file__).resolve().parents[2]
pytestmark = SHARED_PLANS
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


KITS = loaded_kits(shipped_kits())


@pytest.mark.parametrize("duplex", ["long", "short", "none", "fold"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_back_belongs_to_its_front_in_every_shipped_kit(paper: str, duplex: str) -> None:
    plans = planned([with_print(k, {"duplex": duplex}) for k in KITS], paper)
    assert {p.kit.meta.id for p in plans} == {k.meta.id for k in KITS}
    folded = 0
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
            if duplex in ("none", "fold"):
                raise AssertionError(f"{where}: a single-sided kit has a back side on sheet {row.sheet}")
            if not row.component:
                continue
            assert row.component == front.component and row.slots == front.slots, (
                f"{where}: sheet {row.sheet}: back {row.component} {row.slots} "
                f"on front {front.component} {front.slots}"
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
            assert guest_mirror_problems(front, row, parts, duplex) == [], where
        for cid, part in parts.items():
            for page in part.pages or []:
                m = _LABEL.match(page.label)
                if (
                    cid != "calibration" and m and m["side"] == "front" and not page.trim_box
                ):  # a sheet of pieces
                    assert crop_mark_problems(page) == [], f"{where}: {page.label}"
                if FOLD_LABEL.match(page.label):
                    assert fold_problems(page) == [], where
        if duplex == "fold":  # backs print beside their fronts, never on a page of their own
            labels = [p.label for part in parts.values() for p in part.pages or []]
            assert not any((m := _LABEL.match(label)) and m["side"] == "back" for label in labels), where
            folded += any(FOLD_LABEL.match(label) for label in labels)
        # every page of every part is printed exactly once, on its own sheet or ganged onto another's
        printed = sorted((r.component, r.page) for r in sides if r.page is not None)
        printed = sorted(printed + [(g.component, g.page) for r in sides for g in r.guests])
        assert printed == sorted((cid, i) for cid, p in parts.items() for i in range(len(p.pages or []))), (
            where
        )
        if any(r.side == "back" and r.component not in ("", "calibration") for r in sides):  # it prints backs
            assert any(r.component == "calibration" for r in sides), f"{where}: no calibration sheet"
            assert sides[0].component == "checklist" and sides[2].component == "calibration", where
    # every kit with card backs folds them (all but Peak Dice, whose dice and stickers have none)
    assert folded >= (len(KITS) - 1 if duplex == "fold" else 0)


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


def _boxes(page: Page, dy: float) -> list[tuple[str, tuple[float, ...]]]:
    """(face name, its clip box on the sheet) of every face of `page` shifted up by `dy`, sorted."""
    out = []
    for op in page.ops:
        if isinstance(op, Place) and op.name and op.clip is not None:
            cx, cy, cw, ch = op.clip
            assert op.rotate == 0, "ganged pages in the shipped kits are not turned"
            box = (op.x + cx, op.y + cy + dy, op.x + cx + cw, op.y + cy + ch + dy)
            out.append((op.name, tuple(round(v, 2) for v in box)))
    return sorted(out)


def guest_mirror_problems(front: SheetSide, back: SheetSide, parts: dict[str, Any], duplex: str) -> list[str]:
    """Each guest on a sheet's front has its own back page on the sheet's back, and every face of that back
    lands where its front's face lands when the sheet turns over (mirrored across the page, back_offset 0)."""
    problems = []
    if [g.component for g in front.guests] != [g.component for g in back.guests]:
        return [f"sheet {front.sheet}: guests {front.guests} on the front, {back.guests} on the back"]
    for gf, gb in zip(front.guests, back.guests, strict=True):
        if gb.page != gf.page + 1 or gb.slots != gf.slots:
            problems.append(f"sheet {front.sheet}: {gb.component} p{gb.page} backs p{gf.page}")
            continue
        fpage, bpage = parts[gf.component].pages[gf.page], parts[gb.component].pages[gb.page]
        w, h = fpage.width, fpage.height
        mirror_x = (duplex == "long") == (h >= w)
        expected = sorted(
            (
                (w - x1, y0, w - x0, y1) if mirror_x else (x0, h - y1, x1, h - y0)
                for _, (x0, y0, x1, y1) in _boxes(fpage, gf.dy)
            )
        )
        got = sorted(box for _, box in _boxes(bpage, gb.dy))
        if len(expected) != len(got) or any(
            abs(u - v) > 0.05 for e, g in zip(expected, got, strict=True) for u, v in zip(e, g, strict=True)
        ):
            problems.append(f"sheet {front.sheet}: {gb.component} backs do not land behind their fronts")
    return problems


def guests_problems_for(
    got: list[tuple[str, int] | None],
    guests: list[list[tuple[str, int, float]]],
    sides: dict[str, list[PageSides]],
    duplex: str,
) -> list[str]:
    """guest_problems for the pages of a portrait kit PDF printed with `duplex`."""
    return guest_problems(got, guests, sides, duplex=duplex in ("long", "short"), mirror_y=duplex == "short")


@pytest.mark.parametrize(
    ("paper", "duplex"), [("a4", "long"), ("letter", "short"), ("a4", "none"), ("a4", "fold")]
)
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
    assert duplex_problems(got, sides, duplex=duplex in ("long", "short")) == []
    guests = kit_guests(folder / f"kit-{paper}.pdf", parts)
    assert guests_problems_for(got, guests, sides, duplex) == []
    # folded, the token sheets with backs print as fold pages (landscape, never ganged) and the one-sided
    # cloud tokens have no room below the tiles (tests/games/raindrops/test_kit.py::cloud_token_room)
    assert any(guests) == (duplex != "fold"), "Raindrops' token sheets with backs are ganged"
    recorded = [[(g["component"], g["page"], g["dy"]) for g in r.get("guests", [])] for r in record["sheets"]]
    assert [[(c, i) for c, i, _ in row] for row in recorded] == [
        [(c, i) for c, i, _ in row] for row in guests
    ]
    assert all(
        abs(a[2] - b[2]) < 0.01
        for x, y in zip(recorded, guests, strict=True)
        for a, b in zip(x, y, strict=True)
    )
    # the build record's sheet map is the file
    assert isinstance(record, dict)
    assert [None if r["page"] is None else (r["component"], r["page"]) for r in record["sheets"]] == got
    assert (folder / f"calibration-{paper}.pdf").is_file() == (duplex in ("long", "short"))
    # the old assembly, one part after the other, is caught
    joined = tmp_path / "joined.pdf"
    merge_pdfs([p for _, p in parts if p.name != "checklist-" + paper + ".pdf"], joined, title="t", lang="en")
    if duplex in ("long", "short"):
        assert duplex_problems(kit_sources(joined, parts), sides, duplex=True)


def _face_area(page: Page) -> float:
    """Area of the pieces a page prints: its named faces' clip boxes (trim and bleed), in square points."""
    return sum(op.clip[2] * op.clip[3] for op in page.ops if isinstance(op, Place) and op.name and op.clip)


def _lowest(page: Page, dy: float) -> float:
    """The lowest point of a page's pieces and marks, shifted up by `dy`."""
    ys = [op.y + dy + (op.clip[1] if op.clip else 0) for op in page.ops if isinstance(op, Place) and op.name]
    ys += [min(op.y1, op.y2) + dy for op in page.ops if isinstance(op, Line)]
    return min(ys)


def _top(page: Page) -> float:
    """The highest point of a page's pieces and marks."""
    tops = [
        op.y + (op.clip[1] + op.clip[3] if op.clip else 0)
        for op in page.ops
        if isinstance(op, Place) and op.name
    ]
    tops += [max(op.y1, op.y2) for op in page.ops if isinstance(op, Line)]
    return max(tops)


def _stack_lowest(parts: dict[str, list[Page]], sheet: SheetSide) -> float:
    """The lowest point of the pieces and marks a printed sheet side carries, its guests' included."""
    host = parts[sheet.component][sheet.page or 0]
    return min([_lowest(host, 0.0)] + [_lowest(parts[g.component][g.page], g.dy) for g in sheet.guests])


def _floor(page: Page, margin: float, lowest: float) -> float:
    """How low a guest may reach below pieces whose lowest point is `lowest`: the top of the page's check
    ruler where the ruler lies below them (wherever the grid put it), else the printer's margin."""
    ruler = page_frame(page)[1]
    return ruler[3] if ruler is not None and ruler[3] <= lowest + 1e-6 else margin


@pytest.mark.parametrize("duplex", ["long", "none"])
def test_no_sheet_of_pieces_under_40_percent_used_where_another_component_could_fill_it(duplex: str) -> None:
    """A4, English: every sheet of pieces (cards, tiles, tokens) prints on at least 40 % of its printable
    area, unless no other printed sheet of pieces of other components, with the same sidedness, would fit
    whole (its own pieces and those ganged onto it) in the room left below its pieces, above the check ruler
    where that lies below them: a sheet of paper could be saved. Fails on the kit PDFs before gang-up
    (Raindrops' token sheets, 12-22 %)."""
    plans = planned([with_print(k, {"duplex": duplex}) for k in KITS], "a4")
    problems = []
    for plan in plans:
        parts = {p.cid: p.pages or [] for p in plan.parts}
        margin = plan.kit.print.margin
        sides = plan.sheet_map()
        fronts = [
            s
            for s in sides
            if s.side == "front" and s.page is not None and _LABEL.match(parts[s.component][s.page].label)
        ]
        backed = {s.sheet for s in sides if s.side == "back" and s.component}
        for sheet in fronts:
            host = parts[sheet.component][sheet.page]
            if not any(isinstance(op, Place) and op.name for op in host.ops):
                continue  # the calibration sheet
            printable = (host.width - 2 * margin) * (host.height - 2 * margin)
            used = _face_area(host) + sum(_face_area(parts[g.component][g.page]) for g in sheet.guests)
            if used >= 0.4 * printable:
                continue
            lowest = _stack_lowest(parts, sheet)
            room = lowest - _floor(host, margin, lowest)
            for other in fronts:
                page = parts[other.component][other.page]
                if (
                    other is sheet
                    or set(other.components()) & set(sheet.components())
                    or (other.sheet in backed) != (sheet.sheet in backed)
                    or (page.width, page.height) != (host.width, host.height)
                    or not any(isinstance(op, Place) and op.name for op in page.ops)
                ):
                    continue
                if _top(page) - _stack_lowest(parts, other) + GANG_GAP <= room:
                    problems.append(
                        f"{plan.kit.meta.id}: sheet {sheet.sheet} ({sheet.component}) is "
                        f"{used / printable:.0%} used; {other.component} (sheet {other.sheet}) would fit "
                        "below its pieces"
                    )
    assert problems == []


def _pieces(kind: str, sheet: int, slots: int, top: float, height: float, *, ruler: bool = True) -> PageSides:
    """A portrait A4 page of pieces whose pieces and marks span `height` points down from `top`."""
    return PageSides(
        kind,  # type: ignore[arg-type]
        sheet,
        tuple(range(slots)),
        (595.28, 841.89),
        (30.0, top - height, 565.0, top),
        (209.0, 14.17, 385.0, 23.2) if ruler else None,
    )


def test_gang_up_puts_a_later_sheet_below_the_pieces_of_an_earlier_one() -> None:
    margin = mm(5)
    tiles = [_pieces("front", 1, 20, 820.0, 200.0), _pieces("back", 1, 20, 820.0, 200.0)]
    tokens = [_pieces("front", 1, 10, 820.0, 150.0), _pieces("back", 1, 10, 820.0, 150.0)]
    big = [_pieces("front", 1, 30, 820.0, 500.0), _pieces("back", 1, 30, 820.0, 500.0)]
    board = [PageSides("single", 1, ())]
    single = [_pieces("front", 1, 4, 820.0, 100.0)]  # pieces without backs: another sidedness
    parts = [("tiles", tiles), ("board", board), ("tokens", tokens), ("big", big), ("single", single)]
    plain = sheet_map(parts, duplex=True)
    ganged = sheet_map(parts, duplex=True, gang_margin=margin)
    assert sheet_count(plain) == 5 and sheet_count(ganged) == 4
    front, back = ganged[0], ganged[1]
    assert (front.component, [g.component for g in front.guests]) == ("tiles", ["tokens"])
    # the guest's top sits GANG_GAP below the host's pieces; its back moves the same way (long edge)
    assert front.guests[0].dy == pytest.approx(620.0 - GANG_GAP - 820.0)
    assert (back.guests[0].page, back.guests[0].dy, back.guests[0].slots) == (
        1,
        front.guests[0].dy,
        tuple(range(10)),
    )
    # too tall for the room left, and a sheet without backs: each on a sheet of its own
    assert [s.component for s in ganged if s.side == "front"] == ["tiles", "board", "big", "single"]
    # short edge: the back is mirrored top to bottom, so the guest's back moves the other way
    short = sheet_map(parts, duplex=True, gang_margin=margin, short_edge=True)
    assert short[1].guests[0].dy == pytest.approx(-short[0].guests[0].dy)
    # the same input, the same map
    assert sheet_map(parts, duplex=True, gang_margin=margin) == ganged


def test_gang_up_keeps_clear_of_the_check_ruler_and_the_margin() -> None:
    low_ruler = [_pieces("front", 1, 5, 820.0, 300.0)]
    tokens = [_pieces("front", 1, 5, 820.0, 490.0, ruler=False)]
    # 820 - 300 - GANG_GAP - 490 = 18.7 pt: above the margin (14.2 pt), but the ruler (to 23.2 pt) is there
    assert not sheet_map([("a", low_ruler), ("b", tokens)], duplex=False, gang_margin=mm(5))[0].guests
    no_ruler = [_pieces("front", 1, 5, 820.0, 300.0, ruler=False)]
    assert sheet_map([("a", no_ruler), ("b", tokens)], duplex=False, gang_margin=mm(5))[0].guests
    assert not sheet_map([("a", no_ruler), ("b", tokens)], duplex=False, gang_margin=mm(12))[0].guests
