"""Static legality of a data kit: the declared `game.rules` over the rows (every broken row named with its
file and row), templates that exist, draw checks and the deal that fit the deck. Every problem at once."""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

from generator.games.deck.algebra import draw_problems
from generator.games.deck.balance import where_row_problem
from generator.games.deck.expressions import (
    MAX_ALL_OF_WORK,
    MAX_EVALUATIONS,
    Conditions,
    all_of_work,
    column_types,
    name_problems,
    rule_field_problems,
    template_problems,
    work_problems,
)
from generator.games.deck.loaded import LoadedDeck, Rows, copies
from generator.games.deck.spec import ComponentRules, DeckGame, DrawCheck
from generator.i18n.sandbox import CatalogEnvironment, template_problem

MAX_LISTED = 20


def _at(rows: Rows, i: int) -> str:
    return f"{rows.table.shown}:{rows.lines[i]}"


def cell_text(row: dict[str, Any], field: str) -> str:
    """A row's cell as the rules compare it: its text, an empty cell or no such field ''."""
    v = row.get(field)
    return "" if v is None else str(v)


def legal_problems(deck: LoadedDeck) -> list[tuple[str, str]]:
    """(dotted key under game, message) for every declared rule the rows break and every dangling name."""
    spec = deck.spec
    env = CatalogEnvironment()
    evaluator = Conditions(deck)
    out, ids = _component_problems(deck)
    out += template_problems(deck, env)
    out += work_problems(deck)
    missing, skip = rule_field_problems(deck)
    out += missing
    for cid, rule in spec.rules.items():
        out += _rule_problems(deck, cid, rule, ids, skip)
    out += _budget_problems(spec, evaluator)
    for n, check in enumerate(spec.balance.draws):
        out += _draw_problems(deck, f"balance.draws[{n}]", check, env, evaluator)
    out += _deal_problems(deck)
    return out[:200]


def _component_problems(deck: LoadedDeck) -> tuple[list[tuple[str, str]], dict[str, set[str]]]:
    """Templates a component names that do not exist, rows no template case takes, missing and repeated ids;
    and the ids of every card component."""
    spec = deck.spec
    out: list[tuple[str, str]] = []
    ids: dict[str, set[str]] = {}
    for cid, comp in spec.decks.items():
        rows = deck.rows[cid]
        names = (
            [comp.template]
            if isinstance(comp.template, str)
            else [*comp.template.cases.values(), *([comp.template.default] if comp.template.default else [])]
        )
        for name in names:
            if name not in spec.templates:
                out.append(
                    (f"decks.{cid}.template", f"expected one of {', '.join(spec.templates)}; got {name!r}")
                )
        if not isinstance(comp.template, str):
            choice = comp.template
            for i, row in enumerate(rows.rows):
                v = cell_text(row, choice.by)
                if v not in choice.cases and choice.default is None:
                    out.append(
                        (
                            f"decks.{cid}.template.by",
                            f"{_at(rows, i)}: {choice.by} {v!r} has no template "
                            f"(cases: {', '.join(choice.cases)}; no default)",
                        )
                    )
                    break
        if comp.kind == "cards":
            found, problems = _id_problems(rows, cid)
            out += problems
            ids[cid] = found
    return out, ids


def _id_problems(rows: Rows, cid: str) -> tuple[set[str], list[tuple[str, str]]]:
    """A card component's ids, and a problem for each row without one or repeating one."""
    out: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    for i, row in enumerate(rows.rows):
        rid = cell_text(row, "id")
        if not rid:
            out.append((f"decks.{cid}.data", f"{_at(rows, i)}: column id: every card needs an id"))
        elif rid in seen:
            out.append(
                (
                    f"decks.{cid}.data",
                    f"{_at(rows, i)}: column id: {rid!r} repeats row {rows.lines[seen[rid]]}",
                )
            )
        else:
            seen[rid] = i
    return set(seen), out


def _rule_problems(
    deck: LoadedDeck,
    cid: str,
    rule: ComponentRules,
    ids: dict[str, set[str]],
    skip: set[tuple[str, str]],
) -> list[tuple[str, str]]:
    """The rows of one component against its declared rules (fields that are not columns are skipped)."""
    key = f"rules.{cid}"
    if cid not in deck.spec.decks:
        known = ", ".join(deck.spec.decks)
        return [(key, f"expected one of the components in game.decks ({known}); got {cid!r}")]
    out: list[tuple[str, str]] = []
    rows = deck.rows[cid]
    counts = [copies(r) for r in rows.rows] if "count" in rows.table.columns else [1] * len(rows.rows)
    if rule.total is not None and sum(counts) != rule.total:
        out.append((f"{key}.total", f"{rows.table.shown}: {sum(counts)} cards in all; expected {rule.total}"))
    for field in rule.required:
        if (cid, field) not in skip:
            out += [
                (f"{key}.required", f"{_at(rows, i)}: column {field}: required; got an empty cell")
                for i, row in enumerate(rows.rows)
                if cell_text(row, field) == ""
            ]
    for field, allowed in rule.values.items():
        if (cid, field) not in skip:
            out += [
                (
                    f"{key}.values.{field}",
                    f"{_at(rows, i)}: column {field}: expected one of {', '.join(allowed)}; "
                    f"got {cell_text(row, field)!r}",
                )
                for i, row in enumerate(rows.rows)
                if cell_text(row, field) != "" and cell_text(row, field) not in allowed
            ]
    for field, want in rule.count_by.items():
        if (cid, field) not in skip:
            out += _count_by_problems(rows, counts, f"{key}.count_by.{field}", field, want)
    for field, target in rule.refs.items():
        if (cid, field) not in skip:
            out += _ref_problems(rows, f"{key}.refs.{field}", field, target, ids)
    return out


def _count_by_problems(
    rows: Rows, counts: list[int], key: str, field: str, want: dict[str, int]
) -> list[tuple[str, str]]:
    """Copies per value of `field` against the declared ones, naming the rows of each value that is off."""
    out: list[tuple[str, str]] = []
    got: Counter[str] = Counter()
    for row, n in zip(rows.rows, counts, strict=True):
        got[cell_text(row, field)] += n
    for v in sorted(set(want) | {k for k, n in got.items() if n}):
        if got[v] != want.get(v, 0):
            where = [str(rows.lines[i]) for i, r in enumerate(rows.rows) if cell_text(r, field) == v]
            lines = f" (rows {', '.join(where[:8])}{' ...' if len(where) > 8 else ''})" if where else ""
            out.append(
                (key, f"{rows.table.shown}{lines}: {field} {v!r}: {got[v]} cards; expected {want.get(v, 0)}")
            )
    return out


def _ref_problems(
    rows: Rows, key: str, field: str, target: str, ids: dict[str, set[str]]
) -> list[tuple[str, str]]:
    """Each row whose reference column names no id of the target component."""
    if target not in ids:
        return [(key, f"expected a card component of game.decks; got {target!r}")]
    return [
        (key, f"{_at(rows, i)}: column {field}: {cell_text(row, field)!r} is not an id of {target}")
        for i, row in enumerate(rows.rows)
        if cell_text(row, field) and cell_text(row, field) not in ids[target]
    ]


def _budget_problems(spec: DeckGame, evaluator: Conditions) -> list[tuple[str, str]]:
    """The draw conditions refused as a whole when they would take over MAX_EVALUATIONS evaluations."""
    needed = sum(
        evaluator.needed(c.component, w)
        for c in spec.balance.draws
        if c.component in spec.decks
        for w in ([c.where] if c.where else [a.where for a in c.all_of])
    )
    if needed <= MAX_EVALUATIONS:
        return []
    evaluator.refused = True  # refused before any is evaluated
    return [
        (
            "balance.draws",
            f"over the budget of {MAX_EVALUATIONS:,} evaluations (one command): the draw "
            f"conditions would be evaluated over {needed:,} distinct rows in all "
            "(conditions x distinct values they read)",
        )
    ]


def _draw_problems(
    deck: LoadedDeck, key: str, check: DrawCheck, env: CatalogEnvironment, evaluator: Conditions
) -> list[tuple[str, str]]:
    """One draw check against the deck it draws from: its component, hand, condition and field."""
    decks = deck.spec.decks
    if check.component not in decks or decks[check.component].kind != "cards":
        return [(f"{key}.component", f"expected a card component of game.decks; got {check.component!r}")]
    rows = deck.rows[check.component]
    size = sum(copies(r) for r in rows.rows)
    if size == 0:
        return [
            (
                f"{key}.component",
                f"{rows.table.shown}: the deck of {check.component} holds no cards "
                "(every count is 0); a draw check needs cards",
            )
        ]
    out: list[tuple[str, str]] = []
    if check.kind == "hand":
        at = partial(_at, rows)
        out += draw_problems(
            check.has,
            check.hand,
            check.turns,
            key,
            size,
            rows.table.columns,
            rows.rows,
            at,
            lambda source, at=at, rows=rows: (
                template_problem(env, "{% if " + source + " %}1{% endif %}")  # type: ignore[misc]
                or where_row_problem(rows.rows, source, at)
            ),
        )
    if check.kind not in ("share", "hand") and check.hand is not None and check.hand > size:
        out.append((f"{key}.hand", f"the deck holds {size} cards; got a hand of {check.hand}"))
    if check.kind == "hand_has":
        out += _condition_problems(deck, check, key, env, evaluator)
    elif check.kind != "hand":
        out += _field_problems(rows, key, check)
    return out


def _field_problems(rows: Rows, key: str, check: DrawCheck) -> list[tuple[str, str]]:
    """The field a share or sum check measures (the model requires one): a column, and a number in every row
    (sums)."""
    if check.field is None or check.field not in rows.table.columns:
        return [(f"{key}.field", f"expected a column of {rows.table.shown}; got {check.field!r}")]
    if check.kind == "share":
        return []
    for i, row in enumerate(rows.rows):
        value = row.get(check.field)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return [
                (
                    f"{key}.field",
                    f"{_at(rows, i)}: column {check.field}: expected a number "
                    f"(declare it int or number in fields); got {value!r}",
                )
            ]
    return []


def _deal_problems(deck: LoadedDeck) -> list[tuple[str, str]]:
    """The deal against the deck it deals from (a kit of sheets only deals nothing)."""
    spec = deck.spec
    deal = spec.deal
    if deal is None:
        return []
    out: list[tuple[str, str]] = []
    if deal.component not in spec.decks or spec.decks[deal.component].kind != "cards":
        out.append(("deal.component", f"expected a card component of game.decks; got {deal.component!r}"))
    else:
        size = sum(copies(r) for r in deck.rows[deal.component].rows)
        if deal.hand * deal.players.max > size:
            out.append(
                (
                    "deal.hand",
                    f"{deal.players.max} hands of {deal.hand} need {deal.hand * deal.players.max} "
                    f"cards; the deck holds {size}",
                )
            )
    return out


def _condition_problems(
    deck: LoadedDeck, check: DrawCheck, key: str, env: CatalogEnvironment, evaluator: Conditions
) -> list[tuple[str, str]]:
    """A hand_has check's conditions: syntax, names and types against the columns, each evaluated over the
    rows, and the exact all_of count within its work budget."""
    out: list[tuple[str, str]] = []
    rows = deck.rows[check.component]
    size = sum(copies(r) for r in rows.rows)
    conditions = (
        [(f"{key}.where", check.where)]
        if check.where
        else [(f"{key}.all_of[{i}].where", c.where) for i, c in enumerate(check.all_of)]
    )
    types = column_types(deck, check.component)
    truths: list[list[bool]] = []
    for where_key, source in conditions:
        text = "{% if " + str(source) + " %}1{% endif %}"
        why = template_problem(env, text)
        if why:
            out.append((where_key, why))
            continue
        found = name_problems(env, text, sorted(types), types, rows.table.shown)
        out += [(where_key, m) for m in found]
        if found:
            continue
        met, why = evaluator.truths(check.component, str(source))
        if why:
            out.append((where_key, why))
        elif met is not None:
            truths.append(met)
    if check.all_of and check.hand is not None and len(truths) == len(check.all_of):
        cells: dict[tuple[bool, ...], int] = {}
        for row, *t in zip(rows.rows, *truths, strict=True):
            cells[tuple(t)] = cells.get(tuple(t), 0) + copies(row)
        work = all_of_work(cells, min(check.hand, size), [c.at_least for c in check.all_of])
        if work > MAX_ALL_OF_WORK:
            out.append(
                (
                    f"{key}.all_of",
                    f"over the budget of {MAX_ALL_OF_WORK:,} steps: the exact count of "
                    f"{len(check.all_of)} conditions over a {check.hand}-card hand from "
                    f"{size:,} cards needs up to {work:,} (draw fewer cards, lower "
                    "at_least or use fewer conditions)",
                )
            )
    return out
