"""Exports true to the PDF: per-row backs in --tts and --cards, cards named as players call them, every page
as a picture (--pages), a fanned hand (--showcase), and the print-on-demand sizes of three shops."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image
from typer.testing import CliRunner

from generator.cli import app
from generator.exportplan.plan import POD_SIZES, fan_layout

ROOT = Path(__file__).resolve().parents[2]
HARVEST = ROOT / "layouts" / "harvest_deck"
runner = CliRunner()


def rows() -> list[dict[str, str]]:
    with open(HARVEST / "data" / "cards.csv", encoding="utf-8", newline="") as f:
        return [r for r in csv.DictReader(f) if int(r["count"]) > 0]


def rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 6) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


@pytest.fixture(scope="module")
def per_row(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Harvest Hands with a per-row back (its background in the row's colour), exported every way, in
    English."""
    tmp = tmp_path_factory.mktemp("per_row")
    kit = tmp / "harvest"
    shutil.copytree(HARVEST, kit)
    yaml = kit / "kit.yaml"
    text = yaml.read_text(encoding="utf-8")
    old = (
        '      back: &back\n        - {type: rect, x: "-5%", y: "-5%", w: "110%", h: "110%", fill: '
        '"#2d4a22", stroke: null}'
    )
    assert text.count(old) == 1
    yaml.write_text(text.replace(old, old.replace('"#2d4a22"', '"{{ colour }}"')), encoding="utf-8")
    out = tmp / "out"
    res = runner.invoke(
        app,
        [
            "export",
            str(kit),
            "--lang",
            "en",
            "--tts",
            "--cards",
            "--pages",
            "--showcase",
            "cards:wheat-4,plough-1,market-1,storm,festival",
            "--dpi",
            "100",
            "--out",
            str(out),
            "--workers",
            "1",
        ],
    )
    assert res.exit_code == 0, res.output
    return out / "harvest_deck" / "en"


def test_tts_per_row_backs_show_each_cards_own_back(per_row: Path) -> None:
    tts = per_row / "tts"
    deck = json.loads((tts / "harvest_deck-en.json").read_text())["ObjectStates"][0]["ContainedObjects"][0]
    entries = list(deck["CustomDeck"].values())
    assert all(e["UniqueBack"] for e in entries)
    sheet_rows = list(csv.DictReader(open(tts / "cards.csv", encoding="utf-8")))
    colours = {r["id"]: r["colour"] for r in rows()}
    back = Image.open(tts / "cards-back-1.png").convert("RGB")
    cols, nrows = entries[0]["NumWidth"], entries[0]["NumHeight"]
    cw, ch = back.width // cols, back.height // nrows
    seen = set()
    for r in sheet_rows:
        slot = int(r["slot"])
        x, y = (slot % cols) * cw, (slot // cols) * ch
        pixel = back.getpixel((x + 2, y + ch // 2))  # the background at the card's left edge
        assert near(pixel, rgb(colours[r["id"]])), (r["id"], pixel, colours[r["id"]])
        seen.add(colours[r["id"]])
    assert len(seen) > 3  # the test sees several backs, not one


def test_card_files_hold_one_back_per_distinct_back(per_row: Path) -> None:
    manifest = list(csv.DictReader(open(per_row / "cards" / "manifest.csv", encoding="utf-8")))
    backs = [m for m in manifest if m["side"] == "back"]
    colours = {r["colour"] for r in rows()}
    assert len(backs) == len(colours)
    assert sum(int(m["count"]) for m in backs) == sum(int(r["count"]) for r in rows())
    for m in backs:
        image = Image.open(per_row / "cards" / m["file"]).convert("RGB")
        assert any(near(image.getpixel((3, image.height // 2)), rgb(c)) for c in colours), m["file"]


def test_tts_cards_are_named_and_described_as_printed(per_row: Path) -> None:
    deck = json.loads((per_row / "tts" / "harvest_deck-en.json").read_text())["ObjectStates"][0][
        "ContainedObjects"
    ][0]
    names = {r["id"]: r["name"] for r in rows()}
    ids = [r["id"] for r in csv.DictReader(open(per_row / "tts" / "cards.csv", encoding="utf-8"))]
    for card, card_id in zip(deck["ContainedObjects"], ids):
        assert card["Nickname"] == names[card_id]
    wheat = deck["ContainedObjects"][0]
    assert "Plant it in your field" in wheat["Description"]
    assert "Wheat" not in wheat["Description"]  # the name is the nickname, not repeated


def test_shared_backs_stay_one_image(tmp_path: Path) -> None:
    out = tmp_path / "out"
    res = runner.invoke(
        app, ["export", str(HARVEST), "--lang", "en", "--tts", "--out", str(out), "--workers", "1"]
    )
    assert res.exit_code == 0, res.output
    tts = out / "harvest_deck" / "en" / "tts"
    assert (tts / "cards-back.png").is_file() and not (tts / "cards-back-1.png").exists()
    deck = json.loads((tts / "harvest_deck-en.json").read_text())["ObjectStates"][0]["ContainedObjects"][0]
    assert not any(e["UniqueBack"] for e in deck["CustomDeck"].values())


def test_pages_are_every_page_of_the_build_at_100_dpi(per_row: Path, tmp_path: Path) -> None:
    build = tmp_path / "build"
    res = runner.invoke(app, ["build", str(HARVEST), "--lang", "en", "--out", str(build)])
    assert res.exit_code == 0, res.output
    for pdf in sorted((build / "harvest_deck" / "en").glob("*-a4.pdf")):
        if pdf.name.startswith(("kit-", "calibration-")):
            continue
        component = pdf.name[: -len("-a4.pdf")]
        doc = pdfium.PdfDocument(str(pdf))
        pngs = sorted((per_row / "pages").glob(f"{component}-a4-*.png"))
        assert len(pngs) == len(doc), component
        w, h = doc[0].get_size()
        first = Image.open(pngs[0])
        assert abs(first.width - w * 100 / 72) <= 1 and abs(first.height - h * 100 / 72) <= 1


def test_showcase_fans_the_chosen_cards_on_a_transparent_picture(per_row: Path) -> None:
    image = Image.open(per_row / "showcase" / "cards.png")
    assert image.mode == "RGBA"
    size, slots = fan_layout(5, (600, round(600 * 88.9 / 63.5)))
    assert image.size == size and len(slots) == 5
    assert image.getpixel((0, 0))[3] == 0 and image.getpixel((image.width - 1, image.height - 1))[3] == 0
    # the middle card (market) stands upright in the middle: its colour band is at the top centre
    assert image.getpixel((image.width // 2, slots[2].y + 30))[3] == 255


def test_showcase_names_a_card_the_deck_does_not_hold(tmp_path: Path) -> None:
    res = runner.invoke(
        app,
        [
            "export",
            str(HARVEST),
            "--lang",
            "en",
            "--showcase",
            "cards:wheat-1,stormm",
            "--out",
            str(tmp_path / "o"),
        ],
    )
    assert res.exit_code == 1
    assert "no card 'stormm' in cards" in res.output
    assert not (tmp_path / "o" / "harvest_deck").exists()
    res = runner.invoke(
        app, ["export", str(HARVEST), "--lang", "en", "--showcase", "crads", "--out", str(tmp_path / "o")]
    )
    assert res.exit_code == 1 and "no kit has a deck of cards named 'crads'" in res.output


def test_fan_layout_keeps_every_card_on_the_canvas_and_is_symmetric() -> None:
    for n in range(1, 10):
        (cw, ch), slots = fan_layout(n, (600, 840))
        assert [round(s.angle, 6) for s in slots] == [round(-s.angle, 6) for s in reversed(slots)]
        for s in slots:
            assert s.x >= 0 and s.y >= 0 and s.x < cw and s.y < ch
        assert slots[0].x < slots[-1].x or n == 1


@pytest.mark.parametrize(
    ("name", "pixels"),
    [
        ("tgc-poker", (825, 1125)),
        ("mpc-poker", (822, 1122)),
        ("mpc-bridge", (747, 1122)),
        ("mpc-tarot", (897, 1497)),
        ("dtc-poker", (825, 1125)),
        ("dtc-tarot", (900, 1500)),
    ],
)
def test_print_on_demand_sizes_match_the_shops_templates(name: str, pixels: tuple[int, int]) -> None:
    assert POD_SIZES[name].pixels(300) == pixels
