"""The safe area holds for every piece kind, badges included: on every card, tile and token of the shipped
kits (en and de), every badge (a filled circle a string is printed on) lies inside the piece's safe area and
its string keeps a fifth of the radius from the ring; every string keeps the safe area too. Measured here
from the drawing ops with the font metrics (independently of the check's own code), and the check itself is
shown to catch each case."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import pytest

from generator.errors import LayoutError
from generator.layout.collide import check_collisions, crowded_badges, crowded_cells, safe_inset
from generator.layout.compose import Component
from generator.layout.geometry import drawn
from generator.layout.ops import Circle, Op, Page, Place, Rect, Text
from generator.layout.textfit import _apply_box, text_box
from generator.render.fonts import ink_extent, text_width
from generator.units import mm
from tests.composed import SHARED_PLANS, composed_parts

ROOT = Path(__file__).resolve().parents[2]
pytestmark = SHARED_PLANS
LANGS = ["en", "de", "fr", "es", "ja"]
Box = tuple[float, float, float, float]


def _pieces(kit: str, lang: str) -> list[tuple[str, Place]]:
    """(component, Place) of every distinct piece face a kit prints (faces with a trim: cards, tiles,
    tokens)."""
    parts = composed_parts(ROOT / "layouts" / kit, lang)
    seen: set[int] = set()
    out = []
    for part in parts.values():
        for page in part.pages or []:
            for op in page.ops:
                if isinstance(op, Place) and op.name and op.clip is not None and id(op.ops) not in seen:
                    seen.add(id(op.ops))
                    out.append((part.cid, op))
    return out


def _trim(place: Place) -> Box:
    x, y, w, h = place.trim if place.trim is not None else place.clip  # type: ignore[misc]
    return x, y, x + w, y + h


def badge_room(place: Place) -> list[tuple[str, float, float, float]]:
    """(string, room from the badge's ring to the string's farthest corner, room from the badge to the
    trim, the badge's radius) for every string printed on a filled circle of the piece, in points."""
    items = drawn(place.ops, text_width)
    x0, y0, x1, y1 = _trim(place)
    out = []
    for d in items:
        if not isinstance(d.op, Text) or not d.op.text.strip():
            continue
        box = _apply_box(d.matrix, text_box(d.op, text_width, lean=False))
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        circles = [
            (e, e.box)
            for e in items[: d.order]
            if isinstance(e.op, Circle)
            and e.op.fill
            and not e.backdrop
            and e.box[0] <= cx <= e.box[2]
            and e.box[1] <= cy <= e.box[3]
        ]
        if not circles:
            continue
        e, (bx0, by0, bx1, by1) = circles[-1]
        r = (bx1 - bx0) / 2
        ox, oy = (bx0 + bx1) / 2, (by0 + by1) / 2
        far = max(math.hypot(px - ox, py - oy) for px in (box[0], box[2]) for py in (box[1], box[3]))
        out.append((d.op.text, r - far, min(bx0 - x0, by0 - y0, x1 - bx1, y1 - by1), r))
    return out


def string_room(place: Place) -> list[tuple[str, float]]:
    """(string, room from its glyph box to the nearest trim edge) for every string of the piece."""
    x0, y0, x1, y1 = _trim(place)
    out = []
    for d in drawn(place.ops, text_width):
        if isinstance(d.op, Text) and d.op.text.strip():
            b = _apply_box(d.matrix, text_box(d.op, text_width))
            out.append((d.op.text, min(b[0] - x0, b[1] - y0, x1 - b[2], y1 - b[3])))
    return out


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("kit", ["raindrops", "ripple_rush", "rummy_cards", "harvest_deck", "sprout_sheet"])
def test_badges_and_strings_keep_the_safe_area_on_every_piece(kit: str, lang: str) -> None:
    problems = []
    for cid, place in _pieces(kit, lang):
        x0, y0, x1, y1 = _trim(place)
        inset = safe_inset(x1 - x0, y1 - y0, mm(3))
        for text, ring, edge, r in badge_room(place):
            if edge < inset - 0.3:
                problems.append(f"{cid} {place.name} {text!r}: badge {edge / mm(1):.2f} mm from the cut")
            if ring < max(mm(0.5), 0.2 * r) - 0.3:
                problems.append(f"{cid} {place.name} {text!r}: {ring / mm(1):.2f} mm from its badge's ring")
        for text, room in string_room(place):
            if room < min(inset, mm(1.5)) - 0.3:
                problems.append(f"{cid} {place.name} {text!r}: {room / mm(1):.2f} mm from the cut")
    assert problems == [], "\n".join(sorted(set(problems))[:20])


def _piece(*ops: Op) -> tuple[Op, ...]:
    return (Rect(-9, -9, 75, 75, fill="#fcead1", stroke=None), *ops)


TRIM = (0.0, 0.0, mm(20), mm(20))


def test_the_check_refuses_a_badge_against_the_cut() -> None:
    ops = _piece(Circle(mm(16), mm(16), mm(3), fill="#ffffff"), Text(mm(16), mm(15), "1", 9, anchor="middle"))
    (problem,) = crowded_badges(ops, TRIM, mm(3), text_width)
    assert problem[1] == ("the face's safe area (1.7 mm inside the trim): its badge reaches 0.8 mm past it")


def test_the_check_refuses_digits_filling_their_badge() -> None:
    ops = _piece(
        Circle(mm(10), mm(10), mm(3), fill="#ffd23f"), Text(mm(10), mm(9), "+3", 17, anchor="middle")
    )
    (problem,) = crowded_badges(ops, TRIM, mm(3), text_width)
    assert problem[1].startswith("its badge's ring: ") and problem[1].endswith("keep 0.6 mm")


def test_a_roomy_badge_passes() -> None:
    ops = _piece(Circle(mm(10), mm(10), mm(4), fill="#ffffff"), Text(mm(10), mm(9), "3", 9, anchor="middle"))
    assert crowded_badges(ops, TRIM, mm(3), text_width) == []


def test_a_grid_cells_bonus_label_keeps_off_the_cell_border():
    """Sprout Sheet's "+3" in a score cell's corner keeps at least 0.8 mm from the cell's border on every side
    (it sat 0.5 mm from the right edge, on the line): measured from the ink box of each bonus string to the
    smallest stroked cell rectangle holding it."""
    parts = composed_parts(ROOT / "layouts" / "sprout_sheet", "en")
    sheet = parts["sheet"]
    items = drawn(sheet.pages[0].ops, text_width)
    cells = [i.box for i in items if isinstance(i.op, Rect) and i.op.stroke]
    labels = [i for i in items if isinstance(i.op, Text) and i.op.text.startswith("+")]
    assert labels, "no bonus label on the score sheet"
    for label in labels:
        x0, y0, x1, y1 = label.box
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        holding = [c for c in cells if c[0] <= cx <= c[2] and c[1] <= cy <= c[3]]
        cell = min(holding, key=lambda c: (c[2] - c[0]) * (c[3] - c[1]))
        room = min(x0 - cell[0], y0 - cell[1], cell[2] - x1, cell[3] - y1)
        assert room >= mm(0.8), (label.op.text, room / mm(1))


@pytest.mark.parametrize("lang", ["en", "de", "fr", "es", "ja"])
def test_player_board_texts_keep_a_millimetre_inside_their_frames(lang):
    """Raindrops' player boards: every string inside a framed action box keeps at least 1 mm from the frame
    on every side, in every shipped language (German "Plättchen." sat under 1 mm from its frame)."""
    parts = composed_parts(ROOT / "layouts" / "raindrops", lang)
    boards = parts["player_boards"]
    checked = 0
    for page in boards.pages or []:
        items = drawn(page.ops, text_width)
        frames = [i.box for i in items if isinstance(i.op, Rect) and i.op.stroke]
        for item in items:
            if not isinstance(item.op, Text) or not item.op.text.strip():
                continue
            x0, y0, x1, y1 = item.box
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            holding = [
                f for f in frames if f[0] <= cx <= f[2] and f[1] <= cy <= f[3] and f[2] - f[0] < mm(140)
            ]
            if not holding:
                continue
            frame = min(holding, key=lambda f: (f[2] - f[0]) * (f[3] - f[1]))
            room = min(x0 - frame[0], y0 - frame[1], frame[2] - x1, frame[3] - y1)
            assert room >= mm(1), (item.op.text, round(room / mm(1), 2))
            checked += 1
    assert checked >= 8  # the action boxes' texts were found


# -- sheet cells: a string written in a framed cell keeps off the cell's line --------------------------------

SHEET = (0.0, 0.0, mm(100), mm(60))


def _sheet(*ops: Op) -> tuple[Op, ...]:
    """A face with its own frame (not a cell) and a 30 x 10 mm cell drawn with a 1 pt line."""
    return (
        Rect(0, 0, mm(100), mm(60), fill="#ffffff", stroke="ink", width=1.0),
        Rect(mm(10), mm(10), mm(30), mm(10), fill="#ffffff", stroke="ink", width=1.0),
        *ops,
    )


def test_the_check_refuses_a_string_on_its_cells_line() -> None:
    # "Player 4" set flush right against the cell's right line, as a score pad's header did
    ops = _sheet(Text(mm(39.8), mm(13), "Player 4", 10, anchor="end"))
    ((text, why),) = crowded_cells(ops, SHEET, text_width, ink_extent)
    assert text.text == "Player 4"
    assert why == "the line of its cell (30.0 mm x 10.0 mm): 0.2 mm away, keep 0.5 mm"


def test_the_check_refuses_a_string_running_across_its_cells_line() -> None:
    ops = _sheet(Text(mm(25), mm(13), "A string far too long for its cell", 10, anchor="middle"))
    ((_, why),) = crowded_cells(ops, SHEET, text_width, ink_extent)
    assert why.endswith("0 mm away, keep 0.5 mm")


def test_a_string_inside_its_cell_passes_and_the_faces_frame_is_no_cell() -> None:
    centred = Text(mm(25), mm(13), "Player 4", 10, anchor="middle")
    near_frame = Text(mm(1), mm(50), "fine print", 6)  # the safe-area check judges the face's edge
    assert crowded_cells(_sheet(centred, near_frame), SHEET, text_width, ink_extent) == []


def test_a_heavy_frame_asks_for_more_room() -> None:
    """Half a 3 pt line plus 0.3 mm is more than 0.5 mm: the string keeps clear of the ink of the line."""
    ops = (
        Rect(mm(10), mm(10), mm(30), mm(10), fill=None, stroke="ink", width=3.0),
        Text(mm(10.7), mm(13), "7", 10),  # 0.7 mm: enough for a 1 pt line
    )
    ((_, why),) = crowded_cells(ops, SHEET, text_width, ink_extent)
    assert why.endswith("keep 0.8 mm")


def test_the_layout_check_names_component_face_and_string() -> None:
    face = Place(0, 0, _sheet(Text(mm(39.8), mm(13), "Player 4", 10, anchor="end")), clip=SHEET, name="pad")
    comp = Component("score_pad", "Score pad", [Page(mm(100), mm(60), [face])])
    with pytest.raises(LayoutError) as err:
        check_collisions([comp], text_width, "kit.yaml", None, "en", ink_extent, mm(3))
    assert str(err.value) == (
        "kit.yaml: score_pad (en): face pad (page 1): text (no id) 'Player 4' collides with the line of its "
        "cell (30.0 mm x 10.0 mm): 0.2 mm away, keep 0.5 mm"
    )


def _parts(kit: Path, lang: str) -> list[tuple[str, Place]]:
    parts = composed_parts(kit, lang)
    seen: set[int] = set()
    out: list[tuple[str, Place]] = []

    def walk(cid: str, ops: Sequence[Op]) -> None:
        for op in ops:
            if isinstance(op, Place):
                if op.clip is not None and not op.window and id(op.ops) not in seen:
                    seen.add(id(op.ops))
                    out.append((cid, op))
                elif op.clip is None or op.window:
                    walk(cid, op.ops)

    for part in parts.values():
        for page in part.pages or []:
            walk(part.cid, page.ops)
    return out


def cell_room(place: Place) -> list[tuple[str, float, float]]:
    """(string, room from the centre of its cell's line to its ink, the line's width) for every string whose
    centre lies in a stroked rectangle of the face smaller than the face (the smallest one holding it)."""
    _, _, fw, fh = place.trim or place.clip  # type: ignore[misc]
    items = drawn(place.ops, text_width)
    frames = [
        (i.op.x, i.op.y, i.op.w, i.op.h, i.op.width)
        for i in items
        if isinstance(i.op, Rect)
        and i.op.stroke
        and i.op.width
        and not i.backdrop
        and i.matrix[:4] == (1, 0, 0, 1)
    ]
    frames = [f for f in frames if f[2] < 0.9 * fw or f[3] < 0.9 * fh]
    out = []
    for item in items:
        if not isinstance(item.op, Text) or not item.op.text.strip():
            continue
        x0, y0, x1, y1 = _apply_box(item.matrix, text_box(item.op, text_width, ink_extent, lean=False))
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        e, f = item.matrix[4], item.matrix[5]
        holding = [
            (fx + e, fy + f, w, h, lw)
            for fx, fy, w, h, lw in frames
            if fx + e <= cx <= fx + e + w and fy + f <= cy <= fy + f + h
        ]
        if holding:
            fx, fy, w, h, lw = min(holding, key=lambda c: c[2] * c[3])
            room = min(x0 - fx, y0 - fy, fx + w - x1, fy + h - y1)
            out.append((item.op.text, room, lw))
    return out


SHIPPED = [
    *((kit, lang) for kit in sorted(p.name for p in (ROOT / "layouts").iterdir()) for lang in LANGS),
    *(("../docs/examples/" + p.name, "en") for p in sorted((ROOT / "docs" / "examples").iterdir())),
]


@pytest.mark.parametrize(("kit", "lang"), SHIPPED)
def test_every_shipped_cell_keeps_its_strings_off_its_line(kit: str, lang: str) -> None:
    """Every string written in a framed cell of a shipped kit (score-sheet and score-pad cells, deck-template
    grid cells, framed boxes) keeps max(0.5 mm, half the line + 0.3 mm) from the cell's line, measured here
    independently of the check. Peak Dice's miss box "−10" (0.3 mm) and Harvest Hands' Spanish score-pad
    header "Jugador 2" (0.4 mm) failed it."""
    problems = []
    checked = 0
    for cid, place in _parts((ROOT / "layouts" / kit).resolve(), lang):
        for text, room, line in cell_room(place):
            checked += 1
            if room < max(mm(0.5), line / 2 + mm(0.3)) - 0.3:
                problems.append(f"{cid} {place.name} {text!r}: {room / mm(1):.2f} mm from its cell's line")
    assert problems == [], "\n".join(sorted(set(problems))[:20])
    if not kit.startswith("../"):
        assert checked, "no string in a cell found"


def test_a_rounded_cell_keeps_its_corner_strings_off_the_arc() -> None:
    """A string tucked into the corner of a cell with 3 mm rounded corners clears both straight lines by
    at least 0.6 mm but runs into the arc; the same cell with square corners passes."""
    label = Text(mm(10.6), mm(10.6) + 1.2, "+3", 8)
    for radius, flagged in ((mm(3), True), (0.0, False)):
        cell = Rect(mm(10), mm(10), mm(30), mm(10), fill=None, stroke="ink", width=0.5, radius=radius)
        assert bool(crowded_cells((cell, label), SHEET, text_width, ink_extent)) is flagged
