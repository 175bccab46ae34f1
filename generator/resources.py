"""Where the shipped layouts and fonts are: the checkout's folders, or the copies inside the wheel."""

from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent


def _pick(name: str) -> Path:
    checkout = _PKG.parent / name
    if checkout.is_dir() and (_PKG.parent / "pyproject.toml").is_file():
        return checkout
    return _PKG / "_data" / name


def layouts_dir() -> Path:
    """The shipped kits' folder (`layouts/` in a checkout, `generator/_data/layouts` when installed)."""
    return _pick("layouts")


def fonts_dir() -> Path:
    """The vendored fonts' folder."""
    return _pick("fonts")
