"""The printed Peak Dice kit, read back with independent PDF readers and looked at as PNG."""

import re
from dataclasses import dataclass, replace
from pathlib import Path

import pdfplumber
import pypdf
import pytest
from PIL import Image

from generator.games.peak_dice import layout as composer
from generator.layout.ops import Circle, Rect, Text, iter_texts
from generator.layout.patterns import PATTERNS, ops_bounds, pattern_in_circle, pattern_in_rect
from generator.pipeline import compose_one
from generator.render.fonts import text_width
from generator.render.pdf import write_pdf
from generator.render.png import write_png
from generator.units import mm
from tests.composed import composed_one, loaded_kits
from tests.games.peak_dice.conftest import make_spec
from tests.pdftext import page_size, page_text

ROOT = Path(__file__).resolve().parents[3]
KIT = ROOT / "layouts" / "peak_dice"


def shipped_kit():
    """The shipped kit, loaded once per test process (tests/composed.py): a frozen model the tests read or
    replace parts of, never change."""
    (kit,) = loaded_kits([KIT])
    return kit


PARTS = ["score_sheet-a4.pdf", "dice_nets-a4.pdf", "dice_stickers-a4.pdf", "rules-a4.pdf"]


def page_texts(pdf: Path) -> list[str]:
    return [p.extract_text() or "" for p in pypdf.PdfReader(str(pdf)).pages]


def flat(pdf: Path) -> str:
    return "".join(page_texts(pdf)).replace("\n", "").replace(" ", "")


@dataclass(frozen=True)
class FakeVariant:
    code: str
    peaks: tuple[int, ...]
    accepted: bool = True


def kit_with(overrides=None, **game_changes):
    """The shipped kit with `game:` keys replaced: dotted keys in `overrides`, whole top-level keys as keyword
    arguments (tests/games/shipped.py, validated like the spec)."""
    return replace(shipped_kit(), game=make_spec(overrides, **game_changes))


def writing_circles(ops):
    """The white circles players write in (coloured rims; the band's symbol discs have ink rims)."""
    return [
        op for op in ops if isinstance(op, Circle) and op.fill == "#ffffff" and op.stroke not in ("ink", None)
    ]


def composed(kit, lang="en", extras=None):
    from generator.games.peak_dice.figures import print_data

    data = dict(print_data(kit.game, kit.meta.seed), **(extras or {}))  # what the build passes
    comps, _ = compose_one(kit, lang, "a4", kit.meta.seed, data, text_width, lambda w: None)
    return {c.id: c for c in comps}


# ------------------------------------------------------------------ the built kit


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_one_pdf_per_component_and_a_kit_pdf(built, lang):
    folder = built("peak_dice") / lang
    names = sorted(p.name for p in folder.glob("*.pdf"))
    assert names == sorted(PARTS + ["kit-a4.pdf"])
    kit_pages = len(pypdf.PdfReader(str(folder / "kit-a4.pdf")).pages)
    # duplex none: no calibration, no blank backs; the print checklist first
    assert kit_pages == 1 + sum(len(pypdf.PdfReader(str(folder / n)).pages) for n in PARTS)


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_extracted_text_equals_catalog_strings(built, lang):
    cat = shipped_kit().catalogs[lang].messages
    folder = built("peak_dice") / lang
    sheet = flat(folder / "score_sheet-a4.pdf")
    for tid in (
        "kit.title",
        "sheet.name",
        "sheet.column_score",
        "sheet.misses",
        "sheet.columns",
        "sheet.total",
        "colour.purple",
        "colour.blue",
        "colour.red",
        "colour.yellow",
    ):
        assert cat[tid].replace(" ", "") in sheet, tid
    rules = flat(folder / "rules-a4.pdf")
    for tid in (
        "rules.dice.title",
        "rules.turn.title",
        "rules.write.title",
        "rules.score.title",
        "rules.miss.title",
        "rules.end.title",
    ):
        assert cat[tid].replace(" ", "") in rules, tid
    assert cat["component.dice_nets"].replace(" ", "") in flat(folder / "dice_nets-a4.pdf")
    assert cat["component.dice_stickers"].replace(" ", "") in flat(folder / "dice_stickers-a4.pdf")


def test_sheet_prints_column_numbers_and_the_miss_track(built):
    game = shipped_kit().game
    text = page_texts(built("peak_dice") / "en" / "score_sheet-a4.pdf")[0]
    for k in range(1, game.miss_boxes + 1):
        assert f"−{k}" in text
    n = (
        game.miss_boxes
    )  # the footer's note on a full track (keep counting) names the next misses; no box does
    boxes_only = re.sub(rf"\(−{n + 1},\s*−{n + 2}", "", re.sub(r"\s+", " ", text))
    assert f"−{n + 1}" not in boxes_only
    with pdfplumber.open(built("peak_dice") / "en" / "score_sheet-a4.pdf") as doc:
        words = [w["text"] for w in doc.pages[0].extract_words()]
    for k in range(1, game.row_length + 1):
        assert words.count(str(k)) >= 2  # each column number on both sheets of the page


def test_rules_numbers_follow_the_spec(built):
    rules = " ".join(page_texts(built("peak_dice") / "en" / "rules-a4.pdf")).replace("\n", " ")
    rules = re.sub(r"\s+", " ", rules)
    assert "6 dice: 4 coloured and 2 white" in rules
    assert "(3 to 18)" in rules
    assert "re-roll any of them once" in rules
    assert "Each row has 9 circles" in rules and "after circle 5" in rules
    n = shipped_kit().game.miss_boxes  # the printed figures follow the spec's miss track
    assert (
        f"{n} boxes; every further miss costs one more (−{n + 1}, −{n + 2}" in rules
        and "−1, −3, and −6" in rules
    )
    assert "filled all 36 circles" in rules
    assert "2–4 players" in rules


def test_rules_numbers_in_japanese_and_spanish(built):
    ja = flat(built("peak_dice") / "ja" / "rules-a4.pdf")
    n = shipped_kit().game.miss_boxes
    assert "各行は9マス" in ja and "5マス目の後" in ja and f"ミス欄は{n}個" in ja and "36マス" in ja
    es = re.sub(
        r"\s+", " ", " ".join(page_texts(built("peak_dice") / "es" / "rules-a4.pdf")).replace("\n", " ")
    )
    assert (
        "Cada fila tiene 9 círculos" in es
        and "tras el círculo 5" in es
        and f"La hoja tiene {n} casillas" in es
    )


def _square_rects(pdf: Path, side: float) -> list[list[dict]]:
    with pdfplumber.open(pdf) as doc:
        return [
            [r for r in page.rects if abs(r["width"] - side) < 0.5 and abs(r["height"] - side) < 0.5]
            for page in doc.pages
        ]


def test_dice_net_faces_are_exactly_the_spec_size(built):
    kit = shipped_kit()
    side = kit.components["dice_nets"].trim_size()[0]
    assert side == pytest.approx(mm(16))
    pages = _square_rects(built("peak_dice") / "en" / "dice_nets-a4.pdf", side)
    faces = [r for p in pages for r in p]
    assert len(faces) == 6 * len(kit.game.dice)
    for r in faces:  # within 0.01 pt of 16 mm
        assert r["width"] == pytest.approx(side, abs=0.01)
        assert r["height"] == pytest.approx(side, abs=0.01)
    # the six faces of one net touch along shared edges: 4 in a column, 2 beside the second
    first = sorted(pages[0][:6], key=lambda r: (round(r["x0"]), -round(r["top"])))
    xs = sorted({round(r["x0"], 2) for r in first})
    assert (
        len(xs) == 3
        and xs[1] - xs[0] == pytest.approx(side, abs=0.01)
        and xs[2] - xs[1] == pytest.approx(side, abs=0.01)
    )


def test_stickers_are_the_sticker_size(built):
    kit = shipped_kit()
    side = kit.components["dice_stickers"].trim_size()[0]
    faces = [
        r
        for p in _square_rects(built("peak_dice") / "en" / "dice_stickers-a4.pdf", side)
        for r in p
        if r["fill"]
    ]
    assert len(faces) == 6 * len(kit.game.dice)


def test_every_page_looks_printed(built, tmp_path):
    """Every page rasterised: ink on it, the row colours on the sheet, nothing drawn in the printer's
    margin."""
    kit = shipped_kit()
    colours = [tuple(int(c.colour[i : i + 2], 16) for i in (1, 3, 5)) for c in kit.game.colours]
    margin_px = int(kit.print.margin / 72 * 50) - 1
    for lang in ("en", "ja", "es"):
        for name in PARTS:
            pdf = built("peak_dice") / lang / name
            for i in range(len(pypdf.PdfReader(str(pdf)).pages)):
                png = tmp_path / f"{lang}-{name}-{i}.png"
                write_png(pdf, png, page=i, dpi=50)
                im = Image.open(png).convert("RGB")
                px = im.load()
                w, h = im.size
                dark = sum(1 for x in range(0, w, 2) for y in range(0, h, 2) if sum(px[x, y]) < 600)
                assert dark > 0.01 * (w // 2) * (h // 2), (lang, name, i)
                edge = [
                    px[x, y] for x in range(w) for y in list(range(margin_px)) + list(range(h - margin_px, h))
                ]
                assert all(p == (255, 255, 255) for p in edge), (lang, name, i)
                if name.startswith("score_sheet"):
                    seen = set(im.getcolors(maxcolors=1 << 20) or [])
                    seen = {c for _, c in seen}
                    for c in colours:
                        assert any(sum(abs(a - b) for a, b in zip(c, s, strict=False)) < 30 for s in seen), (
                            c,
                            name,
                        )


# ------------------------------------------------------------------ composed directly


def test_variants_are_printed_with_their_code_and_peaks():
    kit = shipped_kit()
    variants = [FakeVariant("PD-3647", (3, 6, 4, 7)), FakeVariant("PD-5555x", (5, 5, 5, 5), accepted=False)]
    sheet = composed(kit, "en", {"variants": variants})["score_sheet"]
    comp = kit.components["score_sheet"]
    plain = comp.per_page * comp.copies
    assert len(sheet.pages) == -(-(plain + 1) // comp.per_page)  # the rejected variant is not printed
    texts = [t.text for p in sheet.pages for t in iter_texts(p.ops)]
    assert "PD-3647" in texts and "Sheet PD-3647" in texts and "PD-5555x" not in texts
    # the peak lines of the variant sheet sit after circles 3, 6, 4 and 7
    last = sheet.pages[-1].ops[0]
    bars = sorted(
        (
            op
            for op in last.ops
            if isinstance(op, Rect) and op.fill == composer.INK_DARK and abs(op.w - mm(1.4)) < 0.01
        ),
        key=lambda r: -r.y,
    )
    circles = writing_circles(last.ops)
    row0 = sorted({round(c.cx, 2) for c in circles})
    pitch = row0[1] - row0[0]
    after = [round((b.x + b.w / 2 - (row0[0] - pitch / 2)) / pitch) for b in bars]
    assert after == [3, 6, 4, 7]
    rules = composed(kit, "en", {"variants": variants})["rules"]
    assert any(t.text_id == "rules.variants" for p in rules.pages for t in iter_texts(p.ops))


def test_sheet_shape_follows_the_spec():
    kit = kit_with(row_length=11, peak_after=[6, 5, 7, 6], miss_boxes=14)
    sheet = composed(kit)["score_sheet"].pages[0].ops[0]
    circles = writing_circles(sheet.ops)
    assert len(circles) == 4 * 11
    labels = [op.text for op in sheet.ops if isinstance(op, Text) and re.fullmatch(r"−\d+", op.text)]
    assert labels == [f"−{k}" for k in range(1, 15)]
    rules = " ".join(t.text for p in composed(kit)["rules"].pages for t in iter_texts(p.ops))
    assert "row's thick line" in rules and "11 circles" in rules


def test_mixed_dice_get_nets_and_stickers(tmp_path):
    faced = {
        "faces": [
            {"colour": c, "value": v}
            for c, v in (("purple", 1), ("blue", 2), ("red", 3), ("yellow", 4), ("white", 5), ("white", 0))
        ]
    }
    kit = kit_with(
        dice=[
            faced,
            {"colour": "white", "values": [1, 2, 3, 4, 5, 6]},
            {"colour": "white", "values": [1, 2, 3, 4, 5, 6]},
        ]
    )
    parts = composed(kit)
    texts = [t.text for p in parts["dice_nets"].pages for t in iter_texts(p.ops)]
    assert "Die 1 · Mixed" in " ".join(texts).replace("· ", "·").replace("·", "· ") and "0" in texts
    pdf = tmp_path / "nets.pdf"
    write_pdf(parts["dice_nets"].pages, pdf, title="nets", lang="en")
    assert len(_square_rects(pdf, mm(16))[0]) == 18


def test_a_die_without_six_faces_has_no_net():
    from generator.errors import LayoutError

    kit = kit_with(
        dice=[{"colour": "purple", "values": [1, 2, 3, 4]}]
        + [{"colour": "white", "values": [1, 2, 3, 4, 5, 6]}] * 3
    )
    with pytest.raises(LayoutError, match=r"game.dice\[0\]: a cube net needs 6 faces; this die has 4"):
        composed(kit)


@pytest.mark.parametrize("kind", PATTERNS)
def test_patterns_stay_inside_their_shape(kind):
    ops = pattern_in_rect(kind, 10, 20, 50, 30, ink="#000000", spacing=4)
    if kind != "solid":
        assert ops
        x0, y0, x1, y1 = ops_bounds(ops)
        assert x0 >= 10 - 1e-6 and y0 >= 20 - 1e-6 and x1 <= 60 + 1e-6 and y1 <= 50 + 1e-6
    cops = pattern_in_circle(kind, 0, 0, 20, ink="#000000", spacing=4)
    for op in cops:
        pts = (
            [(op.x1, op.y1), (op.x2, op.y2)]
            if hasattr(op, "x1")
            else [(op.cx, op.cy)]
            if isinstance(op, Circle)
            else list(op.points)
        )
        for x, y in pts:
            assert (x * x + y * y) ** 0.5 <= 20 + 1e-6 + (op.r if isinstance(op, Circle) else 0)


def test_template_context_numbers_come_from_the_spec():
    from generator.games.peak_dice.figures import print_data

    game = kit_with(miss_boxes=5, row_length=7, peak_after=4).game
    ctx = composer.template_context(game, print_data(game, 0))
    assert ctx["miss_max"] == 15 and ctx["circles_total"] == 28 and ctx["peak_after"] == 4
    assert ctx["example_score"] == sorted(set(ctx["example_column"]))[1]
    row = print_data(game, 0)["figures"]["example_row"]
    assert len(row) == 7 and row[:4] == sorted(set(row[:4])) and row[3:] == sorted(set(row[3:]), reverse=True)


def test_printed_figures_come_from_the_rules_package():
    """The layout restates no rule: the example column is scored and the penalties summed by the rules."""
    from generator.games.peak_dice import rules
    from generator.games.peak_dice.figures import print_data

    game = shipped_kit().game
    fig = print_data(game, 0)["figures"]
    assert fig["example_column"] == [9, 10, 9, 12]  # the seed's worked example for six d6
    assert fig["example_score"] == rules.second_lowest(fig["example_column"]) == 10
    assert fig["miss_max"] == rules.miss_penalty(game.miss_boxes)
    assert (fig["sum_min"], fig["sum_max"]) == (3, 18)
    with pytest.raises(Exception, match="rules figures are missing"):
        composer.template_context(game, {})


def _rules_text(kit, lang: str, tmp_path: Path) -> str:
    """Every page of the rules card rendered to PDF and read back with pypdf, whitespace removed."""
    from generator.games.peak_dice.figures import print_data

    pdf = tmp_path / f"rules-{lang}.pdf"
    rules = composed_one(kit, lang, "rules", dict(print_data(kit.game, kit.meta.seed)))  # the card alone
    write_pdf(rules.pages, pdf, title="rules", lang=lang)
    return flat(pdf)


FIGURE_TEXT = {  # the spec change, the figures it moves, and what each language's rules card must then print
    "miss_boxes 14": (
        {"miss_boxes": 14},
        {"miss_boxes": 14, "miss_next": [15, 16]},
        {
            "en": "has14boxes;everyfurthermisscostsonemore(−15,−16",
            "ja": "ミス欄は14個",
            "es": "Lahojatiene14casillas",
        },
    ),
    "capped 8": (
        {"miss_boxes": 8, "rules.miss_track_full": "capped"},
        {"miss_max": 36},
        {"en": "atmost−36", "ja": "最大−36点", "es": "comomucho−36"},
    ),
    "row 11, peak 6": (
        {"row_length": 11, "peak_after": 6},
        {"circles_total": 44, "peak_after": 6},
        {"en": "Eachrowhas11circles", "ja": "各行は11マス", "es": "Cadafilatiene11círculos"},
    ),
}


@pytest.mark.parametrize("case", sorted(FIGURE_TEXT))
def test_a_changed_figure_is_printed_in_every_language(case, tmp_path):
    """A spec change moves the figure print_data computes, and the rules card reads it back in en, ja and es
    (issue 13: the composer restates no rule figure)."""
    change, figures, printed = FIGURE_TEXT[case]
    kit = kit_with(change)
    from generator.games.peak_dice.figures import print_data

    fig = print_data(kit.game, 0)["figures"]
    assert {k: fig[k] for k in figures} == figures
    shipped = print_data(shipped_kit().game, 0)["figures"]
    assert all(shipped[k] != v for k, v in figures.items())  # the change really moves each figure
    for lang, expected in printed.items():
        text = _rules_text(kit, lang, tmp_path)
        assert expected in text, (lang, text)
        if case == "row 11, peak 6":
            assert str(fig["circles_total"]) in text and str(fig["peak_after"]) in text


def test_sheet_prints_the_miss_box_values_the_rules_give(tmp_path):
    """The miss track's numbers are the rules' cost of each miss (figures' miss_box_values), in every
    language."""
    kit = kit_with({"miss_boxes": 13})
    from generator.games.peak_dice.figures import print_data

    assert print_data(kit.game, 0)["figures"]["miss_box_values"] == list(range(1, 14))
    for lang in ("en", "ja", "es"):
        pdf = tmp_path / f"sheet-{lang}.pdf"
        sheet = composed_one(kit, lang, "score_sheet", dict(print_data(kit.game, kit.meta.seed)))  # alone
        write_pdf(sheet.pages[:1], pdf, title="sheet", lang=lang)
        text = page_texts(pdf)[0]
        assert all(f"−{k}" in text for k in range(1, 14)), lang


def test_the_composer_prints_the_figures_it_is_given(tmp_path):
    """Doctored figures (numbers no rule gives) are what gets printed: the composer reads the figures from
    print_data and computes none of them itself."""
    from generator.games.peak_dice.figures import print_data

    kit = shipped_kit()
    data = print_data(kit.game, 0)
    fig = dict(data["figures"], circles_total=987, miss_box_values=[42] * kit.game.miss_boxes, peak_after=3)
    comps = composed(kit, "en", {"figures": fig})
    write_pdf(comps["rules"].pages, tmp_path / "rules.pdf", title="rules", lang="en")
    write_pdf(comps["score_sheet"].pages[:1], tmp_path / "sheet.pdf", title="sheet", lang="en")
    rules, sheet = flat(tmp_path / "rules.pdf"), flat(tmp_path / "sheet.pdf")
    assert "filledall987circles" in rules and "aftercircle3" in rules
    assert sheet.count("−42") >= kit.game.miss_boxes and "−2" not in sheet.replace("−42", "")


# ------------------------------------------------------------------ house-rule switches (issue 11)

SWITCH_TEXT = {  # (switch, setting, component): the sentence each language prints for that setting only
    ("step_b", "compulsory", "rules"): {
        "en": "player must pick one of the 4 colours",
        "ja": "1色を必ず選び",
        "es": "debe elegir uno de los 4 colores",
    },
    ("step_b", "optional", "rules"): {
        "en": "or write nothing.",
        "ja": "書かなくてもかまいません",
        "es": "o no escribir nada.",
    },
    ("miss_track_full", "keep_counting", "rules"): {
        "en": "every further miss costs one more (−12, −13",
        "ja": "全部埋まった後もミスのたびに失点は1点ずつ増えます",
        "es": "cada fallo más cuesta uno más (−12, −13",
    },
    ("miss_track_full", "capped", "rules"): {
        "en": "misses cost nothing more: at most −66",
        "ja": "それ以上の失点はありません（最大−66点）",
        "es": "los fallos ya no cuestan nada: como mucho −66",
    },
    ("final_turn_miss", "skipped", "rules"): {
        "en": "the active player then takes no miss",
        "ja": "このとき手番プレイヤーはミスを取りません",
        "es": "el jugador activo ya no anota fallo",
    },
    ("final_turn_miss", "taken", "rules"): {
        "en": "still takes the miss",
        "ja": "それでもミスを取ります",
        "es": "anota igualmente el fallo",
    },
    ("sheet_full_in_b", "game_ends", "rules"): {
        "en": "nobody plays that turn's step C",
        "ja": "その手番のステップCはだれも行いません",
        "es": "nadie juega el paso C de ese turno",
    },
    ("sheet_full_in_b", "step_c_played", "rules"): {
        "en": "every player still plays that turn's step C",
        "ja": "その手番のステップCは全員が行い",
        "es": "todos juegan aún el paso C de ese turno",
    },
    ("column_score", "second_lowest_distinct", "rules"): {
        "en": "(equal numbers count once): 9, 10, 9, and 12 scores 10",
        "ja": (
            "（同じ数",
            "つと数えます）。例：9、10、9、12なら10点",
        ),  # a digit of the worked column may interleave
        "es": "(los números iguales cuentan una vez): 9, 10, 9 y 12 puntúa 10",
    },
    ("column_score", "second_lowest", "rules"): {
        "en": "(equal numbers count separately): 9, 10, 9, and 12 scores 9",
        "ja": ("（同じ数", "別々に数えます）。例：9、10、9、12なら9点"),
        "es": "(los números iguales cuentan por separado): 9, 10, 9 y 12 puntúa 9",
    },
    ("column_score", "second_lowest_distinct", "score_sheet"): {
        "en": "equal numbers counting once (9, 10, 9, and 12 → 10)",
        "ja": "同じ数は1つと数えます。9、10、9、12→10",
        "es": "los números iguales cuentan una vez (9, 10, 9 y 12 → 10)",
    },
    ("column_score", "second_lowest", "score_sheet"): {
        "en": "equal numbers counting separately (9, 10, 9, and 12 → 9)",
        "ja": "同じ数も別々に数えます。9、10、9、12→9",
        "es": "los números iguales cuentan por separado (9, 10, 9 y 12 → 9)",
    },
    ("miss_track_full", "keep_counting", "score_sheet"): {
        "en": "note further misses beside them (−12, −13",
        "ja": "続きは横に書き足します",
        "es": "anota los demás fallos al lado",
    },
    ("miss_track_full", "capped", "score_sheet"): {
        "en": "further misses cost nothing.",
        "ja": "それ以上の失点はありません",
        "es": "los demás fallos no cuestan nada",
    },
}


_PRINTED: dict[tuple[str, str, str], str] = {}
"""`_printed` by (game section as JSON, language, component): the settings of SWITCH_TEXT often make the same
kit (each switch's other settings as shipped), whose card is composed and read once per test process."""


def _printed(kit, lang: str, component: str, tmp_path: Path) -> str:
    """The component's first page rendered to PDF and read back (tests/pdftext.py: pdfium in pdfplumber's
    order), whitespace removed (rules: the whole page, which holds both faces when the summary flows onto a
    second one at its size floor). `kit`: the shipped kit with its game replaced (`kit_with`), so its game
    section says which kit it is; the component is composed alone (tests/composed.composed_one), with the
    kit's print data as the build passes it."""
    from generator.games.peak_dice.figures import print_data

    key = (kit.game.model_dump_json(), lang, component)
    if key in _PRINTED:
        return _PRINTED[key]
    comp = composed_one(kit, lang, component, dict(print_data(kit.game, kit.meta.seed)))
    pdf = tmp_path / f"{component}-{lang}.pdf"
    write_pdf(comp.pages[:1], pdf, title=component, lang=lang)
    w, h = page_size(pdf)  # sheets: the first face on the page (top half); rules: each half in turn
    boxes = [(0, 0, w / 2, h), (w / 2, 0, w, h)] if component == "rules" else [(0, 0, w, h / 2)]
    _PRINTED[key] = "".join(page_text(pdf, box) for box in boxes)
    return _PRINTED[key]


@pytest.mark.parametrize("switch,setting,component", sorted(SWITCH_TEXT), ids=lambda v: str(v))
def test_each_house_rule_setting_prints_its_reading_in_every_language(switch, setting, component, tmp_path):
    rules = shipped_kit().game.rules.model_dump()
    kit = kit_with(rules=dict(rules, **{switch: setting}))
    others = [s for (sw, s, comp) in SWITCH_TEXT if sw == switch and comp == component and s != setting]
    for lang in ("en", "ja", "es"):
        text = _printed(kit, lang, component, tmp_path)
        assert _shows(text, SWITCH_TEXT[(switch, setting, component)][lang]), (lang, text)
        for other in others:  # the other reading's sentence is not printed
            assert not _shows(text, SWITCH_TEXT[(switch, other, component)][lang]), (lang, other)


def _shows(text: str, expected: str | tuple[str, ...]) -> bool:
    """Every fragment in the text (a tuple where the worked example column's digits interleave a line: there
    the digits are left out of both, as where they interleave moves with the line breaks)."""
    if isinstance(expected, str):
        return re.sub(r"\s+", "", expected) in text
    bare = re.sub(r"\d", "", text)
    return all(re.sub(r"\s+|\d", "", f) in bare for f in expected)
