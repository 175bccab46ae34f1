"""Helpers for spec tests: edit a copied kit.yaml and find the line of a text in it."""

from pathlib import Path


def edit(kit: Path, old: str, new: str) -> None:
    """Replace the first `old` in kit/kit.yaml by `new` (which must be there)."""
    p = kit / "kit.yaml"
    text = p.read_text(encoding="utf-8")
    assert old in text, old
    p.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(kit: Path, needle: str) -> int:
    """The 1-based line of kit/kit.yaml that holds `needle`."""
    for i, line in enumerate((kit / "kit.yaml").read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(needle)
