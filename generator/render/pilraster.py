"""A second raster backend, measured against pdfium in bench/bench_export.py: drawing ops straight to a PIL
image (2x supersampled, then halved), without writing a PDF. It exists to answer "which is faster, which is
truer"; the export uses pdfium (render/raster.py) because only that path draws exactly what the PDF prints
(clips, dashes and font hinting are approximated here)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFont

from generator.layout import ops as _ops
from generator.layout.ops import (
    INKS,
    Circle,
    Line,
    Op,
    Page,
    Place,
    Polygon,
    Rect,
    Text,
    Vector,
    fitted,
    upright,
)
from generator.layout.ops import Image as ImageOp
from generator.render.fonts import FONT_FILES

Matrix = tuple[float, float, float, float, float, float]
SUPERSAMPLE = 2


def _rgb(colour: str) -> tuple[int, int, int]:
    value = INKS.get(colour, colour)
    n = int(value[1:], 16)
    return (n >> 16) & 255, (n >> 8) & 255, n & 255


@lru_cache(maxsize=256)
def _font(key: str, px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_FILES[upright(key)]), max(px, 1))  # a preview: italic drawn upright


def _mul(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + c * b2,
        b * a2 + d * b2,
        a * c2 + c * d2,
        b * c2 + d * d2,
        a * e2 + c * f2 + e,
        b * e2 + d * f2 + f,
    )


def _pt(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _scale_of(m: Matrix) -> float:
    return math.hypot(m[0], m[1])


def _rounded(x: float, y: float, w: float, h: float, r: float) -> list[tuple[float, float]]:
    if r <= 0:
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    r = min(r, w / 2, h / 2)
    pts: list[tuple[float, float]] = []
    for cx, cy, start in (
        (x + w - r, y + r, -90),
        (x + w - r, y + h - r, 0),
        (x + r, y + h - r, 90),
        (x + r, y + r, 180),
    ):
        for k in range(7):
            a = math.radians(start + 15 * k)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def _bezier(
    p0: tuple[float, float],
    p1: tuple[float, float],
    p2: tuple[float, float],
    p3: tuple[float, float],
    n: int = 12,
) -> list[tuple[float, float]]:
    out = []
    for k in range(1, n + 1):
        t = k / n
        u = 1 - t
        out.append(
            (
                u**3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t**3 * p3[0],
                u**3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t**3 * p3[1],
            )
        )
    return out


@lru_cache(maxsize=64)
def _vector_pixels(sha: str, tint: str | None, drawing: object, size: tuple[int, int]) -> Image.Image:
    """An SVG drawing as RGBA pixels of `size` (drawn by ReportLab into a one-page PDF, rasterised by pdfium:
    the same shapes the PDF holds)."""
    import io

    import pypdfium2 as pdfium
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas

    from generator.render.pdf import _embedded_text, _tinted
    from generator.render.pdfium_lock import PDFIUM

    shape = _embedded_text(_tinted(sha, drawing, tint), None, "", lenient=True)  # texts in the built-in face
    buf = io.BytesIO()
    shape_any: Any = shape
    canvas = Canvas(buf, pagesize=(shape_any.width, shape_any.height), invariant=1)
    renderPDF.draw(shape, canvas, 0, 0)
    canvas.showPage()
    canvas.save()
    with PDFIUM:
        doc = pdfium.PdfDocument(buf.getvalue())
        try:
            page = doc[0]
            image = (
                page.render(
                    scale=max(size[0] / page.get_width(), size[1] / page.get_height()),
                    fill_color=(255, 255, 255, 0),
                )
                .to_pil()
                .convert("RGBA")
            )
        finally:
            doc.close()
    resized: Image.Image = image.resize(size, Image.Resampling.LANCZOS)
    return resized


def _composite(base: Image.Image, art: Image.Image, x: int, y: int) -> None:
    """`art` laid over the RGBA `base` at (x, y) by its alpha (the part inside `base`)."""
    left, top = max(0, -x), max(0, -y)
    right, bottom = min(art.width, base.width - x), min(art.height, base.height - y)
    if right > left and bottom > top:
        base.alpha_composite(art.crop((left, top, right, bottom)), dest=(x + left, y + top))


class _Drawer:
    def __init__(self, image: Image.Image):
        self.image = image
        self.draw = ImageDraw.Draw(image)

    def shape(
        self,
        pts: list[tuple[float, float]],
        m: Matrix,
        fill: str | None,
        stroke: str | None,
        width: float,
        closed: bool = True,
    ) -> None:
        px = [_pt(m, x, y) for x, y in pts]
        if len(px) < 2:
            return
        if fill is not None and closed:
            self.draw.polygon(px, fill=_rgb(fill))
        if stroke is not None:
            w = max(1, round(width * _scale_of(m)))
            self.draw.line(px + ([px[0]] if closed else []), fill=_rgb(stroke), width=w, joint="curve")

    def text(self, op: Text, m: Matrix) -> None:
        s = _scale_of(m)
        font = _font(op.font, round(op.size * s))
        anchor = {"start": "ls", "middle": "ms", "end": "rs"}[op.anchor]
        angle = (
            math.degrees(math.atan2(-m[1], m[0])) + op.rotate
        )  # counter-clockwise as seen (image y runs down)
        x, y = _pt(m, op.x, op.y)
        if abs(angle) < 0.01:
            self.draw.text((x, y), op.text, font=font, fill=_rgb(op.fill), anchor=anchor)
            return
        box = font.getbbox(op.text, anchor=anchor)
        pad = 2
        layer = Image.new("L", (int(box[2] - box[0]) + 2 * pad, int(box[3] - box[1]) + 2 * pad), 0)
        ImageDraw.Draw(layer).text(
            (pad - int(box[0]), pad - int(box[1])), op.text, font=font, fill=255, anchor=anchor
        )
        rot = layer.rotate(angle, resample=Image.Resampling.BILINEAR, expand=True)
        # where the anchor point lands in the rotated layer: rotate it about the layer centre
        cx, cy = layer.width / 2, layer.height / 2
        ax, ay = pad - int(box[0]) - cx, pad - int(box[1]) - cy
        a = math.radians(angle)
        rx, ry = ax * math.cos(a) + ay * math.sin(a), -ax * math.sin(a) + ay * math.cos(a)
        ox, oy = x - (rot.width / 2 + rx), y - (rot.height / 2 + ry)
        self.image.paste(Image.new("RGB", rot.size, _rgb(op.fill)), (round(ox), round(oy)), rot)

    def art(self, op: ImageOp | Vector, m: Matrix) -> None:
        """Art pasted into its fitted box (axis-aligned placements; a half turn flips it), clipped to its box
        for cover, with its opacity."""
        x, y, w, h = fitted(op)
        corners = [_pt(m, x, y), _pt(m, x + w, y + h)]
        left, right = sorted(c[0] for c in corners)
        top, bottom = sorted(c[1] for c in corners)
        size = (max(1, round(right - left)), max(1, round(bottom - top)))
        if isinstance(op, Vector):
            art = _vector_pixels(op.asset.sha256, op.tint, op.asset.picture, size).copy()
        else:
            art = op.asset.picture.convert("RGBA").resize(size, Image.Resampling.LANCZOS)
        if m[0] < 0 and m[3] > 0:  # a half turn (upside-down indices): the art is turned with it
            art = art.rotate(180)
        if op.opacity < 1:
            art.putalpha(art.getchannel("A").point(lambda a: round(a * op.opacity)))
        if op.fit == "cover":
            box = [_pt(m, op.x, op.y), _pt(m, op.x + op.w, op.y + op.h)]
            bl, br = sorted(c[0] for c in box)
            bt, bb = sorted(c[1] for c in box)
            crop = (
                max(0, round(bl - left)),
                max(0, round(bt - top)),
                min(size[0], round(br - left)),
                min(size[1], round(bb - top)),
            )
            art, left, top = art.crop(crop), left + crop[0], top + crop[1]
        if self.image.mode == "RGBA":  # a layer: composite, so the art's alpha is not applied twice
            _composite(self.image, art, round(left), round(top))
        else:
            self.image.paste(art, (round(left), round(top)), art)

    def ops(self, ops: Sequence[Op], m: Matrix) -> None:
        for op in ops:
            if isinstance(op, Rect):
                outline = _rounded(op.x, op.y, op.w, op.h, op.radius)
                if op.gradient is not None:
                    self.gradient(op, outline, m)
                    self.shape(outline, m, None, op.stroke, op.width)
                else:
                    self.shape(outline, m, op.fill, op.stroke, op.width)
            elif isinstance(op, Line):
                self.shape([(op.x1, op.y1), (op.x2, op.y2)], m, None, op.stroke, op.width, closed=False)
            elif isinstance(op, Circle):
                ring = [
                    (op.cx + op.r * math.cos(k * math.pi / 24), op.cy + op.r * math.sin(k * math.pi / 24))
                    for k in range(48)
                ]
                self.shape(ring, m, op.fill, op.stroke, op.width)
            elif isinstance(op, Polygon):
                self.shape(list(op.points), m, op.fill, op.stroke, op.width, closed=op.closed)
            elif isinstance(op, _ops.Path):
                pts: list[tuple[float, float]] = []
                for cmd in op.commands:
                    v = [float(c) for c in cmd[1:]]  # type: ignore[arg-type]
                    if cmd[0] in ("M", "L"):
                        pts.append((v[0], v[1]))
                    elif cmd[0] == "C" and pts:
                        pts += _bezier(pts[-1], (v[0], v[1]), (v[2], v[3]), (v[4], v[5]))
                closed = any(c[0] == "Z" for c in op.commands)
                self.shape(
                    pts,
                    m,
                    op.fill if closed or op.fill else None,
                    op.stroke,
                    op.width,
                    closed=closed or op.fill is not None,
                )
            elif isinstance(op, Text):
                self.text(op, m)
            elif isinstance(op, (ImageOp, Vector)):
                self.art(op, m)
            elif isinstance(op, Place):
                r = math.radians(op.rotate)
                cos, sin = round(math.cos(r), 12), round(math.sin(r), 12)
                inner = _mul(m, (cos * op.scale, sin * op.scale, -sin * op.scale, cos * op.scale, op.x, op.y))
                if op.opacity < 1 or op.mask is not None:
                    self.layer(op, inner)
                else:
                    self.ops(op.ops, inner)

    def layer(self, op: Place, m: Matrix) -> None:
        """A place drawn with an alpha or a rounded clip: its ops on a layer of their own, pasted through the
        mask (the rounded rect) at the opacity."""
        layer = Image.new("RGBA", self.image.size, (255, 255, 255, 0))
        _Drawer(layer).ops(op.ops, m)
        alpha = layer.getchannel("A")
        if op.mask is not None:
            x, y, w, h, r = op.mask
            clip = Image.new("L", self.image.size, 0)
            ImageDraw.Draw(clip).polygon([_pt(m, px, py) for px, py in _rounded(x, y, w, h, r)], fill=255)
            alpha = ImageChops.multiply(alpha, clip)
        if op.opacity < 1:
            alpha = alpha.point(lambda a: round(a * op.opacity))
        self.image.paste(layer.convert("RGB"), (0, 0), alpha)

    def gradient(self, op: Rect, outline: list[tuple[float, float]], m: Matrix) -> None:
        """A rect filled with its linear gradient (the colour at a pixel from its place along the angle)."""
        assert op.gradient is not None
        start, end, angle = op.gradient
        a = math.radians(angle)
        dx, dy = math.cos(a), math.sin(a)
        half = (op.w * abs(dx) + op.h * abs(dy)) / 2
        cx, cy = op.x + op.w / 2, op.y + op.h / 2
        p0, p1 = _pt(m, cx - dx * half, cy - dy * half), _pt(m, cx + dx * half, cy + dy * half)
        px = [_pt(m, x, y) for x, y in outline]
        left, top = max(0, int(min(p[0] for p in px))), max(0, int(min(p[1] for p in px)))
        right = min(self.image.width, int(math.ceil(max(p[0] for p in px))) + 1)
        bottom = min(self.image.height, int(math.ceil(max(p[1] for p in px))) + 1)
        if right <= left or bottom <= top:
            return
        vx, vy = p1[0] - p0[0], p1[1] - p0[1]
        length = vx * vx + vy * vy or 1.0
        ys, xs = np.mgrid[top:bottom, left:right]
        t = np.clip(((xs + 0.5 - p0[0]) * vx + (ys + 0.5 - p0[1]) * vy) / length, 0.0, 1.0)[..., None]
        c0, c1 = np.array(_rgb(start), float), np.array(_rgb(end), float)
        pixels = Image.fromarray(np.round(c0 * (1 - t) + c1 * t).astype(np.uint8), "RGB")
        clip = Image.new("L", self.image.size, 0)
        ImageDraw.Draw(clip).polygon(px, fill=255)
        self.image.paste(pixels, (left, top), clip.crop((left, top, right, bottom)))


def draw_page(page: Page, size: tuple[int, int]) -> Image.Image:
    """A page as an RGB image of `size` pixels (the page stretched to it), white paper under it."""
    w, h = size
    big = Image.new("RGB", (w * SUPERSAMPLE, h * SUPERSAMPLE), (255, 255, 255))
    sx, sy = w * SUPERSAMPLE / page.width, h * SUPERSAMPLE / page.height
    _Drawer(big).ops(page.ops, (sx, 0.0, 0.0, -sy, 0.0, h * SUPERSAMPLE))
    return big.reduce(SUPERSAMPLE)
