"""The check phase: static legality of loaded kits (the game's own checks, known components, catalogs that
parse as templates), translation fallbacks, the print checks on a component's art and the glyphs of composed
pages the font lacks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from generator.contract import registry
from generator.errors import Problem, RenderError, SpecError
from generator.pipeline.load import with_tool_catalogs

if TYPE_CHECKING:
    from generator.buildkeys import Memo
    from generator.layout.compose import Component
    from generator.pipeline.compose import Planned
    from generator.spec.catalogs import Catalog
    from generator.spec.kit import Kit


def check_kit(kit: Kit, *, memo: Memo | None = None) -> list[Problem]:
    """Static legality: the game's own checks, known components, the palette's colour-vision safety, catalogs
    that parse as templates and speak to the players in one form of address. With a build's `memo`, the colour
    and template checks the last build passed on the same palette or the same strings are not run again (each
    is a pure function of what it checks)."""
    problems: list[Problem] = []
    for key, message in registry.get(kit.game_id).load.legal_problems()(kit.game):
        problems.append(kit.problem(f"game.{key}" if key else "game", message))
    known = registry.get(kit.game_id).load.component_ids(kit.game)
    en = kit.catalogs["en"].messages
    for cid, comp in kit.components.items():
        if cid not in known:
            problems.append(
                kit.problem(f"components.{cid}", f"expected one of {', '.join(known)}; got {cid!r}")
            )
        if comp.title not in en:
            problems.append(
                kit.problem(
                    f"components.{cid}.title", f"text id {comp.title!r} is not in the English catalog"
                )
            )
    if kit.meta.title not in en:
        problems.append(kit.problem("kit.title", f"text id {kit.meta.title!r} is not in the English catalog"))
    problems += _colour_problems(kit, memo)
    env = None
    for cat in kit.catalogs.values():
        texts = sorted(set(cat.messages.values()))
        if memo is not None and memo.passed("templates", texts):
            continue
        from generator.i18n.sandbox import CatalogEnvironment, template_problem

        env = env or CatalogEnvironment()
        found = [
            Problem(cat.path, cat.lines.get(tid), tid, problem)
            for tid, text in cat.messages.items()
            if (problem := template_problem(env, text))
        ]
        if memo is not None and not found:
            memo.note_passed("templates", texts)
        problems += found
    from generator.i18n.voice import address_problems

    for cat in kit.catalogs.values():
        problems += address_problems(cat)
    return problems


def _colour_problems(kit: Kit, memo: Memo | None) -> list[Problem]:
    """`colour_problems`, skipped when the last build passed the same palette and threshold (the simulations
    and colour science libraries are then not even imported)."""
    from generator.spec.colours import colour_problems, palette

    key, swatches = palette(kit.section)
    inputs = [key, [[s.id, s.hex, s.mark] for s in swatches], kit.style.colour_safety.min_delta_e]
    if memo is not None and memo.passed("colours", inputs):
        return []
    found = colour_problems(kit)
    if memo is not None and not found:
        memo.note_passed("colours", inputs)
    return found


def check_kits(kits: Sequence[Kit], *, memo: Memo | None = None) -> None:
    """Raise one SpecError with every static problem of every kit."""
    problems = [p for k in kits for p in check_kit(k, memo=memo)]
    if problems:
        raise SpecError(problems)


def translation_warnings(kit: Kit) -> list[str]:
    """One line per language whose catalog lacks English ids (they fall back to English), and one per catalog
    string holding a lone `{name}` placeholder (it prints as written; values go in as `{{ name }}`)."""
    from generator.i18n.texts import missing_ids
    from generator.spec.catalogs import lone_placeholders

    return [
        f"{kit.catalogs[lang].path}: {len(ids)} text ids fall back to English: {', '.join(ids[:5])}"
        f"{' ...' if len(ids) > 5 else ''}"
        for lang, ids in missing_ids(kit.catalogs).items()
        if ids
    ] + [w for lang in sorted(kit.catalogs) for w in lone_placeholders(kit.catalogs[lang])]


def check_art(kit: Kit, comp: Component, warn: Callable[[str], None]) -> None:
    """The print checks on a component's art (resolution, bleed coverage, an opaque bleed band; then the
    contrast of what is drawn over it): warnings heard, errors raised. A data kit's art is drawn by its
    templates' image and icon elements (no `art:` section), checked the same way."""
    from generator.layout.art import art_problems
    from generator.layout.ops import iter_art

    if not any(iter_art(page.ops) for page in comp.pages):
        return  # no picture: nothing to judge, and a rebuild of a component without art loads no numpy
    from generator.render.contrast import vector_bands

    errors = []
    found = art_problems(comp.pages, kit.print.art_dpi_warn, kit.print.art_dpi_min)
    found += [(slot, message, True) for slot, message in vector_bands(comp.pages)]
    for slot, message, is_error in found:
        if kit.art is None:  # the art of a template element, located at the component's data and template
            problem = kit.problem(f"game.decks.{comp.id}.template", f"an {slot} element draws {message}")
        else:
            problem = kit.problem(f"components.{comp.id}.art.{slot}", message)
        if is_error:
            errors.append(problem)
        else:
            warn(str(problem))
    if errors:
        raise SpecError(errors)
    check_contrast(kit, comp, warn)


def check_contrast(kit: Kit, comp: Component, warn: Callable[[str], None]) -> None:
    """Strings and icons drawn over the kit's art that keep too little contrast against the rendered pixels
    under them (render/contrast.py): a warning each, located at the art's slot."""
    from generator.render.contrast import art_contrast
    from generator.render.fonts import kit_measure, text_width

    measure = kit_measure(kit.fonts) if kit.fonts is not None else text_width
    for low in art_contrast([comp], measure, kit.fonts):
        key = (
            f"components.{comp.id}.art.{low.slot}"
            if kit.art is not None
            else f"game.decks.{comp.id}.template"
        )
        warn(str(kit.problem(key, low.message())))


def check_layout(
    kit: Kit,
    lang: str,
    components: Sequence[Component],
    measure: Callable[[str, str, float], float],
    catalog: Catalog | None,
) -> None:
    """The layout checks of composed components, before anything is written: every text fits its box, no text
    is below the kit's minimum size, small text keeps its contrast, nothing collides. Raises a located
    LayoutError on the first that fails."""
    from generator.layout.collide import check_collisions
    from generator.layout.legibility import check_contrast as check_small_text_contrast
    from generator.layout.legibility import check_min_sizes
    from generator.layout.textfit import check_one_line_texts, check_text_fit
    from generator.render.fonts import ink_extent

    check_one_line_texts(components, kit.display, catalog, lang)
    check_text_fit(components, measure, kit.display, catalog, lang)
    check_min_sizes(components, kit.style.min_size, kit.display, catalog, lang)
    check_small_text_contrast(components, measure, kit.style.min_contrast, kit.display, catalog, lang)
    check_collisions(
        components,
        measure,
        kit.display,
        catalog,
        lang,
        ink_extent,
        kit.style.safe_margin,
        locate=lambda key, message: str(kit.problem(key, message)),
    )


def glyph_problems(kits: Sequence[Kit], planned: Sequence[Planned]) -> list[Problem]:
    """Every printed text whose characters the font lacks, or whose script its face cannot shape, located at
    its catalog line (by text id)."""
    from generator.layout.ops import iter_texts
    from generator.render.fonts import font_names, missing_glyphs, shaping_problem

    catalogs = {(k.meta.id, lang): cat for k in kits for lang, cat in with_tool_catalogs(k).items()}
    fonts = {k.meta.id: k.fonts for k in kits}
    problems: dict[tuple[str, str], Problem] = {}
    for p in planned:
        folder = (
            p.path.parent.parent if p.path.parent.name == ".pnpkit" else p.path.parent
        )  # OUT/<kit>/<lang>/
        kit_id = folder.parent.name
        for page in p.pages:
            for t in iter_texts(page.ops):
                kit_fonts = fonts.get(kit_id)
                missing = missing_glyphs(t.text, t.font, kit_fonts, t.size, t.role)
                unshapable = "" if missing else shaping_problem(t.text, t.font, kit_fonts, t.size, t.role)
                if not missing and not unshapable:
                    continue
                codes = ", ".join(f"U+{ord(c):04X} {c!r}" for c in sorted(set(missing)))
                cat = catalogs.get((kit_id, p.lang))
                if cat is not None and t.text_id and t.text_id not in cat.messages:
                    cat = catalogs.get((kit_id, "en"))
                if unshapable:
                    where = (
                        (cat.path, cat.lines.get(t.text_id), t.text_id)
                        if cat is not None and t.text_id in cat.messages
                        else (str(p.path.relative_to(p.path.parents[2])), None, t.text_id or "")
                    )
                    problems.setdefault(
                        (where[0], t.text_id or t.text),
                        Problem(*where, f"text {t.text[:40]!r} (language {p.lang}): {unshapable}"),
                    )
                elif cat is not None and t.text_id in cat.messages:
                    key = (cat.path, t.text_id)
                    problems.setdefault(
                        key,
                        Problem(
                            cat.path,
                            cat.lines.get(t.text_id),
                            t.text_id,
                            f"characters missing from the font "
                            f"({font_names(kit_fonts, t.text, t.font, t.size, t.role)}, "
                            f"{t.font}, language {p.lang}): {codes}",
                        ),
                    )
                else:
                    shown = repr(t.text[:40])
                    problems.setdefault(
                        (str(p.path), t.text),
                        Problem(
                            str(p.path.relative_to(p.path.parents[2])),
                            None,
                            t.text_id or "",
                            f"text {shown}: characters missing from the font: {codes}",
                        ),
                    )
    return list(problems.values())


def raise_glyph_problems(kits: Sequence[Kit], planned: Sequence[Planned]) -> None:
    """A RenderError (as before: missing glyphs are a rendering failure) listing every located glyph
    problem."""
    problems = glyph_problems(kits, planned)
    if problems:
        raise RenderError(str(SpecError(problems)))


__all__ = [
    "check_art",
    "check_kit",
    "check_layout",
    "check_kits",
    "glyph_problems",
    "raise_glyph_problems",
    "translation_warnings",
]
