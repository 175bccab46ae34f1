"""Hostile text (issue 34): line breaks and control characters in catalog strings and data cells. Each is a
clean located error naming the catalog line (or the data row), or a clean build where the text wraps; never a
traceback (Pillow's text measurement used to end the build with `raqm_layout() failed`)."""

from __future__ import annotations

import csv
import io

import pytest

from tests.fuzz.harness import ROOT, Case, cli_in_process, materialise, run_case


def _run(case: Case, lang: str, tmp_path) -> tuple[str, str]:
    """Build one case in one language: ('clean', last message line) or ('accepted', files); nothing else."""
    from generator.errors import KitError
    from generator.pipeline import build

    kit = materialise(case, tmp_path)
    out = tmp_path / "out"
    try:
        result = build([kit], out=out, langs=[lang])
    except KitError as e:
        assert not out.exists() or not [p for p in out.rglob("*.pdf")]
        return "clean", str(e).split("\n")[-1]
    return "accepted", f"{len(result.files)} files"


def _po_case(kit: str, lang: str, msgid: str, value: str) -> tuple[Case, int]:
    path = f"locales/{lang}.po"
    text = (ROOT / "layouts" / kit / path).read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    at = next(i for i, s in enumerate(lines) if s.strip() == f'msgid "{msgid}"')
    quoted = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    lines[at + 1] = f'msgstr "{quoted}"\n'
    return Case(kit, f"po {msgid} {value!r}", {path: "".join(lines).encode("utf-8")}), at + 1


def _csv_case(column: str, value: str) -> Case:
    data = (ROOT / "layouts" / "harvest_deck" / "data" / "cards.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(data)))
    rows[1][rows[0].index(column)] = value
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return Case("harvest_deck", f"csv {column} {value!r}", {"data/cards.csv": buf.getvalue().encode("utf-8")})


@pytest.mark.parametrize(
    "kit, lang, value",
    [
        ("ripple_rush", "en", "a\nb\nc"),
        ("ripple_rush", "en", "a\u2028b"),
        ("ripple_rush", "en", "a\nb"),
        ("rummy_cards", "ja", "ラミー\nカード"),
    ],
)
def test_a_line_break_in_a_one_line_catalog_string_is_located(kit, lang, value, tmp_path):
    case, line = _po_case(kit, lang, "kit.title", value)
    kind, detail = _run(case, lang, tmp_path)
    assert kind == "clean", detail
    assert "a line break in a text printed on one line" in detail and repr(value) in detail, detail
    assert f"locales/{lang}.po:" in detail, detail


@pytest.mark.parametrize("value", ["a\tb", "a\x07b", "a\x1b[2Jb"])
def test_a_control_character_in_a_catalog_is_located_at_its_line(value):
    case, line = _po_case("ripple_rush", "en", "kit.title", value)
    kind, detail = run_case(case)
    assert kind == "clean", detail
    assert f"en.po:{line}: kit.title: control character U+{ord(value[1]):04X}" in detail, detail


def test_a_line_break_in_wrapped_rules_text_builds():
    case, _ = _po_case("harvest_deck", "en", "rules.goal", "Grow the richest field.\nShuffle the cards.")
    kind, detail = run_case(case)
    assert kind == "accepted", detail


@pytest.mark.parametrize("value", ["Wh\neat", "Wh\r\neat", "Wh\x07eat"])
def test_a_hostile_data_cell_names_its_row(value):
    kind, detail = run_case(_csv_case("name", value))
    assert kind == "clean", detail
    if "\x07" in value:  # a control character is refused where the data is read, at its row and column
        assert "data/cards.csv:2: column name: a control character U+0007" in detail, detail
    else:  # a line break prints in wrapped text: refused where the name is printed on one line
        assert "data/cards.csv:2 (id wheat-1, en): game.templates." in detail, detail


def test_cli_line_break_in_a_title_is_one_located_line(tmp_path):
    case, line = _po_case("ripple_rush", "en", "kit.title", "a\nb\nc")
    kit = materialise(case, tmp_path)
    out = tmp_path / "out"
    for command in (["validate", str(kit)], ["build", str(kit), "--lang", "en", "--out", str(out)]):
        r = cli_in_process(*command)  # the command's answer (tests/fuzz/harness.py), not the interpreter's
        assert r.returncode == 1, r.stderr
        assert "Traceback" not in r.stderr
        assert r.stderr.splitlines()[1].startswith(
            f"  {kit / 'locales' / 'en.po'}:{line}: kit.title: a line break"
        ), r.stderr
    assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]


_DEJAVU = (ROOT / "tests" / "render" / "fonts" / "DejaVuSans-ArabicHebrew.ttf").read_bytes()
_STYLE = (
    "\nstyle:\n  fonts:\n    body:\n      regular: assets/fonts/d.ttf\n      bold: assets/fonts/d.ttf\n"
    "      fallback: [{regular: builtin, bold: builtin}]\n"
)


def _shaping_case(value: str, *, own_font: bool) -> Case:
    case, _ = _po_case("ripple_rush", "en", "kit.title", value)
    if own_font:
        text = (ROOT / "layouts" / "ripple_rush" / "kit.yaml").read_text(encoding="utf-8")
        case.files["kit.yaml"] = (text + _STYLE).encode("utf-8")
        case.files["assets/fonts/d.ttf"] = _DEJAVU
    return case


@pytest.mark.parametrize(
    "value, own_font",
    [
        ("مرحبا", False),  # Arabic in the built-in font: no glyphs
        ("\u202eevil\u202c title", False),  # bidi override controls
        ("\u202bשלום abc\u202c 123", True),  # an embedding, balanced
        ("\u2067שלום (abc\u2069", True),  # an isolate, an unbalanced bracket
        ("ع" + "\u0651" * 3000, True),  # thousands of marks on one letter
        ("abc\u200d\u200c\u200bdef", False),  # joiners and a zero-width space
        ("لا" * 300, True),  # a long line of ligatures
    ],
    ids=["arabic-builtin", "override", "embedding", "isolate", "marks", "joiners", "ligatures"],
)
def test_hostile_shaping_input_is_a_clean_error_or_a_clean_build(value, own_font):
    """Text that stresses bidi and shaping ends as a located error or a build, never a traceback or a hang."""
    import time

    t0 = time.perf_counter()
    kind, detail = run_case(_shaping_case(value, own_font=own_font))
    assert kind in ("clean", "accepted"), detail
    assert time.perf_counter() - t0 < 60
    if kind == "clean":
        assert "en.po:" in detail, detail


@pytest.mark.parametrize(
    "value",
    [
        "**Plant** it :leaf: and **score",  # an unclosed bold: a located error
        ":star:" * 400,  # more icons than a card holds: does not fit, located
        r"\*\*not bold\*\* \:star\: \\",  # escapes only
        "**" * 500,  # empty bold runs
        "**a\tb**",  # a control character inside a run
        "[#c33a2b]open span :star:",  # an unclosed colour span
        "[/] [coin] [#zzzzzz] [ink][ink][/][/]",  # a stray close, unknown names, nested spans
    ],
)
def test_hostile_rich_text_in_a_card_is_a_clean_error_or_a_clean_build(value):
    po = (ROOT / "layouts" / "harvest_deck" / "locales" / "en.po").read_text(encoding="utf-8")
    at = po.index('msgid "effect.resource"')
    start = po.index('msgstr "', at) + len('msgstr "')
    quoted = value.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    text = po[:start] + quoted + po[po.index('"\n', start) :]
    kind, detail = run_case(
        Case("harvest_deck", f"rich {value[:20]!r}", {"locales/en.po": text.encode("utf-8")})
    )
    assert kind in ("clean", "accepted"), detail
    if kind == "clean":
        assert "en.po:" in detail or "cards.csv:" in detail, detail
