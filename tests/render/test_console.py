"""The terminal report: failed tolerances first, in red, with their sentence; every table; a quiet progress
bar."""

from __future__ import annotations

import io

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rich.console import Console

from generator.engine.report import BalanceReport, Table, Tolerance
from generator.engine.runner import run
from generator.engine.verdict import Proportion
from generator.render.console import print_report, progress_bar
from tests.engine.toy import DiceRace

PASSING = Tolerance(
    "seat 1 win share (3 players)", Proportion(680, 2000), 0.25, 0.40, "game.balance.first_seat", games=2000
)
FAILING = Tolerance(
    "row 3 completion rate [bold]4p[/bold]",
    Proportion(84, 2000),
    0.10,
    0.90,
    "game.balance.row_completion",
    games=2000,
)
UNDECIDED = Tolerance(
    "seat 2 win share (3 players)", Proportion(780, 2000), 0.25, 0.40, "game.balance.first_seat", games=2000
)


def report() -> BalanceReport:
    return BalanceReport(
        kit="ripple_rush",
        game="ripple_rush",
        games_per_setting=2000,
        seed=42,
        tables=[
            Table(
                "Scores by player count",
                ["players", "mean", "sd"],
                [[2, 48.125, 6.5], [3, float("nan"), 7.25]],
            )
        ],
        tolerances=[PASSING, FAILING],
        notes=["greedy policy"],
    )


def render(r: BalanceReport, *, colour: bool = False, width: int = 160) -> str:
    buf = io.StringIO()
    console = Console(
        file=buf,
        width=width,
        force_terminal=colour,
        color_system="standard" if colour else None,
        legacy_windows=False,
    )
    print_report(r, console)
    return buf.getvalue()


def test_failed_tolerance_sentence_is_printed() -> None:
    out = render(report(), width=60)  # narrow: the sentence is wrapped between words, nothing cut
    assert " ".join(FAILING.describe().split()) in " ".join(out.split())
    assert all(len(line) <= 60 for line in out.splitlines())
    assert (
        "row 3 completion rate [bold]4p[/bold]: FAILS after 2000 games per setting: measured 0.042 (99% "
        "Wilson "
        "score interval 0.03188..0.05515), allowed 0.1..0.9"
    ) in " ".join(out.split())
    assert PASSING.describe() not in out  # only failures get a sentence
    assert "1 of 2 tolerances failed" in out


def test_failed_rows_come_first() -> None:
    lines = render(report()).splitlines()
    fail_row = next(i for i, l in enumerate(lines) if "row 3 completion" in l and "FAILS" in l)
    pass_row = next(i for i, l in enumerate(lines) if "seat 1 win share" in l and "HOLDS" in l)
    assert fail_row < pass_row
    assert "0.03188..0.05515" in lines[fail_row] and "0.1..0.9" in lines[fail_row]
    assert "game.balance.row_completion" in lines[fail_row]


def test_failed_rows_are_red() -> None:
    out = render(report(), colour=True)
    red = "\x1b[1;31m"
    fail_line = next(l for l in out.splitlines() if "FAILS" in l)
    pass_line = next(l for l in out.splitlines() if "seat 1 win share" in l)
    assert red in fail_line
    assert red not in pass_line
    assert red + "✗ " + FAILING.describe()[:100] in out  # 160 columns: the sentence's first line


def test_tables_are_printed() -> None:
    out = render(report())
    assert "Scores by player count" in out
    assert "48.12" in out and "–" in out  # 4 significant digits; NaN as a dash
    assert "greedy policy" in out


def test_all_hold() -> None:
    r = report()
    r.tolerances.remove(FAILING)
    out = render(r)
    assert "its one tolerance holds" in out and "FAIL" not in out and "✗" not in out


def test_undecided_is_its_own_verdict() -> None:
    """39% against a 25-40% bound with 2000 games: the interval straddles 0.40, neither holds nor fails; the
    sentence says roughly how many games would decide it."""
    r = report()
    r.tolerances[:] = [PASSING, UNDECIDED]
    out = render(r)
    assert "1 of 2 tolerances undecided, none failed" in out
    assert "? " + UNDECIDED.describe() in " ".join(out.split()) and "games per setting would decide it" in out
    assert "UNDECIDED" in next(l for l in out.splitlines() if "seat 2 win share" in l and "│" in l)


def test_progress_bar_is_silent_off_terminal() -> None:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=False)
    with progress_bar(console, 300) as advance:
        run(DiceRace(players=2, target=10), 300, 0, chunk_size=100, progress=advance)
    assert buf.getvalue() == ""


def test_progress_bar_counts_games_on_a_terminal() -> None:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=100, color_system=None)
    with progress_bar(console, 300, description="toy") as advance:
        run(DiceRace(players=2, target=10), 300, 0, chunk_size=100, progress=advance)
    out = buf.getvalue()
    assert "toy" in out
    assert "300/300" in out


def test_the_quick_width_bound_never_turns_a_table_that_fits_into_a_list() -> None:
    """`_table_cannot_fit` (one row's cells, padding and rules) is a lower bound of the table's widest
    unwrapped form: where it says the table cannot fit, rich's own measurement agrees, at every width; and
    it does say so well before the measurement's width (else it would save nothing)."""
    from rich.measure import Measurement

    from generator.render.console import _table_cannot_fit, _tolerance_table

    r = report()
    r.tolerances = [PASSING, FAILING, UNDECIDED]
    console = Console(file=io.StringIO(), width=80)
    widest = Measurement.get(console, console.options.update_width(10**4), _tolerance_table(r)).maximum
    assert not _table_cannot_fit(r, widest)
    assert all(widest > w for w in range(20, widest) if _table_cannot_fit(r, w))
    assert _table_cannot_fit(r, widest - 10)


def _consoles(width: int) -> list[Console]:
    """A pipe, a colour terminal and a console that can only write ASCII (rich swaps the box lines)."""
    ascii_file = io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="replace")
    return [
        Console(file=io.StringIO(), width=width, legacy_windows=False),
        Console(
            file=io.StringIO(),
            width=width,
            force_terminal=True,
            color_system="truecolor",
            legacy_windows=False,
        ),
        Console(file=ascii_file, width=width, legacy_windows=False),
    ]


def _printed(console: Console, parts: list[object]) -> str:
    console.begin_capture()
    for part in parts:
        console.print(part)
    return console.end_capture()


CELL = st.one_of(
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(
        st.characters(categories=("L", "M", "N", "P", "S", "Zs"))  # printable: the quick path's cells
        | st.sampled_from("日本語のカード 한국어 ́é 🌧️ \u200b\u0301")
        | st.sampled_from("\t\n\x1b\x7f\u2028"),  # rarer: what rich must draw itself
        max_size=14,
    ),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(columns=["card", "名前"], rows=[[1, "カエル"], [22, "snail"]], width=80)
@given(
    columns=st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=6),
    rows=st.lists(st.lists(CELL, max_size=7), max_size=6),
    width=st.integers(20, 140),
)
def test_a_data_table_prints_exactly_as_a_rich_table(columns, rows, width) -> None:
    """A data table whose columns fit with plain one-line cells is drawn without rich measuring and rendering
    every cell (`_FixedTable`): on a pipe, a colour terminal and an ASCII-only console, at any width, with
    any cells (wide, combining, emoji, control characters, line breaks, ragged rows), what is printed is
    what the same rich table prints."""
    from rich.table import Table as RichTable
    from rich.text import Text

    from generator.render.console import _data_tables, _FixedTable

    t = Table("cards", columns, rows)
    for console in _consoles(width):
        fast = _data_tables(t, width)
        reference: list[object] = []
        for part in _data_tables(t, width):
            if isinstance(part, _FixedTable):  # the same head, its rows added as cells: rich draws it all
                for row in part.rows:
                    part.head.add_row(*map(Text, row))
                part = part.head
            assert isinstance(part, RichTable)
            reference.append(part)
        assert _printed(console, fast) == _printed(console, reference)


def test_the_card_tables_take_the_quick_path() -> None:
    """The quick path is the one taken for a report's usual table (numbers and names that fit)."""
    from generator.render.console import _data_tables, _FixedTable

    t = Table("cards", ["card", "symbol", "points"], [[1, "snail", 2], [2, "カエル", 6]])
    assert all(isinstance(p, _FixedTable) for p in _data_tables(t, 80))
    assert not any(isinstance(p, _FixedTable) for p in _data_tables(Table("x", ["a"], [["two\nlines"]]), 80))


def test_a_report_of_counted_verdicts_says_so_instead_of_games_and_confidence():
    """A deck kit's draw checks are counted over every hand: the header must not claim games, a seed or a
    confidence for them. One sampled tolerance brings the games back."""
    from fractions import Fraction

    from generator.engine.verdict import Exact

    counted = Tolerance(
        "a 5-card hand holds a crop", Exact(0.9, fraction=Fraction(9, 10)), 0.8, None, "game.balance.draws[0]"
    )
    exact = BalanceReport(kit="harvest", game="deck", games_per_setting=4000, seed=7, tolerances=[counted])
    head = render(exact).splitlines()[1]
    assert head.strip() == "game deck · every verdict exact: counted over every case, no games played"
    mixed = BalanceReport(
        kit="harvest", game="deck", games_per_setting=4000, seed=7, tolerances=[counted, PASSING]
    )
    head = render(mixed).splitlines()[1]
    assert "4000 games per setting" in head and "seed 7" in head and "99% together" in head
    assert not BalanceReport(kit="k", game="deck", games_per_setting=1, seed=1).all_exact


def test_a_bound_with_one_end_is_said_in_words() -> None:
    """`{min: 0.1}` reads "allowed at least 0.1" (it read "0.1..inf"), `{max: 0.9}` "allowed at most 0.9"."""
    low = Tolerance("share", Proportion(84, 2000), 0.10, None, "game.balance.x", games=2000)
    high = Tolerance("share", Proportion(1900, 2000), None, 0.90, "game.balance.x", games=2000)
    assert "allowed at least 0.1 [game.balance.x]" in low.describe() and "inf" not in low.describe()
    assert "allowed at most 0.9 [game.balance.x]" in high.describe() and "inf" not in high.describe()
    assert "allowed 0.1..0.9 [" in FAILING.describe()
