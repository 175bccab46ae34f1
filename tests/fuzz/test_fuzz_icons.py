"""Hostile inline icons: `style.icons` names that try to be paths, an icon file that is a FIFO, a link out of
the kit, a huge or entity-laden SVG, and `:name:` tokens that try to be paths. Each is a clean located error
(or prints as written), never a traceback or a hang; an undeclared file in assets/icons/ is never opened."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.contract.load import load_kit
from generator.errors import LayoutError, SpecError
from generator.layout.rich import parse_rich
from generator.spec.assets import MAX_SVG_BYTES, probe
from tests.spec.test_icons import COIN, starter


def problem(kit: Path) -> str:
    with pytest.raises(SpecError) as e:
        load_kit(kit)
    return str(e.value)


def test_a_fifo_named_as_an_icon_is_refused_unopened(tmp_path):
    kit = starter(tmp_path, svg=None)
    (kit / "assets" / "icons").mkdir(parents=True)
    os.mkfifo(kit / "assets" / "icons" / "coin.svg")  # opening it for reading would block forever
    assert "style.icons[0]: the icon 'assets/icons/coin.svg' is not a regular file" in problem(kit)


def test_an_icon_linked_out_of_the_kit_is_refused(tmp_path):
    kit = starter(tmp_path, svg=None)
    (kit / "assets" / "icons").mkdir(parents=True)
    os.symlink("/etc/passwd", kit / "assets" / "icons" / "coin.svg")
    assert "style.icons[0]: the icon 'assets/icons/coin.svg' resolves outside the kit folder" in problem(kit)


def test_a_huge_svg_is_refused_unread(tmp_path):
    kit = starter(tmp_path, svg=None)
    (kit / "assets" / "icons").mkdir(parents=True)
    with open(kit / "assets" / "icons" / "coin.svg", "wb") as fh:
        fh.truncate(MAX_SVG_BYTES * 50)  # sparse: 200 MiB of zeros that are never read past the cap
    assert f"style.icons[0]: assets/icons/coin.svg is over {MAX_SVG_BYTES} bytes" in problem(kit)


def test_an_svg_with_entities_is_refused(tmp_path):
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
        b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&b;</text></svg>'
    )
    kit = starter(tmp_path, svg=bomb)
    assert "style.icons[0]: assets/icons/coin.svg: an SVG with a DOCTYPE or entities is refused" in problem(
        kit
    )


def test_an_undeclared_fifo_beside_the_icons_is_never_opened(tmp_path):
    kit = starter(tmp_path)
    os.mkfifo(kit / "assets" / "icons" / "evil.svg")  # not in style.icons: a read would hang the test
    loaded = load_kit(kit)
    assert sorted(loaded.icons) == ["coin"]


def test_a_path_in_a_card_text_prints_as_written(tmp_path):
    from generator.pipeline import build

    effect = (
        '        - {type: text, x: 6mm, y: 64mm, w: 51.5mm, h: 10mm, text: "**x** :../../etc/passwd:", '
        "size: 8pt, align: left}\n"
    )
    kit = starter(tmp_path, effect=effect)
    result = build([kit], out=tmp_path / "out", langs=["en"])
    assert any(p.suffix == ".pdf" for p in result.files)


NAMES = st.one_of(
    st.text(max_size=50),
    st.sampled_from(
        ["../../etc/passwd", "/dev/zero", "coin/../coin", "coin.svg", "CON", "nul\x00", "star", "coin"]
    ),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(NAMES, max_size=4))
def test_any_icon_list_loads_or_is_a_located_problem(tmp_path, names):
    if (tmp_path / "kit").exists():  # hypothesis reuses the function's tmp_path
        shutil.rmtree(tmp_path / "kit")
    kit = starter(tmp_path, icons=json.dumps(names), effect="")
    try:
        loaded = load_kit(kit)
    except SpecError as e:
        assert all(p.key.startswith("style.icons") for p in e.problems), e
        return
    assert set(loaded.icons) <= {"coin", "star"} and set(loaded.icons) == set(names)


ICONS = {"coin": probe(COIN, "assets/icons/coin.svg")}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                [
                    ":coin:",
                    ":star:",
                    ":coins:",
                    "**",
                    "*",
                    "\\:",
                    "\\*",
                    ":",
                    "[/]",
                    "[#123456]",
                    "[muted]",
                    " ",
                    "\n",
                    "a",
                ]
            ),
            st.text(alphabet=":*[]\\/#.az_ 0", max_size=6),
        ),
        max_size=12,
    )
)
def test_any_markup_parses_or_is_a_located_error(parts):
    text = "".join(parts)
    try:
        pieces = parse_rich(text, "cards.csv:2", icons=ICONS)
    except LayoutError as e:
        assert str(e).startswith("cards.csv:2: ")
        return
    assert all(p.icon in ("", "coin", "star") for p in pieces)
