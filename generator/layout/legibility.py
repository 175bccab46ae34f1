"""The legible-size check over drawn pages: no string is printed below the `style.min_size` floor of its role.

Composers shrink strings to fit their boxes (`fit_line`, `fit_block`, the rules summary); this check looks at
what is drawn, Place scales included, so a string shrunk below its floor is an error naming the component, the
language and the string id, whatever code drew it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.errors import LocatedLayoutError
from generator.layout.compose import Component
from generator.layout.ops import Op, Place, Text
from generator.spec.catalogs import Catalog
from generator.spec.style import MinSize
from generator.units import pt_text

TOLERANCE = 0.01
"""Points a size may fall short of its floor (rounding of mm sizes)."""


@dataclass(frozen=True)
class Undersized:
    """One string drawn below its role's floor."""

    component: str
    text_id: str
    text: str
    role: str
    size: float
    floor: float

    def message(self, lang: str) -> str:
        """One line for the error."""
        return (
            f"{self.component} ({lang}): {self.text_id or '(no id)'} {self.text[:60]!r} is printed at "
            f"{pt_text(self.size)}, under the {self.role} floor {self.floor:g} pt (style.min_size.{self.role}); "
            f"shorten the text, give it more room, or lower the floor"
        )


def _walk(ops: Sequence[Op], scale: float, out: list[tuple[Text, float]]) -> None:
    for op in ops:
        if isinstance(op, Place):
            _walk(op.ops, scale * op.scale, out)
        elif isinstance(op, Text) and op.text.strip():
            out.append((op, op.size * scale))


def undersized(components: Sequence[Component], floors: MinSize) -> list[Undersized]:
    """Every distinct string of `components` printed below the floor of its role (first place it is drawn)."""
    found: dict[tuple[str, str, str, str], Undersized] = {}
    for comp in components:
        texts: list[tuple[Text, float]] = []
        for page in comp.pages:
            _walk(page.ops, 1.0, texts)
        for op, size in texts:
            floor = floors.floor(op.role)
            if size < floor - TOLERANCE:
                key = (comp.id, op.text_id, op.text, op.role)
                if key not in found or size < found[key].size:
                    found[key] = Undersized(comp.id, op.text_id, op.text, op.role, size, floor)
    return list(found.values())


def check_min_sizes(
    components: Sequence[Component], floors: MinSize, where: str, catalog: Catalog | None, lang: str
) -> None:
    """Raise one LocatedLayoutError naming every string printed below its role's floor, each located at its
    catalog line when it has a text id (else at `where`, the kit)."""
    problems = []
    for u in undersized(components, floors):
        line = catalog.lines.get(u.text_id) if catalog is not None and u.text_id else None
        source = f"{catalog.path}:{line}: {u.text_id}" if catalog is not None and line is not None else where
        problems.append(f"{source}: {u.message(lang)}")
    if problems:
        raise LocatedLayoutError("\n".join(problems))
