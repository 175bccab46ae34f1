"""One resolved run: every command starts from a `Run` made once in the load phase, the seed fallback is
written in one place, and the command layer reads as a list of phases (small functions, small modules)."""

from __future__ import annotations

import ast
import re
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

import generator
from generator.errors import KitError, OptionError
from generator.interrupts import Terminated

PKG = Path(generator.__file__).resolve().parent
ROOT = PKG.parent
HARVEST = ROOT / "layouts" / "harvest_deck"

COMMAND_LAYER = ["cli", "pipeline", "tune", "export.py", "checking.py", "serve.py"]
"""The files of the command layer: the CLI, the pipeline's phases and the commands' own modules."""
MAX_FUNCTION_LINES = 80
MAX_MODULE_LINES = 800


def _files(names: list[str]) -> list[Path]:
    out: list[Path] = []
    for name in names:
        path = PKG / name
        if path.is_dir():
            out += sorted(path.rglob("*.py"))
        elif path.with_suffix(".py").is_file():  # a module (cli.py before it was a package)
            out.append(path.with_suffix(".py"))
    return out


def test_a_run_resolves_the_seed_paper_and_languages_of_each_kit():
    from generator.pipeline import Run, load_run

    run = load_run(Run.of([HARVEST], langs=["en"], print_overrides={"greyscale": True}))
    (kit,) = run.kits
    assert kit.print.greyscale is True  # the print overrides are applied as the kits load
    assert run.seed_for(kit) == kit.meta.seed != 7
    assert Run.of([HARVEST], seed=7).seed_for(kit) == 7
    assert Run.of([HARVEST], seed=0).seed_for(kit) == 0  # 0 is a seed, not "no seed"
    assert run.paper_for(kit) == kit.print.paper
    assert Run.of([HARVEST], paper="letter").paper_for(kit) == "letter"
    assert run.langs_for(kit) == ["en"]
    assert Run.of([HARVEST]).langs_for(kit) == list(kit.meta.languages)
    with pytest.raises(OptionError, match="--lang: .* ships .*; got 'xx'"):
        Run.of([HARVEST], langs=["xx"]).langs_for(kit)
    with pytest.raises(FrozenInstanceError):
        run.seed = 3  # type: ignore[misc]


def test_a_run_keys_a_build_on_the_options_that_make_its_output():
    from generator.pipeline import Run

    run = Run.of([HARVEST], langs=["en"], seed=5, print_overrides={"mode": "shop", "duplex": "long"})
    assert run.options() == {
        "langs": ["en"],
        "paper": None,
        "seed": 5,
        "png": False,
        "pdfa": False,
        "print": {"duplex": "long", "mode": "shop"},
    }
    assert Run.of([HARVEST], force=True, workers=3).options() == Run.of([HARVEST]).options()


def test_the_seed_fallback_is_written_once():
    """`kit.meta.seed if seed is None else seed` lives in the load phase only; every command asks it."""
    fallback = re.compile(r"meta\.seed if \w+ is None|is None else \w*\.?meta\.seed|seed if seed is None")
    found = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in sorted(PKG.rglob("*.py"))
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if fallback.search(line)
    ]
    assert [f.split(":")[0] for f in found] == ["generator/pipeline/load.py"], found


def test_tune_plans_the_kit_and_seed_of_the_run_the_load_phase_made():
    """`pnpkit tune` starts from a `Run` like every command: the plan holds the run's own loaded kit (not a
    second load of its folder) and the run's seed, the kit's kit.seed when none is given."""
    from generator.pipeline import Run, load_run
    from generator.tune.plan import TuneUsageError, make_plan

    peak = ROOT / "layouts" / "peak_dice"
    run = load_run(Run.of([peak], seed=7))
    plan = make_plan(run, params=["game.miss_boxes=8..20"])
    assert plan.kit is run.kits[0] and plan.seed == 7
    default = load_run(Run.of([peak]))
    assert make_plan(default, params=["game.miss_boxes=8..20"]).seed == default.kits[0].meta.seed
    with pytest.raises(TuneUsageError, match="one kit; got 2"):
        make_plan(load_run(Run.of([peak, peak])))


def test_no_function_of_the_command_layer_is_longer_than_80_lines():
    long = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for path in _files(COMMAND_LAYER)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and (node.end_lineno or 0) - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert long == []


def test_no_module_of_the_command_layer_is_longer_than_800_lines():
    files = _files(COMMAND_LAYER)
    assert len(files) > 15  # the walker sees the package
    long = [
        f"{p.relative_to(ROOT)} ({n} lines)"
        for p in files
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    ]
    assert long == []


def test_commands_have_no_go_closures_and_the_pipeline_no_os_for_tests():
    cli = _files(["cli"])
    assert all(p.suffix == ".py" for p in cli) and cli, "the CLI is a package"
    closures = [
        f"{p.relative_to(ROOT)}:{node.lineno}"
        for p in cli
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name == "go"
    ]
    assert closures == []
    init = ast.parse((PKG / "pipeline" / "__init__.py").read_text(encoding="utf-8"))
    assert not any(isinstance(n, ast.Import) and any(a.name == "os" for a in n.names) for n in init.body)


@pytest.mark.parametrize(
    "raised, text, code",
    [
        (
            KitError("kit.yaml:3: game.kind: got 'x'\x1b[31m"),
            "error: kit.yaml:3: game.kind: got 'x'\\x1b[31m",
            1,
        ),
        (OptionError("--lang: kit ships en; got 'xx'"), "error: --lang: kit ships en; got 'xx'", 2),
        (KeyboardInterrupt(), "interrupted", 130),
        (Terminated(), "terminated", 143),
    ],
)
def test_an_error_shows_itself_in_one_style_with_its_exit_code(raised, text, code, capsys):
    import typer

    from generator.cli import Failure, run_command

    failure = Failure.of(raised)
    assert (failure.text, failure.code) == (text, code)

    def body() -> None:
        raise raised

    with pytest.raises(typer.Exit) as ended:
        run_command(body)
    assert ended.value.exit_code == code
    assert capsys.readouterr().err == text + "\n"


def test_a_command_is_its_body_run_by_the_one_runner():
    """Every command of the app is registered through `command`: its body runs inside `run_command`."""
    from generator.cli import app

    bodies = [c.callback for c in app.registered_commands]
    assert len(bodies) >= 11
    assert all(getattr(b, "__wrapped__", None) is not None for b in bodies), [b.__name__ for b in bodies]
