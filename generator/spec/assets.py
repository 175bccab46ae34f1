"""Art of a kit (`components.<id>.art.<slot>` of kit.yaml): images (PNG, JPEG, WebP) and SVG files in the kit
folder, resolved once, confined to the folder like catalogs and fonts, read once with a size cap and decoded
behind this one door: a raster is decoded by Pillow (pixel cap checked before decoding, truncation and
mislabelling refused, CMYK and ICC-profiled images turned into sRGB, transparency kept); an SVG is parsed
with defusedxml (no DOCTYPE, entities, external or `file:` references, scripts, over-deep nesting) before
svglib turns it into vector drawings. What leaves this module is typed: `Asset` (content hash, kind, size and
the decoded picture) and `KitArt` (every filled slot of every component).

This is the only module outside render/ that may import Pillow and svglib (tests/test_architecture.py says
so): decoding is parsing, and parsing happens at the edge, where a problem can still name its file, line and
key."""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import re
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from generator.errors import Problem, SpecError
from generator.spec.base import SpecModel
from generator.spec.paths import list_names, read_bytes, relative_path_problem, resolve_inside

MAX_RASTER_BYTES = 40 * 1024 * 1024
"""An image file over 40 MiB is refused unread (a 300 dpi A3 poster as PNG is about 25 MiB)."""
MAX_SVG_BYTES = 4 * 1024 * 1024
"""An SVG over 4 MiB is refused unread (an icon is a few KiB)."""
MAX_PIXELS = 60_000_000
"""A raster over 60 megapixels is refused before it is decoded (A3 at 400 dpi is 31 Mpx): decompression
bombs."""
MAX_SVG_DEPTH = 40
"""Elements nested deeper than this are refused (the parser and svglib recurse)."""
MAX_SVG_ELEMENTS = 50_000
MAX_ASSETS = 400
OPAQUE = 250
"""Alpha (0..255) from which a pixel counts as opaque (what prints as the art, not as the paper under it)."""
"""At most this many files per kit (a template such as assets/cards/{id}.png may match many)."""

Fit = Literal["cover", "contain", "stretch"]
Kind = Literal["png", "jpeg", "webp", "svg"]
_EXT: dict[str, Kind] = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".webp": "webp", ".svg": "svg"}
_PIL_FORMAT = {"PNG": "png", "JPEG": "jpeg", "WEBP": "webp"}
_FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_PATH_HELP = (
    "an image (.png, .jpg, .webp) or .svg file inside the kit folder, as a path relative to it "
    "(e.g. assets/back.png); {field} names the face's data (e.g. assets/suits/{suit}.svg)"
)


class ArtSpec(SpecModel):
    """The art in one slot of a component, and how it fills the slot's box."""

    path: str = Field(description=f"the file: {_PATH_HELP}")
    fit: Fit | None = Field(
        None,
        description=(
            "cover: fill the box, cutting off what overflows; contain: all of the art inside the box (the "
            "rest shows what is under it); stretch: fill the box exactly, distorting the art. Unset: cover "
            "for a back or background slot, contain for a logo, an icon and every other mark (never cropped)"
        ),
    )
    bleed: bool = Field(
        False,
        description=(
            "run the art past the trim into the bleed on every side where the box touches the trim (backs "
            "and backgrounds); art that then does not cover the bleed is an error"
        ),
    )
    opacity: float = Field(1.0, ge=0.0, le=1.0, description="0 (invisible) .. 1 (opaque)")
    tint: bool | str = Field(
        False,
        description=(
            "SVG only: paint every shape of the art in one colour: true for the colour the slot would draw "
            "in (the suit or colour of the symbol it replaces), or '#rrggbb'"
        ),
    )

    @field_validator("tint")
    @classmethod
    def _tint(cls, v: bool | str) -> bool | str:
        if isinstance(v, str) and not _COLOUR.fullmatch(v):
            raise ValueError(f"expected true, false or a colour '#rrggbb'; got {v!r}")
        return v

    @model_validator(mode="before")
    @classmethod
    def _path_only(cls, v: Any) -> Any:
        return {"path": v} if isinstance(v, str) else v

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> dict[str, Any]:
        """In kit.yaml a slot is a bare path (`_path_only`) or the mapping: the schema an editor checks says
        so."""
        mapping = handler.resolve_ref_schema(handler(core_schema))
        return {
            "anyOf": [{"type": "string", "description": f"the file alone: {_PATH_HELP}"}, dict(mapping)],
            "title": mapping.get("title", cls.__name__),
            "description": mapping.get("description", ""),
        }


@dataclass(frozen=True)
class Asset:
    """One checked art file: where it is (as written), what it is, its content hash and its decoded
    picture."""

    shown: str
    kind: Kind
    sha256: str
    width: float
    """Pixels for a raster; points for an SVG (its width, else its viewBox)."""
    height: float
    data: bytes = field(repr=False, compare=False)
    decoded: Any = field(default=None, repr=False, compare=False)
    """A raster: the decoded Pillow image; an SVG: svglib's Drawing once drawn (see `picture`)."""
    source_mode: str = ""
    """The raster's mode in the file (e.g. CMYK) before it became RGB(A)."""
    texts: tuple[tuple[str, str], ...] | None = field(default=None, repr=False, compare=False)
    """An SVG's texts as svglib draws them (see `svg_texts`), found when the SVG was checked."""

    @property
    def picture(self) -> Any:
        """A raster: the decoded Pillow image (RGB or RGBA, sRGB); an SVG: the svglib Drawing (vector shapes),
        drawn on first use when the check of the file was remembered (`probe`): a check that draws nothing
        never imports svglib and reportlab."""
        if self.decoded is None and self.kind == "svg" and self.data:
            object.__setattr__(self, "decoded", _svg_drawing(self.data))
        return self.decoded

    @property
    def is_vector(self) -> bool:
        """Whether the art is an SVG (drawn as vector paths)."""
        return self.kind == "svg"

    def transparent_share(self, box: tuple[float, float, float, float]) -> float:
        """The share of a raster's pixels inside `box` (u0, v0, u1, v1: fractions of its width and height from
        its top-left corner) that are not opaque (alpha under OPAQUE); 0 for a picture without an alpha
        channel and for an SVG."""
        if self.kind == "svg" or self.picture is None or self.picture.mode != "RGBA":
            return 0.0
        width: int = self.picture.size[0]
        height: int = self.picture.size[1]
        u0, v0, u1, v1 = box
        left, right = max(0, math.floor(u0 * width)), min(width, math.ceil(u1 * width))
        top, bottom = max(0, math.floor(v0 * height)), min(height, math.ceil(v1 * height))
        if right <= left or bottom <= top:
            return 0.0
        counts: list[int] = self.picture.getchannel("A").crop((left, top, right, bottom)).histogram()
        return sum(counts[:OPAQUE]) / ((right - left) * (bottom - top))

    def svg_texts(self) -> list[tuple[str, str]]:
        """An SVG's texts as svglib draws them: (characters, weight 'regular' or 'bold'), in document order;
        the renderer sets each in the kit's body faces of that weight (embedded), never in the font-family
        the SVG names."""
        if self.kind != "svg":
            return []
        return list(self.texts) if self.texts is not None else svg_texts(self.picture)


@dataclass(frozen=True)
class SlotArt:
    """One filled slot: the options from kit.yaml and every file its path (template) names."""

    component: str
    slot: str
    spec: ArtSpec
    fields: tuple[str, ...]
    assets: Mapping[str, Asset] = field(repr=False)
    line: int | None = None

    def pick(self, values: Mapping[str, object]) -> Asset | None:
        """The asset for a face whose data are `values` ({field} filled in), None when no file is there."""
        try:
            shown = self.spec.path.format_map({k: str(v) for k, v in values.items()})
        except (KeyError, IndexError, ValueError):
            return None
        return self.assets.get(shown)


@dataclass(frozen=True)
class KitArt:
    """Every filled slot of the kit by (component id, slot name)."""

    slots: Mapping[tuple[str, str], SlotArt]

    def get(self, component: str, slot: str) -> SlotArt | None:
        """The art of a component's slot, None when the kit leaves it empty."""
        return self.slots.get((component, slot))

    def key(self, component: str | None = None) -> list[tuple[str, str, list[tuple[str, str]]]]:
        """What a build key needs: each slot's files by content (one component's, or every one)."""
        return [
            (cid, slot, sorted((a.shown, a.sha256) for a in art.assets.values()))
            for (cid, slot), art in sorted(self.slots.items())
            if component is None or cid == component
        ]


# ---------------------------------------------------------------- the door


def probe(data: bytes, shown: str) -> Asset:
    """The checked, decoded asset of a file's bytes; a hostile or broken file raises ValueError saying why."""
    ext = Path(shown).suffix.lower()
    kind = _EXT.get(ext)
    if kind is None:
        raise ValueError(f"expected a .png, .jpg, .jpeg, .webp or .svg file; got {ext or 'no extension'!r}")
    sha = hashlib.sha256(data).hexdigest()
    if kind == "svg":
        width, height = check_svg(data)
        texts = _drawn_before(sha)
        if texts is not None:  # svglib drew these bytes before (same versions): it will again, on first use
            return Asset(shown, kind, sha, width, height, data, texts=texts)
        drawing = _svg_drawing(data)
        texts = tuple(svg_texts(drawing))
        _remember_drawn(sha, texts)
        return Asset(shown, kind, sha, width, height, data, drawing, texts=texts)
    sniffed = _sniff(data)
    if sniffed is None:
        raise ValueError(f"not a PNG, JPEG or WebP image (named {ext}; the first bytes are {data[:8]!r})")
    if sniffed != kind:
        raise ValueError(f"mislabelled: named {ext} but it is a {sniffed.upper()} image")
    image, mode = _decode(data, kind)
    return Asset(shown, kind, sha, float(image.width), float(image.height), data, image, mode)


def _sniff(data: bytes) -> Kind | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


def _decode(data: bytes, kind: Kind) -> tuple[Any, str]:
    """Pillow decodes the image once, after its header's pixel count passed the cap."""
    from PIL import Image, ImageCms

    image: Any

    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data), formats=[k for k, v in _PIL_FORMAT.items() if v == kind])
        except Image.DecompressionBombError:
            raise ValueError(f"over {MAX_PIXELS:,} pixels (a decompression bomb?)") from None
        except Exception as e:  # Pillow raises many types for garbage
            raise ValueError(f"damaged: Pillow cannot read it ({_why(e)})") from None
        w, h = image.size
        if w <= 0 or h <= 0 or w * h > MAX_PIXELS:
            raise ValueError(
                f"{w}x{h} pixels is over the limit of {MAX_PIXELS:,} pixels (a decompression bomb?)"
            )
        try:
            frames = int(getattr(image, "n_frames", 1))
        except Exception as e:  # counting frames reads the whole file for some formats
            raise ValueError(f"damaged: Pillow cannot read it ({_why(e)})") from None
        if frames > 1:
            raise ValueError(f"an animation of {frames} frames; give a still image")
        mode = image.mode
        try:
            image.load()
        except Exception as e:
            raise ValueError(f"truncated or damaged ({_why(e)})") from None
    icc = image.info.get("icc_profile")
    alpha = (
        mode in ("RGBA", "LA", "PA")
        or (mode == "P" and "transparency" in image.info)
        or (mode in ("RGB", "L") and "transparency" in image.info)
    )
    target = "RGBA" if alpha else "RGB"
    if icc and mode in ("RGB", "RGBA", "CMYK", "L"):
        # colour-managed: the file's profile to sRGB, so print and screen agree and PDF/A needs no
        # other profile
        try:
            src = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            srgb = ImageCms.createProfile("sRGB")
            converted = ImageCms.profileToProfile(
                image, src, srgb, outputMode="RGBA" if mode == "RGBA" else "RGB"
            )
            image = converted if converted is not None else image
        except Exception as e:
            raise ValueError(f"its colour profile (ICC) is damaged ({_why(e)})") from None
    elif mode == "CMYK" and kind == "jpeg" and "adobe" in image.info:
        pass  # Pillow already undoes Adobe's inverted CMYK on reading
    if image.mode != target:
        # Pillow's conversion of a decoded but odd image (a palette out of range) is inside the guard too
        try:
            image = image.convert(target)
        except Exception as e:
            raise ValueError(f"damaged: Pillow cannot convert it to {target} ({_why(e)})") from None
    image.info.pop("icc_profile", None)
    return image, mode


_FORBIDDEN_TAGS = {"script", "foreignObject", "iframe", "embed", "object", "include", "handler", "listener"}
_HREF_ATTRS = ("href", "{http://www.w3.org/1999/xlink}href", "src")
_URL = re.compile(r"url\(\s*['\"]?\s*([^)'\"\s]*)", re.IGNORECASE)
_LENGTH = re.compile(r"\s*([0-9]*\.?[0-9]+)\s*(px|pt|mm|cm|in|)\s*")
_UNIT = {"": 0.75, "px": 0.75, "pt": 1.0, "mm": 72 / 25.4, "cm": 72 / 2.54, "in": 72.0}


def check_svg(data: bytes) -> tuple[float, float]:
    """The size in points of an SVG that is safe to draw; ValueError saying why one is not: a DOCTYPE or
    entity, an external or `file:` reference, a script or event handler, over-deep nesting, too many
    elements."""
    import defusedxml.ElementTree as DET
    from defusedxml import DefusedXmlException

    if b"<!DOCTYPE" in data[:4096].upper() or b"<!ENTITY" in data.upper():
        raise ValueError("an SVG with a DOCTYPE or entities is refused (entity expansion, external entities)")
    _check_depth(data)
    try:
        root = DET.fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as e:
        raise ValueError(f"refused: {type(e).__name__} (DOCTYPE, entities or external references)") from None
    except Exception as e:
        raise ValueError(f"not well-formed XML ({_why(e)})") from None
    if _local(root.tag) != "svg":
        raise ValueError(f"not an SVG: the root element is <{_local(root.tag)}>")
    count = 0
    for el in root.iter():
        count += 1
        if count > MAX_SVG_ELEMENTS:
            raise ValueError(f"over {MAX_SVG_ELEMENTS:,} elements")
        tag = _local(el.tag) if isinstance(el.tag, str) else ""
        if tag in _FORBIDDEN_TAGS or "XInclude" in str(el.tag):
            raise ValueError(f"<{tag}> is refused (scripts and embedded documents)")
        if tag == "image":
            raise ValueError(
                "<image> is refused: an SVG must be vector shapes (give a raster as its own file)"
            )
        for name, value in el.attrib.items():
            local = _local(name)
            if local.lower().startswith("on"):
                raise ValueError(f"the event handler {local}= on <{tag}> is refused (scripts)")
            if name in _HREF_ATTRS and not value.strip().startswith("#"):
                raise ValueError(
                    f"<{tag} {local}={value[:60]!r}>: only references inside the file ('#id') are "
                    "allowed, no external or file: references"
                )
            for url in _URL.findall(value):
                if url and not url.startswith("#"):
                    raise ValueError(f"<{tag} {local}=... url({url[:60]!r})>: only url(#id) is allowed")
        if tag == "style" and el.text:
            if "@import" in el.text or any(u and not u.startswith("#") for u in _URL.findall(el.text)):
                raise ValueError("<style> imports or links an outside file; only url(#id) is allowed")
    width, height = _svg_size(root)
    if not (0 < width <= 20_000 and 0 < height <= 20_000):
        raise ValueError(
            f"its size {width:g}x{height:g} pt is empty or absurd; give width/height or a viewBox"
        )
    return width, height


def _check_depth(data: bytes) -> None:
    """Nesting counted by a streaming tokenizer before any tree is built (a deep tree overflows recursion)."""
    depth = 0
    for m in re.finditer(rb"<(/?)([A-Za-z_!?])[^>]*?(/?)>", data):
        if m.group(2) in (b"!", b"?"):
            continue
        if m.group(1):
            depth -= 1
        elif not m.group(3):
            depth += 1
            if depth > MAX_SVG_DEPTH:
                raise ValueError(f"elements nested over {MAX_SVG_DEPTH} deep")


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def _svg_size(root: Any) -> tuple[float, float]:
    def length(value: str | None) -> float | None:
        m = _LENGTH.fullmatch(value or "")
        return float(m.group(1)) * _UNIT[m.group(2)] if m else None

    box = (
        [float(v) for v in re.split(r"[\s,]+", (root.get("viewBox") or "").strip()) if v]
        if re.fullmatch(r"[\s,0-9.eE+-]*", root.get("viewBox") or "")
        else []
    )
    w, h = length(root.get("width")), length(root.get("height"))
    if w is None or h is None:
        if len(box) != 4:
            return 0.0, 0.0
        return (w if w is not None else box[2] * 0.75), (h if h is not None else box[3] * 0.75)
    return w, h


def svg_texts(drawing: Any) -> list[tuple[str, str]]:
    """The texts (svglib String nodes) of an svglib drawing: (characters, 'bold' when svglib's font name for
    the SVG's family and weight says so, else 'regular')."""
    out: list[tuple[str, str]] = []

    def walk(node: Any) -> None:
        for child in getattr(node, "contents", ()) or ():
            if hasattr(child, "contents"):
                walk(child)
            elif isinstance(getattr(child, "text", None), str) and hasattr(child, "fontName"):
                out.append((child.text, "bold" if "bold" in str(child.fontName or "").lower() else "regular"))

    walk(drawing)
    return out


def _svg_drawing(data: bytes) -> Any:
    """svglib's vector Drawing of a checked SVG (parsed once per file per build)."""
    import logging

    from svglib.svglib import svg2rlg

    logging.getLogger("svglib").setLevel(logging.CRITICAL)  # unsupported features are dropped, not fatal
    try:
        drawing = svg2rlg(io.BytesIO(data))
    except Exception as e:
        raise ValueError(f"svglib cannot draw it ({_why(e)})") from None
    if drawing is None or drawing.width <= 0 or drawing.height <= 0:
        raise ValueError("svglib cannot draw it (no size)")
    return drawing


MAX_DRAWN_NOTE = 1 << 20
"""The largest note of an SVG's texts read back (bytes): a bigger file in the cache folder is ignored."""


def _drawn_file(sha: str) -> Path | None:
    """Where the texts of an SVG that svglib drew are remembered, by content hash and by the versions of
    svglib and reportlab that drew it: `$XDG_CACHE_HOME/pnpkit/svg/...` (`~/.cache/...`); None when the
    versions cannot be read."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        drawn_by = f"svglib-{version('svglib')}-reportlab-{version('reportlab')}-1"
    except PackageNotFoundError:
        return None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pnpkit" / "svg" / re.sub(r"[^A-Za-z0-9._-]", "_", drawn_by) / f"{sha}.json"


def _drawn_before(sha: str) -> tuple[tuple[str, str], ...] | None:
    """The texts svglib found in the SVG of this content hash when it drew it before, None when it did not
    (or the note is unreadable: then svglib draws it again). Only files svglib drew are noted, so a file it
    refuses is refused again with the same message."""
    where = _drawn_file(sha)
    try:
        # a plain file of a sane size only (never a FIFO or a huge file left in the cache folder)
        if where is None or not where.is_file() or where.stat().st_size > MAX_DRAWN_NOTE:
            return None
        got = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(got, list) or not all(
        isinstance(t, list) and len(t) == 2 and isinstance(t[0], str) and t[1] in ("regular", "bold")
        for t in got
    ):
        return None
    return tuple((t[0], t[1]) for t in got)


def _remember_drawn(sha: str, texts: tuple[tuple[str, str], ...]) -> None:
    """Note that svglib drew the SVG of this content hash and the texts it found (best effort: a cache
    folder that cannot be written only costs the next check the drawing)."""
    where = _drawn_file(sha)
    if where is None:
        return
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        tmp = where.with_name(f"{where.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps([list(t) for t in texts], ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, where)
    except OSError:
        return


def _why(e: BaseException) -> str:
    text = str(e).strip().splitlines()[0][:100] if str(e).strip() else ""
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


# ---------------------------------------------------------------- resolving


def resolve_art(
    components: Mapping[str, Any], root: Path, display: str, key_line: Callable[[str], int | None]
) -> KitArt | None:
    """Every `components.<id>.art.<slot>` file resolved inside `root`, read once (capped) and decoded behind
    the door; a path with {field} placeholders takes every file its pattern matches. Every problem located."""
    problems: list[Problem] = []
    files: dict[str, Asset] = {}
    slots: dict[tuple[str, str], SlotArt] = {}

    def load(shown: str, real: Path) -> Asset:
        if shown not in files:
            if len(files) >= MAX_ASSETS:
                raise ValueError(f"over {MAX_ASSETS} art files in one kit")
            limit = MAX_SVG_BYTES if shown.lower().endswith(".svg") else MAX_RASTER_BYTES
            try:
                data = read_bytes(real, display, limit, shown)
            except SpecError as e:
                raise ValueError(e.problems[0].message) from None
            try:
                files[shown] = probe(data, shown)
            except ValueError as e:
                raise ValueError(f"{shown}: {e}") from None
        return files[shown]

    for cid, comp in components.items():
        for slot, spec in getattr(comp, "art", {}).items():
            key = f"components.{cid}.art.{slot}"
            try:
                fields = tuple(_FIELD.findall(spec.path))
                found = _resolve_one(spec.path, fields, root, display, load)
            except ValueError as e:
                problems.append(Problem(display, key_line(f"{key}.path") or key_line(key), key, str(e)))
                continue
            if spec.tint is not False and any(not a.is_vector for a in found.values()):
                problems.append(
                    Problem(
                        display,
                        key_line(key),
                        f"{key}.tint",
                        "only SVG art can be tinted; a raster image keeps its own colours",
                    )
                )
            slots[(cid, slot)] = SlotArt(cid, slot, spec, fields, found, key_line(key))
    if problems:
        raise SpecError(problems)
    return KitArt(slots) if slots else None


def _resolve_one(
    template: str, fields: tuple[str, ...], root: Path, display: str, load: Callable[[str, Path], Asset]
) -> dict[str, Asset]:
    why = relative_path_problem(template, _PATH_HELP)
    if why:
        raise ValueError(why)
    rest = _FIELD.sub("", template)
    if "{" in rest or "}" in rest:
        raise ValueError(f"a placeholder is written {{field}} with a lower-case name; got {template!r}")
    if not fields:
        real = _inside(root, template, display)
        if real is None:
            raise ValueError(f"no such file in the kit folder: {template!r}")
        return {template: load(template, real)}
    folder, _, name = template.replace("\\", "/").rpartition("/")
    if _FIELD.search(folder):
        raise ValueError(f"a placeholder may only be in the file name, not in the folder; got {template!r}")
    pattern = re.compile(
        "".join(f"(?P<{m}>[^/\\\\]+)" if i % 2 else re.escape(m) for i, m in enumerate(_FIELD.split(name)))
    )
    try:
        base = (root / folder).resolve(strict=True)
    except OSError:
        raise ValueError(f"no such folder in the kit folder: {folder or '.'!r}") from None
    if base != root and root not in base.parents:
        raise ValueError(f"the folder {folder!r} resolves outside the kit folder (symlink?)")
    found: dict[str, Asset] = {}
    for entry in list_names(root, root / folder):  # through the door: the build keys itself on this listing
        if entry.startswith(".") or not pattern.fullmatch(entry):
            continue
        shown = f"{folder}/{entry}" if folder else entry
        real = _inside(root, shown, display)
        if real is not None:
            found[shown] = load(shown, real)
    if not found:
        raise ValueError(f"no file in {folder or '.'!r} matches {name!r}")
    return found


def _inside(root: Path, shown: str, display: str) -> Path | None:
    try:
        return resolve_inside(root, root / shown, display, f"the art {shown!r}")
    except SpecError as e:
        raise ValueError(e.problems[0].message) from None


ICON_FOLDER = "assets/icons"
"""Where a kit's own inline icons live: `style.icons: [coin]` is assets/icons/coin.svg."""


def icon_path(name: str) -> str:
    """The file of the kit icon `name`, relative to the kit folder."""
    return f"{ICON_FOLDER}/{name}.svg"


def resolve_icons(
    names: list[str], root: Path, display: str, key_line: Callable[[str], int | None]
) -> tuple[dict[str, Asset], list[Problem]]:
    """The SVG of every declared `style.icons` name, resolved inside `root`, read once (capped at
    MAX_SVG_BYTES, regular files only) and checked like any SVG art; nothing else in assets/icons/ is opened.
    Each problem is located at its `style.icons[i]`."""
    icons: dict[str, Asset] = {}
    problems: list[Problem] = []
    for i, name in enumerate(names):
        shown = icon_path(name)
        key = f"style.icons[{i}]"
        line = key_line(key) or key_line("style.icons")
        try:
            real = resolve_inside(root, root / shown, display, f"the icon {shown!r}")
            if real is None:
                problems.append(
                    Problem(
                        display, line, key, f"no such file in the kit folder: {shown!r} (the icon :{name}:)"
                    )
                )
                continue
            icons[name] = probe(read_bytes(real, display, MAX_SVG_BYTES, shown), shown)
        except SpecError as e:
            problems.append(Problem(display, line, key, e.problems[0].message))
        except ValueError as e:
            problems.append(Problem(display, line, key, f"{shown}: {e}"))
    return icons, problems
