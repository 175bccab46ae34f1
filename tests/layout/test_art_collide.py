"""Art boxes in the collision check (issue 33, item 8): art of a slot that is not a declared background may
not meet a string or a shape (a table drawn over a logo); a mark set inside the art and art on its own
background (a band, a cell) pass; the Rummy score pad keeps its logo in the header, above the table."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.errors import LocatedLayoutError
from generator.layout.collide import art_collisions, check_collisions, face_collisions
from generator.layout.compose import Component
from generator.layout.geometry import art_box, drawn
from generator.layout.ops import Face, Line, Page, Place, Rect, Text, Vector, art_op
from generator.render.fonts import text_width
from generator.spec.assets import Asset

ROOT = Path(__file__).resolve().parents[2]
LOGO = Asset("assets/logo.svg", "svg", "0" * 64, 100.0, 40.0, b"")


def _logo(x: float, y: float, slot: str = "logo") -> Vector:
    op = art_op(LOGO, x, y, 100, 40, fit="contain", slot=slot)
    assert isinstance(op, Vector)
    return op


def test_a_table_drawn_over_a_logo_is_a_collision_and_a_mark_inside_it_is_not():
    band = Rect(0, 100, 300, 60, fill="#eeeeee", stroke=None)  # the header band: the logo's background
    table = Rect(0, 0, 300, 115, fill="#ffffff", stroke="ink", width=0.6)  # reaches 15 pt into the logo
    cross = Line(40, 120, 60, 130, stroke="#ffffff", width=2)  # set on the logo
    found = art_collisions([band, _logo(10, 110), cross, table], text_width)
    assert [(op.slot, what) for op, what in found] == [("logo", "a rectangle (#ffffff) drawn over it")]
    assert art_collisions([band, _logo(10, 110), cross], text_width) == []


def test_art_drawn_over_a_table_it_does_not_sit_in_is_a_collision():
    table = Rect(0, 0, 300, 115, fill="#ffffff", stroke="ink", width=0.6)
    found = art_collisions([table, _logo(10, 100)], text_width)
    assert [what for _, what in found] == ["a rectangle (#ffffff) it is drawn over"]
    inside = Rect(0, 0, 300, 300, fill="#ffffff", stroke="ink", width=0.6)  # holds the whole logo
    assert art_collisions([inside, _logo(10, 100)], text_width) == []


def test_a_string_meeting_art_collides_unless_the_art_is_a_declared_background():
    title = Text(20, 115, "Rummy", 20, font="bold", text_id="kit.title")
    under = face_collisions([_logo(10, 100), title], text_width)
    assert [(t.text_id, what) for t, what in under] == [
        ("kit.title", "the art of slot logo (assets/logo.svg)")
    ]
    over = face_collisions([title, _logo(10, 100)], text_width)
    assert [what for _, what in over] == ["the art of slot logo (assets/logo.svg) drawn over it"]
    assert face_collisions([_logo(10, 100, slot="background"), title], text_width) == []
    assert face_collisions([_logo(10, 100, slot="image"), title], text_width) == []  # a template's picture
    over = face_collisions([title, _logo(10, 100, slot="background")], text_width)
    assert [what for _, what in over] == ["the art of slot background (assets/logo.svg) drawn over it"]
    assert (
        art_collisions([Rect(0, 0, 50, 50, fill="#000000", stroke=None), _logo(0, 0, "back")], text_width)
        == []
    )
    backdrop = Place(0, 0, (_logo(10, 100, slot="icon"),), backdrop=True)  # a faded symbol behind a number
    assert face_collisions([backdrop, title], text_width) == []


def test_an_art_collision_is_located_at_its_slot_key():
    table = Rect(0, 0, 300, 115, fill="#ffffff", stroke="ink", width=0.6)
    face = Face("pad", 300, 200, (_logo(10, 100), table))
    page = Page(300, 200, [Place(0, 0, face.ops, clip=(0, 0, 300, 200), name="pad")])
    comp = Component("score_pad", "Score pad", [page])
    with pytest.raises(LocatedLayoutError) as e:
        check_collisions(
            [comp],
            text_width,
            "kit.yaml",
            None,
            "en",
            locate=lambda key, message: f"kit.yaml:80: {key}: {message}",
        )
    assert str(e.value) == (
        "kit.yaml:80: components.score_pad.art.logo: score_pad (en): face pad (page 1): the art of slot logo "
        "(assets/logo.svg) meets a rectangle (#ffffff) drawn over it; move it clear, or fill a background "
        "slot"
    )


def test_the_rummy_score_pad_logo_stays_above_the_table(tmp_path):
    """A Rummy Cards kit with a logo: the logo lands in the header, clear of every shape of the table (it sat
    2.8 mm under the table's top before), and the build's collision check passes."""
    from generator.contract.load import load_kit
    from generator.pipeline import compose_one, print_data

    kit_dir = tmp_path / "rummy"
    shutil.copytree(ROOT / "layouts" / "rummy_cards", kit_dir)
    (kit_dir / "assets").mkdir(exist_ok=True)
    shutil.copy(ROOT / "docs" / "examples" / "make_it_yours" / "assets" / "logo.svg", kit_dir / "assets")
    text = (kit_dir / "kit.yaml").read_text(encoding="utf-8")
    text = re.sub(r"(\n  score_pad:\n)", r"\1    art: {logo: assets/logo.svg}\n", text)
    (kit_dir / "kit.yaml").write_text(text, encoding="utf-8")
    kit = load_kit(kit_dir)
    comps, _ = compose_one(kit, "en", "a4", kit.meta.seed, print_data(kit, kit.meta.seed), text_width, print)
    (pad,) = [c for c in comps if c.id == "score_pad"]
    face = next(op for op in pad.pages[0].ops if isinstance(op, Place) and op.clip is not None)
    items = drawn(face.ops, text_width, art=True)
    (logo,) = [d for d in items if isinstance(d.op, Vector) and d.op.slot == "logo"]
    table_top = max(
        d.box[3]
        for d in items
        if isinstance(d.op, (Rect, Line)) and d.box[3] < face.clip[3] - 1  # type: ignore[index]
    )
    assert isinstance(logo.op, Vector)
    assert art_box(logo.op)[1] >= table_top + 0.5, (art_box(logo.op), table_top)
