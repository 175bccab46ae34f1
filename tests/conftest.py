"""Shared test switches: `--update-goldens` rewrites golden files instead of comparing with them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The third-party example games in tests/plugins/<name>/ (a package + its *.dist-info) are registered in the test
# process the way an installed package is: their folder on sys.path, where importlib.metadata finds the entry
# point "pnpkit.games". So the protocol conformance (tests/games/test_protocol.py) plays them too. Subprocesses
# started by tests get only the PYTHONPATH they set.
for _dist in sorted((ROOT / "tests" / "plugins").glob("*/*.dist-info")):
    if str(_dist.parent) not in sys.path:
        sys.path.append(str(_dist.parent))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="rewrite golden files with the current output (read the diff before committing)")


class Golden:
    """Compare text with a golden file beside the test, or rewrite it with --update-goldens."""

    def __init__(self, update: bool):
        self.update = update

    def check(self, path: Path, text: str) -> None:
        """Assert `text` equals the file at `path` (normalised line endings)."""
        if self.update or not path.exists():
            if not self.update:
                pytest.fail(f"golden file {path} is missing; run pytest --update-goldens and read the diff")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        expected = path.read_text(encoding="utf-8").replace("\r\n", "\n")
        assert text.replace("\r\n", "\n") == expected, f"output differs from golden {path}; rerun with --update-goldens if intended"


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Golden:
    """The golden-file helper."""
    return Golden(bool(request.config.getoption("--update-goldens")))


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """built(kit_name, paper="a4") -> the output folder of that kit (built once per session and paper)."""
    from generator.build import build

    cache: dict[tuple[str, str], Path] = {}

    def get(name: str, paper: str = "a4") -> Path:
        key = (name, paper)
        if key not in cache:
            out = tmp_path_factory.mktemp(f"{name}-{paper}")
            build([ROOT / "layouts" / name], out=out, paper=paper)
            cache[key] = out / name
        return cache[key]

    return get
