"""Colour-vision and greyscale safety of a kit's palette: every pair of colours a player must tell apart,
measured as CIEDE2000 colour difference under simulated protanopia, deuteranopia, tritanopia and in greyscale.

Simulations (daltonlens): Viénot 1999 for protanopia and deuteranopia, Brettel 1997 for tritanopia (the
combination daltonlens recommends; both at full dichromacy). Greyscale is the print of `build --greyscale`:
each colour replaced by the neutral grey of the same CIE L* (see `to_grey`). ΔE00 from colorspacious.

A pair under `style.colour_safety.min_delta_e` that also shares its mark (symbol, shape or pattern) is an
error: nothing on the printed piece tells the two apart for that reader. A pair under the threshold with
different marks stays playable and is a note. No drawing library is imported here (the check room uses it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pydantic import Field, StrictFloat, StrictInt

from generator.errors import Problem
from generator.spec.base import SpecModel

if TYPE_CHECKING:
    from generator.spec.kit import Kit

SIMULATIONS = ("protanopia", "deuteranopia", "tritanopia", "greyscale")


class ColourSafety(SpecModel):
    """The colour difference two colours a player must tell apart keep under every colour-vision
    simulation."""

    min_delta_e: StrictFloat | StrictInt = Field(
        10.0,
        ge=0,
        le=100,
        description=(
            "smallest CIEDE2000 difference between two game colours under simulated protanopia, "
            "deuteranopia, "
            "tritanopia (Viénot 1999 / Brettel 1997) and in greyscale; a pair below it that also shares its "
            "symbol/shape/pattern fails validate, one with different marks is a note in the report"
        ),
    )


@dataclass(frozen=True)
class Swatch:
    """One colour a player must tell apart from the others: its id, #rrggbb and the mark printed with it."""

    id: str
    hex: str
    mark: str


@dataclass(frozen=True)
class PairMeasure:
    """The CIEDE2000 difference of two swatches under one simulation."""

    a: Swatch
    b: Swatch
    simulation: str
    delta_e: float

    @property
    def same_mark(self) -> bool:
        return self.a.mark == self.b.mark

    def describe(self) -> str:
        marks = f"both marked {self.a.mark}" if self.same_mark else f"marked {self.a.mark} and {self.b.mark}"
        return (
            f"{self.a.id} ({self.a.hex}) and {self.b.id} ({self.b.hex}) differ by ΔE00 {self.delta_e:.1f} "
            f"under {self.simulation}, {marks}"
        )


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


@lru_cache(maxsize=4096)
def simulate(hex_colour: str, simulation: str) -> tuple[float, float, float]:
    """The sRGB (0-255 floats) a reader with `simulation` sees for `hex_colour`."""
    import numpy as np

    out = simulate_pixels(np.array([[_rgb(hex_colour)]], dtype=np.uint8), simulation)
    r, g, b = (float(x) for x in out[0, 0])
    return r, g, b


def simulate_pixels(rgb: Any, simulation: str) -> Any:
    """An sRGB image (uint8 array, rows x columns x 3) as a reader with `simulation` sees it, by the same
    method as the palette check (`simulate`): daltonlens for protanopia, deuteranopia, tritanopia; for
    greyscale each colour's neutral grey of the same L* (`to_grey`). Each distinct colour is simulated
    once."""
    import numpy as np

    if simulation not in SIMULATIONS:
        raise ValueError(f"unknown simulation {simulation!r}; expected one of {', '.join(SIMULATIONS)}")
    pixels = np.ascontiguousarray(rgb, dtype=np.uint8)
    flat = pixels.reshape(-1, 3)
    packed = (flat[:, 0].astype(np.uint32) << 16) | (flat[:, 1].astype(np.uint32) << 8) | flat[:, 2]
    codes, inverse = np.unique(packed, return_inverse=True)
    colours = np.stack([(codes >> 16) & 255, (codes >> 8) & 255, codes & 255], axis=1).astype(np.uint8)
    if simulation == "greyscale":
        greys = np.array([to_grey((int(r), int(g), int(b))) for r, g, b in colours], dtype=np.uint8)
        seen = np.repeat(greys[:, None], 3, axis=1)
    else:
        from daltonlens import simulate as dl

        deficiency = {
            "protanopia": dl.Deficiency.PROTAN,
            "deuteranopia": dl.Deficiency.DEUTAN,
            "tritanopia": dl.Deficiency.TRITAN,
        }[simulation]
        sim = dl.Simulator_Brettel1997() if simulation == "tritanopia" else dl.Simulator_Vienot1999()
        seen = sim.simulate_cvd(colours[:, None, :], deficiency, severity=1.0)[:, 0, :]
    return np.asarray(seen, dtype=np.uint8)[inverse.reshape(-1)].reshape(pixels.shape)


@lru_cache(maxsize=65536)
def to_grey(rgb: tuple[int, int, int]) -> int:
    """The neutral grey (0-255) of the same CIE L* as `rgb`: what `build --greyscale` prints instead."""
    from colorspacious import cspace_convert

    lightness = float(cspace_convert(rgb, "sRGB255", "CIELab")[0])
    grey = cspace_convert((lightness, 0.0, 0.0), "CIELab", "sRGB255")
    return max(0, min(255, round(float(grey[0]))))


def delta_e(rgb1: Sequence[float], rgb2: Sequence[float]) -> float:
    """CIEDE2000 difference of two sRGB (0-255) colours."""
    from colorspacious import deltaE

    return float(deltaE(list(rgb1), list(rgb2), input_space="sRGB255", uniform_space="CIELab"))


def measure(swatches: Sequence[Swatch]) -> list[PairMeasure]:
    """Every pair of swatches under every simulation, in palette order."""
    out: list[PairMeasure] = []
    for i, a in enumerate(swatches):
        for b in swatches[i + 1 :]:
            for sim in SIMULATIONS:
                out.append(PairMeasure(a, b, sim, delta_e(simulate(a.hex, sim), simulate(b.hex, sim))))
    return out


def palette(game: Any) -> tuple[str, list[Swatch]]:
    """The colours a player must tell apart in a game spec, and the spec key they sit under: `suits` (Ripple
    Rush) or `colours` (Rummy, Raindrops, Peak Dice), each entry's mark its symbol, shape or pattern (Peak
    Dice: pattern and the optional symbol together)."""
    for key in ("suits", "colours"):
        entries = getattr(game, key, None)
        if not isinstance(entries, list) or not entries or not hasattr(entries[0], "colour"):
            continue
        swatches = []
        for e in entries:
            parts = [
                str(getattr(e, f)) for f in ("symbol", "shape", "pattern") if getattr(e, f, None) is not None
            ]
            swatches.append(Swatch(str(e.id), str(e.colour).lower(), "+".join(parts) or "nothing"))
        return key, swatches
    return "", []


@dataclass(frozen=True)
class SafetyResult:
    """The palette check of one game spec: errors (close and same mark) and notes (close, marks differ)."""

    key: str
    errors: list[PairMeasure]
    notes: list[PairMeasure]
    measures: list[PairMeasure]


def check_palette(game: Any, safety: ColourSafety) -> SafetyResult:
    """Every pair under `safety.min_delta_e` in any simulation: an error when both share their mark."""
    key, swatches = palette(game)
    measures = measure(swatches)
    close = [m for m in measures if m.delta_e < safety.min_delta_e]
    return SafetyResult(
        key, [m for m in close if m.same_mark], [m for m in close if not m.same_mark], measures
    )


def colour_problems(kit: Kit) -> list[Problem]:
    """One located problem per pair of game colours that share their mark and fall under the threshold in
    some simulation, naming both colours and every such simulation with its measured ΔE00."""
    result = check_palette(kit.section, kit.style.colour_safety)
    ids = [s.id for s in palette(kit.section)[1]]
    pairs: dict[tuple[str, str], list[PairMeasure]] = {}
    for m in result.errors:
        pairs.setdefault((m.a.id, m.b.id), []).append(m)
    bound = kit.style.colour_safety.min_delta_e
    out = []
    for ms in pairs.values():
        a, b = ms[0].a, ms[0].b
        under = ", ".join(f"{m.simulation} ΔE00 {m.delta_e:.1f}" for m in ms)
        out.append(
            kit.problem(
                f"game.{result.key}[{ids.index(b.id)}].colour",
                f"{a.id} ({a.hex}) and {b.id} ({b.hex}) are both marked {a.mark} and look alike under "
                f"{under} "
                f"(style.colour_safety.min_delta_e is {bound:g}): give them different marks or move the "
                f"colours apart",
            )
        )
    return out


def colour_notes(kit: Kit) -> list[str]:
    """One line per pair of game colours that look alike in some simulation but differ in mark (playable: the
    mark tells them apart), for the designers' report."""
    result = check_palette(kit.section, kit.style.colour_safety)
    pairs: dict[tuple[str, str], list[PairMeasure]] = {}
    for m in result.notes:
        pairs.setdefault((m.a.id, m.b.id), []).append(m)
    bound = kit.style.colour_safety.min_delta_e
    return [
        f"colours {ms[0].a.id} ({ms[0].a.hex}) and {ms[0].b.id} ({ms[0].b.hex}) look alike under "
        + ", ".join(f"{m.simulation} (ΔE00 {m.delta_e:.1f})" for m in ms)
        + f", below style.colour_safety.min_delta_e {bound:g}; their marks {ms[0].a.mark} and {ms[0].b.mark} "
        "tell them apart"
        for ms in pairs.values()
    ]
