"""Hostile template keys (docs/deck-kind.md): `extends` chains and cycles, `remove` and `id`, `rotate`,
`opacity`, `padding`, gradients, a card `radius`, `repeat` alignment and `ref()` calls. Each is either
refused by the model (a ValidationError pydantic locates) or drawn, never a traceback of another kind; what
is drawn is the same ops twice and renders to a PDF."""

from __future__ import annotations

import ast
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from generator.errors import LayoutError
from generator.i18n.sandbox import CatalogEnvironment, Helper
from generator.layout.ops import Page
from generator.layout.template import FaceRenderer
from generator.render.pdf import write_pdf
from generator.spec.template import AnyElement, FaceTemplate, resolve_extends
from generator.units import mm

ELEMENT: TypeAdapter[Any] = TypeAdapter(AnyElement)
W, H = mm(63), mm(88)
junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.lists(st.text(max_size=5), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
number = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-1000, 1000), junk)
colour = st.one_of(st.sampled_from(["#112233", "ink", "paper", "{{ c }}", "none", "#zzz"]), junk)
gradient = st.fixed_dictionaries(
    {"gradient": st.lists(colour, max_size=4)}, optional={"angle": number, "extra": junk}
)
length = st.one_of(st.sampled_from(["1mm", "0mm", "-2mm", "400mm", "3pt", "50%", "1e308mm"]), number)


def measure(text: str, font: str, size: float) -> float:
    return 0.5 * size * len(text)


def _element() -> st.SearchStrategy[dict[str, Any]]:
    box = {"x": st.just("5mm"), "y": st.just("5mm"), "w": st.just("40mm"), "h": st.just("20mm")}
    extra = {"rotate": number, "opacity": number, "id": junk, "when": st.just("c != ''")}
    text = st.fixed_dictionaries(
        {
            "type": st.just("text"),
            "text": st.sampled_from(["hi", "{{ ref('o').name }}", "{{ ref(1) }}"]),
            **box,
        },
        optional={"padding": length, "fill": st.one_of(colour, gradient), "align": junk, **extra},
    )
    rect = st.fixed_dictionaries(
        {"type": st.just("rect"), **box}, optional={"fill": st.one_of(colour, gradient), **extra}
    )
    repeat = st.fixed_dictionaries(
        {"type": st.just("repeat"), "times": st.one_of(st.integers(-3, 200), junk), "element": rect},
        optional={"dx": length, "align": st.one_of(st.sampled_from(["left", "center", "right"]), junk)},
    )
    return st.one_of(text, rect, repeat)


def _ref(name: Any) -> dict[str, Any]:
    if name != "o":
        raise LayoutError(f"ref({str(name)[:20]!r}): not a ref field")
    return {"name": "Ann"}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(elements=st.lists(_element(), max_size=4), radius=length)
def test_hostile_element_keys_are_refused_or_drawn(elements, radius, tmp_path_factory):
    try:
        tpl = FaceTemplate.model_validate({"front": elements, "radius": radius})
    except ValidationError:
        return
    context = {"c": "#445566", "ref": Helper("ref", "ref('o').name", _ref)}

    def draw() -> Any:
        renderer = FaceRenderer(CatalogEnvironment(), measure)
        return renderer.face("f", tpl.front or [], context, W, H, mm(3), "t", radius=tpl.radius)

    try:
        face = draw()
    except LayoutError:
        return
    assert draw() == face  # deterministic
    for op in face.ops:
        for v in getattr(op, "__dict__", {}).values():
            assert not (isinstance(v, float) and not math.isfinite(v))
    out = tmp_path_factory.mktemp("f") / "f.pdf"
    write_pdf([Page(W, H, list(face.ops))], out, title="t")
    assert out.stat().st_size > 0


names = st.sampled_from(["a", "b", "c", "d"])


@settings(max_examples=200, deadline=None)
@given(
    links=st.dictionaries(names, st.one_of(st.none(), names, junk), min_size=1, max_size=4),
    removes=st.lists(st.one_of(names, junk), max_size=3),
)
def test_hostile_extends_chains_resolve_or_are_refused_by_name(links, removes):
    raw: dict[str, Any] = {}
    for name, parent in links.items():
        raw[name] = {
            "extends": parent,
            "remove": removes if parent is not None else [],
            "front": [{"id": "a", "type": "rect", "x": 0, "y": 0, "w": "1mm", "h": "1mm"}],
        }
    try:
        templates = {k: FaceTemplate.model_validate(v) for k, v in raw.items()}
    except ValidationError:
        return
    try:
        resolved = resolve_extends(templates)
    except ValueError as e:
        assert "extends" in str(e) or "remove" in str(e)
        return
    assert set(resolved) == set(templates)
    for tpl in resolved.values():
        assert tpl.front is not None and len(tpl.front) <= 200


def test_a_long_chain_resolves_without_recursion_trouble():
    raw = {f"t{i}": {"extends": f"t{i - 1}"} if i else {"front": []} for i in range(50)}
    templates = {k: FaceTemplate.model_validate(v) for k, v in raw.items()}
    assert resolve_extends(templates)["t49"].front == []


@pytest.mark.parametrize("angle", [math.nan, math.inf, "90deg", [90], 1e9])
def test_a_bad_gradient_angle_is_refused(angle):
    with pytest.raises(ValidationError, match="angle"):
        ELEMENT.validate_python(
            {
                "type": "rect",
                "x": 0,
                "y": 0,
                "w": "1mm",
                "h": "1mm",
                "fill": {"gradient": ["#111111", "ink"], "angle": angle},
            }
        )


ref_arg = st.one_of(
    st.sampled_from(
        ["'o'", "'owner'", "'ownr'", "''", "1", "none", "o", "'o' ~ 'x'", "ref('o')", "'o', 'p'"]
    ),
    st.text(max_size=60).map(repr),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    args=st.lists(ref_arg, min_size=1, max_size=3),
    declared=st.lists(st.sampled_from(["owner", "o", "pet", "x" * 40]), max_size=3, unique=True),
    junk_text=st.text(max_size=20),
)
def test_hostile_ref_calls_are_named_at_validate_time_or_left_to_the_row(args, declared, junk_text):
    """`ref(...)` in a template, checked against game.rules.<component>.refs before any row is drawn: a
    constant field that is not declared is one short message naming it; any other argument (computed, junk,
    a syntax error) is no traceback here."""
    from generator.games.deck.expressions import ref_problems
    from tests.games.deck.helpers import deck

    rows = [{"id": "a", "count": 1, "cost": 1, **dict.fromkeys(declared, "a")}]
    game = deck(rows, rules={"cards": {"refs": dict.fromkeys(declared, "cards")}})
    source = junk_text + "".join("{{ ref(" + a + ") }}" for a in args)
    found = ref_problems(game.spec, "cards", CatalogEnvironment(), source)
    assert all(isinstance(m, str) and len(m) < 400 for m in found)
    for a in args:
        try:
            value = ast.literal_eval(a)  # a Python string literal is a Jinja constant too
        except (ValueError, SyntaxError):
            continue
        if isinstance(value, str) and value not in declared and "{" not in junk_text + value:
            assert any(m.startswith(f"ref({value[:40]!r}): not a ref field of cards") for m in found), found


back_side = st.one_of(
    st.just("absent"),
    st.none(),
    st.just([]),
    st.just([{"type": "rect", "x": 0, "y": 0, "w": "1mm", "h": "1mm"}]),
    junk,
)


@settings(max_examples=200, deadline=None)
@given(links=st.dictionaries(names, st.one_of(st.none(), names), min_size=1, max_size=4), backs=st.data())
def test_hostile_backs_in_extends_chains_drop_keep_or_are_refused(links, backs):
    """`back` in a chain: absent (the parent's), null (dropped), a list, or junk (refused by the model)."""
    raw: dict[str, Any] = {}
    for name, parent in links.items():
        raw[name] = {"extends": parent, "front": []}
        side = backs.draw(back_side)
        if side != "absent":
            raw[name]["back"] = side
    try:
        templates = {k: FaceTemplate.model_validate(v) for k, v in raw.items()}
    except ValidationError:
        return
    try:
        resolved = resolve_extends(templates)
    except ValueError as e:
        assert "extends" in str(e)
        return
    for name, tpl in raw.items():
        if "back" in tpl and tpl["back"] is None:
            assert resolved[name].back is None
        elif "back" not in tpl and tpl["extends"] in resolved:
            assert resolved[name].back == resolved[tpl["extends"]].back


@settings(max_examples=100, deadline=None)
@given(value=st.one_of(st.sampled_from(["one", "per_row", "One", "per-row", ""]), junk))
def test_a_hostile_backs_value_is_refused_or_taken(value):
    from generator.games.deck.spec import DeckGame

    raw = {
        "kind": "deck",
        "decks": {"cards": {"data": [{"id": "a", "count": 1}], "template": "t", "backs": value}},
        "templates": {"t": {"front": []}},
    }
    try:
        game = DeckGame.model_validate(raw)
    except ValidationError as e:
        assert any(err["loc"][:3] == ("decks", "cards", "backs") for err in e.errors())
        return
    assert value in ("one", "per_row", None)
    assert game.decks["cards"].backs == value
