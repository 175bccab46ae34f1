"""The built-in faces' per-character tables kept by a build (generator.render.fonts.font_tables): a face
restored from them is ReportLab's parsed face attribute for attribute and type for type; tables that do not
fit (another ReportLab, damaged) are ignored and the font is parsed."""

import json

import pytest
from reportlab.pdfbase.ttfonts import TTFontFace

from generator.render import fonts
from generator.render.fonts import FONT_FILES, font_tables, font_tables_version


@pytest.fixture(scope="module")
def tables():
    return json.loads(json.dumps(font_tables(), sort_keys=True))  # as the build stores them


def _same(restored, parsed) -> list[str]:
    a, b = dict(restored.__dict__), dict(parsed.__dict__)
    bad = sorted(set(a) ^ set(b))
    for key in set(a) & set(b):
        if key == "_pos":  # the parser's cursor: drawing moves it, and every read after the parse seeks first
            continue
        if key == "_pdfScale":
            if a[key](1234) != b[key](1234):
                bad.append(key)
        elif a[key] != b[key] or type(a[key]) is not type(b[key]):
            bad.append(key)
        elif isinstance(a[key], dict) and (
            list(a[key]) != list(b[key])
            or any(type(x) is not type(y) for x, y in zip(a[key].values(), b[key].values(), strict=True))
        ):
            bad.append(key)  # the same order and the same number types (ints stay ints, floats floats)
        elif key == "hmetrics" and any(
            type(x[0]) is not type(y[0]) for x, y in zip(a[key], b[key], strict=True)
        ):
            bad.append(key)
    return bad


@pytest.mark.parametrize("key", sorted(FONT_FILES))
def test_a_restored_face_is_the_parsed_face(tables, key):
    path = FONT_FILES[key]
    restored = fonts._face_from_tables(path, tables[key], tables["version"])
    assert restored is not None
    assert _same(restored, TTFontFace(str(path))) == []
    assert (
        any(type(m[0]) is float for m in restored.hmetrics) and type(restored.hmetrics[0][0]) is int
    )  # mixed kinds


def test_tables_that_do_not_fit_are_not_used(tables):
    path, good = FONT_FILES["regular"], tables["regular"]
    assert fonts._face_from_tables(path, good, [*font_tables_version()[:1], "0.0", "little"]) is None
    assert fonts._face_from_tables(path, good, None) is None
    assert fonts._face_from_tables(path, {**good, "chars": good["chars"][:-8]}, tables["version"]) is None
    assert fonts._face_from_tables(path, {**good, "positions": good["glyph_keys"]}, tables["version"]) is None
    bold = tables["bold"]
    damaged = {**good, "widths": {**good["widths"], "runs": [[1, 5]]}}
    assert fonts._face_from_tables(path, damaged, tables["version"]) is None
    assert fonts._face_from_tables(FONT_FILES["bold"], bold, tables["version"]) is not None
    assert fonts._face_from_tables(path, "not a table", tables["version"]) is None


def test_the_kept_tables_do_not_depend_on_what_was_drawn_before(tables):
    """OUT/.pnpkit/fonts.json is the same bytes whatever the process drew before saving it (drawing moves the
    parser's cursor, which is not kept)."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from generator.render.fonts import font_name

    c = Canvas(io.BytesIO())
    for key in sorted(FONT_FILES):
        c.setFont(font_name(key), 12)
        c.drawString(10, 10, "Sum Total 総合点 ラウンド 0123456789")
    c.save()  # subsets every face: reads glyphs all over each file
    assert json.loads(json.dumps(font_tables(), sort_keys=True)) == tables
