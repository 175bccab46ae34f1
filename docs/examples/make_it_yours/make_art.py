"""Draws this example's art (all CC0, see LICENSE): four suit icons and a logo as SVG, a 300 dpi card back as PNG
with its 3 mm bleed, and the Latin subset of DejaVu Serif used for headings. Run it from this folder to redraw
them: `python make_art.py` (the fonts are subset from the system's DejaVu Serif, /usr/share/fonts)."""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">{}</svg>\n'
SUITS = {
    # a drop, a shell, a leaf and a sun: the suits' own shapes, one colour each (tinted to the suit on the cards)
    "blue": '<path d="M50 4 C62 30 84 46 84 66 A34 34 0 0 1 16 66 C16 46 38 30 50 4 Z" fill="#1f6fd1"/>'
            '<path d="M34 66 A16 16 0 0 0 50 82" fill="none" stroke="#ffffff" stroke-width="6" stroke-linecap="round"/>',
    "red": '<path d="M50 92 L12 40 A40 40 0 0 1 88 40 Z" fill="#d62d3a"/>'
           '<path d="M50 92 L30 22 M50 92 L50 14 M50 92 L70 22" stroke="#ffffff" stroke-width="5" fill="none"/>',
    "green": '<path d="M14 86 C10 40 40 10 88 12 C90 60 60 90 14 86 Z" fill="#2e9e44"/>'
             '<path d="M18 82 L70 30" stroke="#ffffff" stroke-width="5" stroke-linecap="round"/>',
    "orange": '<circle cx="50" cy="50" r="22" fill="#f08a00"/>' + "".join(
        f'<path d="M{50 + 28 * math.cos(a):.1f} {50 + 28 * math.sin(a):.1f} L{50 + 46 * math.cos(a):.1f} '
        f'{50 + 46 * math.sin(a):.1f}" stroke="#f08a00" stroke-width="8" stroke-linecap="round"/>'
        for a in (k * math.pi / 4 for k in range(8))),
}
LOGO = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 100" width="400" height="100">'
        '<rect x="0" y="0" width="400" height="100" rx="18" fill="#0b3954"/>'
        + "".join(f'<circle cx="60" cy="50" r="{r}" fill="none" stroke="{c}" stroke-width="7"/>'
                  for r, c in ((12, "#ffd23f"), (26, "#8ecae6"), (40, "#219ebc")))
        + "".join(f'<path d="M{x} {y} q 20 -18 40 0 t 40 0 t 40 0 t 40 0 t 40 0 t 40 0" fill="none" '
                  f'stroke="{c}" stroke-width="9" stroke-linecap="round"/>'
                  for x, y, c in ((120, 38, "#8ecae6"), (120, 64, "#ffd23f")))
        + "</svg>\n")


def back_png() -> Image.Image:
    """A poker card back with 3 mm bleed on every side (69.5 x 94.9 mm) at 300 dpi: rings on deep blue."""
    w, h = round(69.5 / 25.4 * 300), round(94.9 / 25.4 * 300)
    image = Image.new("RGB", (w, h), (11, 57, 84))
    draw = ImageDraw.Draw(image)
    for k, colour in enumerate([(33, 158, 188), (142, 202, 230), (255, 210, 63)] * 6):
        r = 40 + 55 * k
        draw.ellipse((w / 2 - r, h / 2 - r, w / 2 + r, h / 2 + r), outline=colour, width=14)
    return image


def subset_fonts() -> None:
    """DejaVu Serif (regular and bold) cut to Latin, Latin-1, Latin Extended-A, punctuation and the maths signs."""
    from fontTools import subset

    keep = [*range(0x20, 0x7F), *range(0xA0, 0x180), *range(0x2010, 0x2030), 0x2212, 0x00D7, 0x2190, 0x2192, 0x2191]
    for src, dst in (("DejaVuSerif.ttf", "DejaVuSerifLatin-Regular.ttf"), ("DejaVuSerif-Bold.ttf", "DejaVuSerifLatin-Bold.ttf")):
        options = subset.Options()
        options.name_IDs = ["*"]
        options.notdef_outline = True
        font = subset.load_font(f"/usr/share/fonts/truetype/dejavu/{src}", options)
        sub = subset.Subsetter(options)
        sub.populate(unicodes=keep)
        sub.subset(font)
        (HERE / "assets" / "fonts").mkdir(parents=True, exist_ok=True)
        subset.save_font(font, str(HERE / "assets" / "fonts" / dst), options)


def main() -> None:
    (HERE / "assets" / "suits").mkdir(parents=True, exist_ok=True)
    for suit, body in SUITS.items():
        (HERE / "assets" / "suits" / f"{suit}.svg").write_text(SVG.format(body), encoding="utf-8")
    (HERE / "assets" / "logo.svg").write_text(LOGO, encoding="utf-8")
    back_png().save(HERE / "assets" / "back.png", optimize=True)
    subset_fonts()


if __name__ == "__main__":
    main()
