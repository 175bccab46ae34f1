"""`image` and `icon` elements draw the kit's own art: every file is resolved, read and decoded once when the
kit loads (generator/spec/assets.py is the door), an SVG icon prints as vector paths (tinted from a colour), a
PNG as an image; a missing or hostile file is one located line naming the data row and the template key, exit
1, nothing written."""

from __future__ import annotations

import io
from typing import Any

import pikepdf
import pytest
import yaml
from PIL import Image

from generator.errors import SpecError
from generator.games.deck.files import load_files
from generator.games.deck.loaded import LoadedDeck
from generator.games.deck.spec import DeckGame
from generator.layout.ops import Image as ImageOp
from generator.layout.ops import Vector
from generator.spec.template import fill_path
from tests.games.deck.test_data import pnpkit
from tests.games.deck.test_docs import _example

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">'
    '<path d="M12 2 L22 22 L2 22 Z" fill="{colour}"/></svg>'
)
PNG_SIZE = (301, 117)  # odd sizes, so the image XObject is recognisably this file


def _png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", PNG_SIZE, (200, 120, 40)).save(buf, format="PNG")
    return buf.getvalue()


def _art_kit(tmp_path):
    """The documented tiny kit with its icons taken from assets/{type}.svg (tinted paper on the fire cards)
    and a PNG banner on the fire cards."""
    kit = _example(tmp_path)
    text = (kit / "kit.yaml").read_text(encoding="utf-8")
    text = text.replace("{type: icon, name: sun,", '{type: icon, src: "assets/{type}.svg", tint: paper,')
    text = text.replace("{type: icon, name: drop,", '{type: icon, src: "assets/{type}.svg",')
    text = text.replace("fill: paper, stroke: null}", "}")
    text = text.replace(
        "        - {type: line, x: 4mm, y: 66mm,",
        "        - {type: image, src: assets/banner.png, x: 4mm, y: 22mm, w: 20mm, h: 8mm, fit: contain}\n"
        "        - {type: line, x: 4mm, y: 66mm,",
    )
    (kit / "kit.yaml").write_text(text, encoding="utf-8")
    (kit / "assets").mkdir()
    (kit / "assets" / "fire.svg").write_text(SVG.replace("{colour}", "#c0392b"), encoding="utf-8")
    (kit / "assets" / "ice.svg").write_text(SVG.replace("{colour}", "#2980b9"), encoding="utf-8")
    (kit / "assets" / "banner.png").write_bytes(_png())
    return kit


def _game(kit) -> LoadedDeck:
    raw = yaml.safe_load((kit / "kit.yaml").read_text(encoding="utf-8"))["game"]
    return load_files(
        DeckGame.model_validate(raw), kit.resolve(), lambda rel: rel, lambda key: None, "kit.yaml"
    )


def test_an_svg_icon_prints_as_paths_and_a_png_as_an_image(tmp_path):
    kit = _art_kit(tmp_path)
    out = tmp_path / "out"
    r = pnpkit("build", str(kit), "--out", str(out), "--lang", "en")
    assert r.returncode == 0, r.stderr
    with pikepdf.open(out / "tiny_deck" / "en" / "cards-a4.pdf") as pdf:
        images, forms = [], []
        for page in pdf.pages:
            for _, xobj in (page.Resources.get("/XObject") or {}).items():
                if xobj.get("/Subtype") == "/Image":
                    images.append((int(xobj.Width), int(xobj.Height)))
                elif xobj.get("/Subtype") == "/Form":
                    forms.append(xobj.read_bytes())
    # the PNG is the only image: the SVGs are not rasterized
    assert images and set(images) == {PNG_SIZE}
    # each SVG (and tint) is one Form of vector paths: the triangle is moved to, lined to and filled
    painted = [f for f in forms if b" l" in f and (b"f" in f)]
    assert painted, forms[:2]
    colours = b"".join(painted)
    assert b"1 1 1 rg" in colours  # the fire icon tinted paper (#ffffff)
    assert b"rg" in colours.replace(b"1 1 1 rg", b"")  # the ice icon in its own blue


def test_every_file_is_decoded_once_and_keyed_by_content(tmp_path):
    kit = _art_kit(tmp_path)
    game = _game(kit)
    assets = game.assets
    assert sorted(assets) == ["assets/banner.png", "assets/fire.svg", "assets/ice.svg"]
    assert assets["assets/fire.svg"].is_vector and not assets["assets/banner.png"].is_vector
    # the build keys take the art from the door's recorded reads of the load (Kit.game_files)
    from generator.buildkeys import spec_key
    from generator.contract.load import load_kit

    def key(loaded: Any) -> str:
        return spec_key(loaded, tool="t", part="cards", lang="en", paper="a4", seed=1, pdfa=False, png=False)

    first = load_kit(kit)
    before = dict(first.game_files)
    assert {"assets/banner.png", "assets/fire.svg", "assets/ice.svg"} <= set(before)
    assert key(load_kit(kit)) == key(first)
    (kit / "assets" / "ice.svg").write_text(SVG.replace("{colour}", "#000000"), encoding="utf-8")
    second = load_kit(kit)
    after = dict(second.game_files)
    assert before["assets/fire.svg"] == after["assets/fire.svg"]
    assert before["assets/ice.svg"] != after["assets/ice.svg"]  # the build key sees the changed icon
    assert key(second) != key(first)


def test_the_renderer_emits_vector_and_image_ops(tmp_path):
    from generator.i18n.sandbox import CatalogEnvironment
    from generator.layout.template import FaceRenderer
    from generator.spec.template import FaceTemplate

    game = _game(_art_kit(tmp_path))
    # no text drawn: no measure
    draw = FaceRenderer(CatalogEnvironment(), None, {}, game.assets)  # type: ignore[arg-type]
    tpl = FaceTemplate.model_validate(
        {
            "front": [
                {
                    "type": "icon",
                    "src": "assets/{type}.svg",
                    "tint": "{{ tint }}",
                    "x": "10%",
                    "y": "10%",
                    "w": "20mm",
                    "h": "10mm",
                },
                {
                    "type": "image",
                    "src": "assets/banner.png",
                    "x": 0,
                    "y": 0,
                    "w": "50%",
                    "h": "50%",
                    "opacity": 0.5,
                },
                {
                    "type": "icon",
                    "src": "assets/{type}.svg",
                    "x": 0,
                    "y": 0,
                    "w": "1mm",
                    "h": "1mm",
                    "when": "False",
                },
            ]
        }
    )
    face = draw.face("f", tpl.front, {"type": "fire", "tint": "#123456"}, 100, 200, 0, "here")
    vector, image = face.ops
    assert isinstance(vector, Vector) and vector.asset.shown == "assets/fire.svg" and vector.tint == "#123456"
    assert (vector.x, vector.w, vector.fit) == (10, pytest.approx(20 * 72 / 25.4), "contain")
    assert isinstance(image, ImageOp) and image.opacity == 0.5 and image.fit == "cover" and image.y == 100
    # a row whose field is empty draws no icon
    assert draw.face("f", tpl.front[:1], {"type": "", "tint": ""}, 100, 200, 0, "here").ops == ()


def test_fill_path():
    assert fill_path("assets/{suit}/{id}.png", {"suit": "sun", "id": 3}) == "assets/{suit}/{id}.png".replace(
        "{suit}", "sun"
    ).replace("{id}", "3")
    assert fill_path("assets/{suit}.svg", {"suit": None}) is None
    with pytest.raises(KeyError):
        fill_path("assets/{suit}.svg", {})


@pytest.mark.parametrize(
    "breakage, message",
    [
        ("missing", "no such file in the kit folder: 'assets/ice.svg'"),
        ("script", "assets/ice.svg: <script> is refused"),
        ("mislabelled", "assets/ice.svg: not well-formed XML"),
    ],
)
def test_a_bad_icon_file_is_one_located_error(tmp_path, breakage, message):
    kit = _art_kit(tmp_path)
    icon = kit / "assets" / "ice.svg"
    if breakage == "missing":
        icon.unlink()
    elif breakage == "script":
        icon.write_text(
            SVG.replace("{colour}", "#000000").replace("</svg>", "<script>alert(1)</script></svg>"),
            encoding="utf-8",
        )
    else:
        icon.write_bytes(_png())
    out = tmp_path / "out"
    r = pnpkit("build", str(kit), "--out", str(out), "--lang", "en")
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr
    lines = [ln.strip() for ln in r.stderr.splitlines() if "assets/ice.svg" in ln]
    # frost (the only ice row) is line 4 of the CSV; its template is `cold`, the icon its third element
    assert len(lines) == 1, r.stderr
    assert "tiny_deck/data/cards.csv:4: game.templates.cold.front[2].src: " in lines[0], lines
    assert message in lines[0]
    assert not out.exists() or not any(out.rglob("*.pdf"))


def test_a_column_the_row_lacks_is_a_located_error(tmp_path):
    kit = _art_kit(tmp_path)
    text = (
        (kit / "kit.yaml")
        .read_text(encoding="utf-8")
        .replace("src: assets/banner.png", 'src: "assets/{art}.png"')
    )
    (kit / "kit.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as e:
        _game(kit)
    assert [str(p) for p in e.value.problems] == [
        "data/cards.csv:2: game.templates.hot.front[4].src: 'assets/{art}.png' names {art}, but the row has "
        "no column 'art'"
    ]


@pytest.mark.parametrize(
    "element, why",
    [
        ({"type": "icon", "x": 0, "y": 0, "w": "1mm", "h": "1mm"}, "give either name"),
        (
            {"type": "icon", "name": "sun", "src": "a.svg", "x": 0, "y": 0, "w": "1mm", "h": "1mm"},
            "give either name",
        ),
        (
            {"type": "icon", "src": "assets/a.png", "x": 0, "y": 0, "w": "1mm", "h": "1mm"},
            "must be an .svg file",
        ),
        (
            {"type": "image", "src": "../outside.png", "x": 0, "y": 0, "w": "1mm", "h": "1mm"},
            "inside the kit folder",
        ),
        (
            {"type": "image", "src": "/etc/passwd.png", "x": 0, "y": 0, "w": "1mm", "h": "1mm"},
            "not an absolute one",
        ),
        (
            {"type": "image", "src": "assets/{{ id }}.png", "x": 0, "y": 0, "w": "1mm", "h": "1mm"},
            "placeholder",
        ),
    ],
)
def test_a_bad_src_is_refused_by_the_model(element, why):
    from pydantic import ValidationError

    from generator.spec.template import FaceTemplate

    with pytest.raises(ValidationError, match=why.replace(".", r"\.").replace("{", r"\{")):
        FaceTemplate.model_validate({"front": [element]})


def test_an_svg_icons_text_is_embedded_and_one_no_face_can_draw_is_a_clean_error(tmp_path):
    """An SVG's <text> is set in the kit's faces (embedded, so --pdfa passes); a character none has is an
    error naming the element kind and the file (deck art is checked when drawn), exit 1, nothing written."""
    from pikepdf import pdfa

    kit = _art_kit(tmp_path)
    text_svg = SVG.replace("{colour}", "#2980b9").replace(
        "</svg>", '<text x="2" y="20" font-family="Helvetica" font-size="6">ICE {char}</text></svg>'
    )
    (kit / "assets" / "ice.svg").write_text(text_svg.replace("{char}", "!"), encoding="utf-8")
    out = tmp_path / "out"
    r = pnpkit("build", str(kit), "--out", str(out), "--lang", "en", "--pdfa")
    assert r.returncode == 0, r.stderr
    cards = out / "tiny_deck" / "en" / "cards-a4.pdf"
    assert pdfa.validate_written(cards, "2b").passed
    (kit / "assets" / "ice.svg").write_text(text_svg.replace("{char}", "\U0001f30a"), encoding="utf-8")
    r = pnpkit("build", str(kit), "--out", str(tmp_path / "out2"), "--lang", "en")
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert (
        "art icon (assets/ice.svg): the SVG's text 'ICE \U0001f30a' has characters no regular face has: "
        "U+1F30A" in r.stderr
    ), r.stderr
    assert not (tmp_path / "out2" / "tiny_deck").exists()
