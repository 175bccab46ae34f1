"""Issue 26 item 5: no table of the HTML report is wider than the page at 1,280 px, checked in a real browser
(Debian's headless Chromium driven by Playwright, as tests/serve/test_browser.py does)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from generator.engine.report import BalanceReport, Table, Tolerance
from generator.engine.verdict import Proportion
from generator.render.html_report import write_html
from tests.render.test_html_report import sample

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = os.environ.get("PNPKIT_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WIDTH = 1280

pytestmark = pytest.mark.skipif(
    shutil.which(CHROMIUM) is None and not Path(CHROMIUM).exists(),
    reason="no system Chromium (.ci/run installs Debian's chromium)",
)

MEASURE = """() => ({
  scroll: document.documentElement.scrollWidth,
  viewport: window.innerWidth,
  tables: [...document.querySelectorAll('table')].map(t => [
    t.querySelector('caption')?.textContent || t.className,
    t.getBoundingClientRect().right,
  ]),
  svgs: [...document.querySelectorAll('svg')].map(s => s.getBoundingClientRect().right),
})"""


def wide_report() -> BalanceReport:
    """The widest a real report gets and then some: the player counts as columns, long check names, long
    unbroken spec keys and cell values."""
    base = sample(kit="Ripple Rush (a long kit name that goes on and on)", name="row 3 completion " * 6)
    counts = [f"{n} players" for n in range(2, 13)]
    wide = Table(
        "Win share by seat and player count",
        ["seat", *counts],
        [[f"seat {s}", *[0.123456 * s / n for n in range(2, 13)]] for s in range(1, 7)],
    )
    unbroken = Table(
        "Unbroken values",
        ["key", "value"],
        [["game.balance." + "very_long_key_" * 12, "x" * 300], ["sheet", "長い文字列" * 40]],
    )
    more = [
        Tolerance(
            f"seat {s} win share ({n} players, greedy against random-legal opponents)",
            Proportion(40 + s, 200),
            0.1,
            0.4,
            "game.balance.seat_win_share." + "x" * 60,
        )
        for s in range(1, 5)
        for n in (2, 3, 4, 5)
    ]
    return BalanceReport(
        kit=base.kit,
        game=base.game,
        games_per_setting=base.games_per_setting,
        seed=base.seed,
        tables=[*base.tables, wide, unbroken],
        charts=base.charts,
        tolerances=[*base.tolerances, *more],
        figures=base.figures,
        notes=base.notes,
    )


def measure(path: Path) -> dict[str, Any]:
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": WIDTH, "height": 900})
            page.goto(path.as_uri())
            page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
            result: dict[str, Any] = page.evaluate(MEASURE)
            return result
        finally:
            browser.close()


def test_no_table_is_wider_than_the_page_at_1280_px(tmp_path: Path) -> None:
    path = tmp_path / "report.html"
    write_html([wide_report()], path, title="pnpkit balance report")
    m = measure(path)
    assert m["viewport"] == WIDTH
    assert len(m["tables"]) >= 4  # the tolerances (failed first and all), the data tables
    assert m["scroll"] <= WIDTH, m
    assert [(name, right) for name, right in m["tables"] if right > WIDTH] == []
    assert all(right <= WIDTH for right in m["svgs"])


def test_the_width_check_can_fail(tmp_path: Path) -> None:
    """The same measurement sees a table wider than the page when its cells may not wrap."""
    path = tmp_path / "report.html"
    write_html([wide_report()], path, title="pnpkit balance report")
    html = path.read_text(encoding="utf-8").replace("overflow-wrap: anywhere;", "white-space: nowrap;")
    path.write_text(html, encoding="utf-8")
    m = measure(path)
    assert m["scroll"] > WIDTH and any(right > WIDTH for _, right in m["tables"])


def test_the_colour_vision_section_fits_the_page_and_its_pictures_load(tmp_path: Path) -> None:
    """Issue 26 item 4: the five pictures of a page (as printed, protanopia, deuteranopia, tritanopia,
    greyscale) decode in the browser and, with the pair table, stay within the page at 1,280 px."""
    from generator.checking import colour_check
    from generator.pipeline import load_kits

    kit = load_kits([Path(__file__).resolve().parents[2] / "layouts" / "ripple_rush"])[0]
    path = tmp_path / "report.html"
    write_html([wide_report()], path, title="pnpkit balance report", colours=[colour_check(kit)])
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": WIDTH, "height": 900})
            page.goto(path.as_uri())
            found = page.evaluate("""() => ({
              scroll: document.documentElement.scrollWidth,
              images: [...document.querySelectorAll('section.colours img')].map(i => [
                i.naturalWidth, i.complete, i.getBoundingClientRect().right,
              ]),
              table: document.querySelector('table.pairs').getBoundingClientRect().right,
            })""")
        finally:
            browser.close()
    assert found["scroll"] <= WIDTH
    assert len(found["images"]) == 5 and all(
        w > 500 and done and right <= WIDTH for w, done, right in found["images"]
    )
    assert found["table"] <= WIDTH
