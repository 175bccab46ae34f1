"""Imports flow downhill between the rooms; only the hallway imports render; only render imports the
drawing libraries."""

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "generator"

# room -> rooms it may import (besides itself and the ground floor: errors, units, resources)
ALLOWED = {
    "spec": set(),
    "games": {"spec", "engine"},
    "engine": {"spec"},
    "i18n": {"spec"},
    "layout": {"spec", "i18n"},
    "export": {"layout", "spec", "i18n"},
    "render": {"layout", "engine", "spec", "export"},
}
GROUND = {"errors", "units", "resources", "__init__"}
HALLWAY = {"cli", "__main__", "build", "exporting"}
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
            if target in GROUND or target == room:
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
