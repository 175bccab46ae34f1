"""Hostile catalog strings (issue 12): each is refused with a message at its .po line, or renders safely."""

import time

import pytest

from generator.errors import SpecError
from generator.i18n.sandbox import CatalogEnvironment, template_problem
from generator.i18n.texts import Texts
from generator.spec.catalogs import Catalog

REFUSED = [
    ("{% include 'x' %}", "'{% include %}' is not allowed"),
    ("{% import 'x' as y %}", "'{% import %}' is not allowed"),
    ("{% from 'x' import y %}", "'{% from ... import %}' is not allowed"),
    ("{% extends 'x' %}", "'{% extends %}' is not allowed"),
    ("{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}", "'{% macro %}' is not allowed"),
    ("{% for i in range(10**6) %}x{% endfor %}", "range() of 1000000 items; the limit is 1000"),
    ("{{ self }}", "'self' is not available"),
    ("{{ '%s'|format(self) }}", "'self' is not available"),
    ("{{ '%s'|format(n) }}", "no filter named 'format'"),
    ("{{ plural }}", "cannot print the function plural (call it, e.g. plural(n, one='card', other='cards'))"),
    ("{{ num }}", "cannot print the function num"),
    ("{{ plural ~ '' }}", "cannot print the function plural"),
    ("{{ join([plural]) }}", "cannot print the function plural"),
    ("{{ range }}", "cannot print the function range"),
    ("{{ [1, 2]|random }}", "no filter named 'random'"),
    ("{{ lipsum() }}", "'lipsum' is undefined"),
    ("{{ 'x' * 10**9 }}", "a value of 1000000000 items; the limit is 4000"),
    ("{{ 9**9**9 }}", "a number with more than 30 digits"),
    ("{% set a = 'x' * 4000 %}{% set b = a ~ a %}{{ b }}", "a string of more than 4000 characters"),
    (
        "{% for i in range(1000) %}{% for j in range(1000) %}{% endfor %}{% endfor %}",
        "more than 100000 loop iterations",
    ),
    (
        "{% for i in range(2) %}{% for j in range(2) %}{% for k in range(2) %}{% endfor %}{% endfor %}{% "
        "endfor %}",
        "loops nested more than 2 deep",
    ),
    ("{% for x in [1] recursive %}{{ loop(x) }}{% endfor %}", "recursive loops are not allowed"),
    ("{{ 'x'.ljust(10**9) }}", "access to attribute 'ljust' of 'str' object is unsafe"),
    ("{{ '{:>999999999}'.format(1) }}", "str.format is not allowed"),
    ("{{ 'a' % 3 }}", "'%' string formatting is not allowed"),
    ("{{ n|center(10**9) }}", "no filter named 'center'"),
    ("{{ n.__class__ }}", "unsafe"),
    ("{{ 1 / 0 }}", "ZeroDivisionError: division by zero"),
    ("{% for i in range(900) %}{{ 'xxxxxxxxxx' }}{% endfor %}", "renders to more than 4000 characters"),
    ("{{ __loop }}", "'__loop' is not available"),
]


def render(text, context=None):
    cat = Catalog("en", "k.po", {"x": text}, {"x": 7})
    return Texts("en", {"en": cat}, {"n": 5, **(context or {})})("x")


@pytest.mark.parametrize("text,message", REFUSED, ids=[t for t, _ in REFUSED])
def test_hostile_template_is_refused_at_its_catalog_line(text, message):
    t0 = time.perf_counter()
    with pytest.raises(SpecError) as e:
        render(text)
    assert time.perf_counter() - t0 < 10  # a hang guard (a template bomb runs minutes), not a speed figure
    (problem,) = e.value.problems
    assert (problem.file, problem.line, problem.key) == ("k.po", 7, "x")
    assert message in problem.message, problem.message
    assert " at 0x" not in str(e.value)


@pytest.mark.parametrize("text", [t for t, _ in REFUSED[:5] + REFUSED[6:9]])
def test_features_needing_a_loader_or_self_are_refused_before_rendering(text):
    """`check` (validate, build) refuses them from the parse alone: nothing is rendered."""
    assert template_problem(CatalogEnvironment(), text) is not None


@pytest.mark.parametrize(
    "text,expected",
    [
        ("{{ plural(n, one='card', other='cards') }}", "cards"),
        ("{{ num(1234.5) }}", "1,234.5"),
        ("{{ join([1, 2, 3]) }}", "1, 2, and 3"),
        ("{{ n ~ ' cards' }}", "5 cards"),
        ("{% for i in range(3) %}{{ loop.index }}{% endfor %}", "123"),
        ("{{ n * 3 }} {{ 'ab'|upper }}", "15 AB"),
    ],
)
def test_ordinary_templates_still_render(text, expected):
    assert render(text) == expected


def test_no_randomness_in_the_template_environment():
    env = CatalogEnvironment()
    assert "random" not in env.filters
    assert not {"lipsum", "cycler", "joiner", "namespace"} & set(env.globals)


def test_a_string_compiled_once_renders_in_each_language_with_its_own_helpers():
    """The code of a catalog string is kept for the process; every Texts still renders it with its own
    number format and plural rules, and a refused string is refused every time."""
    text = "{{ num(n) }} {{ plural(n, one='card', other='cards') }}"
    en = Texts("en", {"en": Catalog("en", "en.po", {"x": text}, {"x": 1})}, {"n": 1234.5})
    de = Texts("de", {"de": Catalog("de", "de.po", {"x": text}, {"x": 1})}, {"n": 1234.5})
    assert en("x") == "1,234.5 cards"
    assert de("x") == "1.234,5 cards"  # de's number format: a template bound to en's helpers fails here
    assert de.env.compile_checked(text).environment is de.env
    hostile = "{{ ''.__class__ }}"
    for _ in range(2):
        with pytest.raises(SpecError, match="not available|not allowed|unsafe"):
            render(hostile)


@pytest.mark.parametrize(
    "text",
    [
        "Roll the dice.",
        "}} %} #} -} a lone closer",
        "100% of the cards; 3 > 2 and #1",
        "\n\nline\r\nbreaks\t",
        "x" * 4096,
        "x" * 20_000,
    ],
    ids=["plain", "closers", "symbols", "newlines", "long", "over-the-cap"],
)
def test_a_string_without_a_brace_is_judged_as_a_full_parse_judges_it(text, monkeypatch):
    """`template_problem` reads a string without "{" as text without parsing it: the same answer as the
    parse, its length cap included."""
    from generator.i18n import sandbox

    env = CatalogEnvironment()
    quick = template_problem(env, text)
    parsed = []
    real = CatalogEnvironment.parse_checked

    def parse(self, source):  # type: ignore[no-untyped-def]
        parsed.append(source)
        return real(self, source)

    monkeypatch.setattr(sandbox.CatalogEnvironment, "parse_checked", parse)
    try:
        env.parse_checked(text)
        full = None
    except sandbox.TemplateLimit as e:
        full = f"template: {e}"
    assert quick == full
    assert (template_problem(env, text), parsed[1:]) == (quick, [] if full is None else [text])
