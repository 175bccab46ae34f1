"""Export plans as data: TTS grids, card pixel sizes, file names; decks with per-card or no backs."""

import json
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from generator.cli import app
from generator.exportplan.plan import (
    POD_SIZES,
    TTS_MAX_PX,
    Card,
    Deck,
    card_file,
    tts_card_px,
    tts_sheets,
)
from generator.exportplan.tts import DeckImages, deck_object
from generator.layout.ops import Page, Place, Rect
from generator.render.export_images import tts_images, write_tts_deck
from generator.units import CARD_PRESETS, mm

ROOT = Path(__file__).resolve().parents[2]


def test_106_cards_make_a_full_10_by_7_sheet_and_a_10_by_4_one():
    grids = tts_sheets(106, (409, 573))
    assert [(g.cols, g.rows, len(g.cards)) for g in grids] == [(10, 7, 70), (10, 4, 36)]
    assert grids[1].cards[0] == 70 and grids[1].size_px == (4090, 2292)


@pytest.mark.parametrize("n, grid", [(1, (2, 2)), (3, (3, 2)), (12, (10, 2)), (70, (10, 7)), (71, (10, 7))])
def test_small_decks_get_the_smallest_grid_of_at_least_2_by_2(n, grid):
    assert (tts_sheets(n, (10, 10))[0].cols, tts_sheets(n, (10, 10))[0].rows) == grid


@pytest.mark.parametrize("size", sorted(CARD_PRESETS) + ["token"])
def test_a_full_sheet_of_any_card_size_stays_within_4096_px(size):
    w, h = CARD_PRESETS.get(size, (mm(26), mm(46)))
    cw, ch = tts_card_px(w, h)
    assert 10 * cw <= TTS_MAX_PX and 7 * ch <= TTS_MAX_PX
    assert abs(cw / ch - w / h) < 0.01  # proportions kept
    assert cw * 72 / w <= 300.5  # never above 300 dpi


def test_tgc_poker_is_825_by_1125_at_300_dpi():
    assert POD_SIZES["tgc-poker"].pixels(300) == (825, 1125)
    assert POD_SIZES["tgc-mini"].pixels(300) == (600, 825)


def test_card_files_sort_in_deck_order_and_are_safe_names():
    assert card_file("number_cards", 7, "yellow-4-1", "front") == "number_cards/007-yellow-4-1-front.png"
    assert card_file("a b", 12, "x/../y", "back") == "a_b/012-x_.._y-back.png"


def _page(name: str, colour: str, w: float = 60.0, h: float = 90.0, b: float = 9.0) -> Page:
    return Page(
        w + 2 * b,
        h + 2 * b,
        [
            Place(
                b,
                b,
                (Rect(-b, -b, w + 2 * b, h + 2 * b, fill=colour, stroke=None),),
                clip=(-b, -b, w + 2 * b, h + 2 * b),
            )
        ],
        trim_box=(b, b, b + w, b + h),
        bleed_box=(0, 0, w + 2 * b, h + 2 * b),
        face=name,
    )


def test_cards_with_their_own_backs_get_back_sheets_and_unique_back(tmp_path):
    cards = tuple(
        Card(i, f"c{i}", _page(f"c{i}", "#ff0000"), _page(f"b{i}", "#0000ff" if i % 2 else "#00ff00"))
        for i in range(1, 4)
    )
    deck = Deck("tiles", "Tiles", cards, 60.0, 90.0, 9.0)
    files = write_tts_deck(deck, tmp_path)
    assert files.face_files == ["tiles-sheet-1.png"] and files.back_files == ["tiles-back-1.png"]
    with Image.open(tmp_path / "tiles-back-1.png") as im:
        back = im.convert("RGB")
    cw = back.width // 3
    assert [back.getpixel((k * cw + cw // 2, 10)) for k in range(3)] == [
        (0, 0, 255),
        (0, 255, 0),
        (0, 0, 255),
    ]
    obj = deck_object(tts_images(files, lambda name: name), 1, 0.0, "k", "en")
    assert (
        obj["CustomDeck"]["1"]["UniqueBack"] is True
        and obj["CustomDeck"]["1"]["FaceURL"] == "tiles-sheet-1.png"
    )
    assert obj["CustomDeck"]["1"]["BackURL"] == "tiles-back-1.png"
    assert obj["CustomDeck"]["1"]["UniqueBack"] is True


def test_a_deck_without_backs_gets_a_plain_back_and_a_single_card_is_a_card(tmp_path):
    deck = Deck("token", "Token", (Card(1, "t", _page("t", "#ff0000"), None),), 60.0, 90.0, 9.0)
    files = write_tts_deck(deck, tmp_path)
    assert files.back_files == ["token-back.png"]
    with Image.open(tmp_path / "token-back.png") as im:
        assert im.convert("RGB").getpixel((5, 5)) == (255, 255, 255)
    obj = deck_object(DeckImages(deck, tuple(files.sheets), ("f",), ("b",)), 3, 0.0, "k", "en")
    assert obj["Name"] == "Card" and obj["CardID"] == 300 and json.dumps(obj)


runner = CliRunner()


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--cards", "--size", "a5"],
            "error: Invalid value for '--size': expected one of tgc-poker, tgc-bridge, tgc-mini, tgc-square, "
            "mpc-poker, mpc-bridge, mpc-mini, mpc-tarot, dtc-poker, dtc-tarot; got 'a5'\n",
        ),
        (
            ["--tts", "--format", "gif"],
            "error: Invalid value for '--format': expected one of png, jpeg (or jpg); got 'gif'\n",
        ),
        (
            ["--tts", "--format", "jpeg", "--quality", "0"],
            "error: Invalid value for '--quality': expected a number in 1..100; got 0\n",
        ),
        (
            ["--cards", "--dpi", "20"],
            "error: Invalid value for '--dpi': expected a number in 72..1200; got 20\n",
        ),
    ],
)
def test_bad_export_options_are_usage_errors_exit_2_and_nothing_written(tmp_path, args, message):
    res = runner.invoke(
        app, ["export", str(ROOT / "layouts" / "rummy_cards"), "--out", str(tmp_path / "o"), *args]
    )
    assert res.exit_code == 2 and res.stderr.endswith(message), res.stderr
    assert not (tmp_path / "o" / "rummy_cards").exists()


def test_a_language_the_kit_does_not_ship_is_a_usage_error_exit_2_and_nothing_written(tmp_path):
    res = runner.invoke(
        app,
        [
            "export",
            str(ROOT / "layouts" / "rummy_cards"),
            "--out",
            str(tmp_path / "o"),
            "--tts",
            "--lang",
            "it",
        ],
    )
    assert res.exit_code == 2, res.stderr
    assert res.stderr == "error: --lang: layouts/rummy_cards/kit.yaml ships en, ja, es, de, fr; got 'it'\n"
    assert not (tmp_path / "o" / "rummy_cards").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "error: nothing to export: pass --tts, --cards, --pages and/or --showcase\n"),
    ],
)
def test_bad_export_requests_are_one_located_line_exit_1_and_nothing_written(tmp_path, args, message):
    res = runner.invoke(
        app, ["export", str(ROOT / "layouts" / "rummy_cards"), "--out", str(tmp_path / "o"), *args]
    )
    assert (res.exit_code, res.stderr) == (1, message)
    assert not (tmp_path / "o" / "rummy_cards").exists()


def test_the_export_command_writes_jpeg_sheets_and_says_what_it_wrote(tmp_path):
    res = runner.invoke(
        app,
        [
            "export",
            str(ROOT / "layouts" / "rummy_cards"),
            "--tts",
            "--lang",
            "es",
            "--format",
            "jpeg",
            "--quality",
            "80",
            "--out",
            str(tmp_path),
        ],
    )
    assert res.exit_code == 0, res.stderr
    sheet = tmp_path / "rummy_cards" / "es" / "tts" / "number_cards-sheet-1.jpg"
    assert str(sheet) in res.stdout
    with Image.open(sheet) as im:
        assert im.format == "JPEG" and im.size == (4090, 4011)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".pnpkit")]  # the staging folder is gone


def test_sizes_and_formats_are_taken_in_any_case():
    from generator.cli.options import image_format, pod_size

    assert pod_size("MPC-Poker") == "mpc-poker" and pod_size(None) is None
    assert image_format("JPG") == "jpeg" == image_format("jpeg") and image_format("PNG") == "png"
