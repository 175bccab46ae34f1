"""The legibility part of a kit's `style:` section: the smallest size each role of text may be printed at.

Kept apart from the rest of `style:` (fonts) so each part has one owner; kit.py puts them together."""

from __future__ import annotations

from pydantic import Field

from generator.spec.base import Length, SpecModel

ROLES = ("body", "fine", "heading", "number")
"""Text roles a drawn string has (ops.Text.role): rules and card text, fine print (footers, footnotes,
captions, name-line labels, sorting ids), headings and titles, and numbers a player must read at arm's
length."""


class MinSize(SpecModel):
    """The floor, in points, below which no text of a role is printed: a composer may shrink a string to fit
    its box down to the floor and no further; a string that needs less is an error naming it. A designer may
    lower a floor (e.g. `style: {min_size: {fine: 5.5}}`) knowingly."""

    body: float = Field(
        7.0, ge=3, le=30, description="rules and card text, labels on sheets (points; default 7)"
    )
    fine: float = Field(
        6.0,
        ge=3,
        le=30,
        description="fine print: footers, footnotes, captions, sorting ids (points; default 6)",
    )
    heading: float = Field(8.0, ge=3, le=30, description="headings and titles (points; default 8)")
    number: float = Field(
        8.0, ge=3, le=30, description="numbers printed on cards, tiles and sheets (points; default 8)"
    )

    def floor(self, role: str) -> float:
        """The floor of `role` (one of ROLES)."""
        value: float = getattr(self, role)
        return value


class Legibility(SpecModel):
    """`style.min_size`: the per-role size floors; `style.min_contrast`: small text's contrast floor;
    `style.safe_margin`: how far text keeps from a face's edge."""

    min_size: MinSize = Field(
        default_factory=MinSize, description="smallest printed size per text role, in points"
    )
    min_contrast: float = Field(
        4.5,
        ge=1,
        le=21,
        description=(
            "the smallest WCAG contrast ratio text under 9 pt keeps against the colour under it "
            "(default 4.5, WCAG AA for small text)"
        ),
    )
    safe_margin: Length = Field(
        8.503937007874017,
        gt=0,
        le=72,
        description=(
            "the safe area: no string's glyphs come nearer than this to the edge of the face it is printed "
            "on (card, tile, token, sheet panel), so cutting a little off the line never cuts text (default "
            "3mm, the print shops' card safe area; a face whose shorter side is under 12 times this keeps a "
            "twelfth of that side)"
        ),
    )
