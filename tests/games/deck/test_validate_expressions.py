"""Validate proves what check and build will evaluate (issue 34): every expression of a data kit is parsed,
its names checked against the data's columns (with a "did you mean" from the real names), text columns used as
numbers refused, every `where` evaluated over the rows; element errors name the offending key."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from generator.errors import SpecError
from generator.games.deck.expressions import MAX_ALL_OF_WORK
from generator.games.deck.legal import legal_problems
from tests.games.deck.helpers import deck
from tests.games.deck.test_data import kit, pnpkit  # noqa: F401  (the kit-copy fixture)
from tests.kitcopy import edit

ROWS = [
    {"id": "a", "count": 2, "type": "x", "cost": 1, "name": "A"},
    {"id": "b", "count": 3, "type": "y", "cost": 2, "name": "B"},
]


def _where(where: str, rows: list[dict[str, object]] = ROWS) -> list[tuple[str, str]]:
    spec = deck(
        rows,
        balance={
            "draws": [
                {
                    "name": "n",
                    "kind": "hand_has",
                    "component": "cards",
                    "hand": 2,
                    "where": where,
                    "bound": {"min": 0.1},
                }
            ]
        },
    )
    return legal_problems(spec)


def test_a_typo_in_where_names_the_column_it_meant():
    assert _where("tpye == 'x'") == [
        ("balance.draws[0].where", "no column 'tpye' in kit.yaml; did you mean type?")
    ]


def test_a_name_far_from_every_column_lists_the_columns():
    assert _where("zzz == 1") == [
        ("balance.draws[0].where", "no column 'zzz' in kit.yaml (columns: cost, count, id, name, type)")
    ]


@pytest.mark.parametrize(
    ("where", "what"),
    [
        ("type > 2", "compared with the number 2"),
        ("2 <= name", "compared with the number 2"),
        ("name + 1", "used in arithmetic with a number"),
    ],
)
def test_a_text_column_used_as_a_number_says_to_declare_it(where, what):
    col = where.replace("2 <= ", "").split()[0]
    assert _where(where) == [
        (
            "balance.draws[0].where",
            f"column {col} of kit.yaml is text, {what}; declare it "
            f"int or number in game.decks fields (e.g. fields: {{{col}: int}})",
        )
    ]


def test_a_declared_number_compares_with_a_number():
    assert _where("cost > 1 and type == 'x'") == []


@pytest.mark.parametrize(
    ("where", "error"),
    [
        ("1/0", "ZeroDivisionError: division by zero"),
        ("''.__class__", "SecurityError: access to attribute '__class__' of 'str' object is unsafe."),
        ("cost / (cost - 2) > 0", "ZeroDivisionError: division by zero"),
    ],
)
def test_a_where_that_fails_names_the_first_row_it_fails_on(where, error):
    rows = [*ROWS, {"id": "c", "count": 1, "type": "x", "cost": 2, "name": "C"}]
    line = 2 if "cost - 2" in where else 1  # row b (cost 2) is the first to divide by zero
    assert _where(where, rows) == [("balance.draws[0].where", f"kit.yaml:{line}: {error}")]


def test_a_share_over_a_deck_of_no_cards_is_located():
    spec = deck(
        [{"id": "a", "count": 0, "cost": 1}],
        deal={"component": "cards", "hand": 1, "players": {"min": 1, "max": 1}},
        balance={
            "draws": [
                {"name": "n", "kind": "share", "component": "cards", "field": "id", "bound": {"max": 0.5}}
            ]
        },
    )
    assert (
        "balance.draws[0].component",
        "kit.yaml: the deck of cards holds no cards (every count is 0); a draw check needs cards",
    ) in legal_problems(spec)


def test_an_all_of_past_the_budget_is_refused_within_seconds():
    rows = [
        {"id": f"c{i}", "count": 1, "cost": 1, "a": i % 2, "b": i % 3, "c": i % 5, "d": i % 7}
        for i in range(5000)
    ]
    spec = deck(
        rows,
        decks={"cards": {"data": rows, "fields": {k: "int" for k in "abcd"}, "template": "plain"}},
        balance={
            "draws": [
                {
                    "name": "n",
                    "kind": "hand_has",
                    "component": "cards",
                    "hand": 100,
                    "bound": {"min": 0.1},
                    "all_of": [{"where": f"{k} == 1", "at_least": 20} for k in "abcd"],
                }
            ]
        },
    )
    t0 = time.perf_counter()
    problems = legal_problems(spec)
    assert time.perf_counter() - t0 < 10
    assert len(problems) == 1 and problems[0][0] == "balance.draws[0].all_of", problems
    assert problems[0][1].startswith(
        f"over the budget of {MAX_ALL_OF_WORK:,} steps: the exact count of 4 "
        "conditions over a 100-card hand from 5,000 cards needs up to "
    ), problems


def test_a_small_all_of_is_within_the_budget():
    spec = deck(
        ROWS,
        balance={
            "draws": [
                {
                    "name": "n",
                    "kind": "hand_has",
                    "component": "cards",
                    "hand": 3,
                    "bound": {"min": 0.1},
                    "all_of": [{"where": "type == 'x'"}, {"where": "type == 'y'"}],
                }
            ]
        },
    )
    assert legal_problems(spec) == []


def test_a_template_name_that_is_no_column_is_located():
    spec = deck(
        ROWS,
        templates={
            "plain": {
                "front": [
                    {"type": "text", "x": "0mm", "y": "0mm", "w": "100%", "h": "20%", "text": "{{ nmae }}"},
                    {
                        "type": "repeat",
                        "times": "csot",
                        "element": {
                            "type": "icon",
                            "name": "star",
                            "x": "0mm",
                            "y": "0mm",
                            "w": "5mm",
                            "h": "5mm",
                        },
                    },
                    {
                        "type": "text",
                        "x": "0mm",
                        "y": "0mm",
                        "w": "100%",
                        "h": "20%",
                        "text": "{{ t('x') }} {{ i }}",
                        "when": "tpye == 'x'",
                    },
                ]
            }
        },
    )
    assert legal_problems(spec) == [
        ("templates.plain.front[0].text", "used by cards: no column 'nmae' in kit.yaml; did you mean name?"),
        (
            "templates.plain.front[1].times",
            "no column 'csot' in kit.yaml (the copies to draw); did you mean cost?",
        ),
        ("templates.plain.front[2].when", "used by cards: no column 'tpye' in kit.yaml; did you mean type?"),
    ]


def test_a_rule_field_that_is_no_column_is_one_message():
    spec = deck(
        ROWS, rules={"cards": {"required": ["nmae"], "values": {"tpye": ["x"]}, "refs": {"nmae": "cards"}}}
    )
    assert legal_problems(spec) == [
        ("rules.cards.required", "no column 'nmae' in kit.yaml; did you mean name?"),
        ("rules.cards.values.tpye", "no column 'tpye' in kit.yaml; did you mean type?"),
        ("rules.cards.refs.nmae", "no column 'nmae' in kit.yaml; did you mean name?"),
    ]


def test_a_bad_count_is_one_message():
    with pytest.raises(SpecError) as e:
        deck([{"id": "a", "count": "three", "cost": 1}])
    assert [str(p) for p in e.value.problems] == [
        "kit.yaml:1: column count: expected an integer; got 'three'"
    ]


def test_contradictory_bounds_are_refused():
    with pytest.raises(Exception, match="min 0.9 is above max 0.1"):
        deck(
            ROWS,
            balance={
                "draws": [
                    {
                        "name": "n",
                        "kind": "share",
                        "component": "cards",
                        "field": "type",
                        "bound": {"min": 0.9, "max": 0.1},
                    }
                ]
            },
        )


def test_validate_locates_every_expression_problem_of_a_kit(kit: Path):  # noqa: F811
    yaml = kit / "kit.yaml"
    edit(yaml, "where: \"type == 'action'\"", "where: \"tpye == 'action'\"")
    edit(yaml, "times: value", "times: valeu")
    edit(yaml, "required: [name, type, text]", "required: [name, tpye, text]")
    edit(yaml, "where: \"type == 'resource'\"", "where: \"value > 'x'\"")
    r = pnpkit("validate", str(kit))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.splitlines()
    csv = kit / "data" / "cards.csv"
    assert lines[0] == f"error: 4 problems in {yaml}", r.stderr
    assert any(
        s.endswith(
            f"game.templates.action.front[7].times: no column 'valeu' in {csv} (the copies to draw); "
            "did you mean value?"
        )
        for s in lines
    ), r.stderr
    assert any(
        s.endswith(f"game.rules.cards.required: no column 'tpye' in {csv}; did you mean type?") for s in lines
    ), r.stderr
    assert any(
        s.endswith(f"game.balance.draws[1].where: no column 'tpye' in {csv}; did you mean type?")
        for s in lines
    ), r.stderr
    assert any(f"game.balance.draws[0].where: {csv}:2: TypeError: '>' not supported" in s for s in lines), (
        r.stderr
    )


def test_an_element_error_names_the_offending_key(kit: Path):  # noqa: F811
    yaml = kit / "kit.yaml"
    edit(yaml, "size: 7pt, colour: muted}", "size: 7pt, color: muted}")
    edit(
        yaml,
        "text: \"{{ t('type.action') }}\", size: 7pt, colour: muted}",
        "text: \"{{ t('type.action') }}\", size: 7pt, colour: muted, rotate: 90}",
    )
    edit(yaml, "{type: rect, x: 3mm, y: 3mm,", "{type: rect, x: 3, y: 3mm, opacity: 0.5,")
    edit(yaml, "bound: {min: 0.9}", "bound: {min: 0.9, max: 0.1}")
    r = pnpkit("validate", str(kit))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    text = r.stderr
    assert (
        "game.templates.crop.front[8].color: unknown key (not part of the spec); got 'muted'; did you mean "
        "colour?" in text
    )
    assert "game.templates.action.front[8].rotate: unknown key (not part of the spec); got 90" in text
    assert (
        "game.templates.crop.front[1].opacity: unknown key (not part of the spec); got 0.5; that key belongs "
        "to "
        "another kind of element here" in text
    )
    assert "game.templates.crop.front[1].x: expected a length with a unit" in text
    assert "game.balance.draws[0].bound: min 0.9 is above max 0.1" in text
    assert ".text: unknown key" not in text and ".rect." not in text


def test_a_grid_looping_in_every_cell_stops_at_the_command_budget():
    from generator.errors import LayoutError
    from generator.i18n.sandbox import MAX_COMMAND_STEPS, CatalogEnvironment
    from generator.layout.template import FaceRenderer
    from generator.spec.template import GridElement

    grid = GridElement.model_validate(
        {
            "type": "grid",
            "x": "0mm",
            "y": "0mm",
            "w": "100%",
            "h": "100%",
            "rows": 60,
            "columns": 60,
            "bonus": "{% for a in range(300) %}{% for b in range(300) %}{% endfor %}{% endfor %}",
        }
    )
    env = CatalogEnvironment()
    t0 = time.perf_counter()
    with pytest.raises(LayoutError, match=f"over {MAX_COMMAND_STEPS:,} steps .*the budget of one command"):
        FaceRenderer(env, None).face("sheet", [grid], {}, 500.0, 700.0, 0.0, "game.templates.sheet.front")  # type: ignore[arg-type]
    assert time.perf_counter() - t0 < 10
    assert MAX_COMMAND_STEPS < env.total_steps < MAX_COMMAND_STEPS + 10


def test_the_faces_of_a_kit_past_the_ops_budget_are_refused_before_drawing():
    rows = [{"id": f"c{i}", "count": 10, "cost": 1} for i in range(500)]
    rep = {
        "type": "repeat",
        "times": 100,
        "element": {"type": "rect", "x": "0mm", "y": "0mm", "w": "1mm", "h": "1mm"},
    }
    spec = deck(
        rows,
        templates={"plain": {"front": [rep] * 20}},
        deal={"component": "cards", "hand": 1, "players": {"min": 1, "max": 1}},
    )
    problems = legal_problems(spec)
    assert len(problems) == 1 and problems[0][0] == "decks.cards.template", problems
    # 500 rows x 10 copies x 20 repeats x 100 copies x (the rect and its placement)
    assert problems[0][1].startswith(
        "over the budget of 1,000,000 drawing ops per language (one command): the "
        "faces would draw about 20,000,000 ("
    ), problems
    small = deck(rows[:2], templates={"plain": {"front": [rep] * 20}})
    assert legal_problems(small) == []


def test_a_low_resolution_image_on_a_deck_card_fails_validate(tmp_path: Path):
    import io

    from PIL import Image

    from tests.games.deck.test_assets import _art_kit

    folder = _art_kit(tmp_path)
    buf = io.BytesIO()
    Image.new("RGB", (42, 17), (200, 120, 40)).save(buf, format="PNG")  # contained in 20x8 mm: 54 dpi
    (folder / "assets" / "banner.png").write_bytes(buf.getvalue())
    r = pnpkit("validate", str(folder))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert (
        "game.decks.cards.template: an image element draws assets/banner.png: 42x17 px printed at 19.8x8.0 "
        "mm "
        "is 54 dpi, under print.art_dpi_min (150 dpi)" in r.stderr
    ), r.stderr


def test_an_image_into_the_bleed_that_leaves_it_uncovered_fails_validate(tmp_path: Path):
    from tests.games.deck.test_assets import _art_kit

    folder = _art_kit(tmp_path)
    edit(
        folder / "kit.yaml",
        "{type: image, src: assets/banner.png, x: 4mm, y: 22mm, w: 20mm, h: 8mm, fit: contain}",
        "{type: image, src: assets/banner.png, x: -3mm, y: -3mm, w: 40mm, h: 40mm, fit: contain}",
    )
    r = pnpkit("validate", str(folder))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert (
        "game.decks.cards.template: an image element draws assets/banner.png: full-bleed art does not cover "
        "the "
        "bleed (fit: contain leaves" in r.stderr
    ), r.stderr


def test_a_box_of_negative_width_names_its_element(kit: Path):  # noqa: F811
    edit(
        kit / "kit.yaml",
        "{type: ellipse, x: 47mm, y: 5mm, w: 11mm,",
        "{type: ellipse, x: 47mm, y: 5mm, w: -11mm,",
    )
    r = pnpkit("validate", str(kit))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.splitlines()[1].endswith(
        "game.templates.crop.front[3].w: expected a positive width and height "
        "(a box of no size draws nothing); got '-11mm'"
    ), r.stderr


def test_a_label_with_a_control_character_is_located_at_its_row(tmp_path: Path):
    import shutil

    from tests.games.deck.helpers import ROOT

    folder = tmp_path / "sprout_sheet"
    shutil.copytree(ROOT / "layouts" / "sprout_sheet", folder)
    rows = folder / "data" / "rows.csv"
    lines = rows.read_text(encoding="utf-8").split("\n")
    cells = lines[1].split(",")
    cells[-1] = cells[-1] + "\x1b[31m"
    lines[1] = ",".join(cells)
    rows.write_text("\n".join(lines), encoding="utf-8")
    r = pnpkit("validate", str(folder))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    head = lines[0].split(",")
    assert r.stderr.splitlines()[1].startswith(
        f"  {rows}:2: column {head[-1]}: a control character U+001B in "
    ), r.stderr


def test_a_template_choice_by_a_field_that_is_no_column_is_located():
    spec = deck(
        ROWS,
        decks={
            "cards": {
                "data": ROWS,
                "fields": {"cost": "int"},
                "template": {"by": "tpye", "cases": {"x": "plain"}, "default": "plain"},
            }
        },
    )
    assert legal_problems(spec) == [
        (
            "decks.cards.template.by",
            "no column 'tpye' in kit.yaml (the field that picks the template); did you mean type?",
        )
    ]


@pytest.mark.parametrize(
    ("op", "line", "message"),
    [
        (
            "xlsx_no_sheets",
            None,
            "the workbook has no sheet pnpkit can read (the rows are read from the first sheet)",
        ),
        (
            "xlsx_rel_outside",
            None,
            "the workbook has no sheet pnpkit can read (the rows are read from the first sheet)",
        ),
        ("xlsx_nan", 3, "a sheet openpyxl cannot read (ValueError: "),
        ("xlsx_inf", 3, "a sheet openpyxl cannot read (ValueError: "),
        ("xlsx_shared_string", 3, "a sheet openpyxl cannot read (IndexError: "),
        (
            "xlsx_blank_rows",
            5002,
            "over 5,000 rows stored in the sheet (blank rows count); the limit is 5,000: delete "
            "the rows below the data",
        ),
    ],
)
def test_a_damaged_workbook_is_one_located_error(tmp_path: Path, op: str, line: int | None, message: str):
    from generator.spec.tables import read_table
    from tests.fuzz.harness import _hostile_xlsx

    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "cards.xlsx").write_bytes(_hostile_xlsx(op, [["id", "count"], ["a", 1], ["b", 2]]))
    t0 = time.perf_counter()
    with pytest.raises(SpecError) as e:
        read_table(tmp_path, "data/cards.xlsx", "data/cards.xlsx")
    assert time.perf_counter() - t0 < 10
    [problem] = e.value.problems
    assert (problem.file, problem.line) == ("data/cards.xlsx", line) and problem.message.startswith(
        message
    ), problem


def test_a_semicolon_separated_csv_gets_a_hint(tmp_path: Path):
    from generator.spec.tables import read_table

    (tmp_path / "cards.csv").write_text("id;count;name\na;1;Apple\n", encoding="utf-8")
    with pytest.raises(SpecError) as e:
        read_table(tmp_path, "cards.csv", "cards.csv")
    assert [str(p) for p in e.value.problems] == [
        "cards.csv:1: the header 'id;count;name' holds semicolons: the file looks separated by semicolons "
        "(as some "
        "spreadsheet programs save CSV); pnpkit reads comma-separated CSV: save it with commas, or as .xlsx"
    ]
