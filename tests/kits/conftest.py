"""Build each shipped kit once per test session into a temporary folder."""

from pathlib import Path

import pytest

from generator.build import build

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """built(kit_name, paper="a4") -> the output folder of that kit (built once per session and paper)."""
    cache: dict[tuple[str, str], Path] = {}

    def get(name: str, paper: str = "a4") -> Path:
        key = (name, paper)
        if key not in cache:
            out = tmp_path_factory.mktemp(f"{name}-{paper}")
            build([ROOT / "layouts" / name], out=out, paper=paper)
            cache[key] = out / name
        return cache[key]

    return get
