"""An independent reader of an assembled kit PDF: which part page each kit page is (by its content stream, as
the merge copies it), and whether the file prints duplex-correctly -- every back side the back drawn for its
front (same component, same sheet of that component, same item slots), one-sided pages with a blank back, and
every part starting on the front of a sheet. Used by the tests and to show what today's files get wrong."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pikepdf

from generator.layout.ops import Line, Page, Place
from generator.layout.sheets import PageSides


def _content(page: pikepdf.Page) -> bytes:
    """The page's drawing, as stored (the merge copies streams without decoding). A page that carries other
    pages (gang-up: its own stream wrapped in 'q' ... 'Q', then a stream drawing the guests) is its own
    stream."""
    contents = page.obj.get("/Contents")
    if contents is None:
        return b""
    if isinstance(contents, pikepdf.Array):
        streams = [bytes(c.read_raw_bytes()) for c in contents]
        if len(streams) >= 3 and streams[0].strip() == b"q" and _GUEST.search(streams[-1]):
            streams = streams[1:-1]
        return b"".join(streams)
    return bytes(contents.read_raw_bytes())


_GUEST = re.compile(rb"q 1 0 0 1 (-?[0-9.]+) (-?[0-9.]+) cm /(PnpGang\d+) Do Q")


def kit_guests(kit_pdf: Path, parts: Sequence[tuple[str, Path]]) -> list[list[tuple[str, int, float]]]:
    """For each page of `kit_pdf`: the part pages drawn on it besides its own (gang-up), as (part id, page of
    that part's PDF, vertical shift), read from the page's last content stream and the forms it draws (a form
    is a part page when its decoded drawing is that page's)."""
    index: dict[bytes, list[tuple[str, int]]] = {}
    for cid, path in parts:
        with pikepdf.open(path) as pdf:
            for i, page in enumerate(pdf.pages):
                index.setdefault(bytes(page.obj.Contents.read_bytes()), []).append((cid, i))
    out: list[list[tuple[str, int, float]]] = []
    used: set[tuple[str, int]] = set()
    with pikepdf.open(kit_pdf) as pdf:
        for page in pdf.pages:
            contents = page.obj.get("/Contents")
            found: list[tuple[str, int, float]] = []
            if isinstance(contents, pikepdf.Array):
                for dx, dy, name in _GUEST.findall(bytes(contents[len(contents) - 1].read_bytes())):
                    form = page.obj.Resources.XObject[f"/{name.decode()}"]
                    assert float(dx) == 0.0, "guests shift vertically only"
                    cands = index.get(bytes(form.read_bytes()), [("?", -1)])
                    pick = next((c for c in cands if c not in used), cands[0])
                    used.add(pick)
                    found.append((pick[0], pick[1], float(dy)))
            out.append(found)
    return out


def kit_sources(kit_pdf: Path, parts: Sequence[tuple[str, Path]]) -> list[tuple[str, int] | None]:
    """For each page of `kit_pdf`: (part id, page of that part's PDF) whose drawing it is, None for a blank
    page; a page found in no part is reported as ('?', -1). Pages drawn alike (identical card backs) are told
    apart by order: the page after the previous one's source, else the first one not yet used."""
    index: dict[bytes, list[tuple[str, int]]] = {}
    for cid, path in parts:
        with pikepdf.open(path) as pdf:
            for i, page in enumerate(pdf.pages):
                index.setdefault(_content(page), []).append((cid, i))
    out: list[tuple[str, int] | None] = []
    used: set[tuple[str, int]] = set()
    last: tuple[str, int] | None = None
    with pikepdf.open(kit_pdf) as pdf:
        for page in pdf.pages:
            data = _content(page)
            if not data.strip():
                out.append(None)
                continue
            found = index.get(data, [])
            follow = (last[0], last[1] + 1) if last is not None else None
            pick = (
                follow
                if follow in found
                else next((c for c in found if c not in used), None) or (found[0] if found else ("?", -1))
            )
            used.add(pick)
            out.append(pick)
            last = pick
    return out


def duplex_problems(
    sources: Sequence[tuple[str, int] | None], sides: dict[str, Sequence[PageSides]], *, duplex: bool
) -> list[str]:
    """What prints wrong when the kit pages `sources` go through a duplex printer (pages 2k and 2k+1 share a
    sheet) or a single-sided one (`duplex` False: every page its own sheet, no back pages expected)."""
    problems: list[str] = []
    if not duplex:
        for n, src in enumerate(sources):
            if src is None or src[0] == "?":
                problems.append(
                    f"page {n + 1}: {'blank' if src is None else 'unknown'} page in a single-sided kit"
                )
            elif sides[src[0]][src[1]].kind == "back":
                problems.append(f"page {n + 1}: a back ({src[0]} p{src[1] + 1}) printed as a front")
        return problems
    if len(sources) % 2:
        problems.append(f"{len(sources)} pages: the last sheet has no back")
    seen_parts: set[str] = set()
    for k in range(0, len(sources), 2):
        front = sources[k]
        back = sources[k + 1] if k + 1 < len(sources) else None
        sheet = k // 2 + 1
        if front is None or front[0] == "?":
            problems.append(
                f"sheet {sheet}: front is {'blank' if front is None else 'not a page of any part'}"
            )
            continue
        cid, i = front
        here = sides[cid][i]
        if here.kind == "back":
            problems.append(f"sheet {sheet}: {cid} p{i + 1} is a back printed on a front side")
        for src in (front, back):
            if src is not None and src[0] not in seen_parts:
                seen_parts.add(src[0])
                if src is back:
                    problems.append(f"sheet {sheet}: {src[0]} starts on a back side")
        wants_back = here.kind == "front" and i + 1 < len(sides[cid]) and sides[cid][i + 1].kind == "back"
        if wants_back:
            expected = sides[cid][i + 1]
            if back is None or back != (cid, i + 1):
                got = "a blank page" if back is None else f"{back[0]} p{back[1] + 1}"
                problems.append(
                    f"sheet {sheet}: the back of {cid} p{i + 1} should be {cid} p{i + 2}, got {got}"
                )
            elif expected.sheet != here.sheet or expected.slots != here.slots:
                problems.append(
                    f"sheet {sheet}: {cid} p{i + 2} backs sheet {expected.sheet} slots "
                    f"{expected.slots}, the front holds sheet {here.sheet} slots {here.slots}"
                )
        elif back is not None:
            problems.append(
                f"sheet {sheet}: one-sided {cid} p{i + 1} has {back[0]} p{back[1] + 1} on its back"
            )
    return problems


def _trim(op: Place) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a placed face's trim on the page (its clip runs from -bleed to size + bleed)."""
    w, h = op.clip[2] + 2 * op.clip[0], op.clip[3] + 2 * op.clip[1]
    if op.rotate == 90:
        return op.x - h, op.y, op.x, op.y + w
    if op.rotate == -90:
        return op.x, op.y - w, op.x + h, op.y
    return op.x, op.y, op.x + w, op.y + h


def fold_problems(page: Page) -> list[str]:
    """What is wrong with a fold-and-glue page (`print.duplex: fold`): its faces must come in pairs, a front
    then its back, the back's trim the front's reflected across a dashed vertical line between them."""
    faces = [op for op in page.ops if isinstance(op, Place) and op.name and op.clip is not None]
    folds = {
        round(op.x1, 3) for op in page.ops if isinstance(op, Line) and op.dash and abs(op.x1 - op.x2) < 1e-6
    }
    problems: list[str] = []
    if len(faces) % 2:
        problems.append(f"{page.label}: {len(faces)} faces, not pairs")
    for front, back in zip(faces[::2], faces[1::2], strict=False):
        fx0, fy0, fx1, fy1 = _trim(front)
        bx0, by0, bx1, by1 = _trim(back)
        fold = (fx1 + bx0) / 2
        if round(fold, 3) not in folds:
            problems.append(f"{page.label}: no fold line between {front.name} and {back.name}")
        if abs((bx1 - fold) - (fold - fx0)) > 0.01 or abs(by0 - fy0) > 0.01 or abs(by1 - fy1) > 0.01:
            problems.append(f"{page.label}: {back.name} is not {front.name} mirrored across the fold")
    return problems


def guest_problems(
    sources: Sequence[tuple[str, int] | None],
    guests: Sequence[Sequence[tuple[str, int, float]]],
    sides: dict[str, Sequence[PageSides]],
    *,
    duplex: bool,
    mirror_y: bool,
) -> list[str]:
    """What prints wrong among the pages ganged onto others: each guest front's back must be on the back of
    the same sheet, the next page of its part, with the same item slots, shifted as far (the other way when
    the sheet turns over top to bottom, `mirror_y`); guests only on sheets of the same sidedness."""
    problems: list[str] = []
    step = 2 if duplex else 1
    for k in range(0, len(sources), step):
        sheet = k // step + 1
        front = guests[k]
        back = list(guests[k + 1]) if duplex and k + 1 < len(guests) else []
        for cid, i, dy in front:
            if cid == "?":
                problems.append(f"sheet {sheet}: a guest that is no page of any part")
                continue
            here = sides[cid][i]
            if here.kind == "back":
                problems.append(f"sheet {sheet}: {cid} p{i + 1}, a back, ganged on a front")
            wants = (
                duplex
                and here.kind == "front"
                and i + 1 < len(sides[cid])
                and sides[cid][i + 1].kind == "back"
            )
            if not wants:
                continue
            expected = (cid, i + 1, -dy if mirror_y else dy)
            match = [g for g in back if g[:2] == expected[:2]]
            if not match:
                problems.append(f"sheet {sheet}: the back of guest {cid} p{i + 1} is not on the sheet's back")
                continue
            if abs(match[0][2] - expected[2]) > 0.01:
                problems.append(
                    f"sheet {sheet}: guest {cid} p{i + 2} shifted {match[0][2]:.2f} pt, its front {dy:.2f} pt"
                )
            if sides[cid][i + 1].slots != here.slots:
                problems.append(f"sheet {sheet}: guest {cid} p{i + 2} backs other slots than p{i + 1}")
            back.remove(match[0])
        for cid, i, _ in back:
            problems.append(f"sheet {sheet}: guest {cid} p{i + 1} on a back without its front")
    return problems


def recorded_sheets(folder: Path, kit_pdf: str) -> list[dict[str, object]]:
    """The sheet map the build record of OUT/<kit>/<lang>/ `folder` keeps for `kit_pdf`."""
    import json

    entries = json.loads((folder / ".pnpkit" / "build.json").read_text(encoding="utf-8"))["entries"]
    return list(entries[kit_pdf]["sheets"])


MISCUT_DPI = 100
"""Resolution of the miscut check's raster (0.25 mm a pixel: enough to see a 1 mm strip)."""


def _piece_cells(page: Page) -> list[tuple[str, tuple[float, float, float, float]]]:
    """(face name, trim box) of every piece on a sheet of pieces: the cut lines are where the page's crop
    marks say (vertical marks give the x of the vertical cuts, horizontal ones the y of the horizontal cuts),
    and a piece is the cell between neighbouring cuts that holds the trim corner its Place starts from."""
    from generator.layout.marks import MARK_WIDTH

    marks = [op for op in page.ops if isinstance(op, Line) and op.stroke == "cut" and op.width == MARK_WIDTH]
    xs = sorted({round(m.x1, 4) for m in marks if abs(m.x1 - m.x2) < 1e-6})
    ys = sorted({round(m.y1, 4) for m in marks if abs(m.y1 - m.y2) < 1e-6})
    cells = []
    for op in page.ops:
        if not isinstance(op, Place) or not op.name:
            continue
        # the trim's bottom-left corner (a face turned 90 degrees starts from its bottom-right corner)
        px, py = (op.x - 0.01, op.y + 0.01) if op.rotate == 90 else (op.x + 0.01, op.y + 0.01)
        ix = next((i for i in range(len(xs) - 1) if xs[i] <= px < xs[i + 1]), None)
        iy = next((i for i in range(len(ys) - 1) if ys[i] <= py < ys[i + 1]), None)
        if ix is None or iy is None:
            cells.append((op.name, (px, py, px, py)))  # no cut around it: reported by the caller
            continue
        cells.append((op.name, (xs[ix], ys[iy], xs[ix + 1], ys[iy + 1])))
    return cells


def _hex(rgb: Any) -> str:
    return "#" + "".join(f"{int(v):02x}" for v in rgb)


def miscut_problems(
    page: Page,
    tmp: Path,
    *,
    fonts: Any = None,
    cells: Sequence[tuple[str, tuple[float, float, float, float]]] | None = None,
    miscut: float = 72 / 25.4,
    dpi: int = MISCUT_DPI,
    tolerance: int = 48,
    share: float = 0.05,
) -> list[str]:
    """What a cut `miscut` (1 mm) outside each cut line of each piece of `page` (a sheet of pieces) shows.
    The sheet is drawn to PDF in `tmp` with the renderer and rasterised with pypdfium2, and so is each piece
    alone, clipped 1.4 mm beyond its trim (its own art as drawn, bleed included). Along every edge of every
    piece, the pixels of that 1 mm strip must be the piece's own (as it prints alone) -- not a neighbour's
    colour -- and not white paper where the piece prints no white within 1 mm along that edge and 1.5 mm
    inside it (art that stops at the trim). An edge fails when more than `share` of its length differs by
    more than `tolerance` (0..255, in some channel). A cut off the line the other way is the same strip seen
    from the piece on the other side of the line, so the outward strips of every piece cover both
    directions. `cells` (name, trim box) defaults to the pieces the page's crop marks cut out; they are
    matched to the page's Places in order."""
    import numpy as np
    import pypdfium2 as pdfium

    from generator.render.pdf import write_pdf

    places = [op for op in page.ops if isinstance(op, Place) and op.name]
    found = list(cells) if cells is not None else _piece_cells(page)
    # each piece alone, clipped 1.4 mm beyond its trim: pieces of one chessboard colour (by cell row and
    # column) share a page, so neighbours never overlap (diagonal ones meet only in the corners, not read)
    columns = sorted({round(box[0], 2) for _, box in found})
    rows = sorted({round(box[1], 2) for _, box in found})
    solos = [Page(page.width, page.height, [], label="alone") for _ in range(2)]
    parity: list[int] = []
    reach_out = miscut + 0.4 * 72 / 25.4
    for op, (_, (x0, y0, x1, y1)) in zip(places, found, strict=True):
        w, h = (y1 - y0, x1 - x0) if op.rotate == 90 else (x1 - x0, y1 - y0)
        k = (columns.index(round(x0, 2)) + rows.index(round(y0, 2))) % 2
        solos[k].ops.append(replace(op, clip=(-reach_out, -reach_out, w + 2 * reach_out, h + 2 * reach_out)))
        parity.append(k)
    pdf = tmp / "miscut.pdf"
    write_pdf([page, *solos], pdf, title="miscut", fonts=fonts)
    doc = pdfium.PdfDocument(str(pdf))
    try:
        rasters = [
            np.asarray(doc[i].render(scale=dpi / 72).to_pil().convert("RGB"), dtype=np.int16)
            for i in range(len(doc))
        ]
    finally:
        doc.close()
    pixels = rasters[0]
    height_px, width_px = pixels.shape[:2]
    s = dpi / 72
    mm = 72 / 25.4

    def px(x: float) -> int:
        return min(width_px - 1, max(0, int(x * s)))

    def py(y: float) -> int:
        return min(height_px - 1, max(0, int((page.height - y) * s)))

    problems: list[str] = []
    reach = max(1, round(mm * s))  # 1 mm along the edge, in pixels
    depths = [d * mm for d in (0.3, 0.6, 0.9, 1.2, 1.5)]  # where the piece's own colours are read
    offsets = [d for d in (0.3, 0.6, 0.95) if d * mm <= miscut + 1e-6]
    for (name, (x0, y0, x1, y1)), k in zip(found, parity, strict=True):
        alone = rasters[1 + k]
        if x1 - x0 < 1 or y1 - y0 < 1:
            problems.append(f"{page.label}: {name}: no crop marks around it")
            continue
        end = 1.5 * mm  # the corners belong to the crossing cut
        for side in ("left", "bottom", "right", "top"):
            vertical = side in ("left", "right")
            a0, a1 = (y0 + end, y1 - end) if vertical else (x0 + end, x1 - end)
            along = np.arange(py(a1), py(a0) + 1) if vertical else np.arange(px(a0), px(a1) + 1)
            edge = {"left": x0, "right": x1, "bottom": y0, "top": y1}[side]
            out = -1 if side in ("left", "bottom") else 1

            def strip(at: float, image: Any = pixels, vertical: bool = vertical, along: Any = along) -> Any:
                return image[along, px(at)] if vertical else image[py(at), along]

            own = np.stack([strip(edge - out * d) for d in depths])  # depth x along x rgb
            n = own.shape[1]
            spots = [np.clip(np.arange(n) + k, 0, n - 1) for k in range(-reach, reach + 1)]
            white_near = np.stack([(own[:, i].min(axis=2) >= 240).any(axis=0) for i in spots]).any(axis=0)
            for d in offsets:
                at = edge + out * d * mm
                seen, mine = strip(at), strip(at, alone)
                foreign = np.abs(seen - mine).max(axis=1) > tolerance
                white = (seen.min(axis=1) >= 240) & ~white_near
                for what, bad in (("another piece's colour", foreign), ("white paper", white)):
                    if bad.mean() > share:
                        k = int(np.argmax(bad))
                        problems.append(
                            f"{page.label}: {name}: a cut {d:.2f} mm outside its {side} edge shows {what} "
                            f"({_hex(seen[k])} where the piece prints "
                            f"{_hex(own[0, k])}) along {bad.mean():.0%} of the edge"
                        )
                if any(
                    p.startswith(f"{page.label}: {name}: a cut") and f" {side} edge" in p for p in problems
                ):
                    break
    return problems


__all__ = [
    "duplex_problems",
    "fold_problems",
    "guest_problems",
    "kit_guests",
    "kit_sources",
    "miscut_problems",
    "recorded_sheets",
]
