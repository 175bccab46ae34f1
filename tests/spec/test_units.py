import pytest

from generator.units import CARD_PRESETS, PAPER, mm, parse_length, to_mm


@pytest.mark.parametrize("text,points", [("63.5mm", 180.0), ("2.5in", 180.0), ("12pt", 12.0), ("1cm", 28.3465), ("0.5 mm", 1.41732)])
def test_parse_length(text, points):
    assert parse_length(text) == pytest.approx(points, abs=1e-3)


@pytest.mark.parametrize("bad", ["63.5", "mm", "3 furlongs", "", 3, None, True, "1e3mm"])
def test_parse_length_refuses_unitless_and_junk(bad):
    with pytest.raises(ValueError, match="expected a length with a unit"):
        parse_length(bad)


def test_paper_and_presets_are_exact():
    assert PAPER["a4"] == pytest.approx((595.2756, 841.8898), abs=1e-3)
    assert PAPER["letter"] == (612.0, 792.0)
    assert to_mm(CARD_PRESETS["poker"][0]) == pytest.approx(63.5)
    assert to_mm(CARD_PRESETS["tarot"][1]) == pytest.approx(120)
    assert mm(25.4) == pytest.approx(72)
