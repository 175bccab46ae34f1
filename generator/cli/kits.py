"""The commands about kits themselves: new (start one), serve (the live preview), list (kits, art slots,
games) and schema (kit.yaml's JSON Schema)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from generator.cli.base import command, fail
from generator.cli.options import (
    SERVE_MAX_CHECK_GAMES,
    Kits,
    PaperOption,
    at_least,
    bad,
    cores,
    kit_path,
    run_of,
)
from generator.cli.output import clean, console, count, say, say_wrapped
from generator.errors import KitError

if TYPE_CHECKING:
    from generator.newkit import NewKit


@command(summary="Start a kit: copy a shipped kit or a starter template")
def new(
    name: Annotated[
        Path,
        typer.Argument(
            metavar="NAME",
            help="the new kit's folder; its name becomes kit.id (lower-case letters, digits, _)",
        ),
    ],
    source: Annotated[
        str | None,
        typer.Option("--from", help="a shipped kit id (see `pnpkit list`) or a kit folder to copy"),
    ] = None,
    template: Annotated[
        str | None,
        typer.Option("--template", help="a starter kit instead: deck (a data kit: CSV + templates)"),
    ] = None,
) -> None:
    """Start a variant: copy a kit to NAME/ (kit.id and title text id renamed, comments kept, README stub),
    validate it and print the next commands. Never overwrites. `--template deck` starts a data kit instead."""
    import shutil

    from generator.newkit import new_kit
    from generator.pipeline import check_kits, load_kits, verify_layout

    made = new_kit(name, source, template=template)
    try:
        loaded = load_kits([made.folder])
        check_kits(loaded)
        verify_layout(loaded, workers=cores())
    except KitError as e:
        shutil.rmtree(made.folder, ignore_errors=True)  # a copy that does not validate is not left behind
        fail(
            f"{made.folder}: not created, the copy of {made.source} does not validate (nothing was "
            f"written):\n{e}"
        )
    _report_new(made)


def _report_new(made: NewKit) -> None:
    """What `new` made and the commands to try next."""
    say_wrapped(
        f"created {made.folder}/ from {made.source} (kit.id {made.kit_id}, title text id "
        f"{made.title_id}); it validates",
        2,
    )
    for f in made.files:
        say(f"  {f}")
    say("next:")
    for verb in ("serve", "validate", "check", "build"):
        say(f"  pnpkit {verb} {made.folder}")


@command(summary="Live preview in the browser, redrawn as the kit's files change")
def serve(
    kit: Annotated[Path, typer.Argument(metavar="KIT", help="the kit folder or shipped kit id to preview")],
    port: Annotated[int, typer.Option("--port", callback=at_least(1, 65535), help="TCP port")] = 8000,
    host: str = typer.Option("127.0.0.1", "--host", help="address to bind (default: this machine only)"),
    out: Annotated[Path, typer.Option("--out", help="output folder the preview builds into")] = Path(
        "output"
    ),
    lang: Annotated[
        str | None, typer.Option("--lang", help="language shown first (default: the kit's first)")
    ] = None,
    paper: PaperOption = None,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            callback=at_least(1, SERVE_MAX_CHECK_GAMES),
            help="games per setting the page's 'run check' button starts with",
        ),
    ] = 200,
) -> None:
    """Live preview in the browser: every component's pages, rebuilt incrementally when a file of the kit
    changes, validation errors inline, the balance verdicts with a 'run check' button."""
    try:
        from generator.serve import serve as run_server
    except ImportError as e:
        fail(f"pnpkit serve needs the 'serve' extra (pip install 'pnpkit[serve]'): {e}")
    folder = kit_path(kit)
    from generator.spec.kit import LANGUAGE_TAG, kits_inside, language_tag

    if not (folder / "kit.yaml").is_file():
        fail(f"{folder}: no kit.yaml in this folder{kits_inside(folder, one=True)}")

    lang = None if lang is None else language_tag(lang)
    if lang is not None and not LANGUAGE_TAG.fullmatch(lang):
        raise bad(f"--lang: expected a language such as en, de or pt_BR; got {lang!r}")
    run_server(folder, out=out, host=host, port=port, lang=lang, paper=paper, check_games=games)


@command("list", summary="Show kits (languages, components, art slots) and games")
def list_kits(
    kits: Kits = None,
    slots: Annotated[
        bool,
        typer.Option(
            "--slots",
            help="also every art slot of the kits' components, with its box in mm (`list --slots KIT` as "
            "before)",
        ),
    ] = False,
) -> None:
    """Each kit's game, languages, components and folder (your own kit folders too); with --slots, every art
    slot you can fill in kit.yaml. Without KIT: the shipped kits and every registered game (built in or a
    plugin)."""
    from generator.pipeline import load_run

    for k in load_run(run_of(kits)).kits:
        enabled = [c for c, s in k.components.items() if s.enabled]
        say_wrapped(f"{k.meta.id}: {_title(k)}a {k.game_id} kit in {', '.join(k.meta.languages)}", indent=4)
        say_wrapped(f"  {count(len(enabled), 'component')}: {', '.join(enabled)}", indent=4)
        say(f"  folder: {k.dir}")  # a path is never wrapped or cut: it is copied
        if slots:
            _list_slots(k)
    if not kits:
        _list_games()


def _title(kit: Any) -> str:
    """ "Harvest Hands, " -- the kit's title as its first language's catalog writes it, when that is plain
    text (a template is not rendered here), else ""."""
    catalog = kit.catalogs.get(kit.meta.languages[0]) if kit.meta.languages else None
    title = catalog.messages.get(kit.meta.title, "") if catalog is not None else ""
    plain = title.strip() and "{" not in title and "\n" not in title and len(title) <= 60
    return f"{clean(title.strip())}, " if plain else ""


def _list_games() -> None:
    """Every registered game (built in or a plugin), as a table."""
    from rich.table import Table

    from generator.contract import BUILTIN, games

    known = Table(title="registered games (game.kind)")
    for col in ("game", "name", "ruleset", "from"):
        known.add_column(col)
    for gid, plugin in games().items():
        known.add_row(
            gid,
            plugin.name or gid,
            plugin.ruleset,
            "built in" if gid in BUILTIN else f"plugin ({plugin.source})",
        )
    console().print(known)


def _list_slots(kit: Any) -> None:
    """The art slots of one kit, a few short lines each (readable at 80 columns)."""
    from generator.contract.compose import slot_rows

    _list_icons(kit)
    rows = slot_rows(kit)
    if not rows:
        say("  art slots: none")
        return
    say("  art slots (kit.yaml: components.<component>.art.<slot>):")
    for cid, name, face, w, h, fields, what, filled in rows:
        say_wrapped(
            f"    {cid}.{name} ({face}, {w:.1f} x {h:.1f} mm{'; fields ' + fields if fields else ''})",
            indent=8,
        )
        say_wrapped(f"        {what}", indent=8)
        if filled:
            say(f"        filled with {filled}")


def _list_icons(kit: Any) -> None:
    """The inline icons a text of the kit may name as :name: -- the kit's own (style.icons) and the built-in
    symbols -- a few short lines (readable at 80 columns)."""
    from generator.layout.shapes import SYMBOLS
    from generator.spec.assets import icon_path

    own = sorted(kit.icons)
    if own:
        say("  inline icons (kit.yaml: style.icons; in a text :name:):")
        for name in own:
            replaces = "; replaces the built-in symbol" if name in SYMBOLS else ""
            say_wrapped(f"    :{name}: {icon_path(name)}{replaces}", indent=8)
    else:
        say("  inline icons (kit.yaml: style.icons): none")
    say_wrapped("    built in: " + " ".join(f":{n}:" for n in SYMBOLS if n not in own), indent=6)


@command(summary="Print the JSON Schema of kit.yaml for editor completion")
def schema(
    game: Annotated[str | None, typer.Option("--game", help="print only this game's section schema")] = None,
) -> None:
    """Print the JSON Schema of a kit spec (kit.yaml) for editor completion."""
    from generator.contract.schema import kit_schema

    console().print_json(json.dumps(kit_schema(game)))
