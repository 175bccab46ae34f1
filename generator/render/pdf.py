"""Pages of drawing ops -> one PDF (ReportLab, invariant, fonts embedded and subset), written atomically."""

from __future__ import annotations

import io
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from generator.errors import RenderError
from generator.layout import ops as _ops
from generator.layout.ops import (
    INKS,
    ITALIC_SLANT,
    Circle,
    Image,
    Line,
    Op,
    Page,
    Place,
    Polygon,
    Rect,
    Text,
    Vector,
    fitted,
)
from generator.render.fonts import (
    FONT_NAMES,
    _codes,
    check_glyphs,
    font_name,
    oblique_faces,
    register_fonts,
    register_kit_fonts,
    shaped_line,
    text_runs,
)
from generator.render.shaping import ShapedLine, pdf_string
from generator.resources import atomic_write
from generator.spec.colours import to_grey
from generator.spec.fonts import KitFonts

PathOp = _ops.Path
_NO_DASH: tuple[float, ...] = ()


@lru_cache(maxsize=256)
def rgb(colour: str) -> tuple[float, float, float]:
    """'#rrggbb' or a named ink (ops.INKS) -> r, g, b in 0..1."""
    value = INKS.get(colour, colour)
    if len(value) == 7 and value[0] == "#":
        try:
            n = int(value[1:], 16)
        except ValueError:
            n = -1
        if n >= 0:
            return ((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255
    raise RenderError(f"unknown colour {colour!r}; expected '#rrggbb' or one of {', '.join(INKS)}")


@lru_cache(maxsize=1024)
def grey_rgb(colour: str) -> tuple[float, float, float]:
    """The neutral grey of `colour`'s CIE L* (what `build --greyscale` prints): lightness, hence contrast
    with the paper and with black, is kept; the hue goes (symbols and patterns carry the suit)."""
    r, g, b = rgb(colour)
    v = to_grey((round(r * 255), round(g * 255), round(b * 255))) / 255
    return v, v, v


class _Painter:
    """Draws ops on a canvas, skipping colour/width/dash/font changes that would not change anything."""

    def __init__(self, canvas: Canvas, fonts: KitFonts | None = None, greyscale: bool = False):
        self.c = canvas
        self.fonts = fonts
        self.greyscale = greyscale
        self.ink = grey_rgb if greyscale else rgb
        self.fill: str | None = None
        self.stroke: str | None = None
        self.width: float = -1.0
        self.dash: tuple[float, ...] = _NO_DASH
        self.font: tuple[str, float] | None = None
        self.stack: list[
            tuple[str | None, str | None, float, tuple[float, ...], tuple[str, float] | None]
        ] = []
        self.forms: dict[int, tuple[str, bool]] | None = None
        self.vectors: dict[tuple[str, str | None], str] = {}
        self.vector_art: dict[
            str, str
        ] = {}  # form name -> "art <slot> (<file>)", for PDF/A findings inside it

    def reset(self) -> None:
        """Forget the state at the start of a page (ReportLab starts every page afresh)."""
        self.fill = self.stroke = None
        self.width = -1.0
        self.dash = _NO_DASH
        self.font = None
        self.stack.clear()

    def push(self) -> None:
        self.c.saveState()
        self.stack.append((self.fill, self.stroke, self.width, self.dash, self.font))

    def pop(self) -> None:
        self.c.restoreState()
        self.fill, self.stroke, self.width, self.dash, self.font = self.stack.pop()

    def set_fill(self, colour: str) -> None:
        if colour != self.fill:
            self.c.setFillColorRGB(*self.ink(colour))
            self.fill = colour

    def set_stroke(self, colour: str, width: float, dash: tuple[float, ...] | None) -> None:
        if colour != self.stroke:
            self.c.setStrokeColorRGB(*self.ink(colour))
            self.stroke = colour
        if width != self.width:
            self.c.setLineWidth(width)
            self.width = width
        d = dash or _NO_DASH
        if d != self.dash:
            self.c.setDash(list(d), 0)
            self.dash = d

    def paint(
        self, fill: str | None, stroke: str | None, width: float, dash: tuple[float, ...] | None = None
    ) -> tuple[int, int]:
        if fill is not None:
            self.set_fill(fill)
        if stroke is not None:
            self.set_stroke(stroke, width, dash)
        return (1 if stroke is not None else 0), (1 if fill is not None else 0)

    def draw(self, ops: Sequence[Op]) -> None:
        c = self.c
        for op in ops:
            t = type(op)
            if t is Text:
                assert isinstance(op, Text)
                self.text(op)
            elif t is Rect:
                assert isinstance(op, Rect)
                if op.fill is None and op.stroke is None:
                    continue
                if op.gradient is not None:
                    self.gradient(op)
                    if op.stroke is None:
                        continue
                    op = replace(op, fill=None)
                s, f = self.paint(op.fill, op.stroke, op.width, op.dash)
                if op.radius:
                    c.roundRect(op.x, op.y, op.w, op.h, op.radius, stroke=s, fill=f)
                else:
                    c.rect(op.x, op.y, op.w, op.h, stroke=s, fill=f)
            elif t is Line:
                assert isinstance(op, Line)
                self.set_stroke(op.stroke, op.width, op.dash)
                c.line(op.x1, op.y1, op.x2, op.y2)
            elif t is Place:
                assert isinstance(op, Place)
                self.place(op)
            elif t is Circle:
                assert isinstance(op, Circle)
                if op.fill is None and op.stroke is None:
                    continue
                s, f = self.paint(op.fill, op.stroke, op.width)
                c.circle(op.cx, op.cy, op.r, stroke=s, fill=f)
            elif t is Polygon:
                assert isinstance(op, Polygon)
                if (op.fill is None and op.stroke is None) or not op.points:
                    continue
                s, f = self.paint(op.fill, op.stroke, op.width, op.dash)
                p = c.beginPath()
                p.moveTo(*op.points[0])
                for x, y in op.points[1:]:
                    p.lineTo(x, y)
                if op.closed:
                    p.close()
                c.drawPath(p, stroke=s, fill=f)
            elif t is PathOp:
                assert isinstance(op, PathOp)
                if op.fill is None and op.stroke is None:
                    continue
                s, f = self.paint(op.fill, op.stroke, op.width)
                c.drawPath(self.path(op), stroke=s, fill=f)
            elif t is Image or t is Vector:
                assert isinstance(op, (Image, Vector))
                self.art(op)
            else:
                raise RenderError(f"unknown drawing op {op!r}")

    def art(self, op: Image | Vector) -> None:
        """Raster art at its native resolution (one image XObject per file, ReportLab reuses it), SVG art as
        vector paths; cover fits are clipped to the box, opacity is the fill/stroke alpha."""
        c = self.c
        x, y, w, h = fitted(op)
        if w <= 0 or h <= 0:
            return
        self.push()
        if op.fit == "cover":
            p = c.beginPath()
            p.rect(op.x, op.y, op.w, op.h)
            c.clipPath(p, stroke=0, fill=0)
        if op.opacity < 1:
            c.setFillAlpha(op.opacity)
            c.setStrokeAlpha(op.opacity)
        if isinstance(op, Image):
            c.drawImage(
                _image_reader(op.asset.sha256, op.asset.picture, self.greyscale),
                x,
                y,
                w,
                h,
                mask="auto" if op.asset.picture.mode == "RGBA" else None,
            )
        else:
            from reportlab.graphics import renderPDF

            drawing: Any = _tinted(op.asset.sha256, op.asset.picture, op.tint, self.greyscale)
            key = (op.asset.sha256, op.tint)
            if key not in self.vectors:  # each SVG (and tint) is drawn once per PDF, as a Form XObject
                where = f"art {op.slot or '(no slot)'} ({op.asset.shown})"
                drawing = _embedded_text(drawing, self.fonts, where)
                name = f"pnpkitV{len(self.vectors)}"
                self.vector_art[name] = where
                c.beginForm(name, lowerx=0, lowery=0, upperx=drawing.width, uppery=drawing.height)
                renderPDF.draw(drawing, c, 0, 0, showBoundary=False)
                c.endForm()
                self.vectors[key] = name
            c.translate(x, y)
            c.scale(w / drawing.width, h / drawing.height)
            c.doForm(self.vectors[key])
        self.pop()
        self.fill = self.stroke = None  # renderPDF and drawImage set colours of their own
        self.width = -1.0
        self.font = None

    def gradient(self, op: Rect) -> None:
        """A rect filled with its linear gradient: clipped to the (rounded) rect, shaded along the angle from
        one side of the box to the other."""
        assert op.gradient is not None
        from reportlab.lib.colors import Color

        c = self.c
        start, end, angle = op.gradient
        a = math.radians(angle)
        dx, dy = math.cos(a), math.sin(a)
        half = (op.w * abs(dx) + op.h * abs(dy)) / 2  # the box's half-extent along the direction
        cx, cy = op.x + op.w / 2, op.y + op.h / 2
        self.push()
        p = c.beginPath()
        if op.radius:
            p.roundRect(op.x, op.y, op.w, op.h, op.radius)
        else:
            p.rect(op.x, op.y, op.w, op.h)
        c.clipPath(p, stroke=0, fill=0)
        c.linearGradient(
            cx - dx * half,
            cy - dy * half,
            cx + dx * half,
            cy + dy * half,
            (Color(*self.ink(start)), Color(*self.ink(end))),
            extend=True,
        )
        self.pop()

    def path(self, op: PathOp) -> object:
        p = self.c.beginPath()
        for cmd in op.commands:
            kind, args = cmd[0], [float(v) for v in cmd[1:]]  # type: ignore[arg-type]
            if kind == "M" and len(args) == 2:
                p.moveTo(*args)
            elif kind == "L" and len(args) == 2:
                p.lineTo(*args)
            elif kind == "C" and len(args) == 6:
                p.curveTo(*args)
            elif kind == "Z" and not args:
                p.close()
            else:
                raise RenderError(f"bad path command {cmd!r}; expected M x y, L x y, C x1 y1 x2 y2 x y or Z")
        return p

    def place(self, op: Place) -> None:
        c = self.c
        form = self.forms.get(id(op.ops)) if self.forms is not None else None
        self.push()
        c.translate(op.x, op.y)
        if op.rotate:
            c.rotate(op.rotate)
        if op.scale != 1.0:
            c.scale(op.scale, op.scale)
        if op.clip is not None:
            p = c.beginPath()
            p.rect(*op.clip)
            c.clipPath(p, stroke=0, fill=0)
        if op.mask is not None:
            p = c.beginPath()
            p.roundRect(*op.mask)
            c.clipPath(p, stroke=0, fill=0)
        if op.opacity < 1:
            c.setFillAlpha(op.opacity)
            c.setStrokeAlpha(op.opacity)
        if form is not None:
            # a face drawn many times (card backs, repeated sheets) is drawn once as a Form XObject
            name, defined = form
            if not defined:
                self.define_form(name, op.ops)
                self.forms[id(op.ops)] = (name, True)  # type: ignore[index]
            c.doForm(name)
            self.font = None  # the form's own state does not leak, but be conservative
        else:
            self.draw(op.ops)
        self.pop()

    def define_form(self, name: str, ops: Sequence[Op]) -> None:
        """Draw `ops` into a Form XObject named `name` (a fresh graphics state, no inherited colours)."""
        c = self.c
        saved = (self.fill, self.stroke, self.width, self.dash, self.font, list(self.stack))
        self.fill = self.stroke = None
        self.width = -1.0
        self.dash = _NO_DASH
        self.font = None
        c.beginForm(name, lowerx=-10_000, lowery=-10_000, upperx=10_000, uppery=10_000)
        self.draw(ops)
        c.endForm()
        self.fill, self.stroke, self.width, self.dash, self.font, self.stack = saved

    def text(self, op: Text) -> None:
        line = shaped_line(op.text, op.font, op.size, self.fonts, op.role)
        slanted = oblique_faces(op.text, op.font, op.size, self.fonts, op.role)
        if not line.plain:
            self.shaped(op, line, slanted)
            return
        if self.fonts is not None or slanted:
            self.text_runs(op, self.fonts, slanted)
            return
        c = self.c
        self.set_fill(op.fill)
        key = (font_name(op.font), op.size)
        if key != self.font:
            c.setFont(key[0], op.size)
            self.font = key
        with self.turned(op) as (x, y):
            if op.anchor == "start":
                c.drawString(x, y, op.text)
            elif op.anchor == "middle":
                c.drawCentredString(x, y, op.text)
            elif op.anchor == "end":
                c.drawRightString(x, y, op.text)
            else:
                raise RenderError(f"unknown text anchor {op.anchor!r} for {op.text_id or op.text!r}")

    @contextmanager
    def turned(self, op: Text) -> Iterator[tuple[float, float]]:
        """Where a text's anchor lies while it is drawn: at (op.x, op.y), or at the origin of a state turned
        by `op.rotate` about that point (restored after)."""
        if not op.rotate:
            yield op.x, op.y
            return
        self.push()
        self.c.translate(op.x, op.y)
        self.c.rotate(op.rotate)
        try:
            yield 0.0, 0.0
        finally:
            self.pop()

    def show(self, x: float, y: float, content: Any, slanted: bool) -> None:
        """One run at (x, y): a text object whose matrix leans by ITALIC_SLANT when `slanted` (a synthetic
        oblique; the advances, and so the pen, are the upright face's)."""
        t = self.c.beginText(x, y)
        if slanted:
            t.setTextTransform(1, 0, ITALIC_SLANT, 1, x, y)
        t.textOut(content)
        self.c.drawText(t)

    def shaped(self, op: Text, line: ShapedLine, slanted: frozenset[str] = frozenset()) -> None:
        """A shaped line (bidi order, ligatures, kerning, joined and reordered scripts): each run's glyphs at
        HarfBuzz's positions, runs left to right from the anchor."""
        c = self.c
        self.set_fill(op.fill)
        with self.turned(op) as (x, y):
            x = _start(op, x, line.advance * op.size / 1000)
            for run in line.runs:
                if (run.face, op.size) != self.font:
                    c.setFont(run.face, op.size)
                    self.font = (run.face, op.size)
                self.show(x, y, pdf_string(run, line.text), run.face in slanted)
                x += run.advance * op.size / 1000

    def text_runs(self, op: Text, fonts: KitFonts | None, slanted: frozenset[str] = frozenset()) -> None:
        """A text in a kit's fonts (None: the built-in face): one run per face of its chain, placed one after
        the other, each slanted when its face is in `slanted`."""
        c = self.c
        self.set_fill(op.fill)
        runs = (
            text_runs(op.text, op.font, op.size, fonts, op.role)
            if fonts is not None
            else [(font_name(op.font), op.text)]
        )
        widths = [pdfmetrics.stringWidth(part, name, op.size) for name, part in runs]
        with self.turned(op) as (x, y):
            x = _start(op, x, sum(widths))
            for (name, part), width in zip(runs, widths, strict=True):
                if (name, op.size) != self.font:
                    c.setFont(name, op.size)
                    self.font = (name, op.size)
                if name in slanted:
                    self.show(x, y, part, True)
                else:
                    c.drawString(x, y, part)
                x += width


def _start(op: Text, x: float, width: float) -> float:
    """Where a line `width` wide starts for its anchor at x."""
    if op.anchor == "middle":
        return x - width / 2
    if op.anchor == "end":
        return x - width
    if op.anchor != "start":
        raise RenderError(f"unknown text anchor {op.anchor!r} for {op.text_id or op.text!r}")
    return x


_READERS: dict[str, object] = {}
_TINTED: dict[tuple[str, str | None, bool], object] = {}


def _image_reader(sha: str, picture: Any, greyscale: bool = False) -> object:
    """One ReportLab reader per image content (decoded once per process, embedded once per PDF); greyscale:
    the picture's luminance (alpha kept)."""
    from reportlab.lib.utils import ImageReader

    key = f"{sha}:grey" if greyscale else sha
    if key not in _READERS:
        if len(_READERS) > 256:
            _READERS.clear()
        if greyscale:
            grey = picture.convert("LA" if picture.mode == "RGBA" else "L")
            picture = grey.convert("RGBA") if picture.mode == "RGBA" else grey.convert("RGB")
        _READERS[key] = ImageReader(picture)
    return _READERS[key]


def _tinted(sha: str, drawing: object, tint: str | None, greyscale: bool = False) -> object:
    """The svglib drawing, or a copy with every filled and stroked shape painted in `tint`; greyscale: every
    colour (the tint or the drawing's own) replaced by its grey."""
    if tint is None and not greyscale:
        return drawing
    key = (sha, tint, greyscale)
    if key not in _TINTED:
        import copy

        from reportlab.graphics.shapes import Group, Shape
        from reportlab.lib.colors import Color

        copied = copy.deepcopy(drawing)

        def paint(node: object) -> None:
            for child in getattr(node, "contents", []):
                if isinstance(child, Group):
                    paint(child)
                elif isinstance(child, Shape):
                    for attr in ("fillColor", "strokeColor"):
                        old = getattr(child, attr, None)
                        if old is not None:
                            if tint is not None:
                                r, g, b = grey_rgb(tint) if greyscale else rgb(tint)
                            else:
                                r, g, b = grey_rgb("#" + "".join(f"{round(255 * v):02x}" for v in old.rgb()))
                            setattr(child, attr, Color(r, g, b, getattr(old, "alpha", 1)))

        paint(copied)
        if len(_TINTED) > 256:
            _TINTED.clear()
        _TINTED[key] = copied
    return _TINTED[key]


def _embedded_text(drawing: Any, fonts: KitFonts | None, where: str, *, lenient: bool = False) -> Any:
    """A copy of an svglib drawing whose texts are set in faces that are embedded. svglib names the SVG's
    font-family (Arial, Times-Bold...), which ReportLab writes as an unembedded standard Type 1 font that a
    PDF/A file may not hold and a printer replaces with what it has: each text is set instead in the kit's
    body faces of its weight (`svg_text_chain`; bold when svglib's font name says so), cut into runs when one
    face lacks a character another has, the runs placed one after another from the text's anchor. A character
    no face has (the kit check refuses it for a slot's art) is a RenderError naming `where` (`lenient`: drawn
    as the first face's missing-glyph box, for raster previews set in the built-in face). The drawing's
    initial font is the built-in face, so ReportLab declares no Helvetica for an SVG without text."""
    import copy

    from reportlab.graphics.shapes import String

    from generator.spec.assets import svg_texts
    from generator.spec.fonts import svg_text_chain, svg_text_missing

    copied = copy.deepcopy(drawing)
    copied.initialFontName = FONT_NAMES["regular"]

    def runs(child: Any) -> list[Any]:
        text, weight = svg_texts(_Holder([child]))[0]
        chain = svg_text_chain(fonts, weight)
        missing = svg_text_missing(text, chain)
        if missing and not lenient:
            raise RenderError(
                f"{where}: the SVG's text {text[:40]!r} has characters no {weight} face has: "
                f"{_codes(missing)}"
            )
        parts: list[tuple[str, str]] = []
        for ch in text:
            face = next((f.name for f in chain if ord(ch) in f.cmap), chain[0].name)
            if parts and parts[-1][0] == face:
                parts[-1] = (face, parts[-1][1] + ch)
            else:
                parts.append((face, ch))
        size = float(child.fontSize)
        widths = [pdfmetrics.stringWidth(part, face, size) for face, part in parts]
        anchor = getattr(child, "textAnchor", "start")
        x = float(child.x) - {"middle": sum(widths) / 2, "end": sum(widths)}.get(anchor, 0.0)
        out = []
        for (face, part), width in zip(parts, widths, strict=True):
            piece = copy.copy(child)
            piece.x, piece.text, piece.fontName, piece.textAnchor = x, part, face, "start"
            out.append(piece)
            x += width
        return out

    def walk(node: Any) -> None:
        contents = getattr(node, "contents", None)
        if contents is None:
            return
        new: list[Any] = []
        for child in contents:
            if isinstance(child, String):
                new.extend(runs(child))
            else:
                walk(child)
                new.append(child)
        contents[:] = new

    walk(copied)
    return copied


class _Holder:
    """A node with `contents`, to read one String with `svg_texts`."""

    def __init__(self, contents: list[Any]):
        self.contents = contents


def _repeated_faces(pages: Sequence[Page]) -> dict[int, tuple[str, bool]]:
    """Op tuples placed more than once (by identity): they become Form XObjects, named in order of first
    use."""
    seen: dict[int, int] = {}
    order: list[int] = []

    def walk(ops: Sequence[Op]) -> None:
        for op in ops:
            if type(op) is Place:
                assert isinstance(op, Place)
                key = id(op.ops)
                if key not in seen:
                    seen[key] = 0
                    order.append(key)
                    walk(op.ops)
                seen[key] += 1

    for page in pages:
        walk(page.ops)
    return {key: (f"pnpkitF{i}", False) for i, key in enumerate(k for k in order if seen[k] > 1)}


def write_pdf(
    pages: Sequence[Page],
    path: Path,
    *,
    title: str,
    author: str = "pnpkit",
    subject: str = "",
    lang: str = "en",
    pdfa: bool = False,
    fonts: KitFonts | None = None,
    greyscale: bool = False,
    shown: Path | None = None,
) -> None:
    """Check every string's glyphs, draw `pages` into a PDF at `path` (replaced atomically; nothing is left
    behind on error), as PDF/A-2b when `pdfa`. Same pages and metadata give the same bytes. With a kit's
    `fonts`, every text is drawn with its role's chain (faces subset and embedded). `greyscale`: every colour
    printed as the grey of its lightness (ink-saving; symbols and patterns carry the suits). `shown`: the path
    a PDF/A error names (the output file, where `path` is its staging copy)."""
    if not pages:
        raise RenderError(f"nothing to write to {path}: no pages")
    _prepare(pages, fonts)
    path = Path(path)

    def draw(tmp: Path) -> None:
        vector_art = _draw_pdf(
            str(tmp),
            pages,
            title=title,
            author=author,
            subject=subject,
            lang=lang,
            fonts=fonts,
            greyscale=greyscale,
        )
        if pdfa:
            from generator.render.pdfa import to_pdfa

            to_pdfa(tmp, shown=Path(shown or path), art=vector_art)

    atomic_write(path, draw, what="the PDF")


def pdf_bytes(
    pages: Sequence[Page], *, title: str, fonts: KitFonts | None = None, greyscale: bool = False
) -> bytes:
    """`pages` drawn as `write_pdf` draws them, kept in memory (a raster made for a check opens no file)."""
    if not pages:
        raise RenderError("nothing to draw: no pages")
    _prepare(pages, fonts)
    buffer = io.BytesIO()
    _draw_pdf(
        buffer, pages, title=title, author="pnpkit", subject="", lang="en", fonts=fonts, greyscale=greyscale
    )
    return buffer.getvalue()


def _prepare(pages: Sequence[Page], fonts: KitFonts | None) -> None:
    """Before drawing: every string's glyphs checked, the built-in and the kit's fonts registered."""
    check_glyphs(pages, fonts)
    register_fonts()
    if fonts is not None:
        register_kit_fonts(fonts)


def _draw_pdf(
    target: str | io.BytesIO,
    pages: Sequence[Page],
    *,
    title: str,
    author: str,
    subject: str,
    lang: str,
    fonts: KitFonts | None,
    greyscale: bool,
) -> Any:
    """Draw `pages` with ReportLab into `target` (a file name or a buffer; `_prepare` first): the painter's
    vector art."""
    canvas = Canvas(
        target,
        pagesize=(pages[0].width, pages[0].height),
        invariant=1,
        pageCompression=1,
        initialFontName=FONT_NAMES["regular"],
        initialFontSize=10,
        lang=lang,
    )
    canvas.setTitle(title)
    canvas.setAuthor(author)
    canvas.setSubject(subject)
    canvas.setCreator("pnpkit")
    painter = _Painter(canvas, fonts, greyscale)
    painter.forms = _repeated_faces(pages)
    has_outline = False
    for number, page in enumerate(pages, 1):
        canvas.setPageSize((page.width, page.height))
        # ReportLab keeps boxes for later pages: set or clear them on every page.
        canvas.setTrimBox(page.trim_box)
        canvas.setBleedBox(page.bleed_box)
        if page.bookmark:
            key = f"p{number}"
            canvas.bookmarkPage(key)
            canvas.addOutlineEntry(page.bookmark, key, level=page.bookmark_level)
            has_outline = True
        painter.reset()
        painter.draw(page.ops)
        canvas.showPage()
    if has_outline:
        canvas.showOutline()
    canvas.save()
    return painter.vector_art
