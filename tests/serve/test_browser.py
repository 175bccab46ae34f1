"""The preview page in a real browser (Debian's headless Chromium driven by Playwright): an edit of kit.yaml
on disk shows a new picture, then a broken edit shows the located error inline -- the test never reloads."""

import os
import shutil
from pathlib import Path

import pytest

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
SHOT = os.environ.get("PNPKIT_SCREENSHOT")  # set to a path to keep a screenshot of the page (docs/images)

pytestmark = pytest.mark.skipif(
    shutil.which(CHROMIUM) is None and not Path(CHROMIUM).exists(),
    reason="no system Chromium (.ci/run installs Debian's chromium)",
)


def first_picture(page, cid: str) -> str:
    return page.get_attribute(f'img[data-cid="{cid}"][data-page="0"]', "src")


def wait_loaded(page, cid: str) -> None:
    page.wait_for_function(
        """(cid) => { const i = document.querySelector(`img[data-cid="${cid}"][data-page="0"]`);
                      return i && i.complete && i.naturalWidth > 100; }""",
        arg=cid,
        timeout=60_000,
    )


def test_edit_on_disk_shows_new_picture_then_inline_error(server, kit):
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(server + "/")
            wait_loaded(page, "score_sheet")
            page.evaluate("window.__noReload = 'still here'")
            before = first_picture(page, "score_sheet")
            rules_before = first_picture(page, "rules")
            size_before = page.evaluate(
                """() => document.querySelector('img[data-cid="score_sheet"]').naturalWidth"""
            )

            yaml = kit / "kit.yaml"
            text = yaml.read_text(encoding="utf-8")
            assert '{id: blue,   colour: "#1f6fd1"' in text
            yaml.write_text(
                text.replace('{id: blue,   colour: "#1f6fd1"', '{id: blue,   colour: "#7a1fd1"'),
                encoding="utf-8",
            )
            page.wait_for_function(
                '(old) => { const i = document.querySelector(\'img[data-cid="score_sheet"][data-page="0"]\');'
                " return i && i.getAttribute('src') !== old; }",
                arg=before,
                timeout=90_000,
            )
            wait_loaded(page, "score_sheet")
            after = first_picture(page, "score_sheet")
            assert after != before and after.startswith("/page/en/score_sheet/0.png?v=")
            assert (
                page.evaluate("""() => document.querySelector('img[data-cid="score_sheet"]').naturalWidth""")
                == size_before
            )
            assert page.is_hidden("#errors")

            broken = yaml.read_text(encoding="utf-8").replace("  rows: 8\n", "  rows: eight\n")
            yaml.write_text(broken, encoding="utf-8")
            line = broken.splitlines().index("  rows: eight") + 1
            # wait for the final state: an editor's write may be seen half-done first (an empty file is an
            # error too)
            page.wait_for_function(
                "() => [...document.querySelectorAll('#errors li')].some(li => li.dataset.key === "
                "'game.rows')",
                timeout=90_000,
            )
            item = page.inner_text("#errors li")
            assert item == f"my_rr/kit.yaml:{line}: game.rows: expected a valid integer; got 'eight'"
            assert page.get_attribute("#errors li", "data-key") == "game.rows"
            assert page.is_visible("#errors")
            assert first_picture(page, "score_sheet") == after  # the last good pictures stay
            if SHOT:
                page.screenshot(path=SHOT, full_page=False)
            assert page.evaluate("window.__noReload") == "still here"
            assert rules_before  # every component was shown
        finally:
            browser.close()


def test_run_check_button_shows_progress_then_the_verdict_table(server):
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.goto(server + "/")
            wait_loaded(page, "rules")
            assert page.input_value("#games") == "20"  # serve --games 20
            page.click("#run-check")
            page.wait_for_selector(
                "#check-progress progress", timeout=30_000
            )  # the worker runs; the page answers
            assert page.is_disabled("#run-check")
            assert (
                page.evaluate("fetch('/api/state').then(r => r.json()).then(s => s.check.status)")
                == "running"
            )
            page.wait_for_selector("#verdicts table", timeout=180_000)
            rows = page.query_selector_all("#verdicts tr")
            assert len(rows) > 3
            names = page.inner_text("#verdicts")
            assert "ripple_rush" in names and "20 games per setting" in names
            marks = {td.inner_text() for td in page.query_selector_all("#verdicts td:last-child")}
            assert marks <= {"ok", "FAIL"} and marks
            assert page.is_enabled("#run-check")
        finally:
            browser.close()


def test_a_failing_data_kit_shows_what_would_fix_it_under_its_verdicts(tmp_path):
    """A data kit whose draw check fails: the check panel lists the changes of the cards' counts that would
    make it hold, under the verdict table."""
    from tests.kitcopy import edit
    from tests.serve.conftest import ROOT, serving

    kit = tmp_path / "my_deck"
    shutil.copytree(ROOT / "layouts" / "harvest_deck", kit)
    edit(
        kit / "kit.yaml",
        "        limit: 8\n        bound: {min: 0.8}",
        "        limit: 8\n        bound: {min: 0.9}",
    )
    for url in serving(kit, tmp_path):  # the browser closes first: the server then stops at once
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                page = browser.new_page()
                page.goto(url + "/")
                page.click("#run-check")
                page.wait_for_selector("#verdicts ul.fixes li", timeout=120_000)
                said = page.inner_text("#verdicts p.fixes")
                items = [li.inner_text() for li in page.query_selector_all("#verdicts ul.fixes li")]
                assert said.startswith("what would fix it (cards)") and len(items) == 3, (said, items)
                assert all(i.startswith("move a copy from line ") for i in items)
                if SHOT:
                    page.screenshot(path=SHOT, full_page=True)
            finally:
                browser.close()
