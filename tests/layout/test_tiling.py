"""tile_face: a face larger than the paper cut into overlapping sheets with glue bands and alignment
targets."""

from __future__ import annotations

import pytest

from generator.errors import LayoutError
from generator.layout.ops import Circle, Face, Place, Rect
from generator.layout.tiling import TARGET_RADIUS, plan_tiling, seam_targets, tile_face
from generator.spec.print import PrintSpec
from generator.units import mm, paper_size

OVERLAP = mm(15)


def big_face(w_mm: float, h_mm: float) -> Face:
    w, h = mm(w_mm), mm(h_mm)
    return Face("board", w, h, (Rect(0, 0, w, h, fill="#eeeeee"),), 0.0)


def placed(page) -> Place:
    first = page.ops[0]
    assert isinstance(first, Place) and first.clip is not None
    return first


def face_targets(page) -> set[tuple[float, float]]:
    """Target centres on a page, in FACE coordinates (page position minus the face's placement)."""
    p = placed(page)
    return {
        (round(op.cx - p.x, 3), round(op.cy - p.y, 3))
        for op in page.ops
        if isinstance(op, Circle) and abs(op.r - TARGET_RADIUS) < 1e-6
    }


def test_fits_on_a3_in_one_sheet_without_targets() -> None:
    pages = tile_face(big_face(370, 240), "a3", PrintSpec(), OVERLAP, glue_text="glue", label="Board")
    assert len(pages) == 1
    assert face_targets(pages[0]) == set()
    assert (pages[0].width, pages[0].height) == pytest.approx(paper_size("a3", True))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_is_cut_into_two_portrait_strips_sharing_the_overlap(paper: str) -> None:
    face = big_face(370, 240)
    t = plan_tiling(face, paper, PrintSpec(), OVERLAP)
    assert (t.cols, t.rows, t.landscape) == (2, 1, False)
    pages = tile_face(face, paper, PrintSpec(), OVERLAP, glue_text="glue", label="Board")
    assert len(pages) == 2
    clips = [placed(p).clip for p in pages]
    assert clips[0][0] == 0 and clips[1][0] + clips[1][2] == pytest.approx(face.width)
    assert clips[0][0] + clips[0][2] - clips[1][0] == pytest.approx(OVERLAP)  # the shared band
    for page in pages:
        px = placed(page)
        x0, y0, w, h = px.clip
        assert px.x + x0 >= PrintSpec().margin and px.x + x0 + w <= page.width - PrintSpec().margin


@pytest.mark.parametrize(
    "size,paper,sheets", [((370, 240), "a4", 2), ((500, 400), "a4", 6), ((420, 560), "letter", 8)]
)
def test_every_target_is_printed_on_both_sheets_it_joins(size, paper, sheets) -> None:
    face = big_face(*size)
    pages = tile_face(face, paper, PrintSpec(), OVERLAP, glue_text="glue")
    assert len(pages) == sheets
    t = plan_tiling(face, paper, PrintSpec(), OVERLAP)
    expected = {(round(x, 3), round(y, 3)) for x, y in seam_targets(t, face.width, face.height)}
    seen: dict[tuple[float, float], int] = {}
    for page in pages:
        for target in face_targets(page):
            seen[target] = seen.get(target, 0) + 1
    assert set(seen) == expected and expected
    assert set(seen.values()) == {2}


def test_glue_band_is_on_the_sheet_underneath_only() -> None:
    pages = tile_face(big_face(370, 240), "a4", PrintSpec(), OVERLAP, glue_text="glue")
    bands = [
        [op for op in p.ops if isinstance(op, Rect) and op.dash and op.w == pytest.approx(OVERLAP)]
        for p in pages
    ]
    assert len(bands[0]) == 1 and bands[1] == []
    p = placed(pages[0])
    assert bands[0][0].x + bands[0][0].w == pytest.approx(p.x + p.clip[0] + p.clip[2])  # at the right edge


def test_overlap_too_small_for_targets_is_refused() -> None:
    with pytest.raises(LayoutError, match="too small for the alignment targets"):
        tile_face(big_face(370, 240), "a4", PrintSpec(), mm(3))
