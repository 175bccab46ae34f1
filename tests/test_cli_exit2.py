"""Bad options exit 2 before anything runs (issue 26 item 7: `pnpkit build --paper tabloid`, `--lang xx`,
`--games -1` and `check --workers 0`), with the allowed values named."""

from pathlib import Path

import pytest

from tests.clirun import pnpkit

ROOT = Path(__file__).resolve().parents[1]
RR = ROOT / "layouts" / "ripple_rush"


@pytest.mark.parametrize(
    "args,says",
    [
        (["build", str(RR), "--paper", "tabloid"], "'a4', 'letter', 'a3'"),
        (["build", str(RR), "--lang", "xx"], "ships en, ja, es, de, fr; got 'xx'"),
        (["build", str(RR), "--games", "-1"], "No such option: --games"),  # build plays no games
        (["check", str(RR), "--games", "-1"], "expected a number >= 1; got -1"),
        (["check", str(RR), "--workers", "0"], "got 0"),
        (["build", str(RR), "--workers", "0"], "expected a number >= 1; got 0"),
        (["build", str(RR), "--workers", "two"], "'--workers': expected a whole number; got 'two'"),
        (["check", str(RR), "--games=1e3"], "'--games': expected a whole number; got '1e3'"),
        (["check", str(RR), "--seed", "\x1b[2J" + "9" * 99], "got '\\x1b[2J" + "9" * 36 + "...'"),
        (["validate", str(RR), "--workers", "-3"], "expected a number >= 1; got -3"),
    ],
)
def test_bad_options_exit_2(args, says, tmp_path):
    r = pnpkit(*args, *(["--out", str(tmp_path)] if args[0] == "build" else []), env={"COLUMNS": "200"})
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert says in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and not list(tmp_path.iterdir())
