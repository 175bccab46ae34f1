"""The composer of a data kit: every row of a card component drawn `count` times from its template (picked by
a field's value when the template is a choice), backs from the template's back; a sheet component is one face
per copy whose grid rows take the data rows. Drawing is generator/layout/template.py; imposition, bleed,
duplex backs and shop mode are generator/layout/imposition.py, as for every game.

Localized fields: a column `name@ja` gives `name` in Japanese; a language without its column (or with an empty
cell) falls back to the plain `name` (or `name@en`) with a warning. `t('msgid')` looks a message id up in the
kit's catalogs the same way."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any

from generator.errors import LayoutError
from generator.games.deck.loaded import LoadedDeck, Rows, copies
from generator.games.deck.spec import DeckComponent, DeckGame
from generator.i18n.pseudo import pseudo_text
from generator.i18n.sandbox import Helper
from generator.layout.compose import Component, Context, compose_components, sheet_component
from generator.layout.imposition import impose_cards
from generator.layout.ops import Face, Op, Place, Text
from generator.layout.rich import kit_x_height
from generator.layout.template import FaceRenderer
from generator.spec.catalogs import PSEUDO
from generator.spec.template import FaceTemplate


def component_ids() -> tuple[str, ...]:
    """A data kit's components are named by its spec (see `component_ids_for`); none are built in."""
    return ()


def component_ids_for(deck: LoadedDeck) -> tuple[str, ...]:
    """The components this kit's spec can draw: the keys of game.decks."""
    return tuple(deck.spec.decks)


def template_context(deck: LoadedDeck, extras: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Numbers catalog strings may use: `<component>_cards` (cards in a component) and the deal."""
    game = deck.spec
    out: dict[str, Any] = {}
    if game.deal is not None:  # a kit of sheets only has no deal
        out.update(hand=game.deal.hand, players_min=game.deal.players.min, players_max=game.deal.players.max)
    for cid, comp in game.decks.items():
        if comp.kind == "cards":
            out[f"{cid}_cards"] = sum(copies(r) for r in deck.rows[cid].rows)
    return out


def localized(row: Mapping[str, Any], lang: str, where: str, warn: Any) -> dict[str, Any]:
    """A row's fields in one language: `name` from `name@<lang>`, else `name` / `name@en` (with a warning when
    the language's column exists but its cell is empty, or when only other languages have one)."""
    out: dict[str, Any] = {}
    bases: dict[str, dict[str, Any]] = {}
    for col, value in row.items():
        base, _, tag = col.partition("@")
        if tag:
            bases.setdefault(base, {})[tag] = value
        else:
            out[col] = value
    for base, by in bases.items():
        value = by.get(lang)
        if lang == PSEUDO:  # the pseudo-locale is made from the English cell
            english = out.get(base, by.get("en"))
            value = pseudo_text(english) if isinstance(english, str) else english
        elif value in (None, ""):
            english = out.get(base, by.get("en"))
            if lang != "en" and warn is not None:
                warn(f"{where}: column {base}@{lang}: no {lang} translation; using English")
            value = english
        out[base] = value
    return out


def _template(
    spec: DeckGame, comp: DeckComponent, fields: Mapping[str, Any], cid: str
) -> tuple[str, FaceTemplate]:
    name = comp.template_for(fields)
    if name is None:
        by = comp.template.by if not isinstance(comp.template, str) else ""
        raise LayoutError(
            f"components.{cid}: no template for {by} "
            f"{'' if fields.get(by) is None else str(fields.get(by))!r}"
        )
    return name, spec.templates[name]


def renderer(ctx: Context) -> FaceRenderer:
    """The template interpreter for this language: the catalog sandbox, the metrics, and `t()` for msgids."""
    texts = ctx.texts
    deck: LoadedDeck = ctx.kit.game
    return FaceRenderer(
        texts.env,
        ctx.measure,
        {"t": Helper("t", "t('card.name')", lambda tid, **kw: texts(str(tid), **kw)), "lang": ctx.lang},
        deck.assets,
        ctx.kit.icons,
        kit_x_height(ctx.kit),
    )


def _rows_in(ctx: Context, rows: Rows) -> list[dict[str, Any]]:
    source = rows.table.source or "kit.yaml"
    warn = getattr(ctx.texts, "warn", None)
    return [
        localized(row, ctx.lang, f"{source}:{line}", warn)
        for row, line in zip(rows.rows, rows.lines, strict=True)
    ]


class Refs:
    """`ref('owner')` for a row of one component: the row of another component whose id its ref field
    (declared in game.rules.<component>.refs) names, in the language drawn."""

    def __init__(self, ctx: Context, cid: str):
        deck: LoadedDeck = ctx.kit.game
        rule = deck.spec.rules.get(cid)
        self.ctx, self.targets = ctx, dict(rule.refs) if rule is not None else {}
        self.tables: dict[str, dict[str, dict[str, Any]]] = {}

    def table(self, target: str) -> dict[str, dict[str, Any]]:
        """The rows of component `target` by id (localized once)."""
        if target not in self.tables:
            deck: LoadedDeck = self.ctx.kit.game
            self.tables[target] = {str(r.get("id")): r for r in _rows_in(self.ctx, deck.rows[target])}
        return self.tables[target]

    def lookup(self, fields: Mapping[str, Any], name: Any, where: str) -> dict[str, Any]:
        """The referenced row's fields (every field '' when the ref cell is empty); LayoutError otherwise."""
        target = self.targets.get(str(name))
        if target is None:
            declared = ", ".join(sorted(self.targets)) or "none"
            raise LayoutError(
                f"{where}({str(name)[:40]!r}): not a ref field; declare it in game.rules.<component>.refs "
                f"(declared: {declared})"
            )
        rows = self.table(target)
        value = fields.get(str(name))
        if value in (None, ""):
            return {col: "" for row in list(rows.values())[:1] for col in row}
        row = rows.get(str(value))
        if row is None:
            raise LayoutError(f"{where}({name!r}): {target} has no row with id {str(value)[:40]!r}")
        return row

    def helper(self, fields: Mapping[str, Any], where: str) -> Helper:
        """`ref(field)` bound to one row."""
        return Helper("ref", "ref('owner').name", lambda name: self.lookup(fields, name, where))


def compose_cards(ctx: Context, cid: str) -> Component:
    """Fronts (each row `count` times) and backs of a card component, imposed."""
    deck: LoadedDeck = ctx.kit.game
    spec = deck.spec
    comp = spec.decks[cid]
    size = ctx.kit.components[cid].trim_size()
    if size is None:
        raise LayoutError(
            f"{ctx.kit.display}: components.{cid}: a card component needs a size (poker, bridge, ...)"
        )
    w, h = size
    bleed = ctx.print.bleed
    draw = renderer(ctx)
    rows = deck.rows[cid]
    refs = Refs(ctx, cid)
    source = rows.table.source or "kit.yaml"
    fronts: list[Face] = []
    backs: list[Face] = []
    has_back = ctx.kit.components[cid].back
    shared: dict[tuple[Op, ...], Face] = {}
    captions: dict[str, tuple[str, str]] = {}
    back_names: set[str] = set()
    first_with: dict[tuple[Op, ...], tuple[str, str]] = {}  # per distinct back: the first row and template
    for fields, row, line in zip(_rows_in(ctx, rows), rows.rows, rows.lines, strict=True):
        n = copies(row)
        if n == 0:
            continue
        name, tpl = _template(spec, comp, fields, cid)
        where = f"{source}:{line} (id {fields.get('id')!s}, {ctx.lang}): game.templates.{name}"
        context = {**fields, "text_id": f"{source}:{line}", "ref": refs.helper(fields, f"{where}: ref")}
        front = draw.face(
            f"{fields.get('id')}", tpl.front or [], context, w, h, bleed, f"{where}.front", radius=tpl.radius
        )
        draw.charge(len(front.ops) * (n - 1), f"{where}.front (count {n})")  # every copy is drawn
        fronts += [front] * n
        captions[front.name] = _caption(front, fields)
        if has_back and tpl.back is not None:
            back = draw.face(
                f"{name}-back", tpl.back, context, w, h, bleed, f"{where}.back", radius=tpl.radius
            )
            # rows whose backs draw the same share one Face: exports rasterize a shared back once; a back that
            # draws differently (a per-row back) gets a name of its own, so exports tell the backs apart
            drawn = _drawn(back.ops)
            if drawn not in shared:
                if back.name in back_names:
                    back = replace(back, name=f"{name}-back-{fields.get('id')}")
                back_names.add(back.name)
            back = shared.setdefault(drawn, back)
            first_with.setdefault(drawn, (str(fields.get("id")), name))
            backs += [back] * n
    if has_back and backs and len(backs) != len(fronts):
        raise LayoutError(
            f"components.{cid}: some templates have a back and some do not; give every one a back"
        )
    if len(first_with) > 1 and spec.shuffled(cid):
        _warn_backs(ctx, cid, list(first_with.values()))
    title = ctx.texts(ctx.kit.components[cid].title)
    pages = impose_cards(cid, fronts, backs or None, ctx.print, ctx.paper, bookmark=title)
    return Component(cid, title, pages, captions)


def _warn_backs(ctx: Context, cid: str, firsts: list[tuple[str, str]]) -> None:
    """Warn that a shuffled pile prints more than one back (its rows' backs give the cards away), naming two
    rows whose backs differ and their templates; `backs: per_row` on the deck says its cards lie apart."""
    warn = getattr(ctx.texts, "warn", None)
    if warn is None:
        return
    (a, ta), (b, tb) = firsts[0], firsts[1]
    templates = f"template {ta!r}" if ta == tb else f"templates {ta!r} and {tb!r}"
    warn(
        str(
            ctx.kit.problem(
                f"game.decks.{cid}",
                f"{len(firsts)} different backs in one shuffled pile: the backs of {templates} differ "
                f"between rows {a!r} and {b!r}, so players can tell {a!r} from {b!r} face down; print one "
                "back for every row, or declare `backs: per_row` if the cards lie face up or apart",
            )
        )
    )


def _caption(front: Face, fields: Mapping[str, Any]) -> tuple[str, str]:
    """A card's name and description for exports: its `name` field (localized) or its id, and the words its
    front prints besides the name, in drawing order (the card's text as a player reads it)."""
    name = fields.get("name")
    caption = str(name) if name not in (None, "") else str(fields.get("id", ""))
    words = ""
    for line in _texts(front.ops):
        if line == caption:
            continue
        cjk = words and (ord(words[-1]) >= 0x2E80 or ord(line[0]) >= 0x2E80)
        words += line if not words or cjk else " " + line
    return caption, words


def _drawn(ops: tuple[Op, ...]) -> tuple[Op, ...]:
    """The ops as printed: less the catalog line each string came from, which differs row by row even where
    the ink does not."""
    return tuple(
        replace(op, text_id="")
        if isinstance(op, Text)
        else replace(op, ops=_drawn(op.ops))
        if isinstance(op, Place)
        else op
        for op in ops
    )


def _texts(ops: Iterable[Op]) -> Iterator[str]:
    for op in ops:
        if isinstance(op, Text) and op.text.strip():
            yield op.text.strip()
        elif isinstance(op, Place):
            yield from _texts(op.ops)


def compose_sheet(ctx: Context, cid: str) -> Component:
    """A sheet: the template's front sized to a slot of the page; its grid rows take the data rows."""
    deck: LoadedDeck = ctx.kit.game
    spec = deck.spec
    comp = spec.decks[cid]
    draw = renderer(ctx)
    table = _rows_in(ctx, deck.rows[cid])
    name, tpl = _template(spec, comp, {}, cid)

    def face(c: Context, w: float, h: float) -> Face:
        return draw.face(
            cid,
            tpl.front or [],
            {"rows": len(table)},
            w,
            h,
            0.0,
            f"components.{cid} ({c.lang}): game.templates.{name}.front",
            table,
        )

    return sheet_component(ctx, cid, face, landscape=False, per_page=1)


def compose(ctx: Context) -> Iterator[Component]:
    """Every enabled component, in the spec's order: cards or a sheet as game.decks declares each."""
    deck: LoadedDeck = ctx.kit.game
    decks = deck.spec.decks
    builders = {cid: compose_cards if d.kind == "cards" else compose_sheet for cid, d in decks.items()}
    return compose_components(ctx, builders, "game.decks")
