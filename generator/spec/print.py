"""The `print:` section of a kit: paper, margins, bleed, marks, duplex and the print-shop mode."""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, Field, WithJsonSchema

from generator.spec.base import LENGTH_JSON, SpecModel, bounded_length
from generator.spec.choices import Duplex, Paper, PrintMode

Offset = Annotated[float, BeforeValidator(bounded_length(-10, 10)), WithJsonSchema(LENGTH_JSON)]
"""A printer's back-side misregistration: a few millimetres at most (10 mm either way)."""
Margin = Annotated[float, BeforeValidator(bounded_length(0, 40)), WithJsonSchema(LENGTH_JSON)]
"""The unprintable margin: 0..40 mm (printers need 3-6 mm; 40 mm still leaves an A4 page usable)."""
Bleed = Annotated[float, BeforeValidator(bounded_length(0, 10)), WithJsonSchema(LENGTH_JSON)]
"""Bleed beyond the trim: 0..10 mm (print shops ask for 2-5 mm)."""
Gutter = Annotated[float, BeforeValidator(bounded_length(0, 30)), WithJsonSchema(LENGTH_JSON)]
"""Space between cards: 0..30 mm."""


class BackOffset(SpecModel):
    """How far this printer shifts the back side; the backs are drawn shifted by the opposite amount."""

    x: Offset = Field(
        0.0,
        description="horizontal shift of the back side, e.g. '0.5mm' (positive = right as seen on the back)",
    )
    y: Offset = Field(0.0, description="vertical shift of the back side, e.g. '-1mm' (positive = up)")


class PrintSpec(SpecModel):
    """Print settings; every length is written with a unit in YAML and held in points."""

    paper: Paper = Field("a4", description="paper size (the CLI's --paper overrides it)")
    margin: Margin = Field(
        5 * 72 / 25.4, description="the printer's unprintable margin; nothing is placed inside it"
    )
    bleed: Bleed = Field(
        3 * 72 / 25.4, description="art beyond the trim on every side (cards with a gutter, print-shop pages)"
    )
    gutter: Gutter = Field(0.0, description="space between cards; 0 = abutting cards with shared cut lines")
    crop_marks: bool = Field(True, description="crop marks outside the card area")
    cut_lines: bool = Field(False, description="thin lines along every cut")
    duplex: Duplex = Field(
        "long", description="how the sheet is flipped for the backs: long or short edge, or no backs"
    )
    back_offset: BackOffset = Field(
        default_factory=BackOffset, description="per-printer correction of the back side"
    )
    mode: PrintMode = Field(
        "home", description="home = N-up sheets; shop = one card per page with TrimBox/BleedBox"
    )
    ruler: bool = Field(True, description="a 'printed at 100%?' check ruler on every imposed page")
    calibration: bool = Field(True, description="add a duplex calibration page to the kit PDF")
    greyscale: bool = Field(
        False,
        description=(
            "print every colour as the grey of its lightness (ink-saving; symbols and patterns tell the "
            "suits "
            "apart); the CLI's --greyscale sets it"
        ),
    )
    art_dpi_warn: int = Field(
        300,
        ge=1,
        le=2400,
        description=(
            "raster art printed at fewer dots per inch than this is a warning (300 dpi: print-shop quality)"
        ),
    )
    art_dpi_min: int = Field(
        150,
        ge=1,
        le=2400,
        description=("raster art printed at fewer dots per inch than this is an error (visibly blocky)"),
    )
    print_ids: bool = Field(
        False,
        description="print each card's small sorting id (e.g. 'BLA7-2', 'JK-1') at its "
        "bottom-left edge; off by default: a printed face carries no internal ids",
    )
