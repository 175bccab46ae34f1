"""`pnpkit warmup` compiles on every core it can: a game's compile parts start before the static checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from generator import checking, pipeline
from generator.cli import app
from generator.engine import kernel

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not kernel.HAVE_NUMBA, reason="without numba nothing compiles")
def test_warmup_starts_the_compile_helpers_before_the_static_checks(monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(checking, "start_compiling", lambda kits: calls.append("start " + kits[0].meta.id))
    monkeypatch.setattr(pipeline, "check_kits", lambda kits, **kw: calls.append("static"))
    monkeypatch.setattr(checking, "warm_up", lambda kits, **kw: iter([(kits[0].meta.id, 0.0)]))
    r = CliRunner().invoke(app, ["warmup", str(ROOT / "layouts" / "ripple_rush")])
    assert r.exit_code == 0, r.output
    assert calls == ["start ripple_rush", "static"]
