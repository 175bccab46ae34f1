"""The rules summary every kit prints: a title band, sections of localized rule text set at the largest
size at which everything fits, and the kit's version. Games add their own pictures between sections.

The body never shrinks below the kit's body floor (`style.min_size.body`): a summary that does not fit one
face at the floor flows onto further faces, cut before a section heading (a section is never split), each face
with the title band and a '1/2' count beside the footer."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from contextvars import ContextVar

from generator.errors import LayoutError
from generator.layout.compose import Context
from generator.layout.geometry import art_box, drawn
from generator.layout.linebreak import is_cjk
from generator.layout.ops import Face, Image, Op, Place, Rect, Text, Vector
from generator.layout.rich import fit_rich, is_rich, kit_x_height, parse_rich, rich_ops
from generator.layout.text import UnprintableTextError, block_ops, fit_block, fit_line
from generator.units import mm

Body = Callable[[Context, float, float, float, float], tuple[list[Op], float]]
"""(ctx, x, top, width, size) -> (ops, y below the last line)."""

LEADING = 1.3
"""A rules paragraph's line height as a fraction of its size."""
TIGHT_LEADING = 1.2
"""The line height tried, at the sizes that did not fit, before a summary flows onto a second face."""
TIGHT_GAP = 0.6
"""With TIGHT_LEADING, the gap after a section shrinks by this factor too."""
_LEADING: ContextVar[float] = ContextVar("rules_leading", default=LEADING)

HEADING_GAP = 1.45
"""Distance from a heading's baseline to its paragraph's top, as a fraction of the heading size."""
TIGHT_HEADING_GAP = 1.3
"""HEADING_GAP with TIGHT_LEADING."""


def heading_size(ctx: Context, size: float) -> float:
    """A section heading's size for body `size`: 12 % larger, never under the heading floor."""
    return max(size * 1.12, ctx.kit.style.min_size.heading)


def section(
    ctx: Context,
    head_id: str,
    body_id: str | Sequence[str],
    x: float,
    y: float,
    width: float,
    size: float,
    colour: str,
    *,
    gap: float = 0.6,
) -> tuple[list[Op], float]:
    """A bold heading and its wrapped paragraph (several catalog sentences run on as one); returns the ops and
    the y under them."""
    hs = heading_size(ctx, size)
    ops: list[Op] = [
        Text(x, y - hs, ctx.texts(head_id), hs, font="bold", fill=colour, text_id=head_id, role="heading")
    ]
    tight = _LEADING.get() < LEADING
    y -= hs * (TIGHT_HEADING_GAP if tight else HEADING_GAP)
    ids = [body_id] if isinstance(body_id, str) else list(body_id)
    body, height = sentences(ctx, ids, x, y, width, size)
    return ops + body, y - height - size * gap * (TIGHT_GAP if tight else 1.0)


def run_in(texts: Sequence[str]) -> str:
    """Sentences set as one paragraph: after a sentence that ends in Japanese (「。」) the next follows with
    no space, after any other with one space."""
    out = ""
    for text in texts:
        if out and text:
            out += "" if is_cjk(out[-1]) else " "
        out += text
    return out


def sentences(
    ctx: Context,
    text_ids: Sequence[str],
    x: float,
    top: float,
    width: float,
    size: float,
    colour: str = "ink",
    *,
    bullet: str = "",
) -> tuple[list[Op], float]:
    """The catalog sentences `text_ids` flowing as one paragraph (a house rule's further sentences run on
    after the first instead of starting lines of their own); the ops carry the ids joined by '+'. Each
    sentence's markup is read on its own first, so a problem names its own id and text."""
    texts = [ctx.texts(t) for t in text_ids]
    if len(text_ids) > 1:
        for tid, text in zip(text_ids, texts, strict=True):
            if is_rich(text):
                parse_rich(text, f"{tid} ({ctx.lang})", icons=ctx.kit.icons, x_height=kit_x_height(ctx.kit))
    return paragraph(ctx, "+".join(text_ids), run_in(texts), x, top, width, size, colour, bullet=bullet)


def paragraph(
    ctx: Context,
    text_id: str,
    text: str,
    x: float,
    top: float,
    width: float,
    size: float,
    colour: str = "ink",
    *,
    bullet: str = "",
) -> tuple[list[Op], float]:
    """A wrapped rules paragraph (`bullet` before its first word) whose first line's top is `top`, at exactly
    `size`: rich text (`**bold**`, `:icon:`, colour spans; see docs/text.md) when it uses markup, else plain;
    numbered steps written inline ("1. ... 2. ...") as a list, each step starting a line, its lines hanging
    after the number. Returns the ops and its height. A markup problem is an UnprintableTextError quoting
    `text` as the catalog gave it (the build locates it at the string's catalog line)."""
    where = f"{text_id} ({ctx.lang})"
    items = [] if bullet else numbered_steps(text)
    if items:
        return _steps(ctx, text_id, items, x, top, width, size, colour)
    leading = _LEADING.get()
    try:
        if is_rich(text):
            block = fit_rich(
                parse_rich(bullet + text, where, icons=ctx.kit.icons, x_height=kit_x_height(ctx.kit)),
                "regular",
                width,
                10_000,
                ctx.measure,
                size=size,
                min_size=size,
                leading=leading,
                where=where,
                lang=ctx.lang,
            )
            ops = rich_ops(block, x, top, ctx.measure, fill=colour, text_id=text_id, icons=ctx.kit.icons)
            return ops, block.height
        fitted = fit_block(
            bullet + text,
            "regular",
            width,
            10_000,
            ctx.measure,
            size=size,
            min_size=size,
            leading=leading,
            where=where,
            lang=ctx.lang,
        )
    except UnprintableTextError as e:
        if not bullet:
            raise
        raise UnprintableTextError(where, text, e.problem) from None
    return list(block_ops(fitted, x, top, fill=colour, text_id=text_id)), fitted.height


_STEP = re.compile(r"(?:^|(?<=\s)|(?<=[。．」）]))(\d{1,2})\. ")


def numbered_steps(text: str) -> list[tuple[str, str]]:
    """`text` cut into its numbered steps when it is written "1. ... 2. ..." inline (numbers counting from 1,
    at least two steps, each step's markup whole): (number label, step text); else []."""
    marks = list(_STEP.finditer(text))
    if len(marks) < 2 or marks[0].start() != 0 or text.count("\n"):
        return []
    if [int(m.group(1)) for m in marks] != list(range(1, len(marks) + 1)):
        return []
    items = []
    for m, nxt in zip(marks, [*marks[1:], None], strict=True):
        body = text[m.end() : nxt.start() if nxt else len(text)].strip()
        if not body or (is_rich(text) and not _whole_markup(body)):
            return []
        items.append((f"{m.group(1)}.", body))
    return items


def _whole_markup(text: str) -> bool:
    try:
        parse_rich(text, "step")
    except LayoutError:
        return False
    return True


def _steps(
    ctx: Context,
    text_id: str,
    items: list[tuple[str, str]],
    x: float,
    top: float,
    width: float,
    size: float,
    colour: str,
) -> tuple[list[Op], float]:
    """Numbered steps as a list: each number at `x`, its step wrapped beside it (lines hanging at the widest
    number), one step after the other."""
    indent = max(ctx.measure(label, "regular", size) for label, _ in items) + size * 0.45
    ops: list[Op] = []
    y = top
    for label, body in items:
        ops.append(Text(x, y - size, label, size, fill=colour, text_id=text_id))
        drawn_ops, height = paragraph(ctx, text_id, body, x + indent, y, width - indent, size, colour)
        ops += drawn_ops
        y -= height
    return ops, top - y


def _frame(
    ctx: Context, w: float, h: float, band: str, pad: float, logo: Op | None
) -> tuple[list[Op], float]:
    """The white face, the title band (title, subtitle; a `logo`, the kit's art.logo op, takes the title's
    place); returns the ops and the body's top."""
    t = ctx.texts
    ops: list[Op] = [Rect(0, 0, w, h, fill="#ffffff", stroke="muted", width=0.4)]
    title = t(ctx.kit.meta.title)
    ts = fit_line(
        title, "bold", w * 0.55, ctx.measure, size=mm(7), min_size=9, where=f"rules title ({ctx.lang})"
    )
    ops.append(Rect(0, h - pad - ts * 1.4, w, ts * 1.4 + pad, fill=band, stroke=None))
    ops.append(
        logo
        if logo is not None
        else Text(
            pad,
            h - pad - ts * 0.95,
            title,
            ts,
            font="bold",
            fill="#ffffff",
            text_id=ctx.kit.meta.title,
            role="heading",
        )
    )
    if t.has("rules.subtitle"):
        sub = t("rules.subtitle")
        # what the title (or the logo in its place, where its art lands) leaves of the band
        taken = (
            art_box(logo)[2] - pad if isinstance(logo, (Image, Vector)) else ctx.measure(title, "bold", ts)
        )
        room = w - 2 * pad - taken - mm(6)
        ss = fit_line(
            sub,
            "regular",
            room,
            ctx.measure,
            size=mm(3),
            min_size=ctx.kit.style.min_size.fine,
            where=f"rules.subtitle ({ctx.lang})",
        )
        ops.append(
            Text(
                w - pad,
                h - pad - ts * 0.95,
                sub,
                ss,
                fill="#ffffff",
                anchor="end",
                text_id="rules.subtitle",
                role="fine",
            )
        )
    return ops, h - pad - ts * 1.4 - mm(4.5)


def _footer(ctx: Context, w: float, pad: float, part: int, parts: int) -> Text:
    # the footer names the game as the reader knows it (the localized title), not the kit's internal id
    label = f"{ctx.texts(ctx.kit.meta.title)} v{ctx.kit.meta.version}" + (
        f" · {part}/{parts}" if parts > 1 else ""
    )
    return Text(
        w - pad, mm(3.5), label, mm(2.2), fill="muted", anchor="end", text_id=ctx.kit.meta.title, role="fine"
    )


def _union(op: Op, ctx: Context) -> tuple[float, float, float, float]:
    boxes = [d.box for d in drawn([op], ctx.measure)] or [(0.0, 0.0, 0.0, 0.0)]
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _cuts(ops: Sequence[Op], ctx: Context) -> list[float]:
    """Where the body may be cut: the top of each section heading (nothing straddles it), highest first."""
    items = drawn(ops, ctx.measure)
    tops = [d.box[3] for d in items if isinstance(d.op, Text) and d.op.role == "heading"]
    return sorted(
        (c for c in tops if not any(d.box[1] < c - 0.01 and d.box[3] > c + 0.01 for d in items)), reverse=True
    )


def summary_faces(
    ctx: Context,
    w: float,
    h: float,
    body: Body,
    *,
    band: str,
    pad: float = mm(6.5),
    size: float = mm(3.6),
    bottom: float = mm(9),
    logo: Op | None = None,
) -> list[Face]:
    """The summary as one face, the body at the largest size (in 0.25 pt steps) that ends above `bottom`, its
    paragraphs' lines LEADING apart, else TIGHT_LEADING apart (sections TIGHT_GAP closer); when even the body
    floor does not fit, the body at the floor flows onto as many faces as it needs."""
    floor = ctx.kit.style.min_size.body
    frame, top = _frame(ctx, w, h, band, pad, logo)
    for leading in (LEADING, TIGHT_LEADING):
        token = _LEADING.set(leading)
        try:
            sizes = [size - 0.25 * k for k in range(int((size - floor) / 0.25) + 1)]
            for s in [*sizes, floor] if sizes[-1] > floor else sizes:
                drawn_ops, y = body(ctx, pad, top, w - 2 * pad, s)
                if y >= bottom:
                    return [Face("rules", w, h, tuple(frame + drawn_ops + [_footer(ctx, w, pad, 1, 1)]), 0.0)]
        finally:
            _LEADING.reset(token)
    # flow: cut before the lowest heading whose section still ends above `bottom`, move the rest up, repeat
    drawn_ops, _ = body(ctx, pad, top, w - 2 * pad, floor)
    boxes = [_union(op, ctx) for op in drawn_ops]
    heads = _cuts(drawn_ops, ctx)
    pieces: list[list[Op]] = []
    rest = list(zip(drawn_ops, boxes, strict=True))
    shift = 0.0  # how far up the ops of the current face are moved
    while rest:
        if min(b[1] for _, b in rest) + shift >= bottom:
            cut = None
        else:
            fitting = [
                c
                for c in heads
                if c + shift < top - 1
                and all(b[1] + shift >= bottom for _, b in rest if b[3] > c)
                and any(b[3] <= c for _, b in rest)
            ]
            if not fitting:
                below = [
                    (b[3], op.text_id) for op, b in rest if isinstance(op, Text) and op.role == "heading"
                ]
                name = max(below)[1] if below else "(the first section)"
                raise LayoutError(
                    f"rules summary ({ctx.lang}): section {name} does not fit one face even at the body "
                    f"floor {floor:g} pt (style.min_size.body); shorten it or give the component more room"
                )
            cut = min(fitting)
        here = [op for op, b in rest if cut is None or b[3] > cut]
        pieces.append(here if not shift else [Place(0, shift, tuple(here))])
        if cut is None:
            break
        rest = [(op, b) for op, b in rest if b[3] <= cut]
        shift = top - cut
    faces = []
    for i, piece in enumerate(pieces, 1):
        faces.append(
            Face(f"rules-{i}", w, h, tuple(frame + piece + [_footer(ctx, w, pad, i, len(pieces))]), 0.0)
        )
    return faces


def summary_face(
    ctx: Context,
    w: float,
    h: float,
    body: Body,
    *,
    band: str,
    pad: float = mm(6.5),
    size: float = mm(3.6),
    bottom: float = mm(9),
    logo: Op | None = None,
) -> Face:
    """The summary when it fits one face at or above the body floor (else a LayoutError: use
    summary_faces)."""
    faces = summary_faces(ctx, w, h, body, band=band, pad=pad, size=size, bottom=bottom, logo=logo)
    if len(faces) > 1:
        raise LayoutError(f"rules summary ({ctx.lang}) needs {len(faces)} faces at the body floor")
    return faces[0]
