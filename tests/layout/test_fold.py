"""`print.duplex: fold`: each card's front and back side by side, the back mirrored across a dashed fold
line, every cut with crop marks. Read back with independent readers: pdfplumber finds the fold lines in the
written PDF, pypdfium2 rasters the page and the pixels of each back, reflected across its fold line, must
cover its front's (so they line up when the pair is folded)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pdfplumber
import pypdfium2 as pdfium
import pytest

from generator.layout.checklist import finishing
from generator.layout.fold import fold_pairs
from generator.layout.imposition import impose_cards
from generator.layout.ops import Face, Line, Place, Rect
from generator.layout.sheets import page_sides
from generator.render.pdf import write_pdf
from generator.spec.print import PrintSpec
from generator.units import CARD_PRESETS, mm

FOLD = PrintSpec(duplex="fold")
FRONT, BACK, MARK = "#ff0000", "#00c000", "#0000ff"


def _face(n: int, w: float, h: float, *, back: bool, bleed: float = mm(3)) -> Face:
    """A flat face with art over its bleed and a marker square in one top corner: a front's at its top right,
    a back's at its top left, where the front's top right lands when the pair is folded and turned over."""
    side = mm(6)
    x = side * 0.5 if back else w - side * 1.5
    return Face(
        f"{'B' if back else 'F'}{n}",
        w,
        h,
        (
            Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, fill=BACK if back else FRONT, stroke=None),
            Rect(x, h - side * 1.5, side, side, fill=MARK, stroke=None),
        ),
    )


def _deck(n: int, w: float, h: float) -> tuple[list[Face], list[Face]]:
    return [_face(i, w, h, back=False) for i in range(n)], [_face(i, w, h, back=True) for i in range(n)]


def _trims(page_ops: list[object]) -> list[tuple[str, float, float, float, float]]:
    """(face name, x0, y0, x1, y1) of every placed face's trim on the page."""
    out = []
    for op in page_ops:
        if isinstance(op, Place) and op.name:
            face_w = op.clip[2] + 2 * op.clip[0]  # clip runs from -bleed to w + bleed
            face_h = op.clip[3] + 2 * op.clip[1]
            if op.rotate == 90:
                out.append((op.name, op.x - face_h, op.y, op.x, op.y + face_w))
            elif op.rotate == -90:
                out.append((op.name, op.x, op.y - face_w, op.x + face_h, op.y))
            else:
                out.append((op.name, op.x, op.y, op.x + face_w, op.y + face_h))
    return out


@pytest.mark.parametrize("preset", ["poker", "mini", "tarot", "square"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_back_is_its_front_mirrored_across_a_fold_line(preset: str, paper: str) -> None:
    w, h = CARD_PRESETS[preset]
    fronts, backs = _deck(11, w, h)
    pages = impose_cards("deck", fronts, backs, FOLD, paper)
    assert [p.label for p in pages] == [f"deck fold {i + 1}" for i in range(len(pages))]
    seen = []
    for page in pages:
        trims = {name: box for name, *box in _trims(page.ops)}
        folds = [op for op in page.ops if isinstance(op, Line) and op.dash and op.x1 == op.x2]
        fold_xs = {round(op.x1, 3) for op in folds}
        for name, (x0, y0, x1, y1) in trims.items():
            if not name.startswith("F"):
                continue
            seen.append(name)
            bx0, by0, bx1, by1 = trims["B" + name[1:]]
            fold = (x1 + bx0) / 2
            assert round(fold, 3) in fold_xs, (name, fold, fold_xs)
            assert (bx0 - fold, bx1 - fold) == pytest.approx((fold - x1, fold - x0))
            assert (by0, by1) == pytest.approx((y0, y1))
            # inside the printer's margin, nothing overlapping
            assert x0 >= FOLD.margin and bx1 <= page.width - FOLD.margin
        boxes = list(trims.values())
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert (
                    a[2] <= b[0] + 1e-6 or b[2] <= a[0] + 1e-6 or a[3] <= b[1] + 1e-6 or b[3] <= a[1] + 1e-6
                )
    assert sorted(seen) == sorted(f.name for f in fronts)


def test_every_cut_has_crop_marks_on_both_ends() -> None:
    w, h = CARD_PRESETS["poker"]
    page = impose_cards("deck", *_deck(4, w, h), FOLD, "a4")[0]
    trims = _trims(page.ops)
    marks = [op for op in page.ops if isinstance(op, Line) and not op.dash and op.stroke == "cut"]
    top = max(t[4] for t in trims)
    bottom = min(t[2] for t in trims)
    for x in {round(v, 3) for t in trims for v in (t[1], t[3])}:
        ends = [m for m in marks if m.x1 == m.x2 and round(m.x1, 3) == x]
        assert any(min(m.y1, m.y2) > top for m in ends) and any(max(m.y1, m.y2) < bottom for m in ends), x


def test_a_fold_page_is_one_sided_and_says_fold_glue_cut() -> None:
    w, h = CARD_PRESETS["poker"]
    pages = impose_cards("deck", *_deck(5, w, h), FOLD, "a4")
    sides = page_sides(pages)
    assert [s.kind for s in sides] == ["single", "single"]
    assert [len(s.slots) for s in sides] == [4, 1]  # cards, not faces
    assert finishing(pages) == ("foldglue",)
    # no backs (a component printed one-sided) or the print shop: no fold pages
    assert "fold" not in impose_cards("deck", _deck(5, w, h)[0], None, FOLD, "a4")[0].label
    assert (
        "fold"
        not in impose_cards("deck", *_deck(5, w, h), FOLD.model_copy(update={"mode": "shop"}), "a4")[0].label
    )


def test_fold_layout_is_the_same_every_time() -> None:
    w, h = CARD_PRESETS["poker"]
    assert fold_pairs(w, h, 9, FOLD, "a4") == fold_pairs(w, h, 9, FOLD, "a4")


def _mask(img: np.ndarray, rgb: tuple[int, int, int]) -> np.ndarray:
    """The pixels of `img` (uint8 RGB) within 39 of `rgb` in every channel: |pixel - rgb| < 40, compared on
    the 8-bit channels (no wider copy of a 432 dpi page per colour)."""
    mask = np.ones(img.shape[:2], dtype=bool)
    for channel, value in enumerate(rgb):
        plane = img[:, :, channel]
        if value - 39 > 0:
            mask &= plane >= value - 39
        if value + 39 < 255:
            mask &= plane <= value + 39
    return mask


@pytest.mark.parametrize("preset", ["poker", "mini"])
def test_front_and_back_line_up_when_folded_in_the_pixels(tmp_path: Path, preset: str) -> None:
    w, h = CARD_PRESETS[preset]
    pdf = tmp_path / "fold.pdf"
    write_pdf(impose_cards("deck", *_deck(4, w, h), FOLD, "a4"), pdf, title="fold")
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        page_h = float(page.height)
        folds = sorted(
            {
                round(float(ln["x0"]), 2)
                for ln in page.lines
                if ln.get("dash") and ln["dash"][0] and ln["x0"] == ln["x1"]
            }
        )
    assert folds, "no dashed fold line in the PDF"
    pairs = fold_pairs(w, h, 4, FOLD, "a4")[0]
    scale = 6.0  # px per point: 432 dpi
    img = np.asarray(pdfium.PdfDocument(pdf)[0].render(scale=scale).to_pil().convert("RGB"))
    mark = _mask(img, (0, 0, 255))
    front = _mask(img, (255, 0, 0)) | mark
    back = _mask(img, (0, 192, 0)) | mark
    cols = np.arange(img.shape[1])
    checked = 0
    for fold in folds:
        fx = fold * scale
        # the pair's own band: the columns within one card (plus bleed) of the fold on either side
        # (a card's width on the page: its height where the layout turned the faces)
        across = next(p.fold_x - p.front[0] for p in pairs if round(p.fold_x, 2) == fold)
        left = (cols < fx) & (cols > fx - across * scale)
        reach = int(left.sum())
        mirrored = np.zeros_like(back)
        mirrored_mark = np.zeros_like(mark)
        # each column left of the fold takes the back's column mirrored across it (rounded half to even)
        c = np.nonzero(left)[0]
        src = np.rint(2 * fx - c - 1).astype(int)
        inside = (src >= 0) & (src < img.shape[1])
        c, src = c[inside], src[inside]
        mirrored[:, c] = back[:, src]
        mirrored_mark[:, c] = mark[:, src] & (src > fx)[None, :]
        here = front & left[None, :]
        theirs = mirrored & left[None, :]
        union, inter = (here | theirs).sum(), (here & theirs).sum()
        assert reach and inter / union > 0.99, (fold, inter / union)
        mine = mark & left[None, :]
        assert (mine & mirrored_mark).sum() / max(mine.sum(), 1) > 0.9, fold
        checked += 1
    assert checked == len(folds) and page_h > 0
