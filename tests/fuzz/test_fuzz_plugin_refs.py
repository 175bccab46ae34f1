"""Hostile plugin records: a third-party entry point's `GamePlugin` strings are an input surface. Whatever
text a field holds, registering it gives a list of problems (never an exception), and loading a string that
names nothing importable is a KitError naming the field and the string (never a traceback)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.contract import GamePlugin, resolve
from generator.contract.plugin import OPTIONAL_REFS, REFS
from generator.errors import KitError

BASE = GamePlugin(id="fuzzed", ruleset="1", spec="fuzz_no_such_pkg.spec:Model", package="fuzz_no_such_pkg")
TEXT = st.one_of(st.text(max_size=120), st.none(), st.integers(), st.just(".x:y"), st.just("a..b:c"))
NAME = st.from_regex(r"[a-z_][a-z0-9_]{0,12}", fullmatch=True)


@settings(max_examples=300, deadline=None)
@given(field=st.sampled_from([*REFS, *OPTIONAL_REFS, "id", "package", "compile_seconds"]), value=TEXT)
def test_any_field_value_gives_problems_never_an_exception(field, value):
    problems = dataclasses.replace(BASE, **{field: value}).problems()
    assert isinstance(problems, list) and all(isinstance(p, str) for p in problems)
    if field in REFS and not isinstance(value, str):
        assert any(p.startswith(f"{field} = ") for p in problems)


@settings(max_examples=200, deadline=None)
@given(value=st.one_of(st.floats(), st.integers(), st.booleans(), st.text(max_size=5), st.none()))
def test_compile_seconds_is_a_plain_number_of_seconds(value):
    problems = dataclasses.replace(BASE, compile_seconds=value).problems()
    fine = value is None or (type(value) in (int, float) and 0 < value <= 3600)
    assert (problems == []) == fine, problems


@settings(max_examples=200, deadline=None)
@given(module=st.lists(NAME, min_size=1, max_size=3), attr=st.lists(NAME, max_size=3))
def test_a_string_naming_nothing_is_a_kit_error(module, attr):
    ref = "fuzz_no_such_pkg_" + ".".join(module) + (":" + ".".join(attr) if attr else "")
    with pytest.raises(KitError, match="cannot import"):
        resolve(ref)


@settings(max_examples=100, deadline=None)
@given(attr=st.lists(NAME, min_size=1, max_size=3))
def test_a_missing_attribute_is_a_kit_error(attr):
    ref = "generator.errors:" + ".".join(["zz_" + a for a in attr])
    with pytest.raises(KitError, match="has no attribute"):
        resolve(ref)
    plugin = dataclasses.replace(BASE, new_game=ref)
    assert plugin.problems() == []
    with pytest.raises(KitError, match=r"^game 'fuzzed': new_game = "):
        plugin.load.new_game()
