"""The Raindrops package has the shape every game has (issue 13): light legality, the plugin's fields."""

from __future__ import annotations

import subprocess
import sys

from generator.contract import registry


def test_legal_module_loads_no_numba_and_no_kernel():
    code = (
        "import sys, generator.games.raindrops.legal\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] == 'numba' or m.endswith('kernel')]\n"
        "print(heavy)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"


def test_plugin_loads_the_shared_module_names():
    g = registry.get("raindrops")
    loaded = (
        g.load.legal_problems(),
        g.load.balance_report(),
        g.load.transcript(),
        g.load.new_game(),
        g.load.print_data(),
        g.load.refit(),
    )
    assert [f"{f.__module__}:{f.__name__}" for f in loaded] == [
        "generator.games.raindrops.legal:legal_problems",
        "generator.games.raindrops.balance:balance_report",
        "generator.games.raindrops.transcript:transcript",
        "generator.games.raindrops.rules:new_game",
        "generator.games.raindrops.figures:print_data",
        "generator.games.raindrops.refit:refit_edit",
    ]
