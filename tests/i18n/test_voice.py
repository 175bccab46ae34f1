"""One voice per language (X-Form-Of-Address), product names written once, one spelling of set-up."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.contract.load import load_kit
from generator.i18n.voice import FORMS, HEADER, address_problems, scan
from generator.pipeline import shipped_kits
from generator.pipeline.check import check_kit
from generator.spec.catalogs import parse_catalog, read_catalog
from tests.clirun import pnpkit

ROOT = Path(__file__).resolve().parents[2]
KITS = shipped_kits()
CHOSEN = {"de": "du", "fr": "vous", "es": "tú"}
CATALOGS = sorted(
    [
        *ROOT.glob("layouts/*/locales/*.po"),
        *ROOT.glob("generator/i18n/locales/*.po"),
        *ROOT.glob("generator/templates/deck/locales/*.po"),
        *ROOT.glob("docs/examples/*/locales/*.po"),
    ]
)


def _catalog(lang: str, body: str, form: str | None = None) -> str:
    header = f'"X-Form-Of-Address: {form}\\n"\n' if form else ""
    return f'msgid ""\nmsgstr ""\n"Language: {lang}\\n"\n{header}\n{body}'


@pytest.mark.parametrize(
    "path", [p for p in CATALOGS if p.stem in FORMS], ids=lambda p: str(p.relative_to(ROOT))
)
def test_every_shipped_catalog_declares_the_chosen_form_and_keeps_to_it(path):
    cat = read_catalog(path, str(path.relative_to(ROOT)), path.stem)
    assert cat.header[HEADER][0] == CHOSEN[path.stem]
    assert address_problems(cat) == []


@pytest.mark.parametrize(
    "lang, text, form",
    [
        ("de", "Mischt die Karten und gebt jedem 5.", "ihr"),
        ("de", "Danach dürft ihr noch legen.", "ihr"),
        ("de", "Legt eure Karten ab.", "ihr"),
        ("de", "Trage die Zahl ein. Kannst du es nicht, passe.", "du"),
        ("de", "Setz deinen Marker auf ein Feld.", "du"),
        ("fr", "Prenez votre carte.", "vous"),
        ("fr", "Plante-la dans ton champ.", "tu"),
        ("fr", "Pioche une carte.", "tu"),
        ("es", "Terminad la ronda.", "vosotros"),
        ("es", "Os toca: podéis robar.", "vosotros"),
        ("es", "Roba una carta de tu mano.", "tú"),
    ],
)
def test_the_scan_finds_each_form(lang, text, form):
    assert form in {h.form for h in scan(lang, text)}


@pytest.mark.parametrize(
    "lang, text",
    [
        (
            "de",
            "Ist der Stapel leer, bringt jede Feldfrucht ihre Zahl.",
        ),  # inverted conditionals, possessive ihre
        ("de", "Der Spieler nutzt ihren Bonus; ihr Wert zählt doppelt."),  # ihr before a noun: its / their
        ("de", "Ihr Bonus gilt sofort."),  # sentence-initial possessive
        ("de", "Man gibt ihr eine Karte."),  # dative: her
        ("de", "Zieht jemand die letzte Karte, endet das Spiel."),  # a subject follows: third person
        ("de", "{{ plural(n, one='einmal', other=n ~ '-mal') }} würfeln."),
        ("fr", "Une tuile goutte couvre deux symboles ; la tuile est retournée."),  # tu inside words
        ("fr", "Le joueur actif va chez son voisin, assez vite."),
        ("es", "La mitad de la red y una unidad de la pared."),
        ("es", "El jugador activo roba una carta."),
    ],
)
def test_the_scan_leaves_other_meanings_alone(lang, text):
    assert list(scan(lang, text)) == []


def test_a_word_of_the_other_form_is_a_located_error():
    text = _catalog(
        "de", 'msgid "a"\nmsgstr "Ziehe eine Karte."\n\nmsgid "b"\nmsgstr "Mischt die Karten."\n', "du"
    )
    problems = address_problems(parse_catalog(text.encode(), "kit/locales/de.po", "de"))
    assert [str(p) for p in problems] == [
        "kit/locales/de.po:9: b: 'Mischt' addresses the players as ihr; the catalog's X-Form-Of-Address is "
        "'du'"
    ]


def test_an_undeclared_catalog_may_not_mix():
    text = _catalog(
        "fr",
        'msgid "a"\nmsgstr "Prenez une carte, posez-la et jouez."\n\nmsgid "b"\nmsgstr "Joue ta carte."\n',
    )
    problems = address_problems(parse_catalog(text.encode(), "x/fr.po", "fr"))
    assert {p.key for p in problems} == {"b"}
    assert all("declare one with a header line X-Form-Of-Address: tu or vous" in p.message for p in problems)
    one = _catalog("fr", 'msgid "a"\nmsgstr "Prenez une carte."\n')
    assert address_problems(parse_catalog(one.encode(), "x/fr.po", "fr")) == []


def test_an_unknown_form_names_the_header_line():
    text = _catalog("de", 'msgid "a"\nmsgstr "Karte"\n', "Sie")
    problems = address_problems(parse_catalog(text.encode(), "x/de.po", "de"))
    assert [str(p) for p in problems] == ["x/de.po:4: X-Form-Of-Address: expected du or ihr; got 'Sie'"]


def test_validate_fails_on_a_mixed_kit(tmp_path):
    """The check runs in `pnpkit validate`: yesterday's Ripple Rush German (ihr in the set-up) fails,
    located."""
    kit = tmp_path / "ripple_rush"
    shutil.copytree(ROOT / "layouts" / "ripple_rush", kit)
    po = kit / "locales" / "de.po"
    text = po.read_text(encoding="utf-8")
    po.write_text(
        text.replace("Mische die {{ deck_total }}", "Mischt die {{ deck_total }}"), encoding="utf-8"
    )
    line = (
        next(i for i, s in enumerate(po.read_text(encoding="utf-8").splitlines(), 1) if "Mischt die" in s) - 1
    )
    problems = check_kit(load_kit(kit))
    assert [(p.line, p.key, p.message.split(";")[0]) for p in problems] == [
        (line, "rules.setup", "'Mischt' addresses the players as ihr")
    ]
    run = pnpkit(
        "validate", str(kit), cwd=ROOT
    )  # in this process (tests/clirun.py): its message is the point
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert f"locales/de.po:{line}: rules.setup: 'Mischt' addresses the players as ihr" in run.stderr


def _title(lang_catalog) -> str:
    return lang_catalog.messages["kit.title"]


@pytest.mark.parametrize("kit_dir", KITS, ids=[k.name for k in KITS])
def test_product_names_are_written_once(kit_dir):
    """A kit's name is a product name: English in every Latin-script catalog (transliterated once in
    Japanese), and a string that prints it again prints it whole ("RUMMY CARDS", never "RUMMY CARTES")."""
    kit = load_kit(kit_dir)
    english = _title(kit.catalogs["en"])
    first = re.escape(english.split()[0])
    for lang, cat in kit.catalogs.items():
        title = _title(cat)
        if title.isascii():
            assert title == english, (lang, title)
        if lang == "en":
            continue
        for tid, text in cat.messages.items():
            if re.search(rf"\b{first}\b", text, flags=re.IGNORECASE):
                assert english.lower() in text.lower(), (lang, tid, text)


def test_set_up_is_spelled_one_way():
    titles = {}
    for path in ROOT.glob("layouts/*/locales/en.po"):
        cat = read_catalog(path, str(path), "en")
        titles.update(
            {
                (path.parent.parent.name, tid): text
                for tid, text in cat.messages.items()
                if tid.endswith("setup.title")
            }
        )
    assert titles and set(titles.values()) == {"Set-up"}


def test_sprout_goal_card_backs_name_one_card():
    """Every goal card's back says what the card is ("Goal card"), not the component's plural title."""
    kit = load_kit(ROOT / "layouts" / "sprout_sheet")
    text = (ROOT / "layouts" / "sprout_sheet" / "kit.yaml").read_text(encoding="utf-8")
    back = text.split("    goal:\n", 1)[1].split("    rules:\n", 1)[0].split("back:", 1)[1]
    ids = re.findall(r"t\('([^']+)'\)", back)
    assert ids == ["goal.back"]
    assert {lang: cat.messages["goal.back"] for lang, cat in kit.catalogs.items()}["en"] == "Goal card"


def test_a_french_imperative_alone_is_a_label_not_an_address() -> None:
    from generator.i18n.voice import scan

    assert [h.word for h in scan("fr", "Garde")] == []  # the card type "Guard"
    assert [h.word for h in scan("fr", "Garde une carte.")] == ["Garde"]
