"""The printed Raindrops kit, read back from its PDFs (pdfplumber / pypdf / pikepdf) and looked at as PNG."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pypdf
import pytest
from PIL import Image

from generator.contract.load import load_kit
from generator.render.png import write_png
from generator.units import PAPER, mm
from tests.sheetcheck import recorded_sheets

ROOT = Path(__file__).resolve().parents[3]
KIT = ROOT / "layouts" / "raindrops"
LANGS = ("en", "ja", "es")
"""The languages of the built kit the tests read (each of the five shipped is the same build path)."""
COMPONENTS = [
    "window_board",
    "raindrop_tiles",
    "bonus_tiles",
    "cloud_tokens",
    "thunder_tokens",
    "player_boards",
    "markers",
    "memory_cards",
    "rules",
]


def _near(a: float, b: float, tol: float = 0.5) -> bool:
    return abs(a - b) < tol


def grounds(page, w: float, h: float) -> list[dict]:
    """The filled grounds of w x h pieces on a page: each runs BLEED_REACH past its trim on every side (the
    clip to the bleed is not in the rectangle pdfplumber reads); either way round."""
    from generator.layout.imposition import BLEED_REACH

    gw, gh = w + 2 * BLEED_REACH, h + 2 * BLEED_REACH
    return [
        r
        for r in page.rects
        if r["fill"]
        and (
            (_near(r["width"], gw) and _near(r["height"], gh))
            or (_near(r["width"], gh) and _near(r["height"], gw))
        )
    ]


def words(pdf: Path, pages=None) -> list[str]:
    with pdfplumber.open(pdf) as doc:
        chosen = doc.pages if pages is None else [doc.pages[i] for i in pages]
        return [w["text"] for p in chosen for w in p.extract_words()]


def cloud_token_room(folder: Path) -> float:
    """Points left over when the cloud tokens' page goes below the pieces of the last raindrop-tile sheet,
    GANG_GAP under them, down to the printer's margin (negative: they do not fit), from the build record."""
    import json

    from generator.layout.sheets import GANG_GAP

    entries = json.loads((folder / ".pnpkit" / "build.json").read_text(encoding="utf-8"))["entries"]
    tiles = [s for s in entries["raindrop_tiles-a4.pdf"]["sides"] if s[0] == "front"]
    clouds = [s for s in entries["cloud_tokens-a4.pdf"]["sides"] if s[0] == "front"]
    assert len(clouds) == 1 and tiles[-1][4] is not None and clouds[0][4] is not None
    floor, (_, y0, _, y1) = tiles[-1][4][1], clouds[0][4]
    return floor - GANG_GAP - (y1 - y0) - load_kit(KIT).print.margin


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_one_pdf_per_component_and_a_kit_pdf(built, lang):
    folder = built("raindrops", langs=LANGS) / lang
    names = sorted(p.name for p in folder.glob("*.pdf"))
    assert names == sorted([f"{c}-a4.pdf" for c in COMPONENTS] + ["kit-a4.pdf", "calibration-a4.pdf"])
    parts = sum(len(pypdf.PdfReader(str(folder / n)).pages) for n in names if n != "kit-a4.pdf")
    sheets = recorded_sheets(folder, "kit-a4.pdf")
    blanks = sum(row["page"] is None for row in sheets)
    ganged = sum(len(row.get("guests") or []) for row in sheets)
    # thunder tokens and markers, fronts and backs, below the bonus tiles (gang-up); the one-sided cloud
    # tokens print on a sheet of their own: the only other one-sided sheets of pieces are the tiles', and
    # below the second one's pieces (55.5 mm up, gutters between the tiles) a guest has 46.5 mm down to the
    # margin, while the cloud tokens, two rows of 30 mm with bleed and marks, stand 76.4 mm tall
    assert ganged == 4
    assert cloud_token_room(folder) < 0, "the cloud tokens would fit below the tiles: gang them"
    assert (
        len(pypdf.PdfReader(str(folder / "kit-a4.pdf")).pages) == parts + 1 + blanks - ganged
    )  # + checklist, blank backs, - pages printed on another part's sheet


def test_84_raindrop_tiles_of_20_by_40_mm(built):
    with pdfplumber.open(built("raindrops", langs=LANGS) / "en" / "raindrop_tiles-a4.pdf") as doc:
        # each tile's two halves run into the bleed: a 20 x 20 mm ground and 10 mm beyond three sides
        halves = sum(len(grounds(p, mm(20), mm(20) - 10 * 72 / 25.4)) for p in doc.pages)
        assert halves == 2 * 84


def test_28_bonus_tiles_with_their_points_and_a_back_page(built):
    pdf = built("raindrops", langs=LANGS) / "en" / "bonus_tiles-a4.pdf"
    fronts = [w for w in words(pdf, [0]) if re.fullmatch(r"\d", w)]
    assert Counter(fronts) == Counter({"1": 4 * 2 + 4, "2": 4 * 2, "3": 4 * 2})
    assert words(pdf, [1]).count("BONUS") == 28


def test_12_cloud_tokens_three_per_type_four_gold_tops(built):
    with pdfplumber.open(built("raindrops", langs=LANGS) / "en" / "cloud_tokens-a4.pdf") as doc:
        page = doc.pages[0]
        tokens = grounds(page, mm(30), mm(30))
        gold = [
            c
            for c in page.rects + page.curves
            if _near(c["width"], mm(28))
            and c["stroke"]
            and tuple(round(v, 2) for v in c["stroking_color"]) == (0.83, 0.63, 0.09)
        ]  # GOLD #d4a017
        points = [
            w["text"]
            for w in page.extract_words()
            if re.fullmatch(r"\d", w["text"]) and w["bottom"] - w["top"] > 9
        ]
    assert len(tokens) == 12
    assert len(gold) == 4
    assert Counter(points) == Counter({"6": 4, "4": 4, "3": 4})


def test_thunder_values_on_the_face_plain_back_aligned_for_duplex(built):
    pdf = built("raindrops", langs=LANGS) / "en" / "thunder_tokens-a4.pdf"
    with pdfplumber.open(pdf) as doc:
        front, back = doc.pages[0], doc.pages[1]
        values = [w["text"] for w in front.extract_words() if re.fullmatch(r"\d", w["text"])]
        assert Counter(values) == Counter({"3": 4, "4": 3, "5": 3})
        assert not [w for w in back.extract_words() if re.fullmatch(r"[345]", w["text"])]
        fr = sorted((round(r["x0"], 1), round(r["top"], 1)) for r in grounds(front, mm(25), mm(25)))
        br = sorted(
            (round(back.width - r["x1"], 1), round(r["top"], 1)) for r in grounds(back, mm(25), mm(25))
        )
    assert len(fr) == 10 and fr == br  # long-edge flip on portrait paper mirrors x


def test_54_memory_cards_and_their_backs(built):
    pdf = built("raindrops", langs=LANGS) / "en" / "memory_cards-a4.pdf"
    n = len(pypdf.PdfReader(str(pdf)).pages)
    # no internal ids on the printed faces unless print.print_ids asks for them (issue 26)
    assert [w for w in words(pdf, range(0, n, 2)) if re.fullmatch(r"#\d+", w)] == []
    backs = words(
        pdf, range(1, n, 2)
    )  # the cards are turned on the sheet: the reader may read them backwards
    assert backs.count("RAINDROPS") + backs.count("SPORDNIAR") == 54
    from dataclasses import replace

    from generator.contract.compose import compose_kit, template_context
    from generator.i18n.texts import Texts
    from generator.layout.compose import Context
    from generator.layout.ops import iter_texts
    from generator.pipeline import load_kits, print_data, with_tool_catalogs
    from generator.render.fonts import text_width

    (kit,) = load_kits([ROOT / "layouts" / "raindrops"])
    kit = replace(kit, print=kit.print.model_copy(update={"print_ids": True}))
    extras = print_data(kit, kit.meta.seed)
    ctx = Context(
        kit,
        "en",
        Texts("en", with_tool_catalogs(kit), template_context(kit, extras), warn=lambda _: None),
        text_width,
        kit.print.paper,
        kit.meta.seed,
        kit.print,
        extras,
    )
    (cards,) = [c for c in compose_kit(ctx) if c.id == "memory_cards"]
    ids = [t.text for p in cards.pages for t in iter_texts(p.ops) if re.fullmatch(r"#\d+", t.text)]
    assert sorted(int(i[1:]) for i in ids) == list(range(1, 55))


def test_markers_and_player_boards(built):
    with pdfplumber.open(built("raindrops", langs=LANGS) / "en" / "markers-a4.pdf") as doc:
        assert len(grounds(doc.pages[0], mm(22), mm(22))) == 4 + 8
    boards = built("raindrops", langs=LANGS) / "en" / "player_boards-a4.pdf"
    text = " ".join(words(boards))
    for word in ("Flip", "Swap", "Top", "Reserve", "Bonus"):
        assert text.count(word) >= 4, word
    assert len(pypdf.PdfReader(str(boards)).pages) == 2


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_strips_align_across_sheets(built, paper):
    """Targets measured from the PDF: on sheet 1 one overlap inside its right edge, on sheet 2 on its left
    edge, at the same heights; the two strips minus the overlap are the whole board."""
    langs = LANGS if paper == "a4" else ("en",)  # a4: the build every other test reads; letter: English alone
    pdf = built("raindrops", paper, langs=langs) / "en" / f"window_board-{paper}.pdf"
    found = []
    with pdfplumber.open(pdf) as doc:
        assert len(doc.pages) == 2
        for p in doc.pages:
            targets = sorted(
                (c["x0"] + c["width"] / 2, p.height - (c["top"] + c["bottom"]) / 2)
                for c in p.curves
                if _near(c["width"], mm(6)) and _near(c["height"], mm(6))
            )
            crops = sorted(
                {
                    round(ln["x0"], 2)
                    for ln in p.lines
                    if _near(ln["x0"], ln["x1"], 0.01) and _near(abs(ln["bottom"] - ln["top"]), mm(5), 0.3)
                }
            )
            found.append((targets, crops))
    (t1, (l1, r1)), (t2, (l2, r2)) = found
    assert len(t1) == len(t2) == 3
    for (x1, y1), (x2, y2) in zip(t1, t2, strict=True):
        assert x1 == pytest.approx(r1 - mm(15), abs=0.05)
        assert x2 == pytest.approx(l2, abs=0.05)
        assert y1 == pytest.approx(y2, abs=0.05)
    assert (r1 - l1) + (r2 - l2) - mm(15) == pytest.approx(mm(370), abs=0.1)


def test_board_fits_one_a3_sheet(built):
    pdf = built("raindrops", "a3", langs=("en",)) / "en" / "window_board-a3.pdf"
    r = pypdf.PdfReader(str(pdf))
    assert len(r.pages) == 1
    assert sorted((float(r.pages[0].mediabox.width), float(r.pages[0].mediabox.height))) == pytest.approx(
        sorted(PAPER["a3"]), abs=0.1
    )


@pytest.mark.parametrize("lang", ["ja", "es"])
def test_three_languages_extracted(built, lang):
    cat = load_kit(KIT).catalogs[lang].messages
    folder = built("raindrops", langs=LANGS) / lang

    def flat(name: str) -> str:
        return (
            "".join(p.extract_text() or "" for p in pypdf.PdfReader(str(folder / name)).pages)
            .replace("\n", "")
            .replace(" ", "")
        )

    boards = flat("player_boards-a4.pdf")
    for tid in ("player.flip", "player.swap", "player.top", "player.title"):
        assert cat[tid].replace(" ", "") in boards, tid
    rules = flat("rules-a4.pdf")
    for tid in ("rules.setup.title", "rules.drop.title", "rules.clouds.title", "rules.score.title"):
        assert cat[tid].replace(" ", "") in rules, tid
    board = flat("window_board-a4.pdf")
    assert cat["board.drop.title"].replace(" ", "") in board and cat["tiling.glue"].replace(" ", "") in board


def test_rule_numbers_come_from_the_spec(built):
    rules = " ".join(
        p.extract_text() or ""
        for p in pypdf.PdfReader(str(built("raindrops", langs=LANGS) / "en" / "rules-a4.pdf")).pages
    )
    rules = rules.replace("\n", " ")
    for phrase in ("84 raindrop tiles", "reveal 4", "completed 10 cards", "emptied 2 times", "3, 4, and 5"):
        assert phrase in rules, phrase


def test_every_page_rendered_has_ink_and_colour(built, tmp_path):
    """A look at every page of the English kit: no blank page but the blank backs of one-sided sheets."""
    kit = built("raindrops", langs=LANGS) / "en" / "kit-a4.pdf"
    sheets = recorded_sheets(kit.parent, kit.name)
    n = len(pypdf.PdfReader(str(kit)).pages)
    assert n == len(sheets)
    for i in range(n):
        if sheets[i]["page"] is None:
            continue
        png = tmp_path / f"p{i}.png"
        write_png(kit, png, page=i, dpi=24)
        im = Image.open(png).convert("RGB")
        colours = im.getcolors(maxcolors=1 << 16) or []
        ink = sum(c for c, rgb in colours if sum(rgb) < 700)
        assert ink > 0.002 * im.width * im.height, f"page {i + 1} looks blank"


FLIPPED = {
    "bag_empties": ("last_tile_drawn", "tile_needed"),
    "window_refill": ("drop_step", "next_turn"),
    "final_last_turn_card": ("usable", "not_usable"),
    "final_clouds": ("earned", "not_earned"),
    "bonus_per_tile": ("one_half", "both_halves"),
    "wild_bonus": ("two_colours", "all_colours"),
    "bonus_refill": ("by_choice", "always"),
}


@pytest.fixture(scope="module")
def flipped_kit(tmp_path_factory):
    """The rules card of the shipped kit with every house-rule switch set the other way (in its kit.yaml),
    as the build composes and draws it, in the three languages the test reads: `<lang>/rules-a4.pdf`, the
    card alone (tests/composed.composed_one; building the whole kit drew every other part, which no test of
    the flipped switches reads, 1.5 CPU-s)."""
    import shutil

    from generator.games.raindrops.figures import print_data
    from generator.render.pdf import write_pdf
    from tests.composed import composed_one

    root = tmp_path_factory.mktemp("raindrops-flipped")
    kit = root / "raindrops"
    shutil.copytree(KIT, kit)
    y = kit / "kit.yaml"
    text = y.read_text(encoding="utf-8")
    for name, (literal, other) in FLIPPED.items():
        assert f"    {name}: {literal} " in text, name
        text = text.replace(f"    {name}: {literal} ", f"    {name}: {other} ")
    y.write_text(text, encoding="utf-8")
    flipped = load_kit(kit)
    extras = dict(print_data(flipped.game, flipped.meta.seed))
    out = root / "out"
    for lang in ("en", "ja", "es"):
        rules = composed_one(flipped, lang, "rules", extras)
        (out / lang).mkdir(parents=True)
        write_pdf(rules.pages, out / lang / "rules-a4.pdf", title="rules", lang=lang)
    return out


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_rules_card_states_each_house_rule_as_set(built, flipped_kit, lang):
    """The rules card prints the sentence of each switch's setting (and not the other one), in every
    language."""
    cat = load_kit(KIT).catalogs[lang].messages

    def flat(folder: Path) -> str:
        pdf = pypdf.PdfReader(str(folder / lang / "rules-a4.pdf"))
        return "".join(p.extract_text() or "" for p in pdf.pages).replace("\n", "").replace(" ", "")

    def sentence(name: str, value: str) -> str:
        return cat[f"rules.house.{name}.{value}"].replace("{{ bonus_offer }}", "4").replace(" ", "")

    shipped, other = flat(built("raindrops", langs=LANGS)), flat(flipped_kit)
    assert cat["rules.house.title"].replace(" ", "") in shipped
    for name, (literal, flip) in FLIPPED.items():
        assert sentence(name, literal) in shipped and sentence(name, flip) not in shipped, (name, literal)
        assert sentence(name, flip) in other and sentence(name, literal) not in other, (name, flip)


def test_ganged_token_sheets_print_each_part_as_its_own_pdf_does(built):
    """Gang-up read back in pixels: on every kit page that carries another part's page (the record's
    `guests`), the guest's pieces, rastered, are its own PDF page's pieces moved by its shift, and the host's
    pieces are its own page's; fronts and backs alike."""
    import numpy as np
    import pypdfium2 as pdfium

    folder = built("raindrops", langs=LANGS) / "en"
    sheets = recorded_sheets(folder, "kit-a4.pdf")
    scale = 50 / 72
    kit = pdfium.PdfDocument(folder / "kit-a4.pdf")

    def raster(doc: pdfium.PdfDocument, i: int) -> np.ndarray:
        return np.asarray(doc[i].render(scale=scale).to_pil().convert("L"), dtype=np.int16)

    def window(img: np.ndarray, box: list[float], dy: float) -> np.ndarray:
        """The pixels of `box` (page points, inset 2 pt) moved up by dy, whole pixels (rounded once)."""
        height, shift = img.shape[0], round(dy * scale)
        x0, y0, x1, y1 = (round(v * scale) for v in (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2))
        return img[height - y1 - shift : height - y0 - shift, x0:x1]

    checked = 0
    for n, row in enumerate(sheets):
        guests = row.get("guests") or []
        if not guests:
            continue
        page = raster(kit, n)
        for g in guests:
            own = raster(pdfium.PdfDocument(folder / f"{g['component']}-a4.pdf"), g["page"])
            here, there = window(page, g["clip"], g["dy"]), window(own, g["clip"], 0.0)
            assert here.shape == there.shape
            # the shift is rounded to whole pixels, so edges differ a little: nearly all pixels agree
            assert np.mean(np.abs(here - there) < 40) > 0.9, (n, g["component"])
            checked += 1
    assert checked == 4  # thunder tokens and markers, fronts and backs (the cloud tokens have no room)
