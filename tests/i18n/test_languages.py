"""Any language Babel knows: kit.languages, catalogs as the gate, --lang, German and French shipped, and a
script the built-in font cannot draw (Korean) refused until the kit brings a font for it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdf
import pytest

from generator.contract.load import load_kit
from generator.errors import RenderError, SpecError
from generator.i18n.texts import Texts
from generator.pipeline import build, check_kits, load_kits, shipped_kits, verify_layout
from generator.spec.catalogs import read_catalog
from tests.clirun import Ran
from tests.clirun import pnpkit as run_cli

ROOT = Path(__file__).resolve().parents[2]
FONTS = Path(__file__).resolve().parent / "fonts"
RR = ROOT / "layouts" / "ripple_rush"
KOREAN = {
    "kit.title": "리플 러시",
    "component.number_cards": "숫자 카드",
    "component.goal_cards": "목표 카드",
    "component.score_sheet": "점수표",
    "component.rules": "규칙 요약",
    "goal.title": "목표",
}


def pnpkit(*args: str) -> Ran:
    """`pnpkit ARGS...` from the checkout's root, in this process (tests/clirun.py)."""
    return run_cli(*args, cwd=ROOT, env={"COLUMNS": "250"})


def line_of(kit: Path, needle: str) -> int:
    return next(
        i
        for i, line in enumerate((kit / "kit.yaml").read_text(encoding="utf-8").splitlines(), 1)
        if needle in line
    )


@pytest.fixture
def kit(tmp_path: Path) -> Path:
    dst = tmp_path / "rr"
    shutil.copytree(RR, dst)
    return dst


def set_languages(kit: Path, langs: str) -> None:
    p = kit / "kit.yaml"
    text = p.read_text(encoding="utf-8")
    new = re.sub(r"languages: \[[^\]]*\]", f"languages: [{langs}]", text, count=1)
    assert new != text
    p.write_text(new, encoding="utf-8")


def write_korean(kit: Path) -> None:
    body = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', '"Language: ko\\n"', ""]
    for tid, text in KOREAN.items():
        body += [f'msgid "{tid}"', f'msgstr "{text}"', ""]
    (kit / "locales" / "ko.po").write_text("\n".join(body), encoding="utf-8")


# ------------------------------------------------------------------ any language


def test_shipped_kits_ship_five_languages_with_complete_german_and_french() -> None:
    for path in shipped_kits():
        kit = load_kit(path)
        assert kit.meta.languages == ["en", "ja", "es", "de", "fr"]
        en = set(kit.catalogs["en"].messages)
        for lang in ("de", "fr"):
            assert set(kit.catalogs[lang].messages) == en, (path.name, lang)
    for lang in ("de", "fr"):
        tool = read_catalog(ROOT / "generator" / "i18n" / "locales" / f"{lang}.po", lang, lang)
        en = read_catalog(ROOT / "generator" / "i18n" / "locales" / "en.po", "en", "en")
        assert set(tool.messages) == set(en.messages)


def test_any_babel_locale_is_a_language_when_its_catalog_exists(kit: Path, tmp_path: Path) -> None:
    shutil.copy(kit / "locales" / "es.po", kit / "locales" / "pt_BR.po")
    set_languages(kit, "en, pt_BR")
    loaded = load_kit(kit)
    assert loaded.meta.languages == ["en", "pt_BR"]
    result = build([kit], out=tmp_path / "out", langs=["pt_BR"])
    assert (tmp_path / "out" / "ripple_rush" / "pt_BR" / "kit-a4.pdf").is_file()
    assert result.files


def test_unknown_language_and_missing_catalog_are_located(kit: Path) -> None:
    set_languages(kit, "en, qq, de-DE, it")
    with pytest.raises(SpecError) as e:
        load_kit(kit)
    line = line_of(kit, "languages:")
    assert [str(p).split(": ", 1)[1] for p in e.value.problems] == [
        "kit.languages[1]: expected a language or locale Babel knows, such as en, de, fr or pt_BR; got 'qq'",
        "kit.languages[2]: expected a language such as en, de, fr or pt_BR (the catalog is "
        "locales/<lang>.po); "
        "got 'de-DE'",
    ]
    assert all(p.line == line for p in e.value.problems)
    set_languages(kit, "en, it")
    with pytest.raises(SpecError) as e:
        load_kit(kit)
    (p,) = e.value.problems
    assert (p.line, p.key, p.message) == (
        line,
        "kit.languages[1]",
        "no catalog for language 'it': expected locales/it.po in the kit folder",
    )


def test_english_stays_required(kit: Path) -> None:
    set_languages(kit, "de, fr")
    with pytest.raises(SpecError, match="english \\(en\\) must be among the languages: it is the fallback"):
        load_kit(kit)


@pytest.mark.parametrize(
    ("lang", "n", "word"),
    [
        ("de", 1, "Punkt"),
        ("de", 2, "Punkte"),
        ("fr", 0, "point"),
        ("fr", 1, "point"),
        ("fr", 2, "points"),
        ("fr", 1_000_000, "points"),
    ],
)
def test_cldr_plural_rules_from_babel(lang: str, n: int, word: str) -> None:
    """French counts 0 as singular (CLDR 'one' is 0 and 1); German does not; numbers come formatted."""
    kit = load_kit(RR)
    texts = Texts(lang, kit.catalogs, {"row": 1, "goal_points": n})
    out = texts("goal.row")
    assert out.endswith(f" {word}.") and out.split("+")[1].split(" ")[0] == str(n)
    assert Texts(lang, kit.catalogs, {})._num(1234.5) == {"de": "1.234,5", "fr": "1\u202f234,5"}[lang]


def test_build_rummy_in_german_and_french_prints_german_and_french(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = pnpkit("build", "layouts/rummy_cards", "--lang", "de,fr", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    de = "".join(p.extract_text() for p in pypdf.PdfReader(out / "rummy_cards" / "de" / "rules-a4.pdf").pages)
    fr = "".join(p.extract_text() for p in pypdf.PdfReader(out / "rummy_cards" / "fr" / "rules-a4.pdf").pages)
    assert "Vorbereitung" in de and "Erstes Auslegen" in de and "Nachziehstapel" in de
    assert "Mise en place" in fr and "Première pose" in fr and "pioche" in fr


def test_lang_option_takes_what_the_kit_declares(tmp_path: Path) -> None:
    proc = pnpkit("build", "layouts/rummy_cards", "--lang", "it", "--out", str(tmp_path / "o"))
    assert (
        proc.returncode == 2 and "Traceback" not in proc.stderr
    )  # a usage error: exit 2 like every bad option
    assert "--lang: layouts/rummy_cards/kit.yaml ships en, ja, es, de, fr; got 'it'" in proc.stderr
    proc = pnpkit("build", "layouts/rummy_cards", "--lang", "en;rm -rf", "--out", str(tmp_path / "o"))
    assert proc.returncode == 2
    assert "Invalid value for '--lang': expected a comma-separated list of languages" in proc.stderr
    assert not (tmp_path / "o").exists()


def test_list_shows_five_languages_per_shipped_kit() -> None:
    proc = pnpkit("list")
    assert proc.returncode == 0, proc.stderr
    for name in ("ripple_rush", "peak_dice", "raindrops", "rummy_cards"):
        row = next(line for line in proc.stdout.splitlines() if name in line)
        assert "en, ja, es, de, fr" in row


# ------------------------------------------------------------------ a script the built-in font lacks


def test_korean_without_a_korean_font_fails_validate_naming_the_characters(kit: Path) -> None:
    write_korean(kit)
    set_languages(kit, "en, ko")
    kits = load_kits([kit])
    check_kits(kits)
    with pytest.raises(RenderError) as e:
        verify_layout(kits, langs=["ko"])
    message = str(e.value)
    assert "locales/ko.po" in message and "goal.title" in message
    assert (
        "characters missing from the font (BIZ UDPGothic, bold, language ko): U+BAA9 '목', U+D45C '표'"
        in message
    )
    proc = pnpkit("validate", str(kit))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "U+BAA9 '목'" in proc.stderr


def test_korean_builds_once_the_kit_brings_a_font_for_it(kit: Path, tmp_path: Path) -> None:
    write_korean(kit)
    set_languages(kit, "en, ko")
    (kit / "assets").mkdir()
    shutil.copy(FONTS / "PnpkitTestHangul.ttf", kit / "assets" / "hangul.ttf")
    with open(kit / "kit.yaml", "a", encoding="utf-8") as fh:
        fh.write(
            "\nstyle:\n  fonts:\n    body:\n      regular: assets/hangul.ttf\n      bold: assets/hangul.ttf\n"
            "      fallback: [{regular: builtin, bold: builtin}]\n"
        )
    kits = load_kits([kit])
    verify_layout(kits, langs=["ko"])
    out = tmp_path / "out"
    build([kit], out=out, langs=["ko"])
    reader = pypdf.PdfReader(out / "ripple_rush" / "ko" / "goal_cards-a4.pdf")
    fonts = {
        str(f.get_object()["/BaseFont"])
        for page in reader.pages
        for f in (page["/Resources"].get("/Font") or {}).values()
    }
    assert any(name.endswith("+PnpkitTestHangul") for name in fonts), fonts  # subset and embedded
    assert any("BIZUDPGothic" in name for name in fonts), fonts  # the fallback draws the Latin and digits
    text = "".join(p.extract_text() for p in reader.pages)
    assert "목표" in text
