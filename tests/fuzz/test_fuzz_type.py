"""Hostile type input: any text through the line breaker (UAX #14, BudouX, hyphenation) keeps every
character, in order, and never raises; a hostile `style.min_contrast` is a clean located error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.contract.load import load_kit
from generator.errors import SpecError
from generator.layout.linebreak import segments
from generator.layout.rich import Piece, wrap_rich
from generator.layout.text import wrap

ROOT = Path(__file__).resolve().parents[2]
ALPHABET = st.sampled_from(
    list("ab Zß-/.,!?()«»「」（）、。ー·→×%0123456789 mm")
    + ["ボ", "ナ", "ス", "カ", "ド", "語", "\u00a0", "\u200b"]
)


def _measure(text: str, font: str, size: float) -> float:
    return len(text) * size * 0.5


def _bare(text: str) -> str:
    """`text` without its spaces and hyphens (a line end drops spaces; hyphenation adds hyphens)."""
    return "".join(text.split()).replace("-", "")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(ALPHABET, max_size=60), st.sampled_from(["", "en", "de", "fr", "es", "ja", "xx"]))
def test_any_text_keeps_its_characters_through_the_line_breaker(text, lang):
    assert "".join(segments(text)) == text
    kept = _bare(text)
    for width in (1.0, 12.0, 40.0):
        lines = wrap(text, "regular", 10, width, _measure, lang=lang)
        assert _bare("".join(lines)) == kept
        rich = wrap_rich([Piece(text, False)], "regular", 10, width, _measure, lang=lang)
        assert _bare("".join(p.text for line in rich for p in line)) == kept


@pytest.mark.parametrize("value", ["abc", -1, 0, 22, ".nan", "[4.5]", "{a: 1}"])
def test_a_hostile_min_contrast_is_a_located_error(tmp_path, value):
    kit = tmp_path / "ripple_rush"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    spec = kit / "kit.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + f"style:\n  min_contrast: {value}\n", encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_kit(kit)
    assert "kit.yaml:" in str(e.value) and "style.min_contrast" in str(e.value)


def test_a_designer_may_lower_the_contrast_floor(tmp_path):
    kit = tmp_path / "ripple_rush"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    spec = kit / "kit.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + "style:\n  min_contrast: 3\n", encoding="utf-8")
    assert load_kit(kit).style.min_contrast == 3
