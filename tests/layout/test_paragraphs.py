"""Paragraph layout read back from the rules PDFs: a house rule's sentences run on in their paragraph (no
"been drawn." or "ein Jokertropfen." alone on a line), numbered steps are a list (each step starts a line, its
lines hang after the number), Raindrops' English rules fit one face, and the data-deck kits' rules pages set
their sections one after the other (no fixed boxes with large gaps between). Each rules PDF is drawn as a
build draws it from the kit's shared plan (tests/composed.py), which the other modules of its group compose
too."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from generator.layout.summary import numbered_steps, run_in
from tests.composed import SHARED_PLANS, component_pdfs

ROOT = Path(__file__).resolve().parents[2]
pytestmark = SHARED_PLANS


def rules_pdf(kit: str, lang: str, out: Path) -> Path:
    """The rules card of a shipped kit in `lang` on A4, drawn into `out`."""
    return component_pdfs(ROOT / "layouts" / kit, out, lang)["rules"]


def rules_lines(pdf: Path) -> list[dict]:
    """The text lines of every rules face, face after face (a sheet holds two faces side by side)."""
    out: list[dict] = []
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages:
            halves = (
                [(0, page.width / 2), (page.width / 2, page.width)]
                if page.width > page.height
                else [(0, page.width)]
            )
            for x0, x1 in halves:
                out += page.crop((x0, 0, x1, page.height)).extract_text_lines(return_chars=True)
    return out


def texts(pdf: Path) -> list[str]:
    return [line["text"] for line in rules_lines(pdf)]


@pytest.mark.parametrize(
    "kit, lang, alone",
    [("rummy_cards", "en", "been drawn."), ("raindrops", "de", "ein Jokertropfen.")],
)
def test_a_house_rule_sentence_runs_on_in_its_paragraph(tmp_path, kit, lang, alone):
    lines = texts(rules_pdf(kit, lang, tmp_path))
    assert alone not in lines
    ends = [line for line in lines if alone.split()[-1] in line]
    assert ends and all(len(line.split()) > 2 for line in ends)  # the next sentence runs on after it


@pytest.mark.parametrize("kit", ["raindrops", "ripple_rush"])
def test_numbered_steps_start_lines_and_hang_after_their_numbers(tmp_path, kit):
    lines = rules_lines(rules_pdf(kit, "en", tmp_path))
    starts = {n: [line for line in lines if line["text"].startswith(f"{n}. ")] for n in (1, 2, 3, 4)}
    assert all(len(found) >= 1 for found in starts.values()), starts
    assert not any(" 2. " in line["text"] or " 3. " in line["text"] for line in lines)
    # the step's text starts at one indent for every step: after the widest number
    indents = {round(_after_number(found[0])["x0"], 1) for found in starts.values()}
    assert len(indents) == 1


def _after_number(line: dict) -> dict:
    """The first character of a step's text (after its number, its dot and any space)."""
    chars = line["chars"]
    dot = next(i for i, c in enumerate(chars) if c["text"] == ".")
    return next(c for c in chars[dot + 1 :] if c["text"].strip())


def test_the_raindrops_english_rules_fit_one_face(tmp_path):
    # before: the Scoring section alone on a second face ("Raindrops v1.0 · 2/2")
    pdf = rules_pdf("raindrops", "en", tmp_path)
    with pdfplumber.open(pdf) as doc:
        text = "".join(page.extract_text() for page in doc.pages)  # both copies of the face on the sheet
    assert "1/2" not in text and "2/2" not in text
    assert "Scoring" in texts(pdf)


@pytest.mark.parametrize("kit, heads", [("harvest_deck", 3), ("sprout_sheet", 3)])
def test_the_deck_rules_pages_set_their_sections_one_after_the_other(tmp_path, kit, heads):
    # before: three fixed boxes, 40 to 90 pt of white between a paragraph's last line and the next heading
    lines = rules_lines(rules_pdf(kit, "en", tmp_path))
    body = [line for line in lines if line["chars"][0]["size"] < 20]
    bold = [i for i, line in enumerate(body) if "Bold" in line["chars"][0]["fontname"]]
    assert len(bold) == heads
    size = body[0]["chars"][0]["size"]
    gaps = [body[i]["top"] - body[i - 1]["bottom"] for i in bold[1:]]
    assert all(g < 2 * size for g in gaps), gaps
    assert size >= 12  # the page is filled at a reading size, not left at the boxes' 12 pt with gaps


def test_numbered_steps_are_found_only_when_they_count_from_one():
    assert numbered_steps("1. Draw. 2. Play. 3. Score.") == [
        ("1.", "Draw."),
        ("2.", "Play."),
        ("3.", "Score."),
    ]
    assert numbered_steps("1. 全員が引く。2. 書く。") == [("1.", "全員が引く。"), ("2.", "書く。")]
    assert numbered_steps("Take 1. Then 2. more") == []  # not at the start
    assert numbered_steps("1. Draw. 3. Play.") == []  # not counting
    assert numbered_steps("1. only one step") == []
    assert numbered_steps("1. **Draw 2. Play**") == []  # a step would cut the bold


def test_sentences_run_on_with_a_space_except_after_japanese():
    assert run_in(["Draw a card.", "Then play."]) == "Draw a card. Then play."
    assert run_in(["カードを引きます。", "次に出します。"]) == "カードを引きます。次に出します。"
