"""An SVG svglib drew once is not drawn again to check it: its texts are remembered by content hash (and by
the svglib and reportlab versions), and the drawing waits for its first use. The verdicts stay those of
svglib: the same texts, the same refusals."""

import hashlib

import pytest

from generator.spec import assets
from generator.spec.assets import _drawn_file, probe

TEXTS = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
    b'<text x="1" y="10" font-family="Helvetica">Sun \xc3\xa9t\xc3\xa9</text>'
    b'<text x="1" y="19" font-weight="bold">7</text></svg>'
)
PLAIN = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="5" height="5"/></svg>'
REFUSED = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    b'<text x="1" y="9" font-size="abc">x</text></svg>'
)


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path


def test_remembered_texts_are_svglibs_and_the_drawing_comes_on_use():
    first = probe(TEXTS, "a.svg")
    assert first.decoded is not None  # drawn now: svglib checked it
    assert first.svg_texts() == [("Sun été", "regular"), ("7", "bold")]
    again = probe(TEXTS, "b.svg")
    assert again.decoded is None  # not drawn to check it a second time
    assert again.svg_texts() == first.svg_texts()
    drawing = again.picture  # drawn on first use, the same drawing
    assert assets.svg_texts(drawing) == first.svg_texts()
    assert (drawing.width, drawing.height) == (first.picture.width, first.picture.height)


def test_a_refused_svg_is_refused_every_time_and_never_remembered():
    for _ in range(2):
        with pytest.raises(ValueError, match="svglib cannot draw it"):
            probe(REFUSED, "bad.svg")
    where = _drawn_file(probe(PLAIN, "p.svg").sha256)
    assert where is not None and where.exists()  # a drawn file is noted, in the same folder
    assert not where.with_name(f"{hashlib.sha256(REFUSED).hexdigest()}.json").exists()


@pytest.mark.parametrize("note", ["", "not json", '{"a": 1}', '[["x", "italic"]]', '[["x"]]', "[[1, 2]]"])
def test_a_broken_note_is_ignored_and_svglib_draws_again(note):
    where = _drawn_file(probe(TEXTS, "a.svg").sha256)
    assert where is not None
    where.write_text(note, encoding="utf-8")
    got = probe(TEXTS, "a.svg")
    assert got.decoded is not None and got.svg_texts() == [("Sun été", "regular"), ("7", "bold")]


def test_an_unwritable_cache_costs_only_the_drawing(cache):
    (cache / "pnpkit").write_text("a file where the folder would be", encoding="utf-8")
    for _ in range(2):
        got = probe(TEXTS, "a.svg")
        assert got.decoded is not None and got.svg_texts() == [("Sun été", "regular"), ("7", "bold")]


def test_the_note_names_the_versions_that_drew_it(cache):
    """Another svglib or reportlab may draw differently: its notes go to another folder."""
    from importlib.metadata import version

    where = _drawn_file("0" * 64)
    assert where is not None and where.parent.parent == cache / "pnpkit" / "svg"
    assert f"svglib-{version('svglib')}" in where.parent.name
    assert f"reportlab-{version('reportlab')}" in where.parent.name


def test_a_fifo_or_an_oversized_note_is_not_read(monkeypatch):
    """A note that is not a plain file (a FIFO would hang the read) or is larger than MAX_DRAWN_NOTE is
    ignored: svglib draws the SVG again."""
    import os

    where = _drawn_file(probe(TEXTS, "a.svg").sha256)
    assert where is not None
    where.unlink()
    os.mkfifo(where)
    got = probe(TEXTS, "a.svg")
    assert got.decoded is not None and got.svg_texts() == [("Sun été", "regular"), ("7", "bold")]
    where.unlink()
    where.write_text('[["x", "regular"]]' + " " * 64, encoding="utf-8")
    monkeypatch.setattr(assets, "MAX_DRAWN_NOTE", 32)
    got = probe(TEXTS, "a.svg")
    assert got.decoded is not None and got.svg_texts() == [("Sun été", "regular"), ("7", "bold")]
