"""Issue 26 item 1: the collision check over each face's drawn ops (text boxes from the font metrics as drawn,
shapes from their geometry), run by validate and build."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.contract.compose import compose_kit, template_context
from generator.errors import LayoutError
from generator.games.ripple_rush import layout as rr
from generator.i18n.texts import Texts
from generator.layout.collide import (
    check_collisions,
    collisions,
    face_collisions,
    outside_safe_area,
    safe_inset,
)
from generator.layout.compose import Component, Context
from generator.layout.ops import Circle, Face, Page, Place, Polygon, Rect, Text
from generator.layout.text import block_ops, fit_block
from generator.pipeline import load_kits, print_data, with_tool_catalogs
from generator.render.fonts import ink_extent, text_width
from generator.units import CARD_PRESETS, mm
from tests.clirun import pnpkit

ROOT = Path(__file__).resolve().parents[2]


def _ctx(kit_name: str, lang: str) -> Context:
    (kit,) = load_kits([ROOT / "layouts" / kit_name])
    extras = print_data(kit, kit.meta.seed)
    texts = Texts(lang, with_tool_catalogs(kit), template_context(kit, extras), warn=lambda _: None)
    return Context(kit, lang, texts, text_width, kit.print.paper, kit.meta.seed, kit.print, extras)


def _old_goal_face(ctx: Context, row: int) -> Face:
    """The goal card as shipped before the fix: goal.row centred on the card, its block running under the
    badge."""
    w, h = CARD_PRESETS["poker"]
    face = rr.goal_face(ctx, row, w, h, 0.0)
    inset = mm(3.5)
    desc = ctx.texts("goal.row", row=row)
    fitted = fit_block(
        desc, "regular", w - 2 * inset - mm(6), h * 0.12, ctx.measure, size=mm(3.4), min_size=6
    )
    ops = [op for op in face.ops if not (isinstance(op, Text) and op.text_id == "goal.row")]
    at = next(i for i, op in enumerate(ops) if isinstance(op, Circle) and op.fill == rr.HIGHLIGHT)
    ops[at:at] = block_ops(fitted, w / 2, h * 0.25, anchor="middle", text_id="goal.row")
    return Face(face.name, w, h, tuple(ops), 0.0)


def test_the_spanish_goal_card_as_shipped_before_the_fix_fails_the_collision_check():
    ctx = _ctx("ripple_rush", "es")
    old = _old_goal_face(ctx, 1)
    found = face_collisions(old.ops, text_width, ink_extent)
    assert [(t.text_id, t.text, other) for t, other in found] == [
        ("goal.row", "de la fila 1: +3 puntos.", "a circle (#ffd23f) drawn over it")
    ]
    page = Page(
        300,
        300,
        [Place(0, 0, old.ops, clip=(0, 0, old.width, old.height), name=old.name)],
        label="goal_cards front 1",
    )
    with pytest.raises(LayoutError) as e:
        check_collisions(
            [Component("goal_cards", "Objetivos", [page])],
            text_width,
            "layouts/ripple_rush/kit.yaml",
            ctx.kit.catalogs["es"],
            "es",
            ink_extent,
        )
    line = ctx.kit.catalogs["es"].lines["goal.row"]
    assert str(e.value) == (
        f"layouts/ripple_rush/locales/es.po:{line}: goal.row: goal_cards (es): face goal-1 (page 1): "
        "text goal.row 'de la fila 1: +3 puntos.' collides with a circle (#ffd23f) drawn over it"
    )
    # the shipped card keeps the text beside the badge
    assert (
        face_collisions(rr.goal_face(ctx, 1, *CARD_PRESETS["poker"], 0.0).ops, text_width, ink_extent) == []
    )


@pytest.mark.parametrize("kit", ["ripple_rush", "peak_dice", "raindrops", "rummy_cards"])
def test_every_shipped_face_is_free_of_collisions_in_every_language(kit):
    for lang in ("en", "ja", "es"):
        ctx = _ctx(kit, lang)
        found = collisions(compose_kit(ctx), text_width, ink_extent, ctx.kit.style.safe_margin)
        assert [c.message(lang) for c in found] == []


def test_texts_meeting_texts_shapes_and_outlines_are_collisions_and_backgrounds_are_not():
    fixed = lambda t, f, s: len(t) * s * 0.5  # noqa: E731
    cell = Rect(0, 0, 60, 20, fill="#ffffff", stroke="ink", width=1)
    inside = Text(5, 6, "ABCD", 10)  # 20 pt wide, ink 4.8..14 on a cell that holds it
    assert face_collisions([cell, inside], fixed) == []
    # past the edge of the filled cell it sits on: the text-fit check's finding ('runs past its box'), not
    # this one's
    assert face_collisions([cell, Text(45, 6, "ABCD", 10)], fixed) == []
    outline = Rect(0, 0, 60, 20, fill=None, stroke="ink", width=1)
    assert [o for _, o in face_collisions([outline, Text(45, 6, "ABCD", 10)], fixed)] == ["a rectangle (ink)"]
    assert [o for _, o in face_collisions([inside, Text(20, 8, "XY", 10, text_id="b")], fixed)] == [
        "text b 'XY'"
    ]
    ring = Circle(30, 10, 9, fill=None, stroke="ink", width=1.2)
    assert [o for _, o in face_collisions([ring, Text(30, 6, "ABCD", 10, anchor="middle")], fixed)] == [
        "a circle (ink)"
    ]
    assert face_collisions([ring, Text(30, 7, "A", 6, anchor="middle")], fixed) == []
    tri = Polygon(((0, 0), (40, 0), (20, 30)), fill="#ff0000", stroke=None)
    assert [o for _, o in face_collisions([Text(15, 10, "AB", 10), tri], fixed)] == [
        "a shape (#ff0000) drawn over it"
    ]
    # a declared backdrop (a faded symbol behind a card's number) may lie across a string
    assert face_collisions([Place(0, 0, (tri,), backdrop=True), Text(15, 10, "AB", 10)], fixed) == []


def test_validate_names_goal_row_when_the_english_text_is_twice_as_long(tmp_path):
    """Issue 26, done means: a copy of Ripple Rush whose English goal.row is twice as long fails validate
    naming goal.row. The text beside the badge keeps its one size (3.4 mm) in at most the lines that fit
    between its top and the badge's lower edge (3): twice the English text needs 4."""
    kit = tmp_path / "ripple_rush"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    po = kit / "locales" / "en.po"
    text = po.read_text(encoding="utf-8")
    line = (
        'msgstr "Fill every cell of row {{ row }}: +{{ goal_points }} {{ plural(goal_points, '
        "one='point', other='points') }}.\""
    )
    assert line in text
    body = line[len('msgstr "') : -1]
    po.write_text(text.replace(line, f'msgstr "{body} {body}"'), encoding="utf-8")
    msgid = text[: text.index(line)].count("\n")  # the entry's msgid line, just above its msgstr
    r = pnpkit("validate", str(kit), cwd=ROOT)  # in this process (tests/clirun.py): its message is the point
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert (
        f"locales/en.po:{msgid}: goal.row: does not fit (en): goal.row (en, at most 3 lines): text does not "
        f"fit a "
        "113x38 pt box even at 9.64 pt" in r.stderr
    ), r.stderr


def test_every_shipped_language_sets_the_goal_text_in_at_most_three_lines_at_one_size():
    w, h = CARD_PRESETS["poker"]
    for lang in ("en", "ja", "es", "de", "fr"):
        ctx = _ctx("ripple_rush", lang)
        for row in (1, 6):
            face = rr.goal_face(ctx, row, w, h, 0.0)
            lines = [op for op in face.ops if isinstance(op, Text) and op.text_id == "goal.row"]
            assert 1 <= len(lines) <= 3, (lang, [t.text for t in lines])
            assert len({t.size for t in lines}) == 1


def test_a_string_that_leaves_its_faces_safe_area_is_an_error_naming_component_face_language_and_id():
    fixed = lambda t, f, s: len(t) * s * 0.5  # noqa: E731
    w, h = CARD_PRESETS["poker"]
    margin = mm(3)
    assert safe_inset(w, h, margin) == margin
    # a 20 mm token cannot spare 3 mm a side: it keeps a twelfth of its side
    assert safe_inset(mm(20), mm(20), margin) == pytest.approx(mm(20) / 12)
    inside = Text(mm(4), mm(20), "AB", 10, text_id="ok")
    near = Text(mm(1), mm(10), "AB", 10, text_id="card.name")  # glyphs from 1 mm: 2 mm past the safe area
    assert outside_safe_area([inside], (0, 0, w, h), margin, fixed) == []
    ((text, why),) = outside_safe_area([inside, near], (0, 0, w, h), margin, fixed)
    assert text.text_id == "card.name" and why == (
        "the face's safe area (3.0 mm inside the trim): it reaches 2.0 mm past it"
    )
    # the far edge counts as much as the near one, in the face's own coordinates
    assert len(outside_safe_area([Text(w - mm(2), mm(10), "A", 10)], (0, 0, w, h), margin, fixed)) == 1
    page = Page(
        300, 300, [Place(10, 10, (inside, near), clip=(0, 0, w, h), name="red-7")], label="cards front 1"
    )
    comp = Component("number_cards", "Cards", [page])
    assert collisions([comp], fixed) == []  # without a margin only collisions are judged
    with pytest.raises(LayoutError) as e:
        check_collisions([comp], fixed, "layouts/x/kit.yaml", None, "de", safe_margin=margin)
    assert str(e.value) == (
        "layouts/x/kit.yaml: number_cards (de): face red-7 (page 1): text card.name 'AB' collides "
        "with the face's safe area (3.0 mm inside the trim): it reaches 2.0 mm past it"
    )


def test_the_card_holder_titles_keep_inside_the_safe_area_in_japanese():
    """The holder's titles were set with their baseline 0.8 em under the 3 mm pad, and Japanese ink (and
    Latin brackets) rises to 0.88 em: 「カードホルダー：3段スタンド」 reached 0.4 mm past the safe area."""
    ctx = _ctx("rummy_cards", "ja")
    holder = [c for c in compose_kit(ctx) if c.id == "card_holder"]
    assert holder and collisions(holder, text_width, ink_extent, mm(3)) == []
