"""The third-party game contract, proved with the worked example of docs/game-contract.md: Pig, a package in
tests/plugins/pig/ registered by an entry point ("pnpkit.games") from its own dist-info folder. pnpkit is not
edited to add it: with its folder on PYTHONPATH the CLI validates, builds and checks its kit; without it the
kit's kind is refused like any unknown game; a broken entry point is a clear error, never a traceback."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pypdf import PdfReader

from generator.contract import BUILTIN, registry
from generator.contract.load import load_kit
from generator.engine.executors import SerialExecutor
from generator.pipeline import check_kit
from generator.render.html_report import to_json_text
from tests.clirun import pnpkit as in_process

ROOT = Path(__file__).resolve().parents[2]
PIG = ROOT / "tests" / "plugins" / "pig"
KIT = PIG / "kit"
GOLDEN = Path(__file__).parent / "golden"


def pnpkit(*args: str, path: list[Path] = (), cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`python -m generator ARGS` in a fresh interpreter whose PYTHONPATH is pnpkit plus `path`."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(p) for p in [ROOT, *path]))
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def line_of(path: Path, text: str) -> int:
    """The 1-based line of `path` holding `text`."""
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


# ------------------------------------------------------------------ with the plugin installed


def test_cli_validates_builds_and_checks_the_example_kit(tmp_path):
    """In this process, where the example is registered as an installed package is (tests/conftest.py puts
    its folder on sys.path, where its entry point is found): a fresh interpreter for each command only started
    pnpkit again, about 0.7 CPU-s each."""
    v = in_process("validate", str(KIT))
    assert v.returncode == 0, v.stderr
    assert "ok (pig, 2 components, en, ja, es)" in v.stdout

    out = tmp_path / "out"
    b = in_process("build", str(KIT), "--out", str(out), "--lang", "en,ja")
    assert b.returncode == 0, b.stderr
    sheet = PdfReader(out / "pig" / "en" / "score_sheet-a4.pdf")
    text = sheet.pages[0].extract_text()
    assert (
        "Pig" in text and "Player 3" in text and "reach 50 points" in text
    )  # target and seats from kit.yaml
    assert "20" in text.split()  # the 20th turn line (game.sheet_rows)
    rules = PdfReader(out / "pig" / "ja" / "rules-a4.pdf").pages[0].extract_text()
    assert "ピッグ" in rules and "50点" in rules and "6面ダイス" in rules
    assert (
        len(PdfReader(out / "pig" / "en" / "kit-a4.pdf").pages) == 3
    )  # the print checklist, then its 2 pages (duplex none)

    report = tmp_path / "pig.json"
    c = in_process("check", str(KIT), "--workers", "1", "--json", str(report))
    assert c.returncode == 0, c.stderr
    got = json.loads(report.read_text(encoding="utf-8"))["reports"][0]
    assert got["game"] == "pig" and got["verdict"] == "HOLDS"
    keys = sorted({t["spec_key"] for t in got["tolerances"]})
    assert keys == ["game.balance.game_rounds", "game.balance.seat_win_share_gap"]
    assert len(got["tolerances"]) == 4  # two tolerances x two player counts


def test_schema_includes_the_example_game():
    s = in_process("schema", "--game", "pig")
    assert s.returncode == 0, s.stderr
    game = json.loads(s.stdout)["properties"]["game"]
    model = json.loads(s.stdout)["$defs"][game["$ref"].rsplit("/", 1)[1]]
    assert model["properties"]["kind"]["const"] == "pig" and "target" in model["required"]


def test_check_fails_a_tolerance_the_example_game_breaks(tmp_path):
    """The example's tolerances are real: a 3-point race is decided by who rolls first (every game ends in
    round 1 or 2), so game_rounds >= 3 FAILS and check exits 1."""
    kit = tmp_path / "kit"
    shutil.copytree(KIT, kit)
    y = kit / "kit.yaml"
    y.write_text(y.read_text(encoding="utf-8").replace("target: 50 ", "target: 3 "), encoding="utf-8")
    c = in_process("check", str(kit), "--workers", "1")
    assert c.returncode == 1, c.stdout + c.stderr
    assert "balance tolerances failed" in c.stderr and "Traceback" not in c.stderr


# ------------------------------------------------------------------ without it, or broken


def test_without_the_plugin_the_kind_is_an_unknown_game():
    r = pnpkit("validate", str(KIT))
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    line = line_of(KIT / "kit.yaml", "kind: pig")
    assert (
        f"tests/plugins/pig/kit/kit.yaml:{line}: game.kind: expected one of {', '.join(BUILTIN)}; got 'pig'"
    ) in r.stderr


def _plugin_folder(root: Path, name: str, entry: str, module: str) -> Path:
    """A folder with a one-module package `name` (source `module`) and a dist-info registering `entry`."""
    folder = root / name
    (folder / f"{name}-0.1.dist-info").mkdir(parents=True)
    (folder / f"{name}-0.1.dist-info" / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n"
    )
    (folder / f"{name}-0.1.dist-info" / "entry_points.txt").write_text(f"[pnpkit.games]\n{entry}\n")
    (folder / f"{name}.py").write_text(module)
    return folder


PLUGIN = (
    "from generator.contract import GamePlugin\n"
    "GAME = GamePlugin(id={id!r}, ruleset='1', spec='broken_game:Spec', package='broken_game')\n"
)


@pytest.mark.parametrize(
    "entry, module, message",
    [
        (
            "boom = broken_game:GAME",
            "raise RuntimeError('boom at import')\n",
            "entry point 'boom' (broken_game:GAME) in group 'pnpkit.games': cannot be loaded (RuntimeError: "
            "boom at import)",
        ),
        (
            "notaplugin = broken_game:GAME",
            "GAME = {'id': 'dict'}\n",
            (
                "entry point 'notaplugin' (broken_game:GAME) in group 'pnpkit.games': expected a "
                "generator.contract.GamePlugin; got dict"
            ),
        ),
        (
            "missing = broken_game:NOPE",
            "GAME = None\n",
            "entry point 'missing' (broken_game:NOPE) in group 'pnpkit.games': cannot be loaded "
            "(AttributeError: ",
        ),
        (
            "twin = broken_game:GAME",
            PLUGIN.format(id="peak_dice"),
            "entry point 'twin' (broken_game:GAME) in group 'pnpkit.games': game id 'peak_dice' is already "
            "registered",
        ),
        (
            "badid = broken_game:GAME",
            PLUGIN.format(id="Bad-Id"),
            "entry point 'badid' (broken_game:GAME) in group 'pnpkit.games': id 'Bad-Id' is not folder-safe",
        ),
    ],
    ids=["raises", "not-a-plugin", "no-such-name", "duplicate-id", "bad-id"],
)
def test_a_broken_entry_point_is_a_clear_error(tmp_path, entry, module, message):
    folder = _plugin_folder(tmp_path, "broken_game", entry, module)
    r = pnpkit("validate", str(ROOT / "layouts" / "peak_dice"), path=[folder])
    assert r.returncode == 1, r.stdout
    assert "Traceback" not in r.stderr
    assert r.stderr.startswith("error: " + message), r.stderr


def test_two_plugins_with_one_id_are_refused(tmp_path):
    """The same game installed twice (two distributions): the second is named, not silently dropped."""
    a = _plugin_folder(tmp_path / "a", "pig_a", "pig_a = pnpkit_pig:GAME", "")
    r = pnpkit("validate", str(KIT), path=[PIG, a])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert (
        "entry point 'pig_a' (pnpkit_pig:GAME) in group 'pnpkit.games': game id 'pig' is already registered"
        in r.stderr
    )


# ------------------------------------------------------------------ nothing outside its folder


def test_adding_the_example_game_touches_nothing_outside_its_folder(tmp_path):
    """No file of pnpkit names the example game, and a copy of its folder alone, outside this repository, is a
    working game: pnpkit finds it through the entry point only."""
    names = re.compile(r"\b(pig|pnpkit_pig)\b")
    pnpkit_files = [
        *(ROOT / "generator").rglob("*.py"),
        *(ROOT / "generator").rglob("*.po"),
        *(ROOT / "layouts").rglob("*"),
        ROOT / "pyproject.toml",
    ]
    assert [
        str(p.relative_to(ROOT))
        for p in pnpkit_files
        if p.is_file() and names.search(p.read_text(encoding="utf-8", errors="replace"))
    ] == []
    copy = tmp_path / "elsewhere" / "pig"
    shutil.copytree(PIG, copy, ignore=shutil.ignore_patterns("__pycache__"))
    r = pnpkit("validate", str(copy / "kit"), path=[copy], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "ok (pig" in r.stdout


def test_the_example_game_imports_only_pnpkit_and_itself():
    """Its modules import pnpkit's public rooms (generator.*), its own package and libraries pnpkit already
    needs: never the test suite, never a file outside its folder."""
    allowed_top = {"generator", "pnpkit_pig", "numpy", "pydantic", *sys.stdlib_module_names}
    seen = set()
    for path in sorted((PIG / "pnpkit_pig").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                seen.add(node.module.split(".")[0])
            elif isinstance(node, ast.Import):
                seen.update(a.name.split(".")[0] for a in node.names)
    assert "generator" in seen and "pnpkit_pig" in seen  # the walker sees imports
    assert seen <= allowed_top, sorted(seen - allowed_top)  # e.g. "tests" would be a hidden dependency


# ------------------------------------------------------------------ in this process (tests/conftest.py)


def test_the_example_game_is_registered_in_the_test_process():
    import pnpkit_pig

    assert registry.get("pig") is pnpkit_pig.GAME
    assert registry.game_ids()[: len(BUILTIN)] == list(BUILTIN)  # built-ins first, then entry points
    assert registry.get("pig").problems() == []


def test_the_example_kit_passes_the_static_checks_and_its_checks_can_fail():
    kit = load_kit(KIT)
    assert check_kit(kit) == []
    bad = kit.game.model_copy(
        update={"bust_face": 7, "players": kit.game.players.model_copy(update={"min": 1})}
    )
    assert registry.get("pig").load.legal_problems()(bad) == [
        ("bust_face", "expected a face of the 6-sided die (1..6); got 7"),
        ("players.min", "a race needs at least 2 players; got 1"),
    ]


def test_the_example_rules_refuse_an_illegal_action_and_a_player_count():
    from generator.errors import RuleViolation

    plugin, spec = registry.get("pig"), load_kit(KIT).game
    assert list(plugin.load.players()(spec)) == [2, 3]
    with pytest.raises(RuleViolation):
        plugin.load.new_game()(spec, 4)  # the kit says 2..3
    game = plugin.load.new_game()(spec, 2)
    state = game.new_state(np.random.default_rng(1))
    assert list(game.legal_actions(state)) == ["roll"]  # nothing to hold before the first roll
    with pytest.raises(RuleViolation):
        game.apply(state, "hold")


def test_the_example_balance_is_seeded():
    balance_report, kit = registry.get("pig").load.balance_report(), load_kit(KIT)
    a = balance_report(kit.game, games=60, seed=5, executor=SerialExecutor(), kit="pig")
    b = balance_report(kit.game, games=60, seed=5, executor=SerialExecutor(), kit="pig")
    c = balance_report(kit.game, games=60, seed=6, executor=SerialExecutor(), kit="pig")
    assert to_json_text([a]) == to_json_text([b]) != to_json_text([c])


def test_the_example_playthrough_matches_its_golden(golden):
    text = registry.get("pig").load.transcript()(load_kit(KIT).game, 7, 2)
    golden.check(GOLDEN / "pig_playthrough_2p.txt", text)


def test_the_docs_quote_the_example_as_it_is():
    """docs/game-contract.md quotes the example's files whole (each after a `<!-- quote: PATH -->` line): the
    quotes must be the files, or the how-to teaches code that no longer runs."""
    doc = (ROOT / "docs" / "game-contract.md").read_text(encoding="utf-8")
    quotes = re.findall(r"<!-- quote: (\S+) -->\n```\w*\n(.*?)```\n", doc, flags=re.DOTALL)
    assert sorted(path for path, _ in quotes) == sorted(
        [
            "tests/plugins/pig/pnpkit_pig/__init__.py",
            "tests/plugins/pig/pnpkit_pig/rules.py",
            "tests/plugins/pig/pnpkit_pig-0.1.dist-info/entry_points.txt",
            "tests/plugins/pig/kit/kit.yaml",
        ]
    )
    for path, text in quotes:
        assert text == (ROOT / path).read_text(encoding="utf-8"), (
            f"docs/game-contract.md quotes an old {path}"
        )
    line = line_of(KIT / "kit.yaml", "kind: pig")
    assert f"tests/plugins/pig/kit/kit.yaml:{line}: game.kind: expected one of" in doc
