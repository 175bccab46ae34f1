"""The printed Rummy Cards kit, read back with independent PDF readers (pypdf, pdfplumber, pikepdf)."""

import math
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pdfplumber
import pikepdf
import pypdf
import pytest

from generator.contract.load import load_kit
from generator.errors import LayoutError
from generator.games.rummy_cards import layout as rc
from generator.games.rummy_cards.figures import print_data, rule_figures
from generator.games.rummy_cards.layout_holder import holder_cards, holder_geometry
from generator.games.rummy_cards.rules import MELD_MIN
from generator.games.rummy_cards.spec import RummyCardsGame
from generator.i18n.texts import Texts
from generator.layout.ops import iter_texts
from generator.pipeline import (
    build,
    check_kit,
    compose_one,
    load_kits,
    plan_build,
    render_all,
    with_tool_catalogs,
)
from generator.render.fonts import text_width
from generator.render.pdf import write_pdf
from generator.units import CARD_PRESETS, PAPER, mm
from tests.composed import composed_one, composed_parts
from tests.games.shipped import game_spec

ROOT = Path(__file__).resolve().parents[3]
KIT = ROOT / "layouts" / "rummy_cards"
CODE = re.compile(r"^(YEL|BLU|BLA|RED)(\d{1,2})-(\d)$|^JK-(\d)$")


@pytest.fixture(scope="module")
def kit_out(tmp_path_factory):
    """kit_out(paper) -> output folder of the composed and rendered kit (compose + render only: the rules
    package's legal check is tested by the engine's own tests and by test_cli_build below), in the languages
    the tests read: English, Japanese and Spanish on A4, English on Letter (each language of the five shipped
    is the same build path, and cost a fifth of the build)."""
    cache: dict[str, Path] = {}

    def get(paper: str = "a4") -> Path:
        if paper not in cache:
            out = tmp_path_factory.mktemp(f"rummy-{paper}")
            # with the small sorting ids on (print.print_ids, off in the shipped kit): the tests read faces by
            # them
            kits = [
                replace(k, print=k.print.model_copy(update={"print_ids": True})) for k in load_kits([KIT])
            ]
            langs = ["en", "ja", "es"] if paper == "a4" else ["en"]
            planned = plan_build(
                kits, out=out, langs=langs, paper=paper, seed=None, measure=text_width, warn=lambda _: None
            )
            render_all(planned, out)
            cache[paper] = out / "rummy_cards"
        return cache[paper]

    return get


def page_texts(pdf: Path) -> list[str]:
    return [p.extract_text() or "" for p in pypdf.PdfReader(str(pdf)).pages]


def test_spec_validates_with_the_seed_defaults():
    game = load_kit(KIT).game
    assert isinstance(game, RummyCardsGame)
    assert [c.id for c in game.colours] == ["yellow", "blue", "black", "red"]
    assert len({c.symbol for c in game.colours}) == 4  # one symbol per colour
    assert (game.numbers.min, game.numbers.max, game.copies, game.jokers) == (1, 13, 2, 2)
    assert game.total_cards == 4 * 13 * 2 + 2 == 106
    assert (game.initial_meld, game.joker_penalty, game.players.min, game.players.max) == (40, 25, 2, 4)
    assert game.score_pad.players == game.players.max


def test_every_catalog_has_every_english_id():
    cats = load_kit(KIT).catalogs
    en = set(cats["en"].messages)
    for lang in ("ja", "es"):
        assert set(cats[lang].messages) == en, lang


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_one_pdf_per_component_and_a_kit_pdf(kit_out, lang):
    names = sorted(p.name for p in (kit_out() / lang).glob("*.pdf"))
    assert names == sorted(
        [
            "number_cards-a4.pdf",
            "score_pad-a4.pdf",
            "card_holder-a4.pdf",
            "rules-a4.pdf",
            "kit-a4.pdf",
            "calibration-a4.pdf",
        ]
    )


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_deck_has_106_distinct_faces_by_their_codes(kit_out, lang):
    pdf = kit_out() / lang / "number_cards-a4.pdf"
    r = pypdf.PdfReader(str(pdf))
    # neighbours of different colours take a gutter: 8 cards a page, fronts each followed by its back page
    assert len(r.pages) == 2 * math.ceil(106 / 8)
    codes = Counter()
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages[::2]:
            for w in page.extract_words(char_dir_rotated="btt"):
                if CODE.match(w["text"]):
                    codes[w["text"]] += 1
    assert sum(codes.values()) == 106 and set(codes.values()) == {1}
    numbers = {c for c in codes if not c.startswith("JK")}
    assert len(numbers) == 104 and {c for c in codes if c.startswith("JK")} == {"JK-1", "JK-2"}
    for prefix in ("YEL", "BLU", "BLA", "RED"):
        for n in range(1, 14):
            assert {f"{prefix}{n}-1", f"{prefix}{n}-2"} <= numbers


def test_corner_index_is_large_and_top_left():
    """The corner number is at least 7 mm (20 pt) and sits in the card's top-left 16 mm (on the card, read
    from its ops: the sheet may turn the cards to fit them with gutters, and pdfplumber misreads the size of
    turned glyphs)."""
    from generator.layout.ops import Place, Text

    parts = composed_parts(KIT, "en")
    part = parts["number_cards"]
    first = next(op for op in part.pages[0].ops if isinstance(op, Place) and op.name)
    assert first.trim is not None
    card_h = first.trim[3]
    ones = [t for t in first.ops if isinstance(t, Text) and t.text == "1" and t.size >= mm(7)]
    corner = max((t for t in first.ops if isinstance(t, Text) and t.text == "1"), key=lambda t: (t.y, -t.x))
    assert corner.size >= mm(7) and corner in ones
    assert corner.x < mm(16) and card_h - corner.y < mm(16)


def test_jokers_show_name_and_penalty_in_every_language(kit_out):
    for lang in ("en", "ja", "es"):
        cat = load_kit(KIT).catalogs[lang].messages
        # the last sheet of fronts, read alone (not every page of the deck to keep one)
        text = pypdf.PdfReader(str(kit_out() / lang / "number_cards-a4.pdf")).pages[-2].extract_text() or ""
        assert cat["joker.name"] in text
        assert "25" in text


def test_score_pad_has_plus_and_minus_per_player_and_a_check(kit_out):
    game = load_kit(KIT).game
    pdf = kit_out() / "en" / "score_pad-a4.pdf"
    with pdfplumber.open(pdf) as doc:
        assert len(doc.pages) == 2  # copies: 2, two sheets per page
        page = doc.pages[0]
        big = [c["text"] for c in page.chars if c["size"] > 10]
        assert big.count("+") == 2 * game.score_pad.players
        assert big.count("−") == 2 * game.score_pad.players
        text = page.extract_text()
    assert text.count("Σ+ = Σ−") == 2
    for word in ("Check", "Sum", "Total"):  # "Round" is set vertically
        assert text.count(word) >= 2, word
    rounds = [w for w in text.split() if w.isdigit() and 1 <= int(w) <= game.score_pad.rounds]
    assert len(set(rounds)) == game.score_pad.rounds


@pytest.mark.parametrize("lang", ["ja", "es"])
def test_extracted_text_equals_catalog_strings(kit_out, lang):
    cat = load_kit(KIT).catalogs[lang].messages
    pad = "".join(page_texts(kit_out() / lang / "score_pad-a4.pdf")).replace("\n", "")
    for tid in ("kit.title", "pad.check", "pad.sum", "pad.total"):
        assert cat[tid] in pad, tid
    rules = "".join(page_texts(kit_out() / lang / "rules-a4.pdf")).replace("\n", "").replace(" ", "")
    for tid in ("rules.setup.title", "rules.initial.title", "rules.jokers.title", "rules.end.title"):
        assert cat[tid].replace(" ", "") in rules, tid
    holder = "".join(page_texts(kit_out() / lang / "card_holder-a4.pdf")).replace("\n", "").replace(" ", "")
    for tid in ("holder.title", "holder.steps.title", "holder.legend.cut"):
        assert cat[tid].replace(" ", "") in holder, tid


def test_rules_numbers_follow_the_spec(kit_out):
    rules = " ".join(page_texts(kit_out() / "en" / "rules-a4.pdf")).replace("\n", " ")
    assert "at least 40 points" in rules and "a joker: 25 points" in rules
    assert "= 106 cards" in rules and "14 cards" in rules and "2–4 players" in rules


def test_rule_text_moves_with_the_spec():
    kit = load_kit(KIT)
    game = game_spec("rummy_cards", {"initial_meld": 30, "joker_penalty": 30, "hand_size": 13})
    texts = Texts("ja", with_tool_catalogs(kit), rc.template_context(game, print_data(game, 0)))
    assert "合計30点以上" in texts("rules.initial.own_melds_only")
    assert "30点" in texts("joker.value")
    assert "カード13枚" in texts("rules.setup")


_PRINTED_RULES: dict[tuple[str, str], str] = {}
"""`_printed_rules` of a game with its own print data, by (game section as JSON, language): the shipped game's
card is read by several tests."""


def _printed_rules(game, lang: str, tmp_path: Path, extras=None) -> str:
    """The rules card of the shipped kit with `game` (and its print data, or `extras`), rendered to PDF and
    read back with pdfplumber, whitespace removed (read once per test process for a game's own print
    data)."""
    key = (game.model_dump_json(), lang)
    if extras is None and key not in _PRINTED_RULES:
        _PRINTED_RULES[key] = _print_rules(game, lang, tmp_path, None)
    return _PRINTED_RULES[key] if extras is None else _print_rules(game, lang, tmp_path, extras)


def _print_rules(game, lang: str, tmp_path: Path, extras) -> str:
    kit = replace(load_kit(KIT), game=game)
    data = print_data(game, kit.meta.seed) if extras is None else extras
    rules = composed_one(kit, lang, "rules", data)  # the rules card alone, composed and checked as the kit's
    pdf = tmp_path / f"rules-{lang}.pdf"
    write_pdf(rules.pages[:1], pdf, title="rules", lang=lang)
    with pdfplumber.open(pdf) as doc:
        return re.sub(r"\s+", "", "".join(p.extract_text() or "" for p in doc.pages))


# the sentence of each language that prints initial_meld, joker_penalty, hand_size and the deck total
FIGURE_TEXT = {
    "en": (
        "atleast{initial_meld}points",
        "ajoker:{joker_penalty}points",
        "and{hand_size}cards",
        "={total_cards}cards",
    ),
    "ja": (
        "合計{initial_meld}点以上",
        "ジョーカーは{joker_penalty}点",
        "カード{hand_size}枚",
        "＝{total_cards}枚",
    ),
    "es": (
        "almenos{initial_meld}puntos",
        "comodín:{joker_penalty}puntos",
        "y{hand_size}cartas",
        "={total_cards}cartas",
    ),
}


@pytest.mark.parametrize("lang", ["en", "ja", "es"])
def test_changed_figures_are_read_back_from_the_printed_rules_card(lang, tmp_path):
    """Issue 13: a figure changed in the spec is the number the rules card prints, in every language (the
    figures come from figures.print_data, the layout restates none)."""
    shipped = game_spec("rummy_cards")
    changed = game_spec(
        "rummy_cards",
        {"initial_meld": 37, "joker_penalty": 23, "hand_size": 11, "jokers": 3, "total_cards": 107},
    )
    before, after = _printed_rules(shipped, lang, tmp_path), _printed_rules(changed, lang, tmp_path)
    for template in FIGURE_TEXT[lang]:
        assert template.format(**rule_figures(shipped)) in before, (lang, template)
        assert template.format(**rule_figures(changed)) in after, (lang, template)
        assert template.format(**rule_figures(shipped)) not in after, (lang, template)


def test_the_meld_minimum_is_printed_from_the_rules_figures(tmp_path):
    """The meld minimum is a rules constant (rules.MELD_MIN): the card prints the figure print_data gives,
    in the heading and in the drawn example melds, never a number of its own."""
    game = game_spec("rummy_cards")
    assert rule_figures(game)["meld_min"] == MELD_MIN == 3
    figures = {**rule_figures(game), "meld_min": 4}
    assert "Melds(4ormorecards)" in _printed_rules(game, "en", tmp_path, {"figures": figures})
    assert "Melds(3ormorecards)" in _printed_rules(game, "en", tmp_path)
    kit = replace(load_kit(KIT), game=game)
    examples = []
    for fig in (rule_figures(game), figures):
        comps, _ = compose_one(kit, "en", "a4", kit.meta.seed, {"figures": fig}, text_width, lambda w: None)
        examples.append(
            sum(
                1
                for c in comps
                if c.id == "rules"
                for p in c.pages[:1]
                for op in iter_texts(p.ops)
                if op.text.isdigit()
            )
        )
    assert examples[1] > examples[0]  # one more mini card in the group and in the run
    with pytest.raises(LayoutError, match="rules figures are missing"):
        rc.template_context(game, {})


def test_holder_geometry_is_a_closed_three_tier_stand():
    h = holder_geometry(CARD_PRESETS["poker"][1], mm(170))
    assert len(h.grooves) == 3
    zs = [h.profile[g][1] for g in h.grooves]
    assert [round((b - a) / mm(1), 3) for a, b in zip(zs, zs[1:], strict=False)] == [
        25.0,
        25.0,
    ]  # each tier's corners show 25 mm higher
    assert h.profile[0][1] == 0 and h.profile[-1][1] == 0  # both ends stand on the table
    assert all(0 < a < 360 for a in h.interior_angles())
    assert sum(h.segments()) < PAPER["letter"][1] - mm(40)  # the strip fits one Letter page
    assert holder_cards(CARD_PRESETS["poker"][0], mm(170)) == 8


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_holder_pages_have_dashed_folds_and_solid_cuts(kit_out, paper):
    pdf = kit_out(paper) / "en" / f"card_holder-{paper}.pdf"
    with pikepdf.open(pdf) as doc:
        assert len(doc.pages) == 2
        for page in doc.pages:
            assert float(page.mediabox[2]) < float(page.mediabox[3])  # portrait
        ops = [str(op) for _, op in pikepdf.parse_content_stream(doc.pages[0])]
        assert "d" in ops  # dash pattern set for the fold lines
    text = page_texts(pdf)[1]
    assert "up to 8 cards per tier" in text


def test_pages_render_to_png_with_the_card_colours(kit_out, tmp_path):
    from PIL import Image

    from generator.render.png import write_png

    pdf = kit_out() / "en" / "number_cards-a4.pdf"
    png = tmp_path / "deck.png"
    pages = len(pypdf.PdfReader(str(pdf)).pages)
    write_png(pdf, png, page=pages - 2, dpi=40)  # the last front page: red cards and the jokers
    img = Image.open(png).convert("RGB")
    raw = img.tobytes()
    colours = Counter(zip(raw[0::3], raw[1::3], raw[2::3], strict=True))
    near = lambda rgb, target: sum(abs(a - b) for a, b in zip(rgb, target, strict=True)) < 40  # noqa: E731
    assert sum(n for rgb, n in colours.items() if near(rgb, (0xD1, 0x26, 0x2F))) > 1000  # red frames
    assert (
        sum(n for rgb, n in colours.items() if near(rgb, (0xF2, 0xB7, 0x05))) > 50
    )  # the jokers' yellow band


def test_cli_build(tmp_path):
    """The full build (load, check, compose, render) once the rules package has its legal checks."""
    kit = load_kit(KIT)
    assert check_kit(kit) == []
    build([KIT], out=tmp_path, langs=["en"])
    assert (tmp_path / "rummy_cards" / "en" / "kit-a4.pdf").is_file()


SWITCH_SENTENCES = {  # (literal defaults, every switch flipped): a sentence that only that setting prints
    "en": (
        (
            "Only if you cannot lay a card",
            "the player with the fewest cards in hand wins; players tied",
            "Once it is down you may, in the same turn, also add",
            "In that turn you may also take a joker from the table",
            "the round ends as soon as the last card of the pile has been drawn",
            "or 0 if their total is lower",
            "the losers pay against the lowest total among them",
            "go one each to the winners in turn order",
        ),
        (
            "If you cannot or will not lay a card",
            "the lowest hand total wins (a tie: fewer cards",
            "From your next turn on you may add",
            "play goes on without drawing",
            "scores the difference as plus points",
        ),
    ),
    "ja": (
        (
            "カードを出せないときだけ",
            "手札の枚数が最も少ない人が勝ちます。同じ枚数の人はみな勝者",
            "これを出したら、同じ手番のうちに場の組み合わせに足したり",
            "その手番のうちに場のジョーカーを取ってもかまいません",
            "山札の最後の1枚が引かれたら",
            "自分の合計のほうが少なければ0点",
            "その中で最も少ない合計と比べて払い",
            "手番順に1点ずつ勝者に配ります",
        ),
        (
            "カードを出せない、または出さないときは",
            "手札の合計が最も少ない人が勝ちます（同じなら手札の枚数",
            "並べ替えたりできるのは、次の手番からです",
            "引かずに続けます",
            "その差をプラス点とします",
        ),
    ),
    "es": (
        (
            "Solo si no puedes bajar ninguna carta",
            "gana quien tenga menos cartas en la mano; si hay empate",
            "Una vez bajada, en el mismo turno también puedes añadir",
            "también puedes tomar un comodín de la mesa",
            "termina en cuanto se roba la última carta",
            "o 0 si su total es menor",
            "pagan respecto al total más bajo entre ellos",
            "a los ganadores en orden de turno",
        ),
        (
            "Si no puedes o no quieres bajar cartas",
            "gana el total de mano más bajo (con empate",
            "A partir de tu siguiente turno puedes añadir",
            "se sigue jugando sin robar",
            "anota la diferencia como puntos positivos",
        ),
    ),
}
# the settings of the switches the flipped card hides (their paragraphs print only under the literal settings
# of opening_turn and exhausted_tie) are read in their own card below
HIDDEN_SENTENCES = {
    "en": (
        "You may take a joker from the table only from your next turn on",
        "each loser pays every winner, each against that winner's own total",
    ),
    "ja": ("場のジョーカーを取れるのは次の手番からです", "負けた人は勝者一人ひとりに"),
    "es": (
        "No puedes tomar un comodín de la mesa hasta tu siguiente turno",
        "cada perdedor paga a cada ganador",
    ),
}
REMAINDER_SENTENCES = {
    "en": "the lower hand total first",
    "ja": "手札の合計が少ない勝者から順に",
    "es": "primero al total más bajo",
}
FLIPPED_RULES = {
    "draw": "by_choice",
    "exhausted_winner": "lowest_total",
    "exhausted_tie": "tie_break",
    "opening_turn": "own_melds_only",
    "opening_retrieval": "next_turn",
    "exhausted_end": "all_pass",
    "exhausted_tie_pay": "each_winner",
    "exhausted_tie_remainder": "lower_total_first",
    "exhausted_below_winner": "scores_plus",
}


def _rules_only_kit(tmp: Path, flipped: bool | dict[str, str]) -> Path:
    """A copy of the shipped kit with only the rules sheet, and the switches flipped (all, or those given)."""
    import shutil

    import yaml

    kit = tmp / "rummy_cards"
    shutil.copytree(KIT, kit)
    data = yaml.safe_load((kit / "kit.yaml").read_text(encoding="utf-8"))
    data["components"] = {"rules": data["components"]["rules"]}
    if flipped:
        data["game"]["rules"].update(FLIPPED_RULES if flipped is True else flipped)
    (kit / "kit.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return kit


def _squash(s: str) -> str:
    return re.sub(r"\s+", "", s)


def _rules_texts(kit: Path, out: Path, langs: list[str]) -> dict[str, str]:
    """The rules card of a rules-only kit built in `langs` only (each of the five shipped is the same build
    path), its PDF's text per language as pdfplumber reads it, whitespace removed."""
    render_all(
        plan_build(
            load_kits([kit]),
            out=out,
            langs=langs,
            paper="a4",
            seed=None,
            measure=text_width,
            warn=lambda _: None,
        ),
        out,
    )
    return {
        lang: _squash(
            "".join(
                p.extract_text() or "" for p in pdfplumber.open(out / kit.name / lang / "rules-a4.pdf").pages
            )
        )
        for lang in langs
    }


@pytest.mark.parametrize("flipped", [False, True])
def test_rules_card_states_the_switch_settings_in_every_language(tmp_path, flipped):
    kit = _rules_only_kit(tmp_path / "kit", flipped)
    texts = _rules_texts(kit, tmp_path / "out", list(SWITCH_SENTENCES))
    for lang, (literal, other) in SWITCH_SENTENCES.items():
        plumber = texts[lang]
        chosen, not_chosen = (other, literal) if flipped else (literal, other)
        for sentence in chosen:
            assert _squash(sentence) in plumber, (lang, sentence)
        for sentence in not_chosen:
            assert _squash(sentence) not in plumber, (lang, sentence)
        assert (
            _squash(
                {
                    "en": "A match has 12 rounds",
                    "ja": "12ラウンドを終えたら",
                    "es": "Una partida tiene 12 rondas",
                }[lang]
            )
            in plumber
        )


def test_the_switches_only_some_settings_print_are_stated_in_every_language(tmp_path):
    """opening_retrieval prints under may_add_after_opening, exhausted_tie_pay under share, the remainder
    under lowest_winner: flipping them alone shows the other settings' sentences, in every language."""
    from generator.engine.switches import switch_values
    from generator.games.rummy_cards.spec import RummyRules

    assert set(FLIPPED_RULES) == {name for name, _, _ in switch_values(RummyRules())}
    for flips, sentences in (
        ({"opening_retrieval": "next_turn", "exhausted_tie_pay": "each_winner"}, HIDDEN_SENTENCES),
        ({"exhausted_tie_remainder": "lower_total_first"}, {k: (v,) for k, v in REMAINDER_SENTENCES.items()}),
    ):
        kit = _rules_only_kit(tmp_path / "kit" / "-".join(flips), flips)
        texts = _rules_texts(kit, tmp_path / "out" / "-".join(flips), list(sentences))
        for lang, wanted in sentences.items():
            for sentence in wanted:
                assert _squash(sentence) in texts[lang], (lang, sentence)


def test_the_corner_index_keeps_off_its_panels_edge():
    """The corner number's ink (its glyphs' outline box) keeps at least 1 mm inside the white panel on every
    number card of the first colour, top-left and upside down at bottom-right (it touched the panel)."""
    from generator.layout.geometry import drawn
    from generator.layout.ops import Place, Rect, Text
    from generator.render.fonts import ink_extent, text_width

    parts = composed_parts(ROOT / "layouts" / "rummy_cards", "en")
    cards = parts["number_cards"]
    faces = [op for op in cards.pages[0].ops if isinstance(op, Place) and op.name]
    assert len(faces) >= 4
    for face in faces:
        items = drawn(face.ops, text_width)
        panel = next(i.box for i in items if isinstance(i.op, Rect) and i.op.fill == "#ffffff")
        big = max(i.op.size for i in items if isinstance(i.op, Text))
        corners = [i for i in items if isinstance(i.op, Text) and i.op.size < big and i.op.text.isdigit()]
        assert len(corners) == 2, face.name
        for item in corners:
            low, high = ink_extent(item.op.text, item.op.font, item.op.size)
            x0, _, x1, _ = item.box
            a, b, c, d, e, f = item.matrix
            assert (a, b, c, d) == (1.0, 0.0, 0.0, 1.0)  # placed unturned on the face: only its own rotate
            upside_down = item.op.rotate == 180
            y = item.op.y + f  # the baseline's height on the face
            ink = (y - high, y - low) if upside_down else (y + low, y + high)
            room = min(ink[0] - panel[1], panel[3] - ink[1], x0 - panel[0], panel[2] - x1)
            assert room >= mm(1), (face.name, item.op.text, round(room / mm(1), 2))
