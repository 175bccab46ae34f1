"""Lengths with units -> points; paper and card sizes. Every length after the spec room is in points."""

from __future__ import annotations

import math
import re
from typing import Final

MM: Final = 72.0 / 25.4
INCH: Final = 72.0
CM: Final = 10 * MM

_UNIT: Final = {"mm": MM, "cm": CM, "in": INCH, "pt": 1.0}
_LENGTH_RE: Final = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)\s*$")


def parse_length(text: str | int | float) -> float:
    """Parse "63.5mm", "2.5in", "1cm" or "12pt" into points; bare numbers are refused (units are required).

    Digits are Unicode decimal digits, so full-width "５mm" (as typed with a Japanese IME) means 5mm.
    """
    if isinstance(text, bool) or not isinstance(text, str):
        raise ValueError(f"expected a length with a unit (mm, cm, in, pt), got {text!r}")
    m = _LENGTH_RE.match(text) if len(text) <= 40 else None
    if not m:
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise ValueError(f"expected a length with a unit (mm, cm, in, pt), got {shown!r}")
    value = float(m.group(1)) * _UNIT[m.group(2)]
    if not math.isfinite(value):
        raise ValueError(f"expected a length with a unit (mm, cm, in, pt), got {text!r}")
    return value


def mm(value: float) -> float:
    """Millimetres to points."""
    return value * MM


def to_mm(points: float) -> float:
    """Points to millimetres."""
    return points / MM


def pt_text(points: float) -> str:
    """A measured length for a message, in points to 2 decimals: "14.17 pt" (never 14.173228346456693)."""
    return f"{round(points, 2) + 0.0:.2f} pt"  # + 0.0: no "-0.00"


def mm_text(points: float) -> str:
    """A measured length (held in points) for a message, in millimetres to 1 decimal: "5.0 mm"."""
    return f"{round(to_mm(points), 1) + 0.0:.1f} mm"


# Paper sizes, portrait, in points (ISO 216 exact to the millimetre; Letter 8.5x11 in).
PAPER: Final[dict[str, tuple[float, float]]] = {
    "a4": (210 * MM, 297 * MM),
    "a3": (297 * MM, 420 * MM),
    "letter": (8.5 * INCH, 11 * INCH),
}

# Card presets, portrait, in points.
CARD_PRESETS: Final[dict[str, tuple[float, float]]] = {
    "poker": (63.5 * MM, 88.9 * MM),
    "bridge": (57.2 * MM, 88.9 * MM),
    "mini": (44 * MM, 63 * MM),
    "tarot": (70 * MM, 120 * MM),
    "square": (70 * MM, 70 * MM),
}


def paper_size(name: str, landscape: bool = False) -> tuple[float, float]:
    """Width and height of a named paper in points."""
    w, h = PAPER[name]
    return (h, w) if landscape else (w, h)
