"""pnpkit export: Tabletop Simulator sheets and saved object, print-on-demand card images, read back."""

import csv
import hashlib
import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import numpy as np
import pytest
from PIL import Image

from generator.errors import KitError
from generator.export import ExportOptions, export
from generator.pipeline import load_kits

ROOT = Path(__file__).resolve().parents[2]
RUMMY = ROOT / "layouts" / "rummy_cards"


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Rummy Cards in English: TTS sheets and TGC poker card images, exported once for the module."""
    out = tmp_path_factory.mktemp("export")
    result = export(
        [RUMMY], out=out, langs=["en"], options=ExportOptions(tts=True, cards=True, size="tgc-poker")
    )
    return out / "rummy_cards" / "en", result


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def bag(folder: Path) -> dict:
    data = json.loads((folder / "tts" / "rummy_cards-en.json").read_text(encoding="utf-8"))
    (obj,) = data["ObjectStates"]
    assert obj["Name"] == "Bag"
    return obj


def test_every_tts_sheet_is_within_4096_px_and_10_by_7_and_holds_the_whole_deck(exported):
    folder, _ = exported
    (deck,) = [o for o in bag(folder)["ContainedObjects"] if o["Name"] == "DeckCustom"]
    game = load_kits([RUMMY])[0].game
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == game.total_cards == 106
    slots = 0
    for key, entry in deck["CustomDeck"].items():
        path = Path(unquote(urlparse(entry["FaceURL"]).path))
        assert path.is_file() and path.parent == folder / "tts"
        with Image.open(path) as sheet:
            width, height = sheet.size
        assert width <= 4096 and height <= 4096
        assert 2 <= entry["NumWidth"] <= 10 and 2 <= entry["NumHeight"] <= 7
        assert (
            width % entry["NumWidth"] == 0 and height % entry["NumHeight"] == 0
        )  # TTS cuts the sheet evenly
        assert entry["BackIsHidden"] is True and entry["UniqueBack"] is False
        assert Path(unquote(urlparse(entry["BackURL"]).path)).is_file()
        ids = [i for i in deck["DeckIDs"] if i // 100 == int(key)]
        assert ids == [int(key) * 100 + s for s in range(len(ids))]  # slots in order, row by row
        assert len(ids) <= entry["NumWidth"] * entry["NumHeight"]
        slots += len(ids)
    assert slots == 106


def test_the_sidecar_csv_lists_the_deck_in_definition_order(exported):
    folder, _ = exported
    rows = read_csv(folder / "tts" / "number_cards.csv")
    assert [r["index"] for r in rows] == [str(i) for i in range(1, 107)]
    assert [r["id"] for r in rows[:3]] == ["yellow-1-1", "yellow-1-2", "yellow-2-1"]
    assert [r["id"] for r in rows[-2:]] == ["joker-1", "joker-2"]
    (deck,) = [o for o in bag(folder)["ContainedObjects"] if o["Name"] == "DeckCustom"]
    assert [int(r["card_id"]) for r in rows] == deck["DeckIDs"]
    assert [c["Nickname"] for c in deck["ContainedObjects"]] == [r["id"] for r in rows]


def test_every_sheet_slot_shows_the_colour_of_the_card_the_csv_names_there(exported):
    # read the frame colour of each slot back from the pixels and compare it with the colour in the card's id
    folder, _ = exported
    colours = {
        c.id: tuple(int(c.colour[k : k + 2], 16) for k in (1, 3, 5))
        for c in load_kits([RUMMY])[0].game.colours
    }
    rows = read_csv(folder / "tts" / "number_cards.csv")
    deck = next(o for o in bag(folder)["ContainedObjects"] if o["Name"] == "DeckCustom")["CustomDeck"]
    checked = 0
    for key, entry in deck.items():
        with Image.open(Path(unquote(urlparse(entry["FaceURL"]).path))) as im:
            sheet = im.convert("RGB")
        cw, ch = sheet.width // entry["NumWidth"], sheet.height // entry["NumHeight"]
        for r in rows:
            if int(r["card_id"]) // 100 != int(key) or r["id"].startswith("joker"):
                continue
            row, col = divmod(int(r["slot"]), entry["NumWidth"])
            pixel = sheet.getpixel((col * cw + 3, row * ch + ch // 2))
            nearest = min(colours, key=lambda c: sum((a - b) ** 2 for a, b in zip(colours[c], pixel)))
            assert nearest == r["id"].split("-")[0], (r, pixel)
            checked += 1
    assert checked == 104


def test_score_sheets_and_boards_become_custom_tiles(exported):
    folder, _ = exported
    tiles = {o["Description"]: o for o in bag(folder)["ContainedObjects"] if o["Name"] == "Custom_Tile"}
    assert set(tiles) == {"score_pad", "card_holder", "rules"}
    url = tiles["score_pad"]["CustomImage"]["ImageURL"]
    with Image.open(Path(unquote(urlparse(url).path))) as im:
        assert max(im.size) <= 4096 and min(im.size) > 500


def test_card_pngs_are_825_by_1125_with_art_in_the_bleed(exported):
    folder, _ = exported
    rows = read_csv(folder / "cards" / "manifest.csv")
    fronts = [r for r in rows if r["side"] == "front"]
    backs = [r for r in rows if r["side"] == "back"]
    assert len(fronts) == 106 and sum(int(r["count"]) for r in fronts) == 106
    assert len(backs) == 1 and backs[0]["count"] == "106"
    assert fronts[0]["file"] == "number_cards/001-yellow-1-1-front.png"
    for r in fronts[::13] + fronts[-2:] + backs:
        path = folder / "cards" / r["file"]
        data = path.read_bytes()
        assert hashlib.sha256(data).hexdigest() == r["sha256"]
        with Image.open(path) as im:
            assert im.size == (825, 1125)
            px = np.asarray(im.convert("RGB")).astype(int)
        band = np.concatenate(
            [
                px[:37].reshape(-1, 3),
                px[-37:].reshape(-1, 3),
                px[:, :37].reshape(-1, 3),
                px[:, -37:].reshape(-1, 3),
            ]
        )
        white = (band.min(axis=1) > 235).mean()
        assert white == 0.0, (
            r["file"],
            white,
        )  # full-bleed cards: no white edge anywhere in the outer 1/8 in


def test_the_back_png_is_the_printed_back(exported):
    folder, _ = exported
    with Image.open(folder / "cards" / "number_cards" / "001-back-back.png") as im:
        r, g, b = im.convert("RGB").getpixel((10, 10))
    assert (r, g, b) == (0x0F, 0x4C, 0x5C)  # the teal field runs into the bleed


def test_two_exports_are_byte_identical(exported, tmp_path):
    folder, _ = exported
    again = export(
        [RUMMY], out=tmp_path, langs=["en"], options=ExportOptions(tts=True, cards=True, size="tgc-poker")
    )
    first = sorted(p.relative_to(folder) for p in folder.rglob("*") if p.is_file())
    second_root = tmp_path / "rummy_cards" / "en"
    second = sorted(p.relative_to(second_root) for p in second_root.rglob("*") if p.is_file())
    assert first == second and len(first) == len(again.files)
    differ = [str(p) for p in first if (folder / p).read_bytes() != (second_root / p).read_bytes()]
    # the saved object names its images by absolute file:/// URL, so only it may differ between folders
    assert differ == ["tts/rummy_cards-en.json"]
    a = (
        (folder / "tts" / "rummy_cards-en.json")
        .read_text(encoding="utf-8")
        .replace(folder.parent.parent.resolve().as_uri(), "ROOT")
    )
    b = (
        (second_root / "tts" / "rummy_cards-en.json")
        .read_text(encoding="utf-8")
        .replace(tmp_path.resolve().as_uri(), "ROOT")
    )
    assert a == b


def test_base_url_prefixes_every_image(tmp_path):
    export(
        [RUMMY],
        out=tmp_path,
        langs=["ja"],
        options=ExportOptions(tts=True, base_url="https://example.org/pnp/"),
    )
    text = (tmp_path / "rummy_cards" / "ja" / "tts" / "rummy_cards-ja.json").read_text(encoding="utf-8")
    urls = [
        line.split('"')[3]
        for line in text.splitlines()
        if '"FaceURL"' in line or '"BackURL"' in line or '"ImageURL"' in line
    ]
    assert urls and all(u.startswith("https://example.org/pnp/rummy_cards/ja/tts/") for u in urls)
    assert "file://" not in text
    assert "ラミーカード" in text or "ラミー" in text  # the bag carries the Japanese kit title


def test_every_shipped_kit_exports_every_card_of_every_deck_onto_valid_sheets(tmp_path):
    from generator.exportplan.plan import decks_and_boards
    from generator.pipeline import compose_one, print_data, shipped_kits, with_print
    from generator.render.fonts import text_width

    export(shipped_kits(), out=tmp_path, langs=["en"], options=ExportOptions(tts=True))
    for kit in load_kits(shipped_kits()):
        shop = with_print(kit, {"mode": "shop", "duplex": "long"})
        comps, _ = compose_one(
            shop,
            "en",
            shop.print.paper,
            kit.meta.seed,
            print_data(kit, kit.meta.seed),
            text_width,
            lambda _: None,
        )
        decks, boards = decks_and_boards(comps)
        expected = {d.title: len(d.cards) for d in decks}
        folder = tmp_path / kit.meta.id / "en" / "tts"
        data = json.loads((folder / f"{kit.meta.id}-en.json").read_text(encoding="utf-8"))
        objects = data["ObjectStates"][0]["ContainedObjects"]
        got = {}
        for o in objects:
            if o["Name"] in ("DeckCustom", "Card"):
                got[o["Nickname"]] = len(o.get("DeckIDs", [o.get("CardID")]))
                for entry in o["CustomDeck"].values():
                    with Image.open(Path(unquote(urlparse(entry["FaceURL"]).path))) as sheet:
                        assert max(sheet.size) <= 4096
                        assert sheet.width % entry["NumWidth"] == 0 and sheet.height % entry["NumHeight"] == 0
                    assert entry["NumWidth"] <= 10 and entry["NumHeight"] <= 7
        assert got == expected, kit.meta.id
        assert sum(o["Name"] == "Custom_Tile" for o in objects) == len(boards)
        rows = sum(len(read_csv(folder / f"{d.component}.csv")) for d in decks)
        assert rows == sum(expected.values())


def test_rummy_card_text_stays_inside_the_print_shops_safe_area(exported):
    """The corner digits once reached 1 pt past TGC's 1/8 in safe margin: the export must not warn."""
    _, result = exported
    unsafe = [w for w in result.warnings if "safe area" in w]
    assert unsafe == []


def test_card_images_are_drawn_in_the_kit_fonts_as_the_pdf_is(tmp_path):
    """A kit with `style.fonts` (the worked example: card numbers in DejaVu Serif) exports card images in
    those fonts, not in the built-in one: the same card exported from a copy without the `style:` block
    differs."""
    import re
    import shutil

    example = ROOT / "docs" / "examples" / "make_it_yours"
    plain = tmp_path / "plain"
    shutil.copytree(example, plain)
    spec = (plain / "kit.yaml").read_text(encoding="utf-8")
    (plain / "kit.yaml").write_text(re.sub(r"\nstyle:\n(  .*\n|\n)*", "\n", spec, count=1), encoding="utf-8")
    fronts = []
    for kit, out in ((example, tmp_path / "a"), (plain, tmp_path / "b")):
        export([kit], out=out, langs=["en"], options=ExportOptions(cards=True, dpi=72))
        (first,) = sorted((out / "make_it_yours" / "en" / "cards" / "number_cards").glob("001-*-front.png"))
        fronts.append(np.asarray(Image.open(first).convert("L"), dtype=int))
    a, b = fronts
    assert a.shape == b.shape and np.abs(a - b).sum() > 0  # the serif numbers are other pixels


def _files(root: Path) -> dict[str, bytes]:
    """Every file under root by relative path; the saved TTS objects with their absolute image URLs cut."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file():
            data = p.read_bytes()
            if p.suffix == ".json":
                data = data.replace(root.resolve().as_uri().encode(), b"ROOT")
            out[str(p.relative_to(root))] = data
    return out


def test_the_languages_compose_on_worker_processes_into_the_same_files(tmp_path, monkeypatch):
    """Three kit x language pairs (the first made here, two on workers): the same files and warnings as one
    process makes; a pair that fails (a showcase of an unknown card) raises the serial error and writes
    nothing."""
    import generator.export as module

    harvest = ROOT / "layouts" / "harvest_deck"
    made_here: list[str] = []  # a worker's appends stay in the worker
    compose = module._compose_export
    monkeypatch.setattr(
        module, "_compose_export", lambda kit, lang, *a: made_here.append(lang) or compose(kit, lang, *a)
    )
    runs = {}
    for workers in (1, 2):
        made_here.clear()
        options = ExportOptions(tts=True, cards=True, pages=True, showcase="cards", dpi=72, workers=workers)
        out = tmp_path / f"w{workers}"
        result = export([harvest], out=out, langs=["en", "ja", "de"], options=options)
        runs[workers] = (_files(out), result.warnings)
    assert made_here == ["en"]  # ja and de came back from the workers (none was made again here)
    assert runs[1] == runs[2] and len(runs[1][0]) > 30
    errors = []
    for workers in (1, 2):
        options = ExportOptions(cards=True, showcase="cards:no-such-card", dpi=72, workers=workers)
        with pytest.raises(KitError) as e:
            export([harvest], out=tmp_path / f"bad{workers}", langs=["en", "ja", "de"], options=options)
        errors.append(str(e.value))
        assert not (tmp_path / f"bad{workers}").exists()
    assert errors[0] == errors[1] and "no-such-card" in errors[0]
