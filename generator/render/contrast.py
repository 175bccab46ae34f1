"""Legibility over art, measured on rendered pixels: every string and icon drawn over the kit's art keeps a
contrast against what prints under it.

A string is judged by the WCAG 2 contrast ratio between its colour and each pixel under its box (4.5:1 below
large type, 3:1 from 18 pt, or 14 pt bold, up); an icon (art drawn over other art, a tinted suit symbol on a
card's background picture) by the CIEDE2000 colour difference between the pixels it paints and the same pixels
without it (ΔE00 >= ICON_DELTA_E). A string takes a low percentile over its pixels, not the mean, so a busy
picture that hides part of it counts while a stray pixel does not; an icon the median of the pixels it changes
(its anti-aliased rim differs little by nature).

The pixels come from the PDF renderer itself: each face that holds art is drawn (pdfium, as the kit prints)
without its strings, and without its icons, then the strings and icons are judged against those pictures."""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from PIL import Image as PILImage

from generator.layout.compose import Component
from generator.layout.geometry import Drawn, drawn
from generator.layout.ops import (
    INKS,
    Circle,
    Image,
    Op,
    Page,
    Path,
    Place,
    Polygon,
    Rect,
    Text,
    Vector,
    is_inline_icon,
)
from generator.layout.text import Measure
from generator.layout.textfit import Box
from generator.spec.fonts import KitFonts

TEXT_RATIO = 4.5
"""WCAG 2 (1.4.3): the least contrast ratio of text below large type."""
LARGE_TEXT_RATIO = 3.0
"""WCAG 2: the least contrast ratio of large type (18 pt and up, or 14 pt bold and up)."""
LARGE_TEXT = 18.0
LARGE_BOLD_TEXT = 14.0
ICON_DELTA_E = 20.0
"""The least CIEDE2000 difference between an icon's pixels and the art under them (20: clearly another
colour; 2.3 is the smallest a trained eye tells apart side by side)."""
PERCENTILE = 0.1
"""The share of a box's pixels that may fall short (the anti-aliased rim of a glyph, a speck in a picture)."""
DPI = 100
"""The resolution the faces are judged at (pixels per inch of the printed face)."""

RGB = tuple[float, float, float]
ICON_SHAPES = (Path, Polygon, Circle)
"""The composer's own symbols (a suit's heart, a raindrop, a bonus disc): icons when drawn over art."""


# ---------------------------------------------------------------- colour science


def _linear(channel: float) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(rgb: RGB) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0..255 channels): 0 black .. 1 white."""
    r, g, b = (_linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio of two sRGB colours: 1 (the same) .. 21 (black on white)."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def to_lab(rgb: RGB) -> RGB:
    """CIE L*a*b* (D65) of an sRGB colour (0..255 channels)."""
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e00(lab1: RGB, lab2: RGB) -> float:
    """The CIEDE2000 colour difference of two L*a*b* colours (Sharma, Wu and Dalal 2005, with kL = kC = kH
    = 1)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    c_bar7 = ((c1 + c2) / 2) ** 7
    g = 0.5 * (1 - math.sqrt(c_bar7 / (c_bar7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp, dcp = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    else:
        dhp = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dhp_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    l_bar, c_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_bar - 30))
        + 0.24 * math.cos(math.radians(2 * h_bar))
        + 0.32 * math.cos(math.radians(3 * h_bar + 6))
        - 0.20 * math.cos(math.radians(4 * h_bar - 63))
    )
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(c_bar**7 / (c_bar**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * c_bar
    s_h = 1 + 0.015 * c_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt(
        (dlp / s_l) ** 2 + (dcp / s_c) ** 2 + (dhp_big / s_h) ** 2 + r_t * (dcp / s_c) * (dhp_big / s_h)
    )


def to_lab_array(rgb: np.ndarray) -> np.ndarray:
    """`to_lab` of an (..., 3) array of sRGB pixels (0..255)."""
    lin = _LINEAR[rgb.astype(np.uint8)]
    xyz = lin @ np.array(
        [
            [0.4124564, 0.2126729, 0.0193339],
            [0.3575761, 0.7151522, 0.1191920],
            [0.1804375, 0.0721750, 0.9503041],
        ]
    )
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack(
        [116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1
    )


def delta_e00_array(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """`delta_e00` of two (..., 3) arrays of L*a*b* colours, element by element."""
    l1, a1, b1 = lab1[..., 0], lab1[..., 1], lab1[..., 2]
    l2, a2, b2 = lab2[..., 0], lab2[..., 1], lab2[..., 2]
    c_bar7 = ((np.hypot(a1, b1) + np.hypot(a2, b2)) / 2) ** 7
    g = 0.5 * (1 - np.sqrt(c_bar7 / (c_bar7 + 25.0**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.where(c1p == 0, 0.0, np.degrees(np.arctan2(b1, a1p)) % 360)
    h2p = np.where(c2p == 0, 0.0, np.degrees(np.arctan2(b2, a2p)) % 360)
    zero = c1p * c2p == 0
    dh = h2p - h1p
    dhp = np.where(zero, 0.0, np.where(np.abs(dh) <= 180, dh, np.where(dh > 0, dh - 360, dh + 360)))
    dhp_big = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dhp / 2))
    l_bar, c_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    hs = h1p + h2p
    h_bar = np.where(
        zero,
        hs,
        np.where(np.abs(h1p - h2p) <= 180, hs / 2, np.where(hs < 360, (hs + 360) / 2, (hs - 360) / 2)),
    )
    t = (
        1
        - 0.17 * np.cos(np.radians(h_bar - 30))
        + 0.24 * np.cos(np.radians(2 * h_bar))
        + 0.32 * np.cos(np.radians(3 * h_bar + 6))
        - 0.20 * np.cos(np.radians(4 * h_bar - 63))
    )
    d_theta = 30 * np.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * np.sqrt(c_bar**7 / (c_bar**7 + 25.0**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / np.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * c_bar
    s_h = 1 + 0.015 * c_bar * t
    r_t = -np.sin(np.radians(2 * d_theta)) * r_c
    dl, dc, dhh = (l2 - l1) / s_l, (c2p - c1p) / s_c, dhp_big / s_h
    result: np.ndarray = np.sqrt(dl**2 + dc**2 + dhh**2 + r_t * dc * dhh)
    return result


def _rgb(colour: str) -> RGB:
    value = INKS.get(colour, colour)
    n = int(value[1:7], 16)
    return float((n >> 16) & 255), float((n >> 8) & 255), float(n & 255)


# ---------------------------------------------------------------- the check


@dataclass(frozen=True)
class LowContrast:
    """A string or an icon drawn over art with too little contrast against the pixels under it."""

    component: str
    face: str
    slot: str
    """The art slot under it."""
    file: str
    what: str
    """"text 'rules.setup' 'Set-up' at 9.0 pt", "the icon of slot icon (assets/suits/red.svg)" or "a symbol
    (#d62d3a)"."""
    measured: float
    needed: float
    unit: str
    """':1' (a WCAG ratio) or ' ΔE00'."""

    def message(self) -> str:
        """One line for the warning (its kit.yaml key names the slot)."""
        if self.unit == ":1":
            got = f"a contrast of {self.measured:.1f}:1, under {self.needed:g}:1 (WCAG)"
        else:
            got = f"a colour difference of {self.measured:.0f} ΔE00, under {self.needed:g}"
        return (
            f"{self.component}: face {self.face or '?'}: {self.what} over the art of slot {self.slot} "
            f"({self.file}) keeps {got} against the pixels under it; move it off the art, tint or fade "
            f"the art, or set it on a plate"
        )


def _faces(ops: Sequence[Op], out: list[Place]) -> None:
    for op in ops:
        if isinstance(op, Place):
            if op.clip is not None and not op.window:
                out.append(op)
            else:
                _faces(op.ops, out)


def _without(ops: Sequence[Op], drop: set[int]) -> tuple[Op, ...]:
    """`ops` less the leaf ops whose id is in `drop` (nested places rebuilt)."""
    out: list[Op] = []
    for op in ops:
        if isinstance(op, Place):
            out.append(replace(op, ops=_without(op.ops, drop)))
        elif id(op) not in drop:
            out.append(op)
    return tuple(out)


@dataclass
class _Face:
    component: str
    place: Place
    arts: list[Drawn]
    texts: list[tuple[Drawn, Drawn]]
    """(text, the art under it)"""
    icons: list[tuple[Drawn, Drawn]]
    """(icon art, the art under it)"""


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _judged(components: Sequence[Component], measure: Measure) -> list[_Face]:
    """Every distinct face with a string or an icon drawn over art (and that art)."""
    out: list[_Face] = []
    seen: set[int] = set()
    for comp in components:
        for page in comp.pages:
            faces: list[Place] = []
            _faces(page.ops, faces)
            for place in faces:
                if id(place.ops) in seen:
                    continue
                seen.add(id(place.ops))
                items = drawn(place.ops, measure, art=True)
                arts = [d for d in items if isinstance(d.op, (Image, Vector)) and not is_inline_icon(d.op)]
                if not arts:
                    continue
                texts, icons = [], []
                for d in items:
                    under = [a for a in arts if a.order < d.order and _meets(a.box, d.box)]
                    if not under:
                        continue
                    if isinstance(d.op, Text) and d.op.text.strip():
                        texts.append((d, under[-1]))
                    elif isinstance(d.op, ICON_SHAPES) or any(d is a for a in arts):
                        icons.append((d, under[-1]))
                if texts or icons:
                    out.append(_Face(comp.id, place, arts, texts, icons))
    return out


def _page(place: Place, ops: tuple[Op, ...]) -> Page:
    x, y, w, h = place.clip or (0.0, 0.0, 0.0, 0.0)
    return Page(w, h, [Place(-x, -y, ops)])


def _crop(image: PILImage.Image, box: Box, place: Place, scale: float) -> PILImage.Image | None:
    """The part of a face's picture under `box` (face coordinates), None where nothing of it is inside."""
    x, y, _, h = place.clip or (0.0, 0.0, 0.0, 0.0)
    left = max(0, math.floor((box[0] - x) * scale))
    right = min(image.width, math.ceil((box[2] - x) * scale))
    top = max(0, math.floor((h - (box[3] - y)) * scale))
    bottom = min(image.height, math.ceil((h - (box[1] - y)) * scale))
    if right <= left or bottom <= top:
        return None
    return image.crop((left, top, right, bottom)).convert("RGB")


_LINEAR = np.array([_linear(i) for i in range(256)])
_WEIGHTS = np.array([0.2126, 0.7152, 0.0722])


def _text_contrast(colour: RGB, crop: PILImage.Image) -> float:
    """The PERCENTILE-th lowest WCAG ratio between `colour` and the pixels of `crop` (numpy: a face holds
    tens of thousands of them)."""
    lum = _LINEAR[np.asarray(crop, dtype=np.uint8)] @ _WEIGHTS
    own = luminance(colour)
    ratios = np.sort(((np.maximum(lum, own) + 0.05) / (np.minimum(lum, own) + 0.05)).ravel())
    return float(ratios[min(len(ratios) - 1, int(len(ratios) * PERCENTILE))])


def _slot(d: Drawn) -> tuple[str, str]:
    assert isinstance(d.op, (Image, Vector))
    return d.op.slot, d.op.asset.shown


def _icon_name(d: Drawn) -> str:
    """'the icon of slot icon (assets/suits/red.svg)' for art, 'a symbol (#d62d3a)' for a drawn shape."""
    if isinstance(d.op, (Image, Vector)):
        slot, file = _slot(d)
        return f"the icon of slot {slot} ({file})"
    colour = getattr(d.op, "fill", None) or getattr(d.op, "stroke", None) or "?"
    return f"a symbol ({colour})"


def _face_name(place: Place) -> str:
    return place.name


def _far_texts(face: _Face, measure: Measure) -> set[int]:
    """The strings of a face that lie nowhere near what is judged on it (no judged string or icon within one
    em of their own size): they cannot touch the pixels under what is judged, so its pictures leave them out,
    and a face whose art, icons and judged strings are drawn the same in another language is drawn once
    (`_PICTURES`). A string drawn twice (one op in two places) stays when either of them is near."""
    regions = [d.box for d, _ in face.texts] + [d.box for d, _ in face.icons]
    far: set[int] = set()
    near: set[int] = set()
    for d in drawn(face.place.ops, measure, art=True):
        if not isinstance(d.op, Text):
            continue
        pad = d.op.size * math.hypot(d.matrix[0], d.matrix[1])
        box = (d.box[0] - pad, d.box[1] - pad, d.box[2] + pad, d.box[3] + pad)
        (near if any(_meets(box, r) for r in regions) else far).add(id(d.op))
    return far - near


@dataclass
class _Picture:
    """A face as drawn for the check, the key it is kept under (None: not kept) and the differences its icons
    made to the face drawn without them (by that face's key, the icon's box and the face's clip)."""

    image: PILImage.Image
    key: Hashable | None
    diffs: dict[Hashable, float | None] = field(default_factory=dict)


class _Pictures:
    """The faces `art_contrast` drew lately, by what decides their pixels (the page's ops, the picture's
    size, the fonts' files), newest last, up to `limit` bytes: a kit's faces in its next language (the same
    art and icons, the strings judged left out) are taken from here instead of drawn again, with the verdicts
    on their icons. Ops are frozen and compare by value, and art by its file's content hash, so a face edited
    in between (`serve`) is drawn anew."""

    def __init__(self, limit: int):
        self.limit = limit
        self.lock = threading.Lock()
        self.held = 0
        self.kept: OrderedDict[Hashable, _Picture] = OrderedDict()

    def draw(
        self, pages: Sequence[Page], sizes: Sequence[tuple[int, int]], fonts: KitFonts | None
    ) -> list[_Picture]:
        """The picture of each page at its size: kept ones, and the others drawn at once (one PDF); a page
        drawn twice here is drawn once."""
        # only when a face has art to judge: validate stays light
        from generator.render.raster import rasterize

        fonts_key = _fonts_key(fonts)
        keys: list[Hashable | None] = []
        for page, size in zip(pages, sizes, strict=True):
            key: Hashable | None = (page.width, page.height, tuple(page.ops), size, fonts_key)
            try:
                hash(key)
            except TypeError:  # an op holding a list: not kept
                key = None
            keys.append(key)
        with self.lock:  # `serve` checks in threads
            found = [self._recall(k) for k in keys]
        first: dict[Hashable, int] = {}  # a face drawn twice here (two cards alike but for what is judged)
        missing = [
            i
            for i, (key, picture) in enumerate(zip(keys, found, strict=True))
            if picture is None and (key is None or first.setdefault(key, i) == i)
        ]
        if missing:
            new = list(rasterize([pages[i] for i in missing], [sizes[i] for i in missing], fonts=fonts))
            with self.lock:
                for i, image in zip(missing, new, strict=True):
                    found[i] = self._keep(keys[i], image)
        out = []
        for i, kept in enumerate(found):
            shown = kept if kept is not None else found[first[keys[i]]]
            assert shown is not None  # every key's first page was drawn
            out.append(shown)
        return out

    def _recall(self, key: Hashable | None) -> _Picture | None:
        picture = self.kept.get(key) if key is not None else None
        if picture is not None:
            self.kept.move_to_end(key)
        return picture

    def _keep(self, key: Hashable | None, image: PILImage.Image) -> _Picture:
        size = image.width * image.height * len(image.getbands())
        if key is None or size > self.limit:
            return _Picture(image, None)
        if key in self.kept:
            return self.kept[key]
        picture = self.kept[key] = _Picture(image, key)
        self.held += size
        while self.held > self.limit:
            _, old = self.kept.popitem(last=False)
            self.held -= old.image.width * old.image.height * len(old.image.getbands())
        return picture


def _fonts_key(fonts: KitFonts | None) -> Hashable:
    """The kit's fonts as what draws them: each role's and weight's chain of files (by content) and the size
    from which bold text is a heading."""
    if fonts is None:
        return None
    return (
        fonts.heading_size,
        tuple(
            (
                role,
                tuple(
                    (weight, tuple((f.sha256, f.oblique) for f in chain)) for weight, chain in weights.items()
                ),
            )
            for role, weights in fonts.chains.items()
        ),
    )


PICTURES_LIMIT = 32 * 2**20
"""Bytes of face pictures `art_contrast` keeps for the next language (a poker card's face at DPI: 0.26 MB)."""

_PICTURES = _Pictures(PICTURES_LIMIT)


def _icon_difference(
    bare: PILImage.Image, with_icons: PILImage.Image, box: Box, place: Place, scale: float
) -> float | None:
    """The median CIEDE2000 difference an icon's box makes to the pixels it paints (None: it paints fewer
    than 4 of them, or its box is off the face). The median: an icon's anti-aliased rim differs little from
    what it is drawn on by nature."""
    before, after = _crop(bare, box, place, scale), _crop(with_icons, box, place, scale)
    if before is None or after is None:
        return None
    old = np.asarray(before, dtype=np.uint8).reshape(-1, 3)
    new = np.asarray(after, dtype=np.uint8).reshape(-1, 3)
    painted = np.any(old != new, axis=1)
    if painted.sum() < 4:
        return None
    return float(np.median(delta_e00_array(to_lab_array(old[painted]), to_lab_array(new[painted]))))


def art_contrast(
    components: Sequence[Component], measure: Measure, fonts: KitFonts | None = None
) -> list[LowContrast]:
    """Every string and icon drawn over art whose contrast against the rendered pixels under it falls short
    (each once per component, string and slot)."""
    faces = _judged(components, measure)
    if not faces:
        return []
    scale = DPI / 72
    pages: list[Page] = []
    for f in faces:
        drop_texts = {id(d.op) for d, _ in f.texts} | _far_texts(f, measure)
        drop_icons = {id(d.op) for d, _ in f.icons}
        pages.append(_page(f.place, _without(f.place.ops, drop_texts | drop_icons)))
        if f.icons:
            pages.append(_page(f.place, _without(f.place.ops, drop_texts)))
    sizes = [(max(1, round(p.width * scale)), max(1, round(p.height * scale))) for p in pages]
    pictures = iter(_PICTURES.draw(pages, sizes, fonts))
    found: dict[tuple[str, str, str], LowContrast] = {}
    for f in faces:
        bare = next(pictures)
        with_icons = next(pictures) if f.icons else None
        for d, art in f.texts:
            assert isinstance(d.op, Text)
            text = d.op
            crop = _crop(
                with_icons.image if with_icons is not None else bare.image, d.box, f.place, scale
            )  # all but the strings: what is under them
            if crop is None:
                continue
            ratio = _text_contrast(_rgb(text.fill), crop)
            size = text.size * math.hypot(d.matrix[0], d.matrix[1])
            large = size >= LARGE_TEXT - 1e-6 or (
                text.font in ("bold", "bold_italic") and size >= LARGE_BOLD_TEXT - 1e-6
            )
            needed = LARGE_TEXT_RATIO if large else TEXT_RATIO
            if ratio < needed:
                slot, file = _slot(art)
                what = f"text {text.text_id or '(no id)'} {text.text[:40]!r} at {size:.1f} pt"
                key = (f.component, slot, f"{what} {text.fill}")
                found.setdefault(
                    key,
                    LowContrast(f.component, _face_name(f.place), slot, file, what, ratio, needed, ":1"),
                )
        if with_icons is None:
            continue
        for d, art in f.icons:
            seen = (bare.key, d.box, f.place.clip)  # the same icon on the same pictures: the same difference
            if bare.key is not None and seen in with_icons.diffs:
                diff = with_icons.diffs[seen]
            else:
                diff = _icon_difference(bare.image, with_icons.image, d.box, f.place, scale)
                if bare.key is not None:
                    with_icons.diffs[seen] = diff
            if diff is None:
                continue
            if diff < ICON_DELTA_E:
                slot, file = _slot(art)
                what = _icon_name(d)
                key = (f.component, slot, what)
                found.setdefault(
                    key,
                    LowContrast(
                        f.component, _face_name(f.place), slot, file, what, diff, ICON_DELTA_E, " ΔE00"
                    ),
                )
    return list(found.values())


__all__ = [
    "ICON_DELTA_E",
    "LARGE_TEXT_RATIO",
    "TEXT_RATIO",
    "LowContrast",
    "art_contrast",
    "contrast_ratio",
    "delta_e00",
    "luminance",
    "to_lab",
    "vector_bands",
]


# ---------------------------------------------------------------- the bleed band of vector art

BAND_DPI = 150
"""Pixels per inch the bleed band of full-bleed SVG art is judged at (a 3 mm band: about 18 pixels)."""
CLEAR = 24
"""How far (0..255, any channel) a pixel of art drawn on black may differ from the same pixel drawn on white
before it counts as letting the paper through."""


def vector_bands(pages: Sequence[Page]) -> list[tuple[str, str]]:
    """(slot, message) for each full-bleed SVG art whose bleed band lets the paper through (not opaque): the
    art alone is drawn on white and on black (pdfium, as it prints); where the two differ, the band is clear.
    Rasters are judged from their own alpha (layout/art.py); each art file and box once."""
    from generator.layout.art import _SIDES, band_message, band_where
    from generator.layout.ops import iter_art

    jobs: dict[tuple[str, str, float, float, str, tuple[float, float, float, float]], Vector] = {}
    for page in pages:
        for op, _ in iter_art(page.ops):
            if isinstance(op, Vector) and op.bleed and any(op.band) and op.w > 0 and op.h > 0:
                key = (op.slot, op.asset.sha256, round(op.w, 2), round(op.h, 2), op.fit, op.band)
                jobs.setdefault(key, op)
    if not jobs:
        return []
    from generator.render.raster import rasterize  # only when there is a band to judge: validate stays light

    scale = BAND_DPI / 72
    pages_out: list[Page] = []
    for op in jobs.values():
        art = Place(-op.x, -op.y, (op,), clip=(op.x, op.y, op.w, op.h))
        pages_out.append(Page(op.w, op.h, [art]))
        pages_out.append(Page(op.w, op.h, [Rect(0, 0, op.w, op.h, fill="#000000", stroke=None), art]))
    sizes = [(max(1, round(p.width * scale)), max(1, round(p.height * scale))) for p in pages_out]
    pictures = iter(list(rasterize(pages_out, sizes)))
    out: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for op in jobs.values():
        on_white = np.asarray(next(pictures), dtype=np.int16)
        on_black = np.asarray(next(pictures), dtype=np.int16)
        clear = np.any(np.abs(on_white - on_black) > CLEAR, axis=2)
        height, width = clear.shape
        left, bottom, right, top = (max(1, round(b * scale)) if b > 0 else 0 for b in op.band)
        regions = (
            clear[:, :left],
            clear[height - bottom :, :] if bottom else clear[:0],
            clear[:, width - right :] if right else clear[:, :0],
            clear[:top, :],
        )
        found = [
            (side, float(r.mean())) for side, r in zip(_SIDES, regions, strict=True) if r.size and r.any()
        ]
        if found and (op.slot, op.asset.shown) not in seen:
            seen.add((op.slot, op.asset.shown))
            out.append((op.slot, band_message(op.asset.shown, band_where(found, max(op.band)))))
    return out
