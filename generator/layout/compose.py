"""Composing a kit: every component of every language as pages of ops, before anything is written."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from generator.errors import LayoutError
from generator.i18n.texts import Texts
from generator.layout.imposition import impose_sheets, sheet_slot
from generator.layout.ops import Face, Page
from generator.layout.text import Measure
from generator.spec.kit import Kit
from generator.spec.print import PrintSpec


@dataclass(frozen=True)
class Component:
    """A composed component: id, localized title and its pages (the first carries the bookmark)."""

    id: str
    title: str
    pages: list[Page]
    captions: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Face name -> (name, description) of a card for exports that label cards (Tabletop Simulator's
    nickname and description); a face without one is labelled by its id."""


@dataclass(frozen=True)
class Context:
    """What a composer gets: the kit, one language's texts, text metrics, paper and seed."""

    kit: Kit
    lang: str
    texts: Texts
    measure: Measure
    paper: str
    seed: int
    print: PrintSpec
    extras: Mapping[str, Any] = field(default_factory=dict)
    """Precomputed, language-independent data (generated decks, variants) shared across languages."""
    only: frozenset[str] | None = None
    """Compose only these component ids (an incremental build keeps the others' files); None = all."""


@runtime_checkable
class Composer(Protocol):
    """What a game's composer (its layout module) offers the build: the module a GamePlugin's `composer`
    string names (generator/contract/); `generator.contract.api_test` checks each game's against it."""

    def component_ids(self) -> tuple[str, ...]:
        """The components this composer can draw (the ids kit.yaml's `components:` may list)."""
        ...

    def template_context(self, game: Any, extras: Mapping[str, Any] | None = None, /) -> Mapping[str, Any]:
        """Every number rule text may use (`{{ target }}` in a catalog entry), from the game section and the
        print data."""
        ...

    def compose(self, ctx: Context, /) -> Iterable[Component]:
        """Every enabled component of the kit in one language, in the spec's order."""
        ...


Builder = Callable[[Context, str], Component]


def figures_of(game_id: str) -> Callable[[Mapping[str, Any] | None], Mapping[str, Any]]:
    """A game's reader of the rule figures its rules package computed (`print_data()["figures"]`, which the
    build passes in the extras): the layout restates no rule. A missing figures table is a LayoutError."""

    def figures(extras: Mapping[str, Any] | None) -> Mapping[str, Any]:
        if not extras or "figures" not in extras:
            raise LayoutError(
                f"{game_id}: the rules figures are missing (the build passes print_data()['figures'])"
            )
        found: Mapping[str, Any] = extras["figures"]
        return found

    return figures


def compose_components(ctx: Context, builders: Mapping[str, Builder], game_name: str) -> Iterator[Component]:
    """Every enabled component of the kit, in the spec's order, drawn by the game's builder for its id."""
    for cid, comp in ctx.kit.components.items():
        if not comp.enabled or (ctx.only is not None and cid not in ctx.only):
            continue
        if cid not in builders:
            raise LayoutError(
                f"{ctx.kit.display}: components.{cid}: {game_name} has no such component; "
                f"expected one of {', '.join(builders)}"
            )
        yield builders[cid](ctx, cid)


@dataclass(frozen=True)
class Builders:
    """A game's builders by component id (in the order `component_ids` lists them) and the game's name for the
    error on an id it cannot draw. A game's layout module declares its builders and binds two of the Composer
    methods from one of these: `compose = BUILDERS.compose`, `component_ids = BUILDERS.component_ids`
    (`template_context(game, extras)` stays the game's own)."""

    game_name: str
    builders: Mapping[str, Builder]

    def compose(self, ctx: Context) -> Iterator[Component]:
        """Every enabled component, in the spec's order."""
        return compose_components(ctx, self.builders, self.game_name)

    def component_ids(self) -> tuple[str, ...]:
        """The components this composer can draw."""
        return tuple(self.builders)


FaceMaker = Callable[[Context, float, float], "Face | list[Face]"]
"""(ctx, width, height) -> the face, or the faces of a summary that flows onto more than one."""


def summary_sheet(make_face: FaceMaker) -> Builder:
    """The builder of a rules summary sheet: `make_face` sized to a slot of the page (per_page per page,
    default 2, landscape unless the component says otherwise), one page per copy the component asks for."""

    def build(ctx: Context, cid: str) -> Component:
        return sheet_component(ctx, cid, make_face)

    return build


def sheet_component(
    ctx: Context,
    cid: str,
    make_face: FaceMaker,
    *,
    count: int | None = None,
    landscape: bool = True,
    per_page: int = 2,
) -> Component:
    """A component of identical large faces (rules summaries, player boards): the face is sized to a slot of
    the page (component per_page / landscape override the defaults given here) and repeated `count` times
    (default: one page's worth per copy)."""
    comp = ctx.kit.components[cid]
    n_page = comp.per_page or per_page
    land = landscape if comp.landscape is None else comp.landscape
    w, h = sheet_slot(ctx.paper, n_page, land, ctx.print)
    made = make_face(ctx, w, h)
    parts = [made] if isinstance(made, Face) else list(made)
    title = ctx.texts(comp.title)
    wanted = count if count is not None else n_page * comp.copies
    # a face that flowed onto several prints all its parts for each copy (rather than the same part twice)
    faces = parts * max(1, wanted // len(parts)) if len(parts) > 1 else parts * wanted
    return Component(
        cid,
        title,
        impose_sheets(cid, faces, ctx.print, ctx.paper, per_page=n_page, landscape=land, bookmark=title),
    )
