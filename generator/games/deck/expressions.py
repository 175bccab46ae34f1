"""Every expression of a data kit checked at validate time against the data it will see at check and build
time: `balance.draws` conditions (`where`), a template's `when`, `times` and text/colour/name templates, and
the fields `game.rules` names. A name that is not a column (or a helper the template language offers) is a
located error with a "did you mean" from the real column names; a text column compared with, or added to, a
number is an error that says to declare the column; every `where` is evaluated over the rows (once per
distinct set of the values it reads) so `1/0`, `name + 1` or a refused attribute is an error naming the data
row, not a traceback in `pnpkit check`. The exact `all_of` count is refused when its work would pass
MAX_ALL_OF_WORK."""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterator, Sequence
from typing import Any

from jinja2 import TemplateError, meta, nodes

from generator.games.deck.loaded import LoadedDeck, Rows, copies
from generator.games.deck.spec import DeckComponent, DeckGame
from generator.i18n.sandbox import CatalogEnvironment
from generator.spec.tables import FieldType
from generator.spec.template import (
    MAX_DRAWN_OPS,
    MAX_REPEAT_COPIES,
    AnyElement,
    GridElement,
    RepeatElement,
    TextElement,
)

MAX_ALL_OF_WORK = 10**6
"""Budget of an exact `all_of` count: (count states) x (cards drawn from a cell), summed over the cells."""
MAX_FACE_RENDERS = 200_000
"""Budget of template strings a kit's faces render per language (every string of every element of every
distinct row, repeated elements once per copy, grid labels once per cell), estimated before any is
rendered."""
MAX_FACE_OPS = MAX_DRAWN_OPS
"""Budget of drawing ops a kit's faces make per language (every copy of a card counted), estimated
likewise."""
MAX_EVALUATIONS = 50_000
"""Budget of `where` evaluations at validate time (distinct value sets x conditions), for the whole kit."""
FACE_HELPERS = frozenset({"t", "lang", "text_id", "i", "range", "ref"})
"""Names a card face's templates see besides the row's columns (`i` inside a repeat)."""
SHEET_NAMES = frozenset({"rows", "r", "c"})
"""Names a sheet face's templates see besides the helpers (grid labels see the data row of r, and r and c)."""
_ARITHMETIC = (nodes.Add, nodes.Sub, nodes.Mul, nodes.Div, nodes.FloorDiv, nodes.Mod, nodes.Pow)


def column_types(deck: LoadedDeck, cid: str) -> dict[str, FieldType]:
    """The fields a row of `cid` carries (localized columns by their base name) and their declared types."""
    comp = deck.spec.decks[cid]
    kinds: dict[str, FieldType] = {"count": "int", **comp.fields}
    out: dict[str, FieldType] = {}
    for col in deck.rows[cid].table.columns:
        base = col.split("@")[0]
        out[base] = kinds.get(col, kinds.get(base, "text"))
    return out


def did_you_mean(name: str, known: Sequence[str]) -> str:
    """'; did you mean type?' for a name close to a known one, else the list of known names."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    if close:
        return f"; did you mean {close[0]}?"
    shown = ", ".join(sorted(known)[:30])
    return f" (columns: {shown or 'none'})"


def _parse(env: CatalogEnvironment, source: str) -> nodes.Template | None:
    try:
        return env.parse_checked(source)
    except (TemplateError, RecursionError):
        return None  # its syntax is reported by the caller's own template check


def _names(tree: nodes.Template) -> list[str]:
    return sorted(n for n in meta.find_undeclared_variables(tree) if not n.startswith("__"))


def _number(node: nodes.Node) -> bool:
    if isinstance(node, nodes.Const):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, nodes.Neg | nodes.Pos):
        return _number(node.node)
    return False


def _text_columns(tree: nodes.Template, types: dict[str, FieldType]) -> Iterator[tuple[str, str]]:
    """(column, what) for every text column compared with or used in arithmetic with a number."""

    def text(node: nodes.Node) -> str | None:
        if isinstance(node, nodes.Name) and types.get(node.name) == "text":
            return node.name
        return None

    for cmp in tree.find_all(nodes.Compare):
        sides = [cmp.expr, *(op.expr for op in cmp.ops)]
        for a, b in zip(sides, sides[1:], strict=False):
            for col, other in ((text(a), b), (text(b), a)):
                if col and _number(other):
                    yield (
                        col,
                        f"compared with the number {other.value if isinstance(other, nodes.Const) else '-'}",
                    )
    for op in tree.find_all(_ARITHMETIC):
        for col, other in ((text(op.left), op.right), (text(op.right), op.left)):
            if col and _number(other):
                yield col, "used in arithmetic with a number"


def name_problems(
    env: CatalogEnvironment,
    source: str,
    known: Sequence[str],
    types: dict[str, FieldType],
    shown: str,
    helpers: frozenset[str] = frozenset(),
) -> list[str]:
    """Messages for the names `source` reads that no row of `shown` has, and for text columns used as
    numbers."""
    tree = _parse(env, source)
    if tree is None:
        return []
    out = []
    for name in _names(tree):
        if name not in known and name not in helpers:
            out.append(f"no column {name!r} in {shown}{did_you_mean(name, known)}")
    for col, what in dict.fromkeys(_text_columns(tree, types)):
        out.append(
            f"column {col} of {shown} is text, {what}; declare it int or number in "
            f"game.decks fields (e.g. fields: {{{col}: int}})"
        )
    return out


class Conditions:
    """`where` conditions evaluated over a component's rows, once per distinct set of the values each reads,
    within MAX_EVALUATIONS for the whole kit."""

    def __init__(self, deck: LoadedDeck) -> None:
        self.deck = deck
        self.env = CatalogEnvironment()
        self.evaluations = 0
        self.refused = False
        """Set when the kit's conditions are refused as a whole (past the budget): nothing more is
        evaluated."""

    def needed(self, cid: str, where: str) -> int:
        """Evaluations `truths` would make: the distinct sets of the values `where` reads (nothing
        rendered)."""
        tree = _parse(self.env, "{% if " + where + " %}1{% endif %}")
        if tree is None:
            return 0
        names = _names(tree)
        return len({tuple(row.get(n) for n in names) for row in self.deck.rows[cid].rows})

    def truths(self, cid: str, where: str) -> tuple[list[bool] | None, str | None]:
        """(whether each row meets `where`, None) or (None, why not: the row and the error)."""
        rows = self.deck.rows[cid]
        tree = _parse(self.env, "{% if " + where + " %}1{% endif %}")
        if tree is None or self.refused:
            return None, None
        names = _names(tree)
        try:
            tmpl = self.env.compile_checked("{% if " + where + " %}1{% endif %}")
        except (TemplateError, RecursionError):
            return None, None
        seen: dict[tuple[Any, ...], bool] = {}
        out: list[bool] = []
        for i, row in enumerate(rows.rows):
            key = tuple(row.get(n) for n in names)
            if key not in seen:
                self.evaluations += 1
                if self.evaluations > MAX_EVALUATIONS:
                    return None, (
                        f"over the budget of {MAX_EVALUATIONS:,} evaluations (one command): the "
                        "kit's conditions need more over the rows"
                    )
                self.env.start()
                try:
                    seen[key] = tmpl.render(row) == "1"
                except (
                    TemplateError,
                    ArithmeticError,
                    LookupError,
                    TypeError,
                    ValueError,
                    RecursionError,
                ) as e:
                    return None, f"{_at(rows, i)}: {type(e).__name__}: {e}"
            out.append(seen[key])
        return out, None


def _at(rows: Rows, i: int) -> str:
    return f"{rows.table.shown}:{rows.lines[i]}"


def all_of_work(cells: dict[tuple[bool, ...], int], hand: int, at_least: Sequence[int]) -> int:
    """An upper bound of the exact all_of count's work: per cell, the states (cards drawn so far, each
    condition's count capped at its threshold) times the cards the cell may give."""
    states = (hand + 1) * math.prod(n + 1 for n in at_least)
    return sum(states * (min(size, hand) + 1) for size in cells.values())


def _templates_of(comp: DeckComponent) -> list[str]:
    if isinstance(comp.template, str):
        return [comp.template]
    return list(
        dict.fromkeys(
            [*comp.template.cases.values(), *([comp.template.default] if comp.template.default else [])]
        )
    )


def _strings(el: AnyElement, key: str) -> Iterator[tuple[str, str, bool]]:
    """(key, template source, is a condition) of every template an element renders, repeated ones included."""
    if el.when is not None:
        yield f"{key}.when", el.when, True
    inner = el.element if isinstance(el, RepeatElement) else None
    if isinstance(el, RepeatElement) and isinstance(el.times, str):
        yield f"{key}.times", el.times, False
    fields = type(el).model_fields
    for attr in (
        "text",
        "name",
        "fill",
        "stroke",
        "colour",
        "tint",
        "column_label",
        "row_label",
        "bonus",
        "header_fill",
    ):
        value = getattr(el, attr) if attr in fields else None
        if isinstance(value, str) and "{" in value:
            yield f"{key}.{attr}", value, False
    if inner is not None:
        yield from _strings(inner, f"{key}.element")


def template_problems(deck: LoadedDeck, env: CatalogEnvironment) -> list[tuple[str, str]]:
    """Names every face template reads, checked against the columns of each component that uses it."""
    spec = deck.spec
    out: list[tuple[str, str]] = []
    for cid, comp in spec.decks.items():
        rows = deck.rows[cid]
        types = column_types(deck, cid)
        known = sorted(types)
        sheet = comp.kind == "sheet"
        helpers = FACE_HELPERS | (SHEET_NAMES if sheet else frozenset())
        if not isinstance(comp.template, str) and comp.template.by not in types and not sheet:
            out.append(
                (
                    f"decks.{cid}.template.by",
                    f"no column {comp.template.by!r} in {rows.table.shown} (the "
                    f"field that picks the template){did_you_mean(comp.template.by, known)}",
                )
            )
        for name in _templates_of(comp):
            tpl = spec.templates.get(name)
            if tpl is None:
                continue
            for side, elements in (("front", tpl.front or []), ("back", tpl.back or [])):
                for j, el in enumerate(elements):
                    base = f"templates.{name}.{side}[{j}]"
                    if (
                        isinstance(el, RepeatElement)
                        and isinstance(el.times, str)
                        and "{" not in el.times
                        and el.times not in types
                        and not sheet
                    ):
                        out.append(
                            (
                                f"{base}.times",
                                f"no column {el.times!r} in {rows.table.shown} (the copies "
                                f"to draw){did_you_mean(el.times, known)}",
                            )
                        )
                    for key, source, is_condition in _strings(el, base):
                        if key.endswith(".times") and "{" not in source:
                            continue
                        text = "{% if " + source + " %}1{% endif %}" if is_condition else source
                        # a sheet's face sees no row but its grid rows do: names are checked against the
                        # columns
                        # only where a row is in scope
                        scope = known if not sheet or isinstance(el, GridElement) else []
                        for message in name_problems(env, text, scope, types, rows.table.shown, helpers):
                            out.append((key, f"used by {cid}: {message}"))
                        out += [(key, f"used by {cid}: {m}") for m in ref_problems(spec, cid, env, text)]
    return list(dict.fromkeys(out))


def ref_problems(spec: DeckGame, cid: str, env: CatalogEnvironment, source: str) -> list[str]:
    """Messages for each `ref('field')` of a template `source` drawn for component `cid` whose field is not
    declared in game.rules.<cid>.refs (the lookup would fail at build time on the first row), and for a
    `ref` on a sheet's face (it draws no row)."""
    tree = _parse(env, source)
    if tree is None:
        return []
    rule = spec.rules.get(cid)
    declared = sorted(rule.refs) if rule is not None else []
    out: list[str] = []
    for call in tree.find_all(nodes.Call):
        if not (isinstance(call.node, nodes.Name) and call.node.name == "ref"):
            continue
        if spec.decks[cid].kind == "sheet":
            out.append("ref(...) on a sheet's face: a sheet draws no row to look another row up from")
            continue
        arg = call.args[0] if len(call.args) == 1 and not call.kwargs else None
        if not (isinstance(arg, nodes.Const) and isinstance(arg.value, str)):
            continue  # a computed field is looked up (and refused) row by row when the face is drawn
        if arg.value in declared:
            continue
        close = difflib.get_close_matches(arg.value, declared, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else f" (declared: {', '.join(declared) or 'none'})"
        out.append(
            f"ref({arg.value[:40]!r}): not a ref field of {cid}; declare it in "
            f"game.rules.{cid}.refs as {{{arg.value[:40]}: <component>}}{hint}"
        )
    return list(dict.fromkeys(out))


def _copies(el: RepeatElement, row: dict[str, Any]) -> int:
    if isinstance(el.times, int):
        return max(0, min(el.times, MAX_REPEAT_COPIES))
    if "{" not in el.times:
        value = row.get(el.times)
        return (
            max(0, min(value, MAX_REPEAT_COPIES))
            if isinstance(value, int) and not isinstance(value, bool)
            else 0
        )
    return MAX_REPEAT_COPIES  # a template: at most the cap


def _own_strings(el: AnyElement, memo: dict[int, int]) -> int:
    key = id(el)
    if key not in memo:
        inner = sum(1 for _ in _strings(el.element, "")) if isinstance(el, RepeatElement) else 0
        memo[key] = sum(1 for _ in _strings(el, "")) - inner
    return memo[key]


def _work(el: AnyElement, row: dict[str, Any], memo: dict[int, int]) -> tuple[int, int]:
    """(template strings rendered, drawing ops made) by one element for one row: an estimate from above for
    repeats whose count is a template (the cap), close elsewhere."""
    strings = _own_strings(el, memo)
    if isinstance(el, RepeatElement):
        n = _copies(el, row)
        inner_strings, inner_ops = _work(el.element, row, memo)
        return strings + n * inner_strings, n * (inner_ops + 1)
    if isinstance(el, GridElement):
        cells = el.rows * el.columns
        return (
            strings + cells * (1 if el.bonus else 0) + el.rows + el.columns,
            3 * (el.rows + 1) * (el.columns + 1),
        )
    return strings, 2 if isinstance(el, TextElement) else 1


def work_problems(deck: LoadedDeck) -> list[tuple[str, str]]:
    """The faces' template strings and drawing ops per language, estimated from the rows and templates before
    anything is rendered: past MAX_FACE_RENDERS or MAX_FACE_OPS a located error with the figure needed."""
    spec = deck.spec
    renders = ops = 0
    memo: dict[int, int] = {}
    for cid, comp in spec.decks.items():
        rows: list[dict[str, Any]] = [{}] if comp.kind == "sheet" else list(deck.rows[cid].rows)
        for seen, row in enumerate(rows, 1):
            name = comp.template_for(row)
            tpl = spec.templates.get(name) if name is not None else None
            if tpl is None:
                continue
            n = copies(row) if comp.kind == "cards" else 1
            for el in [*(tpl.front or []), *(tpl.back or [])]:
                r, o = _work(el, row, memo)
                renders += r
                ops += o * n
            if renders > MAX_FACE_RENDERS or ops > MAX_FACE_OPS:  # stop counting: the estimate is enough
                where = f"decks.{cid}.template"
                share = f"{seen:,} of {len(rows):,} rows of {deck.rows[cid].table.shown}"
                if renders > MAX_FACE_RENDERS:
                    return [
                        (
                            where,
                            f"over the budget of {MAX_FACE_RENDERS:,} template strings per language (one "
                            f"command): the faces would render about {renders * len(rows) // seen:,} "
                            f"({renders:,} for the first {share}; rows x elements, repeated elements per "
                            "copy)",
                        )
                    ]
                return [
                    (
                        where,
                        f"over the budget of {MAX_FACE_OPS:,} drawing ops per language (one command): the "
                        f"faces would draw about {ops * len(rows) // seen:,} ({ops:,} for the first {share}; "
                        "rows x copies x elements, repeated elements per copy)",
                    )
                ]
    return []


def rule_field_problems(deck: LoadedDeck) -> tuple[list[tuple[str, str]], set[tuple[str, str]]]:
    """Fields `game.rules` names that are not columns: the problems and the (component, field) pairs to
    skip."""
    spec = deck.spec
    out: list[tuple[str, str]] = []
    bad: set[tuple[str, str]] = set()
    for cid, rule in spec.rules.items():
        if cid not in spec.decks:
            continue
        rows = deck.rows[cid]
        known = sorted(column_types(deck, cid))
        named = (
            [("required", f) for f in rule.required]
            + [(f"values.{f}", f) for f in rule.values]
            + [(f"count_by.{f}", f) for f in rule.count_by]
            + [(f"refs.{f}", f) for f in rule.refs]
        )
        for where, field in named:
            if field.split("@")[0] not in known:
                bad.add((cid, field))
                out.append(
                    (
                        f"rules.{cid}.{where}",
                        f"no column {field!r} in {rows.table.shown}{did_you_mean(field, known)}",
                    )
                )
    return out, bad


__all__ = [
    "Conditions",
    "all_of_work",
    "work_problems",
    "column_types",
    "did_you_mean",
    "name_problems",
    "rule_field_problems",
    "template_problems",
]
