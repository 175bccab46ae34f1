"""Art that leaves text legible (issue 33, item 8): logos kept whole, art boxes in the collision check, the
bleed band of full-bleed art opaque, text and icons over art kept in contrast, font roles by meaning."""

from __future__ import annotations

from pathlib import Path

from generator.contract.load import load_kit
from generator.layout.ops import fitted, iter_art

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "make_it_yours"


def _compose(kit_dir: Path, lang: str = "en"):  # type: ignore[no-untyped-def]
    from generator.pipeline import compose_one, print_data
    from generator.render.fonts import text_width

    kit = load_kit(kit_dir)
    comps, _ = compose_one(
        kit, lang, "a4", kit.meta.seed, print_data(kit, kit.meta.seed), text_width, lambda m: None
    )
    return kit, {c.id: c for c in comps}


def test_a_logo_slot_keeps_the_whole_logo_by_default():
    """make_it_yours names no `fit` for its logos: the logo is drawn whole inside its slot (contain), where
    the
    old default (cover) scaled it past the box and cut off its outer ring."""
    _, comps = _compose(EXAMPLE)
    logos = [
        (cid, op)
        for cid in ("score_sheet", "rules")
        for page in comps[cid].pages
        for op, _ in iter_art(page.ops)
        if op.slot == "logo"
    ]
    assert {cid for cid, _ in logos} == {"score_sheet", "rules"}
    for cid, op in logos:
        x, y, w, h = fitted(op)
        assert op.fit == "contain", (cid, op.fit)
        assert x >= op.x - 1e-6 and y >= op.y - 1e-6, (cid, (x, y), (op.x, op.y))
        assert x + w <= op.x + op.w + 1e-6 and y + h <= op.y + op.h + 1e-6, (cid, (x, y, w, h), op)


def test_other_slots_still_cover_and_a_named_fit_wins(tmp_path):
    """A back with no `fit` still fills its box (cover); a logo that names `fit: cover` gets it."""
    import shutil

    kit_dir = tmp_path / "kit"
    shutil.copytree(EXAMPLE, kit_dir)
    text = (kit_dir / "kit.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "logo: assets/logo.svg", "logo: {path: assets/logo.svg, fit: cover}", 1
    )  # score_sheet
    (kit_dir / "kit.yaml").write_text(text, encoding="utf-8")
    _, comps = _compose(kit_dir)
    fits = {
        (cid, op.slot): op.fit
        for cid in ("score_sheet", "rules", "number_cards")
        for page in comps[cid].pages
        for op, _ in iter_art(page.ops)
        if op.slot in ("logo", "back")
    }
    assert fits == {
        ("score_sheet", "logo"): "cover",
        ("rules", "logo"): "contain",
        ("number_cards", "back"): "cover",
    }
