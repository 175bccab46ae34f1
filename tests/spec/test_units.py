import pytest

from generator.units import CARD_PRESETS, PAPER, mm, parse_length, to_mm


@pytest.mark.parametrize(
    "text,points",
    [("63.5mm", 180.0), ("2.5in", 180.0), ("12pt", 12.0), ("1cm", 28.3465), ("0.5 mm", 1.41732)],
)
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


def test_lengths_in_messages_are_rounded():
    """Issue 26 item 7: "lengths in messages are rounded (14.17 pt)": points to 2 decimals, millimetres to
    1."""
    from generator.units import mm, mm_text, pt_text

    assert pt_text(mm(5)) == "14.17 pt" and repr(mm(5)).startswith("14.1732283464566")
    assert pt_text(7) == "7.00 pt" and pt_text(-0.001) == "0.00 pt"
    assert mm_text(mm(3)) == "3.0 mm" and mm_text(mm(2.96)) == "3.0 mm" and mm_text(14.17) == "5.0 mm"


def test_a_fit_message_shows_rounded_lengths():
    """A label that cannot shrink to fit names its sizes rounded, not as float reprs."""
    import pytest

    from generator.errors import LayoutError
    from generator.layout.text import fit_line, vertical_label
    from generator.units import mm

    def measure(text: str, font: str, size: float) -> float:
        return len(text) * size * 0.6

    with pytest.raises(LayoutError) as e:
        fit_line(
            "A much longer label",
            "bold",
            mm(20),
            measure,
            size=mm(5),
            min_size=mm(3),
            where="goal.title (en)",
        )
    assert str(e.value) == (
        "goal.title (en): 'A much longer label' needs 161.57 pt at 14.17 pt but the box is "
        "56.69 pt wide (min size 8.50 pt)"
    )
    with pytest.raises(LayoutError) as e:
        vertical_label("大きい数", 10, 10, mm(3), mm(8), measure, min_size=mm(2.5), where="sheet.big (ja)")
    assert "needs 28.35 pt of column at 7.09 pt; the column has 22.68 pt" in str(e.value)
