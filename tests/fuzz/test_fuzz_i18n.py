"""Hostile input for the i18n surfaces added with the form-of-address check, the pseudo-locale and extract:
the X-Form-Of-Address header, any catalog string through the scan and the pseudo transform, and text ids
that become file names and .pot lines."""

from __future__ import annotations

import time

import numpy as np
import pytest

from generator.i18n.pseudo import pseudo_text
from generator.i18n.sandbox import CatalogEnvironment, template_problem
from generator.i18n.voice import address_problems, scan
from generator.pipeline.extract import Entry, to_pot
from generator.spec.catalogs import parse_catalog, strict_problems
from tests.fuzz.harness import HOSTILE_TEMPLATES

ALPHABET = list("abcdeüßéñ tuvosihrdu{}%#'\"\\-.;:!?·–\u0301\u200b\t") + [
    "{{ n }}",
    "{% if a %}",
    "{% endif %}",
    "ihr",
    "vous",
    "os",
]


def _strings(seed: int, n: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return [
        "".join(ALPHABET[i] for i in rng.integers(len(ALPHABET), size=int(rng.integers(0, 200))))
        for _ in range(n)
    ]


@pytest.mark.parametrize("value", ["", "Sie", "du\x07", "x" * 10_000, "ihr; du", "DU", "\u202edu", "du ihr"])
def test_a_hostile_form_of_address_is_one_located_problem(value):
    quoted = value.replace("\\", "\\\\").replace('"', '\\"')
    text = (
        f'msgid ""\nmsgstr ""\n"Language: de\\n"\n"X-Form-Of-Address: {quoted}\\n"\n\nmsgid "a"\nmsgstr '
        f'"Karte"\n'
    )
    problems = address_problems(parse_catalog(text.encode(), "x/de.po", "de"))
    assert [(p.line, p.key) for p in problems] == [(4, "X-Form-Of-Address")]
    assert len(problems[0].message) < 120 and problems[0].message.startswith("expected du or ihr; got ")


@pytest.mark.parametrize("lang", ["de", "fr", "es", "de_AT", "ja"])
def test_the_scan_takes_any_string(lang):
    for text in _strings(20261206, 300):
        list(scan(lang, text))
    start = time.perf_counter()
    list(scan(lang, "Mischt ihr eure Karten; vous tu os " * 120))  # a 4,000-character string
    # a hang guard (catastrophic backtracking takes minutes on such a string), not a speed measurement
    assert time.perf_counter() - start < 5


def test_pseudo_keeps_every_template_that_compiles_compiling():
    env = CatalogEnvironment()
    for text in [*HOSTILE_TEMPLATES, *_strings(7, 300)]:
        if template_problem(env, text) is None:
            assert template_problem(env, pseudo_text(text)) is None, text


def test_hostile_ids_stay_inside_the_template_and_its_folder():
    from types import SimpleNamespace

    ids = ["../../etc/passwd", 'a"b', "line\nbreak", "back\\slash", "ünï.cödé", "#, fuzzy"]
    kit = SimpleNamespace(
        meta=SimpleNamespace(id="k", title="kit.title"),
        catalogs={"en": SimpleNamespace(messages={}, path="k/locales/en.po")},
    )
    entries = [Entry(tid, f"text of {tid}\n#. evil", 3) for tid in ids]
    for i, e in enumerate(entries):
        e.picture_file = f"{i + 1:03d}-x.png"
    pot = to_pot(kit, entries)  # type: ignore[arg-type]
    assert strict_problems(pot, "k.pot") == []
    from babel.messages.pofile import read_po

    assert [m.id for m in read_po(pot.splitlines(keepends=True)) if m.id] == ids
    from generator.pipeline.extract import _SAFE_RE

    assert all("/" not in _SAFE_RE.sub("_", t) and "\\" not in _SAFE_RE.sub("_", t) for t in ids)
