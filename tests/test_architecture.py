"""Imports flow downhill between the rooms; only the hallway imports render; only render imports the
drawing libraries."""

import ast
import functools
import re
from collections.abc import Callable
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "generator"

# room -> rooms it may import (besides itself and the ground floor: errors, units, resources, interrupts,
# process)
ALLOWED = {
    "spec": set(),
    # and, for a game's layout.py only, layout (see LAYOUT_MODULE); i18n for its template sandbox only: the
    # deck kind evaluates the `where:` conditions of its rules and draw checks in the catalog sandbox
    "games": {"spec", "engine", "i18n", "contract"},
    # the game contract: the registry, the plugin record and its loader, the load phase's door to the games,
    # the composer lookup, the schema and the shipped api_test; it names the types of the rooms below it
    "contract": {"spec", "engine", "layout", "i18n"},
    "engine": {"spec"},
    "i18n": {"spec"},
    "layout": {"spec", "i18n"},
    "exportplan": {
        "layout",
        "spec",
        "i18n",
    },  # export plans as data (TTS sheets, card files); `export.py` runs them
    "render": {"layout", "engine", "spec", "exportplan"},
    "buildkeys": {"spec"},  # content keys of incremental builds: reads specs and catalogs, draws nothing
    # `pnpkit new`: copies and renames files, reading the source's kit.yaml through the spec's door (inside
    # its folder, capped, safe YAML); validation is the hallway's
    "newkit": {"spec"},
}
GROUND = {"errors", "units", "resources", "interrupts", "process", "__init__"}
LAYOUT_MODULE = (
    "layout"  # inside games/<game>/, only layout.py (and its layout_*.py helpers) may import layout
)
HALLWAY = {
    "cli",
    "__main__",
    "pipeline",
    "checking",
    "export",
    "serve",
    "tune",
}  # serve: the preview server calls the build;
# tune: `pnpkit tune` loads kits, runs checks and writes a kit folder and a report
# pipeline is the package generator/pipeline/ (its phase modules, in PHASES below, all belong to the hallway)
DRAWING_LIBS = {"reportlab", "PIL", "pypdfium2", "svglib"}
DECODING_DOOR = "spec/assets.py"  # the one door that decodes art files (Pillow, svglib) at the edge


def _type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def imports_of(path: Path, *, top_level_only: bool = False) -> set[str]:
    """Every module `path` imports, type-only imports included (`top_level_only`: only what importing the
    module itself runs, not function bodies nor `if TYPE_CHECKING:` blocks)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if top_level_only and (
            _type_checking_block(node) or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        ):
            skip |= {id(n) for n in ast.walk(node) if n is not node}
    out = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
    return out


def room_of(path: Path) -> str:
    rel = path.relative_to(PKG)
    return rel.parts[0].removesuffix(".py")


def test_rooms_import_downhill_only():
    bad = []
    for path in PKG.rglob("*.py"):
        room = room_of(path)
        if room in HALLWAY or room in GROUND:
            continue
        for mod in imports_of(path):
            top = mod.split(".")[0]
            door = path.relative_to(PKG).as_posix() == DECODING_DOOR and top in ("PIL", "svglib")
            if top in DRAWING_LIBS and room != "render" and not door:
                bad.append(f"{path.relative_to(PKG)} imports {mod} (drawing libraries belong to render/)")
            if top != "generator":
                continue
            parts = mod.split(".")
            target = parts[1] if len(parts) > 1 else "__init__"
            if target in GROUND or target == room:
                continue
            if room == "games" and target == "layout" and path.stem.startswith(LAYOUT_MODULE):
                continue
            if target in HALLWAY:
                bad.append(f"{path.relative_to(PKG)} imports the hallway ({mod})")
            elif target not in ALLOWED.get(room, set()):
                bad.append(f"{path.relative_to(PKG)} ({room}) imports {mod}")
    assert bad == []


PHASES = [
    "workers",
    "parsecache",
    "load",
    "check",
    "printsheets",
    "compose",
    "extract",
    "staging",
    "render",
    "__init__",
]
"""The build package's modules in phase order: each imports, at run time, only modules before it (the
pipeline in __init__ imports them all; the folder workers, used by compose and render, import none).
Type-only imports (`if TYPE_CHECKING:`) may look ahead."""


def build_phase_imports(path: Path) -> set[str]:
    """The generator.pipeline.* modules `path` imports at run time (not under `if TYPE_CHECKING:`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for node in ast.walk(tree) if _type_checking_block(node) for n in ast.walk(node)}
    return {
        node.module.removeprefix("generator.pipeline.")
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and id(node) not in typing_only
        and node.module
        and node.module.startswith("generator.pipeline.")
    }


def test_the_build_phases_import_earlier_phases_only():
    modules = {p.stem for p in (PKG / "pipeline").glob("*.py")}
    assert modules == set(PHASES), "a new module of generator/pipeline/ needs its place in PHASES"
    bad = [
        f"pipeline/{name}.py imports generator.pipeline.{mod}"
        for i, name in enumerate(PHASES)
        for mod in build_phase_imports(PKG / "pipeline" / f"{name}.py")
        if mod not in PHASES[:i]
    ]
    assert bad == []
    assert build_phase_imports(PKG / "pipeline" / "compose.py") >= {"load", "check"}  # the walker sees them
    assert "compose" not in build_phase_imports(PKG / "pipeline" / "staging.py")  # Planned: for mypy only


def test_the_check_can_fail():
    """The walker really sees imports (guards against a test that passes on nothing)."""
    assert "generator.layout.ops" in imports_of(PKG / "layout" / "text.py")
    assert any(m.startswith("reportlab") for m in imports_of(PKG / "render" / "pdf.py"))


def test_the_registry_and_the_game_packages_import_nothing_heavy():
    """Looking a game up imports its package's __init__ and the contract's registry and plugin record: they
    import, when loaded, nothing of pnpkit but each other (a record's strings name a game's modules, imported
    when resolved; types are for mypy only)."""
    allowed = {
        "generator.errors",
        "generator.contract",
        "generator.contract.plugin",
        "generator.contract.registry",
        "__future__",
    }
    stdlib = {
        "importlib",
        "re",
        "dataclasses",
        "functools",
        "types",
        "typing",
        "importlib.metadata",
        "collections.abc",
        "pathlib",
    }
    light = [PKG / "contract" / name for name in ("__init__.py", "plugin.py", "registry.py")]
    for path in [*light, *sorted(PKG.glob("games/*/__init__.py"))]:
        extra = {m for m in imports_of(path, top_level_only=True) if m not in allowed and m not in stdlib}
        assert extra == set(), f"{path.relative_to(PKG)} imports {sorted(extra)}"


def test_looking_every_game_up_loads_no_game_module():
    """The same, measured: listing the registered games loads each game's package and nothing below it."""
    import subprocess
    import sys

    code = (
        "import sys\nfrom generator.contract.registry import games\ngames()\n"
        "print(sorted(m for m in sys.modules if m.startswith('generator.') and m.count('.') > 2"
        " or m.split('.')[0] in ('numba', 'pydantic', 'numpy')))"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        cwd=PKG.parent,
        capture_output=True,
        text=True,
        check=True,
        env={**__import__("os").environ, "PYTHONPATH": str(PKG.parent)},
    )
    assert r.stdout.strip() == "[]", r.stdout


def test_the_import_walker_separates_run_time_from_type_only_imports():
    """The plugin record names the Composer protocol for mypy only; importing it imports no layout."""
    plugin = PKG / "contract" / "plugin.py"
    assert "generator.layout.compose" in imports_of(plugin)
    assert "generator.layout.compose" not in imports_of(plugin, top_level_only=True)
    assert "generator.contract.load" in imports_of(PKG / "contract" / "api_test.py")
    assert "generator.contract.load" not in imports_of(PKG / "contract" / "api_test.py", top_level_only=True)


def room_graph() -> dict[str, set[str]]:
    """Room -> the other rooms of generator/ its modules import (type-only imports included)."""
    graph: dict[str, set[str]] = {}
    for path in PKG.rglob("*.py"):
        room = room_of(path)
        for mod in imports_of(path):
            parts = mod.split(".")
            if parts[0] == "generator" and len(parts) > 1 and parts[1] != room:
                graph.setdefault(room, set()).add(parts[1])
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle among the rooms of `graph` (each found once, from its first room in sorted
    order)."""
    found: list[list[str]] = []

    def walk(path: list[str]) -> None:
        for nxt in sorted(graph.get(path[-1], ())):
            if nxt == path[0]:
                found.append(path)
            elif nxt not in path and nxt > path[0]:
                walk([*path, nxt])

    for start in sorted(graph):
        walk([start])
    return found


def test_no_import_circle_crosses_rooms():
    """The rooms import each other downhill only: no circle, type-only imports counted (the one there was,
    spec -> the registry -> layout -> spec, went when spec stopped looking games up)."""
    assert circles({"spec": {"games"}, "games": {"layout"}, "layout": {"spec"}}) == [
        ["games", "layout", "spec"]
    ]
    assert circles(room_graph()) == []


PROBE = re.compile(r"\b(?:hasattr|getattr)\(\s*([^,]*)")
PLUGINISH = re.compile(r"plugin|composer|drawer|registry|import_module|generator\.games|\bGAME\b")


def probes(text: str) -> list[str]:
    """The `hasattr`/`getattr` calls in `text` whose object is a plugin, a composer or a game module."""
    return [m.group(0) for m in PROBE.finditer(text) if PLUGINISH.search(m.group(1))]


def test_no_hook_is_probed_outside_the_contract():
    """Every optional hook is a declared field of the plugin record: nothing outside generator/contract/ asks
    a plugin, a composer or a game module whether it has an attribute."""
    assert probes(
        'known = drawer.component_ids_for(kit.game) if hasattr(drawer, "component_ids_for") else ()'
    )
    assert probes('declared = getattr(registry.get(kind).composer(), "SLOTS", {})')
    assert not probes('n = getattr(kit.game.balance, "games", None)')
    bad = [
        f"{p.relative_to(PKG)}: {hit}"
        for p in sorted(PKG.rglob("*.py"))
        if room_of(p) != "contract"
        for hit in probes(p.read_text(encoding="utf-8"))
    ]
    assert bad == []


def test_no_game_is_named_outside_its_folder():
    """Every game is reached through the registry: no module outside games/<game>/ names a game id."""
    from generator.contract.registry import BUILTIN

    bad = []
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG)
        if (rel.parts[0] == "games" and len(rel.parts) > 2) or rel.as_posix() == "contract/registry.py":
            continue  # a game's own folder, and the registry's list of built-ins
        text = path.read_text(encoding="utf-8")
        # an id that is an everyday word ("deck") counts when written as a string literal, the others anywhere
        bad += [
            f"{rel}: {gid}"
            for gid in BUILTIN
            if (gid in text if "_" in gid else re.search(rf"[\"']{gid}[\"']", text))
        ]
    assert bad == []


MAX_MODULE_LINES = 800  # a module does one job: past 800 lines it holds several
MAX_FUNCTION_LINES = 80  # a function reads on a screen or two; longer ones are cut into named steps
# a compiled kernel may restate a rule whole (a call costs inside numba), but not in 500 lines
MAX_KERNEL_LINES = 200
JIT_WRAPPERS = {"jit", "jit_inline", "jit_merged", "jit_noref", "jit_noref_entry"}
"""The engine's compile wrappers (generator/engine/kernel.py): a function decorated with one is a kernel."""
KERNEL_MODULE = "generator.engine.kernel"


def jit_names(
    tree: ast.Module, *, module: str = "", imported: Callable[[str], set[str]] | None = None
) -> tuple[set[str], set[str]]:
    """The names a module binds to the engine's jit wrappers -- imported from the kernel module (under an
    alias too), assigned from one at the top level (`inline = jit_inline`), or imported from another module
    of the package that binds them (`imported(module)`: that module's wrapper names) -- and the names it
    binds to the kernel module itself (`import generator.engine.kernel as k`, for `@k.jit`)."""
    imported = imported or package_jit_names
    wrappers = set(JIT_WRAPPERS) if module == KERNEL_MODULE else set()
    modules: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            theirs = (
                JIT_WRAPPERS
                if node.module == KERNEL_MODULE
                else imported(node.module)
                if node.module.startswith("generator.")
                else set()
            )
            for a in node.names:
                if a.name in theirs:
                    wrappers.add(a.asname or a.name)
                elif node.module == "generator.engine" and a.name == "kernel":
                    modules.add(a.asname or a.name)
        elif isinstance(node, ast.Import):
            modules |= {a.asname for a in node.names if a.name == KERNEL_MODULE and a.asname}
        elif isinstance(node, ast.Assign) and _names_a_wrapper(node.value, wrappers, modules):
            wrappers |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return wrappers, modules


_READING: set[str] = set()


@functools.cache
def package_jit_names(module: str) -> set[str]:
    """The jit wrapper names `module` (a generator.* module or package) binds; none for what is not a file
    (nor, inside an import circle, for the module being read)."""
    rel = Path(*module.split(".")[1:])
    path = next((p for p in (PKG / rel.with_suffix(".py"), PKG / rel / "__init__.py") if p.is_file()), None)
    if path is None or module in _READING:
        return set()
    _READING.add(module)
    try:
        return jit_names(ast.parse(path.read_text(encoding="utf-8")), module=module)[0]
    finally:
        _READING.discard(module)


def _names_a_wrapper(expr: ast.expr, wrappers: set[str], modules: set[str]) -> bool:
    """`expr` is a jit wrapper: `jit`, an alias of one, `k.jit`, or a call of one of those (`jit(...)`)."""
    if isinstance(expr, ast.Call):
        expr = expr.func
    if isinstance(expr, ast.Name):
        return expr.id in wrappers
    return (
        isinstance(expr, ast.Attribute)
        and expr.attr in JIT_WRAPPERS
        and isinstance(expr.value, ast.Name)
        and expr.value.id in modules
    )


def is_kernel(fn: ast.FunctionDef | ast.AsyncFunctionDef, wrappers: set[str], modules: set[str]) -> bool:
    """`fn` is compiled by the engine: one of its decorators is a jit wrapper."""
    return any(_names_a_wrapper(d, wrappers, modules) for d in fn.decorator_list)


def size_problems(
    text: str, where: str, *, module: str = "", imported: Callable[[str], set[str]] | None = None
) -> list[str]:
    """What in the module `text` (named `where` in the messages) is over the size limits: the module itself,
    a plain function over MAX_FUNCTION_LINES, a compiled kernel over MAX_KERNEL_LINES (`imported`: see
    `jit_names`)."""
    tree = ast.parse(text)
    problems = []
    n = len(text.splitlines())
    if n > MAX_MODULE_LINES:
        problems.append(f"{where}: {n} lines (at most {MAX_MODULE_LINES} a module)")
    wrappers, modules = jit_names(tree, module=module, imported=imported)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            kernel = is_kernel(node, wrappers, modules)
            limit = MAX_KERNEL_LINES if kernel else MAX_FUNCTION_LINES
            if lines > limit:
                what = "kernel" if kernel else "function"
                problems.append(f"{where}:{node.lineno} {what} {node.name} ({lines} lines, at most {limit})")
    return problems


def test_no_module_or_function_in_the_package_is_over_its_size():
    """No module over 800 lines; no function over 80 lines, unless it is a compiled kernel (at most 200)."""
    long = []
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG.parent)
        module = ".".join(rel.with_suffix("").parts)
        long += size_problems(path.read_text(encoding="utf-8"), rel.as_posix(), module=module)
    assert not long, "\n".join(long)


def test_the_size_check_sees_the_packages_kernels():
    """The kernels over 80 lines pass as kernels, ripple_rush's too (decorated with `inline`/`no_refcount`,
    aliases made in kernel_board.py and imported from there), not by accident."""
    seen = set()
    for path in sorted(PKG.glob("games/*/kernel*.py")):
        rel = path.relative_to(PKG.parent)
        module = ".".join(rel.with_suffix("").parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        wrappers, modules = jit_names(tree, module=module)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.end_lineno and node.end_lineno - node.lineno >= 80:
                seen.add((path.parent.name, node.name, is_kernel(node, wrappers, modules)))
    assert ("ripple_rush", "suit_choice", True) in seen
    assert all(kernel for _, _, kernel in seen), sorted(seen)


def _body(lines: int) -> str:
    """A function body of `lines` lines (the function is one line longer: its def line)."""
    return "".join(f"    x{i} = {i}\n" for i in range(lines - 1)) + "    return 0\n"


def test_the_size_check_can_fail(tmp_path):
    """An 81-line plain function is caught, an 81-line jitted one is not (under its own name, an alias, an
    `as` import or the kernel module's attribute), a 201-line kernel is, and so is an 801-line module."""
    (tmp_path / "m.py").write_text("def f():\n" + _body(80), encoding="utf-8")
    plain = (tmp_path / "m.py").read_text(encoding="utf-8")
    assert size_problems(plain, "m.py") == ["m.py:1 function f (81 lines, at most 80)"]
    assert size_problems("def f():\n" + _body(79), "m.py") == []
    nested = "def outer():\n    def inner():\n" + _body(80).replace("    ", "        ") + "    return inner\n"
    assert [p.split(" ")[2] for p in size_problems(nested, "m.py")] == ["outer", "inner"]
    jitted = [
        "from generator.engine.kernel import jit\n@jit\ndef f():\n",
        "from generator.engine.kernel import jit_noref_entry\n@jit_noref_entry  # why\ndef f():\n",
        "from generator.engine.kernel import jit_inline\ninline = jit_inline\n@inline\ndef f():\n",
        "from generator.engine.kernel import jit_noref as no_refcount\n@no_refcount\ndef f():\n",
        "from generator.engine import kernel as k\n@k.jit_noref\ndef f():\n",
        "import generator.engine.kernel as k\n@k.jit\ndef f():\n",
    ]
    for head in jitted:
        assert size_problems(head + _body(80), "m.py") == [], head
        assert size_problems(head + _body(199), "m.py") == [], head
        assert [p.split(" ")[1] for p in size_problems(head + _body(200), "m.py")] == ["kernel"], head
    # an alias bound in another module of the package and imported from it (ripple_rush's kernel_board)
    board = "from generator.engine.kernel import jit_inline\ninline = jit_inline\n"
    texts = {"generator.board": board}

    def imported(module: str) -> set[str]:
        return jit_names(ast.parse(texts[module]), module=module)[0] if module in texts else set()

    head = "from generator.board import inline\n@inline\ndef f():\n"
    assert size_problems(head + _body(80), "m.py", imported=imported) == []
    assert size_problems(head + _body(80), "m.py", imported=lambda m: set()) != []
    assert "inline" in package_jit_names("generator.games.ripple_rush.kernel_board")
    # a decorator of another name, or a `jit` that is not the engine's, does not make a kernel
    for head in [
        "from functools import cache\n@cache\ndef f():\n",
        "from numba import jit\n@jit\ndef f():\n",
    ]:
        assert [p.split(" ")[1] for p in size_problems(head + _body(80), "m.py")] == ["function"], head
    module = "".join(f"x{i} = {i}\n" for i in range(801))
    assert size_problems(module, "m.py") == ["m.py: 801 lines (at most 800 a module)"]
    assert size_problems(module[: module.index("x800")], "m.py") == []
