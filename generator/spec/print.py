"""The `print:` section of a kit: paper, margins, bleed, marks, duplex and the print-shop mode."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from generator.spec.base import Length, SpecModel


class BackOffset(SpecModel):
    """How far this printer shifts the back side; the backs are drawn shifted by the opposite amount."""

    x: Length = Field(0.0, description="horizontal shift of the back side, e.g. '0.5mm' (positive = right as seen on the back)")
    y: Length = Field(0.0, description="vertical shift of the back side, e.g. '-1mm' (positive = up)")


class PrintSpec(SpecModel):
    """Print settings; every length is written with a unit in YAML and held in points."""

    paper: Literal["a4", "letter", "a3"] = Field("a4", description="paper size (the CLI's --paper overrides it)")
    margin: Length = Field(5 * 72 / 25.4, description="the printer's unprintable margin; nothing is placed inside it")
    bleed: Length = Field(3 * 72 / 25.4, description="art beyond the trim on every side (cards with a gutter, print-shop pages)")
    gutter: Length = Field(0.0, description="space between cards; 0 = abutting cards with shared cut lines")
    crop_marks: bool = Field(True, description="crop marks outside the card area")
    cut_lines: bool = Field(False, description="thin lines along every cut")
    duplex: Literal["long", "short", "none"] = Field("long", description="how the sheet is flipped for the backs: long or short edge, or no backs")
    back_offset: BackOffset = Field(default_factory=BackOffset, description="per-printer correction of the back side")
    mode: Literal["home", "shop"] = Field("home", description="home = N-up sheets; shop = one card per page with TrimBox/BleedBox")
    ruler: bool = Field(True, description="a 'printed at 100%?' check ruler on every imposed page")
    calibration: bool = Field(True, description="add a duplex calibration page to the kit PDF")
