"""Imports flow downhill between the rooms; only the hallway imports render; only render imports the
drawing libraries."""

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "generator"

# room -> rooms it may import (besides itself and the ground floor: errors, units, resources)
ALLOWED = {
    "spec": set(),
    "games": {"spec", "engine"},  # and, for a game's layout.py only, layout (see LAYOUT_MODULE)
    "engine": {"spec"},
    "i18n": {"spec"},
    "layout": {"spec", "i18n"},
    "export": {"layout", "spec", "i18n"},
    "render": {"layout", "engine", "spec", "export"},
    "buildkeys": {"spec"},  # content keys of incremental builds: reads specs and catalogs, draws nothing
    "newkit": set(),  # `pnpkit new`: copies and renames files; validation is the hallway's
}
GROUND = {"errors", "units", "resources", "__init__"}
REGISTRY = "generator.games.registry"  # ground floor: strings only, every room may look a game up
LAYOUT_MODULE = "layout"  # inside games/<game>/, only layout.py (and its layout_*.py helpers) may import layout
HALLWAY = {"cli", "__main__", "build", "exporting", "serve", "tuning"}  # serve: the preview server calls the build;
# tuning: `pnpkit tune` loads kits, runs checks and writes a kit folder and a report
DRAWING_LIBS = {"reportlab", "PIL", "pypdfium2"}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
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
            if top in DRAWING_LIBS and room != "render":
                bad.append(f"{path.relative_to(PKG)} imports {mod} (drawing libraries belong to render/)")
            if top != "generator":
                continue
            parts = mod.split(".")
            target = parts[1] if len(parts) > 1 else "__init__"
            if target in GROUND or target == room or mod == REGISTRY:
                continue
            if room == "games" and target == "layout" and path.stem.startswith(LAYOUT_MODULE):
                continue
            if target in HALLWAY:
                bad.append(f"{path.relative_to(PKG)} imports the hallway ({mod})")
            elif target not in ALLOWED.get(room, set()):
                bad.append(f"{path.relative_to(PKG)} ({room}) imports {mod}")
    assert bad == []


def test_the_check_can_fail():
    """The walker really sees imports (guards against a test that passes on nothing)."""
    assert "generator.layout.ops" in imports_of(PKG / "layout" / "text.py")
    assert any(m.startswith("reportlab") for m in imports_of(PKG / "render" / "pdf.py"))


def test_the_registry_and_the_game_packages_import_nothing_heavy():
    """Looking a game up imports its package's __init__ and the registry: both hold strings only."""
    allowed = {"generator.errors", "generator.games.registry", "generator.games.lazy", "__future__"}
    stdlib = {"importlib", "re", "dataclasses", "functools", "types", "typing", "importlib.metadata"}
    for path in [PKG / "games" / "registry.py", *sorted(PKG.glob("games/*/__init__.py"))]:
        extra = {m for m in imports_of(path) if m not in allowed and m not in stdlib}
        assert extra == set(), f"{path.relative_to(PKG)} imports {sorted(extra)}"


def test_no_game_is_named_outside_its_folder():
    """Every game is reached through the registry: no module outside games/<game>/ names a game id."""
    from generator.games.registry import BUILTIN

    bad = []
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG)
        if rel.parts[0] == "games" and (len(rel.parts) > 2 or rel.name == "registry.py"):
            continue  # a game's own folder, and the registry's list of built-ins
        text = path.read_text(encoding="utf-8")
        bad += [f"{rel}: {gid}" for gid in BUILTIN if gid in text]
    assert bad == []
