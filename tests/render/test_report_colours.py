"""Issue 26 item 4: "Render a page of each kit under each simulation for the report": the HTML check report
shows the kit's printed faces as printed and under protanopia, deuteranopia, tritanopia and greyscale, made
with the same simulation as the palette check, and the table of every pair of game colours. Issue 33 item 8:
the faces are those that carry the suits (a card front of each colour, not a page of identical backs), large
enough to read the symbols."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from daltonlens import simulate as dl
from PIL import Image

from generator.checking import CheckRun, colour_check, write_reports
from generator.pipeline import load_kits
from generator.render.html_report import to_html
from generator.render.report_colours import MIN_FACE_PX, MIN_PICTURE_PX, NORMAL, ColourCheck
from generator.spec.colours import SIMULATIONS, to_grey
from tests.render.test_html_report import sample

ROOT = Path(__file__).resolve().parents[2]
RED = (0xD6, 0x2D, 0x3A)  # Ripple Rush's red suit (layouts/ripple_rush/kit.yaml)


@pytest.fixture(scope="module")
def ripple_rush() -> ColourCheck:
    kit = load_kits([ROOT / "layouts" / "ripple_rush"])[0]
    check = colour_check(kit)
    assert check is not None
    return check


def pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def test_the_pictures_show_a_card_of_each_suit_large_enough_to_read(ripple_rush: ColourCheck) -> None:
    """Ripple Rush: a number card of each suit side by side (the score sheet at 100 dpi showed its symbols
    about 290 px wide for the whole sheet), each card at least MIN_FACE_PX wide."""
    assert (ripple_rush.component, ripple_rush.lang, ripple_rush.dpi) == ("Number cards", "en", 120)
    assert [f.split("-")[0] for f in ripple_rush.faces] == ["blue", "red", "green", "orange"]
    assert [v.label for v in ripple_rush.views] == [NORMAL, *SIMULATIONS]
    shapes = {pixels(v.png).shape for v in ripple_rush.views}
    assert len(shapes) == 1
    height, width = shapes.pop()[:2]
    card = 63.5 / 25.4 * ripple_rush.dpi  # a poker card's width in pixels
    assert card >= MIN_FACE_PX and width >= max(MIN_PICTURE_PX, 4 * card) and height >= 88.9 / 25.4 * 120


def test_simulated_pages_differ_and_match_daltonlens_pixel_for_pixel(ripple_rush: ColourCheck) -> None:
    """A red/green kit looks different under every simulation; a pixel of the red suit in the simulated
    picture is exactly what daltonlens makes of that pixel (Viénot 1999 for protan/deutan, Brettel 1997 for
    tritan), and its grey the grey of the same L* that `build --greyscale` prints."""
    views = {v.label: pixels(v.png) for v in ripple_rush.views}
    original = views[NORMAL]
    red = np.argwhere(np.all(original == RED, axis=2))
    assert len(red) > 100  # the red card's frame is a flat fill
    y, x = red[len(red) // 2]
    for name in SIMULATIONS:
        assert (views[name] != original).any(axis=2).mean() > 0.01, name
    one = np.array([[RED]], dtype=np.uint8)
    expect = {
        "protanopia": dl.Simulator_Vienot1999().simulate_cvd(one, dl.Deficiency.PROTAN, 1.0)[0, 0],
        "deuteranopia": dl.Simulator_Vienot1999().simulate_cvd(one, dl.Deficiency.DEUTAN, 1.0)[0, 0],
        "tritanopia": dl.Simulator_Brettel1997().simulate_cvd(one, dl.Deficiency.TRITAN, 1.0)[0, 0],
        "greyscale": np.array([to_grey(RED)] * 3),
    }
    for name, rgb in expect.items():
        assert tuple(views[name][y, x]) == tuple(int(c) for c in rgb), name
    assert tuple(views["deuteranopia"][y, x]) != RED


def test_the_pair_table_has_every_pair_and_the_palette_checks_verdict(ripple_rush: ColourCheck) -> None:
    rows = {(p.a.id, p.b.id): p for p in ripple_rush.pairs}
    assert len(rows) == 6 and ripple_rush.key == "suits" and ripple_rush.threshold == 10.0
    red_green = rows[("red", "green")]
    under = dict(red_green.under)
    assert list(under) == list(SIMULATIONS)
    assert (
        round(under["deuteranopia"], 1) == 8.6 and red_green.verdict == "note"
    )  # marks differ: square, hexagon
    assert rows[("blue", "green")].verdict == "ok" and red_green.normal > 100


def test_the_report_embeds_the_five_pictures_and_the_table(ripple_rush: ColourCheck, tmp_path: Path) -> None:
    html = to_html([sample()], title="t", colours=[ripple_rush])
    assert html.count('src="data:image/png;base64,') == 5
    for label in (NORMAL, *SIMULATIONS):
        assert f"<figcaption>{label}</figcaption>" in html
    faces = ", ".join(ripple_rush.faces)  # a number card of each suit (which one: the first as specific)
    assert [f.split("-")[0] for f in ripple_rush.faces] == ["blue", "red", "green", "orange"]
    assert f"Colour vision and greyscale: Number cards, faces {faces} (en)" in html
    assert '<td class="num low">8.6</td>' in html and "note: marks differ" in html
    assert "data:image" not in to_html([sample()], title="t")  # no section without a colour check
    path = tmp_path / "r.html"
    write_reports(
        CheckRun([sample()], html_reports=[sample()], colour_checks=[ripple_rush]),
        json_path=None,
        html_path=path,
    )
    assert path.read_text(encoding="utf-8") == html.replace(
        "<title>t</title>", "<title>pnpkit balance report</title>"
    ).replace("<h1>t</h1>", "<h1>pnpkit balance report</h1>")


def test_same_kit_same_seed_same_bytes(ripple_rush: ColourCheck) -> None:
    kit = load_kits([ROOT / "layouts" / "ripple_rush"])[0]
    again = colour_check(kit)
    assert again == ripple_rush
    assert to_html([sample()], title="t", colours=[again]) == to_html(
        [sample()], title="t", colours=[ripple_rush]
    )


def test_a_game_without_colours_to_tell_apart_has_no_section() -> None:
    kit = load_kits([ROOT / "layouts" / "harvest_deck"])[0]
    assert colour_check(kit) is None


def _face_colours(check: ColourCheck, swatches: list[str]) -> list[set[str]]:
    """Which of `swatches` each quarter of the normal picture shows (as flat pixels)."""
    image = pixels(check.views[0].png)
    rgb = {s: tuple(int(s[i : i + 2], 16) for i in (1, 3, 5)) for s in swatches}
    quarters = np.array_split(image, len(check.faces), axis=1)
    return [{s for s, c in rgb.items() if np.all(q == c, axis=2).sum() > 200} for q in quarters]


def test_rummy_shows_a_card_front_of_each_colour_not_the_backs() -> None:
    """Rummy Cards' backs show a ring of every colour's symbol; the report pictured page 2, a sheet of
    identical backs. Now: one number card front per colour, each picture quarter printing its colour's frame,
    the faces chosen from what the components draw (no game is named)."""
    kit = load_kits([ROOT / "layouts" / "rummy_cards"])[0]
    check = colour_check(kit)
    assert check is not None
    colours = [c.colour.lower() for c in kit.game.colours]
    assert [f.split("-")[0] for f in check.faces] == [c.id for c in kit.game.colours]
    assert check.component == "Number cards and jokers"
    assert _face_colours(check, colours) == [{c} for c in colours]
    width = pixels(check.views[0].png).shape[1]
    assert width >= MIN_PICTURE_PX and width / len(check.faces) >= MIN_FACE_PX
