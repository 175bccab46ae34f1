"""Issue 26 item 3: the print defects a designer would reject, each measured on the drawn ops of the shipped
kits (the room between two drawn things, from the font metrics and the shapes' geometry)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.contract.compose import compose_kit, template_context
from generator.i18n.texts import Texts
from generator.layout.compose import Context
from generator.layout.geometry import (
    distance_to_polygon_edge,
    drawn,
    gap,
    inside_circle,
    overlap,
    point_in_polygon,
)
from generator.layout.marks import MARK_GAP, MARK_LENGTH
from generator.layout.ops import Circle, Line, Op, Page, Place, Polygon, Rect, Text, iter_texts
from generator.layout.ops import Path as PathOp
from generator.layout.textfit import text_box
from generator.pipeline import load_kits, print_data, with_tool_catalogs
from generator.render.fonts import text_width
from generator.units import mm

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def kits():
    cache: dict[tuple[str, str], dict[str, list[Page]]] = {}

    def get(name: str, lang: str = "en") -> dict[str, list[Page]]:
        if (name, lang) not in cache:
            (kit,) = load_kits([ROOT / "layouts" / name])
            extras = print_data(kit, kit.meta.seed)
            texts = Texts(lang, with_tool_catalogs(kit), template_context(kit, extras), warn=lambda _: None)
            ctx = Context(kit, lang, texts, text_width, kit.print.paper, kit.meta.seed, kit.print, extras)
            cache[name, lang] = {c.id: c.pages for c in compose_kit(ctx)}
        return cache[name, lang]

    return get


def test_crop_marks_and_the_ruler_go_around_the_cloud_tokens_that_exist(kits):
    # page 1 holds 12 tokens in the top two rows of a six-row grid: no marks down the four empty rows, and the
    # ruler lies flat in the free space below the cards instead of turned on its side at mid right
    (page,) = [p for p in kits("raindrops")["cloud_tokens"] if "front" in p.label][:1]
    cards = [d.box for d in drawn([op for op in page.ops if isinstance(op, Place) and op.clip], text_width)]
    lowest = min(b[1] for b in cards)
    marks = [op for op in page.ops if isinstance(op, Line)]
    assert marks
    bleed = mm(3)  # the outer bleed the grid keeps beyond the last row, the marks start past it
    assert min(min(m.y1, m.y2) for m in marks) >= lowest - bleed - MARK_GAP - MARK_LENGTH - 3.5, (
        "marks beside empty rows"
    )
    rulers = [op for op in page.ops if isinstance(op, Place) and not op.clip]
    assert rulers and all(r.rotate == 0 for r in rulers)
    assert all(r.y < lowest for r in rulers)


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
@pytest.mark.parametrize("kit", ["ripple_rush", "peak_dice", "raindrops", "rummy_cards"])
def test_the_rules_footer_shows_the_localized_title_not_the_kit_id(kits, kit, lang):
    (kit_spec,) = load_kits([ROOT / "layouts" / kit])
    texts = Texts(lang, with_tool_catalogs(kit_spec), {}, warn=lambda _: None)
    title = texts(kit_spec.meta.title)
    strings = [t.text for p in kits(kit, lang)["rules"] for t in iter_texts(p.ops)]
    assert not [s for s in strings if kit_spec.meta.id in s]
    assert [s for s in strings if s.startswith(f"{title} v{kit_spec.meta.version}")]


def faces_on(pages: list[Page]) -> list[tuple[Op, ...]]:
    """The ops of every card placed on N-up pages (the clipped places)."""
    return [op.ops for p in pages for op in p.ops if isinstance(op, Place) and op.clip]


@pytest.mark.parametrize("kit", ["ripple_rush", "rummy_cards"])
def test_every_6_and_9_is_underlined_in_the_centre_and_in_both_corners(kits, kit):
    # an upside-down corner 6 must not read 9: every drawn 6 or 9 (turned or not) has its bar under the glyph
    checked = 0
    for ops in faces_on(kits(kit)["number_cards"]):
        texts = [t for t in ops if isinstance(t, Text) and t.text in ("6", "9")]
        bars = [r for r in ops if isinstance(r, Rect) and r.fill]
        for t in texts:
            (tx0, _, tx1, _) = text_box(t, text_width)
            below = [
                b
                for b in bars
                if b.h <= 0.08 * t.size
                and b.x >= tx0 - 0.5
                and b.x + b.w <= tx1 + 0.5
                and (
                    b.y + b.h <= t.y and b.y >= t.y - 0.2 * t.size
                    if not t.rotate
                    else b.y >= t.y and b.y + b.h <= t.y + 0.2 * t.size
                )
            ]
            assert below, f"{kit}: {t.text!r} at {t.x:.0f},{t.y:.0f} rotated {t.rotate} has no bar"
            checked += 1
    assert checked >= 12


@pytest.mark.parametrize("lang", ["en", "es", "ja"])
def test_the_goal_text_keeps_clear_of_the_points_badge(kits, lang):
    # "+3 puntos." ran under the "+3" badge on all 8 Spanish goal cards
    faces = faces_on([p for p in kits("ripple_rush", lang)["goal_cards"] if "front" in p.label])
    assert len(faces) == 8
    for ops in faces:
        items = drawn(ops, text_width)
        (badge,) = [d for d in items if isinstance(d.op, Circle) and d.op.fill == "#ffd23f"]
        rows = [d for d in items if isinstance(d.op, Text) and d.op.text_id == "goal.row"]
        assert rows
        for d in rows:
            assert gap(d.box, badge.box) >= mm(1), (lang, d.op.text)


@pytest.mark.parametrize("kit", ["ripple_rush"])
def test_card_back_rings_keep_clear_of_the_frame(kits, kit):
    for comp in ("number_cards", "goal_cards"):
        (ops, *_) = faces_on([p for p in kits(kit)[comp] if "back" in p.label])
        (frame,) = [op for op in ops if isinstance(op, Rect) and op.fill is None and op.stroke]
        rings = [op for op in ops if isinstance(op, Circle)]
        assert rings
        for c in rings:
            room = min(c.cx - frame.x, frame.x + frame.w - c.cx, c.cy - frame.y, frame.y + frame.h - c.cy)
            assert room - c.r - c.width / 2 - frame.width / 2 >= mm(1.5), comp


def test_the_bonus_cross_stays_inside_its_symbol(kits):
    # row 6 of the Ripple Rush sheet: the white x spilled over the triangle's outline
    (sheet,) = faces_on(kits("ripple_rush")["score_sheet"])[:1] or [
        kits("ripple_rush")["score_sheet"][0].ops[0].ops
    ]
    crosses = [op for op in sheet if isinstance(op, Line) and op.stroke == "#ffffff"]
    shapes = [op for op in sheet if isinstance(op, Polygon) and op.fill and op.stroke == "ink"]
    assert crosses
    checked = 0
    for ln in crosses:
        dx, dy = ln.x2 - ln.x1, ln.y2 - ln.y1
        n = (dx * dx + dy * dy) ** 0.5
        px, py = -dy / n * ln.width / 2, dx / n * ln.width / 2
        corners = [
            (ln.x1 + px, ln.y1 + py),
            (ln.x1 - px, ln.y1 - py),
            (ln.x2 + px, ln.y2 + py),
            (ln.x2 - px, ln.y2 - py),
        ]
        mid = ((ln.x1 + ln.x2) / 2, (ln.y1 + ln.y2) / 2)
        owners = [s for s in shapes if point_in_polygon(*mid, s.points)]
        for s in owners:
            for x, y in corners:
                assert (
                    point_in_polygon(x, y, s.points)
                    and distance_to_polygon_edge(x, y, s.points) >= s.width / 2
                ), f"cross corner {x:.1f},{y:.1f} over the outline of {len(s.points)}-gon"
            checked += 1
    assert checked >= 2


def _sheet_ops(pages: list[Page]) -> tuple[Op, ...]:
    (first, *_) = [op for op in pages[0].ops if isinstance(op, Place) and op.clip]
    return first.ops


def test_peak_dice_chevrons_have_air_between_the_circles(kits):
    ops = _sheet_ops(kits("peak_dice")["score_sheet"])
    circles = [op for op in ops if isinstance(op, Circle) and op.fill == "#ffffff"]
    chevrons = [op for op in ops if isinstance(op, Polygon) and not op.closed and len(op.points) == 3]
    assert len(chevrons) >= 20
    for ch in chevrons:
        (a, b, c) = ch.points
        pts = [
            (p[0] + (q[0] - p[0]) * t / 10, p[1] + (q[1] - p[1]) * t / 10)
            for p, q in ((a, b), (b, c))
            for t in range(11)
        ]
        room = min(
            ((x - ci.cx) ** 2 + (y - ci.cy) ** 2) ** 0.5 - ci.r - ci.width / 2 - ch.width / 2
            for x, y in pts
            for ci in circles
        )
        assert room >= mm(0.8), f"chevron at {b[0]:.0f},{b[1]:.0f} has {room:.2f} pt of air"


def test_the_peak_line_summit_stays_inside_the_grid_frame(kits):
    ops = _sheet_ops(kits("peak_dice")["score_sheet"])
    frames = [op for op in ops if isinstance(op, Rect) and op.fill is None and op.width == 1.0 and op.w > 200]
    (frame,) = frames
    summits = [op for op in ops if isinstance(op, Polygon) and op.closed and op.fill and op.stroke is None]
    assert summits
    for s in summits:
        top = max(y for _, y in s.points)
        assert top <= frame.y + frame.h - frame.width / 2 - 0.5, (
            f"summit reaches {top:.1f}, frame at {frame.y + frame.h:.1f}"
        )


@pytest.mark.parametrize(
    "kit, comp", [("peak_dice", "rules"), ("ripple_rush", "score_sheet"), ("ripple_rush", "rules")]
)
def test_numbers_in_circles_keep_clear_of_the_outline(kits, kit, comp):
    # the two-digit example numbers of the Peak Dice rules touched their circles
    checked = 0
    for page in kits(kit)[comp][:1]:
        items = drawn(page.ops, text_width)
        circles = [d for d in items if isinstance(d.op, Circle) and d.op.fill == "#ffffff"]
        for d in items:
            if not (isinstance(d.op, Text) and d.op.text.isdigit()):
                continue
            cx, cy = (d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2
            for c in circles:
                ccx, ccy = (c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2
                r = (c.box[2] - c.box[0]) / 2 - c.op.width  # the inner edge of the stroke
                if abs(cx - ccx) < r and abs(cy - ccy) < r:
                    glyphs = (d.box[0], d.box[1] + 0.12 * d.op.size, d.box[2], d.box[1] + 0.84 * d.op.size)
                    assert inside_circle(glyphs, ccx, ccy, r) >= max(1.5, 0.2 * r) - 0.01, (
                        f"{d.op.text!r} touches its circle"
                    )
                    checked += 1
    assert checked >= 3


def _room_in_cell(items: list, text) -> float:
    """The horizontal room between a text and the inner edges of the filled cell it sits on."""
    cx, cy = (text.box[0] + text.box[2]) / 2, (text.box[1] + text.box[3]) / 2
    cells = [
        d
        for d in items[: text.order]
        if isinstance(d.op, Rect)
        and d.op.fill
        and d.op.stroke
        and d.box[0] <= cx <= d.box[2]
        and d.box[1] <= cy <= d.box[3]
    ]
    cell = cells[-1]
    inner_x0, inner_x1 = cell.box[0] + cell.op.width, cell.box[2] - cell.op.width
    return min(text.box[0] - inner_x0, inner_x1 - text.box[2])


@pytest.mark.parametrize("lang", ["en", "es", "ja"])
def test_score_pad_sum_and_total_keep_padding_in_their_cells(kits, lang):
    # "Sum", "Total", "Suma", "総合点" touched their cell borders
    items = drawn(_sheet_ops(kits("rummy_cards", lang)["score_pad"]), text_width)
    labels = [d for d in items if isinstance(d.op, Text) and d.op.text_id in ("pad.sum", "pad.total")]
    assert len(labels) == 2
    for d in labels:
        assert _room_in_cell(items, d) >= mm(1.2), (lang, d.op.text)


def test_memory_card_backs_keep_their_rain_inside_a_frame(kits):
    # the drops ran as one field across the abutting backs: each back now frames its own rain
    backs = faces_on([p for p in kits("raindrops")["memory_cards"] if "back" in p.label])
    assert backs
    for ops in backs[:2]:
        frames = [op for op in ops if isinstance(op, Rect) and op.fill is None and op.stroke]
        assert frames, "no frame"
        (frame,) = frames
        drops = [d for d in drawn(ops, text_width) if isinstance(d.op, PathOp)]
        assert len(drops) >= 20
        for d in drops:
            assert d.box[0] >= frame.x + mm(1) and d.box[2] <= frame.x + frame.w - mm(1)
            assert d.box[1] >= frame.y + mm(1) and d.box[3] <= frame.y + frame.h - mm(1)


def test_calibration_scale_labels_are_legible_and_clear_of_the_ticks():
    # the labels were 4.5 pt (2.2-3.4 pt of ink) and "0" sat on its 3 mm tick
    from generator.layout.imposition import calibration_pages
    from generator.spec.print import PrintSpec

    (_, back) = calibration_pages(PrintSpec(), "a4", title="Calibration", instructions=["a"])
    items = drawn(back.ops, text_width)
    texts = [d for d in items if isinstance(d.op, Text)]
    ticks = [d for d in items if isinstance(d.op, Line)]
    assert len(texts) > 40
    for d in texts:
        assert d.op.size >= 6, d.op.text
        hit = [t for t in ticks if overlap(d.box, t.box) > 0]
        assert not hit, f"label {d.op.text!r} on a tick"
        others = [o for o in texts if o is not d and overlap(d.box, o.box) > 0]
        assert not others, f"label {d.op.text!r} on label {others[0].op.text!r}"


@pytest.mark.parametrize(
    "kit, comp, tid, text",
    [
        ("ripple_rush", "score_sheet", "sheet.ascending", "大きい数"),
        ("rummy_cards", "score_pad", "pad.round", "ラウンド"),
    ],
)
def test_japanese_column_labels_are_set_vertically_not_turned(kits, kit, comp, tid, text):
    # 「大きい数」 and 「ラウンド」 were rotated sideways: tategaki stacks the characters upright, top to
    # bottom
    glyphs = [op for op in _sheet_ops(kits(kit, "ja")[comp]) if isinstance(op, Text) and op.text_id == tid]
    assert "".join(g.text for g in glyphs) == text
    assert all(g.rotate == 0 for g in glyphs)
    xs, ys = {round(g.x, 2) for g in glyphs}, [g.y for g in glyphs]
    assert len(xs) == 1 and ys == sorted(ys, reverse=True)
    assert all(a - b >= g.size * 0.95 for a, b, g in zip(ys, ys[1:], glyphs))
    (latin,) = [op for op in _sheet_ops(kits(kit, "en")[comp]) if isinstance(op, Text) and op.text_id == tid]
    assert latin.rotate == 90


def _fixed(text: str, font: str, size: float) -> float:
    return len(text) * size * 0.5


def test_widow_control_moves_a_word_down_to_a_lone_last_word():
    from generator.layout.text import wrap

    lines = wrap("aaaa bbbb cccc dddd", "regular", 10, 75, _fixed)  # greedy: 'aaaa bbbb cccc' / 'dddd'
    assert lines == ["aaaa bbbb", "cccc dddd"]
    assert wrap("aaaa bbbb", "regular", 10, 75, _fixed) == ["aaaa bbbb"]


def test_widow_control_keeps_four_japanese_characters_on_the_last_line():
    from generator.layout.text import wrap

    text = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるん。"
    lines = wrap(
        text, "regular", 10, 100, lambda t, f, s: len(t) * s
    )  # 10 characters a line: greedy ends on 'ん。'
    assert "".join(lines) == text
    assert len(lines[-1]) >= 4 and all(len(line) <= 10 for line in lines)


def test_the_rummy_rules_do_not_end_a_paragraph_on_a_lone_line(kits):
    # the Japanese rules ended a paragraph on 「ん。」
    for lang in ("ja", "en", "es"):
        (face, *_) = faces_on(kits("rummy_cards", lang)["rules"]) or [
            kits("rummy_cards", lang)["rules"][0].ops
        ]
        by_id: dict[str, list[Text]] = {}
        for t in iter_texts(face):
            if t.text_id.startswith("rules."):
                by_id.setdefault(t.text_id, []).append(t)
        for tid, lines in by_id.items():
            if len(lines) < 2:
                continue
            last = lines[-1].text
            cjk = any(ord(ch) > 0x3000 for ch in last)
            assert (len(last) >= 4) if cjk else (len(last.split()) >= 2), (lang, tid, last)


def test_card_faces_carry_no_internal_ids_unless_the_spec_asks(kits):
    # "BLA1-1" and "JK-1" printed on every English card; print.print_ids (default off) brings them back for
    # sorting
    import dataclasses
    import re

    code = re.compile(r"^(YEL|BLU|BLA|RED)\d{1,2}-\d$|^JK-\d$")
    shipped = [t.text for p in kits("rummy_cards")["number_cards"] for t in iter_texts(p.ops)]
    assert not [s for s in shipped if code.match(s)]
    (kit,) = load_kits([ROOT / "layouts" / "rummy_cards"])
    kit = dataclasses.replace(kit, print=kit.print.model_copy(update={"print_ids": True}))
    extras = print_data(kit, kit.meta.seed)
    texts = Texts("en", with_tool_catalogs(kit), template_context(kit, extras), warn=lambda _: None)
    ctx = Context(kit, "en", texts, text_width, kit.print.paper, kit.meta.seed, kit.print, extras)
    (cards,) = [c for c in compose_kit(ctx) if c.id == "number_cards"]
    ids = [t.text for p in cards.pages for t in iter_texts(p.ops) if code.match(t.text)]
    assert len(ids) == len(set(ids)) == 106
