"""A seeded mutation fuzzer over the shipped kits (issue 12), shared by the quick CI slice (tests/fuzz) and
the full run (`python bench/fuzz.py`).

Every case is one mutated kit folder (kit.yaml or a catalog changed by a seeded numpy Generator). A case is
built in a worker process (`generator.pipeline.build`, English only, into a fresh output folder) and
classified:

- clean error: a KitError (the CLI prints it and exits 1) and the output folder holds no file;
- accepted: the build succeeded and wrote exactly the files it reports, with no staging folder left;
- traceback: any other exception (the CLI would print a traceback) -- a bug;
- partial output: files written although the build failed, or a staging folder left -- a bug;
- slow: over SLOW_SECONDS, or killed at HANG_SECONDS (the worker is replaced) -- a bug.

The worker is a long-lived process (kept from one `run_cases` call to the next) so the library is imported
once; classification needs to see which exception escaped, so the worker inspects it (the quick slice also
runs a sample through the CLI command and checks exit code and stderr there).
"""

from __future__ import annotations

import atexit
import copy
import functools
import multiprocessing as mp
import os
import queue
import re
import shutil
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
KITS = sorted(p for p in (ROOT / "layouts").iterdir() if (p / "kit.yaml").is_file())
SLOW_SECONDS = 30.0
HANG_SECONDS = 90.0
MEMORY_LIMIT = 3 * 1024**3

# ------------------------------------------------------------------ hostile values

HOSTILE_SCALARS: list[Any] = [
    0,
    -1,
    -7,
    1,
    2,
    3,
    7,
    10**6,
    10**12,
    10**20,
    2**63,
    -(2**63),
    10**30,
    0.5,
    -0.5,
    1e308,
    float("inf"),
    True,
    False,
    None,
    "",
    "3",
    "12",
    "x",
    "0mm",
    "-40mm",
    "-10mm",
    "900mm",
    "0.0000001mm",
    "1e9mm",
    "\uff15mm",
    "63.5mm",
    "1in",
    "2cm",
    "12pt",
    "\x1b[31mred",
    "a" * 300,
    "#ff0000",
    "white",
    "en",
    "poker",
    "nan",
    "-0mm",
]
HOSTILE_TEMPLATES: list[str] = [
    "{% include 'x' %}",
    "{% import 'x' as y %}",
    "{% from 'x' import y %}",
    "{% extends 'x' %}",
    "{% for i in range(10**6) %}x{% endfor %}",
    "{{ self }}",
    "{{ '%s'|format(self) }}",
    "{{ plural }}",
    "{{ num }}",
    "{{ [1, 2, 3]|random }}",
    "{{ 'x' * 10**9 }}",
    "{{ 9**9**9 }}",
    "{{ lipsum() }}",
    "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}",
    "{{ ''.__class__.__mro__ }}",
    "{{ 1/0 }}",
    "{% for i in range(1000) %}{% for j in range(1000) %}{% endfor %}{% endfor %}",
    "{{",
    "{% if %}",
    "{{ nope }}",
    "{{ plural(1) }}",
    "{{ join(1) }}",
    "{{ '{:>99999999}'.format(1) }}",
    "\x00\x1b[2J",
    "{{ 'a' % 1 }}",
    "{% set a = 'x' * 4000 %}{{ a ~ a }}",
    "{% for x in 'ab' recursive %}{{ loop(x) }}{% endfor %}",
    "x" * 5000,
    "{{ range }}",
    "{{ players_min|center(10**9) }}",
    "{{ players_min ~ '' }}",
]
PO_MUTATIONS = [
    "unterminated",
    "duplicate",
    "latin1_header",
    "unknown_charset",
    "latin1_bytes",
    "garbage",
    "template",
    "cr",
    "empty",
    "truncate",
    "bom",
]


@dataclass
class Case:
    """One fuzz case: which kit, which mutation (a readable label) and the files to write over the copy."""

    kit: str
    label: str
    files: dict[str, bytes]
    links: dict[str, str] = field(default_factory=dict)
    """Symlinks to make in the copy: path in the kit -> target (absolute, or relative to the link)."""


@dataclass
class Outcome:
    """How one case ended."""

    case: Case
    kind: str  # clean | accepted | traceback | partial | slow
    seconds: float
    detail: str = ""


@dataclass
class Summary:
    """Counts of a run, and the cases that are bugs."""

    outcomes: list[Outcome] = field(default_factory=list)

    def counts(self) -> Counter[str]:
        """Outcome kind -> count."""
        return Counter(o.kind for o in self.outcomes)

    def line(self) -> str:
        """The one-line result the issue asks for."""
        c = self.counts()
        return (
            f"{len(self.outcomes)} specs: {c['clean']} clean errors, {c['accepted']} accepted, "
            f"{c['traceback']} tracebacks, {c['partial']} partial outputs, {c['slow']} slow"
        )

    def bugs(self) -> list[Outcome]:
        """Every case that is not a clean error or a clean build."""
        return [o for o in self.outcomes if o.kind not in ("clean", "accepted")]


# ------------------------------------------------------------------ mutations


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path] if path else []
    if isinstance(data, dict):
        for k, v in data.items():
            out += _leaves(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _leaves(v, path + (i,))
    return out


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        data = data[p]
    return data


def _dump(data: Any) -> bytes:
    """YAML text of the mutated data (JSON, which YAML reads, when it nests too deep for the YAML dumper)."""
    import io
    import json

    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    buf = io.StringIO()
    try:
        yaml.dump(data, buf)
    except RecursionError:
        return json.dumps(data, indent=1, ensure_ascii=False).encode("utf-8")
    return buf.getvalue().encode("utf-8")


def _structural(rng: np.random.Generator, data: Any) -> tuple[str, Any]:
    """Change one node of the parsed spec."""
    paths = _leaves(data)
    path = paths[int(rng.integers(len(paths)))]
    parent = _get(data, path[:-1])
    key = path[-1]
    dotted = ".".join(str(p) for p in path)
    op = rng.choice(
        ["scalar", "scalar", "scalar", "near", "near", "delete", "unknown", "list", "deep", "swap_type"]
    )
    current = parent[key]
    if op == "near" and isinstance(current, int) and not isinstance(current, bool):
        # near-valid numbers: cross-field rules (kept > dealt, more goals than rows) and "validates must
        # build"
        value = int(rng.choice([current - 1, current + 1, current * 2, current * 10, current * 100, 0, 1]))
        parent[key] = value
        return f"{dotted} = {value} (was {current})", data
    if op == "near" and isinstance(current, str) and current[:1].isdigit():
        value = str(rng.choice(["0", "1", "150", "300", "0.5"])) + "mm"
        parent[key] = value
        return f"{dotted} = {value!r} (was {current!r})", data
    if op in ("scalar", "near") or (op == "delete" and isinstance(parent, list)):
        value = HOSTILE_SCALARS[int(rng.integers(len(HOSTILE_SCALARS)))]
        if isinstance(value, str) and len(value) == 300 and rng.random() < 0.2:
            value = "z" * 200_000
        parent[key] = value
        return f"{dotted} = {value!r:.40}", data
    if op == "delete":
        del parent[key]
        return f"del {dotted}", data
    if op == "unknown":
        target = _get(data, path) if isinstance(_get(data, path), dict) else parent
        if isinstance(target, dict):
            target["surprise_key"] = 1
            return f"{dotted}.surprise_key", data
        parent[key] = {"surprise_key": 1}
        return f"{dotted} = {{surprise_key}}", data
    if op == "list":
        value = _get(data, path)
        parent[key] = [value] * int(rng.choice([0, 2, 50]))
        return f"{dotted} = [x]*n", data
    if op == "deep":
        depth = int(rng.choice([30, 60, 400]))
        nested: Any = 1
        for _ in range(depth):
            nested = [nested]
        parent[key] = nested
        return f"{dotted} = nested {depth}", data
    parent[key] = {"a": 1} if not isinstance(parent[key], dict) else "text"
    return f"{dotted} type swapped", data


def _textual(rng: np.random.Generator, text: str) -> tuple[str, bytes]:
    """Change the kit.yaml text itself."""
    lines = text.split("\n")
    op = rng.choice(
        [
            "cr",
            "crlf",
            "drop_line",
            "dup_line",
            "truncate",
            "tab",
            "fullwidth",
            "byte",
            "bom",
            "deep_flow",
            "long_number",
            "control",
            "anchor_bomb",
        ]
    )
    i = int(rng.integers(len(lines)))
    if op == "cr":
        return "CR line endings", text.replace("\n", "\r").encode()
    if op == "crlf":
        return "CRLF line endings", text.replace("\n", "\r\n").encode()
    if op == "drop_line":
        return f"drop line {i + 1}", "\n".join(lines[:i] + lines[i + 1 :]).encode()
    if op == "dup_line":
        return f"duplicate line {i + 1}", "\n".join(lines[: i + 1] + lines[i:]).encode()
    if op == "truncate":
        cut = int(rng.integers(len(text)))
        return f"truncate at {cut}", text[:cut].encode()
    if op == "tab":
        return f"tab on line {i + 1}", "\n".join(lines[:i] + ["\t" + lines[i]] + lines[i + 1 :]).encode()
    if op == "fullwidth":
        digits = [m.start() for m in re.finditer(r"\d", text)]
        j = digits[int(rng.integers(len(digits)))]
        return f"full-width digit at {j}", (text[:j] + chr(0xFF10 + int(text[j])) + text[j + 1 :]).encode()
    if op == "byte":
        raw = bytearray(text.encode())
        j = int(rng.integers(len(raw)))
        raw[j] = int(rng.integers(256))
        return f"byte {j} flipped", bytes(raw)
    if op == "bom":
        return "BOM", ("\ufeff" + text).encode()
    if op == "deep_flow":
        n = int(rng.choice([50, 400, 5000]))
        return f"flow nested {n}", (text + "\nzz: " + "[" * n + "]" * n + "\n").encode()
    if op == "long_number":
        n = int(rng.choice([40, 310, 5000]))
        return f"number of {n} digits", text.replace("seed: ", "seed: " + "9" * n + "  # ", 1).encode()
    if op == "control":
        return f"control chars on line {i + 1}", "\n".join(
            lines[:i] + [lines[i] + " \x07\x1b[2J"] + lines[i + 1 :]
        ).encode()
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    )
    return "alias bomb", (text + "\n" + bomb).encode()


def _po(rng: np.random.Generator, text: str) -> tuple[str, bytes]:
    """Change one catalog."""
    op = PO_MUTATIONS[int(rng.integers(len(PO_MUTATIONS)))]
    entries = [m for m in re.finditer(r'^msgstr "(.+)"$', text, flags=re.MULTILINE)]
    m = entries[int(rng.integers(len(entries)))]
    if op == "unterminated":
        return op, (text[: m.end() - 1] + text[m.end() :]).encode()
    if op == "duplicate":
        block = re.search(r'^msgid "[^"]+"\nmsgstr ".*"$', text, flags=re.MULTILINE)
        assert block is not None
        return op, (text + "\n" + block.group(0) + "\n").encode()
    if op == "latin1_header":
        return op, text.replace("charset=UTF-8", "charset=ISO-8859-1").encode()
    if op == "unknown_charset":
        return op, text.replace("charset=UTF-8", "charset=klingon").encode()
    if op == "latin1_bytes":
        return op, text.encode("utf-8")[: m.end() - 1] + b"\xe9" + text.encode("utf-8")[m.end() - 1 :]
    if op == "garbage":
        return op, (text + "\nthis is not a po line\n").encode()
    if op == "template":
        t = HOSTILE_TEMPLATES[int(rng.integers(len(HOSTILE_TEMPLATES)))]
        quoted = t.replace("\\", "\\\\").replace('"', '\\"').replace("\x00", "\\x00")
        return f"template {t[:40]!r}", (text[: m.start(1)] + quoted + text[m.end(1) :]).encode()
    if op == "cr":
        return op, text.replace("\n", "\r").encode()
    if op == "empty":
        return op, b""
    if op == "truncate":
        return op, text.encode()[: int(rng.integers(len(text)))]
    return op, ("\ufeff" + text).encode()


@functools.cache
def _parsed(text: str) -> Any:
    """A kit.yaml's data, parsed once a process (each case mutates a deep copy): ruamel's parse was two
    thirds of making a case."""
    from generator.spec.yamlio import parse_yaml

    return parse_yaml(text.encode(), "kit.yaml")[0]


def make_cases(n: int, seed: int) -> list[Case]:
    """`n` seeded cases, cycling over the shipped kits: 60 % structural, 25 % textual, 15 % catalog."""
    rng = np.random.default_rng(seed)
    originals = {k.name: (k / "kit.yaml").read_text(encoding="utf-8") for k in KITS}
    cases: list[Case] = []
    for i in range(n):
        kit = KITS[i % len(KITS)].name
        text = originals[kit]
        r = rng.random()
        if r < 0.6:
            data = copy.deepcopy(_parsed(text))
            labels = []
            for _ in range(1 if rng.random() < 0.7 else int(rng.integers(2, 5))):
                label, data = _structural(rng, data)
                labels.append(label)
            label = "; ".join(labels)
            files = {"kit.yaml": _dump(data)}
        elif r < 0.85:
            label, raw = _textual(rng, text)
            files = {"kit.yaml": raw}
        else:
            lang = ["en", "ja", "es"][int(rng.integers(3))]
            po = (KITS[i % len(KITS)] / "locales" / f"{lang}.po").read_text(encoding="utf-8")
            label, raw = _po(rng, po)
            label = f"{lang}.po {label}"
            files = {f"locales/{lang}.po": raw}
        cases.append(Case(kit, label, files))
    return cases


# ------------------------------------------------------------------ running


def materialise(case: Case, where: Path) -> Path:
    """A copy of the case's kit with its files replaced (and its links made); returns the kit folder."""
    dst = where / case.kit
    shutil.copytree(ROOT / "layouts" / case.kit, dst)
    for rel, data in case.files.items():
        (dst / rel).parent.mkdir(parents=True, exist_ok=True)
        (dst / rel).write_bytes(data)
    for rel, target in case.links.items():
        (dst / rel).parent.mkdir(parents=True, exist_ok=True)
        (dst / rel).symlink_to(target)
    return dst


# ------------------------------------------------------------------ hostile fonts (issue 24)

TEST_FONTS = ROOT / "tests" / "i18n" / "fonts"
FONT_MUTATIONS = [
    "garbage",
    "empty",
    "truncated",
    "cut_table",
    "flipped",
    "restricted",
    "bitmap_only",
    "cff",
    "ttc",
    "woff",
    "symlink_out",
    "symlink_loop",
    "absolute",
    "dotdot",
    "directory",
    "missing",
]
"""What a kit's font file can be: every one must end as a located error (or, for a file whose flipped bytes
still parse, a clean build), never a traceback or partial output."""
_STYLE = (
    "\nstyle:\n  fonts:\n    body:\n      regular: {path}\n      bold: builtin\n"
    "      fallback: [{{regular: builtin, bold: builtin}}]\n"
)


def _cff_font() -> bytes:
    """A tiny font with PostScript (CFF) outlines, which PDF embedding here refuses."""
    import io

    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder([".notdef", "A"])
    fb.setupCharacterMap({65: "A"})
    pen = T2CharStringPen(600, None)
    pen.moveTo((0, 0))
    pen.lineTo((0, 700))
    pen.lineTo((500, 0))
    pen.closePath()
    charstrings = {".notdef": T2CharStringPen(600, None).getCharString(), "A": pen.getCharString()}
    fb.setupCFF("PnpkitCff", {"FullName": "PnpkitCff"}, charstrings, {})
    fb.setupHorizontalMetrics({".notdef": (600, 0), "A": (600, 0)})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "PnpkitCff", "styleName": "Regular"})
    fb.setupOS2()
    fb.setupPost()
    buf = io.BytesIO()
    fb.save(buf)
    return buf.getvalue()


def font_case(kit: str, op: str, rng: np.random.Generator) -> Case:
    """One kit whose style.fonts names a hostile font file (or path)."""
    good = (TEST_FONTS / "PnpkitTestHangul.ttf").read_bytes()
    text = (ROOT / "layouts" / kit / "kit.yaml").read_text(encoding="utf-8")
    path, files, links = "assets/f.ttf", {}, {}
    data: bytes | None = None
    if op == "garbage":
        data = rng.integers(0, 256, int(rng.integers(1, 4000)), dtype=np.uint8).tobytes()
    elif op == "empty":
        data = b""
    elif op == "truncated":
        data = good[: int(rng.integers(12, len(good) - 1))]
    elif op == "cut_table":
        data = good[: len(good) - int(rng.integers(1, 200))]
    elif op == "flipped":
        raw = bytearray(good)
        for _ in range(int(rng.integers(1, 20))):
            raw[int(rng.integers(len(raw)))] = int(rng.integers(256))
        data = bytes(raw)
    elif op == "restricted":
        data = (TEST_FONTS / "PnpkitTestRestricted.ttf").read_bytes()
    elif op == "bitmap_only":
        import io

        from fontTools.ttLib import TTFont

        font = TTFont(io.BytesIO(good))
        font["OS/2"].fsType = 0x0200
        buf = io.BytesIO()
        font.save(buf)
        data = buf.getvalue()
    elif op == "cff":
        data = _cff_font()
    elif op == "ttc":
        data = b"ttcf" + good
    elif op == "woff":
        data = b"wOFF" + good[4:]
    elif op == "symlink_out":
        links[path] = str(ROOT / "fonts" / "BIZUDPGothic-Regular.ttf")  # a valid font, but outside the kit
    elif op == "symlink_loop":
        links[path] = "f.ttf"
    elif op == "absolute":
        path = str(ROOT / "fonts" / "BIZUDPGothic-Regular.ttf")
    elif op == "dotdot":
        path = "../../fonts/BIZUDPGothic-Regular.ttf"
    elif op == "directory":
        path = "locales"
    else:
        path = "assets/none.ttf"
    if data is not None:
        files[path] = data
    files["kit.yaml"] = (text + _STYLE.format(path=path)).encode()
    return Case(kit, f"font {op}", files, links)


def make_font_cases(n: int, seed: int) -> list[Case]:
    """`n` seeded hostile-font cases, cycling over the mutations and the shipped kits."""
    rng = np.random.default_rng(seed)
    return [
        font_case(KITS[i % len(KITS)].name, FONT_MUTATIONS[i % len(FONT_MUTATIONS)], rng) for i in range(n)
    ]


# ------------------------------------------------------------------ hostile art (issue 24)

ART_MUTATIONS = [
    "png_bomb",
    "webp_bomb",
    "truncated_png",
    "mislabelled",
    "garbage",
    "empty",
    "gif",
    "svg_billion_laughs",
    "svg_external_entity",
    "svg_file_href",
    "svg_http_image",
    "svg_script",
    "svg_onload",
    "svg_deep",
    "svg_not_xml",
    "svg_css_import",
    "svg_xinclude",
    "svg_text",
    "svg_huge",
    "png_huge_file",
    "symlink_out",
    "dotdot",
    "absolute",
    "missing",
]
"""What a kit's art file can be: every one must end as a located error, never a traceback or partial
output."""
ART_SLOTS = {
    "ripple_rush": "number_cards",
    "peak_dice": "rules",
    "raindrops": "rules",
    "rummy_cards": "rules",
}
"""A component of each shipped kit with an art slot (`back` on cards, `logo` on rules sheets)."""


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    import struct
    import zlib

    return (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def _png_bomb() -> bytes:
    """A 100,000 x 100,000 PNG header over a few bytes of data (a decompression bomb)."""
    import struct
    import zlib

    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0))
        + _png_chunk(b"IDAT", zlib.compress(b"\0" * 4096))
        + _png_chunk(b"IEND", b"")
    )


def _small_png(size: tuple[int, int] = (64, 64)) -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", size, (200, 40, 40)).save(buf, format="PNG")
    return buf.getvalue()


def art_case(kit: str, op: str, rng: np.random.Generator) -> Case:
    """One kit whose art slot names a hostile image or SVG file (or path)."""
    text = (ROOT / "layouts" / kit / "kit.yaml").read_text(encoding="utf-8")
    cid = ART_SLOTS[kit]
    slot = "back" if cid != "rules" else "logo"
    path, files, links = "assets/art.png", {}, {}
    data: bytes | None = None
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" '
        'height="10">{}</svg>'
    )
    if op == "png_bomb":
        data = _png_bomb()
    elif op == "webp_bomb":
        import struct

        vp8l = b"\x2f" + struct.pack("<I", (16383) | (16383 << 14))  # a 16384 x 16384 lossless WebP header
        body = b"VP8L" + struct.pack("<I", len(vp8l) + 8) + vp8l + b"\0" * 8
        data = b"RIFF" + struct.pack("<I", len(body) + 4) + b"WEBP" + body
        path = "assets/art.webp"
    elif op == "truncated_png":
        good = _small_png((400, 300))
        data = good[: int(rng.integers(40, len(good) - 20))]
    elif op == "mislabelled":
        import io

        from PIL import Image

        buf = io.BytesIO()
        Image.new("RGB", (32, 32)).save(buf, format="JPEG")
        data = buf.getvalue()
    elif op == "garbage":
        data = rng.integers(0, 256, int(rng.integers(1, 4000)), dtype=np.uint8).tobytes()
    elif op == "empty":
        data = b""
    elif op == "gif":
        data, path = b"GIF89a" + b"\0" * 20, "assets/art.gif"
    elif op.startswith("svg_"):
        path = "assets/art.svg"
        body = {
            "svg_billion_laughs": '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b '
            '"&a;&a;&a;&a;&a;&a;'
            '&a;&a;&a;&a;">]>' + svg.format("<text>&b;</text>"),
            "svg_external_entity": '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM '
            '"file:///etc/passwd">]>' + svg.format("<text>&x;</text>"),
            "svg_file_href": svg.format('<use xlink:href="file:///etc/passwd#a"/>'),
            "svg_http_image": svg.format('<image href="http://example.com/a.png" width="10" height="10"/>'),
            "svg_script": svg.format("<script>alert(1)</script>"),
            "svg_onload": svg.replace("<svg ", '<svg onload="alert(1)" ').format(""),
            "svg_deep": svg.format("<g>" * 5000 + "</g>" * 5000),
            "svg_not_xml": "<svg <<<",
            "svg_css_import": svg.format("<style>@import url(file:///etc/passwd);</style>"),
            "svg_xinclude": svg.format(
                '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="/etc/passwd"/>'
            ),
            # text is drawn in the kit's embedded faces: one with a character none of them has is refused
            "svg_text": svg.format('<text x="1" y="9" font-family="Arial">Logo \U0001f30a</text>'),
            "svg_huge": svg.format("<g/>" * 1_200_000),
        }[op]
        data = body.encode()
    elif op == "png_huge_file":
        data = _small_png() + b"\0" * (41 * 1024 * 1024)
    elif op == "symlink_out":
        links[path] = str(ROOT / "fonts" / "BIZUDPGothic-Regular.ttf")  # a real file, but outside the kit
    elif op == "dotdot":
        path = "../../README.md"
    elif op == "absolute":
        path = str(ROOT / "README.md")
    else:
        path = "assets/none.png"
    if data is not None:
        files[path] = data
    marker = f"\n  {cid}:\n"
    at = text.rindex(marker) + len(marker)  # the last one: components come after the game section
    files["kit.yaml"] = (text[:at] + f"    art: {{{slot}: {{path: '{path}'}}}}\n" + text[at:]).encode()
    return Case(kit, f"art {op}", files, links)


def make_art_cases(n: int, seed: int) -> list[Case]:
    """`n` seeded hostile-art cases, cycling over the mutations and the shipped kits with art slots (a data
    kit draws its faces from templates, not slots)."""
    rng = np.random.default_rng(seed)
    kits = [k.name for k in KITS if k.name in ART_SLOTS]
    return [art_case(kits[i % len(kits)], ART_MUTATIONS[i % len(ART_MUTATIONS)], rng) for i in range(n)]


# ------------------------------------------------------------------ hostile data (issue 25)

DATA_KIT = "harvest_deck"
"""The shipped data kit whose data/cards.csv the data mutations replace."""
DATA_MUTATIONS = [
    "million_rows",
    "huge_cell",
    "big_cell",
    "latin1",
    "utf16",
    "bom",
    "ragged",
    "bad_int",
    "nul",
    "quote",
    "empty",
    "xlsx_bomb",
    "xlsx_external",
    "xlsx_formula",
    "xlsx_garbage",
    "xlsx_macro",
    "xlsx_good",
    "symlink_out",
    "dotdot",
    "absolute",
    "directory",
    "xlsx_no_sheets",
    "xlsx_rel_outside",
    "xlsx_nan",
    "xlsx_inf",
    "xlsx_shared_string",
    "xlsx_blank_rows",
    "semicolons",
    "control",
]
"""What a kit's data file can be: a located error or a documented cap for each, except `bom` and `xlsx_good`
(a byte-order mark is dropped; a plain workbook of the same rows builds)."""


def _xlsx(rows: list[list[Any]], extra: dict[str, bytes] | None = None, formula: bool = False) -> bytes:
    """A workbook of `rows` (first sheet), with extra zip members added after saving."""
    import io
    import zipfile

    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    for r in rows:
        ws.append(r)
    if formula:
        ws["I3"] = "=1+1"
    buf = io.BytesIO()
    wb.save(buf)
    if not extra:
        return buf.getvalue()
    out = io.BytesIO()
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            dst.writestr(item, src.read(item.filename))
        for name, data in extra.items():
            dst.writestr(name, data)
    return out.getvalue()


def _xlsx_edit(data: bytes, member: str, edit: Callable[[str], str]) -> bytes:
    """The workbook with one member's XML rewritten (members written in the same order)."""
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            body = src.read(item.filename)
            if item.filename == member:
                body = edit(body.decode("utf-8")).encode("utf-8")
            # level 1: the XML is the case; it writes the 1.5-million-row sheet 4x faster than level 9
            # (3 CPU-s a run), to a file no larger (7.0 MB)
            dst.writestr(item.filename, body, compress_type=zipfile.ZIP_DEFLATED, compresslevel=1)
    return out.getvalue()


def _hostile_xlsx(op: str, table: list[list[Any]]) -> bytes:
    """A workbook of `table` damaged as `op` says (issue 34): no sheets, a sheet relationship out of the
    package, NaN / INF number cells, a shared-string index out of range, 1.5 million blank rows after the
    data."""
    import re as _re

    good = _xlsx(table)
    sheet = "xl/worksheets/sheet1.xml"
    if op == "xlsx_no_sheets":
        return _xlsx_edit(good, "xl/workbook.xml", lambda x: _re.sub(r"<sheets>.*</sheets>", "<sheets/>", x))
    if op == "xlsx_rel_outside":
        return _xlsx_edit(
            good,
            "xl/_rels/workbook.xml.rels",
            lambda x: x.replace("/xl/worksheets/sheet1.xml", "../../../../etc/hostname"),
        )
    if op in ("xlsx_nan", "xlsx_inf"):
        value = "NaN" if op == "xlsx_nan" else "INF"
        return _xlsx_edit(good, sheet, lambda x: _re.sub(r'(<c r="B3" t="n"><v>)[^<]*', rf"\g<1>{value}", x))
    if op == "xlsx_shared_string":
        return _xlsx_edit(
            good,
            sheet,
            lambda x: x.replace('<c r="A3" t="inlineStr"><is><t>', '<c r="A3" t="s"><v>99999</v><is><t>', 1),
        )
    blank = "".join(f'<row r="{n}"><c r="A{n}"/></row>' for n in range(len(table) + 1, 1_500_001))
    return _xlsx_edit(
        good,
        sheet,
        lambda x: _re.sub(
            r'<dimension ref="A1:([A-Z]+)[0-9]+"/>', r'<dimension ref="A1:\g<1>1500000"/>', x
        ).replace("</sheetData>", blank + "</sheetData>"),
    )


def data_case(op: str, rng: np.random.Generator) -> Case:
    """The data kit with a hostile data file (or data path)."""
    import csv
    import io

    kit_dir = ROOT / "layouts" / DATA_KIT
    good = (kit_dir / "data" / "cards.csv").read_bytes()
    text = (kit_dir / "kit.yaml").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(good.decode("utf-8"))))
    files: dict[str, bytes] = {}
    links: dict[str, str] = {}
    path = "data/cards.csv"
    data: bytes | None = None
    row = int(rng.integers(1, len(rows)))
    if op == "million_rows":
        data = good + b"".join(
            b"x%d,1,resource,A,,,,,0,1,leaf,#000000,effect.resource\n" % i for i in range(10**6)
        )
    elif op == "huge_cell":
        data = good.rstrip(b"\n") + b"\nbig,1,resource," + b"a" * 10_000_000 + b",,,,,0,1,leaf,#000000,x\n"
    elif op == "big_cell":
        data = good.rstrip(b"\n") + b"\nbig,1,resource," + b"a" * 100_000 + b",,,,,0,1,leaf,#000000,x\n"
    elif op == "latin1":
        data = good.decode("utf-8").replace("Blé", "Bl\u00e9").encode("latin-1", errors="replace")
    elif op == "utf16":
        data = good.decode("utf-8").encode("utf-16")
    elif op == "bom":
        data = b"\xef\xbb\xbf" + good
    elif op == "ragged":
        lines = good.split(b"\n")
        lines[row] = lines[row].rsplit(b",", int(rng.integers(1, 4)))[0]
        data = b"\n".join(lines)
    elif op == "bad_int":
        rows[row][8] = "x"
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(rows)
        data = buf.getvalue().encode()
    elif op == "nul":
        data = good[:200] + b"\0" + good[200:]
    elif op == "quote":
        data = good[:150] + b'"' + good[150:]
    elif op == "empty":
        data = b""
    elif op.startswith("xlsx"):
        path = "data/cards.xlsx"
        table = [[int(c) if c.isdigit() else c for c in r] for r in rows]
        if op == "xlsx_bomb":
            data = _xlsx(table, {"xl/media/zeros.bin": b"0" * 20_000_000})
        elif op == "xlsx_external":
            data = _xlsx(table, {"xl/externalLinks/externalLink1.xml": b"<externalLink/>"})
        elif op == "xlsx_macro":
            data = _xlsx(table, {"xl/vbaProject.bin": b"\0" * 100})
        elif op == "xlsx_formula":
            data = _xlsx(table, formula=True)
        elif op in (
            "xlsx_no_sheets",
            "xlsx_rel_outside",
            "xlsx_nan",
            "xlsx_inf",
            "xlsx_shared_string",
            "xlsx_blank_rows",
        ):
            data = _hostile_xlsx(op, table)
        elif op == "xlsx_garbage":
            data = b"PK\x03\x04" + rng.integers(0, 256, 3000, dtype=np.uint8).tobytes()
        else:
            data = _xlsx(table)
    elif op == "semicolons":
        data = good.replace(b",", b";")
    elif op == "control":
        rows[row][3] += "\x1b[2J"
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(rows)
        data = buf.getvalue().encode()
    elif op == "symlink_out":
        path = "data/out.csv"
        links[path] = str(ROOT / "layouts" / "harvest_deck" / "data" / "cards.csv")
    elif op == "dotdot":
        path = "../harvest_deck/data/cards.csv"
    elif op == "absolute":
        path = str(kit_dir / "data" / "cards.csv")
    elif op == "directory":
        path = "locales.csv"
        links[path] = "locales"
    if data is not None:
        files[path] = data
    files["kit.yaml"] = text.replace("data: data/cards.csv", f"data: {path}").encode()
    return Case(DATA_KIT, f"data {op}", files, links)


BUDGET_MUTATIONS = ["grid_loop", "draw_ops", "all_of", "when_rows", "where_rows"]
"""Unbounded work inside every documented cap (issue 34): each must end as a located error within seconds."""
BUDGET_SECONDS = 10.0


def budget_case(op: str) -> Case:
    """A data kit whose work passes a command's budget: a 60x60 grid whose bonus loops 90,000 steps per cell,
    5,000 rows x 200 repeats x 100 copies, an all_of of four conditions over a 100-card hand from 5,000 cards,
    a `when:` on 200 elements over 5,000 rows, a `where` over 5,000 distinct rows in 50 checks."""
    if op == "grid_loop":
        text = (ROOT / "layouts" / "sprout_sheet" / "kit.yaml").read_text(encoding="utf-8")
        text = text.replace(
            'rows: 6\n          columns: 8\n          column_label: "{{ c + 1 }}"',
            "rows: 60\n          columns: 60",
            1,
        )
        text = text.replace(
            "bonus: \"{{ bonus if c + 1 == star else '' }}\"",
            'bonus: "{% for a in range(300) %}{% for b in range(300) %}{% endfor %}{% endfor %}"',
            1,
        )
        return Case("sprout_sheet", f"budget {op}", {"kit.yaml": text.encode()})
    kit_dir = ROOT / "layouts" / DATA_KIT
    text = (kit_dir / "kit.yaml").read_text(encoding="utf-8")
    head = "id,count,type,name,name@ja,name@es,name@de,name@fr,cost,value,icon,colour,text\n"
    rows = "".join(
        f"c{i},1,{('resource', 'action', 'event')[i % 3]},N{i},,,,,{i % 4},{i % 5},leaf,#c9a227,"
        f"effect.resource\n"
        for i in range(5000)
    )
    files = {"data/cards.csv": (head + rows).encode()}
    text = text.replace("total: 50", "total: 5000").replace(
        "count_by: {type: {resource: 30, action: 16, event: 4}}", "count_by: {}"
    )
    if op == "draw_ops":
        rep = (
            "        - type: repeat\n          times: 100\n          element: {type: rect, x: 1mm, y: 1mm, "
            "w: 1mm, "
            "h: 1mm}\n"
        )
        head = "    crop:\n      extends: card\n      front:\n"
        assert head in text, "the Harvest Hands crop template moved: update the draw_ops budget case"
        text = text.replace(head, head + rep * 190, 1)
    elif op == "all_of":
        conditions = "".join(f'          - {{where: "cost == {k}", at_least: 20}}\n' for k in range(4))
        text = text.replace(
            "        hand: 6\n        all_of:\n          - {where: \"type == 'resource'\", at_least: 1}\n"
            "          - {where: \"type == 'action'\", at_least: 1}\n",
            "        hand: 100\n        all_of:\n" + conditions,
            1,
        )
    elif op == "when_rows":
        el = '        - {type: rect, x: 1mm, y: 1mm, w: 1mm, h: 1mm, when: "(range(999)|sum) > cost"}\n'
        head = "    crop:\n      extends: card\n      front:\n"
        assert head in text, "the Harvest Hands crop template moved: update the when_rows budget case"
        text = text.replace(head, head + el * 190, 1)
    elif op == "where_rows":
        draws = "".join(
            f"      - {{name: w{k}, kind: hand_has, component: cards, hand: 5, where: \"name != 'x{k}' and "
            f'(range(999)|sum) > 0", bound: {{min: 0}}}}\n'
            for k in range(44)
        )
        text = text.replace("    draws:\n", "    draws:\n" + draws, 1)
    files["kit.yaml"] = text.encode()
    return Case(DATA_KIT, f"budget {op}", files)


def make_data_cases(n: int, seed: int) -> list[Case]:
    """`n` seeded hostile-data cases, cycling over the mutations."""
    rng = np.random.default_rng(seed)
    return [data_case(DATA_MUTATIONS[i % len(DATA_MUTATIONS)], rng) for i in range(n)]


def _listing(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*")) if out.exists() else []


def run_case(case: Case) -> tuple[str, str]:
    """Build one case in this process; (kind, detail). Runs inside the worker."""
    from generator.errors import KitError
    from generator.pipeline import STAGE_PREFIX, build

    with tempfile.TemporaryDirectory(prefix="pnpkit-fuzz-") as tmp:
        kit = materialise(case, Path(tmp))
        out = Path(tmp) / "out"
        try:
            result = build([kit], out=out, langs=["en"])
        except KitError as e:
            left = _listing(out)
            if left:
                return "partial", f"error {str(e)[:200]!r} but wrote {left[:5]}"
            message = str(e)
            if len(max(message.split("\n"), key=len)) > 2000:
                return "traceback", "an error line over 2,000 characters"
            return "clean", message.split("\n")[-1][:200]
        except BaseException:
            return "traceback", traceback.format_exc(limit=-3)[-1500:]
        files = _listing(out)
        expected = sorted(str(f.relative_to(out)) for f in result.files)
        stray = [f for f in files if f.startswith(STAGE_PREFIX)]  # OUT/.pnpkit/ holds the build records
        if stray or not set(expected) <= set(files):
            return "partial", f"staging left {stray[:3]} or missing {sorted(set(expected) - set(files))[:3]}"
        return "accepted", f"{len(result.files)} files"


def _worker(tasks: Any, results: Any) -> None:
    import resource

    try:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ValueError, OSError):
        pass
    while True:
        item = tasks.get()
        if item is None:
            return
        index, case = item
        t0 = time.perf_counter()
        kind, detail = run_case(case)
        results.put((index, kind, detail, time.perf_counter() - t0))


_WORKER: dict[str, Any] = {}
"""This process's fuzz worker (proc, tasks, results), kept between `run_cases` calls: the quick slice runs
five tables of cases, and a worker's first case imports the whole library."""


def _stop_worker() -> None:
    proc = _WORKER.pop("proc", None)
    if proc is None:
        return
    if proc.is_alive():
        _WORKER["tasks"].put(None)
        proc.join(timeout=10)
    if proc.is_alive():
        proc.kill()
        proc.join()


def run_cases(cases: list[Case], *, progress: Callable[[int, Outcome], None] | None = None) -> Summary:
    """Run every case in a worker process (replaced when a case hangs past HANG_SECONDS or dies; kept for
    the next call otherwise)."""
    ctx = mp.get_context("spawn")
    summary = Summary()

    def start() -> None:
        if not _WORKER:
            atexit.register(_stop_worker)
        _WORKER["tasks"], _WORKER["results"] = ctx.Queue(), ctx.Queue()
        _WORKER["proc"] = ctx.Process(
            target=_worker, args=(_WORKER["tasks"], _WORKER["results"]), daemon=True
        )
        _WORKER["proc"].start()

    if _WORKER.get("proc") is None or not _WORKER["proc"].is_alive():
        _stop_worker()
        start()
    done = False
    try:
        for index, case in enumerate(cases):
            proc, tasks, results = _WORKER["proc"], _WORKER["tasks"], _WORKER["results"]
            tasks.put((index, case))
            t0 = time.perf_counter()
            while True:
                try:
                    _, kind, detail, seconds = results.get(timeout=1.0)
                    break
                except queue.Empty:
                    if not proc.is_alive():
                        kind, detail, seconds = (
                            "traceback",
                            f"worker died (exit {proc.exitcode})",
                            time.perf_counter() - t0,
                        )
                        _stop_worker()
                        start()
                        break
                    if time.perf_counter() - t0 > HANG_SECONDS:
                        proc.kill()
                        proc.join()
                        kind, detail, seconds = "slow", f"killed after {HANG_SECONDS:.0f} s", HANG_SECONDS
                        _stop_worker()
                        start()
                        break
            if kind in ("clean", "accepted") and seconds > SLOW_SECONDS:
                kind, detail = "slow", f"{seconds:.1f} s ({kind})"
            outcome = Outcome(case, kind, seconds, detail)
            summary.outcomes.append(outcome)
            if progress:
                progress(index, outcome)
        done = True
    finally:
        if not done:  # interrupted with a case in flight: its answer must not reach the next call
            _stop_worker()
    return summary


@dataclass
class CliRun:
    """What `pnpkit ARGS` answered: its exit status and what it printed."""

    returncode: int
    stdout: str
    stderr: str


def cli_in_process(*args: str) -> CliRun:
    """`pnpkit ARGS` run in this process from the repository root (relative kit paths name layouts/...); an
    exception that escapes the command is written to its stderr as the traceback the interpreter would
    print, exit 1."""
    from typer.testing import CliRunner

    from generator.cli import app

    here = Path.cwd()
    os.chdir(ROOT)
    try:
        r = CliRunner().invoke(app, list(args), prog_name="pnpkit")
    finally:
        os.chdir(here)
    stderr = r.stderr
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        stderr += "".join(traceback.format_exception(r.exception))
    return CliRun(r.exit_code, r.stdout, stderr)


def cli_env() -> dict[str, str]:
    """Environment for running this checkout's CLI as a subprocess."""
    return dict(os.environ, PYTHONPATH=str(ROOT))
