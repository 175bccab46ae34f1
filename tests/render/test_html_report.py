"""The HTML and JSON balance reports: charts drawn from the data, hostile text escaped, stable bytes,
atomic."""

from __future__ import annotations

import json
import math
import os
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from generator.engine.report import BalanceReport, Bars, Histogram, Table, Tolerance
from generator.engine.runner import run
from generator.engine.stats import wilson
from generator.engine.verdict import Exact, Proportion
from generator.errors import RenderError
from generator.render.html_report import to_html, write_html, write_json
from tests.engine.toy import DiceRace

HOSTILE = '<script>alert("x")</script> & </svg>'


class Page(HTMLParser):
    """Collects tags, SVG bars per chart and the visible text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.charts: list[dict[str, list[dict[str, str | None]]]] = []
        self.text: list[str] = []
        self.in_svg = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "svg":
            self.in_svg = True
            self.charts.append({"bar": [], "whisker": [], "reference": [], "class": [a]})
        elif self.in_svg and a.get("class") in ("bar", "whisker", "reference"):
            self.charts[-1][str(a["class"])].append(a)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg":
            self.in_svg = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(html: str) -> Page:
    p = Page()
    p.feed(html)
    p.close()
    return p


HIST = Histogram(
    "Score by player count",
    {"2 players": (3, [1, 0, 4, 2]), "3 players": (1, [0, 5, 0, 0, 0, 0, 1])},
    x_label="score",
)
BARS = Bars(
    "Win share by seat",
    ["seat 1", "seat 2", "seat 3", "seat 4"],
    [0.4, 0.2, 0.1, float("nan")],
    lows=[0.35, 0.15, 0.05, float("nan")],
    highs=[0.45, 0.25, 0.15, float("nan")],
    reference=0.25,
    y_label="win share",
)
ROWS = Bars("Row completion", ["row 1", "row 2"], [3.0, 1.5])


def sample(kit: str = "Ripple test", name: str = "row 3 completion") -> BalanceReport:
    return BalanceReport(
        kit=kit,
        game="toy",
        games_per_setting=500,
        seed=7,
        tables=[Table("Scores", ["players", "mean", "note"], [[2, 41.25, "ok"], [3, float("nan"), name]])],
        charts=[HIST, BARS, ROWS],
        tolerances=[
            Tolerance("seat 1 win share", Proportion(135, 500), 0.2, 0.35, "game.balance.seat"),
            Tolerance(name, Proportion(25, 500), 0.10, None, "game.balance.rows"),
        ],
        figures={
            "mean": np.float64(41.25),
            "bad": float("nan"),
            "by_players": {2: [1, 2], 3: np.arange(2)},
            "inf": float("inf"),
        },
        notes=["a note"],
    )


def test_svg_bar_counts_follow_the_data() -> None:
    page = parse(to_html([sample()], title="t"))
    hist, bars, rows = page.charts
    assert len(hist["bar"]) == 3 + 2  # non-zero counts of both series
    assert len(bars["bar"]) == 3  # the NaN value gets no bar
    assert len(bars["whisker"]) == 3
    assert len(bars["reference"]) == 1
    assert len(rows["bar"]) == 2 and rows["whisker"] == [] and rows["reference"] == []


def test_bar_heights_are_proportional_to_values() -> None:
    page = parse(to_html([sample()], title="t"))
    heights = [float(str(b["height"])) for b in page.charts[1]["bar"]]
    assert heights[0] / heights[1] == pytest.approx(2.0, rel=1e-3)
    assert heights[0] / heights[2] == pytest.approx(4.0, rel=1e-3)
    rows = [float(str(b["height"])) for b in page.charts[2]["bar"]]
    assert rows[0] / rows[1] == pytest.approx(2.0, rel=1e-3)


def test_histogram_bars_are_shares_on_a_shared_scale() -> None:
    page = parse(to_html([sample()], title="t"))
    h = [float(str(b["height"])) for b in page.charts[0]["bar"]]
    # 2 players: counts 1, 4, 2 of 7; 3 players: 5, 1 of 6 -> heights proportional to the shares
    shares = [1 / 7, 4 / 7, 2 / 7, 5 / 6, 1 / 6]
    for got, share in zip(h, shares):
        assert got / h[3] == pytest.approx(share / shares[3], rel=1e-3)
    # both panels share one value axis: 2 players draws values 3, 5, 6 and 3 players values 2, 7
    x = [float(str(b["x"])) for b in page.charts[0]["bar"]]
    slot = x[2] - x[1]  # values 5 -> 6
    assert x[1] - x[0] == pytest.approx(2 * slot, rel=1e-3)
    assert x[4] - x[3] == pytest.approx(5 * slot, rel=1e-3)
    assert x[0] - x[3] == pytest.approx(slot, rel=1e-3)  # value 3 (2 players) sits one slot right of value 2


def test_hostile_strings_are_escaped() -> None:
    html = to_html([sample(kit=HOSTILE, name=HOSTILE)], title=HOSTILE)
    page = parse(html)
    assert [t for t, _ in page.tags if t == "script"] == []
    assert html.count("<svg") == html.count("</svg>") == 3
    text = "".join(page.text)
    assert HOSTILE in text  # shown to the reader as text, not run
    assert "&lt;script&gt;" in html


def test_self_contained() -> None:
    html = to_html([sample()], title="t")
    page = parse(html)
    tags = {t for t, _ in page.tags}
    assert not tags & {"script", "link", "img", "iframe", "object"}
    assert all("src" not in a for _, a in page.tags)
    assert all(str(a.get("href", "#")).startswith("#") for _, a in page.tags)
    assert "url(" not in html and "@import" not in html


def test_verdict_banner_and_failed_first() -> None:
    page = parse(to_html([sample()], title="t"))
    text = "".join(page.text)
    assert "1 of 2 tolerances failed" in text
    rows = [a.get("class") for t, a in page.tags if t == "tr" and a.get("class") in ("pass", "fail")]
    # the failed ones alone above the charts, then every tolerance (failed first) in an open <details>
    assert rows == ["fail", "fail", "pass"]
    assert any(t == "details" and "open" in a for t, a in page.tags)
    ok = BalanceReport(
        kit="k", game="g", games_per_setting=1, seed=0, tolerances=[Tolerance("x", Exact(0.5), 0.0, 1.0)]
    )
    assert "its one tolerance holds" in "".join(parse(to_html([ok], title="t")).text)


def test_the_meta_line_of_counted_verdicts_claims_no_games() -> None:
    exact = BalanceReport(
        kit="k",
        game="deck",
        games_per_setting=4000,
        seed=7,
        tolerances=[Tolerance("x", Exact(0.5), 0.0, 1.0)],
    )
    text = "".join(parse(to_html([exact], title="t")).text)
    assert "every verdict exact: counted over every case, no games played" in text
    assert "games per setting" not in text and "seed 7" not in text
    text = "".join(parse(to_html([sample()], title="t")).text)
    assert "games per setting" in text and "every verdict exact" not in text


def test_same_input_same_bytes(tmp_path: Path) -> None:
    write_html([sample(), sample(kit="second")], tmp_path / "a.html", title="Balance")
    write_html([sample(), sample(kit="second")], tmp_path / "b.html", title="Balance")
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()
    write_html([sample(name="other")], tmp_path / "c.html", title="Balance")
    assert (tmp_path / "a.html").read_bytes() != (tmp_path / "c.html").read_bytes()


def test_atomic_write_leaves_no_temp_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out" / "report.html"
    write_html([sample()], target, title="t")
    write_json([sample()], tmp_path / "out" / "report.json")
    assert sorted(os.listdir(target.parent)) == ["report.html", "report.json"]
    before = target.read_bytes()

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(RenderError, match="report.html: cannot write the report"):
        write_html([sample(kit="new")], target, title="t")
    assert sorted(os.listdir(target.parent)) == ["report.html", "report.json"]
    assert target.read_bytes() == before


def test_json_sorted_nan_null_and_numpy(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    write_json([sample()], path)
    text = path.read_text(encoding="utf-8")
    assert "NaN" not in text and "Infinity" not in text
    doc = json.loads(text)
    assert doc["ok"] is False
    r = doc["reports"][0]
    assert r["figures"] == {"bad": None, "by_players": {"2": [1, 2], "3": [0, 1]}, "inf": None, "mean": 41.25}
    assert r["tables"][0]["rows"][1] == [3, None, "row 3 completion"]
    assert [t["ok"] for t in r["tolerances"]] == [True, False]
    assert text == json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def _toy_report(seed: int) -> BalanceReport:
    t = run(DiceRace(players=3, target=15), 300, seed, chunk_size=100)
    shares = [wilson(int(w), 300) for w in t["wins"]]
    return BalanceReport(
        kit="toy",
        game="dice_race",
        games_per_setting=300,
        seed=seed,
        charts=[
            Histogram("turns", {"3 players": (0, t["turns_hist"].tolist())}),
            Bars(
                "win share",
                ["1", "2", "3"],
                [s[0] for s in shares],
                [s[1] for s in shares],
                [s[2] for s in shares],
                reference=1 / 3,
            ),
        ],
        tolerances=[Tolerance("seat 1", Proportion(float(t["wins"][0]), 300), None, 0.5)],
        figures={"wins": t["wins"], "turns": t["games.turns"][:5]},
    )


def test_same_seed_same_json_and_html(tmp_path: Path) -> None:
    for name, seed in (("a", 3), ("b", 3), ("c", 4)):
        write_json([_toy_report(seed)], tmp_path / f"{name}.json")
        write_html([_toy_report(seed)], tmp_path / f"{name}.html", title="toy")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()
    assert (tmp_path / "a.json").read_bytes() != (tmp_path / "c.json").read_bytes()
    wins = json.loads((tmp_path / "a.json").read_text())["reports"][0]["figures"]["wins"]
    assert sum(wins) == 300


def test_empty_histogram_and_all_nan_bars_still_render() -> None:
    r = BalanceReport(
        kit="k",
        game="g",
        games_per_setting=0,
        seed=0,
        charts=[Histogram("empty", {"2 players": (0, [0, 0])}), Bars("nan", ["a"], [math.nan])],
    )
    page = parse(to_html([r], title="t"))
    assert [len(c["bar"]) for c in page.charts] == [0, 0]
    assert "no tolerances checked" in "".join(page.text)


def test_report_file_gets_ordinary_permissions(tmp_path):
    import os
    import stat

    from generator.engine.report import BalanceReport
    from generator.render.html_report import write_html

    old = os.umask(0o022)
    try:
        out = tmp_path / "r.html"
        write_html([BalanceReport(kit="k", game="g", games_per_setting=1, seed=1)], out, title="t")
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644


def test_the_page_opens_with_a_plain_summary_naming_key_direction_and_amount() -> None:
    """Issue 26 item 5: what fails or is undecided, its spec key, which way to move and roughly how much."""
    from generator.engine.verdict import Mean

    rep = BalanceReport(
        kit="Broken",
        game="toy",
        games_per_setting=1000,
        seed=1,
        tables=[],
        charts=[],
        tolerances=[
            Tolerance("tie rate", Proportion(97, 1000), None, 0.10, "game.balance.tie_rate", games=1000),
            Tolerance("goal spread", Mean(2000, 3.4, 1.0), None, 3.0, "game.balance.goal_spread"),
            Tolerance("seat share", Proportion(500, 1000), 0.4, 0.6, "game.balance.seat"),
        ],
    )
    html = to_html([rep], title="t")
    summary = html[html.index('<section class="summary"') : html.index("</section>")]
    assert html.index('<section class="summary"') < html.index('<section class="kit"')
    assert (
        "goal spread is 3.40 (between 3.34 and 3.46 at 99% confidence), above its maximum 3.00: the game has "
        "to "
        "bring it down by about 0.40, or raise game.balance.goal_spread.max to 3.46 or more." in summary
    )
    assert (
        "tie rate is 9.7% (between 7.5% and 12.4% at 99% confidence), too close to its maximum 10.0% to "
        "tell: "
        "about 79,985 games per setting would decide it" in summary
    )
    assert "raise game.balance.tie_rate.max to 0.124 to hold" in summary
    assert "seat share" not in summary  # holding tolerances are not in the summary
    assert summary.index("goal spread") < summary.index("tie rate")  # failures first


def test_shares_show_as_percentages_rounded_to_the_interval() -> None:
    page = parse(to_html([sample()], title="t"))
    text = " ".join(page.text)
    assert "27%" in text and "0.27" not in text  # seat 1 win share 135/500
    assert "20% .. 35%" in text
    assert "row 3 completion is 5.0%" in text and "by about 5.0 percentage points" in text
    assert "game.balance.rows.min to 0.030 or less" in text


def test_long_cells_wrap_instead_of_widening_tables() -> None:
    html = to_html([sample(name="x" * 300)], title="t")
    assert "overflow-wrap: anywhere" in html and "max-width: 960px" in html
